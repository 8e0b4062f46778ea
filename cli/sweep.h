// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep.h — `nocprof sweep` (docs/sweeps.md): the cross product of axes
 * over config keys, firmware and sampling periods, each run a normal output
 * folder DIR/runs/run-NNNN, run by one of three engines (local processes,
 * GNU parallel, a Slurm job array) that all execute the same
 * `nocprof sweep run-one DIR INDEX`, and the results gathered into
 * DIR/sweep.csv, DIR/sweep.json and DIR/sweep.html.
 *
 *   sweep.c          command line, the plan (DIR/sweep-plan.json), run-one
 *   sweep_engine.c   the engines
 *   sweep_collect.c  the runs' summary.json -> sweep.csv, .json, .html
 */
#ifndef NOCPROF_CLI_SWEEP_H
#define NOCPROF_CLI_SWEEP_H

#include <glib.h>
#include <stdbool.h>

#define SWEEP_PLAN_FILE "sweep-plan.json"
#define SWEEP_RUN_STATUS "sweep-run.json"   /* in each run's folder, last */
#define SWEEP_RUN_LOG "sweep-run.log"       /* the run's stdout and stderr */
#define SWEEP_MAX_RUNS 100000u

typedef struct SweepAxis {
    char *key;                 /* group.key, "firmware" or "sample_period" */
    char **values;             /* NULL-terminated */
    unsigned nvalues;
} SweepAxis;

typedef struct SweepPlan {
    char *dir;                 /* absolute */
    char *nocprof;             /* absolute path of the executable */
    GPtrArray *axes;           /* SweepAxis *, owned */
    char **firmware;           /* positional ELFs, absolute (may be empty) */
    char **run_args;           /* passed to every run (-c, --set, ...) */
    char **track;              /* --track FUNC */
    unsigned nruns;
} SweepPlan;

void sweep_plan_free(SweepPlan *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SweepPlan, sweep_plan_free)

/* Run i's value index on axis a (the last axis varies fastest). */
unsigned sweep_value_index(const SweepPlan *p, unsigned run, unsigned axis);
/* "run-0003": its folder below DIR/runs. */
char *sweep_run_name(unsigned run);
char *sweep_run_dir(const SweepPlan *p, unsigned run);
/* The plan as saved in DIR/sweep-plan.json, and read back. */
GString *sweep_plan_json(const SweepPlan *p);
SweepPlan *sweep_plan_load(const char *dir, GError **error);
/* Whether run i has finished (its status file exists); its status. */
bool sweep_run_done(const SweepPlan *p, unsigned run, int *status);

/* sweep_engine.c: run the runs not done yet; engine "local", "parallel"
 * or "slurm"; jobs = at most this many at once (0: the host's CPUs);
 * sshlogins: GNU parallel's --sshloginfile (NULL: this host); dry_run: the
 * slurm engine writes DIR/sweep.sbatch only. */
typedef struct SweepEngineOpts {
    const char *engine;
    unsigned jobs;
    const char *sshlogins;
    bool dry_run;
} SweepEngineOpts;
bool sweep_engine_run(const SweepPlan *p, const SweepEngineOpts *o, GError **error);
/* Whether the slurm engine's job script can name dir (no newline, no
 * backslash); else a usage error. */
bool sweep_slurm_dir_ok(const char *dir, GError **error);
/* Host threads each run gets when jobs run at once on this host. */
unsigned sweep_threads_per_run(unsigned jobs);

/* sweep_collect.c: DIR/sweep.csv, sweep.json, sweep.html from the runs;
 * *failed = runs whose status is not 0 (or that have none). */
bool sweep_collect(const SweepPlan *p, unsigned *failed, GError **error);

/* sweep.c: the command (main.c), and whether SIGINT/SIGTERM came. */
int cmd_sweep(int argc, char **argv);
bool sweep_interrupted(void);

#endif

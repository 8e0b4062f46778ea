// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep_engine.c — the three engines of `nocprof sweep` (sweep.h). Each
 * runs `nocprof sweep run-one DIR INDEX` for the runs not finished yet;
 * run-one writes the run's folder and, last, its status file, so whatever
 * engine ran a run, the sweep sees the same thing. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/sweep.h"

unsigned sweep_threads_per_run(unsigned jobs)
{
    unsigned cpus = g_get_num_processors();
    return jobs && cpus / jobs > 1 ? cpus / jobs : 1;
}

/* The runs without a status file, in order. */
static GArray *pending(const SweepPlan *p)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(unsigned));
    for (unsigned i = 0; i < p->nruns; i++) {
        int st;
        if (!sweep_run_done(p, i, &st))
            g_array_append_val(a, i);
    }
    return a;
}

static char *index_str(unsigned i)
{
    return g_strdup_printf("%u", i);
}

/* ---- local: up to jobs child processes ------------------------------------ */

static bool local_spawn(const SweepPlan *p, unsigned run, char **envp, GPid *pid, GError **error)
{
    g_autofree char *idx = index_str(run);
    const char *argv[] = { p->nocprof, "sweep", "run-one", p->dir, idx, NULL };
    return g_spawn_async(NULL, (char **)argv, envp, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                         NULL, NULL, pid, error);
}

static bool engine_local(const SweepPlan *p, GArray *todo, unsigned jobs, GError **error)
{
    g_autofree char *threads = index_str(sweep_threads_per_run(jobs));
    g_auto(GStrv) envp = g_environ_setenv(g_get_environ(), "NOCPROF_SWEEP_THREADS", threads, TRUE);
    unsigned next = 0, running = 0;
    bool ok = true;
    while (running || (ok && next < todo->len && !sweep_interrupted())) {
        while (ok && running < jobs && next < todo->len && !sweep_interrupted()) {
            GPid pid;
            ok = local_spawn(p, g_array_index(todo, unsigned, next), envp, &pid, error);
            next += ok;
            running += ok;
        }
        if (!running)
            break;
        int st;
        pid_t got = waitpid(-1, &st, 0);
        if (got > 0)
            running--;
        else if (errno == ECHILD)
            running = 0;
    }
    return ok;
}

/* ---- parallel: GNU parallel -------------------------------------------------- */

static bool engine_parallel(const SweepPlan *p, GArray *todo, const SweepEngineOpts *o, GError **error)
{
    g_autofree char *prog = g_find_program_in_path("parallel");
    if (!prog) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE,
                    "--engine parallel: GNU parallel not found (Debian: apt-get install parallel)");
        return false;
    }
    unsigned jobs = o->jobs ? o->jobs : g_get_num_processors();
    g_autofree char *j = index_str(jobs);
    g_autofree char *threads = index_str(o->sshlogins ? 1 : sweep_threads_per_run(jobs));
    GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
    /* -q: parallel runs the command through a shell; quoted, a folder or
     * an executable path with spaces, quotes or $(...) is one argument */
    const char *head[] = { prog, "--will-cite", "-q", "--halt", "never", "--jobs", j, "--env", "NOCPROF_SWEEP_THREADS" };
    for (unsigned k = 0; k < G_N_ELEMENTS(head); k++)
        g_ptr_array_add(argv, g_strdup(head[k]));
    if (o->sshlogins) {
        g_ptr_array_add(argv, g_strdup("--sshloginfile"));
        g_ptr_array_add(argv, g_strdup(o->sshlogins));
    }
    const char *cmd[] = { p->nocprof, "sweep", "run-one", p->dir, ":::" };
    for (unsigned k = 0; k < G_N_ELEMENTS(cmd); k++)
        g_ptr_array_add(argv, g_strdup(cmd[k]));
    for (guint i = 0; i < todo->len; i++)
        g_ptr_array_add(argv, index_str(g_array_index(todo, unsigned, i)));
    g_ptr_array_add(argv, NULL);
    g_auto(GStrv) envp = g_environ_setenv(g_get_environ(), "NOCPROF_SWEEP_THREADS", threads, TRUE);
    int wait_status;
    bool ok = g_spawn_sync(NULL, (char **)argv->pdata, envp, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                           &wait_status, error);
    g_ptr_array_free(argv, TRUE);
    /* parallel's status counts the runs that failed: each run's own status
     * file says which */
    return ok;
}

/* ---- slurm: a job array --------------------------------------------------------- */

/* "0-3,5,7-9" */
static GString *ranges(GArray *todo)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < todo->len;) {
        unsigned a = g_array_index(todo, unsigned, i), b = a;
        while (i + 1 < todo->len && g_array_index(todo, unsigned, i + 1) == b + 1)
            b = g_array_index(todo, unsigned, ++i);
        i++;
        g_string_append_printf(s, s->len ? ",%u" : "%u", a);
        if (b != a)
            g_string_append_printf(s, "-%u", b);
    }
    return s;
}

bool sweep_slurm_dir_ok(const char *dir, GError **error)
{
    const char *bad = strchr(dir, '\n') ? "a newline" : strchr(dir, '\\') ? "a backslash" : NULL;
    if (bad)
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE,
                    "--engine slurm: the folder '%s' holds %s, which the job script's #SBATCH --output "
                    "line cannot name (Slurm reads a backslash in it as 'do not expand'); give another -o",
                    dir, bad);
    return bad == NULL;
}

/* DIR in a #SBATCH line, in double quotes: sbatch splits the line at
 * white space outside quotes, ends it at an unquoted '#', and takes a
 * backslash as an escape (Slurm 22.05 escapes no white space outside
 * quotes); the output file name then expands %-patterns, %% being one %
 * (sweep_slurm_dir_ok refused what cannot be said). */
static void sbatch_path(GString *s, const char *dir)
{
    for (const char *c = dir; *c; c++) {
        if (*c == '"' || *c == '\\')
            g_string_append_c(s, '\\');
        else if (*c == '%')
            g_string_append_c(s, '%');
        g_string_append_c(s, *c);
    }
}

static GString *sbatch_script(const SweepPlan *p, GArray *todo, unsigned jobs)
{
    GString *arr = ranges(todo);
    g_autofree char *qexe = g_shell_quote(p->nocprof);
    g_autofree char *qdir = g_shell_quote(p->dir);
    GString *s = g_string_new("#!/bin/sh\n");
    g_string_append(s, "#SBATCH --job-name=nocprof-sweep\n");
    g_string_append_printf(s, "#SBATCH --array=%s", arr->str);
    if (jobs)
        g_string_append_printf(s, "%%%u", jobs);
    g_string_append(s, "\n#SBATCH --output=\"");
    sbatch_path(s, p->dir);
    g_string_append(s, "/runs/slurm-%A_%a.out\"\n");
    g_string_append(s, "#SBATCH --cpus-per-task=1\n");
    g_string_append_printf(s, "# nocprof sweep: %u runs of the plan beside this script (sweep-plan.json);\n"
                              "# each array task runs the run of its index. Submit with: sbatch --wait sweep.sbatch\n",
                           p->nruns);
    g_string_append_printf(s, "NOCPROF_SWEEP_THREADS=\"${SLURM_CPUS_PER_TASK:-1}\" exec %s sweep run-one %s "
                              "\"$SLURM_ARRAY_TASK_ID\"\n", qexe, qdir);
    g_string_free(arr, TRUE);
    return s;
}

static bool engine_slurm(const SweepPlan *p, GArray *todo, const SweepEngineOpts *o, GError **error)
{
    g_autofree char *runs = g_build_filename(p->dir, "runs", NULL);
    if (g_mkdir_with_parents(runs, 0755) != 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: cannot create: %s", runs, g_strerror(errno));
        return false;
    }
    GString *script = sbatch_script(p, todo, o->jobs);
    bool ok = cli_write_file(p->dir, "sweep.sbatch", script->str, script->len, error);
    g_string_free(script, TRUE);
    if (!ok || o->dry_run)
        return ok;
    g_autofree char *prog = g_find_program_in_path("sbatch");
    if (!prog) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE,
                    "--engine slurm: sbatch not found (Slurm's client; Debian: slurm-client); "
                    "--dry-run writes %s/sweep.sbatch only", p->dir);
        return false;
    }
    g_autofree char *path = g_build_filename(p->dir, "sweep.sbatch", NULL);
    const char *argv[] = { prog, "--wait", "--quiet", path, NULL };
    int wait_status;
    g_autofree char *err_text = NULL;
    ok = g_spawn_sync(p->dir, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err_text,
                      &wait_status, error);
    /* sbatch --wait fails when a task did (a run's non-zero status): only a
     * job that never ran leaves the runs without their status files */
    if (ok && !g_spawn_check_wait_status(wait_status, NULL) && err_text && *err_text)
        fprintf(stderr, "nocprof sweep: sbatch: %s", err_text);
    return ok;
}

bool sweep_engine_run(const SweepPlan *p, const SweepEngineOpts *o, GError **error)
{
    GArray *todo = pending(p);
    bool ok = true;
    if (todo->len) {
        if (strcmp(o->engine, "parallel") == 0)
            ok = engine_parallel(p, todo, o, error);
        else if (strcmp(o->engine, "slurm") == 0)
            ok = engine_slurm(p, todo, o, error);
        else
            ok = engine_local(p, todo, o->jobs ? o->jobs : g_get_num_processors(), error);
    }
    g_array_free(todo, TRUE);
    return ok;
}

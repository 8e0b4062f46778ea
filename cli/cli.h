// SPDX-License-Identifier: GPL-2.0-or-later
/* cli.h — the nocprof command line (SPEC section 4), shared by its files:
 *   main.c     main(): top-level help and command dispatch
 *   options.c  `nocprof run` options -> Config and the ELF of each core
 *   run.c      cmd_run: load the firmware, build and run the machine with
 *              the collectors, gather every core's outcome and profile
 *   write.c    the output folder: every report, written atomically, from
 *              a ProfileData (a live run's or saved data), and the data
 *   flame.c    report.html's flame data from the folded trees
 *   report.c   `nocprof report`: re-render a finished run from its data,
 *              and the report options shared by every command that writes
 *              reports (cli_report_*)
 *   manifest.c OUT/.nocprof-manifest: what nocprof wrote there
 *   diff.c     `nocprof diff`: two runs compared function by function
 *   merge.c    `nocprof merge`: runs of the same firmware summed
 *   progress.c the progress line of a run on a terminal
 *   frames.c   a stopped core's call stack: names folded, gdb's frames
 * Only this folder prints and exits; the libraries return GErrors. */
#ifndef NOCPROF_CLI_H
#define NOCPROF_CLI_H

#include <glib.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "profiler/analysis/aliasing.h"
#include "profiler/collect/collect.h"
#include "profiler/comm/comm.h"
#include "platform/config.h"
#include "emu/machine.h"
#include "profiler/data/profile_data.h"
#include "profiler/model/run.h"
#include "profiler/model/symbols.h"

/* Exit statuses (SPEC section 4). */
enum {
    EXIT_OK = 0,
    EXIT_NONZERO = 1,
    EXIT_USAGE = 2,
    EXIT_FAULT = 3,
    EXIT_LIMIT = 4,
    EXIT_REPORTS = 5,          /* the run ended, a report could not be written */
    EXIT_SIGHUP = 129,         /* the terminal went away: as SIGTERM */
    EXIT_SIGINT = 130,
    EXIT_SIGTERM = 143,
};

#define CLI_DEFAULT_OUT "nocprof-out"
#define CLI_DEFAULT_DIFF_OUT "nocprof-diff"   /* nocprof diff without -o */

typedef struct Options {
    char *config;
    char *out;
    char **periods;
    char **sets;
    char **core_maps;
    char **elfs;
    char *max_cycles;          /* NULL: the config's [run] max_cycles */
    char *threads;             /* --threads N (NULL: [sched] threads) */
    gboolean alias_check, quiet, no_profile;
    gboolean progress, no_progress; /* --progress / --no-progress */
    /* issue 11: regions of interest and report shaping */
    char **collect_only;       /* --collect-only FUNC (repeatable) */
    char *collect_initially;   /* --collect-initially yes|no */
    char **focus, **exclude;   /* --focus / --exclude FUNC (reports) */
    gint fold_recursion;       /* --fold-recursion N (0: off) */
    gboolean no_trace;         /* --no-trace */
    gboolean no_comm;          /* --no-comm: no communication profile */
    gint64 trace_limit;        /* --trace-limit N events per core (0: default) */
    char *annotate;            /* --annotate=source|asm|both */
    gboolean events;           /* --events: flat.txt's event columns */
    char **source_dirs;        /* --source-dir DIR (repeatable, gprof -I) */
    char **source_maps;        /* --source-map OLD=NEW (gdb substitute-path) */
    char *gdb;                 /* --gdb [HOST:]PORT: serve the GDB remote protocol */
    char *gdb_stop_at;         /* --gdb-stop-at-cycle N */
    gint gdb_checkpoints;      /* --gdb-checkpoints N (reverse execution; 0: off) */
    gint64 gdb_checkpoint_every; /* --gdb-checkpoint-every N instructions */
} Options;

void options_clear(Options *o);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(Options, options_clear)

/* Timeline events kept per core (and NoC packets): --trace-limit, 0 with
 * --no-trace, else CLI_TRACE_LIMIT. Every kept span costs about 1 KB of
 * peak memory on the way to trace.json, profile.data and report.html, so
 * the default bounds a run's memory (docs/performance.md). */
#define CLI_TRACE_LIMIT 10000
size_t cli_trace_limit(const Options *o);

/* Parse `nocprof run` arguments (argv[0] is "run"). */
bool cli_parse_run(int *argc, char ***argv, Options *o, GError **error);
/* The effective configuration: defaults, -c FILE, --set, --max-cycles,
 * --sample-period, --alias-check, then validated. */
bool cli_config(const Options *o, Config *cfg, GError **error);
/* Which ELF runs on which core: paths[ncores], borrowed from o (or demo
 * when no ELF is given; demo may be NULL when o names ELFs). */
bool cli_core_paths(const Options *o, unsigned ncores, char *demo, char **paths, GError **error);
/* Whether o names no ELF at all (the bundled demo runs). */
bool cli_wants_demo(const Options *o);

/* One firmware file, loaded once however many cores run it. */
typedef struct Firmware {
    char *path;
    ElfImage *img;
    Symbols *syms;
    char *sha256;              /* hex SHA-256 of the file's content */
} Firmware;

/* The console echo on stdout (unless -q): stops for good at the first
 * write error (a closed pipe, a full disk); console.txt is unaffected.
 * And each core's console.txt, streamed into OUT/coreN/ as the core
 * prints (a temporary name until the run ends: console_finish). */
typedef struct Echo {
    gboolean quiet;
    bool stopped;
    int error;                 /* errno of the failed write, 0 if none */
    const char *out;           /* the output folder */
    unsigned ncores;
    FILE **files;              /* [ncores] the streams, opened at the first byte */
    char **tmp;                /* [ncores] their temporary names */
    GError *file_error;        /* the first failed write of a console.txt */
    long *at;                  /* [ncores] positions at the last checkpoint (--gdb) */
    uint64_t echoed, mute;     /* lines echoed; the first `mute` not again (a replay) */
} Echo;

/* Everything one run made, for the report writers. */
typedef struct Run {
    const Options *opts;
    Config cfg;
    const char *out;
    unsigned ncores;
    char **paths;              /* [ncores] ELF of each core (borrowed) */
    const char *demo;          /* OUT/firmware/pipeline.elf when the bundled
                                  demo runs, else NULL */
    char *demo_tmp;            /* where it is loaded from (while starting) */
    GPtrArray *fws;            /* Firmware, owned */
    int *fw_of;                /* [ncores] index into fws */
    Machine *m;
    Collector **cols;          /* [ncores]; NULL entries with --no-profile */
    CommRun *comm;             /* communication recorder; NULL with --no-profile */
    ProfileData data;          /* the outcome: what is saved and reported */
    Echo echo;                 /* console echo on stdout */
    CoreResult *res;           /* = data.cores */
    Profile **profs;           /* = data.profs; NULL with --no-profile */
    int status;
} Run;

int cmd_run(int argc, char **argv);

/* console.c: the ConsoleFn of a run (opaque: its Echo): the echo, and
 * each core's console.txt streamed into OUT/coreN/ (after
 * cli_console_start). cli_console_finish closes the streams and renames
 * them to console.txt (an empty one for a core that printed nothing);
 * false with the first write error. */
void cli_console_line(void *opaque, unsigned core, const char *line, size_t len, bool eol);
void cli_console_start(Echo *e, const char *out, unsigned ncores);
bool cli_console_finish(Echo *e, GError **error);
void cli_console_clear(Echo *e);
/* Reverse execution under gdb (gdb/history.c) forks checkpoints of the
 * process: before one, every stream is open and flushed and its position
 * noted; a copy resumed from it cuts the files back there and echoes no
 * line the replaced process echoed already (mark: how many). */
void cli_console_checkpoint(void *echo);
uint64_t cli_console_mark(void *echo);
void cli_console_resume(void *echo, uint64_t mark);
/* What profile.data keeps of a console: all of it, or when the core printed
 * more than core_console() kept, that head and a line starting with
 * CLI_CONSOLE_CUT giving the total; cli_console_is_cut tells which. */
#define CLI_CONSOLE_CUT "\n[nocprof: console cut: "
GBytes *cli_console_data(const char *head, size_t len, uint64_t total);
bool cli_console_is_cut(GBytes *data);

/* progress.c: the one-line progress on stderr while the machine runs.
 * mode 1: always (--progress), 0: when stderr is a terminal, -1: never.
 * NULL when off. progress_stop erases the line and frees. */
typedef struct Progress Progress;
Progress *progress_start(Machine *m, uint64_t max_cycles, int mode);
void progress_stop(Progress *p);

/* signals.c (docs/robustness.md) */
extern volatile sig_atomic_t cli_interrupted;
/* SIGINT/SIGTERM/SIGHUP handlers and SIGPIPE ignored, for the whole run. */
void cli_signals_install(void);
/* The machine has stopped: a first signal now only sets the status. */
void cli_signals_writing(void);
/* EXIT_SIGINT / EXIT_SIGTERM / EXIT_SIGHUP after such a signal, else 0. */
int cli_signal_status(void);
/* "SIGINT", "SIGTERM" or "SIGHUP": the signal of that status. */
const char *cli_signal_name(int status);
/* Whether a child's exit status says a signal stopped it (sweep). */
bool cli_status_is_signal(int status);
void cli_signals_restore(void);
/* The final status is fixed: signals from now on change nothing. */
void cli_signals_freeze(void);
/* A temporary file that an abort (a further signal after the grace)
 * removes; untrack_all forgets them (renamed or removed). */
void cli_signals_track(const char *path);
void cli_signals_untrack_all(void);
/* NOCPROF_TEST_SIGNAL=NAME:SIG[,SIG...]: raise the signals when the file
 * NAME (relative to the output folder) is about to be written (tests). */
void cli_test_hook(const char *name);

/* stage.c: new files written under temporary names (dir/name.tmp-PID)
 * and renamed into place together by cli_stage_commit, which first fixes
 * the status (cli_signals_freeze) and, with stop_on_signal, after a
 * SIGINT/SIGTERM removes them instead and fails (report, diff, merge: an
 * interrupted command leaves the previous complete set). Writing the same
 * name twice replaces the staged file. Errors name the final path. */
typedef struct CliStage CliStage;
CliStage *cli_stage_new(void);
bool cli_stage_put(CliStage *s, const char *dir, const char *name, const char *data, gsize len, GError **error);
/* A stream to write dir/name (staged); cli_stage_close closes it, ok: the
 * writes succeeded. */
FILE *cli_stage_open(CliStage *s, const char *dir, const char *name, GError **error);
bool cli_stage_close(CliStage *s, const char *dir, const char *name, FILE *f, bool ok, GError **error);
/* The temporary file dir/name is staged in (NULL: not staged), to read back. */
const char *cli_stage_path(CliStage *s, const char *dir, const char *name);
bool cli_stage_commit(CliStage *s, bool stop_on_signal, GError **error);
/* cli_stage_commit with the files of the final paths in last (NULL-ended;
 * the summaries) renamed after every other. In between, hook(data, ok),
 * ok: every other file was renamed; it may stage the last files again (with
 * status 5) and returns false if what it writes itself failed. If one of
 * the last files cannot be renamed, hook(data, false) is called again and
 * the others are renamed again: what they say is the status the command
 * exits with. */
typedef bool (*CliStageHook)(void *data, bool ok);
bool cli_stage_commit_last(CliStage *s, bool stop_on_signal, const char *const *last, CliStageHook hook,
                           void *data, GError **error);
/* Remove every staged file (nothing is replaced). */
void cli_stage_discard(CliStage *s);
void cli_stage_free(CliStage *s);
/* The final status of a run whose status was `status` once its reports
 * were (reports_ok) or were not all written: 130/143 after a signal, else
 * EXIT_REPORTS for a failed report, else status. */
int cli_final_status(int status, bool reports_ok);
/* The error of an output folder (-o) that g_mkdir_with_parents could not
 * make (errno): a usage error, status 2 for every command, nothing written
 * (SPEC 4: nothing ran). */
GError *cli_no_output_folder(const char *dir);

/* rename(tmp, path), 0 or -1 with errno. A path that exists is swapped
 * with tmp (renameat2 RENAME_EXCHANGE) and the old file unlinked: ext4
 * flushes a file renamed over another at once (auto_da_alloc), in the
 * caller's time (docs/performance.md, "Session 9"); where the exchange
 * is not supported, a plain rename. */
int cli_replace(const char *tmp, const char *path);
/* Write data to dir/name atomically (temporary name, then cli_replace). */
bool cli_write_file(const char *dir, const char *name, const char *data, gsize len, GError **error);
/* Write every report of a finished run (or of saved data) into out, then
 * OUT/.nocprof-manifest, removing what an earlier run listed there and
 * this one did not write. Flags: CLI_WRITE_DATA also saves d as
 * out/profile.data; CLI_WRITE_DEMO: the bundled demo's ELF was written to
 * out/firmware/; CLI_WRITE_KEEP: keep the saved data and firmware/ that
 * the manifest lists (re-rendering into the folder of the data). */
enum { CLI_WRITE_DATA = 1, CLI_WRITE_DEMO = 2, CLI_WRITE_KEEP = 4, CLI_WRITE_STOP_ON_SIGNAL = 8,
       CLI_WRITE_SOURCES = 16, CLI_WRITE_KEEP_SOURCES = 32,
       CLI_WRITE_CONSOLE = 64, CLI_WRITE_FAILED = 128 };
/* CLI_WRITE_FAILED: a file of the run failed already (a console.txt, its
 * error told): the summaries say status 5 and the result is false. */
/* CLI_WRITE_CONSOLE: the run streamed every coreN/console.txt already
 * (cli_console_finish): list them, do not write them; with CLI_WRITE_KEEP a
 * console.txt there whose data was cut (cli_console_is_cut) is kept. */
/* CLI_WRITE_SOURCES (run): also OUT/sources.sha256, the SHA-256 of every
 * source file the reports read (report.c compares them later);
 * CLI_WRITE_KEEP_SOURCES (report -o DIR, which copied the run's file
 * there first) and CLI_WRITE_KEEP: keep and list the one in out. */
#define CLI_SOURCES_FILE "sources.sha256"
/* report: warn on stderr for each file of dir/sources.sha256 that differs
 * now from what the run read (or cannot be read). */
void cli_check_sources(const char *dir);
bool cli_write_reports(const ProfileData *d, const char *out, unsigned flags, GError **error);

/* report.html's flame data (html_report.h) of the stacks.folded lines that
 * folded_write(f[i], prefix[i], depth) writes for i = 0..ncores-1 (f[i]
 * NULL: none), made from the folded trees with the bytes html_flame_json
 * makes from that text (issue 24: reading 8.6 MB of deep recursion back
 * cost more than writing it). flame.c. */
typedef struct Folded Folded;
GString *cli_flame_json(Folded *const *f, const char *const *prefix, unsigned ncores, unsigned depth);

/* Options that change what the reports show, shared by every command that
 * writes reports (report, merge): parsed by one group, applied to the
 * data before the reports are written. */
typedef struct ReportOptions {
    char **periods;            /* --period: recorded periods to report */
    gint fold_recursion;       /* --fold-recursion N; -1: as the run had it */
    char **focus, **exclude;   /* --focus / --exclude (replace the run's) */
    gboolean all;              /* --all: neither the run's focus nor exclude */
    char *annotate;            /* --annotate source|asm|both */
    gboolean events;           /* --events (the run's, or on) */
    gboolean no_events;        /* --no-events: off, whatever the run had */
    char **source_dirs, **source_maps; /* --source-dir / --source-map (replace the run's) */
} ReportOptions;
#define REPORT_OPTIONS_INIT { .fold_recursion = -1 }

void report_options_clear(ReportOptions *ro);
/* Parse the command line of `nocprof NAME` (report, merge): its own entries
 * and the report options (they point into ro), with GOption's usage line
 * `params` and --help's description. */
bool cli_parse_report_command(int *argc, char ***argv, const char *prgname, const char *params,
                              const char *description, const GOptionEntry *entries, ReportOptions *ro,
                              GError **error);
/* Apply ro to d (select periods, ...); NOCPROF_ERROR_USAGE on a bad value. */
bool cli_report_apply(const ReportOptions *ro, ProfileData *d, GError **error);

int cmd_report(int argc, char **argv);
/* diff.c: `nocprof diff OUT_A OUT_B` */
int cmd_diff(int argc, char **argv);
/* merge.c: `nocprof merge OUT... -o MERGED` */
int cmd_merge(int argc, char **argv);

/* The option parsers of report, merge and diff alone (nothing is read or
 * written; fuzz/fuzz_cmdline.c): *out and *rest are the caller's to free,
 * NOCPROF_ERROR_USAGE (or GOption's error) on a bad command line. */
bool cli_parse_report(int *argc, char ***argv, char **out, char ***rest, ReportOptions *ro, GError **error);
bool cli_parse_merge(int *argc, char ***argv, char **out, char ***rest, ReportOptions *ro, GError **error);
typedef struct DiffOptions {
    char *out;
    double fail_pct;           /* < 0: no gate */
    char **functions;
    gboolean quiet;
    char **rest;
    int metric;                /* --metric: -1 cycles, else a ProfEv */
} DiffOptions;
bool cli_parse_diff(int *argc, char ***argv, DiffOptions *o, GError **error);
void diff_options_clear(DiffOptions *o);

/* OUT/.nocprof-manifest (manifest.c): the paths it lists (empty when there
 * is none); removing the files of `before` that are not in `now`; writing. */
GPtrArray *manifest_read(const char *out);
void manifest_prune(const char *out, const GPtrArray *before, const GPtrArray *now);
bool manifest_write(const char *out, const GPtrArray *files, GError **error);

/* frames.c: repeated frames folded (SPEC 1), the run of repetitions of a
 * period of 1 to 4 frames at fr[0] that covers most, as `runaway x11916`
 * or `(even <- odd) x500`: adds one entry to stack (g_strdup'd), returns
 * the frames it stands for. */
unsigned cli_fold_frames(GPtrArray *stack, const Symbols *syms, const unsigned *fr, unsigned n);
/* frames.c: gdb's backtrace of a stopped core (FaultFrame, at most
 * FAULT_FRAMES_MAX entries, their strings interned in pd): frame 0 at `at`
 * in function fi, then the shadow stack's functions fr[k..n) each at the
 * call its callee returns to (ret[], 1 for an interrupt, which came at
 * epc); *count set; g_free the array. */
FaultFrame *cli_frames_of(ProfileData *pd, unsigned *count, const Symbols *syms, int fi, uint32_t at, uint32_t epc,
                          const unsigned *fr, const uint32_t *ret, unsigned k, unsigned n);
/* frames.c: without a shadow stack, the frames from the ELF's call frame
 * information, at most CLI_UNWIND_MAX deep (the names folded into stack
 * when not NULL; regs: the registers at `at`, NULL for the core's now). */
#define CLI_UNWIND_MAX (1u << 17)
/* The pcs of those frames (kseg0 code addresses; *n of them; g_free
 * them), the reset entry's left out; *why as symbols_unwind's. */
/* A fault's message with what its address is: a global, a frame's local,
 * the heap (frames.c; NULL: nothing known). g_free it. */
char *cli_describe_fault(const Symbols *syms, Core *c, const char *message, uint32_t addr);
uint32_t *cli_unwind(const Symbols *syms, Core *c, uint32_t at, uint32_t regs_at, const uint32_t *regs, unsigned *n,
                     char **why);
FaultFrame *cli_frames_unwound(ProfileData *pd, unsigned *count, GPtrArray *stack, const Symbols *syms, Core *c,
                               uint32_t at, uint32_t regs_at, const uint32_t *regs);

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c — `nocprof run` options: the configuration they make and the
 * ELF each core runs. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

void options_clear(Options *o)
{
    g_free(o->config);
    g_free(o->out);
    g_free(o->threads);
    g_free(o->gdb);
    g_free(o->gdb_stop_at);
    g_strfreev(o->periods);
    g_strfreev(o->sets);
    g_strfreev(o->core_maps);
    g_strfreev(o->elfs);
    g_strfreev(o->collect_only);
    g_free(o->collect_initially);
    g_strfreev(o->focus);
    g_strfreev(o->exclude);
    g_free(o->annotate);
    g_strfreev(o->source_dirs);
    g_strfreev(o->source_maps);
    g_free(o->max_cycles);
}

static const char *const run_description =
    "Runs MIPS32 firmware ELF images on the emulated W x H mesh (default 2 x 2)\n"
    "and writes the reports to OUT (default nocprof-out):\n"
    "  summary.txt, summary.json   per-core status, cycles, functions, NoC statistics\n"
    "  noc.txt                     network report\n"
    "  comm.txt                    communication profile: packets sent/received and cycles\n"
    "                              blocked per function, late sender/receiver per pair\n"
    "  report.html                 the interactive report (self-contained, works offline)\n"
    "  flat.txt, callgraph.txt     chip-wide profiles (all cores summed by function name)\n"
    "  coreN/console.txt           what core N printed\n"
    "  coreN/flat.txt              gprof-style flat profile, exact and sampled\n"
    "  coreN/callgraph.txt         gprof-style call graph with exact children time\n"
    "  coreN/annotated.txt         annotated source listing\n"
    "  coreN/gmon.out              GNU gmon.out (first sampling period); gmon-P.out per further period P\n"
    "  coreN/callgrind.out         the exact profile for KCachegrind / callgrind_annotate\n"
    "  stacks.folded               exact folded stacks of every core (flamegraph.pl, speedscope)\n"
    "  trace.json                  timeline of waits, interrupts and NoC packets (Perfetto)\n"
    "  coverage.info               lcov tracefile of executed lines, calls and branches, all\n"
    "                              cores merged (genhtml -o DIR OUT/coverage.info)\n"
    "  sources.sha256              SHA-256 of each source file the reports read ('nocprof\n"
    "                              report' warns when one changed since the run)\n"
    "  aliasing.txt, aliasing.svg  when several sampling periods were recorded\n"
    "  profile.data                the complete profile data, from which 'nocprof report'\n"
    "                              rebuilds every report and 'nocprof diff'/'merge' work\n"
    "\n"
    "One ELF runs on every core; N ELFs (N = number of cores) run one per core;\n"
    "--core N=FILE overrides core N. With no ELF the bundled 'pipeline' demo runs.\n"
    "\n"
    "Exit status: 0 every core exited with 0; 1 some core exited non-zero;\n"
    "2 usage, config or ELF error (nothing ran); 3 a core faulted (bus error,\n"
    "NI misuse, unmapped access, reserved instruction, ...); 4 cycle limit reached\n"
    "or deadlock (livelock included); 5 the run ended but a report (or stdout)\n"
    "could not be written (the error names the file); 130 interrupted (SIGINT);\n"
    "143 terminated (SIGTERM); 129 hung up (SIGHUP, as SIGTERM). When several\n"
    "apply, the first of 130/143/129, 5, 3, 4,\n"
    "1 wins. The same signal again within 2 s is the same stop; a further one\n"
    "aborts at once, and the folder keeps what it had before (files are renamed\n"
    "into place together at the end). Config integers are decimal (leading zeros\n"
    "ignored: 010 is 10) or 0x hex.\n"
    "\n"
    "OUT/.nocprof-manifest lists the files nocprof wrote; re-running into OUT\n"
    "removes those of an earlier run that this run does not write (aliasing.*,\n"
    "gmon-P.out, coreN/ of cores that no longer exist) and leaves every other\n"
    "file alone.";

bool cli_parse_run(int *argc, char ***argv, Options *o, GError **error)
{
    GOptionEntry entries[] = {
        { "config", 'c', 0, G_OPTION_ARG_FILENAME, &o->config, "Platform configuration (GKeyFile INI); default: built-in configs/default.ini", "FILE" },
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, &o->out, "Output folder (default nocprof-out)", "DIR" },
        { "sample-period", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->periods, "Sampling period in cycles; repeat or give a comma list to record several periods in one run", "CYCLES" },
        { "alias-check", 0, 0, G_OPTION_ARG_NONE, &o->alias_check, "Also record co-prime neighbours of the (first) sampling period and judge aliasing", NULL },
        { "max-cycles", 0, 0, G_OPTION_ARG_STRING, &o->max_cycles, "Cycle limit per core, 1 .. 2^62 (default [run] max_cycles = 10^10)", "N" },
        { "gdb", 0, 0, G_OPTION_ARG_STRING, &o->gdb, "Serve the GDB remote protocol on [HOST:]PORT (HOST default 127.0.0.1, PORT 0: any free port): every core is a thread, halted at reset until gdb continues; results are those of the same run without it (docs/debugging.md)", "[HOST:]PORT" },
        { "gdb-stop-at-cycle", 0, 0, G_OPTION_ARG_STRING, &o->gdb_stop_at, "With --gdb: stop into gdb when core 0 reaches cycle N", "N" },
        { "gdb-checkpoints", 0, 0, G_OPTION_ARG_INT, &o->gdb_checkpoints, "With --gdb: checkpoints kept for reverse execution (default 16; 0: no reverse execution)", "N" },
        { "gdb-checkpoint-every", 0, 0, G_OPTION_ARG_INT64, &o->gdb_checkpoint_every, "With --gdb: a checkpoint every N instructions of the machine (default 4000000), besides one at every stop", "N" },
        { "threads", 0, 0, G_OPTION_ARG_STRING, &o->threads, "Host threads running cores (default [sched] threads; 0 = one per host CPU, at most one per core). Results never depend on it", "N" },
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->sets, "Override a configuration key, e.g. --set noc.buffer_depth=2 (repeatable)", "SECTION.KEY=VALUE" },
        { "core", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->core_maps, "Run FILE on core N (repeatable)", "N=FILE" },
        { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "Do not copy console output to stdout", NULL },
        { "progress", 0, 0, G_OPTION_ARG_NONE, &o->progress, "Show the progress line on stderr even when it is not a terminal", NULL },
        { "no-progress", 0, 0, G_OPTION_ARG_NONE, &o->no_progress, "No progress line (default: one on stderr when it is a terminal: cycles per core against --max-cycles, guest instructions and MIPS, elapsed time; erased at the end)", NULL },
        { "no-profile", 0, 0, G_OPTION_ARG_NONE, &o->no_profile, "Run without profiling hooks (only cycles and samples; for benchmarks)", NULL },
        { "collect-only", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->collect_only, "Collect counts and samples only while FUNC is on the core's call stack (repeatable); the reports say what was left out", "FUNC" },
        { "collect-initially", 0, 0, G_OPTION_ARG_STRING, &o->collect_initially, "yes (default) or no: whether collection runs from reset; firmware starts and stops it with SYS PROF_CTRL (rt_prof_start/rt_prof_stop)", "yes|no" },
        { "focus", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->focus, "Reports show only FUNC and what it calls (gprof -f; repeatable)", "FUNC" },
        { "exclude", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->exclude, "Reports leave FUNC out (gprof -e: its time stays in the totals; FUNC/time: -E, its time is removed too; repeatable)", "FUNC[/time]" },
        { "fold-recursion", 0, 0, G_OPTION_ARG_INT, &o->fold_recursion, "Keep at most N levels of a recursive function on a path of stacks.folded (totals stay exact)", "N" },
        { "no-trace", 0, 0, G_OPTION_ARG_NONE, &o->no_trace, "Do not record the timeline (no trace.json)", NULL },
        { "no-comm", 0, 0, G_OPTION_ARG_NONE, &o->no_comm, "Do not record the communication profile (no comm.txt, no \"communication\" in summary.json, no Blocked/Sent/Received in callgrind.out, no packet flows in trace.json; every other figure is the same)", NULL },
        { "trace-limit", 0, 0, G_OPTION_ARG_INT64, &o->trace_limit, "Record at most N timeline events per core and N packets (default 10000; memory grows by about 1 KB per event)", "N" },
        { "events", 0, 0, G_OPTION_ARG_NONE, &o->events, "flat.txt and annotated.txt: a column per event (instructions, loads, stores, branches, stall cycles by cause; cache misses when on), per function and per line", NULL },
        { "annotate", 0, 0, G_OPTION_ARG_STRING, &o->annotate, "annotated.txt layout: source (default; disassembly where there is no source), asm, or both (instructions under their source lines)", "source|asm|both" },
        { "source-dir", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->source_dirs, "Also look for source files in DIR (repeatable, like gprof -I)", "DIR" },
        { "source-map", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->source_maps, "Read source paths starting with OLD from NEW instead (repeatable, like gdb's substitute-path)", "OLD=NEW" },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->elfs, NULL, "FIRMWARE.elf..." },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    o->gdb_checkpoints = -1;   /* not given */
    g_set_prgname("nocprof run");
    g_autoptr(GOptionContext) ctx = g_option_context_new("- run firmware on the emulated NoC and profile it");
    g_option_context_set_summary(ctx, "nocprof run: full-system profiler for a multicore MIPS network on chip.");
    g_option_context_set_description(ctx, run_description);
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_strict_posix(ctx, FALSE);
    return g_option_context_parse(ctx, argc, argv, error);
}

/* --sample-period and --alias-check: the periods to record. */
static bool config_periods(const Options *o, Config *cfg, GError **error)
{
    if (o->periods) {
        g_autofree char *joined = g_strjoinv(",", o->periods);
        if (!config_set_periods(cfg, joined, "--sample-period", error))
            return false;
    }
    if (o->alias_check) {
        uint32_t extra[7];
        unsigned n = aliasing_neighbours(cfg->periods[0], extra, G_N_ELEMENTS(extra));
        for (unsigned i = 0; i < n; i++)
            if (!config_add_period(cfg, extra[i], error)) {
                g_prefix_error(error, "--alias-check (%u more periods): ", n);
                return false;
            }
    }
    return true;
}

size_t cli_trace_limit(const Options *o)
{
    return o->no_trace ? 0 : o->trace_limit > 0 ? (size_t)o->trace_limit : CLI_TRACE_LIMIT;
}

/* The issue-11 options that need a value check. */
static bool check_profile_options(const Options *o, GError **error)
{
    const char *bad = NULL;
    if (o->fold_recursion < 0)
        bad = "--fold-recursion: must be 0 (off) or a positive number of levels";
    else if (o->gdb_checkpoints < -1 || o->gdb_checkpoints > 1024)
        bad = "--gdb-checkpoints: must be 0 (no reverse execution) to 1024";
    else if (o->gdb_checkpoint_every < 0)
        bad = "--gdb-checkpoint-every: must be a positive number of instructions";
    else if (o->trace_limit < 0)
        bad = "--trace-limit: must be a positive number of events";
    else if (o->annotate && strcmp(o->annotate, "source") != 0 && strcmp(o->annotate, "asm") != 0
             && strcmp(o->annotate, "both") != 0)
        bad = "--annotate: expected source, asm or both";
    else if (o->collect_initially && strcmp(o->collect_initially, "yes") != 0
             && strcmp(o->collect_initially, "no") != 0)
        bad = "--collect-initially: expected yes or no";
    if (bad)
        g_set_error_literal(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, bad);
    return !bad;
}

bool cli_config(const Options *o, Config *cfg, GError **error)
{
    if (!check_profile_options(o, error))
        return false;
    config_defaults(cfg);
    if (o->config && !config_load_file(cfg, o->config, error))
        return false;
    for (char **s = o->sets; s && *s; s++)
        if (!config_set(cfg, *s, error))
            return false;
    if (o->threads && !config_set_value(cfg, "sched", "threads", o->threads, "--threads", error))
        return false;
    if (o->max_cycles && !config_set_value(cfg, "run", "max_cycles", o->max_cycles, "--max-cycles", error))
        return false;
    if (!config_periods(o, cfg, error))
        return false;
    if (o->gdb) {              /* all-stop: one host thread (never a result) */
        cfg->threads = 1;
        cfg->adapt = 0;
    }
    g_autofree char *where = o->sets ? g_strdup_printf("%s%s--set", o->config ? o->config : "",
                                                       o->config ? " with " : "")
                                     : g_strdup(o->config ? o->config : "configuration");
    return config_validate(cfg, where, error);
}

bool cli_wants_demo(const Options *o)
{
    return (!o->elfs || !o->elfs[0]) && !o->core_maps;
}

/* --core N=FILE overrides. */
static bool core_maps(const Options *o, unsigned ncores, char **paths, GError **error)
{
    g_autofree const char **mapped = g_new0(const char *, ncores);
    for (char **m = o->core_maps; m && *m; m++) {
        char *eq = strchr(*m, '=');
        char *end = NULL;
        unsigned long n = eq && g_ascii_isdigit(**m) ? strtoul(*m, &end, 10) : 0; /* no sign, no space */
        if (!eq || end != eq || n >= ncores || !eq[1]) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE,
                        "--core %s: expected N=FILE with N in 0 .. %u", *m, ncores - 1);
            return false;
        }
        if (mapped[n]) {       /* as a config key given twice: an error */
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--core %lu given twice (%s and %s)", n,
                        mapped[n], eq + 1);
            return false;
        }
        mapped[n] = paths[n] = eq + 1;
    }
    return true;
}

bool cli_core_paths(const Options *o, unsigned ncores, char *demo, char **paths, GError **error)
{
    unsigned nelfs = o->elfs ? g_strv_length(o->elfs) : 0;
    if (cli_wants_demo(o)) {
        for (unsigned i = 0; i < ncores; i++)
            paths[i] = demo;
    } else if (nelfs == 1) {
        for (unsigned i = 0; i < ncores; i++)
            paths[i] = o->elfs[0];
    } else if (nelfs == ncores) {
        for (unsigned i = 0; i < ncores; i++)
            paths[i] = o->elfs[i];
    } else if (nelfs != 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE,
                    "%u firmware files for %u cores: give one (for every core), %u (one per core), "
                    "or use --core N=FILE", nelfs, ncores, ncores);
        return false;
    }
    if (!core_maps(o, ncores, paths, error))
        return false;
    for (unsigned i = 0; i < ncores; i++)
        if (!paths[i]) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE,
                        "core %u has no firmware (give a default ELF or --core %u=FILE)", i, i);
            return false;
        }
    return true;
}

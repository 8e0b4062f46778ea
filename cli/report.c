// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c — `nocprof report OUT`: every report of a finished run rebuilt
 * from OUT/profile.data without running again; and the report options that
 * every command writing reports shares (one parser, one place to apply). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "base/file.h"
#include "profiler/model/srcpath.h"

void report_options_clear(ReportOptions *ro)
{
    g_strfreev(ro->periods);
    g_strfreev(ro->focus);
    g_strfreev(ro->exclude);
    g_free(ro->annotate);
    g_strfreev(ro->source_dirs);
    g_strfreev(ro->source_maps);
    *ro = (ReportOptions)REPORT_OPTIONS_INIT;
}

static void report_add_options(GOptionContext *ctx, ReportOptions *ro)
{
    const GOptionEntry entries[] = {
        { "period", 0, 0, G_OPTION_ARG_STRING_ARRAY, &ro->periods,
          "Report only these recorded sampling periods, in this order (the first is gmon.out's; repeat or "
          "give a comma list; default: all, as recorded)", "CYCLES" },
        { "fold-recursion", 0, 0, G_OPTION_ARG_INT, &ro->fold_recursion,
          "Keep at most N frames of a recursive function on a path of stacks.folded (0: all; default: as "
          "the run had it)", "N" },
        { "focus", 0, 0, G_OPTION_ARG_STRING_ARRAY, &ro->focus,
          "Reports show only FUNC and what it calls (gprof -f; repeatable; replaces the run's)", "FUNC" },
        { "exclude", 0, 0, G_OPTION_ARG_STRING_ARRAY, &ro->exclude,
          "Reports leave FUNC out (gprof -e; FUNC/time: -E, its time removed too; repeatable; replaces the run's)",
          "FUNC[/time]" },
        { "all", 0, 0, G_OPTION_ARG_NONE, &ro->all, "Drop the run's --focus and --exclude", NULL },
        { "events", 0, 0, G_OPTION_ARG_NONE, &ro->events,
          "flat.txt and annotated.txt: a column per event (instructions, loads, stores, branches, stall cycles; default: as the run had it)",
          NULL },
        { "no-events", 0, 0, G_OPTION_ARG_NONE, &ro->no_events,
          "No event columns, even if the run was made with --events", NULL },
        { "annotate", 0, 0, G_OPTION_ARG_STRING, &ro->annotate, "annotated.txt layout (default: as the run had it)",
          "source|asm|both" },
        { "source-dir", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &ro->source_dirs,
          "Also look for source files in DIR (repeatable; replaces the run's)", "DIR" },
        { "source-map", 0, 0, G_OPTION_ARG_STRING_ARRAY, &ro->source_maps,
          "Read source paths starting with OLD from NEW (repeatable; replaces the run's)", "OLD=NEW" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_option_context_add_main_entries(ctx, entries, NULL);
}

bool cli_parse_report_command(int *argc, char ***argv, const char *prgname, const char *params,
                              const char *description, const GOptionEntry *entries, ReportOptions *ro,
                              GError **error)
{
    g_set_prgname(prgname);
    g_autoptr(GOptionContext) ctx = g_option_context_new(params);
    g_option_context_set_description(ctx, description);
    g_option_context_add_main_entries(ctx, entries, NULL);
    report_add_options(ctx, ro);
    return g_option_context_parse(ctx, argc, argv, error);
}

/* "P1,P2" and repeated --period -> numbers. */
static bool parse_periods(char **args, uint32_t *out, unsigned *n, GError **error)
{
    *n = 0;
    for (char **a = args; a && *a; a++) {
        g_auto(GStrv) parts = g_strsplit(*a, ",", -1);
        for (char **p = parts; *p; p++) {
            char *end;
            errno = 0;
            unsigned long v = strtoul(*p, &end, 10);
            if (!**p || *end || errno || v == 0 || v > G_MAXUINT32 || **p == '-') {
                g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--period %s: not a period in cycles", *p);
                return false;
            }
            if (*n == CONFIG_MAX_PERIODS) {
                g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--period: at most %d periods",
                            CONFIG_MAX_PERIODS);
                return false;
            }
            out[(*n)++] = (uint32_t)v;
        }
    }
    return true;
}

bool cli_report_apply(const ReportOptions *ro, ProfileData *d, GError **error)
{
    if (ro->fold_recursion < -1) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--fold-recursion %d: must be 0 (all) or a number of levels",
                    ro->fold_recursion);
        return false;
    }
    if (ro->fold_recursion >= 0)
        d->fold_recursion = (unsigned)ro->fold_recursion;
    if (ro->annotate && strcmp(ro->annotate, "source") != 0 && strcmp(ro->annotate, "asm") != 0
        && strcmp(ro->annotate, "both") != 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--annotate %s: expected source, asm or both",
                    ro->annotate);
        return false;
    }
    if (ro->annotate)
        d->annotate = ro->annotate;
    if (ro->events && ro->no_events) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--events and --no-events: give one of them");
        return false;
    }
    if (ro->events || ro->no_events)
        d->events = ro->events;
    if (ro->all || ro->focus || ro->exclude) {
        d->focus = ro->focus;
        d->exclude = ro->exclude;
    }
    if (ro->source_dirs || ro->source_maps) {
        d->source_dirs = ro->source_dirs;
        d->source_maps = ro->source_maps;
    }
    if (ro->periods) {
        uint32_t periods[CONFIG_MAX_PERIODS];
        unsigned n;
        if (!parse_periods(ro->periods, periods, &n, error) || !profile_data_select_periods(d, periods, n, error))
            return false;
    }
    return srcpath_configure(d->source_dirs, d->source_maps, error);
}

static const char *const report_description =
    "Reads OUT/profile.data (written by every 'nocprof run' and 'nocprof merge')\n"
    "and writes every report of that run again: summary.txt, summary.json,\n"
    "noc.txt, comm.txt, flat.txt, callgraph.txt, trace.json, stacks.folded,\n"
    "coverage.info, report.html, aliasing.* (two or more periods), and per core console.txt,\n"
    "flat.txt, callgraph.txt, annotated.txt, callgrind.out, gmon.out and\n"
    "gmon-P.out. Without options they are byte-identical to the run's own.\n"
    "Nothing runs again.\n"
    "\n"
    "The ELF of every profiled core is needed (symbols, source lines,\n"
    "disassembly): it is looked for at the absolute path it had during the\n"
    "run, then at the path as given to 'nocprof run', then in OUT/firmware/;\n"
    "its content must be the one that ran (SHA-256 recorded in the data).\n"
    "annotated.txt and coverage.info read the source files again: a warning\n"
    "names each that differs from what the run read (OUT/sources.sha256).\n"
    "\n"
    "Exit status: 0 written; 2 usage error, unreadable or invalid profile data,\n"
    "ELF missing or changed; 5 a report could not be written.";

/* OUT/sources.sha256, read back as untrusted: a regular file of at most
 * CLI_SOURCES_MAX bytes (one line of about 100 per source file), or NULL
 * (none: nothing said; another: a warning naming it). */
#define CLI_SOURCES_MAX (16u << 20)
static char *read_sources(const char *dir, gsize *len)
{
    g_autofree char *path = g_build_filename(dir, CLI_SOURCES_FILE, NULL);
    g_autoptr(GError) err = NULL;
    char *text = NULL;
    if (!g_file_test(path, G_FILE_TEST_EXISTS))
        return NULL;
    if (!base_read_regular(path, CLI_SOURCES_MAX, &text, len, NOCPROF_ERROR_DATA, &err))
        fprintf(stderr, "nocprof report: warning: %s: the source files are not checked against the run's\n",
                err->message);
    return text;
}

void cli_check_sources(const char *dir)
{
    gsize n = 0;
    g_autofree char *text = read_sources(dir, &n);
    if (!text)
        return;
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++) {
        if (strlen(*l) < 67 || (*l)[64] != ' ' || (*l)[65] != ' ')
            continue;
        (*l)[64] = '\0';
        const char *file = *l + 66;
        gsize len = 0;
        g_autofree char *now = srcpath_read(file, &len, NULL, NULL);
        g_autofree char *sum = now ? g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)now, len) : NULL;
        if (!sum)
            fprintf(stderr, "nocprof report: warning: %s: the run read this source file; it cannot be read now "
                    "(annotated.txt lists disassembly)\n", file);
        else if (g_ascii_strcasecmp(sum, *l) != 0)
            fprintf(stderr, "nocprof report: warning: %s changed since the run (SHA-256 %.16s... then, %.16s... now): "
                    "annotated.txt and coverage.info show its current text\n", file, *l, sum);
    }
}

/* report -o DIR: the run's source sums go with its data (none: 0). */
static unsigned copy_sources(const char *from, const char *to)
{
    gsize len = 0;
    g_autofree char *text = read_sources(from, &len);
    if (!text || !cli_write_file(to, CLI_SOURCES_FILE, text, len, NULL))
        return 0;
    return CLI_WRITE_KEEP_SOURCES;
}

static bool same_folder(const char *a, const char *b)
{
    g_autofree char *ca = g_canonicalize_filename(a, NULL), *cb = g_canonicalize_filename(b, NULL);
    return strcmp(ca, cb) == 0;
}

static int fail(int status, GError *err)
{
    fprintf(stderr, "nocprof report: %s\n", err->message);
    g_error_free(err);
    return status;
}

bool cli_parse_report(int *argc, char ***argv, char **out, char ***rest, ReportOptions *ro, GError **error)
{
    GOptionEntry entries[] = {
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, out,
          "Write the reports into DIR (default: OUT itself), with the data they show as DIR/profile.data", "DIR" },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, rest, NULL, "OUT" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    if (!cli_parse_report_command(argc, argv, "nocprof report", "- rebuild the reports of a finished run",
                                  report_description, entries, ro, error))
        return false;
    if (!*rest || !(*rest)[0] || (*rest)[1]) {
        g_set_error_literal(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "give one output folder of a run (see --help)");
        return false;
    }
    return true;
}

int cmd_report(int argc, char **argv)
{
    g_auto(GStrv) rest = NULL;
    g_autofree char *out = NULL;
    ReportOptions ro = REPORT_OPTIONS_INIT;
    GError *err = NULL;
    int status = EXIT_OK;
    ProfileData d = { 0 };
    cli_signals_install();
    if (!cli_parse_report(&argc, &argv, &out, &rest, &ro, &err))
        status = fail(EXIT_USAGE, err);
    if (status == EXIT_OK) {
        g_autofree char *path = g_build_filename(rest[0], PROFILE_DATA_FILE, NULL);
        const char *dest = out ? out : rest[0];
        bool loaded = profile_data_load(path, &d, &err) && profile_data_attach_elfs(&d, rest[0], &err)
                      && cli_report_apply(&ro, &d, &err);
        if (loaded)
            cli_check_sources(rest[0]);   /* after the source rules are set */
        if (!loaded)
            status = fail(EXIT_USAGE, err);
        else if (g_mkdir_with_parents(dest, 0755) != 0)
            status = fail(EXIT_USAGE, cli_no_output_folder(dest));
        else if (!cli_write_reports(&d, dest, CLI_WRITE_STOP_ON_SIGNAL
                                                  | (same_folder(rest[0], dest) ? CLI_WRITE_KEEP
                                                     : CLI_WRITE_DATA | copy_sources(rest[0], dest)), &err))
            status = fail(cli_signal_status()                 ? cli_signal_status()
                          : err->code == NOCPROF_ERROR_USAGE ? EXIT_USAGE : EXIT_REPORTS, err);
    }
    profile_data_clear(&d);
    report_options_clear(&ro);
    cli_signals_restore();
    return cli_signal_status() ? cli_signal_status() : status;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* merge.c — `nocprof merge OUT... -o MERGED`: runs of the same firmware
 * summed like `gprof -s`, and every report written for the sum. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "cli/cli.h"

static const char *const merge_description =
    "Sums finished runs of the same firmware (their OUT/profile.data), like\n"
    "'gprof -s': per core, exact calls, cycles (self, inclusive, per arc and\n"
    "per basic block), instructions, samples and histograms of every sampling\n"
    "period, calling contexts, and the NoC statistics (packets, flits, stalls;\n"
    "link utilisation over the summed cycles; latency percentiles from the\n"
    "merged packet logs). Writes MERGED/profile.data and every report, as a\n"
    "run does (gmon.out there equals 'gprof -s' of the runs' gmon.out).\n"
    "Console text is the runs' one after the other; trace.json overlays the\n"
    "runs' timelines (each from cycle 0); status, exit codes and faults are\n"
    "the first run's.\n"
    "\n"
    "The runs must have run the same ELF on every core (same SHA-256 of the\n"
    "file's content) on the same number of cores with the same sampling\n"
    "periods, on the same platform: every key of [mesh], [memory], [clock],\n"
    "[timing], [cache] and [noc]. Anything else is refused, naming the key;\n"
    "--force merges runs whose platform keys differ and records which in the\n"
    "result. summary.txt and summary.json say that the result is a merge and\n"
    "of which runs (folders, firmware SHA-256). MERGED must not be one of the\n"
    "runs: a merge never replaces or deletes an input.\n"
    "\n"
    "Exit status: 0 written; 2 usage error, unreadable profile data, runs that\n"
    "cannot be merged, ELF missing or changed, MERGED is an input; 5 a report\n"
    "could not be written; 130/143 interrupted (MERGED keeps what it had).";

static int fail(int status, GError *err)
{
    fprintf(stderr, "nocprof merge: %s\n", err->message);
    g_error_free(err);
    return status;
}

/* Load the first run and add the others to it. */
static bool load_all(char **outs, bool force, ProfileData *acc, GError **error)
{
    g_autofree char *first = g_build_filename(outs[0], PROFILE_DATA_FILE, NULL);
    if (!profile_data_load(first, acc, error))
        return false;
    profile_data_merge_begin(acc, outs[0]);
    for (char **o = outs + 1; *o; o++) {
        g_autofree char *path = g_build_filename(*o, PROFILE_DATA_FILE, NULL);
        ProfileData d;
        bool ok = profile_data_load(path, &d, error) && profile_data_sum(acc, &d, *o, force, error);
        profile_data_clear(&d);
        if (!ok)
            return false;
    }
    return profile_data_attach_elfs(acc, outs[0], error);
}

/* MERGED is not one of the inputs (same folder by device and inode). */
static bool not_an_input(const char *out, char **outs, GError **error)
{
    GStatBuf so;
    if (g_stat(out, &so) != 0)
        return true;   /* does not exist yet */
    for (char **o = outs; *o; o++) {
        GStatBuf si;
        if (g_stat(*o, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE,
                        "-o %s is the input %s: a merge never replaces or deletes an input (give a new folder)",
                        out, *o);
            return false;
        }
    }
    return true;
}

static gboolean merge_force;

bool cli_parse_merge(int *argc, char ***argv, char **out, char ***rest, ReportOptions *ro, GError **error)
{
    merge_force = FALSE;
    GOptionEntry entries[] = {
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, out, "Write the sum and its reports into DIR (required)", "DIR" },
        { "force", 0, 0, G_OPTION_ARG_NONE, &merge_force,
          "Merge runs whose platform keys ([mesh], [timing], [noc], ...) differ; the result records which", NULL },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, rest, NULL, NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    if (!cli_parse_report_command(argc, argv, "nocprof merge", "OUT... -o MERGED - sum runs of the same firmware",
                                  merge_description, entries, ro, error))
        return false;
    if (!*rest || !(*rest)[0] || !*out) {
        g_set_error_literal(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE,
                            "give the runs' output folders and -o MERGED (see --help)");
        return false;
    }
    return true;
}

int cmd_merge(int argc, char **argv)
{
    g_auto(GStrv) rest = NULL;
    g_autofree char *out = NULL;
    ReportOptions ro = REPORT_OPTIONS_INIT;
    GError *err = NULL;
    int status = EXIT_OK;
    ProfileData d = { 0 };
    cli_signals_install();
    if (!cli_parse_merge(&argc, &argv, &out, &rest, &ro, &err))
        status = fail(EXIT_USAGE, err);
    else if (!not_an_input(out, rest, &err) || !load_all(rest, merge_force, &d, &err)
             || !cli_report_apply(&ro, &d, &err))
        status = fail(EXIT_USAGE, err);
    else if (g_mkdir_with_parents(out, 0755) != 0)
        status = fail(EXIT_USAGE, cli_no_output_folder(out));
    else if (!cli_write_reports(&d, out, CLI_WRITE_DATA | CLI_WRITE_STOP_ON_SIGNAL, &err))
        status = fail(cli_signal_status()                 ? cli_signal_status()
                      : err->code == NOCPROF_ERROR_USAGE ? EXIT_USAGE : EXIT_REPORTS, err);
    profile_data_clear(&d);
    report_options_clear(&ro);
    cli_signals_restore();
    return cli_signal_status() ? cli_signal_status() : status;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_cmdline.c — libFuzzer target: the command lines of `nocprof run`,
 * `report`, `diff` and `merge`, parsed and checked without running or
 * reading anything. Input: byte 0 picks the command, the rest is the
 * arguments separated by NUL bytes. `run` goes on through the
 * configuration the options make (--set, --max-cycles, --threads,
 * --sample-period, --alias-check, ...; a -c file is left to fuzz_config)
 * and the ELF of every core (--core N=FILE); report and merge through
 * their report options (--period, --annotate, --source-map, ...). Help
 * options are skipped: GOption prints and exit()s on them. */
#include <stdint.h>
#include <string.h>

#include "cli/cli.h"

#define MAX_ARGS 64

/* Would GOption print help and exit (--help, --help-all, -h, -?, -qh)? */
static bool asks_help(const char *a)
{
    if (a[0] != '-')
        return false;
    if (a[1] == '-')
        return strncmp(a, "--help", 6) == 0;
    return strchr(a, 'h') || strchr(a, '?');
}

static void fuzz_run(int argc, char **argv)
{
    g_auto(Options) o = { 0 };
    GError *err = NULL;
    if (cli_parse_run(&argc, &argv, &o, &err)) {
        g_clear_pointer(&o.config, g_free); /* files: fuzz_config */
        Config cfg;
        if (cli_config(&o, &cfg, &err)) {
            unsigned n = config_cores(&cfg);
            char **paths = g_new0(char *, n);
            char demo[] = "demo.elf";
            cli_core_paths(&o, n, demo, paths, &err);
            cli_trace_limit(&o);
            g_free(paths);
        }
    }
    g_clear_error(&err);
}

static void fuzz_report(int argc, char **argv, bool merge)
{
    g_auto(GStrv) rest = NULL;
    g_autofree char *out = NULL;
    ReportOptions ro = REPORT_OPTIONS_INIT;
    GError *err = NULL;
    bool ok = merge ? cli_parse_merge(&argc, &argv, &out, &rest, &ro, &err)
                    : cli_parse_report(&argc, &argv, &out, &rest, &ro, &err);
    if (ok) {
        ProfileData d = { 0 };
        cli_report_apply(&ro, &d, &err);
        profile_data_clear(&d);
    }
    g_clear_error(&err);
    report_options_clear(&ro);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    char *args[MAX_ARGS + 2], *argv[MAX_ARGS + 2];
    int argc = 0;
    args[argc++] = g_strdup("nocprof");
    for (size_t i = 1; i < size && argc <= MAX_ARGS;) {
        const uint8_t *end = memchr(data + i, 0, size - i);
        size_t len = end ? (size_t)(end - data) - i : size - i;
        args[argc] = g_strndup((const char *)data + i, len);
        if (asks_help(args[argc])) {
            for (int k = 0; k <= argc; k++)
                g_free(args[k]);
            return 0;
        }
        argc++;
        i += len + 1;
    }
    memcpy(argv, args, sizeof(char *) * (size_t)argc);
    argv[argc] = args[argc] = NULL;
    switch (data[0] & 3) {
    case 0: fuzz_run(argc, argv); break;
    case 1: fuzz_report(argc, argv, false); break;
    case 2: fuzz_report(argc, argv, true); break;
    default: {
        DiffOptions o = { 0 };
        GError *err = NULL;
        char **av = argv;
        cli_parse_diff(&argc, &av, &o, &err);
        g_clear_error(&err);
        diff_options_clear(&o);
        break;
    }
    }
    for (int k = 0; args[k]; k++)
        g_free(args[k]);
    return 0;
}

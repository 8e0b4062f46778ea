// SPDX-License-Identifier: GPL-2.0-or-later
/* diff.c — `nocprof diff OUT_A OUT_B`: what got faster or slower between
 * two finished runs, from their saved profile data (no ELF needed):
 * diff.txt (chip, then every core), diff.folded (differential folded
 * stacks), diff.html (differential flame graphs and sortable tables, the
 * web/ front end over profile_diff_json's data), and a CI gate
 * (--fail-if-slower). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "cli/cli.h"
#include "profiler/model/fname.h"
#include "web/html_report.h"
#include "profiler/analysis/profile_diff.h"

static const char *const diff_description =
    "Compares two finished runs (their OUT/profile.data) function by function:\n"
    "exact self and inclusive cycles and calls in A and B, the difference and\n"
    "the ratio B/A, sorted by the absolute change of self cycles, for the chip\n"
    "(all cores summed by function name) and for every core; functions that\n"
    "ran on one side only are marked and listed. Writes into DIR (default: the\n"
    "current folder):\n"
    "  diff.txt      the tables (also printed to stdout unless -q)\n"
    "  diff.folded   differential folded stacks, 'core0;main;f CYCLES_A CYCLES_B'\n"
    "                per line (flamegraph.pl/difffolded.pl input, speedscope)\n"
    "  diff.html     one self-contained page (works from file://): per core and\n"
    "                for the chip a differential flame graph (widths: B's cycles\n"
    "                or A's; red slower, blue faster; exact A, B and delta on\n"
    "                hover; search, zoom) and the tables above, sortable\n"
    "\n"
    "Each section also lists the events of the functions' own instructions\n"
    "(instructions, loads, stores, branches, stall cycles by cause; cache misses\n"
    "when on): A's and B's totals and each function's change.\n"
    "--metric EVENT ranks the functions by the change of that event instead of\n"
    "cycles, and gates on it (EVENT: cycles, the default, or a summary.json\n"
    "event name: instructions, loads, stores, branches, cond_branches,\n"
    "indirect_branches, stall_load_use, stall_agen, stall_mdu, stall_fpu,\n"
    "i1_misses, d1r_misses, d1w_misses).\n"
    "\n"
    "--fail-if-slower PCT: exit 1 when the chip's total cycles (the sum over its\n"
    "cores) grew by more than PCT percent from A to B; with --function NAME\n"
    "(repeatable) the gate is on those functions alone: exit 1 when the\n"
    "chip-wide inclusive cycles of any of them grew by more than PCT percent.\n"
    "With --metric EVENT: the chip's total of the event, or with --function\n"
    "each function's own count of it (events are not collected inclusively).\n"
    "NAME also matches GCC's clones of it (NAME.constprop.0, .isra.N, .part.N,\n"
    "each gated on its own, with a note); a NAME in neither run is a usage error.\n"
    "\n"
    "Exit status: 0 compared (no regression past the gate); 1 regression past\n"
    "--fail-if-slower; 2 usage error or unreadable profile data; 5 a file (or\n"
    "stdout) could not be written.";

bool cli_parse_diff(int *argc, char ***argv, DiffOptions *o, GError **error)
{
    g_autofree char *pct = NULL, *metric = NULL;
    GOptionEntry entries[] = {
        { "metric", 0, 0, G_OPTION_ARG_STRING, &metric,
          "Rank and gate on this event instead of cycles (loads, stores, instructions, stall_mdu, ...)", "EVENT" },
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, &o->out, "Write diff.txt, diff.folded and diff.html into DIR (default nocprof-diff)", "DIR" },
        { "fail-if-slower", 0, 0, G_OPTION_ARG_STRING, &pct,
          "Exit 1 when the total or a --function grew by more than PCT percent", "PCT" },
        { "function", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->functions,
          "Gate on this function's chip-wide inclusive cycles instead of the total (repeatable)", "NAME" },
        { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "Do not print diff.txt", NULL },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->rest, NULL, NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_set_prgname("nocprof diff");
    g_autoptr(GOptionContext) ctx = g_option_context_new("OUT_A OUT_B - compare two runs");
    g_option_context_set_description(ctx, diff_description);
    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, argc, argv, error))
        return false;
    if (!o->rest || !o->rest[0] || !o->rest[1] || o->rest[2]) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "give two output folders, OUT_A OUT_B (see --help)");
        return false;
    }
    o->metric = -1;
    if (metric && strcmp(metric, "cycles") != 0 && (o->metric = prof_event_lookup(metric)) < 0) {
        GString *names = g_string_new("cycles");
        for (unsigned e = 0; e < PEV_COUNT; e++)
            g_string_append_printf(names, ", %s", prof_events[e].key);
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--metric %s: not an event (one of %s)", metric,
                    names->str);
        g_string_free(names, TRUE);
        return false;
    }
    o->fail_pct = -1;
    if (pct) {
        char *end;
        o->fail_pct = g_ascii_strtod(pct, &end);
        if (!*pct || *end || !isfinite(o->fail_pct) || o->fail_pct < 0) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--fail-if-slower %s: not a percentage >= 0", pct);
            return false;
        }
    } else if (o->functions) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--function needs --fail-if-slower PCT");
        return false;
    }
    return true;
}

void diff_options_clear(DiffOptions *o)
{
    g_free(o->out);
    g_strfreev(o->functions);
    g_strfreev(o->rest);
    *o = (DiffOptions){ 0 };
}

static bool load(const char *out, ProfileData *d, GError **error)
{
    g_autofree char *path = g_build_filename(out, PROFILE_DATA_FILE, NULL);
    if (!profile_data_load(path, d, error))
        return false;
    if (!d->ncores || !d->profs[0]) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_DATA, "%s: the run was not profiled (--no-profile)", path);
        return false;
    }
    return true;
}

/* What a comparison produces: diff.txt, diff.folded, the data document
 * of diff.html, and the gate's verdict. */
typedef struct DiffOut {
    GString *txt, *folded, *verdict, *notes;
    NpJson *json;
} DiffOut;

/* One view of diff.html: "view" is "chip" or the core's number. */
static void view_json(NpJson *b, const char *view, const char *label, const char *only, const ProfDiff *d)
{
    npjson_begin_object(b);
    npjson_member_string(b, "view", view);
    npjson_member_string(b, "label", label);
    npjson_member_string(b, "only", only);
    profile_diff_json(b, d);
    npjson_end_object(b);
}

static void elfs_json(NpJson *b, const char *name, const ProfileData *d)
{
    npjson_member_array(b, name);
    for (unsigned i = 0; i < d->ncores; i++)
        npjson_string(b, d->elf_abs ? d->elf_abs[i] : NULL);
    npjson_end_array(b);
}

/* Every --function names a function of A or B (or GCC clones of one):
 * else a usage error with the close names. */
static bool check_functions(const ProfDiff *chip, char **functions, GError **error)
{
    for (char **f = functions; f && *f; f++) {
        bool found = false;
        for (unsigned i = 0; i < chip->nrows && !found; i++)
            found = fname_match(chip->rows[i].name, *f, NULL);
        if (found)
            continue;
        g_autofree const char **names = g_new(const char *, chip->nrows + 1);
        for (unsigned i = 0; i < chip->nrows; i++)
            names[i] = chip->rows[i].name;
        g_autofree char *hint = fname_suggest(*f, names, chip->nrows);
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--function %s: ran in neither run%s", *f, hint);
        return false;
    }
    return true;
}

/* The gate: the total, or with --function those functions alone (each
 * GCC clone on its own, noted on stderr). */
static void gate_event(const ProfDiff *chip, const DiffOptions *o, DiffOut *out)
{
    const char *ev = prof_events[o->metric].key;
    if (!o->functions && profile_diff_regressed(chip->ev_a[o->metric], chip->ev_b[o->metric], o->fail_pct))
        g_string_append_printf(out->verdict, "total %s grew from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                               " (more than %g%%)\n", ev, chip->ev_a[o->metric], chip->ev_b[o->metric], o->fail_pct);
    for (char **f = o->functions; f && *f; f++)
        for (unsigned i = 0; i < chip->nrows; i++) {
            const DiffRow *r = &chip->rows[i];
            if (fname_match(r->name, *f, NULL)
                && profile_diff_regressed(r->ev_a[o->metric], r->ev_b[o->metric], o->fail_pct))
                g_string_append_printf(out->verdict, "%s: %s grew from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                                       " (more than %g%%)\n", r->name, ev, r->ev_a[o->metric], r->ev_b[o->metric],
                                       o->fail_pct);
        }
}

static void gate(const ProfDiff *chip, const DiffOptions *o, DiffOut *out)
{
    if (o->fail_pct < 0)
        return;
    if (o->metric >= 0) {
        gate_event(chip, o, out);
        return;
    }
    if (!o->functions && profile_diff_regressed(chip->cycles_a, chip->cycles_b, o->fail_pct))
        g_string_append_printf(out->verdict, "total cycles grew from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                               " (more than %g%%)\n", chip->cycles_a, chip->cycles_b, o->fail_pct);
    for (char **f = o->functions; f && *f; f++)
        for (unsigned i = 0; i < chip->nrows; i++) {
            const DiffRow *r = &chip->rows[i];
            bool clone;
            if (!fname_match(r->name, *f, &clone))
                continue;
            if (clone)
                g_string_append_printf(out->notes, "nocprof diff: note: --function %s also gates %s, a GCC clone "
                                       "of it\n", *f, r->name);
            if (profile_diff_regressed(r->incl_a, r->incl_b, o->fail_pct))
                g_string_append_printf(out->verdict, "%s: inclusive cycles grew from %" G_GUINT64_FORMAT " to %"
                                       G_GUINT64_FORMAT " (more than %g%%)\n", r->name, r->incl_a, r->incl_b,
                                       o->fail_pct);
        }
}

/* The chip: every core summed by function name; the gate. */
static bool compare_chip(const ProfileData *a, const ProfileData *b, const DiffOptions *o, DiffOut *out,
                         GError **error)
{
    Profile *ca = profile_merge((const Profile *const *)a->profs, a->ncores);
    Profile *cb = profile_merge((const Profile *const *)b->profs, b->ncores);
    ProfDiff *chip = profile_diff(ca, cb);
    profile_diff_rank(chip, o->metric);
    bool ok = check_functions(chip, o->functions, error);
    if (ok) {
        profile_diff_text(out->txt, "== chip (all cores, summed by function name)", chip);
        view_json(out->json, "chip", "chip (all cores)", NULL, chip);
        gate(chip, o, out);
    }
    profile_diff_free(chip);
    profile_free(ca);
    profile_free(cb);
    return ok;
}

/* The tables, the folded stacks, diff.html's data and the gate's verdict. */
static bool compare(const ProfileData *a, const ProfileData *b, const DiffOptions *o, DiffOut *out, GError **error)
{
    g_string_append_printf(out->txt, "nocprof diff\n  A: %s\n  B: %s\n\n", o->rest[0], o->rest[1]);
    NpJson *j = out->json;
    npjson_begin_object(j);
    npjson_member_string(j, "a", o->rest[0]);
    npjson_member_string(j, "b", o->rest[1]);
    elfs_json(j, "elf_a", a);
    elfs_json(j, "elf_b", b);
    npjson_member_array(j, "views");
    if (!compare_chip(a, b, o, out, error))
        return false;
    unsigned n = MAX(a->ncores, b->ncores);
    for (unsigned i = 0; i < n; i++) {
        const Profile *pa = i < a->ncores ? a->profs[i] : NULL, *pb = i < b->ncores ? b->profs[i] : NULL;
        const char *only = !pa ? "B" : !pb ? "A" : NULL;
        g_autofree char *title = g_strdup_printf("== core %u%s%s%s", i, only ? " (only in " : "", only ? only : "",
                                                 only ? ")" : "");
        g_autofree char *prefix = g_strdup_printf("core%u", i);
        g_autofree char *label = g_strdup_printf("core %u", i);
        ProfDiff *d = profile_diff(pa, pb);
        profile_diff_rank(d, o->metric);
        profile_diff_text(out->txt, title, d);
        view_json(j, prefix + 4, label, only, d);
        profile_diff_free(d);
        profile_diff_folded(out->folded, pa, pb, prefix);
    }
    npjson_end_array(j);
    npjson_member_string(j, "folded", out->folded->str);
    npjson_member_string(j, "metric", o->metric >= 0 ? prof_events[o->metric].key : "cycles"); /* --metric */
    npjson_end_object(j);
    return true;
}

static int finish(int status, GError *err)
{
    if (err) {
        fprintf(stderr, "nocprof diff: %s\n", err->message);
        g_error_free(err);
    }
    return status;
}

/* diff.txt, diff.folded and diff.html renamed into place together; after a
 * SIGINT/SIGTERM none of them (the folder keeps its previous set). */
static bool write_diff(const char *dir, const DiffOut *out, const GString *html, GError **error)
{
    CliStage *st = cli_stage_new();
    const char *names[] = { "diff.txt", "diff.folded", "diff.html" };
    const GString *texts[] = { out->txt, out->folded, html };
    bool ok = true;
    for (unsigned i = 0; ok && i < G_N_ELEMENTS(names); i++) {
        cli_test_hook(names[i]);
        ok = cli_stage_put(st, dir, names[i], texts[i]->str, texts[i]->len, error);
    }
    ok = ok && cli_stage_commit(st, true, error);
    cli_stage_free(st);
    return ok;
}

/* Writes the three files into dir (staged: all three or none) and prints
 * diff.txt: EXIT_OK, or EXIT_REPORTS when a file or stdout could not be
 * written (130/143 after a signal). */
static int write_out(const DiffOptions *o, DiffOut *out)
{
    const char *dir = o->out ? o->out : CLI_DEFAULT_DIFF_OUT;
    GError *err = NULL;
    GString *data = npjson_finish(out->json);
    out->json = NULL;
    GString *html = html_diff_build(data->str);
    g_string_free(data, TRUE);
    int status = EXIT_OK;
    if (g_mkdir_with_parents(dir, 0755) != 0) {   /* nothing written, nothing printed */
        g_string_free(html, TRUE);
        return finish(EXIT_USAGE, cli_no_output_folder(dir));
    }
    if (!write_diff(dir, out, html, &err))
        status = finish(cli_signal_status() ? cli_signal_status() : EXIT_REPORTS, err);
    g_string_free(html, TRUE);
    if (!o->quiet) {
        fputs(out->txt->str, stdout);
        if (fflush(stdout) != 0 || ferror(stdout)) {   /* diff > /dev/full */
            int e = errno ? errno : EIO;
            status = finish(EXIT_REPORTS, g_error_new(NOCPROF_ERROR, NOCPROF_ERROR_IO, "stdout: write error: %s",
                                                      g_strerror(e)));
            clearerr(stdout);   /* reported here, with the documented status */
        }
    }
    return status;
}

int cmd_diff(int argc, char **argv)
{
    DiffOptions o = { 0 };
    ProfileData a = { 0 }, b = { 0 };
    GError *err = NULL;
    int status = EXIT_OK;
    cli_signals_install();
    DiffOut out = { g_string_new(NULL), g_string_new(NULL), g_string_new(NULL), g_string_new(NULL),
                    npjson_new() };
    if (!cli_parse_diff(&argc, &argv, &o, &err) || !load(o.rest[0], &a, &err) || !load(o.rest[1], &b, &err)
        || !compare(&a, &b, &o, &out, &err)) {
        status = finish(EXIT_USAGE, err);
    } else {
        status = write_out(&o, &out);
        fputs(out.notes->str, stderr);
        if (status == EXIT_OK && out.verdict->len) {
            fprintf(stderr, "nocprof diff: slower than allowed:\n%s", out.verdict->str);
            status = EXIT_NONZERO;
        }
    }
    g_string_free(out.txt, TRUE);
    g_string_free(out.folded, TRUE);
    g_string_free(out.verdict, TRUE);
    g_string_free(out.notes, TRUE);
    npjson_free(out.json);
    profile_data_clear(&a);
    profile_data_clear(&b);
    diff_options_clear(&o);
    cli_signals_restore();
    return cli_signal_status() ? cli_signal_status() : status;
}

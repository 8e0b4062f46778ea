/* diff.c — `nocprof diff OUT_A OUT_B`: what got faster or slower between
 * two finished runs, from their saved profile data (no ELF needed):
 * diff.txt (chip, then every core) and diff.folded (differential folded
 * stacks), and a CI gate (--fail-if-slower). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "profile_diff.h"

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
    "\n"
    "--fail-if-slower PCT: exit 1 when the chip's total cycles (the sum over its\n"
    "cores) or the chip-wide inclusive cycles of any --function NAME grew by\n"
    "more than PCT percent from A to B.\n"
    "\n"
    "Exit status: 0 compared (no regression past the gate); 1 regression past\n"
    "--fail-if-slower; 2 usage error or unreadable profile data; 5 a file could\n"
    "not be written.";

bool cli_parse_diff(int *argc, char ***argv, DiffOptions *o, GError **error)
{
    g_autofree char *pct = NULL;
    GOptionEntry entries[] = {
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, &o->out, "Write diff.txt and diff.folded into DIR (default: .)", "DIR" },
        { "fail-if-slower", 0, 0, G_OPTION_ARG_STRING, &pct,
          "Exit 1 when the total or a --function grew by more than PCT percent", "PCT" },
        { "function", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->functions,
          "A function whose chip-wide inclusive cycles --fail-if-slower checks (repeatable)", "NAME" },
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

/* The tables, the folded stacks and the gate's verdict. */
static void compare(const ProfileData *a, const ProfileData *b, const DiffOptions *o, GString *txt,
                    GString *folded, GString *verdict)
{
    g_string_append_printf(txt, "nocprof diff\n  A: %s\n  B: %s\n\n", o->rest[0], o->rest[1]);
    Profile *ca = profile_merge((const Profile *const *)a->profs, a->ncores);
    Profile *cb = profile_merge((const Profile *const *)b->profs, b->ncores);
    ProfDiff *chip = profile_diff(ca, cb);
    profile_diff_text(txt, "== chip (all cores, summed by function name)", chip);
    if (o->fail_pct >= 0 && profile_diff_regressed(chip->cycles_a, chip->cycles_b, o->fail_pct))
        g_string_append_printf(verdict, "total cycles grew from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                               " (more than %g%%)\n", chip->cycles_a, chip->cycles_b, o->fail_pct);
    for (char **f = o->functions; f && *f; f++) {
        const DiffRow *r = profile_diff_find(chip, *f);
        if (!r)
            g_string_append_printf(verdict, "%s: ran in neither run\n", *f);
        else if (profile_diff_regressed(r->incl_a, r->incl_b, o->fail_pct))
            g_string_append_printf(verdict, "%s: inclusive cycles grew from %" G_GUINT64_FORMAT " to %"
                                   G_GUINT64_FORMAT " (more than %g%%)\n", *f, r->incl_a, r->incl_b, o->fail_pct);
    }
    profile_diff_free(chip);
    profile_free(ca);
    profile_free(cb);
    unsigned n = MAX(a->ncores, b->ncores);
    for (unsigned i = 0; i < n; i++) {
        const Profile *pa = i < a->ncores ? a->profs[i] : NULL, *pb = i < b->ncores ? b->profs[i] : NULL;
        g_autofree char *title = g_strdup_printf("== core %u%s", i, !pa ? " (only in B)" : !pb ? " (only in A)" : "");
        g_autofree char *prefix = g_strdup_printf("core%u", i);
        ProfDiff *d = profile_diff(pa, pb);
        profile_diff_text(txt, title, d);
        profile_diff_free(d);
        profile_diff_folded(folded, pa, pb, prefix);
    }
}

static int finish(int status, GError *err)
{
    if (err) {
        fprintf(stderr, "nocprof diff: %s\n", err->message);
        g_error_free(err);
    }
    return status;
}

int cmd_diff(int argc, char **argv)
{
    DiffOptions o = { 0 };
    ProfileData a = { 0 }, b = { 0 };
    GError *err = NULL;
    int status = EXIT_OK;
    if (!cli_parse_diff(&argc, &argv, &o, &err) || !load(o.rest[0], &a, &err) || !load(o.rest[1], &b, &err)) {
        status = finish(EXIT_USAGE, err);
    } else {
        const char *dir = o.out ? o.out : ".";
        GString *txt = g_string_new(NULL), *folded = g_string_new(NULL), *verdict = g_string_new(NULL);
        compare(&a, &b, &o, txt, folded, verdict);
        if (g_mkdir_with_parents(dir, 0755) != 0)
            status = finish(EXIT_REPORTS, g_error_new(NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: cannot create: %s", dir,
                                                      g_strerror(errno)));
        else if (!cli_write_file(dir, "diff.txt", txt->str, txt->len, &err)
                 || !cli_write_file(dir, "diff.folded", folded->str, folded->len, &err))
            status = finish(EXIT_REPORTS, err);
        if (!o.quiet)
            fputs(txt->str, stdout);
        if (status == EXIT_OK && verdict->len) {
            fprintf(stderr, "nocprof diff: slower than allowed:\n%s", verdict->str);
            status = EXIT_NONZERO;
        }
        g_string_free(txt, TRUE);
        g_string_free(folded, TRUE);
        g_string_free(verdict, TRUE);
    }
    profile_data_clear(&a);
    profile_data_clear(&b);
    diff_options_clear(&o);
    return status;
}

/* write.c — the output folder: every report of a run (live, or rebuilt
 * from saved profile data), each written atomically (a temporary name in
 * the same folder, then rename), and the saved data itself. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "callgrind.h"
#include "cli.h"
#include "folded.h"
#include "gmon.h"
#include "report.h"
#include "summary.h"
#include "summary_json.h"
#include "trace.h"

/* Not g_file_set_contents: it fsyncs every replaced file, which made
 * re-running into an existing folder up to 0.4 s slower; a report is not
 * worth a crash-durability guarantee. */
bool cli_write_file(const char *dir, const char *name, const char *data, gsize len, GError **error)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autofree char *tmp = g_strdup_printf("%s.tmp-%d", path, (int)getpid());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    ok = (f && fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) == 0)
        return true;
    int e = errno;
    g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: %s", path, g_strerror(e));
    unlink(tmp);
    return false;
}

static bool write_gstring(const char *dir, const char *name, GString *s, GError **error)
{
    bool ok = cli_write_file(dir, name, s->str, s->len, error);
    g_string_free(s, TRUE);
    return ok;
}

/* gmon.out (first period) and gmon-P.out (each further period P). */
static bool write_gmons(const char *dir, const Profile *p, GError **error)
{
    for (unsigned h = 0; h < p->nperiods; h++) {
        /* big-endian: no basic-block record, or binutils 2.40's
         * `mips-linux-gnu-gprof -s` writes a sum it cannot read back
         * (docs/reports.md); line counts are in annotated.txt */
        GByteArray *g = gmon_build_flags(p, h, symbols_big_endian(p->syms) ? GMON_NO_BLOCKS : GMON_DEFAULT,
                                         error);
        if (!g)
            return false;
        g_autofree char *gname = h == 0 ? g_strdup("gmon.out") : g_strdup_printf("gmon-%u.out", p->hists[h].period);
        bool ok = cli_write_file(dir, gname, (const char *)g->data, g->len, error);
        g_byte_array_unref(g);
        if (!ok)
            return false;
    }
    return true;
}

/* OUT/coreN/: console, and the core's profile in every layout. */
static bool write_core(const ProfileData *d, const char *out, unsigned i, GError **error)
{
    g_autofree char *name = g_strdup_printf("core%u", i);
    g_autofree char *dir = g_build_filename(out, name, NULL);
    if (g_mkdir_with_parents(dir, 0755) != 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: cannot create: %s", dir, g_strerror(errno));
        return false;
    }
    gsize len;
    const char *console = g_bytes_get_data(d->console[i], &len);
    if (!cli_write_file(dir, "console.txt", console ? console : "", len, error))
        return false;
    const Profile *p = d->profs[i];
    if (!p)
        return true;
    return write_gstring(dir, "flat.txt", report_flat(p), error)
        && write_gstring(dir, "callgraph.txt", report_callgraph(p), error)
        && write_gstring(dir, "annotated.txt", report_annotated(p), error)
        && write_gstring(dir, "callgrind.out", callgrind_build(p), error)
        && write_gmons(dir, p, error);
}

/* OUT/flat.txt and OUT/callgraph.txt: all cores summed by function name. */
static bool write_chip(const ProfileData *d, const char *out, GError **error)
{
    Profile *chip = profile_merge((const Profile *const *)d->profs, d->ncores);
    bool ok = write_gstring(out, "flat.txt", report_flat(chip), error)
           && write_gstring(out, "callgraph.txt", report_callgraph(chip), error);
    profile_free(chip);
    return ok;
}

static bool write_trace(const ProfileData *d, const char *out, GError **error)
{
    TraceCore *tc = g_new0(TraceCore, d->ncores);
    g_autoptr(GPtrArray) whats = g_ptr_array_new_with_free_func(g_free);
    for (unsigned i = 0; i < d->ncores; i++) {
        const CoreResult *res = &d->cores[i];
        char *what = res->faulted ? g_strdup_printf("fault: %s", res->fault_kind)
                   : strcmp(res->status, "exited") == 0 ? g_strdup_printf("exit %d", res->exit_code)
                   : g_strdup(res->status);
        g_ptr_array_add(whats, what);
        tc[i] = (TraceCore){ .id = i, .prof = d->profs[i], .end_cycle = res->cycles, .end_what = what };
    }
    TracePackets pk = { .nodes = d->noc->nodes, .recs = d->packets, .n = d->npackets,
                        .dropped = d->packets_dropped };
    bool ok = write_gstring(out, "trace.json", trace_build(tc, d->ncores, &pk, (double)d->cfg.clock_hz), error);
    g_free(tc);
    return ok;
}

/* stacks.folded: every core's calling contexts, prefixed coreN. */
static GString *folded_all(const ProfileData *d)
{
    GString *o = g_string_new(NULL);
    for (unsigned i = 0; i < d->ncores; i++)
        if (d->profs[i]) {
            g_autofree char *prefix = g_strdup_printf("core%u", i);
            folded_append(o, d->profs[i], prefix);
        }
    return o;
}

bool cli_write_reports(const ProfileData *d, const char *out, GError **error)
{
    bool have_profiles = d->ncores && d->profs[0];
    AliasAnalysis *alias = NULL;
    g_autofree char *alias_json = NULL;
    if (have_profiles && d->cfg.nperiods > 1) {
        alias = aliasing_analyse((const Profile *const *)d->profs, d->ncores);
        alias_json = g_string_free(aliasing_json(alias), FALSE);
    }
    RunInfo run = profile_data_run_info(d);
    run.aliasing_json = alias_json;
    bool ok = write_gstring(out, "summary.json", summary_json(&run), error)
           && write_gstring(out, "summary.txt", summary_text(&run), error)
           && write_gstring(out, "noc.txt", noc_report(d->noc, &d->cfg), error);
    for (unsigned i = 0; ok && i < d->ncores; i++)
        ok = write_core(d, out, i, error);
    if (ok && have_profiles)
        ok = write_chip(d, out, error);
    if (ok)
        ok = write_trace(d, out, error);
    if (ok && have_profiles)
        ok = write_gstring(out, "stacks.folded", folded_all(d), error);
    if (ok && alias)
        ok = write_gstring(out, "aliasing.txt", aliasing_report(alias), error)
          && write_gstring(out, "aliasing.svg", aliasing_svg(alias), error);
    aliasing_free(alias);
    return ok;
}

bool cli_save_data(const ProfileData *d, const char *out, GError **error)
{
    g_autoptr(GBytes) b = profile_data_encode(d);
    gsize len;
    const char *data = g_bytes_get_data(b, &len);
    return cli_write_file(out, PROFILE_DATA_FILE, data, len, error);
}

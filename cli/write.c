/* write.c — the output folder of a run: every report, each written
 * atomically (a temporary name in the same folder, then rename). */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "callgrind.h"
#include "cli.h"
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
static bool write_core(const Run *r, unsigned i, GError **error)
{
    g_autofree char *name = g_strdup_printf("core%u", i);
    g_autofree char *dir = g_build_filename(r->out, name, NULL);
    if (g_mkdir_with_parents(dir, 0755) != 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: cannot create: %s", dir, g_strerror(errno));
        return false;
    }
    size_t len;
    const char *console = core_console(r->m->cores[i], &len);
    if (!cli_write_file(dir, "console.txt", console, len, error))
        return false;
    const Profile *p = r->profs[i];
    if (!p)
        return true;
    return write_gstring(dir, "flat.txt", report_flat(p), error)
        && write_gstring(dir, "callgraph.txt", report_callgraph(p), error)
        && write_gstring(dir, "annotated.txt", report_annotated(p), error)
        && write_gstring(dir, "callgrind.out", callgrind_build(p), error)
        && write_gmons(dir, p, error);
}

/* OUT/flat.txt and OUT/callgraph.txt: all cores summed by function name. */
static bool write_chip(const Run *r, GError **error)
{
    Profile *chip = profile_merge((const Profile *const *)r->profs, r->ncores);
    bool ok = write_gstring(r->out, "flat.txt", report_flat(chip), error)
           && write_gstring(r->out, "callgraph.txt", report_callgraph(chip), error);
    profile_free(chip);
    return ok;
}

static bool write_trace(const Run *r, GError **error)
{
    TraceCore *tc = g_new0(TraceCore, r->ncores);
    g_autoptr(GPtrArray) whats = g_ptr_array_new_with_free_func(g_free);
    for (unsigned i = 0; i < r->ncores; i++) {
        const CoreResult *res = &r->res[i];
        char *what = res->faulted ? g_strdup_printf("fault: %s", res->fault_kind)
                   : core_state(r->m->cores[i]) == CORE_EXITED ? g_strdup_printf("exit %d", res->exit_code)
                   : g_strdup(res->status);
        g_ptr_array_add(whats, what);
        tc[i] = (TraceCore){ .id = i, .col = r->cols[i], .end_cycle = res->cycles, .end_what = what };
    }
    bool ok = write_gstring(r->out, "trace.json", trace_build(tc, r->ncores, r->m->noc, (double)r->cfg.clock_hz),
                            error);
    g_free(tc);
    return ok;
}

/* Everything but the summaries; false at the first report that fails. */
static bool write_profiles(Run *r, GError **error)
{
    bool have_profiles = !r->opts->no_profile;
    bool ok = write_gstring(r->out, "noc.txt", noc_report(r->ns, &r->cfg), error);
    for (unsigned i = 0; ok && i < r->ncores; i++)
        ok = write_core(r, i, error);
    if (ok && have_profiles)
        ok = write_chip(r, error);
    if (ok)
        ok = write_trace(r, error);
    if (ok && have_profiles)
        ok = cli_write_file(r->out, "stacks.folded", r->folded->str, r->folded->len, error);
    if (ok && r->alias)
        ok = write_gstring(r->out, "aliasing.txt", aliasing_report(r->alias), error)
          && write_gstring(r->out, "aliasing.svg", aliasing_svg(r->alias), error);
    return ok;
}

/* The summaries come last and carry the final status: a folder whose
 * writing was cut short (a crash, a second signal) has no summary, never
 * one from an earlier run or one claiming success. */
bool cli_write_reports(Run *r, GError **error)
{
    g_autofree char *sj = g_build_filename(r->out, "summary.json", NULL);
    g_autofree char *st = g_build_filename(r->out, "summary.txt", NULL);
    unlink(sj);
    unlink(st);
    GError *first = NULL;
    bool ok = write_profiles(r, &first);
    if (!ok && r->status < EXIT_IO)
        r->status = EXIT_IO;
    if (cli_signal_status())
        r->status = cli_signal_status();
    g_ptr_array_add(r->warnings, NULL);
    RunInfo run = { .cfg = &r->cfg, .config_path = r->opts->config, .ncores = r->ncores, .cores = r->res,
                    .noc = r->ns, .deadlock = r->m->deadlock, .exit_status = r->status,
                    .aliasing_json = r->alias_json, .warnings = (const char *const *)r->warnings->pdata };
    GError **err = first ? NULL : &first;
    bool sok = write_gstring(r->out, "summary.json", summary_json(&run), err)
            && write_gstring(r->out, "summary.txt", summary_text(&run), err);
    g_ptr_array_set_size(r->warnings, r->warnings->len - 1);
    if (!sok && r->status < EXIT_IO)
        r->status = EXIT_IO;
    if (first)
        g_propagate_error(error, first);
    return ok && sok;
}

/* write.c — the output folder of a run: every report, each written
 * atomically (a temporary name in the same folder, then rename). */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "callgrind.h"
#include "cli.h"
#include "gmon.h"
#include "html_report.h"
#include "report.h"
#include "summary.h"
#include "summary_json.h"
#include "trace.h"

#include <glib/gstdio.h>

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

/* Write one report, OUT/sub/name (sub may be NULL), and remember it. */
static bool put(Run *r, const char *sub, const char *name, const char *data, gsize len, GError **error)
{
    g_autofree char *dir = sub ? g_build_filename(r->out, sub, NULL) : g_strdup(r->out);
    if (!cli_write_file(dir, name, data, len, error))
        return false;
    g_ptr_array_add(r->written, sub ? g_build_filename(sub, name, NULL) : g_strdup(name));
    return true;
}

static bool put_gstring(Run *r, const char *sub, const char *name, GString *s, GError **error)
{
    bool ok = put(r, sub, name, s->str, s->len, error);
    g_string_free(s, TRUE);
    return ok;
}

/* gmon.out (first period) and gmon-P.out (each further period P). */
static bool write_gmons(Run *r, const char *sub, const Profile *p, GError **error)
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
        bool ok = put(r, sub, gname, (const char *)g->data, g->len, error);
        g_byte_array_unref(g);
        if (!ok)
            return false;
    }
    return true;
}

/* OUT/coreN/: console, and the core's profile in every layout. */
static bool write_core(Run *r, unsigned i, GError **error)
{
    g_autofree char *sub = g_strdup_printf("core%u", i);
    g_autofree char *dir = g_build_filename(r->out, sub, NULL);
    if (g_mkdir_with_parents(dir, 0755) != 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: cannot create: %s", dir, g_strerror(errno));
        return false;
    }
    size_t len;
    const char *console = core_console(r->m->cores[i], &len);
    if (!put(r, sub, "console.txt", console, len, error))
        return false;
    const Profile *p = r->profs[i];
    if (!p)
        return true;
    return put_gstring(r, sub, "flat.txt", report_flat(p), error)
        && put_gstring(r, sub, "callgraph.txt", report_callgraph(p), error)
        && put_gstring(r, sub, "annotated.txt", report_annotated(p), error)
        && put_gstring(r, sub, "callgrind.out", callgrind_build(p), error)
        && write_gmons(r, sub, p, error);
}

/* OUT/flat.txt and OUT/callgraph.txt: all cores summed by function name. */
static bool write_chip(Run *r, GError **error)
{
    Profile *chip = profile_merge((const Profile *const *)r->profs, r->ncores);
    bool ok = put_gstring(r, NULL, "flat.txt", report_flat(chip), error)
           && put_gstring(r, NULL, "callgraph.txt", report_callgraph(chip), error);
    profile_free(chip);
    return ok;
}

static bool write_trace(Run *r, GError **error)
{
    TraceCore *tc = g_new0(TraceCore, r->ncores);
    g_autoptr(GPtrArray) whats = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) flows = g_ptr_array_new_with_free_func(g_free);
    for (unsigned i = 0; i < r->ncores; i++) {
        const CoreResult *res = &r->res[i];
        char *what = res->faulted ? g_strdup_printf("fault: %s", res->fault_kind)
                   : core_state(r->m->cores[i]) == CORE_EXITED ? g_strdup_printf("exit %d", res->exit_code)
                   : g_strdup(res->status);
        g_ptr_array_add(whats, what);
        tc[i] = (TraceCore){ .id = i, .col = r->cols[i], .end_cycle = res->cycles, .end_what = what };
        if (r->comm) {
            size_t n;
            uint64_t dropped;
            const CommPacket *pk = comm_packets(r->comm, i, &n, &dropped);
            TraceFlow *fl = g_new(TraceFlow, n + 1);
            for (size_t j = 0; j < n; j++)
                fl[j] = (TraceFlow){ .src = pk[j].src, .sent = pk[j].ts, .delivered = pk[j].td,
                                     .consumed = pk[j].tc,
                                     .send_func = comm_ctx_func(r->comm, pk[j].src, pk[j].send_ctx),
                                     .recv_func = comm_ctx_func(r->comm, i, pk[j].recv_ctx) };
            tc[i].flows = fl;
            tc[i].nflows = n;
            g_ptr_array_add(flows, fl);
        }
    }
    /* streamed: a long timeline never sits in memory whole */
    g_autofree char *path = g_build_filename(r->out, "trace.json", NULL);
    g_autofree char *tmp = g_strdup_printf("%s.tmp-%d", path, (int)getpid());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && trace_write(f, tc, r->ncores, r->m->noc, (double)r->cfg.clock_hz);
    ok = (f && fclose(f) == 0) && ok;
    g_free(tc);
    if (ok && rename(tmp, path) == 0) {
        g_ptr_array_add(r->written, g_strdup("trace.json"));
        return true;
    }
    g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: %s", path, g_strerror(errno));
    unlink(tmp);
    return false;
}

static bool write_all(Run *r, GError **error)
{
    RunInfo run = { .cfg = &r->cfg, .config_path = r->opts->config, .ncores = r->ncores, .cores = r->res,
                    .noc = r->ns, .deadlock = r->m->deadlock,
                    .livelock = r->m->livelock, .livelock_cycles = r->cfg.livelock_cycles,
                    .end_cycle = r->m->end_cycle, .exit_status = r->status,
                    .aliasing = r->alias_json, .communication = r->comm_json };
    bool have_profiles = !r->opts->no_profile;
    bool ok = put_gstring(r, NULL, "summary.json", summary_json(&run), error)
           && put_gstring(r, NULL, "summary.txt", summary_text(&run), error)
           && put_gstring(r, NULL, "noc.txt", noc_report(r->ns, &r->cfg), error)
           && (!r->comm_report || put_gstring(r, NULL, "comm.txt", comm_text(r->comm_report), error));
    for (unsigned i = 0; ok && i < r->ncores; i++)
        ok = write_core(r, i, error);
    if (ok && have_profiles)
        ok = write_chip(r, error);
    if (ok && !r->opts->no_trace)
        ok = write_trace(r, error);
    if (ok && have_profiles)
        ok = put(r, NULL, "stacks.folded", r->folded->str, r->folded->len, error);
    if (ok && r->alias)
        ok = put_gstring(r, NULL, "aliasing.txt", aliasing_report(r->alias), error)
          && put_gstring(r, NULL, "aliasing.svg", aliasing_svg(r->alias), error);
    if (ok) { /* last: it embeds summary.json, stacks.folded and trace.json */
        GString *page = html_report_page(r->out, (const Profile *const *)r->profs, r->ncores, error);
        ok = page && put_gstring(r, NULL, "report.html", page, error);
    }
    return ok;
}

bool cli_write_reports(Run *r, bool demo, GError **error)
{
    g_autoptr(GPtrArray) before = manifest_read(r->out);
    r->written = g_ptr_array_new_with_free_func(g_free);
    if (demo)
        g_ptr_array_add(r->written, g_build_filename("firmware", "pipeline.elf", NULL));
    bool ok = write_all(r, error);
    /* a failed run keeps what the earlier one wrote listed, so that a later
     * run can still remove it */
    if (ok)
        manifest_prune(r->out, before, r->written);
    else
        for (unsigned i = 0; i < before->len; i++)
            g_ptr_array_add(r->written, g_strdup(g_ptr_array_index(before, i)));
    GError *merr = NULL;
    if (!manifest_write(r->out, r->written, ok ? error : &merr))
        ok = false;
    g_clear_error(&merr);
    return ok;
}

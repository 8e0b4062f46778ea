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
#include "html_report.h"
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


/* The folder being written and what went into it (for the manifest). */
typedef struct Out {
    const char *dir;
    GPtrArray *written;        /* paths relative to dir */
} Out;

/* Write one file, OUT/sub/name (sub may be NULL), and remember it. */
static bool put(Out *o, const char *sub, const char *name, const char *data, gsize len, GError **error)
{
    g_autofree char *dir = sub ? g_build_filename(o->dir, sub, NULL) : g_strdup(o->dir);
    if (!cli_write_file(dir, name, data, len, error))
        return false;
    g_ptr_array_add(o->written, sub ? g_build_filename(sub, name, NULL) : g_strdup(name));
    return true;
}

static bool put_gstring(Out *o, const char *sub, const char *name, GString *s, GError **error)
{
    bool ok = put(o, sub, name, s->str, s->len, error);
    g_string_free(s, TRUE);
    return ok;
}

/* annotated.txt in the --annotate layout (source by default). */
static GString *annotated(const ProfileData *d, const Profile *p)
{
    const char *mode = d->annotate ? d->annotate : "source";
    if (strcmp(mode, "source") == 0)
        return report_annotated(p);
    return report_annotated_asm(p, strcmp(mode, "both") == 0);
}

/* gmon.out (first period) and gmon-P.out (each further period P). */
static bool write_gmons(Out *o, const char *sub, const Profile *p, GError **error)
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
        bool ok = put(o, sub, gname, (const char *)g->data, g->len, error);
        g_byte_array_unref(g);
        if (!ok)
            return false;
    }
    return true;
}

/* OUT/coreN/: console, and the core's profile in every layout. */
/* coreN/console.txt: the run streamed it (CLI_WRITE_CONSOLE), or the data
 * holds all of it, or (cut, cli_console_is_cut) re-rendering into the
 * run's own folder keeps the run's file; else the data's head and its
 * cut line are written. */
static bool write_console(Out *o, const char *sub, const ProfileData *d, unsigned i, unsigned flags,
                          GError **error)
{
    g_autofree char *rel = g_build_filename(sub, "console.txt", NULL);
    g_autofree char *path = g_build_filename(o->dir, rel, NULL);
    if ((flags & CLI_WRITE_CONSOLE)
        || ((flags & CLI_WRITE_KEEP) && cli_console_is_cut(d->console[i])
            && g_file_test(path, G_FILE_TEST_IS_REGULAR))) {
        g_ptr_array_add(o->written, g_steal_pointer(&rel));
        return true;
    }
    gsize len;
    const char *console = g_bytes_get_data(d->console[i], &len);
    return put(o, sub, "console.txt", console ? console : "", len, error);
}

static bool write_core(Out *o, const ProfileData *d, unsigned i, unsigned flags, GError **error)
{
    g_autofree char *sub = g_strdup_printf("core%u", i);
    g_autofree char *dir = g_build_filename(o->dir, sub, NULL);
    if (g_mkdir_with_parents(dir, 0755) != 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: cannot create: %s", dir, g_strerror(errno));
        return false;
    }
    if (!write_console(o, sub, d, i, flags, error))
        return false;
    const Profile *p = d->profs[i];
    if (!p)
        return true;
    return put_gstring(o, sub, "flat.txt", report_flat(p), error)
        && put_gstring(o, sub, "callgraph.txt", report_callgraph(p), error)
        && put_gstring(o, sub, "annotated.txt", annotated(d, p), error)
        && put_gstring(o, sub, "callgrind.out",
                       d->comm ? callgrind_build_comm(p, d->comm->cores[i].lines, d->comm->cores[i].nlines)
                               : callgrind_build(p), error)
        && write_gmons(o, sub, p, error);
}

/* OUT/flat.txt and OUT/callgraph.txt: all cores summed by function name. */
static bool write_chip(Out *o, const ProfileData *d, GError **error)
{
    Profile *chip = profile_merge((const Profile *const *)d->profs, d->ncores);
    bool ok = put_gstring(o, NULL, "flat.txt", report_flat(chip), error)
           && put_gstring(o, NULL, "callgraph.txt", report_callgraph(chip), error);
    profile_free(chip);
    return ok;
}

/* trace.json; *page gets its text without the message events, for
 * report.html. */
static bool write_trace(Out *o, const ProfileData *d, GString *page, GError **error)
{
    TraceCore *tc = g_new0(TraceCore, d->ncores);
    g_autoptr(GPtrArray) whats = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) flows = g_ptr_array_new_with_free_func(g_free);
    for (unsigned i = 0; i < d->ncores; i++) {
        const CoreResult *res = &d->cores[i];
        char *what = res->faulted ? g_strdup_printf("fault: %s", res->fault_kind)
                   : strcmp(res->status, "exited") == 0 ? g_strdup_printf("exit %d", res->exit_code)
                   : g_strdup(res->status);
        g_ptr_array_add(whats, what);
        tc[i] = (TraceCore){ .id = i, .prof = d->profs[i], .end_cycle = res->cycles, .end_what = what };
        const CommCoreReport *cr = d->comm ? &d->comm->cores[i] : NULL;
        if (cr) {
            TraceFlow *fl = g_new(TraceFlow, cr->nflows + 1);
            for (size_t j = 0; j < cr->nflows; j++)
                fl[j] = (TraceFlow){ .src = cr->flows[j].src, .sent = cr->flows[j].ts,
                                     .delivered = cr->flows[j].td, .consumed = cr->flows[j].tc,
                                     .send_func = cr->flows[j].send_func, .recv_func = cr->flows[j].recv_func };
            tc[i].flows = fl;
            tc[i].nflows = cr->nflows;
            g_ptr_array_add(flows, fl);
        }
    }
    TracePackets pk = { .nodes = d->noc->nodes, .recs = d->packets, .n = d->npackets,
                        .dropped = d->packets_dropped };
    /* streamed: a long timeline never sits in memory as one string */
    g_autofree char *path = g_build_filename(o->dir, "trace.json", NULL);
    g_autofree char *tmp = g_strdup_printf("%s.tmp-%d", path, (int)getpid());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && trace_write(f, tc, d->ncores, &pk, (double)d->cfg.clock_hz, page);
    ok = (f && fclose(f) == 0) && ok;
    g_free(tc);
    if (ok && rename(tmp, path) == 0) {
        g_ptr_array_add(o->written, g_strdup("trace.json"));
        return true;
    }
    g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: %s", path, g_strerror(errno));
    unlink(tmp);
    return false;
}

/* stacks.folded: every core's calling contexts, prefixed coreN. */
static GString *folded_all(const ProfileData *d)
{
    GString *s = g_string_new(NULL);
    for (unsigned i = 0; i < d->ncores; i++)
        if (d->profs[i]) {
            g_autofree char *prefix = g_strdup_printf("core%u", i);
            folded_append_fold(s, d->profs[i], prefix, d->fold_recursion);
        }
    return s;
}

static bool write_data(Out *o, const ProfileData *d, GError **error)
{
    g_autoptr(GBytes) b = profile_data_encode(d);
    gsize len;
    const char *data = g_bytes_get_data(b, &len);
    return put(o, NULL, PROFILE_DATA_FILE, data, len, error);
}

/* What resource limits (docs/robustness.md) truncated, for the summaries. */
static GPtrArray *limit_warnings(const ProfileData *d)
{
    GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
    for (unsigned i = 0; i < d->ncores; i++) {
        const Profile *p = d->profs[i];
        if (p && p->blocks_full)
            g_ptr_array_add(w, g_strdup_printf("core %u: stopped at the limit of %u distinct blocks ([limits] "
                                               "blocks)", i, d->cfg.max_blocks));
        if (p && p->contexts_dropped)
            g_ptr_array_add(w, g_strdup_printf("core %u: %" G_GUINT64_FORMAT " calls past the limit of %u calling "
                                               "contexts ([limits] contexts) stayed in their caller's context",
                                               i, p->contexts_dropped, d->cfg.max_contexts));
        if (p && p->events_dropped)
            g_ptr_array_add(w, g_strdup_printf("core %u: %" G_GUINT64_FORMAT " timeline events past --trace-limit "
                                               "were not recorded (trace.json)", i, p->events_dropped));
        if (!p || !p->syms || (i && d->profs[i - 1] && d->profs[i - 1]->syms == p->syms))
            continue;
        if (symbols_dropped_funcs(p->syms))
            g_ptr_array_add(w, g_strdup_printf("core %u: %s: %u functions past the limit of %u ([limits] functions) "
                                               "were ignored", i, p->elf_path, symbols_dropped_funcs(p->syms),
                                               d->cfg.max_functions));
        if (symbols_dropped_lines(p->syms))
            g_ptr_array_add(w, g_strdup_printf("core %u: %s: %u line-table rows past the limit of %u were ignored",
                                               i, p->elf_path, symbols_dropped_lines(p->syms),
                                               SYMBOLS_MAX_LINES));
    }
    if (d->packets_dropped)
        g_ptr_array_add(w, g_strdup_printf("%" G_GUINT64_FORMAT " NoC packets past --trace-limit were not recorded "
                                           "(trace.json, comm.txt)", d->packets_dropped));
    g_ptr_array_add(w, NULL);
    return w;
}

/* OUT/report.html from the final summary.json text (not yet on disk) and
 * trace.json's text without messages (NULL: no trace). */
static bool write_html(Out *o, const ProfileData *d, const char *summary, const char *folded, const char *trace,
                       GError **error)
{
    bool any = d->ncores && d->profs[0];
    GString *lines = any ? html_lines_json((const Profile *const *)d->profs, d->ncores) : NULL;
    GString *page = html_report_build(summary, folded, trace, lines ? lines->str : NULL);
    if (lines)
        g_string_free(lines, TRUE);
    return put_gstring(o, NULL, "report.html", page, error);
}

/* Every report, the summaries last with the final status (EXIT_REPORTS
 * when a report failed, 130/143 when a signal came meanwhile): a folder
 * whose writing was cut short (a crash, a second signal) has no summary,
 * never one from an earlier run or one claiming success. report.html
 * embeds the final summary.json and is written just before it. */
static bool write_all(Out *o, const ProfileData *d, unsigned flags, GError **error)
{
    g_autofree char *sj = g_build_filename(o->dir, "summary.json", NULL);
    g_autofree char *st = g_build_filename(o->dir, "summary.txt", NULL);
    unlink(sj);
    unlink(st);
    bool have_profiles = d->ncores && d->profs[0];
    AliasAnalysis *alias = NULL;
    JsonNode *alias_json = NULL;
    if (have_profiles && d->cfg.nperiods > 1) {
        alias = aliasing_analyse((const Profile *const *)d->profs, d->ncores);
        alias_json = aliasing_json(alias);
    }
    GError *first = NULL;
    GString *folded = have_profiles ? folded_all(d) : NULL;
    bool ok = (!(flags & CLI_WRITE_DATA) || write_data(o, d->whole ? d->whole : d, &first))
           && put_gstring(o, NULL, "noc.txt", noc_report(d->noc, &d->cfg), &first)
           && (!d->comm || put_gstring(o, NULL, "comm.txt", comm_text(d->comm), &first));
    for (unsigned i = 0; ok && i < d->ncores; i++)
        ok = write_core(o, d, i, flags, &first);
    if (ok && have_profiles)
        ok = write_chip(o, d, &first);
    GString *page_trace = d->no_trace ? NULL : g_string_new(NULL);
    if (ok && page_trace)
        ok = write_trace(o, d, page_trace, &first);
    if (ok && have_profiles)
        ok = put(o, NULL, "stacks.folded", folded->str, folded->len, &first);
    if (ok && alias)
        ok = put_gstring(o, NULL, "aliasing.txt", aliasing_report(alias), &first)
          && put_gstring(o, NULL, "aliasing.svg", aliasing_svg(alias), &first);
    g_autoptr(GPtrArray) warnings = limit_warnings(d);
    for (guint i = 0; i + 1 < warnings->len; i++)
        fprintf(stderr, "nocprof: warning: %s\n", (const char *)g_ptr_array_index(warnings, i));
    RunInfo run = profile_data_run_info(d);
    run.aliasing = alias_json;
    run.warnings = (const char *const *)warnings->pdata;
    run.communication = d->comm ? comm_json(d->comm, false) : NULL;
    run.exit_status = cli_final_status(run.exit_status, ok);
    GString *json = summary_json(&run);
    if (ok && !write_html(o, d, json->str, folded ? folded->str : NULL, page_trace ? page_trace->str : NULL, &first)) {
        ok = false;
        run.exit_status = cli_final_status(run.exit_status, ok);
        g_string_free(json, TRUE);
        json = summary_json(&run);
    }
    GError **err = first ? NULL : &first;
    bool sok = put_gstring(o, NULL, "summary.json", json, err)
            && put_gstring(o, NULL, "summary.txt", summary_text(&run), err);
    if (folded)
        g_string_free(folded, TRUE);
    if (page_trace)
        g_string_free(page_trace, TRUE);
    aliasing_free(alias);
    if (alias_json)
        json_node_unref(alias_json);
    if (run.communication)
        json_node_unref(run.communication);
    if (first)
        g_propagate_error(error, first);
    return ok && sok;
}

/* With CLI_WRITE_KEEP: what a re-render into the data's own folder does
 * not write but must keep listed (so not remove), in the order a run lists
 * them: the bundled demo's ELF when a core ran it, then the data. */
static void keep_inputs(Out *o, const ProfileData *d)
{
    g_autofree char *demo = g_build_filename("firmware", "pipeline.elf", NULL);
    g_autofree char *demo_path = g_build_filename(o->dir, demo, NULL);
    g_autofree char *suffix = g_strconcat(G_DIR_SEPARATOR_S, demo, NULL);
    bool ran_demo = false;
    for (unsigned i = 0; i < d->ncores; i++)
        ran_demo |= g_str_has_suffix(d->cores[i].elf, suffix) || strcmp(d->cores[i].elf, demo) == 0;
    if (ran_demo && g_file_test(demo_path, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add(o->written, g_strdup(demo));
    g_ptr_array_add(o->written, g_strdup(PROFILE_DATA_FILE));
}

static bool write_reports(const ProfileData *d, const char *out, unsigned flags, GError **error);

/* --focus / --exclude: a view of d whose profiles are filtered (the saved
 * data keeps them whole). free_view undoes it. */
static ProfileData *filtered_view(const ProfileData *d, GError **error)
{
    ProfileData *v = g_memdup2(d, sizeof *d);
    v->whole = d;   /* profile.data saves the unfiltered profiles */
    v->profs = g_new0(Profile *, d->ncores ? d->ncores : 1);
    v->cores = g_memdup2(d->cores, sizeof *d->cores * (d->ncores ? d->ncores : 1));
    for (unsigned i = 0; i < d->ncores; i++) {
        if (d->profs[i] && !(v->profs[i] = profile_filter(d->profs[i], d->focus, d->exclude, error))) {
            for (unsigned k = 0; k < i; k++)
                profile_free(v->profs[k]);
            g_free(v->profs);
            g_free(v->cores);
            g_free(v);
            return NULL;
        }
        v->cores[i].prof = v->profs[i];
    }
    return v;
}

static void free_view(ProfileData *v, unsigned ncores)
{
    for (unsigned i = 0; i < ncores; i++)
        profile_free(v->profs[i]);
    g_free(v->profs);
    g_free(v->cores);
    g_free(v);
}

bool cli_write_reports(const ProfileData *data, const char *out, unsigned flags, GError **error)
{
    ProfileData *view = NULL;
    if (data->focus || data->exclude) {
        if (!(view = filtered_view(data, error)))
            return false;
    }
    bool ok = write_reports(view ? view : data, out, flags, error);
    if (view)
        free_view(view, data->ncores);
    return ok;
}

static bool write_reports(const ProfileData *d, const char *out, unsigned flags, GError **error)
{
    g_autoptr(GPtrArray) before = manifest_read(out);
    Out o = { .dir = out, .written = g_ptr_array_new_with_free_func(g_free) };
    if (flags & CLI_WRITE_DEMO)
        g_ptr_array_add(o.written, g_build_filename("firmware", "pipeline.elf", NULL));
    if (flags & CLI_WRITE_KEEP)
        keep_inputs(&o, d);
    bool ok = write_all(&o, d, flags, error);
    /* a failed run keeps what the earlier one wrote listed, so that a later
     * run can still remove it */
    if (ok)
        manifest_prune(out, before, o.written);
    else
        for (unsigned i = 0; i < before->len; i++)
            g_ptr_array_add(o.written, g_strdup(g_ptr_array_index(before, i)));
    GError *merr = NULL;
    if (!manifest_write(out, o.written, ok ? error : &merr))
        ok = false;
    g_clear_error(&merr);
    g_ptr_array_unref(o.written);
    return ok;
}

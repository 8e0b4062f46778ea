// SPDX-License-Identifier: GPL-2.0-or-later
/* write.c — the output folder: every report of a run (live, or rebuilt
 * from saved profile data), each written atomically (a temporary name in
 * the same folder, then rename), and the saved data itself. */
#define _GNU_SOURCE /* renameat2, RENAME_EXCHANGE (glibc 2.28) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "profiler/formats/callgrind.h"
#include "cli/cli.h"
#include "profiler/formats/coverage.h"
#include "profiler/formats/folded.h"
#include "profiler/formats/gmon.h"
#include "web/html_report.h"
#include "profiler/report/report.h"
#include "profiler/report/summary.h"
#include "profiler/formats/summary_json.h"
#include "profiler/formats/trace.h"


int cli_replace(const char *tmp, const char *path)
{
#ifdef RENAME_EXCHANGE
    struct stat st; /* a regular file only: the exchange would move anything */
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)
        && renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) == 0) {
        unlink(tmp); /* the old file, now under the temporary name */
        return 0;
    }
#endif
    return rename(tmp, path); /* path not there yet, or no exchange here */
}

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
    if (ok && cli_replace(tmp, path) == 0)
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
    CliStage *stage;           /* the new files, renamed at the end */
    unsigned flags;            /* CLI_WRITE_* */
    GPtrArray *before;         /* what the folder's manifest listed */
} Out;

/* The error slot of the next file: every report is written even when an
 * earlier one failed (a full disk, the file size limit), so the folder
 * holds each one that could be written; the first error is the one told. */
static GError **slot(GError **first)
{
    return first && !*first ? first : NULL;
}

/* report, diff, merge: a signal stops the writing (nothing is replaced) */
static bool stopped(const Out *o, GError **error)
{
    if (!(o->flags & CLI_WRITE_STOP_ON_SIGNAL) || !cli_signal_status())
        return false;
    g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "interrupted by %s: nothing was replaced",
                cli_signal_name(cli_signal_status()));
    return true;
}

/* Stage one file, OUT/sub/name (sub may be NULL), and remember it (a name
 * written twice is listed once). */
/* rel is in the folder's list (once). */
static void note_written(Out *o, const char *rel)
{
    for (guint i = o->written->len; i-- > 0;)
        if (strcmp(g_ptr_array_index(o->written, i), rel) == 0)
            return;
    g_ptr_array_add(o->written, g_strdup(rel));
}

static bool put(Out *o, const char *sub, const char *name, const char *data, gsize len, GError **error)
{
    g_autofree char *dir = sub ? g_build_filename(o->dir, sub, NULL) : g_strdup(o->dir);
    g_autofree char *rel = sub ? g_build_filename(sub, name, NULL) : g_strdup(name);
    cli_test_hook(rel);
    if (stopped(o, error) || !cli_stage_put(o->stage, dir, name, data, len, error))
        return false;
    note_written(o, rel);
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
        return report_annotated_events(p, d->events);
    return report_annotated_asm(p, strcmp(mode, "both") == 0, d->events);
}

/* gmon.out (first period) and gmon-P.out (each further period P). */
static bool write_gmons(Out *o, const char *sub, const Profile *p, GError **error)
{
    bool all = true;
    for (unsigned h = 0; h < p->nperiods; h++) {
        /* big-endian: no basic-block record, or binutils 2.40's
         * `mips-linux-gnu-gprof -s` writes a sum it cannot read back
         * (docs/reports.md); line counts are in annotated.txt */
        GByteArray *g = gmon_build_flags(p, h, symbols_big_endian(p->syms) ? GMON_NO_BLOCKS : GMON_DEFAULT,
                                         slot(error));
        if (!g) {
            all = false;
            continue;
        }
        g_autofree char *gname = h == 0 ? g_strdup("gmon.out") : g_strdup_printf("gmon-%u.out", p->hists[h].period);
        all = put(o, sub, gname, (const char *)g->data, g->len, slot(error)) && all;
        g_byte_array_unref(g);
    }
    return all;
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
    bool ok = put_gstring(o, sub, "flat.txt", report_flat_events(p, d->events), slot(error));
    ok = put_gstring(o, sub, "callgraph.txt", report_callgraph(p), slot(error)) && ok;
    ok = put_gstring(o, sub, "annotated.txt", annotated(d, p), slot(error)) && ok;
    ok = put_gstring(o, sub, "callgrind.out",
                     d->comm ? callgrind_build_comm(p, d->comm->cores[i].lines, d->comm->cores[i].nlines)
                             : callgrind_build(p), slot(error)) && ok;
    return write_gmons(o, sub, p, slot(error)) && ok;
}

/* OUT/flat.txt and OUT/callgraph.txt: all cores summed by function name. */
static bool write_chip(Out *o, const ProfileData *d, GError **error)
{
    Profile *chip = profile_merge((const Profile *const *)d->profs, d->ncores);
    bool ok = put_gstring(o, NULL, "flat.txt", report_flat_events(chip, d->events), slot(error));
    ok = put_gstring(o, NULL, "callgraph.txt", report_callgraph(chip), slot(error)) && ok;
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
    cli_test_hook("trace.json");
    FILE *f = stopped(o, error) ? NULL : cli_stage_open(o->stage, o->dir, "trace.json", error);
    bool ok = f && cli_stage_close(o->stage, o->dir, "trace.json", f,
                                   trace_write(f, tc, d->ncores, &pk, (double)d->cfg.clock_hz, page), error);
    g_free(tc);
    if (ok)
        g_ptr_array_add(o->written, g_strdup("trace.json"));
    return ok;
}

/* stacks.folded's trees: every core's calling contexts, prefixed coreN,
 * and the depth its paths are cut at. */
typedef struct FoldedAll {
    unsigned ncores, depth;
    Folded **f;                /* [ncores], NULL: no profile */
    char **prefix;             /* [ncores] */
} FoldedAll;

static void folded_all_free(FoldedAll *fa)
{
    for (unsigned i = 0; i < fa->ncores; i++) {
        folded_free(fa->f[i]);
        g_free(fa->prefix[i]);
    }
    g_free(fa->f);
    g_free(fa->prefix);
}

/* stacks.folded within [limits] folded_bytes (also report.html's flame
 * graphs): the deepest cut of every path that fits, totals exact;
 * *warning says what was cut, *flame is report.html's flame data of the
 * same lines. The text is written later (write_folded), never whole. */
static FoldedAll folded_all(const ProfileData *d, char **warning, GString **flame)
{
    FoldedAll fa = { .ncores = d->ncores, .f = g_new0(Folded *, d->ncores ? d->ncores : 1),
                     .prefix = g_new0(char *, d->ncores + 1) };
    Folded **f = fa.f;
    char **prefix = fa.prefix;
    unsigned deepest = 1;
    for (unsigned i = 0; i < d->ncores; i++)
        if (d->profs[i]) {
            f[i] = folded_new(d->profs[i], d->fold_recursion);
            prefix[i] = g_strdup_printf("core%u", i);
            deepest = MAX(deepest, MIN(folded_max_depth(f[i]), FOLDED_MAX_DEPTH));
        }
    uint64_t full = 0, size = 0;
    for (unsigned i = 0; i < d->ncores; i++)
        full += f[i] ? folded_bytes(f[i], prefix[i], deepest) : 0;
    unsigned lo = 1, hi = deepest;   /* the deepest cut within the budget */
    while (full > d->cfg.folded_bytes && lo < hi) {
        unsigned mid = lo + (hi - lo + 1) / 2;
        size = 0;
        for (unsigned i = 0; i < d->ncores; i++)
            size += f[i] ? folded_bytes(f[i], prefix[i], mid) : 0;
        if (size <= d->cfg.folded_bytes)
            lo = mid;
        else
            hi = mid - 1;
    }
    fa.depth = full > d->cfg.folded_bytes ? lo : deepest;
    *flame = cli_flame_json(f, (const char *const *)prefix, d->ncores, fa.depth);
    if (full > d->cfg.folded_bytes) {
        uint64_t written = 0;
        for (unsigned i = 0; i < d->ncores; i++)
            written += f[i] ? folded_bytes(f[i], prefix[i], fa.depth) : 0;
        *warning = g_strdup_printf("stacks.folded: call paths cut at %u of %u frames to stay within %" G_GUINT64_FORMAT
                                   " bytes ([limits] folded_bytes; %" G_GUINT64_FORMAT " bytes uncut, %" G_GUINT64_FORMAT
                                   " written); deeper frames' cycles are in their ancestor at that depth (totals "
                                   "exact; also report.html's flame graphs)", fa.depth, deepest, d->cfg.folded_bytes,
                                   full, written);
    }
    return fa;
}

/* OUT/stacks.folded, streamed in chunks of 256 KiB (8.6 MB of deep
 * recursion held whole, or 2 MB a core, cost their page faults: issue 24). */
static bool write_folded(Out *o, const FoldedAll *fa, GError **error)
{
    cli_test_hook("stacks.folded");
    FILE *out = stopped(o, error) ? NULL : cli_stage_open(o->stage, o->dir, "stacks.folded", error);
    if (!out)
        return false;
    bool ok = true;
    for (unsigned i = 0; ok && i < fa->ncores; i++)
        if (fa->f[i])
            ok = folded_write_file(out, fa->f[i], fa->prefix[i], fa->depth);
    if (!cli_stage_close(o->stage, o->dir, "stacks.folded", out, ok, error))
        return false;
    note_written(o, "stacks.folded");
    return true;
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
        if (!symbols_line_rows(p->syms)) {
            g_autofree char *name = g_filename_display_name(p->elf_path);
            g_ptr_array_add(w, g_strdup_printf("core %u: %s has no line table (.debug_line; build it with -g): "
                                               "coverage.info lists nothing of it, and there are no source "
                                               "lines", i, name));
        }
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

/* OUT/report.html from the final summary.json (staged, not yet in place),
 * the flame data (flame_of; NULL: no profiles) and trace.json's text
 * without messages (NULL: no trace). */
static bool write_html(Out *o, const ProfileData *d, const char *flame, const char *trace, GError **error)
{
    bool any = d->ncores && d->profs[0];
    const char *summary = cli_stage_path(o->stage, o->dir, "summary.json");
    GString *page = html_report_build_run(summary, NULL, flame, trace, any ? (const Profile *const *)d->profs : NULL,
                                          d->ncores, error);
    return page && put_gstring(o, NULL, "report.html", page, error);
}

/* summary.json, staged as it is made (summary_json_write): 44 MB for
 * 30,000 functions on four cores were held whole, and again in
 * report.html's making (issue 24). */
static bool put_summary_json(Out *o, const RunInfo *r, GError **error)
{
    cli_test_hook("summary.json");
    FILE *f = stopped(o, error) ? NULL : cli_stage_open(o->stage, o->dir, "summary.json", error);
    return f && cli_stage_close(o->stage, o->dir, "summary.json", f, summary_json_write(r, f), error);
}

/* summary.json, report.html (embedding it, read back) and summary.txt
 * with the final status (EXIT_REPORTS when a report failed, 130/143 when a
 * signal came meanwhile). For `run` the status is then frozen
 * (cli_signals_freeze): a signal that came while these were written makes
 * them be written again with its status, so the summary always says the
 * status the process exits with. */
static bool write_summaries(Out *o, const ProfileData *d, RunInfo *run, bool ok, const char *flame,
                            const char *trace, GError **first)
{
    bool sok = true, html_failed = false;
    for (int status = -1; status != cli_final_status(run->exit_status, ok);) {
        status = cli_final_status(run->exit_status, ok);
        RunInfo r = *run;
        r.exit_status = status;
        GError **err = slot(first);
        sok = put_summary_json(o, &r, err);
        if (sok && !html_failed && !write_html(o, d, flame, trace, slot(first))) {
            html_failed = true;       /* never again; the summaries say 5 */
            if (ok) {
                ok = false;
                status = -1;
                continue;
            }
        }
        if (sok)
            note_written(o, "summary.json");   /* listed after report.html, as ever */
        sok = sok && put_gstring(o, NULL, "summary.txt", summary_text(&r), err);
        if (o->flags & CLI_WRITE_STOP_ON_SIGNAL)
            break;   /* a signal discards everything anyway */
        cli_signals_freeze();
    }
    return ok && sok;
}

/* Between the renames of the reports and those of the summaries
 * (cli_stage_commit_last): the manifest, then, if a report could not be
 * renamed or the manifest written, the summaries again with status 5. */
typedef struct Tail {
    Out *o;
    const ProfileData *d;
    RunInfo *run;
    const char *flame, *trace;
    GError **first;
    bool ok;                   /* every report written; the summaries say so */
    bool listed;               /* the manifest was written (or tried) */
} Tail;

static bool tail_hook(void *data, bool ok)
{
    Tail *t = data;
    bool mok = true;
    if (!t->listed) {
        Out *o = t->o;
        t->listed = true;
        /* the earlier run's files this one does not write go, also when a
         * report failed (else the folder would mix two runs); a failed run
         * keeps them listed, so that a later run can still remove what
         * could not be removed now */
        manifest_prune(o->dir, o->before, o->written);
        if (!(ok && t->ok))
            for (unsigned i = 0; i < o->before->len; i++)
                g_ptr_array_add(o->written, g_strdup(g_ptr_array_index(o->before, i)));
        mok = manifest_write(o->dir, o->written, slot(t->first));
    }
    if (t->ok && !(ok && mok)) {
        t->ok = false;
        write_summaries(t->o, t->d, t->run, false, t->flame, t->trace, t->first);
    }
    return mok;
}

/* Every report, staged (stage.c), the summaries last; then renamed into
 * place together. A folder whose writing was cut short (a crash, an
 * abort) keeps its previous complete set. */
static bool write_all(Out *o, const ProfileData *d, unsigned flags, GError **error)
{
    bool have_profiles = d->ncores && d->profs[0];
    AliasAnalysis *alias = NULL;
    /* summary.json's sections of other layers, as their JSON text */
    g_autofree char *alias_json = NULL, *comm_json_text = NULL;
    if (have_profiles && d->cfg.nperiods > 1) {
        alias = aliasing_analyse((const Profile *const *)d->profs, d->ncores);
        NpJson *jb = npjson_new();
        aliasing_json(jb, alias);
        alias_json = npjson_take(jb);
    }
    if (d->comm) {
        NpJson *jb = npjson_new();
        comm_json(jb, d->comm, false);
        comm_json_text = npjson_take(jb);
    }
    GError *first = NULL;
    g_autofree char *folded_cut = NULL;
    GString *flame = NULL;
    FoldedAll folded = { 0 };
    if (have_profiles)
        folded = folded_all(d, &folded_cut, &flame);
    bool ok = !(flags & CLI_WRITE_FAILED);
    ok = (!(flags & CLI_WRITE_DATA) || write_data(o, d->whole ? d->whole : d, slot(&first))) && ok;
    ok = put_gstring(o, NULL, "noc.txt", noc_report(d->noc, &d->cfg), slot(&first)) && ok;
    if (d->comm)
        ok = put_gstring(o, NULL, "comm.txt", comm_text(d->comm, (const Profile *const *)d->profs, d->ncores),
                         slot(&first)) && ok;
    for (unsigned i = 0; i < d->ncores && !stopped(o, NULL); i++)
        ok = write_core(o, d, i, flags, slot(&first)) && ok;
    if (have_profiles && !stopped(o, NULL))
        ok = write_chip(o, d, slot(&first)) && ok;
    GString *page_trace = d->no_trace ? NULL : g_string_new(NULL);
    if (page_trace && !write_trace(o, d, page_trace, slot(&first))) {
        ok = false;
        g_string_free(page_trace, TRUE);    /* report.html without a cut timeline */
        page_trace = NULL;
    }
    if (have_profiles)
        ok = write_folded(o, &folded, slot(&first)) && ok;
    GString *sums = (flags & CLI_WRITE_SOURCES) && have_profiles ? g_string_new(NULL) : NULL;
    if (have_profiles)
        ok = put_gstring(o, NULL, "coverage.info",
                         coverage_lcov((const Profile *const *)d->profs, d->ncores, sums), slot(&first)) && ok;
    g_autofree char *sums_path = g_build_filename(o->dir, CLI_SOURCES_FILE, NULL);
    if (sums)
        ok = put(o, NULL, CLI_SOURCES_FILE, sums->str, sums->len, slot(&first)) && ok;
    else if ((flags & (CLI_WRITE_KEEP | CLI_WRITE_KEEP_SOURCES)) && g_file_test(sums_path, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add(o->written, g_strdup(CLI_SOURCES_FILE));   /* the run's record, kept in place */
    if (sums)
        g_string_free(sums, TRUE);
    if (alias) {
        ok = put_gstring(o, NULL, "aliasing.txt", aliasing_report(alias), slot(&first)) && ok;
        ok = put_gstring(o, NULL, "aliasing.svg", aliasing_svg(alias), slot(&first)) && ok;
    }
    g_autoptr(GPtrArray) warnings = limit_warnings(d);
    if (folded_cut)
        g_ptr_array_insert(warnings, (gint)warnings->len - 1, g_strdup(folded_cut));
    for (guint i = 0; i + 1 < warnings->len; i++)
        fprintf(stderr, "nocprof: warning: %s\n", (const char *)g_ptr_array_index(warnings, i));
    RunInfo run = profile_data_run_info(d);
    run.aliasing = alias_json;
    run.warnings = (const char *const *)warnings->pdata;
    run.communication = comm_json_text;
    if (stopped(o, NULL)) {
        cli_stage_discard(o->stage);
        g_clear_error(&first);
        stopped(o, &first);
        ok = false;
    } else {
        Tail t = { .o = o, .d = d, .run = &run, .flame = flame ? flame->str : NULL,
                   .trace = page_trace ? page_trace->str : NULL, .first = &first };
        t.ok = ok = write_summaries(o, d, &run, ok, t.flame, t.trace, &first);
        g_autofree char *html = g_build_filename(o->dir, "report.html", NULL);
        g_autofree char *txt = g_build_filename(o->dir, "summary.txt", NULL);
        g_autofree char *json = g_build_filename(o->dir, "summary.json", NULL);
        const char *last[] = { html, txt, json, NULL };
        ok = cli_stage_commit_last(o->stage, flags & CLI_WRITE_STOP_ON_SIGNAL, last, tail_hook, &t, &first) && ok;
    }
    folded_all_free(&folded);
    if (flame)
        g_string_free(flame, TRUE);
    if (page_trace)
        g_string_free(page_trace, TRUE);
    aliasing_free(alias);
    if (first)
        g_propagate_error(error, first);
    return ok;
}

/* What this command does not write but must keep listed (so not remove):
 * the bundled demo's ELF in out/firmware/ when a core ran it (every
 * command: `merge X X -o X` once deleted X/firmware/pipeline.elf through
 * the manifest), and with CLI_WRITE_KEEP (a re-render into the data's own
 * folder) the data, in the order a run lists them. */
static void keep_inputs(Out *o, const ProfileData *d, unsigned flags)
{
    g_autofree char *demo = g_build_filename("firmware", "pipeline.elf", NULL);
    g_autofree char *demo_path = g_build_filename(o->dir, demo, NULL);
    g_autofree char *suffix = g_strconcat(G_DIR_SEPARATOR_S, demo, NULL);
    bool ran_demo = false;
    for (unsigned i = 0; i < d->ncores; i++)
        ran_demo |= g_str_has_suffix(d->cores[i].elf, suffix) || strcmp(d->cores[i].elf, demo) == 0;
    if (!(flags & CLI_WRITE_DEMO) && ran_demo && g_file_test(demo_path, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add(o->written, g_strdup(demo));
    if (flags & CLI_WRITE_KEEP)
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
    Out o = { .dir = out, .written = g_ptr_array_new_with_free_func(g_free), .stage = cli_stage_new(),
              .flags = flags, .before = before };
    if (flags & CLI_WRITE_DEMO)
        g_ptr_array_add(o.written, g_build_filename("firmware", "pipeline.elf", NULL));
    keep_inputs(&o, d, flags);
    bool ok = write_all(&o, d, flags, error);   /* the manifest too (tail_hook) */
    cli_stage_free(o.stage);
    g_ptr_array_unref(o.written);
    return ok;
}

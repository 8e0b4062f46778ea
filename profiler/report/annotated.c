// SPDX-License-Identifier: GPL-2.0-or-later
/* report_annotated.c — gprof -A -l -x style annotated source listing.
 *
 * For every function that ran (calls, cycles or an executed block), in
 * address order: a header with its calls and self/inclusive cycles, then
 * every source line of its line range (per source file its instructions
 * map to, DWARF) prefixed with
 *   count    per basic block that has an instruction on that line, the
 *            times the line ran in it (the most any of its instructions
 *            there ran: a run cut short before the line is not counted),
 *            comma-separated when several blocks share the line (gprof -A
 *            -x); "#####" for a line with code that never ran;
 *   cycles   the line's cycles: each instruction's own (ProfBlock.icycles:
 *            its cost, waits, misses, a taken branch's cost; exact per
 *            block), summed over the line's instructions;
 *   samples  timer-tick samples of the first sampling period on its
 *            instructions;
 *   events   with --events, a column per event of the event table
 *            (events.h): the sum over the line's instructions of
 *            prof_insn_events (executions x class, stall cycles, misses).
 * When the function has no line information or a source file cannot be
 * read, its disassembly is listed instead, one instruction per line with
 * the same columns (count = executions of that instruction).
 */
#include "base/num.h"
#include "profiler/model/srcpath.h"
#include "profiler/report/report.h"
#include "profiler/report/report_util.h"

#include <inttypes.h>
#include <string.h>

typedef struct LineBlock {
    unsigned block;     /* index into p->blocks */
    uint64_t runs;      /* times the line ran in it: the most any of its
                           instructions on the line ran (a run cut short
                           after the line's first instruction ran it) */
} LineBlock;

typedef struct LineInfo {
    GArray *blocks;     /* LineBlock, distinct blocks */
    uint64_t cycles, samples;
    uint64_t ev[PEV_COUNT];   /* --events: the line's counts */
    bool code;
} LineInfo;

typedef struct FileSpan {
    const char *file;
    unsigned lo, hi;    /* line range */
    LineInfo *lines;    /* [hi - lo + 1] */
} FileSpan;

typedef struct Source {
    char **lines;       /* NULL when unreadable */
    unsigned n;
    char *tried;        /* when unreadable: every path tried, comma-separated */
} Source;

static void source_free(gpointer data)
{
    Source *s = data;
    g_strfreev(s->lines);
    g_free(s->tried);
    g_free(s);
}

static const Source *source_get(GHashTable *cache, const char *file)
{
    Source *s = g_hash_table_lookup(cache, file);
    if (s)
        return s;
    s = g_new0(Source, 1);
    gsize len = 0;
    GPtrArray *tried = g_ptr_array_new_with_free_func(g_free);
    char *text = srcpath_read(file, &len, NULL, tried);
    if (!text) {
        g_ptr_array_add(tried, NULL);
        s->tried = g_strjoinv(", ", (char **)tried->pdata);
    }
    g_ptr_array_free(tried, TRUE);
    if (text) {
        s->lines = g_strsplit(text, "\n", -1);
        s->n = g_strv_length(s->lines);
        if (s->n && len && text[len - 1] == '\n')
            s->n--;   /* the empty string after the last newline */
        for (unsigned i = 0; i < s->n; i++)
            g_strchomp(s->lines[i]);   /* CR and trailing blanks */
    }
    g_free(text);
    g_hash_table_insert(cache, (gpointer)file, s);
    return s;
}

/* Blocks overlapping [lo, hi) (blocks are sorted by addr; a block starting
 * below lo may still reach into the range, by at most max_bytes). */
static bool block_overlaps(const ProfBlock *b, uint32_t lo, uint32_t hi)
{
    uint64_t end = (uint64_t)b->addr + (uint64_t)b->ninsns * 4;
    return b->addr < hi && end > lo;
}

/* Which functions ran, computed once (so the listing costs O(blocks +
 * listed instructions), not O(functions x blocks)). */
typedef struct Index {
    bool *ran;             /* [nfuncs] */
} Index;

/* At most this many instructions of one function are listed. */
#define ANNOTATE_MAX_INSNS (1u << 22)

typedef struct FuncData {
    uint32_t lo;
    unsigned n;            /* instructions */
    unsigned b0;           /* first block that may overlap */
    uint64_t *count, *cycles, *samples;
    uint64_t (*ev)[PEV_COUNT];   /* per instruction, with --events (else NULL) */
    SymLine *where;
} FuncData;

static void func_data(const Profile *p, const ProfFunc *f, FuncData *d, bool events)
{
    d->lo = f->addr;
    /* symbols_load bounds sizes by the ELF's loaded bytes; stay inside the
     * 32-bit address space and under a hard cap whatever the profile says */
    uint64_t n = MIN((uint64_t)f->size, ((uint64_t)1 << 32) - f->addr) / 4;
    d->n = (unsigned)MIN(n, (uint64_t)ANNOTATE_MAX_INSNS);
    d->b0 = profile_first_block(p, d->lo);
    d->count = g_new0(uint64_t, d->n ? d->n : 1);
    d->cycles = g_new0(uint64_t, d->n ? d->n : 1);
    d->samples = g_new0(uint64_t, d->n ? d->n : 1);
    d->where = g_new0(SymLine, d->n ? d->n : 1);
    uint32_t hi = d->lo + d->n * 4;
    for (unsigned i = d->b0; i < p->nblocks && p->blocks[i].addr < hi; i++) {
        const ProfBlock *b = &p->blocks[i];
        if (!b->ninsns || !block_overlaps(b, d->lo, hi))
            continue;
        for (uint32_t k = 0; k < b->ninsns; k++) {
            uint64_t a = (uint64_t)b->addr + 4 * (uint64_t)k;
            if (a < d->lo || a >= hi)
                continue;
            d->count[(a - d->lo) / 4] += prof_block_insn_runs(b, k);
            d->cycles[(a - d->lo) / 4] += prof_block_insn_cycles(b, k);
        }
    }
    if (p->nperiods) {
        const ProfHist *h = &p->hists[0];
        for (unsigned i = 0; i < d->n; i++) {
            uint32_t a = d->lo + 4 * i;
            d->samples[i] = prof_hist_at(h, a);
        }
    }
    for (unsigned i = 0; i < d->n; i++) {
        d->where[i] = p->syms ? symbols_line(p->syms, d->lo + 4 * i) : (SymLine){ NULL, 0 };
        if (d->where[i].line == 0)   /* clang's line-0 rows: no source line */
            d->where[i] = (SymLine){ NULL, 0 };
    }
    d->ev = events ? g_malloc0_n(d->n ? d->n : 1, sizeof *d->ev) : NULL;
    for (unsigned i = 0; events && i < d->n; i++)
        prof_insn_events(p, d->lo + 4 * i, d->count[i], d->ev[i]);
}

static void func_data_free(FuncData *d)
{
    g_free(d->count);
    g_free(d->cycles);
    g_free(d->samples);
    g_free(d->where);
    g_free(d->ev);
}

/* " %6u: TEXT\n" without a printf (a line of every source file shown:
 * issue 24) */
static void line_text(GString *o, unsigned l, const char *text)
{
    g_string_append_c(o, ' ');
    num_append_u64_width(o, l, 6);
    g_string_append(o, ": ");
    g_string_append(o, text ? text : "(null)");   /* as printf's %s */
    g_string_append_c(o, '\n');
}

static char *u64s(uint64_t v)
{
    return g_strdup_printf("%" PRIu64, v);
}

static void print_disasm(GString *o, const Profile *p, const FuncData *d, const EvCols *ec)
{
    for (unsigned i = 0; i < d->n; i++) {
        uint32_t a = d->lo + 4 * i;
        char *dis = p->syms ? symbols_disasm(p->syms, a) : g_strdup("<unreadable>");
        char *c = u64s(d->count[i]);
        g_string_append_printf(o, "%15s %10" PRIu64 " %8" PRIu64, d->count[i] ? c : "#####", d->cycles[i],
                               d->samples[i]);
        report_event_cells(o, ec, d->ev ? d->ev[i] : NULL);
        g_string_append_printf(o, "  0x%08" PRIx32 ": %s\n", a, dis);
        g_free(c);
        g_free(dis);
    }
}

/* A function whose lines spread over more than this many lines of one file
 * (corrupt DWARF) is listed as disassembly. */
#define ANNOTATE_MAX_SPAN_LINES (1u << 20)

/* Group the function's instructions by source file and line; *too_wide when
 * a file's line range is implausibly large (then no spans). */
static GArray *build_spans(const Profile *p, const FuncData *d, bool *too_wide)
{
    GArray *spans = g_array_new(FALSE, TRUE, sizeof(FileSpan));
    for (unsigned i = 0; i < d->n; i++) {
        const SymLine *w = &d->where[i];
        if (!w->file || !w->line)
            continue;
        FileSpan *s = NULL;
        for (guint j = 0; j < spans->len; j++)
            if (g_array_index(spans, FileSpan, j).file == w->file)
                s = &g_array_index(spans, FileSpan, j);
        if (!s) {
            FileSpan n = { w->file, w->line, w->line, NULL };
            g_array_append_val(spans, n);
        } else {
            s->lo = MIN(s->lo, w->line);
            s->hi = MAX(s->hi, w->line);
        }
    }
    *too_wide = false;
    for (guint j = 0; j < spans->len; j++)
        if (g_array_index(spans, FileSpan, j).hi - g_array_index(spans, FileSpan, j).lo
            >= ANNOTATE_MAX_SPAN_LINES) {
            *too_wide = true;
            g_array_set_size(spans, 0);
            return spans;
        }
    for (guint j = 0; j < spans->len; j++) {
        FileSpan *s = &g_array_index(spans, FileSpan, j);
        s->lines = g_new0(LineInfo, s->hi - s->lo + 1);
    }
    uint32_t hi = d->lo + d->n * 4;
    for (unsigned bi = d->b0; bi < p->nblocks && p->blocks[bi].addr < hi; bi++) {
        const ProfBlock *b = &p->blocks[bi];
        if (!block_overlaps(b, d->lo, hi))
            continue;
        for (uint32_t k = 0; k < b->ninsns; k++) {
            uint64_t a = (uint64_t)b->addr + 4 * (uint64_t)k;
            if (a < d->lo || a >= hi)
                continue;
            const SymLine *w = &d->where[(a - d->lo) / 4];
            for (guint j = 0; j < spans->len && w->file; j++) {
                FileSpan *s = &g_array_index(spans, FileSpan, j);
                if (s->file != w->file)
                    continue;
                LineInfo *li = &s->lines[w->line - s->lo];
                if (!li->blocks)
                    li->blocks = g_array_new(FALSE, FALSE, sizeof(LineBlock));
                LineBlock *seen = NULL, x = { bi, prof_block_insn_runs(b, k) };
                for (guint m = 0; m < li->blocks->len; m++)
                    if (g_array_index(li->blocks, LineBlock, m).block == bi)
                        seen = &g_array_index(li->blocks, LineBlock, m);
                if (seen)
                    seen->runs = MAX(seen->runs, x.runs);
                else
                    g_array_append_val(li->blocks, x);
            }
        }
    }
    for (unsigned i = 0; i < d->n; i++) {
        const SymLine *w = &d->where[i];
        for (guint j = 0; j < spans->len && w->file; j++) {
            FileSpan *s = &g_array_index(spans, FileSpan, j);
            if (s->file != w->file)
                continue;
            LineInfo *li = &s->lines[w->line - s->lo];
            li->code = true;
            li->cycles += d->cycles[i];
            li->samples += d->samples[i];
            for (unsigned e = 0; d->ev && e < PEV_COUNT; e++)
                li->ev[e] += d->ev[i][e];
        }
    }
    return spans;
}

static void spans_free(GArray *spans)
{
    for (guint j = 0; j < spans->len; j++) {
        FileSpan *s = &g_array_index(spans, FileSpan, j);
        for (unsigned l = 0; l <= s->hi - s->lo; l++)
            if (s->lines[l].blocks)
                g_array_free(s->lines[l].blocks, TRUE);
        g_free(s->lines);
    }
    g_array_free(spans, TRUE);
}

typedef struct Totals {
    unsigned functions, lines, executed;
} Totals;

/* The source lines of the function's spans with their columns. */
static void print_source(GString *o, const Profile *p, GArray *spans, GHashTable *cache, Totals *t,
                         const EvCols *ec)
{
    for (guint j = 0; j < spans->len; j++) {
        const FileSpan *s = &g_array_index(spans, FileSpan, j);
        const Source *src = source_get(cache, s->file);
        g_string_append_printf(o, "    %s:%u-%u\n", s->file, s->lo, s->hi);
        g_string_append_printf(o, "%15s %10s %8s", "count", "cycles", "samples");
        report_event_header(o, ec);
        g_string_append_printf(o, " %6s  %s\n", "line", "source");
        for (unsigned l = s->lo; l <= s->hi; l++) {
            const LineInfo *li = &s->lines[l - s->lo];
            const char *text = src->lines[l - 1];
            if (!li->code) {   /* "%15s %10s %8s" of nothing */
                g_string_append(o, "                                   ");
                report_event_cells(o, ec, NULL);
                line_text(o, l, text);
                continue;
            }
            GString *cs = g_string_new(NULL);
            for (guint m = 0; li->blocks && m < li->blocks->len; m++) {
                uint64_t runs = g_array_index(li->blocks, LineBlock, m).runs;
                if (!runs)   /* every run was cut short before the line */
                    continue;
                if (cs->len)
                    g_string_append_c(cs, ',');
                num_append_u64(cs, runs);
            }
            t->lines++;
            if (cs->len)
                t->executed++;
            else
                g_string_assign(cs, "#####");
            num_append_right(o, cs->str, cs->len, 15);   /* "%15s %10" PRIu64 " %8" PRIu64 */
            g_string_append_c(o, ' ');
            num_append_u64_width(o, li->cycles, 10);
            g_string_append_c(o, ' ');
            num_append_u64_width(o, li->samples, 8);
            report_event_cells(o, ec, li->ev);
            line_text(o, l, text);
            g_string_free(cs, TRUE);
        }
    }
}

static void print_function(GString *o, const Profile *p, unsigned fi, GHashTable *cache, Totals *t,
                           const EvCols *ec)
{
    const ProfFunc *f = &p->funcs[fi];
    FuncData d;
    func_data(p, f, &d, ec->n > 0);
    bool too_wide;
    GArray *spans = build_spans(p, &d, &too_wide);
    bool source = spans->len > 0;
    for (guint j = 0; j < spans->len; j++) {
        const FileSpan *s = &g_array_index(spans, FileSpan, j);
        const Source *src = source_get(cache, s->file);
        if (!src->lines || s->hi > src->n)
            source = false;
    }

    g_string_append_printf(o,
        "\n*** %s  [0x%08" PRIx32 ", 0x%08" PRIx32 ")  called %" PRIu64,
        f->name, f->addr, f->addr + f->size, f->calls);
    if (f->recursive_calls)
        g_string_append_printf(o, " (%" PRIu64 "+%" PRIu64 ")",
                               f->calls - MIN(f->calls, f->recursive_calls), f->recursive_calls);
    g_string_append_printf(o, ", self %" PRIu64 " cycles, inclusive %" PRIu64 " cycles\n",
                           f->self_cycles, f->inclusive_cycles);
    t->functions++;

    if (!source) {
        const char *why = too_wide ? "line range too wide" : spans->len ? "source file not readable"
                                                                          : "no line information";
        g_string_append_printf(o, "    (%s: disassembly)\n", why);
        for (guint j = 0; j < spans->len; j++) {
            const Source *src = source_get(cache, g_array_index(spans, FileSpan, j).file);
            if (src->tried)
                g_string_append_printf(o, "    (%s not found; tried: %s)\n",
                                       g_array_index(spans, FileSpan, j).file, src->tried);
            else if (!src->lines || g_array_index(spans, FileSpan, j).hi > src->n)
                g_string_append_printf(o, "    (%s is shorter than its line table)\n",
                                       g_array_index(spans, FileSpan, j).file);
        }
        g_string_append_printf(o, "%15s %10s %8s", "count", "cycles", "samples");
        report_event_header(o, ec);
        g_string_append(o, "  address: instruction\n");
        print_disasm(o, p, &d, ec);
    } else {
        print_source(o, p, spans, cache, t, ec);
    }
    spans_free(spans);
    func_data_free(&d);
}

static void index_build(const Profile *p, Index *ix)
{
    ix->ran = report_funcs_ran(p);
    for (unsigned i = 0; i < p->nfuncs; i++)
        ix->ran[i] |= p->funcs[i].calls || p->funcs[i].self_cycles;
    for (unsigned i = 0; i < p->nblocks; i++) {
        const ProfBlock *b = &p->blocks[i];
        if (b->count && b->func < p->nfuncs)
            ix->ran[b->func] = true;
    }
}

static int addr_cmp(const void *a, const void *b, void *data)
{
    const Profile *p = data;
    const ProfFunc *x = &p->funcs[*(const unsigned *)a], *y = &p->funcs[*(const unsigned *)b];
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

GString *report_annotated(const Profile *p)
{
    return report_annotated_events(p, false);
}

GString *report_annotated_events(const Profile *p, bool events)
{
    EvCols ec = report_event_columns(p, events);
    GString *o = g_string_new(NULL);
    char *title = report_title(p);
    g_string_append_printf(o, "Annotated source, %s\n\n", title);
    g_free(title);
    g_string_append(o,
        "count: times the line ran in each basic block on it (comma-separated when several\n"
        "blocks share it; ##### = code never executed); cycles: the blocks' cycles spread\n"
        "over their instructions; samples: timer ticks of the first sampling period");
    if (p->nperiods)
        g_string_append_printf(o, " (%" PRIu32 " cycles)", p->hists[0].period);
    g_string_append(o, ".\n");
    if (ec.n)
        g_string_append(o, REPORT_EVENTS_LEGEND);

    Index ix;
    index_build(p, &ix);
    GArray *funcs = g_array_new(FALSE, FALSE, sizeof(unsigned));
    for (unsigned i = 0; i < p->nfuncs; i++)
        if (!p->funcs[i].pseudo && !p->funcs[i].hidden && p->funcs[i].size && ix.ran[i])
            g_array_append_val(funcs, i);
    g_qsort_with_data(funcs->data, (gint)funcs->len, sizeof(unsigned), addr_cmp, (void *)p);

    GHashTable *cache = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, source_free);
    Totals t = { 0 };
    for (guint i = 0; i < funcs->len; i++)
        print_function(o, p, g_array_index(funcs, unsigned, i), cache, &t, &ec);
    g_hash_table_unref(cache);
    g_array_free(funcs, TRUE);
    g_free(ix.ran);

    g_string_append_printf(o,
        "\nExecution summary: %u functions listed, %u source lines with code, %u executed"
        " (%.1f%%).\n",
        t.functions, t.lines, t.executed, t.lines ? 100.0 * t.executed / t.lines : 0.0);
    return o;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* annotated_asm.c — annotated disassembly (perf annotate): --annotate=asm
 * and --annotate=both (see report.h). Per instruction: executions, cycles
 * (each instruction's own over the blocks holding it, ProfBlock.icycles,
 * as in the source listing) and samples of the first sampling period; with `both`,
 * each run of instructions is headed by the source line it belongs to;
 * with --events, a column per event (prof_insn_events) after samples. */
#include "profiler/model/srcpath.h"
#include "profiler/report/report.h"
#include "profiler/report/report_util.h"

#include <inttypes.h>
#include <string.h>

typedef struct Insns {
    uint32_t lo;
    unsigned n;
    uint64_t *count, *cycles, *samples;
} Insns;

static void insns_of(const Profile *p, const ProfFunc *f, Insns *d)
{
    d->lo = f->addr;
    d->n = f->size / 4;
    d->count = g_new0(uint64_t, d->n + 1);
    d->cycles = g_new0(uint64_t, d->n + 1);
    d->samples = g_new0(uint64_t, d->n + 1);
    profile_insn_counts(p, d->lo, d->n, d->count);
    uint64_t hi = (uint64_t)d->lo + 4 * (uint64_t)d->n;
    for (unsigned i = 0; i < p->nblocks; i++) {   /* blocks sorted by addr */
        const ProfBlock *b = &p->blocks[i];
        if (b->addr >= hi)
            break;
        for (uint32_t k = 0; k < b->ninsns; k++) {
            uint64_t a = (uint64_t)b->addr + 4 * (uint64_t)k;
            if (a >= d->lo && a < hi)
                d->cycles[(a - d->lo) / 4] += prof_block_insn_cycles(b, k);
        }
    }
    const ProfHist *h = p->nperiods ? &p->hists[0] : NULL;
    for (unsigned i = 0; h && h->bins && i < d->n; i++) {
        uint32_t a = d->lo + 4 * i;
        d->samples[i] = prof_hist_at(h, a);
    }
}

static void insns_free(Insns *d)
{
    g_free(d->count);
    g_free(d->cycles);
    g_free(d->samples);
}

/* Line `line` of `file` (1-based), from a per-report cache; NULL if the
 * file cannot be read or is shorter. */
static const char *source_line(GHashTable *cache, const char *file, unsigned line)
{
    char **lines = g_hash_table_lookup(cache, file);
    if (!lines) {
        char *text = NULL;
        text = srcpath_read(file, NULL, NULL, NULL);
        lines = text ? g_strsplit(text, "\n", -1) : g_new0(char *, 1);
        g_free(text);
        g_hash_table_insert(cache, (gpointer)file, lines);
    }
    return line && line <= g_strv_length(lines) ? lines[line - 1] : NULL;
}

static void print_func(GString *o, const Profile *p, unsigned fi, bool with_source, GHashTable *cache,
                       const EvCols *ec)
{
    const ProfFunc *f = &p->funcs[fi];
    Insns d;
    insns_of(p, f, &d);
    g_string_append_printf(o, "\n*** %s [0x%08" PRIx32 ", 0x%08" PRIx32 ") called %" PRIu64 ", self %" PRIu64
                           " cycles, inclusive %" PRIu64 " cycles\n", f->name, f->addr, f->addr + f->size,
                           f->calls, f->self_cycles, f->inclusive_cycles);
    const char *last_file = NULL;
    unsigned last_line = 0;
    for (unsigned i = 0; i < d.n; i++) {
        uint32_t a = d.lo + 4 * i;
        if (with_source && p->syms) {
            SymLine l = symbols_line(p->syms, a);
            if (l.file && (l.line != last_line || g_strcmp0(l.file, last_file) != 0)) {
                const char *text = source_line(cache, l.file, l.line);
                const char *base = strrchr(l.file, '/');
                g_autofree char *stripped = g_strstrip(g_strdup(text ? text : ""));
                g_string_append_printf(o, "%37s%s:%u: %s\n", "", base ? base + 1 : l.file, l.line, stripped);
                last_file = l.file;
                last_line = l.line;
            }
        }
        char *dis = p->syms ? symbols_disasm(p->syms, a) : g_strdup("?");
        char cnt[24];
        g_snprintf(cnt, sizeof cnt, "%" PRIu64, d.count[i]);
        g_string_append_printf(o, "%12s %12" PRIu64 " %9" PRIu64, d.count[i] ? cnt : "#####", d.cycles[i],
                               d.samples[i]);
        if (ec->n) {
            uint64_t v[PEV_COUNT];
            prof_insn_events(p, a, d.count[i], v);
            report_event_cells(o, ec, v);
        }
        g_string_append_printf(o, "   0x%08" PRIx32 ": %s\n", a, dis);
        g_free(dis);
    }
    insns_free(&d);
}

static void free_lines(gpointer p)
{
    g_strfreev(p);
}

GString *report_annotated_asm(const Profile *p, bool with_source, bool events)
{
    EvCols ec = report_event_columns(p, events);
    GString *o = g_string_new(NULL);
    char *title = report_title(p);
    g_string_append_printf(o, "Annotated %s, %s\n\n", with_source ? "source and disassembly" : "disassembly",
                           title);
    g_free(title);
    g_string_append_printf(o, "%12s %12s %9s", "count", "cycles", "samples");
    report_event_header(o, &ec);
    g_string_append(o, "   address: instruction\n");
    g_string_append(o, "count: executions of the instruction (##### never executed); cycles: its own\n"
                       "cycles (its cost, its waits, misses and taken-branch cost); samples: timer ticks of\n"
                       "the first sampling period at that instruction");
    if (p->nperiods)
        g_string_append_printf(o, " (%" PRIu32 " cycles)", p->hists[0].period);
    g_string_append(o, with_source ? ".\nSource lines (file:line: text) head the instructions they compiled to.\n"
                                   : ".\n");
    if (ec.n)
        g_string_append(o, REPORT_EVENTS_LEGEND);
    GHashTable *cache = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, free_lines);
    unsigned n = 0;
    g_autofree bool *ran = report_funcs_ran(p);
    for (unsigned i = 0; i < p->nfuncs; i++) {   /* symbols order = address order */
        const ProfFunc *f = &p->funcs[i];
        if (f->pseudo || f->hidden || !f->size || !(report_func_active(p, i) || ran[i]))
            continue;
        print_func(o, p, i, with_source, cache, &ec);
        n++;
    }
    g_hash_table_destroy(cache);
    g_string_append_printf(o, "\n%u functions listed.\n", n);
    return o;
}

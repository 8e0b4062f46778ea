// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_build.c — a core's Profile from its collector, blocks and
 * sampling histograms. */
#include "profiler/collect/collect_private.h"

#include <stdlib.h>

/* Functions: names, addresses, and the collector's calls and inclusive
 * cycles. */
static void build_funcs(Profile *p, const Collector *col)
{
    p->funcs = g_new0(ProfFunc, p->nfuncs);
    for (unsigned i = 0; i < p->nfuncs; i++) {
        ProfFunc *f = &p->funcs[i];
        if (i < col->nsyms) {
            const SymFunc *s = symbols_func(col->syms, i);
            f->name = s->name;
            f->addr = s->addr;
            f->size = s->size;
        } else {
            f->name = collect_func_name(col, i);
            f->pseudo = true;
        }
        f->calls = col->fs[i].calls;
        f->recursive_calls = col->fs[i].rcalls;
        f->inclusive_cycles = col->fs[i].incl;
        f->samples = g_new0(uint64_t, p->nperiods ? p->nperiods : 1);
    }
    /* the calls through arcs, counted on the arcs only (FuncStat) */
    GHashTableIter it;
    gpointer key;
    g_hash_table_iter_init(&it, col->arcs);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        const Arc *a = key;
        p->funcs[a->callee].calls += a->count;
        p->funcs[a->callee].inclusive_cycles += a->incl;
    }
}

/* Misses m of instruction insn of block bi (b) made while collecting. */
static void insn_misses(const Collector *col, unsigned bi, const Block *b, uint32_t insn, uint64_t *m)
{
    block_misses(b, insn, m);
    collect_region_misses(col, bi, insn, m);
}

/* b (block bi)'s loads, stores and branches into f; count: its executions
 * inside the collected regions (all of them: exact; fewer: in proportion;
 * its cache misses exactly, from the region's snapshots). */
static void add_events(const Collector *col, ProfFunc *f, unsigned bi, const Block *b, uint64_t count)
{
    uint64_t e[BLOCK_NEV], all = block_count(b);
    block_events(b, e);
    if (count != all)
        for (unsigned k = 0; k < BLOCK_NEV; k++)
            e[k] = all ? (uint64_t)((double)e[k] * (double)count / (double)all + 0.5) : 0;
    f->loads += e[BLOCK_EV_LOADS];
    f->stores += e[BLOCK_EV_STORES];
    f->branches += e[BLOCK_EV_BRANCHES];
    f->cond_branches += e[BLOCK_EV_COND];
    f->indirect_branches += e[BLOCK_EV_INDIRECT];
    uint64_t w[BLOCK_NWAIT];
    block_waits(b, w);
    for (unsigned k = 0; k < BLOCK_NWAIT; k++)
        f->waits[k] += all && count != all ? (uint64_t)((double)w[k] * (double)count / (double)all + 0.5) : w[k];
    if (!block_has_misses(b))
        return;
    uint64_t m[BLOCK_NMISS], sum[BLOCK_NMISS] = { 0 };
    for (uint32_t i = 0; i < block_ninsns(b); i++) {
        insn_misses(col, bi, b, i, m);
        for (unsigned k = 0; k < BLOCK_NMISS; k++)
            sum[k] += m[k];
    }
    f->i1_misses += sum[BLOCK_MISS_I1];
    f->d1r_misses += sum[BLOCK_MISS_D1R];
    f->d1w_misses += sum[BLOCK_MISS_D1W];
}

/* b (block bi)'s misses by instruction into misses (ProfMiss; as
 * add_events). */
static void add_misses(const Collector *col, GArray *misses, unsigned bi, const Block *b, uint32_t addr)
{
    uint64_t m[BLOCK_NMISS];
    for (uint32_t i = 0; block_has_misses(b) && i < block_ninsns(b); i++) {
        insn_misses(col, bi, b, i, m);
        if (!(m[0] | m[1] | m[2]))
            continue;
        ProfMiss x = { .pc = addr + 4 * i, .i1 = m[BLOCK_MISS_I1], .d1r = m[BLOCK_MISS_D1R],
                       .d1w = m[BLOCK_MISS_D1W] };
        g_array_append_val(misses, x);
    }
}

static int miss_cmp(const void *a, const void *b)
{
    uint32_t x = ((const ProfMiss *)a)->pc, y = ((const ProfMiss *)b)->pc;
    return x < y ? -1 : x > y;
}

/* The instructions' misses, sorted by pc, one entry per pc. */
static void finish_misses(Profile *p, GArray *misses)
{
    g_array_sort(misses, miss_cmp);
    ProfMiss *v = (ProfMiss *)(void *)misses->data;
    size_t out = 0;
    for (size_t i = 0; i < misses->len; i++) {
        if (out && v[out - 1].pc == v[i].pc) {
            v[out - 1].i1 += v[i].i1;
            v[out - 1].d1r += v[i].d1r;
            v[out - 1].d1w += v[i].d1w;
        } else {
            v[out++] = v[i];
        }
    }
    p->nmisses = out;
    p->misses = (ProfMiss *)(void *)g_array_free(misses, FALSE);
}

/* 24k: b's waits per instruction, count executions, into out. */
static void add_stalls(GArray *out, const Core *core, const Block *b, uint32_t addr, uint64_t count)
{
    uint32_t n = block_ninsns(b);
    if (!count || !n)
        return;
    g_autofree uint8_t *cause = g_new(uint8_t, n);
    g_autofree uint16_t *cyc = g_new(uint16_t, n);
    if (!block_insn_waits(core, b, cause, cyc))
        return;
    for (uint32_t i = 0; i < n; i++)
        if (cause[i] < BLOCK_NWAIT && cyc[i]) {
            /* the runs in which instruction i ran (and waited) */
            uint64_t runs = count - MIN(count, block_insn_cut(b, i));
            ProfStall s = { addr + 4 * i, cause[i], (uint64_t)cyc[i] * runs };
            g_array_append_val(out, s);
        }
}

/* b's cycles per instruction (block_insn_cycles), or NULL to spread them
 * evenly: a region of interest counted only part of the block's cycles
 * (cyc), which the emulator does not split by instruction. */
static uint64_t *insn_cycles(const Block *b, uint64_t cyc)
{
    uint32_t n = block_ninsns(b);
    if (!n || cyc != block_cycles(b))
        return NULL;
    uint64_t *v = g_new(uint64_t, n);
    if (!block_insn_cycles(b, v)) {
        g_free(v);
        return NULL;
    }
    return v;
}

/* Core block bi's (b's) runs cut short before each instruction, of its
 * count runs collected (a region of interest keeps its cuts apart), or
 * NULL: none. */
static uint64_t *insn_cuts(const Collector *col, unsigned bi, const Block *b, uint64_t count, uint64_t insns)
{
    uint32_t n = block_ninsns(b);
    if (!n || count * n == insns)
        return NULL;
    uint64_t *v = g_new(uint64_t, n);
    bool any = false;
    for (uint32_t i = 0; i < n; i++)
        any |= (v[i] = MIN(count, collect_region_cut(col, bi, b, i))) != 0;
    if (!any) {
        g_free(v);
        return NULL;
    }
    return v;
}

/* Blocks -> self cycles and instructions of their functions. */
static void build_blocks(Profile *p, Collector *col, const Core *core)
{
    GArray *st = g_array_new(FALSE, FALSE, sizeof(ProfStall));
    unsigned unknown = collect_pseudo(col, PROF_UNKNOWN);
    p->nblocks = core_nblocks(core);
    p->blocks = g_new0(ProfBlock, p->nblocks ? p->nblocks : 1);
    unsigned nb = 0;
    GArray *misses = g_array_new(FALSE, FALSE, sizeof(ProfMiss));
    for (unsigned i = 0; i < p->nblocks; i++) {
        const Block *b = core_block(core, i);
        uint64_t count = block_count(b), cyc = block_cycles(b), insns = block_instructions(b);
        collect_region_block(col, i, &count, &cyc, &insns);
        if (!count && !cyc)
            continue;
        unsigned fi = block_tag(b) != CORE_NO_TAG ? collect_block(col, b)->func : unknown;
        p->max_block_insns = MAX(p->max_block_insns, block_ninsns(b));
        /* code run through its kseg0/kseg1 alias is listed as linked */
        uint32_t addr = symbols_code_addr(col->syms, block_addr(b));
        p->blocks[nb++] = (ProfBlock){ .addr = addr, .ninsns = block_ninsns(b), .func = fi,
                                       .count = count, .cycles = cyc, .icycles = insn_cycles(b, cyc),
                                       .cut = insn_cuts(col, i, b, count, insns) };
        p->funcs[fi].self_cycles += cyc;
        p->funcs[fi].instructions += insns;
        add_events(col, &p->funcs[fi], i, b, count);
        add_misses(col, misses, i, b, addr);
        add_stalls(st, core, b, addr, count);
    }
    finish_misses(p, misses);
    profile_stalls_add(p, (const ProfStall *)(void *)st->data, st->len);
    g_array_free(st, TRUE);
    p->nblocks = nb;
    qsort(p->blocks, nb, sizeof *p->blocks, profile_block_cmp);
}

static void build_arcs(Profile *p, const Collector *col)
{
    p->narcs = g_hash_table_size(col->arcs);
    p->arcs = g_new0(ProfArc, p->narcs ? p->narcs : 1);
    GHashTableIter it;
    gpointer key;
    unsigned na = 0;
    g_hash_table_iter_init(&it, col->arcs);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        const Arc *a = key;
        if (!a->count && !a->incl)   /* only taken while not collecting */
            continue;
        p->arcs[na++] = (ProfArc){ .caller = a->caller, .callee = a->callee,
                                   .call_site = symbols_code_addr(col->syms, a->site),
                                   .count = a->count, .inclusive_cycles = a->incl };
    }
    qsort(p->arcs, na, sizeof *p->arcs, profile_arc_cmp);
    /* one call site run through both kseg0 and kseg1: one arc */
    unsigned out = 0;
    for (unsigned i = 0; i < na; i++) {
        ProfArc *prev = out ? &p->arcs[out - 1] : NULL;
        if (prev && profile_arc_cmp(prev, &p->arcs[i]) == 0) {
            prev->count += p->arcs[i].count;
            prev->inclusive_cycles += p->arcs[i].inclusive_cycles;
        } else {
            p->arcs[out++] = p->arcs[i];
        }
    }
    p->narcs = out;   /* the skipped ones are not arcs of the profile */
}

/* The contexts are handed over, not copied (issue 24: 4.8 M host
 * instructions of hof30's 66,000); the collector reads them from the
 * Profile from now on (collector_contexts: comm_analyse). */
static void take_contexts(Profile *p, Collector *col)
{
    gsize n = 0;
    g_array_set_size(col->ctx, col->nctx);   /* its room beyond: not the Profile's */
    p->ctxs = col->nctx ? g_array_steal(col->ctx, &n) : NULL;
    col->nctx = 0;
    p->nctxs = n;
    p->ctxs_distinct = true;   /* collect_ctx_child finds a known child */
    col->ctx_given = p->ctxs;
    col->nctx_given = n;
}

/* The sampling histograms and each function's samples. */
static void build_hists(Profile *p, const Collector *col, const Core *core)
{
    unsigned idle = collect_pseudo(col, PROF_IDLE), unknown = collect_pseudo(col, PROF_UNKNOWN);
    p->hists = g_new0(ProfHist, p->nperiods ? p->nperiods : 1);
    for (unsigned h = 0; h < p->nperiods; h++) {
        CoreHist src = core_hist(core, h);
        ProfHist *d = &p->hists[h];
        d->period = src.period;
        d->nranges = src.nranges;
        d->ranges = g_new0(ProfRange, src.nranges + 1);
        for (unsigned r = 0; r < src.nranges; r++)
            d->ranges[r] = (ProfRange){ src.ranges[r].lo, src.ranges[r].hi, src.ranges[r].first };
        d->nbins = src.nbins;
        d->bins = g_memdup2(src.bins, sizeof(uint64_t) * (src.nbins ? src.nbins : 1));
        d->idle = src.idle;
        d->outside = src.outside;
        d->total = src.total;
        collect_region_hist(col, h, d);
        p->funcs[idle].samples[h] = d->idle;
        p->funcs[unknown].samples[h] = d->outside;
    }
    p->nevents = col->events->len;
    p->events = p->nevents ? g_memdup2(col->events->data, sizeof(ProfEvent) * p->nevents) : NULL;
    p->events_dropped = col->events_dropped;
    p->contexts_dropped = col->contexts_dropped;
    p->blocks_full = core_block_limit_hit(core);
    int last = -1;
    const ProfHist *h0 = p->nperiods ? &p->hists[0] : NULL;
    for (unsigned r = 0; h0 && r < h0->nranges; r++) {
        const ProfRange *rg = &h0->ranges[r];
        for (uint32_t pc = rg->lo, k = rg->first; pc < rg->hi; pc += 4, k++) {
            if (last < 0 || pc < p->funcs[last].addr || pc >= p->funcs[last].addr + p->funcs[last].size)
                last = col->syms ? symbols_lookup(col->syms, pc) : -1;
            unsigned fi = last >= 0 ? (unsigned)last : unknown;
            for (unsigned h = 0; h < p->nperiods; h++)
                p->funcs[fi].samples[h] += p->hists[h].bins[k];
        }
    }
}

Profile *collector_profile(Collector *col, const Core *core, const char *elf_path, double clock_hz)
{
    Profile *p = g_new0(Profile, 1);
    p->core = core_id(core);
    p->elf_path = g_strdup(elf_path);
    p->syms = col->syms;
    p->clock_hz = clock_hz;
    p->cycles = core_cycles(core);
    p->instructions = core_instructions(core);
    p->idle_cycles = core_idle_cycles(core);
    p->irq_cycles = core_irq_cycles(core);
    p->busy_cycles = p->cycles - p->idle_cycles;
    collect_region_totals(col, p);
    p->nfuncs = col->nfuncs;
    p->nperiods = core_nhists(core);
    build_funcs(p, col);
    unsigned idle = collect_pseudo(col, PROF_IDLE), intr = collect_pseudo(col, PROF_INTERRUPT),
             unknown = collect_pseudo(col, PROF_UNKNOWN);
    p->funcs[idle].self_cycles = p->idle_cycles;
    p->funcs[idle].inclusive_cycles = p->idle_cycles;
    p->funcs[intr].inclusive_cycles = col->irq_incl;
    build_blocks(p, col, core);
    /* functions never called but executed (entry code, vectors): their
     * inclusive time is their own */
    for (unsigned i = 0; i < col->nsyms; i++)
        if (!p->funcs[i].calls && p->funcs[i].inclusive_cycles < p->funcs[i].self_cycles)
            p->funcs[i].inclusive_cycles = p->funcs[i].self_cycles;
    p->funcs[unknown].inclusive_cycles = p->funcs[unknown].self_cycles;
    build_arcs(p, col);
    build_hists(p, col, core);
    take_contexts(p, col);
    /* The root context is the reset entry's frame, never a call: its own
     * cycles are the entry's inclusive time (as above). An entry that is
     * called as well (an interrupt vector inside _start) has its calls'
     * inclusive time, to which they add: before, t24_perfirq's _start
     * had inclusive 10 (the handler) < self 12. */
    if (p->nctxs && p->ctxs[0].func < col->nsyms && p->funcs[p->ctxs[0].func].calls)
        p->funcs[p->ctxs[0].func].inclusive_cycles += p->ctxs[0].self;
    return p;
}

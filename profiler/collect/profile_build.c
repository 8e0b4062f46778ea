/* profile_build.c — a core's Profile from its collector, blocks and
 * sampling histograms. */
#include "collect_private.h"

#include <stdlib.h>

static int cmp_arc(const void *x, const void *y)
{
    const ProfArc *a = x, *b = y;
    if (a->callee != b->callee) return a->callee < b->callee ? -1 : 1;
    if (a->caller != b->caller) return a->caller < b->caller ? -1 : 1;
    return a->call_site < b->call_site ? -1 : a->call_site > b->call_site;
}

static int cmp_block(const void *x, const void *y)
{
    const ProfBlock *a = x, *b = y;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

Profile *collector_profile(Collector *col, const Core *core, const char *elf_path, double clock_hz)
{
    Profile *p = g_new0(Profile, 1);
    p->core = core->id;
    p->elf_path = g_strdup(elf_path);
    p->syms = col->syms;
    p->clock_hz = clock_hz;
    p->cycles = core->cycles;
    p->instructions = core_instructions(core);
    p->idle_cycles = core->idle_cycles;
    p->irq_cycles = core->irq_cycles;
    p->busy_cycles = core->cycles - core->idle_cycles;
    p->nfuncs = col->nfuncs;
    p->nperiods = core->nhists;
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
        f->calls = col->calls[i];
        f->recursive_calls = col->rcalls[i];
        f->inclusive_cycles = col->incl[i];
        f->samples = g_new0(uint64_t, p->nperiods ? p->nperiods : 1);
    }
    unsigned idle = collect_pseudo(col, PROF_IDLE), intr = collect_pseudo(col, PROF_INTERRUPT),
             unknown = collect_pseudo(col, PROF_UNKNOWN);
    p->funcs[idle].self_cycles = core->idle_cycles;
    p->funcs[idle].inclusive_cycles = core->idle_cycles;
    p->funcs[intr].inclusive_cycles = col->irq_incl;

    /* blocks -> self cycles and instructions */
    p->nblocks = core->blocks->len;
    p->blocks = g_new0(ProfBlock, p->nblocks ? p->nblocks : 1);
    unsigned nb = 0;
    for (unsigned i = 0; i < core->blocks->len; i++) {
        const Block *b = g_ptr_array_index(core->blocks, i);
        uint64_t cyc = block_cycles(b);
        if (!b->count && !cyc)
            continue;
        unsigned fi = b->func >= 0 ? (unsigned)b->func : unknown;
        p->blocks[nb++] = (ProfBlock){ .addr = b->addr, .ninsns = b->ninsns, .func = fi,
                                       .count = b->count, .cycles = cyc };
        p->funcs[fi].self_cycles += cyc;
        p->funcs[fi].instructions += b->count * b->ninsns;
    }
    p->nblocks = nb;
    qsort(p->blocks, nb, sizeof *p->blocks, cmp_block);
    /* functions never called but executed (entry code, vectors): their
     * inclusive time is their own */
    for (unsigned i = 0; i < col->nsyms; i++)
        if (!p->funcs[i].calls && p->funcs[i].inclusive_cycles < p->funcs[i].self_cycles)
            p->funcs[i].inclusive_cycles = p->funcs[i].self_cycles;
    p->funcs[unknown].inclusive_cycles = p->funcs[unknown].self_cycles;

    /* arcs */
    p->narcs = g_hash_table_size(col->arcs);
    p->arcs = g_new0(ProfArc, p->narcs ? p->narcs : 1);
    GHashTableIter it;
    gpointer key;
    unsigned na = 0;
    g_hash_table_iter_init(&it, col->arcs);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        const Arc *a = key;
        p->arcs[na++] = (ProfArc){ .caller = a->caller, .callee = a->callee, .call_site = a->site,
                                   .count = a->count, .inclusive_cycles = a->incl };
    }
    qsort(p->arcs, na, sizeof *p->arcs, cmp_arc);

    /* histograms and samples per function */
    p->hists = g_new0(ProfHist, p->nperiods ? p->nperiods : 1);
    uint32_t nbins = (core->hist_hi - core->hist_lo) / 4;
    for (unsigned h = 0; h < p->nperiods; h++) {
        const Histogram *src = &core->hists[h];
        ProfHist *d = &p->hists[h];
        d->period = src->period;
        d->low_pc = core->hist_lo;
        d->high_pc = core->hist_hi;
        d->bins = g_memdup2(src->bins, sizeof(uint32_t) * (nbins ? nbins : 1));
        d->idle = src->idle;
        d->outside = src->outside;
        d->total = src->total;
        p->funcs[idle].samples[h] = src->idle;
        p->funcs[unknown].samples[h] = src->outside;
    }
    int last = -1;
    for (uint32_t k = 0; k < nbins; k++) {
        uint32_t pc = core->hist_lo + 4 * k;
        if (last < 0 || pc < p->funcs[last].addr || pc >= p->funcs[last].addr + p->funcs[last].size)
            last = col->syms ? symbols_lookup(col->syms, pc) : -1;
        unsigned fi = last >= 0 ? (unsigned)last : unknown;
        for (unsigned h = 0; h < p->nperiods; h++)
            p->funcs[fi].samples[h] += core->hists[h].bins[k];
    }
    return p;
}


// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_data_check.c — every count of a loaded profile checked against
 * its totals (issue 20.1). The reader (profile_data_read.c) checks shapes,
 * indexes and orders; this file checks magnitudes, so that a saved profile
 * can only make the reports do what a real run of its length would make
 * them do: a call count is at most the instructions executed, a histogram
 * bin at most the samples taken, the samples at most cycles / period, and
 * so on. Sums are computed without overflow (a sum past its total fails).
 *
 * The histogram check is a function of its own (pd_check_hist) so that the
 * width of the bins can change without touching the rest. */
#include "profiler/data/profile_data_check.h"

#include <inttypes.h>

/* *sum += v; false when the sum passes limit (or overflows). */
static bool add_within(uint64_t *sum, uint64_t v, uint64_t limit)
{
    return !__builtin_add_overflow(*sum, v, sum) && *sum <= limit;
}

char *pd_check_hist(const Profile *p, unsigned h, uint64_t core_cycles)
{
    const ProfHist *x = &p->hists[h];
    uint64_t most = x->period ? core_cycles / x->period : 0;
    if (x->total > most)
        return g_strdup_printf("histograms[%u].total: %" PRIu64 " samples, more than the %" PRIu64
                               " cycles / period %u allow", h, x->total, core_cycles, x->period);
    uint64_t sum = 0;
    if (!add_within(&sum, x->idle, x->total) || !add_within(&sum, x->outside, x->total))
        return g_strdup_printf("histograms[%u]: idle %" PRIu64 " + outside %" PRIu64 " samples are more than the "
                               "total %" PRIu64, h, x->idle, x->outside, x->total);
    for (uint32_t k = 0; k < x->nbins; k++)
        if (!add_within(&sum, x->bins[k], x->total))
            return g_strdup_printf("histograms[%u].bins[%" PRIu32 "]: %" PRIu64 " samples; with the bins before it, "
                                   "idle and outside more than the total %" PRIu64, h, k, (uint64_t)x->bins[k],
                                   x->total);
    return NULL;
}

static char *check_funcs(const Profile *p)
{
    uint64_t self = 0, insns = 0;
    g_autofree uint64_t *samples = g_new0(uint64_t, p->nperiods + 1);
    for (unsigned i = 0; i < p->nfuncs; i++) {
        const ProfFunc *f = &p->funcs[i];
        if (!add_within(&self, f->self_cycles, p->cycles) || f->inclusive_cycles > p->cycles)
            return g_strdup_printf("functions[%u]: self %" PRIu64 " / inclusive %" PRIu64 " cycles; the functions' "
                                   "self cycles add up to more than the profile's %" PRIu64, i, f->self_cycles,
                                   f->inclusive_cycles, p->cycles);
        if (!add_within(&insns, f->instructions, p->instructions) || f->calls > p->instructions
            || f->recursive_calls > f->calls)
            return g_strdup_printf("functions[%u]: %" PRIu64 " calls (%" PRIu64 " recursive), %" PRIu64
                                   " instructions; more than the profile's %" PRIu64 " instructions allow", i,
                                   f->calls, f->recursive_calls, f->instructions, p->instructions);
        for (unsigned h = 0; h < p->nperiods; h++)
            if (!add_within(&samples[h], f->samples[h], p->hists[h].total))
                return g_strdup_printf("functions[%u].samples[%u]: %" PRIu64 "; the functions' samples add up to "
                                       "more than the histogram's total %" PRIu64, i, h, f->samples[h],
                                       p->hists[h].total);
    }
    return NULL;
}

static char *check_arcs_blocks(const Profile *p, unsigned stops)
{
    uint64_t calls = 0, into = 0;   /* all arcs; the arcs into this callee */
    for (unsigned i = 0; i < p->narcs; i++) {
        const ProfArc *a = &p->arcs[i];
        if (!add_within(&calls, a->count, p->instructions) || a->inclusive_cycles > p->cycles)
            return g_strdup_printf("arcs[%u].count: %" PRIu64 " calls (%" PRIu64 " cycles); the arcs add up to more "
                                   "calls than the profile's %" PRIu64 " instructions", i, a->count,
                                   a->inclusive_cycles, p->instructions);
        if (i && a->callee != p->arcs[i - 1].callee)
            into = 0;   /* sorted by callee (checked by the reader) */
        if (!add_within(&into, a->count, p->funcs[a->callee].calls))
            return g_strdup_printf("arcs[%u].count: %" PRIu64 " calls; the arcs into function %u add up to more "
                                   "than its %" PRIu64 " calls", i, a->count, a->callee,
                                   p->funcs[a->callee].calls);
    }
    /* a block's runs, not runs x instructions: a run cut short (an
     * interrupt, a fault, the cycle limit) counts without all its
     * instructions, and the run the core stopped in may have none (a
     * fault or halt at its first instruction: one per run summed) */
    uint64_t runs = 0, cycles = 0;
    for (unsigned i = 0; i < p->nblocks; i++) {
        const ProfBlock *b = &p->blocks[i];
        if (!add_within(&runs, b->count, p->instructions + stops) || !add_within(&cycles, b->cycles, p->cycles))
            return g_strdup_printf("blocks[%u].count: %" PRIu64 " runs (%" PRIu64 " cycles); the blocks add up to "
                                   "more runs than the profile's %" PRIu64 " instructions or more than its %" PRIu64
                                   " cycles", i, b->count, b->cycles, p->instructions, p->cycles);
    }
    return NULL;
}

static char *check_contexts_events(const Profile *p, uint64_t core_cycles)
{
    uint64_t self = 0;
    for (size_t i = 0; i < p->nctxs; i++)
        if (!add_within(&self, p->ctxs[i].self, p->cycles))
            return g_strdup_printf("contexts[%zu].self: %" PRIu64 " cycles; the contexts add up to more than the "
                                   "profile's %" PRIu64, i, p->ctxs[i].self, p->cycles);
    uint64_t stalled = 0;   /* cycles waited inside blocks: part of the cycles */
    for (size_t i = 0; i < p->nstalls; i++)
        if (!add_within(&stalled, p->stalls[i].cycles, p->cycles))
            return g_strdup_printf("stalls[%zu].cycles: %" PRIu64 " cycles; the stalls add up to more than the "
                                   "profile's %" PRIu64, i, p->stalls[i].cycles, p->cycles);
    for (size_t i = 0; i < p->nevents; i++)
        if (p->events[i].end > core_cycles)
            return g_strdup_printf("events[%zu]: ends at cycle %" PRIu64 ", after the core's %" PRIu64, i,
                                   p->events[i].end, core_cycles);
    return NULL;
}

char *pd_check_profile(const Profile *p, uint64_t core_cycles, unsigned stops)
{
    if (p->instructions > p->cycles || p->irq_cycles > p->cycles)
        return g_strdup_printf("instructions: %" PRIu64 " instructions, %" PRIu64 " interrupt cycles in %" PRIu64
                               " cycles", p->instructions, p->irq_cycles, p->cycles);
    char *bad = NULL;
    for (unsigned h = 0; !bad && h < p->nperiods; h++)
        bad = pd_check_hist(p, h, core_cycles);
    if (!bad)
        bad = check_funcs(p);
    if (!bad)
        bad = check_arcs_blocks(p, stops);
    if (!bad)
        bad = check_contexts_events(p, core_cycles);
    return bad;
}

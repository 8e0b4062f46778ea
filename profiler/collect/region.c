// SPDX-License-Identifier: GPL-2.0-or-later
/* region.c — regions of interest: collection on and off (SYS PROF_CTRL,
 * --collect-initially, --collect-only FUNC).
 *
 * The emulator counts every block, cycle and sample whatever the profiler
 * does; the collector keeps, per block, per histogram bin and for the core's
 * totals, what ran while collection was off: at each switch it adds
 * (collection on) or subtracts (off) the counters of that moment, so the
 * excluded amount is the sum of (value when switched on - value when
 * switched off), closed at the end of the run. A switch costs one pass over
 * the blocks and bins (and, with the cache model, over the instructions of
 * the blocks that missed: misses differ between executions, so they are
 * kept per instruction, not shared in proportion); nothing is added to the
 * per-block fast path. The
 * Profile is then built from the counters minus the excluded amounts.
 *
 * Whole blocks: a switch takes effect at the next block (the emulator
 * charges a block when it starts), for the counts, cycles and samples alike.
 * The runs cut short are kept per block and instruction too (the counts
 * per instruction, block_insn_cut). A run in which a switch was written
 * and that is then cut (a PROF_CTRL = 0 store, then a fault in the same
 * block) is charged on the side it started on: what the cut takes back
 * moves there too (collect_region_run_cut, from the emulator's
 * CoreHooks.run_cut: one more pass, before and after the cut).
 */
#include "profiler/collect/collect_private.h"

#include <string.h>

#include "profiler/model/fname.h"

typedef struct RegionBlock {
    int64_t count, cycles, insns;
    int64_t *cut;              /* [ninsns] runs cut before each instruction, or NULL */
    int64_t *miss;             /* [ninsns][BLOCK_NMISS] cache misses, or NULL */
    uint32_t ninsns;
} RegionBlock;

struct Region {
    Core *core;
    bool ctrl_on;              /* PROF_CTRL state (initially --collect-initially) */
    bool *only;                /* [nfuncs] --collect-only functions, or NULL */
    char *only_names;          /* "f, g" for the reports */
    unsigned only_depth;       /* active frames of those functions */
    uint64_t off_since;        /* cycle collection last stopped */
    uint64_t sw_now;           /* the run of the last switch (its `now`) ... */
    bool sw_was;               /* ... and whether it was collected (at its start) */
    uint64_t cut_from;         /* the core's clock before that run's cut */
    bool ever_off;
    GArray *blocks;            /* RegionBlock by core block index */
    unsigned nperiods;
    int64_t **bins, *idle, *outside, *total;
    uint32_t *nbins;
    int64_t cycles, idle_cycles, irq_cycles, insns;
};

static Region *region_get(Collector *col)
{
    if (!col->region) {
        col->region = g_new0(Region, 1);
        col->region->ctrl_on = true;
        col->region->blocks = g_array_new(FALSE, TRUE, sizeof(RegionBlock));
    }
    return col->region;
}

void collector_bind_core(Collector *col, Core *core)
{
    region_get(col)->core = core;
}

bool collector_collect_only(Collector *col, const char *name)
{
    Region *r = region_get(col);
    bool any = false;
    g_autoptr(GString) shown = g_string_new(name);   /* "f (GCC clone f.constprop.0)" */
    for (unsigned i = 0; i < col->nsyms; i++) {
        bool clone;
        if (fname_match(symbols_func(col->syms, i)->name, name, &clone)) {   /* and its GCC clones */
            if (!r->only)
                r->only = g_new0(bool, col->nfuncs);
            r->only[i] = any = true;
            if (clone)
                g_string_append_printf(shown, " (GCC clone %s)", symbols_func(col->syms, i)->name);
        }
    }
    if (!any)
        return false;
    col->only = r->only;
    r->ever_off = true;
    char *names = r->only_names ? g_strdup_printf("%s, %s", r->only_names, shown->str) : g_strdup(shown->str);
    g_free(r->only_names);
    r->only_names = names;
    col->collecting = false;
    collect_quick_update(col);
    return true;
}

void collector_collect_initially(Collector *col, bool on)
{
    Region *r = region_get(col);
    r->ctrl_on = on;
    r->ever_off |= !on;
    col->collecting = on && !r->only;
    collect_quick_update(col);
}

/* b's cache misses, per instruction (they are not the same in every
 * execution: a share in proportion to the executions would be wrong). */
static void snapshot_misses(RegionBlock *x, const Block *b, int sign)
{
    if (!x->miss) {
        x->ninsns = block_ninsns(b);
        x->miss = g_new0(int64_t, (size_t)x->ninsns * BLOCK_NMISS);
    }
    uint64_t m[BLOCK_NMISS];
    for (uint32_t i = 0; i < x->ninsns && i < block_ninsns(b); i++) {
        block_misses(b, i, m);
        for (unsigned k = 0; k < BLOCK_NMISS; k++)
            x->miss[(size_t)i * BLOCK_NMISS + k] += sign * (int64_t)m[k];
    }
}

/* sign = +1 (switched on, or the end of the run while off) or -1 (off). */
static void snapshot(Region *r, int sign)
{
    Core *c = r->core;
    if (!c)
        return;
    unsigned nb = core_nblocks(c);
    if (r->blocks->len < nb)
        g_array_set_size(r->blocks, nb);
    for (unsigned i = 0; i < nb; i++) {
        const Block *b = core_block(c, i);
        RegionBlock *x = &g_array_index(r->blocks, RegionBlock, i);
        x->count += sign * (int64_t)block_count(b);
        x->cycles += sign * (int64_t)block_cycles(b);
        x->insns += sign * (int64_t)block_instructions(b);
        if (block_has_cuts(b)) {
            uint32_t n = block_ninsns(b);
            if (!x->cut)
                x->cut = g_new0(int64_t, n);
            for (uint32_t k = 0; k < n; k++)
                x->cut[k] += sign * (int64_t)block_insn_cut(b, k);
        }
        if (block_has_misses(b))
            snapshot_misses(x, b, sign);
    }
    if (!r->nperiods && core_nhists(c)) {
        r->nperiods = core_nhists(c);
        r->bins = g_new0(int64_t *, r->nperiods);
        r->nbins = g_new0(uint32_t, r->nperiods);
        r->idle = g_new0(int64_t, r->nperiods);
        r->outside = g_new0(int64_t, r->nperiods);
        r->total = g_new0(int64_t, r->nperiods);
    }
    for (unsigned h = 0; h < r->nperiods; h++) {
        CoreHist s = core_hist(c, h);
        uint32_t n = s.nbins;
        if (!r->bins[h]) {
            r->bins[h] = g_new0(int64_t, n ? n : 1);
            r->nbins[h] = n;
        }
        for (uint32_t k = 0; k < n && k < r->nbins[h]; k++)
            r->bins[h][k] += sign * (int64_t)s.bins[k];
        r->idle[h] += sign * (int64_t)s.idle;
        r->outside[h] += sign * (int64_t)s.outside;
        r->total[h] += sign * (int64_t)s.total;
    }
    r->cycles += sign * (int64_t)core_cycles(c);
    r->idle_cycles += sign * (int64_t)core_idle_cycles(c);
    r->irq_cycles += sign * (int64_t)core_irq_cycles(c);
    r->insns += sign * (int64_t)core_instructions(c);
}

uint64_t collect_excluded_off(const Collector *col, uint64_t now)
{
    return col->excluded + (col->region ? now - col->region->off_since : 0);
}

void collect_region_update(Collector *col, uint64_t now)
{
    Region *r = col->region;
    bool want = r->ctrl_on && (!r->only || r->only_depth > 0);
    if (want == col->collecting)
        return;
    if (now != r->sw_now || !r->sw_now) { /* the first switch in this run */
        r->sw_now = now;
        r->sw_was = col->collecting;
    }
    if (r->core)
        core_watch_run(r->core);
    if (!want) {
        collect_ctx_account(col, now);
        col->collecting = false;
        collect_quick_update(col);
        r->off_since = now;
        r->ever_off = true;
        snapshot(r, -1);
    } else {
        col->excluded += now - r->off_since;
        col->ctx_mark = now;
        col->collecting = true;
        collect_quick_update(col);
        snapshot(r, +1);
    }
}

/* A function's frame opens (+1) or closes (-1) at `now`. */
void collect_region_frame(Collector *col, unsigned func, int delta, uint64_t now)
{
    Region *r = col->region;
    if (!r || !r->only || !r->only[func])
        return;
    r->only_depth += delta;
    collect_region_update(col, now);
}

void collect_region_ctrl(Collector *col, Core *core, bool on, uint64_t now)
{
    Region *r = region_get(col);
    r->core = core;
    r->ctrl_on = on;
    collect_region_update(col, now);
}

/* The run of the last switch is cut: what the cut takes back goes where
 * the run was charged, as if it had been taken back before the switch:
 * the counters' state now minus the state at the cut (done) plus before
 * it; the cycles taken back (the clock goes back by them) leave the
 * collected time (calling contexts, frames) on the run's side too. */
void collect_region_run_cut(Collector *col, bool done)
{
    Region *r = col->region;
    if (!r || !r->core || col->collecting == r->sw_was)
        return; /* switched back within the run: nothing to move */
    int sign = col->collecting ? +1 : -1; /* the last switch's snapshot */
    snapshot(r, done ? sign : -sign);
    if (!done) {
        r->cut_from = core_cycles(r->core);
        return;
    }
    uint64_t back = r->cut_from - MIN(r->cut_from, core_cycles(r->core));
    if (!col->collecting) { /* a collected run: it ended `back` earlier */
        Ctx *c = &g_array_index(col->ctx, Ctx, col->ctx_cur);
        c->self -= MIN(c->self, back);
        r->off_since -= MIN(r->off_since, back);
    } else { /* an excluded run */
        col->excluded -= MIN(col->excluded, back);
        col->ctx_mark -= MIN(col->ctx_mark, back);
    }
}

void collect_region_finish(Collector *col)
{
    Region *r = col->region;
    if (r && !col->collecting)
        snapshot(r, +1);
}

void collect_region_free(Collector *col)
{
    Region *r = col->region;
    if (!r)
        return;
    for (unsigned h = 0; h < r->nperiods; h++)
        g_free(r->bins[h]);
    g_free(r->bins);
    g_free(r->nbins);
    g_free(r->idle);
    g_free(r->outside);
    g_free(r->total);
    g_free(r->only);
    g_free(r->only_names);
    for (unsigned i = 0; i < r->blocks->len; i++) {
        g_free(g_array_index(r->blocks, RegionBlock, i).cut);
        g_free(g_array_index(r->blocks, RegionBlock, i).miss);
    }
    g_array_free(r->blocks, TRUE);
    g_free(r);
}

static uint64_t minus(uint64_t v, int64_t ex)
{
    return ex > 0 && (uint64_t)ex <= v ? v - (uint64_t)ex : ex > 0 ? 0 : v;
}

void collect_region_block(const Collector *col, unsigned i, uint64_t *count, uint64_t *cycles,
                          uint64_t *insns)
{
    const Region *r = col->region;
    if (!r || i >= r->blocks->len)
        return;
    const RegionBlock *x = &g_array_index(r->blocks, RegionBlock, i);
    *count = minus(*count, x->count);
    *cycles = minus(*cycles, x->cycles);
    *insns = minus(*insns, x->insns);
}

uint64_t collect_region_cut(const Collector *col, unsigned i, const Block *b, uint32_t k)
{
    const Region *r = col->region;
    uint64_t all = block_insn_cut(b, k);
    if (!r || i >= r->blocks->len)
        return all;
    const RegionBlock *x = &g_array_index(r->blocks, RegionBlock, i);
    return x->cut ? minus(all, x->cut[k]) : all;
}

void collect_region_misses(const Collector *col, unsigned i, uint32_t insn, uint64_t *m)
{
    const Region *r = col->region;
    if (!r || i >= r->blocks->len)
        return;
    const RegionBlock *x = &g_array_index(r->blocks, RegionBlock, i);
    for (unsigned k = 0; x->miss && insn < x->ninsns && k < BLOCK_NMISS; k++)
        m[k] = minus(m[k], x->miss[(size_t)insn * BLOCK_NMISS + k]);
}

void collect_region_hist(const Collector *col, unsigned h, ProfHist *d)
{
    const Region *r = col->region;
    if (!r || h >= r->nperiods || !r->bins[h])
        return;
    uint32_t n = d->nbins;
    for (uint32_t k = 0; k < n && k < r->nbins[h]; k++)
        d->bins[k] = minus(d->bins[k], r->bins[h][k]);
    d->idle = minus(d->idle, r->idle[h]);
    d->outside = minus(d->outside, r->outside[h]);
    d->total = minus(d->total, r->total[h]);
}

void collect_region_totals(const Collector *col, Profile *p)
{
    const Region *r = col->region;
    if (!r || (!r->ever_off && !r->only && r->ctrl_on))
        return;
    uint64_t all = p->cycles;
    p->cycles = minus(p->cycles, r->cycles);
    p->idle_cycles = minus(p->idle_cycles, r->idle_cycles);
    p->irq_cycles = minus(p->irq_cycles, r->irq_cycles);
    p->instructions = minus(p->instructions, r->insns);
    p->busy_cycles = p->cycles - MIN(p->cycles, p->idle_cycles);
    p->excluded_cycles = all - p->cycles;
    p->collection = r->only ? g_strdup_printf("only while %s %s on the call stack", r->only_names,
                                              strchr(r->only_names, ',') ? "are" : "is")
                            : g_strdup("between SYS PROF_CTRL writes (rt_prof_start / rt_prof_stop)");
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* check.c — core_check: the invariants of Core's sub-structs, asserted at
 * every block boundary in checking builds (NOCPROF_CHECK: Debug and
 * ASan builds, CMakeLists.txt). Release builds compile none of it:
 * CORE_CHECK is then nothing and the block hook is unchanged. Each
 * sub-struct is written by one file (docs/design.md, "Who writes Core");
 * these checks read them all. */
#include "emu/core_priv.h"

#include "nocprof/platform.h"

#ifdef NOCPROF_CHECK

/* Static cycles of instructions [0, i) of b. */
static uint64_t prefix_cost(const Block *b, uint32_t i)
{
    uint64_t acc = 0;
    for (uint32_t k = 0; k < i && k < b->ninsns; k++)
        acc += b->icost[k];
    return acc;
}

/* The cycle limit's cut (block.c): a cut block while its prefix runs, its
 * end inside it, the cycles cut away at most its cost. */
static void check_cut(const Core *c)
{
    const CoreCut *k = &c->cut;
    if (!k->block) {
        g_assert(!k->run);
        g_assert_cmpuint(k->slack, ==, 0);
        return;
    }
    const Block *b = k->block;
    g_assert(k->end > b->addr && k->end < b->addr + b->size);
    g_assert_cmpuint(k->slack, ==, b->cost - prefix_cost(b, (k->end - b->addr) / 4));
}

/* Poll skip (block.c): armed by the failed poll of the block that just
 * ran (the core may have stopped since: prev is then `none`, or the
 * interrupt marker), its offset
 * that poll's start within the iteration, which began by now. */
static void check_poll(const Core *c)
{
    const CorePoll *p = &c->poll;
    if (!p->blk)
        return;
    const Block *b = p->blk;
    g_assert(c->prev == b || c->prev == &c->none || c->prev == &c->irq_marker);
    g_assert(b->pollable == 1);
    g_assert(p->pc >= b->addr && p->pc < b->addr + b->size);
    if (p->ram) /* a spin on RAM: its wait is at the iteration's end */
        g_assert_cmpuint(p->off, >=, b->cost);
    else
        g_assert_cmpuint(p->off, ==, prefix_cost(b, (p->pc - b->addr) / 4));
    g_assert_cmpuint(p->s0 + p->off, <=, c->cycles);
}

/* The access scan (exc.c) and the device accesses (mmio.c) of an
 * execution that has happened, inside its block. */
static void check_scan(const Core *c)
{
    const CoreScan *s = &c->scan;
    if (s->block) {
        g_assert_cmpuint(s->count, <=, s->block->count);
        g_assert_cmpuint(s->next, <=, s->block->ninsns);
    }
    const CoreAccess *a = &c->acc;
    if (!a->block) {
        g_assert(!a->delta && !a->extra);
        return;
    }
    g_assert_cmpuint(a->count, <=, a->block->count);
    if (a->extra) {
        g_assert_cmpuint(a->insn, <, a->block->ninsns);
        g_assert_cmpuint(a->at, <=, c->cycles);
    }
}

/* Interrupts (core.c) and the IRQC/CP0 bits: handler and idle time within
 * the clock, pending and enabled lines within the IRQC's three. */
static void check_irq(const Core *c)
{
    const uint32_t lines = NP_IRQ_TIMER | NP_IRQ_NOC_RX | NP_IRQ_NOC_TX;
    g_assert(!c->irq.in || c->irq.start <= c->cycles);
    g_assert_cmpuint(c->irq.cycles, <=, c->cycles);
    g_assert_cmpuint(c->idle_cycles, <=, c->cycles);
    g_assert_cmpuint(c->irqc.enable & ~lines, ==, 0);
    g_assert_cmpuint(dev_irqc_pending(&c->irqc) & ~lines, ==, 0);
    g_assert_cmpuint(c->cp0.cause_sw & ~CP0_CAUSE_SW_MASK, ==, 0);
}

/* Sampling (sample.c): every sample before the boundary is taken, the
 * next ones are the histograms' minimum, and the deadline is no later. */
static void check_samples(const Core *c)
{
    uint64_t next = UINT64_MAX;
    for (unsigned i = 0; i < c->nhists; i++) {
        const Histogram *h = &c->hists[i];
        g_assert_cmpuint(h->next, >=, c->cycles);
        g_assert_cmpuint(h->total, ==, h->next / h->period); /* next = period - 1 + total * period */
        next = MIN(next, h->next);
    }
    g_assert_cmpuint(c->next_sample, ==, next);
    g_assert_cmpuint(c->next_hist, <, MAX(c->nhists, 1u));
    g_assert_cmpuint(__atomic_load_n(&c->deadline, __ATOMIC_RELAXED), <=, MIN(c->next_event, c->next_sample));
}

/* The fast paths' summaries: block_hook's one byte for leaving the block
 * (block_leave), 24k's pending filter and cp0_fire's next CP0 event. */
static void check_fast(const Core *c)
{
    const Block *p = c->prev;
    g_assert_cmpuint(p->leave, ==, (unsigned)(p->attn_out | p->rt_pend | p->chk));
    uint32_t rare = __atomic_load_n(&c->rare, __ATOMIC_RELAXED);
    g_assert_cmpuint(!!(rare & CORE_RARE_FIX), ==, c->cp0.fix_pending);
    g_assert_cmpuint(!!(rare & CORE_RARE_CUT), ==, c->cut.run);
    if (p != &c->none && p != &c->irq_marker) /* (those two: BLOCK_KEY_ATTN, in no slot) */
        g_assert_cmpuint(p->key, ==, p->attn ? BLOCK_KEY_ATTN : core_slot_key(p->addr, p->size));
    if (p != &c->none)
        g_assert_cmpuint(p->qk, ==, p->attn_out || (p->chk & BLOCK_CHK_SLOW) || (p->chk && !c->gpr) || p->jr_hooked
                                        ? BLOCK_QK_SLOW : p->chk | (p->rt_pend ? BLOCK_QK_PEND : 0u));
    if (p != &c->none && p != &c->irq_marker) {
        Block q = *p;
        block_leave(&q, c->gpr != NULL);
        g_assert_cmpuint(p->aq, ==, q.aq);
        block_filter_24k(&q); /* the filter holds the masks */
        g_assert_cmphex(p->pend_f, ==, q.pend_f);
        g_assert_cmphex(p->use_f, ==, q.use_f);
    }
    g_assert_cmpuint(c->cp0.match_at, ==, MIN(c->cp0.cmp_at, c->cp0.perf_at));
}

void core_check(Core *c)
{
    g_assert(c->prev != NULL);
    check_fast(c);
    /* the clock never goes back between two boundaries of a run */
    g_assert_cmpuint(c->cycles, >=, c->chk_cycles);
    c->chk_cycles = c->cycles;
    check_cut(c);
    check_poll(c);
    check_scan(c);
    check_irq(c);
    check_samples(c);
}

#endif

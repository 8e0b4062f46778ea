// SPDX-License-Identifier: GPL-2.0-or-later
/* block_24k.c — [timing] model = 24k in the block cache: a new block's
 * costs from the pipeline pass (timing_24k.c), the waits of its static
 * successors folded into bt/bnt, and the run-time wait after a register
 * jump (docs/timing.md "Interlocks across a block boundary"). */
#include "emu/core_priv.h"

/* [timing] model = 24k: b's costs from the pipeline pass (timing_24k.c),
 * and what it leaves pending for the next block (when pend). */
void block_cost_24k(Core *c, Block *b, bool pend)
{
    T24Exit ex;
    T24Result r = { 0 };
    t24_block(&c->cfg->timing, b->words, b->ninsns, b->addr, NULL, b->icost, pend ? &ex : NULL, &r);
    b->cost = r.cost;
    b->first_use = r.first_use < b->ninsns ? r.first_use : 0; /* an entry stall's instruction */
    G_STATIC_ASSERT((int)BLOCK_NWAIT == (int)T24_NWAIT);
    for (unsigned w = 0; w < T24_NWAIT; w++)
        b->wait[w] = r.wait[w];
    if (!pend)
        return;
    b->use_mask = r.use_mask;
    b->base_mask = r.base_mask;
    b->stalls = r.stalls;
    b->nuses = (uint8_t)r.nuses;
    if (r.nuses)
        b->uses = g_memdup2(r.uses, r.nuses * sizeof *r.uses);
    if (r.pend_mask | r.pend_ag) {
        b->pend_mask = r.pend_mask;
        b->pend_ag = r.pend_ag;
        b->pend = g_memdup2(&ex, sizeof ex);
    }
    block_filter_24k(b);
}

/* Block.pend_f and use_f: a block's GPRs (and HI/LO, bit 0) in the low
 * half, its base registers in the high half; anything of the FPU (the
 * masks' high halves) pending: every bit, read: bit 0. So
 * pend_f & use_f is nonzero whenever (pend_mask & use_mask) | (pend_ag &
 * base_mask) is, and is that exactly when no FPU resource is involved:
 * one test where the hook made two (block.c pend_ok). */
void block_filter_24k(Block *b)
{
    b->pend_f = (uint32_t)b->pend_mask | (uint64_t)b->pend_ag << 32;
    if (b->pend_mask >> 32)
        b->pend_f = UINT64_MAX;
    b->use_f = (uint32_t)b->use_mask | (uint64_t)b->base_mask << 32 | (b->use_mask >> 32 ? 1u : 0u);
}

bool block_insn_waits(const Core *c, const Block *b, uint8_t *cause, uint16_t *cycles)
{
    if (c->cfg->timing.model != TIMING_24K || !b->ninsns)
        return false;
    T24Result r = { .why = cause };
    t24_block(&c->cfg->timing, b->words, b->ninsns, b->addr, NULL, cycles, NULL, &r);
    bool uncached = b->addr >= 0xA0000000u && b->addr < 0xC0000000u;
    for (uint32_t i = 0; i < b->ninsns; i++)   /* icost - 1 - the uncached fetch */
        cycles[i] = cause[i] < T24_NWAIT ? (uint16_t)(cycles[i] - 1u - (uncached ? c->cfg->timing.mmio : 0)) : 0;
    return true;
}

/* 24k: p's pending state less the bt cycles between p and its successor */
static void exit_after(const Block *p, uint64_t bt, T24Exit *in)
{
    *in = *p->pend;
    for (unsigned r = 0; r < T24_NRES; r++)
        in->left[r] = (int16_t)(in->left[r] > (int64_t)bt ? in->left[r] - (int16_t)bt : 0);
    for (unsigned r = 0; r < 32; r++)
        in->ag[r] = (int16_t)(in->ag[r] > (int64_t)bt ? in->ag[r] - (int16_t)bt : 0);
}

/* 24k: the cycles the block at target waits for what p left pending, p's
 * branch costing bt: the words there (to its first branch and delay
 * slot, or 48 instructions: every pending result has expired by then)
 * through the pass with and without p's state. A page end does not end
 * the window: the words after it run next (QEMU ends its block there,
 * an artificial boundary: a wait across it was lost, the block before
 * it starting clean), a delay slot there included; nor does a branch
 * that can never be taken (QEMU's block goes on, mips_branch_never). */
static uint32_t succ_stall(Core *c, const Block *p, uint32_t target, uint32_t bt)
{
    enum { WIN = 48 };
    /* zeroed: the pass may look one word past the window (a branch in its
     * last word and its slot); 0 is a nop, the same in every run */
    uint32_t phys = mips_phys(target), w[WIN + 1] = { 0 };
    uint8_t buf[4 * (WIN + 1)] = { 0 };
    if (target & 3 || phys >= c->cfg->ram_size)
        return 0;
    uint32_t ram = (uint32_t)MIN((uint64_t)WIN + 1, (c->cfg->ram_size - phys) / 4);
    uint32_t n = MIN(ram, (uint32_t)WIN);
    if (!n || uc_mem_read(c->uc, phys, buf, 4 * ram) != UC_ERR_OK)
        return 0;
    for (uint32_t k = 0; k < n; k++) {
        w[k] = core_guest_word(c, buf + 4 * k);
        uint32_t f = mips_classify(w[k]);
        if (f & MIPS_ERET) {
            n = k + 1;
            break;
        }
        if ((f & MIPS_BRANCH) && !mips_branch_never(w[k])) {
            /* and its delay slot (it used to stay 0, a nop: a wait in
             * the slot was lost), also past the page end */
            if (k + 1 < ram)
                w[k + 1] = core_guest_word(c, buf + 4 * (k + 1));
            n = MIN(ram, k + 2);
            break;
        }
    }
    T24Exit in;
    exit_after(p, bt, &in);
    T24Result clean = { 0 }, after = { 0 };
    t24_block(&c->cfg->timing, w, n, target, NULL, NULL, NULL, &clean);
    t24_block(&c->cfg->timing, w, n, target, &in, NULL, NULL, &after);
    return after.cost > clean.cost ? after.cost - clean.cost : 0;
}

/* 24k: b left results pending. Where its successors are static (a
 * PC-relative branch's target, its fall-through) their waits are known
 * now: the taken one joins bt, the fall-through one is bnt, both charged
 * by the block hook with no more work. Register jumps, eret and a branch
 * split at a page end leave it to the boundary (rt_pend, entry_stall). */
void block_static_successors(Core *c, Block *b)
{
    uint32_t target;
    if (b->flags & (MIPS_JREG | MIPS_ERET | BLOCK_SPLIT)) {
        b->rt_pend = true;
        return;
    }
    if ((b->flags & MIPS_BRANCH) && mips_branch_target(b->branch_insn, b->branch_pc, &target))
        b->bt += succ_stall(c, b, target, b->bt);
    if (b->fallthrough != 1)
        b->bnt = succ_stall(c, b, b->fallthrough, 0);
}

/* The run-time wait of b after rt_pend block p: when b has no wait of
 * its own, the largest (left - bt - the read's static cycle) over its
 * first reads, exactly (t24_entry_wait); else b again through the pass
 * from p's exit state (the entry wait can absorb a later one). Recorded
 * in b's memo (block.c entry_stall looks there first). */
uint32_t block_entry_stall_slow(Core *c, const Block *p, Block *b, uint64_t bt)
{
    uint32_t st;
    if (!b->stalls) {
        st = t24_entry_wait(b->uses, b->nuses, p->pend, (uint32_t)bt);
    } else {
        T24Exit in;
        exit_after(p, bt, &in);
        T24Result res = { 0 };
        t24_block(&c->cfg->timing, b->words, b->ninsns, b->addr, &in, NULL, NULL, &res);
        st = res.cost > b->cost ? res.cost - b->cost : 0;
    }
    unsigned k = b->memo_next;
    b->memo_next = (uint8_t)((k + 1) % BLOCK_MEMO);
    b->memo_from[k] = p;
    b->memo_stall[k] = st;
    return st;
}


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

/* 24k: a block's pending state less the bt cycles between it and its successor */
static void exit_after(const T24Exit *pend, uint64_t bt, T24Exit *in)
{
    *in = *pend;
    for (unsigned r = 0; r < T24_NRES; r++)
        in->left[r] = (int16_t)(in->left[r] > (int64_t)bt ? in->left[r] - (int16_t)bt : 0);
    for (unsigned r = 0; r < 32; r++)
        in->ag[r] = (int16_t)(in->ag[r] > (int64_t)bt ? in->ag[r] - (int16_t)bt : 0);
}

enum { WIN = 48, FORKS = 3, CAP = 2 * WIN + 4 };

/* The instructions a successor window runs, in order, a taken branch's
 * cycles as nops (they read and write nothing): the pass over them with
 * and without the pending state differs by the wait. */
typedef struct Path {
    uint32_t w[CAP];
    uint32_t n, guest;         /* words, of them guest words */
} Path;

static bool guest_word(Core *c, uint32_t pc, uint32_t *w)
{
    uint8_t buf[4];
    uint32_t phys = mips_phys(pc);
    if (pc & 3 || phys >= c->cfg->ram_size || c->cfg->ram_size - phys < 4)
        return false;
    if (c->ram) /* RAM is nocprof's memory (smc.c) */
        *w = core_guest_word(c, c->ram + phys);
    else if (uc_mem_read(c->uc, phys, buf, 4) == UC_ERR_OK)
        *w = core_guest_word(c, buf);
    else
        return false;
    return true;
}

/* The pass over pa's words with and without `in`: the wait (*wait), and
 * whether nothing of `in` can matter any more: every word from lim on
 * issues after what `in` left has expired (an instruction issues a cycle
 * after the one before it at the earliest), and both passes end in the
 * same pending state, so whatever follows runs the same in both,
 * shifted by the wait. */
static bool path_settled(Core *c, const T24Exit *in, uint32_t lim, uint32_t at, const Path *pa, uint32_t *wait)
{
    T24Exit xc, xa;
    T24Result clean = { 0 }, after = { 0 };
    t24_block(&c->cfg->timing, pa->w, pa->n, at, NULL, NULL, &xc, &clean);
    t24_block(&c->cfg->timing, pa->w, pa->n, at, in, NULL, &xa, &after);
    *wait = after.cost > clean.cost ? after.cost - clean.cost : 0;
    return pa->n >= lim && memcmp(&xc, &xa, sizeof xc) == 0;
}

static void path_nops(Path *pa, uint32_t k)
{
    while (k-- && pa->n < CAP)
        pa->w[pa->n++] = 0;
}

/* The wait along the window from pc on, pa holding what precedes it:
 * guest words in execution order, past a page end (QEMU ends its block
 * there, an artificial boundary), past a branch that can never be taken
 * (QEMU's block goes on, mips_branch_never; a likely one skips its
 * slot), into the target of a PC-relative jump (its fetch redirect as
 * nops), and at a conditional branch, while forks are left, along both
 * ways (the slot of a likely one not taken skipped): the wait of the way
 * a static predictor takes, backward taken (a loop) and forward not,
 * which is both when they agree (a result pending across more than one
 * boundary: t24_xtwo). It ends at an eret, a register jump, where the
 * words cannot be read, after 48 guest words, or once the two passes
 * agree (path_settled). */
static uint32_t path_wait(Core *c, const T24Exit *in, uint32_t lim, uint32_t at, uint32_t pc, Path *pa,
                          unsigned forks)
{
    uint32_t wait;
    while (pa->guest < WIN && pa->n < CAP - 4) {
        uint32_t w, slot, to;
        if (pa->n >= lim && (pa->n - lim) % 4 == 0 && path_settled(c, in, lim, at, pa, &wait))
            return wait;
        if (!guest_word(c, pc, &w))
            break;
        pa->w[pa->n++] = w;
        pa->guest++;
        uint32_t f = mips_classify(w);
        if (f & MIPS_ERET)
            break;
        if (!(f & MIPS_BRANCH)) {
            pc += 4;
            continue;
        }
        if (mips_branch_never(w)) {
            pc += (f & MIPS_LIKELY) ? 8 : 4;
            continue;
        }
        if (!guest_word(c, pc + 4, &slot))
            break;
        pa->w[pa->n++] = slot;
        pa->guest++;
        if ((f & MIPS_JREG) || MIPS_IS_JALX(w) || !mips_branch_target(w, pc, &to))
            break;
        if (mips_branch_unconditional(w)) {
            path_nops(pa, t24_taken_cost(w));
            pc = to;
            continue;
        }
        if (!forks)
            break;
        Path *taken = g_memdup2(pa, sizeof *pa);
        path_nops(taken, t24_taken_cost(w));
        uint32_t wt = path_wait(c, in, lim, at, to, taken, forks - 1);
        g_free(taken);
        if (f & MIPS_LIKELY) {
            pa->n--;
            pa->guest--;
        }
        uint32_t wn = path_wait(c, in, lim, at, pc + 8, pa, forks - 1);
        return to <= pc ? wt : wn; /* backward taken, forward not: a loop's way */
    }
    path_settled(c, in, lim, at, pa, &wait);
    return wait;
}

/* 24k: the cycles the instructions at target wait for what p left
 * pending, p's branch costing bt (path_wait's window; before, it ended
 * at the first branch and its delay slot, and a result pending across
 * two boundaries was lost). */
static uint32_t succ_stall(Core *c, const T24Exit *pend, uint32_t target, uint32_t bt)
{
    T24Exit in;
    exit_after(pend, bt, &in);
    int32_t lim = 0;
    for (unsigned r = 0; r < T24_NRES; r++)
        lim = MAX(lim, in.left[r]);
    for (unsigned r = 0; r < 32; r++)
        lim = MAX(lim, in.ag[r]);
    if (!lim)
        return 0; /* all expired during p's branch */
    Path *pa = g_new(Path, 1);
    pa->n = pa->guest = 0;
    uint32_t st = path_wait(c, &in, (uint32_t)lim, target, target, pa, FORKS);
    g_free(pa);
    return st;
}

/* 24k: b left results pending (or ends in a likely branch, whose
 * annulled slot may have overwritten one). Where its successors are static (a
 * PC-relative branch's target, its fall-through) their waits are known
 * now: the taken one joins bt, the fall-through one is bnt, both charged
 * by the block hook with no more work. Register jumps, eret and a branch
 * split at a page end leave it to the boundary (rt_pend, entry_stall). */
void block_static_successors(Core *c, Block *b)
{
    uint32_t target;
    if (b->flags & (MIPS_JREG | MIPS_ERET | BLOCK_SPLIT)) {
        b->rt_pend = b->pend != NULL;
        return;
    }
    if (b->pend && (b->flags & MIPS_BRANCH) && mips_branch_target(b->branch_insn, b->branch_pc, &target))
        b->bt += succ_stall(c, b->pend, target, b->bt);
    if (b->fallthrough == 1)
        return;
    if ((b->flags & MIPS_LIKELY) && b->ninsns > 1 && b->branch_pc + 8 == b->addr + 4 * b->ninsns) {
        /* a likely branch not taken: its slot, b's last word, is annulled
         * (block.c annul_delay_slot): what b without it leaves pending */
        T24Exit ex;
        T24Result r = { 0 };
        t24_block(&c->cfg->timing, b->words, b->ninsns - 1, b->addr, NULL, NULL, &ex, &r);
        b->bnt = (r.pend_mask | r.pend_ag) ? succ_stall(c, &ex, b->fallthrough, 0) : 0;
        return;
    }
    b->bnt = b->pend ? succ_stall(c, b->pend, b->fallthrough, 0) : 0;
}

/* 24k: `to`, the delay slot of from's branch split off at a page end,
 * takes over the branch: what it leaves pending is what branch block and
 * slot leave together, as when they are one block (its own pend is the
 * slot's alone, from a clean start: a divide or a div.s before the branch
 * was lost at the slot's successor). Then its static successors' waits. */
void block_split_successors(Core *c, const Block *from, Block *to)
{
    uint32_t n = from->ninsns + 1;
    g_autofree uint32_t *w = g_new(uint32_t, n);
    memcpy(w, from->words, from->ninsns * sizeof *w);
    w[from->ninsns] = to->words[0];
    T24Exit ex;
    T24Result r = { 0 };
    t24_block(&c->cfg->timing, w, n, from->addr, NULL, NULL, &ex, &r);
    g_clear_pointer(&to->pend, g_free);
    to->pend_mask = r.pend_mask;
    to->pend_ag = r.pend_ag;
    if (r.pend_mask | r.pend_ag)
        to->pend = g_memdup2(&ex, sizeof ex);
    block_filter_24k(to);
    to->bnt = 0;
    if (to->pend)
        block_static_successors(c, to);
    if ((to->flags & MIPS_LIKELY) && to->fallthrough != 1)
        /* not taken, the slot is annulled: what the branch's block left
         * (t24_xlikelysplit) */
        to->bnt = from->pend ? succ_stall(c, from->pend, to->fallthrough, 0) : 0;
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
        exit_after(p->pend, bt, &in);
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


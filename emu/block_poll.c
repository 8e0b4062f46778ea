// SPDX-License-Identifier: GPL-2.0-or-later
/* block_poll.c — the poll skip: a failed poll in a one-block idempotent
 * loop lets the scheduler say how many identical iterations the core
 * may skip (block_poll_failed, block_poll_skip; docs/design.md). */
#include "emu/core_priv.h"
#include "emu/dcache.h"
#include "base/check.h"

/* With the cache model a skipped iteration must count what it would have
 * looked up: its I-cache lines (all hits: nothing changes in the loop) are
 * b->ilines; its D-cache accesses are not known without running it (a
 * load or store may go to RAM, kseg1 or a device), so a loop with any
 * load or store but the poll itself (a device access, no D-cache access)
 * is not skipped when the cache is on. */
static bool cache_skippable(const Core *c, const Block *b, int poll)
{
    DAcc a;
    for (uint32_t k = 0; c->cache && k < b->ninsns; k++)
        if ((int)k != poll && dcache_access_of(b->words[k], &a))
            return false;
    return true;
}

/* b is `L: ...; lw (the poll); ...; b<cond> L; <delay slot>` whose every
 * iteration computes the same thing (mips_idempotent_loop). */
static bool poll_loop(const Block *b, int i)
{
    unsigned f = b->flags;
    uint32_t target;
    return i >= 0 && (uint32_t)i < b->ninsns && b->ninsns >= 2
        && (f & MIPS_BRANCH) && !(f & (MIPS_LINK | MIPS_JREG | MIPS_LIKELY | MIPS_ERET | BLOCK_SPLIT))
        && !mips_branch_unconditional(b->branch_insn)
        && b->branch_pc == b->addr + 4 * (b->ninsns - 2)
        && mips_branch_target(b->branch_insn, b->branch_pc, &target) && target == b->addr
        && mips_idempotent_loop(b->words, b->ninsns, (unsigned)i);
}

void block_poll_failed(Core *c, uint32_t pc, uint64_t now, bool tx)
{
    Block *b = core_current_block(c);
    if (!b || !c->sched.poll_wait || c->state != CORE_RUNNING || pc < b->addr)
        return;
    int i = (int)((pc - b->addr) / 4);
    if (b->pollable < 0)
        b->pollable = poll_loop(b, i) && cache_skippable(c, b, i);
    if (!b->pollable)
        return;
    uint64_t off = 0;
    for (int k = 0; k < i; k++)
        off += b->icost[k];
    c->poll.blk = b;
    c->poll.s0 = now - off;
    c->poll.off = (uint32_t)off;
    c->poll.pc = b->addr + 4u * (uint32_t)i;
    c->poll.tx = tx;
    c->next_event = 0; /* the next boundary takes the slow path */
    core_set_deadline(c, 0);
}

void block_poll_never(Core *c, Block *b)
{
    b->pollable = 0;
    if (c->poll.blk == b)
        c->poll.blk = NULL;
}

/* Entering b again right after its failed poll, at `start`: ask the
 * scheduler how many identical iterations may be skipped; account them. */
uint64_t block_poll_skip(Core *c, Block *b, uint64_t start)
{
    /* a one-block loop ending in a conditional branch back to itself: no
     * entry stall (bt holds its wait), so an iteration is the block, its
     * poll's extra and bt (sample_loop relies on it) */
    NP_CHECK(b->pollable == 1 && !b->rt_pend);
    uint64_t period = start - c->poll.s0;
    if (period == 0 || period < b->cost)
        return start;
    uint64_t r = c->sched.poll_wait(c->sched.opaque, c, start, period, c->poll.off, c->poll.pc, c->poll.tx);
    if (r <= start)
        return start;
    uint64_t k = (r - start) / period, limit = c->cfg->max_cycles;
    if (start < limit)  /* never past the cycle limit */
        k = MIN(k, (limit - start) / period);
    else
        k = 0;
    b->count += k;
    if (c->cache)
        cache_count_skipped(c, k * b->ilines);
    b->extra += (int64_t)(k * (period - b->cost));
    /* per iteration, the poll's device extra on the load, bt on the branch */
    uint64_t dev = period - b->cost > b->bt ? period - b->cost - b->bt : 0;
    block_note_extra(b, (c->poll.pc - b->addr) / 4, (int64_t)(k * dev));
    if (c->next_sample < start + k * period)
        sample_loop(c, b, start, period, k, c->poll.pc);
    return start + k * period;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* block_poll.c — the poll skip: a failed poll in a one-block idempotent
 * loop lets the scheduler say how many identical iterations the core
 * may skip (block_poll_failed, block_poll_skip; docs/design.md); a failed
 * iteration of such a loop spinning on RAM is a wait too (block_spin_*). */
#include "emu/core_priv.h"
#include "emu/dcache.h"
#include "base/check.h"

#include "nocprof/platform.h"

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
    c->poll.ram = false;
    c->next_event = 0; /* the next boundary takes the slow path */
    core_set_deadline(c, 0);
}

void block_poll_never(Core *c, Block *b)
{
    b->pollable = 0;
    if (c->poll.blk == b)
        c->poll.blk = NULL;
}

/* The index of b's one load (lw), or -1. */
static int spin_load(const Block *b)
{
    int load = -1;
    for (uint32_t k = 0; k < b->ninsns; k++)
        if ((b->words[k] >> 26) == 0x23u) {
            if (load >= 0)
                return -1;
            load = (int)k;
        }
    return load;
}

/* The register a whitelisted instruction (mips_idempotent_loop) writes:
 * rd for SPECIAL, none for a branch, else rt. */
static unsigned dest_of(uint32_t w)
{
    unsigned op = w >> 26;
    if (op == 0)
        return (w >> 11) & 31;
    if (op == 0x01 || (op >= 0x04 && op <= 0x07))
        return 0;
    return (w >> 16) & 31;
}

void block_spin_mark(Block *b)
{
    int i = spin_load(b);
    if (i < 0 || !poll_loop(b, i))
        return;
    /* the load's base must still hold its address at the iteration's end */
    unsigned base = (b->words[i] >> 21) & 31;
    for (uint32_t k = (uint32_t)i; base && k < b->ninsns; k++)
        if (dest_of(b->words[k]) == base)
            return;
    b->flags |= BLOCK_SPIN;
}

/* Report the failed iteration of spin loop b at a sync point at `start`
 * (the boundary's state, as core_events'); false when halted there. */
static bool spin_report(Core *c, Block *b, uint64_t start, uint32_t pc, uint32_t addr)
{
    Block *p = c->prev;
    uint64_t end = c->cycles;
    c->cycles = start;
    c->prev = &c->none;
    if (!core_sync(c, start, b->addr))
        return false;
    c->sched.spin(c->sched.opaque, c, start, pc, addr);
    if (!core_sync_end(c, b->addr))
        return false;
    c->cycles = end;
    c->prev = p;
    return true;
}

bool block_spin_failed(Core *c, Block *b, uint64_t *start)
{
    if (!c->sched.spin || c->state != CORE_RUNNING)
        return false;
    int i = spin_load(b);
    if (i < 0)
        return false; /* (block_spin_mark found it) */
    uint32_t w = b->words[i];
    uint32_t addr = core_gpr(c, (w >> 21) & 31) + (uint32_t)(int32_t)(int16_t)(w & 0xFFFFu);
    if (addr < NP_KSEG0 || addr >= NP_KSEG0 + 0x40000000u || mips_phys(addr) >= c->cfg->ram_size)
        return false; /* a device (block_poll_failed's) or nothing */
    uint32_t pc = b->addr + 4u * (uint32_t)i;
    uint64_t s0 = c->cycles - b->cost; /* no extra in the loop: no device, no cache */
    if (!spin_report(c, b, *start, pc, addr))
        return true;
    /* the skip: with the cache model a skipped iteration's D-cache
     * lookup is not counted; uncached RAM (kseg1) costs extra cycles per
     * access (block_poll_never); a debugger may write the word at any
     * stop (and stop at any cycle): all run every iteration */
    if (!c->sched.poll_wait || c->cache || addr >= NP_KSEG1 || c->dbg || b->rt_pend || c->state != CORE_RUNNING)
        return false;
    if (b->pollable < 0)
        b->pollable = 1; /* poll_loop (block_spin_mark), and no cache */
    if (b->pollable != 1 || *start <= s0)
        return false;
    /* each skipped iteration's wait is at its end: the next one's start */
    c->poll = (CorePoll){ .blk = b, .s0 = s0, .off = (uint32_t)(*start - s0), .pc = pc, .ram = true };
    return false;
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
    uint64_t r = c->sched.poll_wait(c->sched.opaque, c, start, period, c->poll.off, c->poll.pc, c->poll.tx,
                                  c->poll.ram);
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

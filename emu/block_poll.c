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

/* b is `L: ...; b<cond> L; <delay slot>`: a one-block loop. */
static bool loop_shape(const Block *b)
{
    unsigned f = b->flags;
    uint32_t target;
    return b->ninsns >= 2
        && (f & MIPS_BRANCH) && !(f & (MIPS_LINK | MIPS_JREG | MIPS_LIKELY | MIPS_ERET | BLOCK_SPLIT))
        && !mips_branch_unconditional(b->branch_insn)
        && b->branch_pc == b->addr + 4 * (b->ninsns - 2)
        && mips_branch_target(b->branch_insn, b->branch_pc, &target) && target == b->addr;
}

/* b is `L: ...; lw (the poll); ...; b<cond> L; <delay slot>` whose every
 * iteration computes the same thing (mips_idempotent_loop). */
static bool poll_loop(const Block *b, int i)
{
    return i >= 0 && (uint32_t)i < b->ninsns && loop_shape(b)
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

static bool is_store(uint32_t w)
{
    return (mips_classify(w) & MIPS_STORE) != 0;
}

/* b is a wait loop (mips_wait_loop) each of whose loads and stores has a
 * base register that the iteration's end still holds (written neither by
 * the access nor after it): *cond its loads that decide. */
static bool spin_loop(const Block *b, uint64_t *cond)
{
    if (!loop_shape(b) || !mips_wait_loop(b->words, b->ninsns, cond))
        return false;
    for (uint32_t i = 0; i < b->ninsns; i++) {
        unsigned size, base, ssize, sbase;
        int32_t off, soff;
        if (!mips_mem_operand(b->words[i], &size, &base, &off))
            continue;
        for (uint32_t k = i; base && k < b->ninsns; k++)
            if (mips_gpr_writes(b->words[k]) >> base & 1)
                return false;
        /* a store through the same base to a word the branch decides on
         * (`for (volatile int i = 0; i < n; i++)`): it ends by itself */
        for (uint32_t k = 0; (*cond >> i & 1) && k < b->ninsns; k++)
            if (is_store(b->words[k]) && mips_mem_operand(b->words[k], &ssize, &sbase, &soff) && sbase == base
                && soff < off + (int32_t)size && off < soff + (int32_t)ssize)
                return false;
    }
    return true;
}

void block_spin_mark(Block *b)
{
    uint64_t cond;
    if (spin_loop(b, &cond))
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

/* Where b's load or store at i goes (the registers at the iteration's
 * end: its base's, spin_loop): a physical range of the core's own RAM;
 * false for anything else (a device: the poll skip's, or nothing). */
static bool spin_access(Core *c, const Block *b, uint32_t i, uint32_t *va, uint32_t *lo, uint32_t *hi)
{
    unsigned size, base;
    int32_t off;
    if (!mips_mem_operand(b->words[i], &size, &base, &off))
        return false;
    *va = core_gpr(c, base) + (uint32_t)off;
    if (*va < NP_KSEG0 || *va >= NP_KSEG0 + 0x40000000u || mips_phys(*va) >= c->cfg->ram_size)
        return false;
    *lo = mips_phys(*va);
    *hi = *lo + size;
    return true;
}

/* The iteration of spin loop b that just ended could not have ended the
 * loop: every access goes to its own RAM and no store hits a word the
 * branch decides on, nor b's code. The first of those loads: *pc, *addr. */
static bool spin_waits(Core *c, const Block *b, uint32_t *pc, uint32_t *addr)
{
    uint64_t cond;
    uint32_t n = b->ninsns, va = 0, lo[64], hi[64];
    if (!mips_wait_loop(b->words, n, &cond))
        return false; /* (block_spin_mark found it) */
    *pc = 0;
    for (uint32_t i = 0; i < n; i++) {
        lo[i] = hi[i] = 0;
        if ((mips_classify(b->words[i]) & (MIPS_LOAD | MIPS_STORE)) && !spin_access(c, b, i, &va, &lo[i], &hi[i]))
            return false;
        if ((cond >> i & 1) && !*pc) {
            *pc = b->addr + 4u * i;
            *addr = va;
        }
    }
    uint32_t code = mips_phys(b->addr);
    for (uint32_t k = 0; k < n; k++) {
        if (!is_store(b->words[k]))
            continue;
        if (lo[k] < code + b->size && code < hi[k])
            return false; /* it writes its own code */
        for (uint32_t i = 0; i < n; i++)
            if ((cond >> i & 1) && lo[k] < hi[i] && lo[i] < hi[k])
                return false; /* it changes its own exit */
    }
    return *pc != 0;
}

bool block_spin_failed(Core *c, Block *b, uint64_t *start)
{
    uint32_t pc, addr;
    if (!c->sched.spin || c->state != CORE_RUNNING)
        return false;
    if (!spin_waits(c, b, &pc, &addr)) {
        /* a device, or a loop that ends by itself: the addresses it goes
         * to come from registers it never writes, so this run of the loop
         * is never a wait; nor, taken as likely, any other: not looked at
         * again (the hook's fast path leaves it, as any other block) */
        b->flags &= ~BLOCK_SPIN;
        block_leave(b, c->gpr != NULL);
        return false;
    }
    uint64_t s0 = c->cycles - b->cost; /* no extra in the loop: no device, no cache */
    if (!spin_report(c, b, *start, pc, addr))
        return true;
    /* the skip, for a loop that computes the same thing every iteration
     * (one load, no store, nothing carried: a counter's iterations
     * differ); with the cache model a skipped iteration's D-cache
     * lookup is not counted; uncached RAM (kseg1) costs extra cycles per
     * access (block_poll_never); a debugger may write the word at any
     * stop (and stop at any cycle): all run every iteration */
    if (!c->sched.poll_wait || c->cache || addr >= NP_KSEG1 || c->dbg || b->rt_pend || c->state != CORE_RUNNING)
        return false;
    if (b->pollable < 0)
        b->pollable = poll_loop(b, spin_load(b)); /* no cache */
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

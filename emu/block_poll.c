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

/* The body of a spin loop: one block, or two (`while (!a && !b)`: the
 * first falls through into the second, which branches back to it). */
typedef struct SpinBody {
    uint32_t w[63];
    uint32_t n, addr, size;    /* its words, from addr, size bytes */
} SpinBody;

/* The body is a wait loop (mips_wait_loop) each of whose loads and
 * stores has a base register that the iteration's end still holds
 * (written neither by the access nor after it). */
static bool spin_loop(const SpinBody *s)
{
    uint64_t cond;
    if (!mips_wait_loop(s->w, s->n, &cond))
        return false;
    for (uint32_t i = 0; i < s->n; i++) {
        unsigned size, base, ssize, sbase;
        int32_t off, soff;
        if (!mips_mem_operand(s->w[i], &size, &base, &off))
            continue;
        for (uint32_t k = i; base && k < s->n; k++)
            if (mips_gpr_writes(s->w[k]) >> base & 1)
                return false;
        /* a store through the same base to a word a branch decides on
         * (`for (volatile int i = 0; i < n; i++)`): it ends by itself */
        for (uint32_t k = 0; (cond >> i & 1) && k < s->n; k++)
            if (is_store(s->w[k]) && mips_mem_operand(s->w[k], &ssize, &sbase, &soff) && sbase == base
                && soff < off + (int32_t)size && off < soff + (int32_t)ssize)
                return false;
    }
    return true;
}

/* Branch flags that keep a block out of a spin's body */
#define SPIN_NOT (MIPS_LINK | MIPS_JREG | MIPS_LIKELY | MIPS_ERET | BLOCK_SPLIT)

/* b ends with a conditional branch back to `to` (its delay slot in b). */
static bool branches_back(const Block *b, uint32_t *to)
{
    return b->ninsns >= 2 && (b->flags & MIPS_BRANCH) && !(b->flags & SPIN_NOT)
        && !mips_branch_unconditional(b->branch_insn) && b->branch_pc == b->addr + 4 * (b->ninsns - 2)
        && mips_branch_target(b->branch_insn, b->branch_pc, to) && *to <= b->addr;
}

/* The first block of a two-block spin, words w[0..n): a conditional
 * branch (the loop's exit) and its delay slot end it, no other control. */
static bool spin_first(const uint32_t *w, uint32_t n)
{
    if (n < 2 || (mips_classify(w[n - 2]) & (MIPS_LINK | MIPS_JREG | MIPS_LIKELY | MIPS_ERET))
        || !(mips_classify(w[n - 2]) & MIPS_BRANCH) || mips_branch_unconditional(w[n - 2]))
        return false;
    for (uint32_t k = 0; k < n; k++)
        if (k != n - 2 && (mips_classify(w[k]) & MIPS_BRANCH))
            return false;
    return true;
}

/* Entering b from p, where p carries BLOCK_SPIN: the body of the
 * iteration that just ended (b again, or b then p); false: not a loop. */
static bool spin_body(const Block *p, const Block *b, SpinBody *s)
{
    uint32_t to;
    if (p != b && (!branches_back(p, &to) || to != b->addr || b->addr + b->size != p->addr
                   || !spin_first(b->words, b->ninsns)))
        return false;
    s->n = b->ninsns + (p != b ? p->ninsns : 0);
    if (s->n > G_N_ELEMENTS(s->w))
        return false;
    memcpy(s->w, b->words, 4 * b->ninsns);
    if (p != b)
        memcpy(s->w + b->ninsns, p->words, 4 * p->ninsns);
    s->addr = b->addr;
    s->size = 4 * s->n;
    return true;
}

bool block_spin_entry(const Block *p, const Block *b)
{
    SpinBody s;
    return p == b || spin_body(p, b, &s);
}

void block_spin_mark(Core *c, Block *b)
{
    SpinBody s;
    uint32_t to;
    if (!branches_back(b, &to) || b->ninsns > G_N_ELEMENTS(s.w)
        || (b->addr - to) / 4 > G_N_ELEMENTS(s.w) - b->ninsns)
        return;
    s.n = (b->addr - to) / 4 + b->ninsns;
    s.addr = to;
    s.size = 4 * s.n;
    memcpy(s.w + (b->addr - to) / 4, b->words, 4 * b->ninsns);
    /* the first block of two, as the loop branches back to it */
    g_autofree uint8_t *bytes = g_malloc(b->addr - to + 4);
    if (to != b->addr && uc_mem_read(c->uc, mips_phys(to), bytes, b->addr - to) != UC_ERR_OK)
        return;
    for (uint32_t k = 0; k < (b->addr - to) / 4; k++)
        s.w[k] = core_guest_word(c, bytes + 4 * k);
    if ((to == b->addr || spin_first(s.w, (b->addr - to) / 4)) && spin_loop(&s))
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

/* Where the body's load or store w goes (the registers at the
 * iteration's end: its base's, spin_loop): a physical range of the
 * core's own RAM; false for anything else (a device: the poll skip's, or
 * nothing). */
static bool spin_access(Core *c, uint32_t w, uint32_t *va, uint32_t *lo, uint32_t *hi)
{
    unsigned size, base;
    int32_t off;
    if (!mips_mem_operand(w, &size, &base, &off))
        return false;
    *va = core_gpr(c, base) + (uint32_t)off;
    if (*va < NP_KSEG0 || *va >= NP_KSEG0 + 0x40000000u || mips_phys(*va) >= c->cfg->ram_size)
        return false;
    *lo = mips_phys(*va);
    *hi = *lo + size;
    return true;
}

/* The iteration of spin loop s that just ended could not have ended the
 * loop: every access goes to its own RAM and no store hits a word a
 * branch decides on, nor the loop's code. The first of those loads:
 * *pc, *addr. */
static bool spin_waits(Core *c, const SpinBody *s, uint32_t *pc, uint32_t *addr)
{
    uint64_t cond;
    uint32_t n = s->n, va = 0, lo[G_N_ELEMENTS(s->w)], hi[G_N_ELEMENTS(s->w)];
    if (!mips_wait_loop(s->w, n, &cond))
        return false; /* (block_spin_mark found it) */
    *pc = 0;
    for (uint32_t i = 0; i < n; i++) {
        lo[i] = hi[i] = 0;
        if ((mips_classify(s->w[i]) & (MIPS_LOAD | MIPS_STORE)) && !spin_access(c, s->w[i], &va, &lo[i], &hi[i]))
            return false;
        if ((cond >> i & 1) && !*pc) {
            *pc = s->addr + 4u * i;
            *addr = va;
        }
    }
    uint32_t code = mips_phys(s->addr);
    for (uint32_t k = 0; k < n; k++) {
        if (!is_store(s->w[k]))
            continue;
        if (lo[k] < code + s->size && code < hi[k])
            return false; /* it writes its own code */
        for (uint32_t i = 0; i < n; i++)
            if ((cond >> i & 1) && lo[k] < hi[i] && lo[i] < hi[k])
                return false; /* it changes its own exit */
    }
    return *pc != 0;
}

bool block_spin_failed(Core *c, Block *p, Block *b, uint64_t *start)
{
    uint32_t pc, addr;
    SpinBody s;
    if (!c->sched.spin || c->state != CORE_RUNNING || !spin_body(p, b, &s))
        return false;
    if (!spin_waits(c, &s, &pc, &addr)) {
        /* a device, or a loop that ends by itself: the addresses it goes
         * to come from registers it never writes, so this run of the loop
         * is never a wait; nor, taken as likely, any other: not looked at
         * again (the hook's fast path leaves it, as any other block) */
        p->flags &= ~BLOCK_SPIN;
        block_leave(p, c->gpr != NULL);
        return false;
    }
    uint64_t s0 = c->cycles - b->cost; /* no extra in the loop: no device, no cache */
    if (!spin_report(c, b, *start, pc, addr))
        return true;
    /* the skip, for a one-block loop that computes the same thing every
     * iteration (one load, no store, nothing carried: a counter's
     * iterations differ); with the cache model a skipped iteration's
     * D-cache lookup is not counted; uncached RAM (kseg1) costs extra
     * cycles per access (block_poll_never); a debugger may write the word
     * at any stop (and stop at any cycle): all run every iteration */
    if (p != b || !c->sched.poll_wait || c->cache || addr >= NP_KSEG1 || c->dbg || b->rt_pend
        || c->state != CORE_RUNNING)
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

// SPDX-License-Identifier: GPL-2.0-or-later
/* block_count.c — what the blocks counted, for the profiler and the
 * progress line: instructions, events by instruction class, the 24k waits
 * and the cache misses of each block, and the core's instruction total.
 * Read-only over the Block structs block.c (and cache.c) fill, with
 * their plain accessors. */
#include "emu/core_priv.h"
#include "platform/mips.h"

/* Block's and the core's block table's accessors (emu/core.h) */
uint32_t block_addr(const Block *b) { return b->addr; }
uint32_t block_ninsns(const Block *b) { return b->ninsns; }
uint64_t block_count(const Block *b) { return b->count; }
uint64_t block_cycles(const Block *b) { return b->count * b->cost + (uint64_t)b->extra; }
unsigned block_flags(const Block *b) { return b->flags & ~(BLOCK_IRQ_ENTRY | BLOCK_SPLIT | BLOCK_EVAL | BLOCK_SPIN); }
uint32_t block_branch_pc(const Block *b) { return b->branch_pc; }
uint32_t block_tag(const Block *b) { return b->tag; }

bool core_block_limit_hit(const Core *c)
{
    return c->block_limit_hit;
}

unsigned core_nblocks(const Core *c)
{
    return c->blocks->len;
}

const Block *core_block(const Core *c, unsigned i)
{
    return g_ptr_array_index(c->blocks, i);
}

uint64_t block_instructions(const Block *b)
{
    return b->count * (b->ninsns - b->nskip) - b->lost;
}

unsigned block_word_events(uint32_t w)
{
    return mips_word_events(w); /* BLOCK_EV_x == MIPS_EV_x */
}

void block_events(const Block *b, uint64_t ev[BLOCK_NEV])
{
    for (unsigned k = 0; k < BLOCK_NEV; k++)
        ev[k] = b->count * b->nev[k] - b->lost_ev[k];
}

bool block_has_misses(const Block *b)
{
    return b->cmiss != NULL;
}

void block_misses(const Block *b, uint32_t i, uint64_t m[BLOCK_NMISS])
{
    for (unsigned k = 0; k < BLOCK_NMISS; k++)
        m[k] = b->cmiss && i < b->ninsns ? b->cmiss[(size_t)k * b->ninsns + i] : 0;
}

void block_waits(const Block *b, uint64_t w[BLOCK_NWAIT])
{
    for (unsigned k = 0; k < BLOCK_NWAIT; k++)
        w[k] = b->count * b->wait[k] - b->lost_wait[k];
}

uint64_t core_instructions(const Core *c)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < c->blocks->len; i++)
        n += block_instructions(g_ptr_array_index(c->blocks, i));
    return n;
}

void core_publish_instructions(Core *c)
{
    if (core_live(c) && c->cycles - c->insns_at < MAX(UINT64_C(1) << 18, 64 * (uint64_t)c->blocks->len))
        return;
    c->insns_at = c->cycles;
    __atomic_store_n(&c->insns_pub, core_instructions(c), __ATOMIC_RELAXED);
}

uint64_t core_instructions_published(const Core *c)
{
    return __atomic_load_n(&c->insns_pub, __ATOMIC_RELAXED);
}


void block_note_extra(Block *b, uint32_t i, int64_t delta)
{
    if (i >= b->ninsns || !delta)
        return;
    if (!b->xcyc)
        b->xcyc = g_new0(int64_t, b->ninsns);
    b->xcyc[i] += delta;
}

uint64_t block_insn_cut(const Block *b, uint32_t i)
{
    if (block_skipped(b, i))
        return b->count; /* every run: it never runs */
    return b->xcut && i < b->ninsns ? b->xcut[i] : 0;
}

bool block_has_cuts(const Block *b)
{
    return b->xcut != NULL || b->skip != NULL;
}

bool block_insn_cycles(const Block *b, uint64_t *out)
{
    uint32_t n = b->ninsns;
    if (!n)
        return false;
    int64_t rest = b->extra;
    uint64_t stat = 0;
    for (uint32_t i = 0; i < n; i++) {
        int64_t x = b->xcyc ? b->xcyc[i] : 0;
        int64_t v = (int64_t)(b->count * b->icost[i]) + x;
        if (v < 0)
            return false;
        out[i] = (uint64_t)v;
        stat += b->icost[i];
        rest -= x;
    }
    if (stat != b->cost)
        return false;
    uint32_t j = (b->branch_pc - b->addr) / 4;
    if (b->branch_pc && b->branch_pc >= b->addr && j < n) {
        if (rest < 0 && (uint64_t)-rest > out[j])
            return false;
        out[j] = (uint64_t)((int64_t)out[j] + rest);
        return true;
    }
    if (rest < 0)
        return false;
    for (uint32_t i = 0; i < n; i++)   /* no branch of its own: spread */
        out[i] += (uint64_t)rest / n + (i < (uint64_t)rest % n);
    return true;
}

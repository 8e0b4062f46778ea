// SPDX-License-Identifier: GPL-2.0-or-later
/* block_count.c — what the blocks counted, for the profiler and the
 * progress line: instructions, events by instruction class, the 24k waits
 * and the cache misses of each block, and the core's instruction total.
 * Read-only over the Block structs block.c (and cache.c) fill. */
#include "emu/core_priv.h"
#include "platform/mips.h"

uint64_t block_instructions(const Block *b)
{
    return b->count * b->ninsns - b->lost;
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
        w[k] = b->count * b->wait[k];
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


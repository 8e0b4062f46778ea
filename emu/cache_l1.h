// SPDX-License-Identifier: GPL-2.0-or-later
/* cache_l1.h — the L1 caches' state (cache.c), shared with dcache.c for
 * the D-cache's inline fast path (a hit on its set's most recently used
 * way). Nothing outside emu/cache.c and emu/dcache.c includes it. */
#ifndef NOCPROF_CACHE_L1_H
#define NOCPROF_CACHE_L1_H

#include "emu/core_priv.h"

typedef struct Way {
    uint32_t key;              /* line number + 1; 0: invalid */
    uint32_t dirty;
    uint64_t used;             /* LRU stamp */
} Way;

typedef struct L1 {
    unsigned shift;            /* log2(line) */
    unsigned way_shift;        /* log2(line x sets): index ops' way bits */
    uint32_t sets_mask, ways;
    uint64_t clock;
    Way *w;                    /* [sets x ways] */
    uint8_t *mru;              /* [sets] the way used last: it holds the
                                  set's largest stamp, so a hit there
                                  changes no order (the fast path) */
    uint32_t *mru_key;         /* [sets] its key (0: invalid): the fast
                                  path reads only this small array */
    uint64_t gen;              /* bumped by every change of the lines or
                                  their order (not by an MRU hit) */
    uint64_t wbacks;           /* dirty lines written back (24K event 10) */
} L1;

struct CoreCache {
    L1 i, d;
    uint64_t penalty, wb;
    uint64_t n[CACHE_NCOUNT];  /* accesses and misses (cp0_perf.c) */
};

/* The D-cache access at physical phys when it hits its set's most
 * recently used way (counted; a store dirties the line): true; else
 * false and nothing changed (then cache_d_at). */
static inline bool cache_d_mru(Core *c, uint32_t phys, bool write)
{
    CoreCache *cc = c->cache;
    L1 *d = &cc->d;
    uint32_t key = (phys >> d->shift) + 1, set = (key - 1) & d->sets_mask;
    if (d->mru_key[set] != key)
        return false;
    cc->n[CACHE_D_ACCESS]++;
    if (write)
        d->w[(size_t)set * d->ways + d->mru[set]].dirty = 1;
    return true;
}

#endif

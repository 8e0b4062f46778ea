// SPDX-License-Identifier: GPL-2.0-or-later
/* cache.c — the optional L1 caches, `[cache] enabled = 1` (SPEC section 1,
 * docs/timing.md "The L1 caches"): per core an I-cache and a D-cache,
 * set-associative, LRU, write-back, write-allocate; kseg1 uncached.
 *
 * Nothing here exists when the cache is off: core.c then installs the
 * plain block hook and no memory hook (a UC_HOOK_MEM_READ/WRITE hook
 * sends every load and store of the pages it covers down Unicorn's slow
 * path). When it is on:
 *   - I-cache, by block: once a block has been entered (block_hook), the
 *     lines it spans are looked up; the block waits miss_penalty cycles
 *     per missing line before its first instruction (charged as a device
 *     access's extra is, at instruction 0: samples, CYCLE_LO and Count
 *     see it). A miss is counted on the first instruction of the block in
 *     that line. Fetches from kseg1 are uncached (the 24k model charges
 *     them), never looked up.
 *   - D-cache, per access: with [cache] d_model = hook a memory hook on
 *     RAM (physical 0 .. ram_size) looks each load and store up (predict,
 *     the default: dcache.c computes the addresses at block entry and
 *     calls cache_d_at, no memory hook); a miss fills the line (a store miss
 *     too: write-allocate), writes back a dirty victim (writeback_penalty
 *     cycles) and costs miss_penalty cycles at the instruction, which is
 *     found as a device access's is (exc_locate_access) and counted there.
 *   - `cache` and `synci` (smc.c's hook on them) invalidate or write back
 *     lines as the 24K does (cache_op).
 * Each core's caches are its own and see only its own accesses in guest
 * order, so the result is the same at every thread count and quantum. */
#include "emu/cache_l1.h"
#include "emu/dcache.h"

static unsigned log2u(uint32_t v)
{
    unsigned s = 0;
    while ((1u << s) < v)
        s++;
    return s;
}

static void l1_init(L1 *c, unsigned line, unsigned size, unsigned ways)
{
    uint32_t sets = size / line / ways;
    c->shift = log2u(line);
    c->way_shift = log2u(line * sets);
    c->sets_mask = sets - 1;
    c->ways = ways;
    c->w = g_new0(Way, (size_t)sets * ways);
    c->mru = g_new0(uint8_t, sets);
    c->mru_key = g_new0(uint32_t, sets);
    c->gen = 1; /* a new Block's igen (0) never matches */
}

bool cache_init(Core *c)
{
    const CacheCfg *k = &c->cfg->cache;
    if (!k->enabled)
        return false;
    CoreCache *cc = g_new0(CoreCache, 1);
    l1_init(&cc->i, k->line, k->icache_size, k->icache_ways);
    l1_init(&cc->d, k->line, k->dcache_size, k->dcache_ways);
    cc->penalty = k->miss_penalty;
    cc->wb = k->writeback_penalty;
    c->cache = cc;
    c->dc_ll = ~0u;
    c->dc_cu1 = -1;
    return true;
}

void cache_free(Core *c)
{
    dcache_state_free(c);
    if (!c->cache)
        return;
    g_free(c->cache->i.w);
    g_free(c->cache->d.w);
    g_free(c->cache->i.mru);
    g_free(c->cache->d.mru);
    g_free(c->cache->i.mru_key);
    g_free(c->cache->d.mru_key);
    g_free(c->cache);
    c->cache = NULL;
}

void cache_count_skipped(Core *c, uint64_t ilookups)
{
    c->cache->n[CACHE_I_ACCESS] += ilookups;
}

uint64_t cache_count(const Core *c, unsigned what)
{
    if (c->cache && what == CACHE_D_WBACK)
        return c->cache->d.wbacks;
    return c->cache && what < CACHE_NCOUNT ? c->cache->n[what] : 0;
}

/* Look physical address phys up: a hit is true (and the line becomes the
 * most recently used). */
static inline bool l1_hit(L1 *c, uint32_t phys, bool write)
{
    uint32_t key = (phys >> c->shift) + 1, set = (key - 1) & c->sets_mask;
    if (G_LIKELY(c->mru_key[set] == key)) {
        if (write)
            c->w[(size_t)set * c->ways + c->mru[set]].dirty = 1;
        return true;
    }
    Way *s = c->w + (size_t)set * c->ways;
    for (unsigned k = 0; k < c->ways; k++)
        if (s[k].key == key) {
            c->gen++;
            s[k].used = ++c->clock;
            s[k].dirty |= write;
            c->mru[set] = (uint8_t)k;
            c->mru_key[set] = key;
            return true;
        }
    return false;
}

/* A miss on phys fills its line into the first invalid way of the set,
 * else the least recently used one: 2 when that victim was dirty, else 1. */
static unsigned l1_fill(L1 *c, uint32_t phys, bool write)
{
    uint32_t key = (phys >> c->shift) + 1;
    Way *s = c->w + (size_t)((key - 1) & c->sets_mask) * c->ways;
    unsigned victim = 0;
    for (unsigned k = 0; k < c->ways; k++) {
        if (s[k].key == 0) {
            victim = k;
            break;
        }
        if (s[k].used < s[victim].used)
            victim = k;
    }
    unsigned r = s[victim].key && s[victim].dirty ? 2 : 1;
    c->wbacks += r == 2;
    c->gen++;
    s[victim] = (Way){ .key = key, .dirty = write, .used = ++c->clock };
    c->mru[(key - 1) & c->sets_mask] = (uint8_t)victim;
    c->mru_key[(key - 1) & c->sets_mask] = key;
    return r;
}

/* ---- charging -------------------------------------------------------------- */

/* Miss kind m of instruction i of b (counted per instruction). */
static void count_miss(Block *b, uint32_t i, unsigned m)
{
    if (i >= b->ninsns)
        return;
    if (!b->cmiss)
        b->cmiss = g_new0(uint64_t, (size_t)BLOCK_NMISS * b->ninsns);
    b->cmiss[(size_t)m * b->ninsns + i]++;
}

/* Instruction i of the current block b, starting at cycle `at`, waits
 * delta more cycles (as a device access's extra is charged, mmio.c).
 * False when that would pass the cycle limit: the core then stops before
 * the instruction. */
static bool charge(Core *c, Block *b, uint32_t i, uint64_t at, uint64_t delta)
{
    uint32_t pc = b->addr + 4 * i;
    if (c->cycles + delta - c->cut.slack > c->cfg->max_cycles) {
        block_truncate(c, pc);
        c->pc = pc;
        core_stop(c, CORE_LIMIT);
        return false;
    }
    /* samples past the miss move to the instructions really there (a
     * miss is never taken back: the access completed, so it is not noted
     * as the device access block_truncate may undo) */
    sample_retime(c, b, i, at, (int64_t)delta);
    c->cache->n[CACHE_CYCLES] += delta;
    c->cycles += delta;
    b->extra += (int64_t)delta;
    block_note_extra(b, i, (int64_t)delta);
    mmio_access_extra(c, b, (int64_t)delta);
    c->acc.miss_insn = i;
    c->acc.miss_at = at;
    c->acc.miss_extra = (int64_t)delta;
    if (c->next_sample < c->cycles)
        sample_range(c, c->cycles, pc);
    return true;
}

/* ---- I-cache: by block ----------------------------------------------------- */

/* b was just entered (at cycle c->cycles - b->cost): fetch its lines.
 * After a fetch every line of b is the most recently used of its set (the
 * lines are consecutive, so in distinct sets when they are at most the
 * sets); while nothing has changed the I-cache since (its gen), fetching
 * b again is all MRU hits, which change nothing but the access count
 * (fetch_block, inline in the block hook). */
static __attribute__((noinline)) void fetch_lines(Core *c, Block *b)
{
    if (b->addr >= 0xA0000000u || !b->size)
        return; /* kseg1: uncached (the 24k model's uncached fetch) */
    CoreCache *cc = c->cache;
    uint32_t phys = mips_phys(b->addr), shift = cc->i.shift;
    uint32_t first = phys >> shift, last = (phys + b->size - 1) >> shift;
    uint64_t misses = 0;
    for (uint32_t l = first; l <= last; l++) {
        cc->n[CACHE_I_ACCESS]++;
        if (l1_hit(&cc->i, l << shift, false))
            continue;
        l1_fill(&cc->i, l << shift, false);
        cc->n[CACHE_I_MISS]++;
        misses++;
        uint32_t lo = l << shift;
        count_miss(b, lo > phys ? (lo - phys) / 4 : 0, BLOCK_MISS_I1);
    }
    b->ilines = last - first + 1;
    b->igen = last - first <= cc->i.sets_mask ? cc->i.gen : 0;
    if (!misses || !cc->penalty)
        return;
    /* a new execution of b for the mid-block charges (exc_locate_access) */
    exc_scan_restart(c, b);
    mmio_access_restart(c, b);
    charge(c, b, 0, c->cycles - b->cost, misses * cc->penalty);
}

static inline void fetch_block(Core *c, Block *b)
{
    CoreCache *cc = c->cache;
    if (G_LIKELY(b->igen == cc->i.gen))
        cc->n[CACHE_I_ACCESS] += b->ilines;
    else
        fetch_lines(c, b);
}

void cache_block_hook(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    Core *c = opaque;
    Block *b = block_enter_quick(c, (uint32_t)address, size);
    if (G_LIKELY(b)) { /* entered (block_hook's fast path) */
        if (G_LIKELY(!c->stopping && c->state == CORE_RUNNING)) {
            fetch_block(c, b);
            if (b->dplan)
                dcache_enter(c, b);
        }
        return;
    }
    Block *p = c->prev;
    uint64_t n = p->count;
    if (p->flags & MIPS_ERET)
        c->dc_ll = ~0u; /* eret clears the ll address (dcache.c) */
    block_hook(uc, address, size, opaque);
    b = c->prev;
    if (b == &c->none || b == &c->irq_marker || b->addr != (uint32_t)address
        || (b == p && b->count == n) || c->stopping || c->state != CORE_RUNNING)
        return; /* not entered */
    if (b->size == size)
        fetch_block(c, b);
    else if (!c->cut.run || b != c->cut.block)
        return; /* not entered */
    /* (the prefix the cycle limit leaves of b: its accesses, no fetch) */
    if (b->dplan && !c->stopping && c->state == CORE_RUNNING)
        dcache_enter(c, b);
}

/* ---- D-cache: by access ---------------------------------------------------- */

/* Instruction i of b (i < 0: not found) missed phys: fill, count, charge.
 * (Data through kseg1 never gets here: it goes to RAM's uncached alias,
 * uncached.c, which neither hook nor walk looks up.) */
static void d_miss(Core *c, Block *b, int i, uint32_t phys, bool write)
{
    CoreCache *cc = c->cache;
    unsigned r = l1_fill(&cc->d, phys, write);
    cc->n[write ? CACHE_D_WMISS : CACHE_D_RMISS]++;
    if (!b || i < 0)
        return;
    count_miss(b, (uint32_t)i, write ? BLOCK_MISS_D1W : BLOCK_MISS_D1R);
    uint64_t delta = cc->penalty + (r == 2 ? cc->wb : 0);
    if (delta)
        charge(c, b, (uint32_t)i, exc_insn_cycle(c, i), delta);
}

/* The D-cache access that is not a hit on its set's MRU way (kept out of
 * the hook so that its fast path saves no registers). */
static __attribute__((noinline)) void d_access(Core *c, uint32_t phys, bool write)
{
    CoreCache *cc = c->cache;
    if (l1_hit(&cc->d, phys, write))
        return;
    d_miss(c, core_current_block(c), exc_locate_access(c, phys), phys, write);
}

void cache_mem_hook(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value,
                    void *opaque)
{
    Core *c = opaque;
    (void)uc;
    (void)size;
    (void)value;
    if (G_UNLIKELY(c->state != CORE_RUNNING || c->stopping))
        return; /* the core stopped in this block: what follows did not run */
    L1 *d = &c->cache->d;
    uint32_t phys = (uint32_t)address, key = (phys >> d->shift) + 1, set = (key - 1) & d->sets_mask;
    c->cache->n[CACHE_D_ACCESS]++;
    if (G_LIKELY(d->mru_key[set] == key)) { /* l1_hit's fast path */
        if (type == UC_MEM_WRITE)
            d->w[(size_t)set * d->ways + d->mru[set]].dirty = 1;
        return;
    }
    d_access(c, phys, type == UC_MEM_WRITE);
}

void cache_d_at(Core *c, Block *b, uint32_t i, uint32_t ea, bool write)
{
    if (c->state != CORE_RUNNING || c->stopping)
        return;
    CoreCache *cc = c->cache;
    uint32_t phys = mips_phys(ea);
    cc->n[CACHE_D_ACCESS]++;
    if (!l1_hit(&cc->d, phys, write))
        d_miss(c, b, (int)i, phys, write);
}

void cache_d_hits(Core *c, unsigned n)
{
    if (c->state == CORE_RUNNING && !c->stopping)
        c->cache->n[CACHE_D_ACCESS] += n;
}

/* ---- cache and synci ------------------------------------------------------- */

/* Invalidate a line; wb: a dirty one is written back (free, see
 * docs/timing.md; counted), else it is discarded (memory is always up to
 * date here). */
static void drop(L1 *l, Way *w, bool wb)
{
    size_t set = (size_t)(w - l->w) / l->ways;
    l->wbacks += wb && w->key && w->dirty;
    if (l->w + set * l->ways + l->mru[set] == w)
        l->mru_key[set] = 0;
    l->gen++;
    *w = (Way){ 0 };
}

/* The way of l holding physical address phys, or NULL. */
static Way *l1_find(L1 *l, uint32_t phys)
{
    uint32_t line = phys >> l->shift;
    Way *s = l->w + (size_t)(line & l->sets_mask) * l->ways;
    for (unsigned k = 0; k < l->ways; k++)
        if (s[k].key == line + 1)
            return &s[k];
    return NULL;
}

/* The way an index operation names: the set from the index bits, the way
 * from the bits above them (24K SUM, CACHE instruction). */
static Way *l1_index(L1 *l, uint32_t va)
{
    uint32_t set = (va >> l->shift) & l->sets_mask, way = (va >> l->way_shift) & (l->ways - 1);
    return l->w + (size_t)set * l->ways + way;
}

void cache_op(Core *c, uint32_t w, uint32_t ea)
{
    CoreCache *cc = c->cache;
    if (!cc)
        return;
    uint32_t phys = mips_phys(ea);
    if ((w >> 26) == 0x01u) { /* synci: the I-cache line goes, the D line is written back */
        Way *x = l1_find(&cc->i, phys);
        if (x)
            drop(&cc->i, x, false);
        if ((x = l1_find(&cc->d, phys))) {
            cc->d.wbacks += x->dirty;
            x->dirty = 0;
        }
        return;
    }
    unsigned op = (w >> 16) & 31u, which = op & 3u, kind = op >> 2;
    if (which > 1)
        return; /* tertiary, secondary: none */
    L1 *l = which == 0 ? &cc->i : &cc->d;
    Way *x = NULL;
    if (kind == 0 || kind == 2) /* index (writeback) invalidate, index store tag (TagLo 0) */
        x = l1_index(l, ea);
    else if (kind == 4 || (which == 1 && (kind == 5 || kind == 6)))
        x = l1_find(l, phys); /* hit invalidate; D: hit wb inv, hit wb (I 5 is Fill) */
    if (!x)
        return;
    if (which == 1 && kind == 6) {
        l->wbacks += x->dirty;
        x->dirty = 0;
    } else {
        drop(l, x, kind == 0 || kind == 5); /* index wb inv, hit wb inv */
    }
}

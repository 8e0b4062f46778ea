// SPDX-License-Identifier: GPL-2.0-or-later
/* smc.c — code written at run time (SPEC section 1): Unicorn's
 * translations and every Block (costs, words, CP0 and jump hooks, poll
 * analysis, the client's tag) follow what is in memory when it runs.
 *
 * What is watched. RAM is mapped from our own host buffer (c->ram). A
 * page gets write-protected (uc_mem_protect, read + execute) when the
 * first live block lands on it, and writable again after SMC_DEMOTE
 * stores in a row that missed its code while no live block is left there
 * (not at once when its last one is dropped: a JIT rewriting code in a
 * loop would pay two protection changes, two commits of Unicorn's memory
 * map, per rewrite). A guest store into a protected page is refused by
 * Unicorn's TLB fast path (the region is read-only) and reaches
 * smc_store (UC_HOOK_MEM_WRITE_PROT): the store is done here, in the
 * host buffer, and every live block whose words it overlaps is dropped
 * (its Unicorn translation removed, its btab slot cleared). Stores into
 * pages never watched never leave Unicorn's fast path. A page with live
 * code whose stores miss it SMC_DEMOTE times in a row (data shares the
 * page, e.g. .bss right after .text) is released for good: its code is then
 * dropped by synci and cache only (as on a page past SMC_SPLIT_MAX,
 * below). No
 * UC_HOOK_MEM_READ/WRITE hook exists (Unicorn 2.1.1 sends every load
 * and store of code translated while one exists down its slow path).
 * `synci` and `cache` (whose Unicorn translation does nothing) drop the
 * blocks of the 32-byte line they name, through a code hook on each,
 * added when its block is first translated.
 *
 * Dropped blocks stay in c->blocks with their counts (what ran, ran as
 * it was); the next execution at that address translates a new block
 * from memory, or takes back an older block of the same address, size
 * and words (code that alternates between versions makes no new blocks),
 * found by one lookup in c->versions.
 *
 * Regions: Unicorn protects whole regions only. The pages up to the end
 * of the executable segments (at most SMC_PRESPLIT_MAX, 1 MiB) are mapped
 * one region each from the start; the rest of RAM (data, heap, stack) is
 * one region, and a page of it is split off (uc_mem_protect does it: an
 * unmap and up to three maps of our host memory) when code first lands
 * on it, at most SMC_SPLIT_MAX pages per core, past which such a page is
 * left to synci and cache (exact for code that follows the MIPS rules).
 * Every map, unmap and protection change commits Unicorn's memory map:
 * its flat view re-rendered and every TLB of the core flushed, ~0.1 M
 * host instructions each, and each region costs a commit again in
 * uc_close. 16 stack pages pre-split as well cost a short 4-core run
 * (bench-pipeline-f) 288 TLB flushes instead of 96, 1.2% of its host
 * instructions.
 * The split runs inside a hook: Unicorn's unmap drops the region's
 * translations through the TLB with its physical address for a virtual
 * one (uc_invalidate_tb), which the fill hook must map as it is
 * (c->smc_splitting); refused, Unicorn 2.1.1 leaves UC_ERR_EXCEPTION in
 * its error slot and the maps after the unmap fail (UC_ERR_NOMEM).
 */
#include "emu/core_priv.h"

#include <sys/mman.h>

#include "emu/uc_check.h"

#define SMC_PAGE 4096u
#define SMC_LINE 32u               /* 24K cache line: synci/cache */
#define SMC_PRESPLIT_MAX 256u      /* code pages mapped one region each */
#define SMC_SPLIT_MAX 256u         /* pages split off at run time, per core */
#define SMC_DEMOTE 64u             /* stores in a row that miss its code
                                      leave a page unwatched */

struct CodePage {
    GPtrArray *blocks;             /* live blocks overlapping the page */
    uint32_t bits[SMC_PAGE / 4 / 32]; /* its words under a live block */
    bool prot;                     /* write-protected */
    bool demoted;                  /* data lives here too: not watched */
    bool split;                    /* split off the rest of RAM at run time */
    uint32_t misses;               /* stores in a row that missed its code */
};

static uint32_t npages(const Core *c)
{
    return (uint32_t)(c->cfg->ram_size / SMC_PAGE);
}

/* Physical [lo, hi) of b's words. */
static void block_span(const Block *b, uint32_t *lo, uint32_t *hi)
{
    *lo = mips_phys(b->addr);
    *hi = *lo + b->size;
}

static bool map_range(Core *c, uint64_t from, uint64_t to, bool per_page, GError **error)
{
    uint64_t step = per_page ? SMC_PAGE : to - from;
    for (uint64_t a = from; a < to; a += step)
        if (!uc_check(uc_mem_map_ptr(c->uc, a, step, UC_PROT_ALL, c->ram + a), error,
                      "core %u: map RAM at 0x%08" G_GINT64_MODIFIER "x", c->id, a))
            return false;
    return true;
}

/* c->versions: every block translated, by address, size and words (a
 * hash of all three: code rewritten N times at one address makes N
 * blocks there, and finding whether the words now in memory are one of
 * them must not walk the N). */
static guint version_hash(gconstpointer p)
{
    const Block *b = p;
    guint h = (b->addr * 2654435761u) ^ b->size;
    for (uint32_t i = 0; i < b->ninsns; i++)
        h = (h ^ b->words[i]) * 16777619u;
    return h;
}

static gboolean version_equal(gconstpointer pa, gconstpointer pb)
{
    const Block *a = pa, *b = pb;
    return a->addr == b->addr && a->size == b->size && a->ninsns == b->ninsns
           && memcmp(a->words, b->words, a->ninsns * sizeof *a->words) == 0;
}

bool smc_map_ram(Core *c, GError **error)
{
    uint64_t size = c->cfg->ram_size;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_EMU, "core %u: cannot allocate %" G_GUINT64_FORMAT
                    " bytes of RAM", c->id, size);
        return false;
    }
    c->ram = p;
    c->pages = g_new0(CodePage *, npages(c));
    c->versions = g_hash_table_new(version_hash, version_equal);
    /* one region per page up to the end of the executable segments (at
     * most SMC_PRESPLIT_MAX pages); the rest of RAM is one region */
    uint64_t img = 0;
    for (unsigned i = 0; i < c->img->nsegs; i++)
        if (c->img->segs[i].exec)
            img = MAX(img, (uint64_t)c->img->segs[i].paddr + c->img->segs[i].memsz);
    img = MIN((img + SMC_PAGE - 1) & ~(uint64_t)(SMC_PAGE - 1), (uint64_t)SMC_PRESPLIT_MAX * SMC_PAGE);
    img = MIN(img, size);
    c->split_lo = (uint32_t)img;
    uc_hook h;
    return map_range(c, 0, img, true, error) && map_range(c, img, size, false, error)
        && uc_check(uc_hook_add(c->uc, &h, UC_HOOK_MEM_WRITE_PROT, (void *)smc_store, c, 1, 0),
                    error, "core %u: store hook", c->id)
        && unc_map(c, error);
}

void smc_clear(Core *c)
{
    for (uint32_t i = 0; c->pages && i < npages(c); i++) {
        if (c->pages[i])
            g_ptr_array_free(c->pages[i]->blocks, TRUE);
        g_free(c->pages[i]);
    }
    g_free(c->pages);
    if (c->versions)
        g_hash_table_destroy(c->versions);
    if (c->cache_hooked)
        g_hash_table_destroy(c->cache_hooked);
    if (c->dc_hooked)
        g_hash_table_destroy(c->dc_hooked);
    c->dc_hooked = NULL;
    if (c->ram)
        munmap(c->ram, c->cfg->ram_size);
}

/* Page `page` protected (on) or writable again. Above split_lo the
 * page is first split off its region: Unicorn's uc_mem_protect unmaps
 * the region and maps it again in up to three (our host memory stays),
 * and the unmap drops the region's translations through the TLB fill
 * hook with the physical address for a virtual one (c->smc_splitting:
 * the hook maps it as it is; refused, Unicorn would leave an error
 * behind that makes the maps fail with UC_ERR_NOMEM). */
static void protect(Core *c, uint32_t page, bool on)
{
    CodePage *pg = c->pages[page];
    bool split = on && page * SMC_PAGE >= c->split_lo && !pg->split;
    if (split && c->nsplit >= SMC_SPLIT_MAX)
        return; /* left to synci and cache */
    c->smc_splitting = split;
    uc_err err = uc_mem_protect(c->uc, (uint64_t)page * SMC_PAGE, SMC_PAGE,
                                on ? UC_PROT_READ | UC_PROT_EXEC : UC_PROT_ALL);
    c->smc_splitting = false;
    if (err != UC_ERR_OK) {
        core_raise(c, "emulator", core_reg(c, UC_MIPS_REG_PC), "core %u: cannot %s page 0x%08x for code written at run time: %s",
                   c->id, on ? "watch" : "release", page * SMC_PAGE, uc_strerror(err));
        return;
    }
    if (split) {
        pg->split = true;
        c->nsplit++;
    }
    pg->prot = on;
    c->nprotect++;
}

/* Mark the words of b on page `page`. */
static void block_bits(CodePage *pg, uint32_t page, const Block *b)
{
    uint32_t base = page * SMC_PAGE, lo, hi;
    block_span(b, &lo, &hi);
    lo = MAX(lo, base);
    hi = MIN(hi, base + SMC_PAGE);
    for (uint32_t a = lo; a < hi; a += 4) {
        uint32_t w = (a - base) / 4;
        pg->bits[w / 32] |= 1u << (w % 32);
    }
}

/* The words of page `page` under its live blocks, again. */
static void page_bits(CodePage *pg, uint32_t page)
{
    memset(pg->bits, 0, sizeof pg->bits);
    for (unsigned k = 0; k < pg->blocks->len; k++)
        block_bits(pg, page, g_ptr_array_index(pg->blocks, k));
}

/* b's words are watched from now on. */
static void make_live(Core *c, Block *b)
{
    if (b->live)
        return;
    uint32_t lo, hi;
    block_span(b, &lo, &hi);
    if (hi > c->cfg->ram_size || hi <= lo)
        return;
    b->live = true;
    for (uint32_t p = lo / SMC_PAGE; p <= (hi - 1) / SMC_PAGE; p++) {
        if (!c->pages[p]) {
            c->pages[p] = g_new0(CodePage, 1);
            c->pages[p]->blocks = g_ptr_array_new();
        }
        g_ptr_array_add(c->pages[p]->blocks, b);
        block_bits(c->pages[p], p, b);
        if (!c->pages[p]->prot && !c->pages[p]->demoted)
            protect(c, p, true);
    }
}

void smc_track(Core *c, Block *b)
{
    g_hash_table_replace(c->versions, b, b);
    make_live(c, b);
}

Block *smc_revive(Core *c, uint32_t addr, uint32_t size)
{
    uint32_t phys = mips_phys(addr);
    if ((uint64_t)phys + size > c->cfg->ram_size)
        return NULL;
    /* the block of these words at addr, if one was translated: found by
     * its words (a live block on an unwatched page may be stale) */
    uint32_t buf[64];
    Block probe;
    probe.addr = addr;
    probe.size = size;
    probe.ninsns = size / 4;
    probe.words = probe.ninsns <= G_N_ELEMENTS(buf) ? buf : g_new(uint32_t, probe.ninsns);
    for (uint32_t i = 0; i < probe.ninsns; i++)
        probe.words[i] = core_guest_word(c, c->ram + phys + 4 * i);
    Block *b = g_hash_table_lookup(c->versions, &probe);
    if (probe.words != buf)
        g_free(probe.words);
    if (b)
        make_live(c, b);
    return b;
}

/* b's words changed (or may have): it no longer runs. */
static void retire(Core *c, Block *b)
{
    uint32_t lo, hi;
    block_span(b, &lo, &hi);
    b->live = false;
    for (uint32_t p = lo / SMC_PAGE; p <= (hi - 1) / SMC_PAGE; p++)
        g_ptr_array_remove_fast(c->pages[p]->blocks, b);
    if (core_slot(c, lo / 4) == b)
        core_slot_set(c, lo / 4, NULL);
    uc_err err = uc_ctl_remove_cache(c->uc, b->addr, (uint64_t)b->addr + b->size);
    if (err != UC_ERR_OK)
        core_raise(c, "emulator", c->pc, "core %u: cannot drop the translation at 0x%08x: %s", c->id,
                   b->addr, uc_strerror(err));
}

static bool page_hit(const CodePage *pg, uint32_t page, uint32_t lo, uint32_t hi)
{
    for (uint32_t a = lo & ~3u; a < hi; a += 4) {
        uint32_t w = (a - page * SMC_PAGE) / 4;
        if (pg->bits[w / 32] & (1u << (w % 32)))
            return true;
    }
    return false;
}

void smc_invalidate(Core *c, uint32_t phys, uint32_t len)
{
    uint64_t end = MIN((uint64_t)phys + len, c->cfg->ram_size);
    for (uint32_t p = phys / SMC_PAGE; len && (uint64_t)p * SMC_PAGE < end; p++) {
        CodePage *pg = c->pages[p];
        uint32_t lo = MAX(phys, p * SMC_PAGE), hi = (uint32_t)MIN(end, (uint64_t)(p + 1) * SMC_PAGE);
        if (!pg || !page_hit(pg, p, lo, hi))
            continue;
        for (unsigned k = pg->blocks->len; k-- > 0;) {
            Block *b = g_ptr_array_index(pg->blocks, k);
            uint32_t blo, bhi;
            block_span(b, &blo, &bhi);
            if (blo < hi && lo < bhi)
                retire(c, b);
            k = MIN(k, pg->blocks->len);
        }
        page_bits(pg, p);
        /* a page whose last live block went stays watched: code written
         * there again (a JIT, a loader in a loop) would otherwise cost two
         * protection changes per rewrite; smc_stored releases it after
         * SMC_DEMOTE stores in a row without code being run there */
        pg->misses = 0;
    }
}

bool smc_store(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value, void *opaque)
{
    Core *c = opaque;
    (void)uc;
    uint32_t phys = (uint32_t)address;
    if (type != UC_MEM_WRITE_PROT || size <= 0 || address + (uint64_t)size > c->cfg->ram_size
        || !c->pages[phys / SMC_PAGE] || !c->pages[phys / SMC_PAGE]->prot)
        return false; /* not ours: Unicorn stops with UC_ERR_WRITE_PROT */
    /* Unicorn drops the store (the region is read-only to it): do it */
    for (int k = 0; k < size; k++) {
        unsigned shift = 8u * (unsigned)(c->img->big_endian ? size - 1 - k : k);
        c->ram[phys + (uint32_t)k] = (uint8_t)((uint64_t)value >> shift);
    }
    smc_stored(c, phys, (uint32_t)size);
    return true;
}

void smc_stored(Core *c, uint32_t phys, uint32_t size)
{
    CodePage *pg = (uint64_t)phys + size <= c->cfg->ram_size ? c->pages[phys / SMC_PAGE] : NULL;
    if (!pg || !pg->prot)
        return; /* no code watched there */
    if (page_hit(pg, phys / SMC_PAGE, phys, phys + size)) {
        pg->misses = 0;
        smc_invalidate(c, phys, (uint32_t)size);
    } else if (++pg->misses >= SMC_DEMOTE) {
        /* no live code here any more: writable again until code runs
         * here again; else code and data share the page: its data stores
         * would all take this path, synci and cache keep its code exact */
        pg->demoted = pg->blocks->len > 0;
        pg->misses = 0;
        protect(c, phys / SMC_PAGE, false);
    }
}

uint64_t core_smc_protects(const Core *c)
{
    return c->nprotect;
}

/* ---- synci and cache ------------------------------------------------------ */

static bool is_cache_op(uint32_t w)
{
    return (w >> 26) == 0x2Fu                              /* cache */
        || ((w >> 26) == 0x01u && ((w >> 16) & 31) == 31u); /* synci (REGIMM) */
}

static void cache_hook(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    Core *c = opaque;
    (void)uc;
    (void)size;
    uint32_t i;
    Block *b = core_block_at(c, (uint32_t)address, &i);
    if (!b || c->state != CORE_RUNNING)
        return;
    uint32_t w = b->words[i];
    if (!is_cache_op(w))
        return; /* the code at pc changed since the hook was added */
    uint32_t ea = core_read_gpr(c, (w >> 21) & 31) + (uint32_t)(int32_t)(int16_t)(w & 0xFFFFu);
    uint32_t phys = mips_phys(ea);
    if (ea >= 0x80000000u && ea < 0xC0000000u && phys < c->cfg->ram_size)
        smc_invalidate(c, phys & ~(SMC_LINE - 1), SMC_LINE);
    if (c->cache && ea >= 0x80000000u && ea < 0xC0000000u)
        cache_op(c, w, ea);
}

bool smc_scan_block(Core *c, const Block *b)
{
    bool added = false;
    for (uint32_t i = 0; i < b->ninsns; i++) {
        uint32_t addr = b->addr + 4 * i;
        if (!is_cache_op(b->words[i]))
            continue;
        if (!c->cache_hooked)
            c->cache_hooked = g_hash_table_new(NULL, NULL);
        if (g_hash_table_contains(c->cache_hooked, GUINT_TO_POINTER(addr)))
            continue;
        uc_hook h;
        if (uc_hook_add(c->uc, &h, UC_HOOK_CODE, (void *)cache_hook, c, addr, addr) != UC_ERR_OK)
            continue;
        g_hash_table_add(c->cache_hooked, GUINT_TO_POINTER(addr));
        added = true;
    }
    return added;
}

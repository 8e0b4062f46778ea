// SPDX-License-Identifier: GPL-2.0-or-later
/* uncached.c — RAM through kseg1 is uncached (SPEC section 1): each data
 * load or store there costs what a device access costs (1 + `mmio`, under
 * both models), charged at its instruction as mmio.c charges a device
 * access, and the L1 cache model never sees it.
 *
 * Unicorn's memory hooks get the physical address only, and kseg0 and
 * kseg1 name the same physical RAM; a UC_HOOK_MEM_READ/WRITE hook, whatever
 * its range, sends every load and store of the engine down the slow path
 * (docs/performance.md 5b: ~7x on kseg0-only code, measured again with a
 * hook on this alias's range alone: 0.06 s -> 0.40 s on cpu-1e8). So RAM is
 * mapped a second time at CORE_UNC_PHYS as an MMIO region whose callbacks
 * read and write the same host memory (c->ram), and the TLB fill hook
 * (exc.c) sends kseg1 data accesses there; instruction fetches from kseg1
 * still go to RAM itself (QEMU runs no code from MMIO). Only the alias's
 * pages take Unicorn's MMIO path: kseg0 accesses and the block hook are
 * untouched.
 *
 * Unicorn 2.1.1 makes more than one MMIO access for some instructions:
 * lwl/lwr the byte, then the aligned word; swl/swr one per byte; ldc1,
 * sdc1 and the 8-byte COP1X ones two words; a successful sc a read, then
 * the write. The instruction is charged once, at its first. */
#include "emu/core_priv.h"

#include "emu/uc_check.h"

/* The engine accesses instruction w, whose first is at phys, makes */
static unsigned accesses(const Core *c, uint32_t w, uint32_t phys)
{
    unsigned lmask = c->img->big_endian ? (phys & 3u) : (phys & 3u) ^ 3u;
    switch (w >> 26) {
    case 0x22u: case 0x26u: return 2;          /* lwl, lwr */
    case 0x2Au: return 4u - lmask;             /* swl: byte by byte */
    case 0x2Eu: return 1u + lmask;             /* swr */
    case 0x35u: case 0x3Du: case 0x38u: return 2; /* ldc1, sdc1; sc */
    case 0x13u:                                /* COP1X: the doubles */
        return ((w & 63u) == 0x01u || (w & 63u) == 0x05u || (w & 63u) == 0x09u || (w & 63u) == 0x0Du) ? 2 : 1;
    default: return 1;
    }
}

/* A kseg1 access of RAM at phys: its instruction charged 1 + `mmio` (once
 * per instruction). False when the core stopped before it. */
static bool unc_begin(Core *c, uint32_t phys, bool write)
{
    Block *b = core_current_block(c);
    if (b && c->unc.block == b && c->unc.count == b->count && c->unc.left && (phys & ~3u) - c->unc.word < 8u) {
        c->unc.left--; /* the same instruction's next access */
        return true;
    }
    int i = exc_locate_in(c, LOC_MEM_KSEG1, phys);
    if (b)
        block_poll_never(c, b);
    c->unc.block = b;
    c->unc.count = b ? b->count : 0;
    c->unc.word = phys & ~3u;
    c->unc.left = b && i >= 0 && (uint32_t)i < b->ninsns ? accesses(c, b->words[i], phys) - 1u : 0;
    /* what flat charged the instruction's class for the access (sc: `store`) */
    const Timing *t = &c->cfg->timing;
    unsigned cls = b && i >= 0 && (uint32_t)i < b->ninsns ? mips_classify(b->words[i])
                                                         : write ? MIPS_STORE : MIPS_LOAD;
    unsigned ram = t->model != TIMING_FLAT ? 0
                 : ((cls & MIPS_LOAD) ? t->load : 0) + ((cls & MIPS_STORE) ? t->store : 0);
    if (!mmio_charge(c, i, exc_insn_pc(c, i), exc_insn_cycle(c, i), ram))
        return false;
    c->unc_acc[(cls & MIPS_STORE) != 0]++; /* PerfCnt event 33 (cp0_perf.c) */
    return true;
}

static uint64_t unc_read(uc_engine *uc, uint64_t offset, unsigned size, void *opaque)
{
    Core *c = opaque;
    (void)uc;
    uint32_t phys = (uint32_t)offset;
    if (c->state != CORE_RUNNING || size > 8 || offset + size > c->cfg->ram_size || !unc_begin(c, phys, false))
        return 0;
    uint64_t v = 0;
    for (unsigned k = 0; k < size; k++)
        v |= (uint64_t)c->ram[phys + k] << (8u * (c->img->big_endian ? size - 1 - k : k));
    if (G_UNLIKELY(c->dres.block)) /* then the D-cache's accesses after it (dcache.c) */
        dcache_after_uncached(c);
    return v;
}

static void unc_write(uc_engine *uc, uint64_t offset, unsigned size, uint64_t value, void *opaque)
{
    Core *c = opaque;
    (void)uc;
    uint32_t phys = (uint32_t)offset;
    if (c->state != CORE_RUNNING || size > 8 || offset + size > c->cfg->ram_size || !unc_begin(c, phys, true))
        return;
    for (unsigned k = 0; k < size; k++)
        c->ram[phys + k] = (uint8_t)(value >> (8u * (c->img->big_endian ? size - 1 - k : k)));
    /* past the write protection of code pages (smc.c): look at it here */
    smc_stored(c, phys, size);
    if (G_UNLIKELY(c->dres.block)) /* then the D-cache's accesses after it (dcache.c) */
        dcache_after_uncached(c);
}

bool unc_map(Core *c, GError **error)
{
    return uc_check(uc_mmio_map(c->uc, CORE_UNC_PHYS, c->cfg->ram_size, unc_read, c, unc_write, c),
                    error, "core %u: map RAM's uncached alias", c->id);
}

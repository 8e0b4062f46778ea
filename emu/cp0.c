// SPDX-License-Identifier: GPL-2.0-or-later
/* cp0.c — the CP0 registers Unicorn does not model: Count, Compare and
 * Cause (SPEC section 1), exact to the cycle.
 *
 * Unicorn exposes only Status, Config3 and UserLocal, its Count never
 * ticks and its Cause never shows our interrupt lines. Blocks keep their
 * instruction words (block.c), so the few instructions that touch these
 * registers are found when a block is first seen: `mfc0 rt, $9/$13`,
 * `mfc0 rt, $11` (Unicorn keeps no Compare either), `mtc0 rt,
 * $9/$11/$13/$12` and `di`/`ei`. For each, a UC_HOOK_CODE hook is
 * added for exactly that address (plus one on the next instruction when
 * it runs in the same block), the block's translation is dropped
 * (uc_ctl_remove_cache) and the block restarts, uncharged: only those
 * instructions ever call a hook, code without them costs nothing.
 *
 * The hook runs before its instruction, with the registers current:
 * - mtc0 Count/Compare/Cause: the value of rt is recorded at the cycle
 *   the instruction runs (the instruction itself then runs natively and
 *   changes nothing we read).
 * - mtc0 Status, di, ei: the next block boundary re-evaluates interrupts.
 * - mfc0 Count/Compare/Cause: the value at that cycle is computed, the native
 *   instruction runs (and loads a meaningless value), and the value is
 *   written to rt before the next instruction runs: by the hook on the
 *   next instruction of the same block, or else (the mfc0 ends its block,
 *   e.g. in a delay slot) at the next block boundary. No PC is rewritten,
 *   so branches and delay slots are never disturbed.
 *
 * Count(t) = count_base + floor(t / count_divisor) (mod 2^32) at core
 * cycle t. The CP0 timer becomes pending at the cycle Count becomes equal
 * to Compare, and stays pending until Compare is written.
 */
#include "emu/core_priv.h"

#include "nocprof/platform.h"

#define OP_COP0 0x10u
#define CP0_MF 0x00u
#define CP0_MT 0x04u
#define CP0_MFMC0 0x0Bu
/* Cause bits software may write (IV, IP1, IP0); DC is not modelled */
#define CAUSE_TI 0x40000000u
#define CP0_ERROR_EPC 30u
#define CP0_RANDOM 1u
#define CP0_WIRED 6u
#define CP0_TLB_ENTRIES 16u  /* the 24Kf as Unicorn builds it (Config1.MMUSize 15) */
#define CP0_EBASE 15u        /* select 1 (select 0 is PRId: Unicorn's, 0x00019300) */
#define CP0_CONFIG 16u       /* select 1: Config1 */
/* rdhwr rt, $1 (SYNCI_Step), any rt; its rd is given a number no CP0 register has */
#define RDHWR_SYNCI_STEP 0x7C00083Bu
#define HWR_SYNCI_STEP 0x101u
/* Config1 of Unicorn's 24Kf less its cache fields (IS IL IA DS DL DA) and
 * with PC: M, MMUSize 15, WR, CA, EP, FP (MIPS32 PRA, Config1) */
#define CONFIG1_BASE 0x9E00000Fu
#define CONFIG1_PC 0x10u
/* IntCtl (MIPS32 PRA): IPTI 7 and IPPCI 7, the CP0 timer and the
 * performance counters' overflow both on IP7 (cp0_perf.c); VS 0 (no
 * vectored interrupts: writes are ignored) */
#define INTCTL_VALUE 0xFC000000u

typedef enum { CP0_NONE, CP0_READ, CP0_WRITE, CP0_STATUS, CP0_PERF } Cp0Kind;
#define CAUSE_PCI 0x04000000u

/* What a word does to the registers this file models. */
static Cp0Kind cp0_kind(uint32_t w, unsigned *rt, unsigned *rd)
{
    if ((w & 0xFFE0FFFFu) == RDHWR_SYNCI_STEP) {
        *rt = (w >> 16) & 31;
        *rd = HWR_SYNCI_STEP;
        return CP0_READ;
    }
    if ((w >> 26) != OP_COP0)
        return CP0_NONE;
    unsigned rs = (w >> 21) & 31;
    *rt = (w >> 16) & 31;
    *rd = (w >> 11) & 31;
    bool pw;
    unsigned psel;
    if (*rd == 25u && cp0_perf_decode(w, &pw, &psel, rt)) /* PerfCtl/PerfCnt: register 25 */
        return CP0_PERF;                                    /* cp0_perf.c */
    if (rs == CP0_MFMC0 && *rd == NP_CP0_STATUS && (w & 0x7DFu) == 0)
        return CP0_STATUS;                                  /* di, ei */
    if (rs == CP0_MF && (w & 0x7FFu) == 1 && (*rd == CP0_EBASE || *rd == CP0_CONFIG || *rd == NP_CP0_STATUS))
        return CP0_READ;                                    /* EBase, Config1, IntCtl: select 1 */
    if ((rs != CP0_MF && rs != CP0_MT) || (w & 0x7FFu) != 0) /* sel 0 only */
        return CP0_NONE;
    if (rs == CP0_MF)
        return (*rd == NP_CP0_COUNT || *rd == NP_CP0_COMPARE || *rd == NP_CP0_CAUSE || *rd == CP0_RANDOM)
            ? CP0_READ : CP0_NONE;
    if (*rd == NP_CP0_STATUS)
        return CP0_STATUS;
    if (*rd == NP_CP0_EPC || *rd == CP0_ERROR_EPC || *rd == CP0_WIRED)
        return CP0_WRITE;
    return (*rd == NP_CP0_COUNT || *rd == NP_CP0_COMPARE || *rd == NP_CP0_CAUSE) ? CP0_WRITE : CP0_NONE;
}

/* A write that may make an interrupt takable at the next instruction:
 * Status (mtc0, ei, di), Compare, Count. */
static bool irq_write(uint32_t w)
{
    unsigned rt, rd;
    Cp0Kind k = cp0_kind(w, &rt, &rd);
    return k == CP0_STATUS || (k == CP0_WRITE && (rd == NP_CP0_COMPARE || rd == NP_CP0_COUNT));
}

void cp0_init(Core *c)
{
    c->cp0.divisor = c->cfg->count_divisor ? c->cfg->count_divisor : 1;
    c->cp0.hooked = g_hash_table_new(NULL, NULL);
    cp0_perf_init(c);
    cp0_rearm(c, 0);
}

void cp0_clear(Core *c)
{
    if (c->cp0.hooked)
        g_hash_table_destroy(c->cp0.hooked);
}

uint32_t cp0_count(const Core *c, uint64_t t)
{
    return c->cp0.count_base + (uint32_t)(t / c->cp0.divisor);
}

/* The cycle (after `now`) at which Count next becomes Compare. */
void cp0_rearm(Core *c, uint64_t now)
{
    uint64_t d = c->cp0.divisor, n = now / d;
    uint64_t k = (uint32_t)(c->cp0.compare - c->cp0.count_base - (uint32_t)n);
    if (k == 0)
        k = UINT64_C(1) << 32;
    c->cp0.cmp_at = (n + k) * d;
    c->cp0.match_at = MIN(c->cp0.cmp_at, c->cp0.perf_at);
}

/* The CP0 timer line at cycle t (a match at or before t has happened). */
static bool timer_pending(const Core *c, uint64_t t)
{
    return c->cp0.ti || c->cp0.cmp_at <= t;
}

void cp0_fire_due(Core *c, uint64_t now)
{
    while (c->cp0.cmp_at <= now) {
        c->cp0.ti = true;
        c->cp0.cmp_at += (UINT64_C(1) << 32) * c->cp0.divisor;
    }
    cp0_perf_fire(c, now);
    c->cp0.match_at = MIN(c->cp0.cmp_at, c->cp0.perf_at);
}

bool cp0_timer_line(const Core *c)
{
    return c->cp0.ti || c->cp0.pci;
}

/* Cause at cycle t: BD = 0 and ExcCode = 0 always (interrupts are taken
 * only at block boundaries, never between a branch and its delay slot;
 * no other exception is delivered), TI = IP7 = the CP0 timer, IP2 = the
 * IRQC output, plus the software-written bits. */
static uint32_t cause_at(Core *c, uint64_t t, uint32_t pc)
{
    if (!core_sync_point(c, t, pc))
        return 0; /* halted: the mfc0 does not complete */
    uint32_t v = c->cp0.cause_sw;
    if (core_irqc_output(c))
        v |= NP_CAUSE_IP2;
    if (timer_pending(c, t))
        v |= NP_CAUSE_IP7 | CAUSE_TI;
    if (c->cp0.pci || c->cp0.perf_at <= t)
        v |= NP_CAUSE_IP7 | CAUSE_PCI;
    return v;
}

/* Cause as it stands at cycle t without a sync point (for a debugger,
 * which must not wait for other cores): IP2 as of the last sync point. */
uint32_t cp0_cause_peek(Core *c, uint64_t t)
{
    uint32_t v = c->cp0.cause_sw;
    if (core_irqc_output(c))
        v |= NP_CAUSE_IP2;
    if (timer_pending(c, t))
        v |= NP_CAUSE_IP7 | CAUSE_TI;
    return v;
}

/* Random at cycle t, per core and deterministic: as on the 24K it counts
 * down by one every cycle from 15 (the top TLB entry) to Wired and wraps
 * to 15; reset and every Wired write set it to 15 (MIPS32 PRA, Random and
 * Wired registers). Unicorn's own Random is a generator shared by every
 * engine of the process (QEMU cpu_mips_get_random): never used. */
static uint32_t cp0_random(const Core *c, uint64_t t)
{
    uint32_t wired = c->cp0.wired < CP0_TLB_ENTRIES ? c->cp0.wired : 0;
    uint64_t n = CP0_TLB_ENTRIES - wired, d = t >= c->cp0.wired_at ? t - c->cp0.wired_at : 0;
    return CP0_TLB_ENTRIES - 1 - (uint32_t)(d % n);
}

static unsigned log2u(unsigned v)
{
    unsigned n = 0;
    while (v > 1u) {
        v >>= 1;
        n++;
    }
    return n;
}

/* Config1's S, L, A fields of a cache (MIPS32 PRA: sets 64 << S, 7 for 32
 * sets; line 2 << L; A + 1 ways), saturated where a [cache] geometry is
 * beyond them (more than 8 ways, fewer than 32 or more than 4096 sets). */
static uint32_t config1_cache(unsigned size, unsigned ways, unsigned line)
{
    unsigned sets = size / line / ways;
    unsigned s = sets <= 32u ? 7u : MIN(log2u(sets) - 6u, 6u);
    return s << 6 | (log2u(line) - 1u) << 3 | (MIN(ways, 8u) - 1u);
}

/* Config1 as the platform is: the [cache] geometry (whether or not the
 * cache model is on: the caches are the 24K's, they just all hit) and the
 * performance counters (cp0_perf.c). */
static uint32_t cp0_config1(const Core *c)
{
    const CacheCfg *k = &c->cfg->cache;
    return CONFIG1_BASE | CONFIG1_PC | config1_cache(k->icache_size, k->icache_ways, k->line) << 16
           | config1_cache(k->dcache_size, k->dcache_ways, k->line) << 7;
}

/* A value read by a hooked mfc0 (or rdhwr) at cycle t. */
static uint32_t read_value(Core *c, unsigned rd, uint64_t t, uint32_t pc)
{
    switch (rd) {
    case NP_CP0_COUNT: return cp0_count(c, t);
    case NP_CP0_COMPARE: return c->cp0.compare;
    case CP0_RANDOM: return cp0_random(c, t);
    case CP0_EBASE: return 0x80000000u | (c->id & 0x3FFu); /* CPUNum = core id */
    case CP0_CONFIG: return cp0_config1(c);
    case NP_CP0_STATUS: return INTCTL_VALUE;          /* select 1: IntCtl */
    case HWR_SYNCI_STEP: return c->cfg->cache.line;
    default: return cause_at(c, t, pc);
    }
}

static void record_write(Core *c, unsigned rd, uint32_t v, uint64_t t)
{
    switch (rd) {
    case CP0_WIRED:
        c->cp0.wired = v & 0x3Fu;
        c->cp0.wired_at = t;
        return;
    case NP_CP0_COUNT:
        c->cp0.count_base = v - (uint32_t)(t / c->cp0.divisor);
        cp0_fire(c, t);
        break;
    case NP_CP0_COMPARE:
        cp0_fire(c, t);
        c->cp0.compare = v;
        c->cp0.ti = false;
        break;
    case NP_CP0_EPC:
        c->cp0.epc = v;
        return;
    case CP0_ERROR_EPC:
        c->cp0.error_epc = v;
        return;
    default: /* Cause */
        c->cp0.cause_sw = v & CP0_CAUSE_SW_MASK;
        return;
    }
    cp0_rearm(c, t);
    core_update_next_event(c);
}

/* A value computed for rt by an mfc0 reaches the register now. */
void cp0_apply_fix(Core *c)
{
    c->cp0.fix_pending = false;
    core_rare(c, CORE_RARE_FIX, false);
    core_uc_ok(c, uc_reg_write(c->uc, UC_MIPS_REG_0 + (int)c->cp0.fix_reg, &c->cp0.fix_val), "write mfc0 result");
}

/* mfc0/mtc0 of PerfCtl/PerfCnt (cp0_perf.c): a read's value reaches rt
 * as for Count; a write may move the next CP0 event. */
static void perf_hook(Core *c, const Block *b, uint32_t i, uint64_t t)
{
    bool write;
    unsigned sel, rt;
    cp0_perf_decode(b->words[i], &write, &sel, &rt);
    uint32_t v = cp0_perf_access(c, write, sel, write ? core_read_gpr(c, rt) : 0, t, b, i);
    if (write) {
        c->cp0.match_at = MIN(c->cp0.cmp_at, c->cp0.perf_at);
        core_update_next_event(c);
    } else if (rt != 0) {
        c->cp0.fix_val = v;
        c->cp0.fix_reg = rt;
        c->cp0.fix_pending = true;
        core_rare(c, CORE_RARE_FIX, true);
        if (i + 1 >= b->ninsns)
            core_set_deadline(c, 0);
    }
}

static void cp0_hook(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    Core *c = opaque;
    uint32_t pc = (uint32_t)address;
    if (c->cp0.fix_pending)
        cp0_apply_fix(c);
    Block *b = core_current_block(c);
    if (!b || pc < b->addr || pc >= b->addr + b->size || c->state != CORE_RUNNING)
        return;
    uint32_t i = (pc - b->addr) / 4;
    unsigned rt, rd;
    uint64_t t = exc_insn_cycle(c, (int)i);
    if (i > 0 && irq_write(b->words[i - 1]) && core_irq_check_here(c, pc, t))
        return; /* the block ended before pc (an interrupt taken there) */
    Cp0Kind k = cp0_kind(b->words[i], &rt, &rd);
    if (k == CP0_WRITE) {
        record_write(c, rd, core_read_gpr(c, rt), t);
    } else if (k == CP0_STATUS) {
        dcache_status(c); /* Status.CU1 may change */
        if (((b->words[i] >> 21) & 31) == CP0_MT && ((core_read_gpr(c, rt) >> 3) & 3))
            c->ksu_written = true; /* user mode possible from now on (exc.c) */
        c->next_event = 0; /* interrupts may become deliverable */
        core_set_deadline(c, 0);
    } else if (k == CP0_PERF) {
        perf_hook(c, b, i, t);
    } else if (k == CP0_READ && rt != 0) {
        c->cp0.fix_val = read_value(c, rd, t, pc);
        c->cp0.fix_reg = rt;
        c->cp0.fix_pending = true;
        core_rare(c, CORE_RARE_FIX, true);
        if (i + 1 >= b->ninsns) /* ends its block: the next boundary writes rt */
            core_set_deadline(c, 0);
    }
}

static bool hook_at(Core *c, uint32_t addr)
{
    if (g_hash_table_contains(c->cp0.hooked, GUINT_TO_POINTER(addr)))
        return false;
    uc_hook h;
    if (!core_uc_ok(c, uc_hook_add(c->uc, &h, UC_HOOK_CODE, (void *)cp0_hook, c, addr, addr), "hook a CP0 access"))
        return false;
    g_hash_table_add(c->cp0.hooked, GUINT_TO_POINTER(addr));
    return true;
}

bool cp0_scan_block(Core *c, const Block *b)
{
    bool added = false;
    for (uint32_t i = 0; i < b->ninsns; i++) {
        unsigned rt, rd;
        Cp0Kind k = cp0_kind(b->words[i], &rt, &rd);
        if (k == CP0_NONE)
            continue;
        added |= hook_at(c, b->addr + 4 * i);
        if ((k == CP0_READ || k == CP0_PERF || irq_write(b->words[i])) && i + 1 < b->ninsns)
            added |= hook_at(c, b->addr + 4 * (i + 1));
    }
    return added;
}

uint32_t core_read_cp0(Core *c, unsigned reg)
{
    uint64_t t = c->cycles;
    switch (reg) {
    case NP_CP0_COUNT: return cp0_count(c, t);
    case NP_CP0_COMPARE: return c->cp0.compare;
    case NP_CP0_CAUSE: return cause_at(c, t, 0);
    case NP_CP0_STATUS: return core_reg(c, UC_MIPS_REG_CP0_STATUS);
    case NP_CP0_EPC: return c->cp0.epc;
    case CP0_RANDOM: return cp0_random(c, t);
    default: return 0;
    }
}

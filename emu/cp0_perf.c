// SPDX-License-Identifier: GPL-2.0-or-later
/* cp0_perf.c — the 24K's performance counters (SPEC section 1): CP0
 * register 25, select 0 PerfCtl0, 1 PerfCnt0, 2 PerfCtl1, 3 PerfCnt1.
 *
 * Accesses are found and hooked with the CP0 machinery of cp0.c (the
 * `mfc0`/`mtc0` of a new block get a code hook; a read's value reaches
 * rt before the next instruction). Nothing is counted while the guest
 * runs: a counter is a start value plus the difference of a cumulative
 * event count between now and when it was last written, and those counts
 * are what the profile reports (core cycles; instructions, loads, stores
 * and branches from the block counts, the executing block's instructions
 * from the hooked one on taken back). So firmware reading its counters
 * gets what the profile says.
 *
 * PerfCtl: bit 31 M (another pair follows: 1 in PerfCtl0), bits 11..5
 * the event, bit 4 IE (interrupt on overflow), bits 3..0 U, S, K, EXL
 * (count in that mode). Events (24K SUM, performance counter events
 * table): 0 cycles and 1 instructions completed on both counters; on
 * PerfCnt0 2 branches completed, 15 loads completed, 41 MDU stall cycles,
 * 45 load-to-use stall cycles; on PerfCnt1 15 stores completed, 41 FPU
 * stall cycles; with the cache model ([cache] enabled, cache.c) 9
 * I-cache accesses (PerfCnt0) and misses (PerfCnt1), 10 D-cache accesses
 * (PerfCnt0) and write-backs (PerfCnt1), 11 D-cache misses (both; loads
 * and stores), 13 store misses (PerfCnt0) and load misses (PerfCnt1),
 * 37 the cycles I-cache misses (PerfCnt0) and D-cache misses and their
 * dirty victims (PerfCnt1) cost; 14 integer (PerfCnt0) and FPU
 * (PerfCnt1) instructions, 17 no-ops and MDU instructions, 19 sc (0:
 * failed sc), 23 exceptions taken (PerfCnt0: interrupts), 33 uncached
 * loads and stores; the event numbers of FreeBSD's hwpmc_mips24k.c; any other event
 * counts nothing (docs/timing.md). The cache counts are the cache's own,
 * kept as they happen (an I-cache lookup when its block is entered).
 * Modes (MIPS32 PRA, PerfCtl): the core always runs in kernel mode, so
 * K counts outside interrupt handlers and EXL inside them (from the
 * interrupt's entry to its eret); U and S count nothing. A counter whose
 * mode changes at an entry or eret keeps its value meanwhile
 * (cp0_perf_switch).
 *
 * Overflow: while IE is set and bit 31 of a cycle-counting counter is 1,
 * Cause.PCI (bit 26) is set and the CP0 timer line (IP7, shared with the
 * timer as on the 24K) is raised; the cycle it becomes 1 is scheduled like
 * a Compare match (cp0.c), exactly. A counter of another event raises it
 * at the first block boundary after it crosses (rearm: perf_chk).
 */
#include "emu/core_priv.h"

#define PERF_REG 25u
#define CTL_M 0x80000000u
#define CTL_IE 0x10u
#define CTL_EXL 0x1u
#define CTL_K 0x2u
#define CTL_EVENT(v) (((v) >> 5) & 0x7Fu)
#define CTL_WRITABLE 0x00000FFFu

enum { EV_CYCLES = 0, EV_INSNS = 1, EV_BRANCHES = 2, EV_ICACHE = 9, EV_DCACHE_ACCESS = 10, EV_DCACHE_MISS = 11,
       EV_ST_LD_MISS = 13, EV_INT_FPU = 14, EV_LDST = 15, EV_NOP_MDU = 17, EV_SC = 19, EV_EXCEPTIONS = 23,
       EV_UNCACHED = 33, EV_MISS_STALL = 37, EV_MDU_FPU_STALL = 41, EV_LOAD_STALL = 45 };

/* The CP0_XK_ kinds of instruction word w (docs/timing.md): FPU, every
 * COP1 instruction and COP1X's arithmetic (not its loads and stores);
 * MDU, mult/multu/div/divu, mfhi/mflo/mthi/mtlo, mul, madd/maddu,
 * msub/msubu; no-op, an instruction writing a GPR that names $0; sc;
 * integer, any other that is not a load, store, control transfer,
 * trap, break, syscall, eret, wait, CP0/COP2/COP1X, cache, pref or sync. */
static unsigned word_kinds(uint32_t w)
{
    unsigned cls = mips_classify(w), op = w >> 26, f = w & 63, k = 0;
    bool mem = (cls & (MIPS_LOAD | MIPS_STORE)) != 0;
    bool fpu = op == 0x11 || (op == 0x13 && !mem);
    bool mdu = (op == 0x00 && ((f >= 0x10 && f <= 0x13) || (f >= 0x18 && f <= 0x1b)))
             || (op == 0x1c && (f <= 0x02 || f == 0x04 || f == 0x05));
    bool other = mem || (cls & (MIPS_BRANCH | MIPS_ERET | MIPS_WAIT | MIPS_TRAP | MIPS_BREAK | MIPS_SYSCALL))
               || op == 0x10 || op == 0x12 || op == 0x13 || op == 0x2f || op == 0x33 || (op == 0x00 && f == 0x0f);
    if (fpu)
        k |= 1u << CP0_XK_FPU;
    if (mdu)
        k |= 1u << CP0_XK_MDU;
    if (!fpu && !mdu && !other)
        k |= 1u << CP0_XK_INT;
    if (mips_writes_zero(w))
        k |= 1u << CP0_XK_NOP;
    if (op == 0x38)
        k |= 1u << CP0_XK_SC;
    return k;
}

/* Instructions of kind xk that b's runs completed (its words of that
 * kind, found once, times its count, less its runs cut before them). */
static uint64_t block_kind(Block *b, unsigned xk)
{
    if (!b->xk_known) {
        for (uint32_t i = 0; i < b->ninsns; i++)
            if (!block_skipped(b, i)) {
                unsigned k = word_kinds(b->words[i]);
                for (unsigned x = 0; x < CP0_NXK; x++)
                    b->xk[x] = (uint16_t)(b->xk[x] + ((k >> x) & 1));
            }
        b->xk_known = true;
    }
    uint64_t n = b->count * b->xk[xk];
    for (uint32_t i = 0; b->xcut && i < b->ninsns; i++)
        if (b->xcut[i] && !block_skipped(b, i) && ((word_kinds(b->words[i]) >> xk) & 1))
            n -= b->xcut[i];
    return n;
}

/* Instructions of kind xk completed before instruction i of the current
 * block b (the current block is counted whole: not yet from i on). */
static uint64_t kind_events(Core *c, unsigned xk, const Block *b, uint32_t i)
{
    uint64_t sum = 0;
    for (unsigned k = 0; k < c->blocks->len; k++)
        sum += block_kind(g_ptr_array_index(c->blocks, k), xk);
    for (uint32_t k = i; b && k < b->ninsns; k++)
        if (!block_skipped(b, k))
            sum -= (word_kinds(b->words[k]) >> xk) & 1;
    return sum;
}

bool cp0_perf_decode(uint32_t w, bool *write, unsigned *sel, unsigned *rt)
{
    unsigned rs = (w >> 21) & 31;
    if ((w >> 26) != 0x10u || (rs != 0 && rs != 4) || ((w >> 11) & 31) != PERF_REG || (w & 0x7F8u))
        return false;
    *write = rs == 4;
    *sel = w & 7;
    *rt = (w >> 16) & 31;
    return *sel < 4;
}

/* Stall cycles waited for cause `why` (24k, inside blocks: the profile's
 * stall_cycles) before instruction i of the current block b. */
static uint64_t stall_events(Core *c, unsigned why, const Block *b, uint32_t i)
{
    uint64_t sum = 0, w[BLOCK_NWAIT];
    for (unsigned k = 0; k < c->blocks->len; k++) {
        block_waits(g_ptr_array_index(c->blocks, k), w);
        sum += w[why];
    }
    if (!b || c->cfg->timing.model != TIMING_24K || !b->ninsns)
        return sum;
    /* the current block is counted whole: take back its waits from i on */
    g_autofree uint16_t *icost = g_new(uint16_t, b->ninsns);
    g_autofree uint8_t *cause = g_new(uint8_t, b->ninsns);
    T24Result r = { .why = cause };
    t24_block(&c->cfg->timing, b->words, b->ninsns, b->addr, NULL, icost, NULL, &r);
    bool uncached = b->addr >= 0xA0000000u && b->addr < 0xC0000000u;
    for (uint32_t k = i; k < b->ninsns; k++)
        if (cause[k] == why)
            sum -= icost[k] - 1u - (uncached ? c->cfg->timing.mmio : 0);
    return sum;
}

/* Cumulative count of event ev of counter n before instruction i of the
 * current block b (at cycle t): the profile's own counts (block.c). */
static uint64_t events(Core *c, unsigned n, unsigned ev, uint64_t t, const Block *b, uint32_t i)
{
    int kind;
    if (ev == EV_CYCLES)
        return t;
    if (ev == EV_ICACHE)
        return cache_count(c, n == 0 ? CACHE_I_ACCESS : CACHE_I_MISS);
    if (ev == EV_DCACHE_ACCESS)
        return cache_count(c, n == 0 ? CACHE_D_ACCESS : CACHE_D_WBACK);
    if (ev == EV_ST_LD_MISS)
        return cache_count(c, n == 0 ? CACHE_D_WMISS : CACHE_D_RMISS);
    if (ev == EV_DCACHE_MISS)
        return cache_count(c, CACHE_D_RMISS) + cache_count(c, CACHE_D_WMISS);
    if (ev == EV_MISS_STALL) { /* what the misses charged: the I-cache's, the rest the D-cache's */
        uint64_t icyc = cache_count(c, CACHE_I_MISS) * c->cfg->cache.miss_penalty;
        return n == 0 ? icyc : cache_count(c, CACHE_CYCLES) - icyc;
    }
    if (ev == EV_LOAD_STALL && n == 0)
        return stall_events(c, T24_WAIT_LOAD, b, i);
    if (ev == EV_MDU_FPU_STALL)
        return stall_events(c, n == 0 ? T24_WAIT_MDU : T24_WAIT_FPU, b, i);
    if (ev == EV_INT_FPU || ev == EV_NOP_MDU || (ev == EV_SC && n == 0)) {
        static const unsigned xk[2][2] = { { CP0_XK_INT, CP0_XK_FPU }, { CP0_XK_NOP, CP0_XK_MDU } };
        return kind_events(c, ev == EV_SC ? CP0_XK_SC : xk[ev == EV_NOP_MDU][n], b, i);
    }
    if (ev == EV_EXCEPTIONS)
        return n == 0 ? c->irq.count : 0;
    if (ev == EV_UNCACHED)
        return c->unc_acc[n];
    if (ev == EV_INSNS)
        kind = -1;
    else if (ev == EV_LDST)
        kind = n == 0 ? BLOCK_EV_LOADS : BLOCK_EV_STORES;
    else if (ev == EV_BRANCHES && n == 0)
        kind = BLOCK_EV_BRANCHES;
    else
        return 0;
    uint64_t sum = 0, e[BLOCK_NEV];
    for (unsigned k = 0; k < c->blocks->len; k++) {
        const Block *x = g_ptr_array_index(c->blocks, k);
        if (kind < 0) {
            sum += block_instructions(x);
        } else {
            block_events(x, e);
            sum += e[kind];
        }
    }
    /* the current block is counted whole: not yet its instructions from i */
    for (uint32_t k = i; b && k < b->ninsns; k++)
        if (!block_skipped(b, k))
            sum -= kind < 0 ? 1 : (block_word_events(b->words[k]) >> kind) & 1;
    return sum;
}

/* Whether a counter with control ctl counts in the context irq (an
 * interrupt handler) or not. */
static bool counts_in(uint32_t ctl, bool irq) { return (ctl & (irq ? CTL_EXL : CTL_K)) != 0; }

static bool counting(const Core *c, uint32_t ctl) { return counts_in(ctl, c->irq.in); }

static uint32_t value_at(Core *c, unsigned n, uint64_t t, const Block *b, uint32_t i)
{
    PerfCounter *p = &c->cp0.perf[n];
    if (!counting(c, p->ctl))
        return p->val;
    return p->val + (uint32_t)(events(c, n, CTL_EVENT(p->ctl), t, b, i) - p->ev);
}

/* Restart counter n's count from value v at cycle t. */
static void restart(Core *c, unsigned n, uint32_t v, uint64_t t, const Block *b, uint32_t i)
{
    PerfCounter *p = &c->cp0.perf[n];
    p->val = v;
    p->ev = events(c, n, CTL_EVENT(p->ctl), t, b, i);
}

/* How many events ev of counter n can happen per cycle at most (0: it
 * never changes while the core runs): one per instruction, which takes a
 * cycle at least, for instructions, loads, stores, branches and stall
 * cycles (a miss's included); up to four D-cache accesses, misses or write-backs per
 * instruction (Unicorn makes an swl/swr one access per byte), one I-cache
 * line per instruction; none for an event this model does not count. */
static unsigned event_rate(const Core *c, unsigned n, unsigned ev)
{
    switch (ev) {
    case EV_INSNS:
    case EV_LDST:
    case EV_INT_FPU:
    case EV_NOP_MDU:
    case EV_UNCACHED:      /* an instruction each, 1 + mmio cycles at least */
        return 1;
    case EV_SC:
    case EV_EXCEPTIONS:    /* an entry each, and the stub's instruction */
        return n == 0;
    case EV_BRANCHES:
        return n == 0;
    case EV_LOAD_STALL:
        return n == 0 && c->cfg->timing.model == TIMING_24K;
    case EV_MDU_FPU_STALL:
        return c->cfg->timing.model == TIMING_24K;
    case EV_ICACHE:
    case EV_MISS_STALL:
        return c->cache != NULL;
    case EV_DCACHE_ACCESS:
    case EV_DCACHE_MISS:
    case EV_ST_LD_MISS:
        return c->cache ? 4 : 0;
    default:
        return 0;
    }
}

/* The cycle (>= t) at which PCI next rises, or UINT64_MAX; pci: now.
 * A counter of cycles rises at a known cycle (perf_at, exact). One of
 * another event cannot cross bit 31 before (2^31 - value) / rate cycles
 * have passed: perf_chk is that cycle, where the first block boundary
 * looks again (cp0_perf_recheck). So the crossing is seen at the first
 * boundary after it, as a Compare match is; an idle core counts none of
 * these events, so its sleep never stops for them. */
static void rearm(Core *c, uint64_t t, const Block *b, uint32_t i)
{
    c->cp0.pci = false;
    c->cp0.perf_at = UINT64_MAX;
    c->cp0.perf_chk = UINT64_MAX;
    for (unsigned n = 0; n < 2; n++) {
        PerfCounter *p = &c->cp0.perf[n];
        if (!(p->ctl & CTL_IE))
            continue;
        uint32_t v = value_at(c, n, t, b, i);
        unsigned ev = CTL_EVENT(p->ctl), rate = event_rate(c, n, ev);
        if (v & CTL_M) {
            c->cp0.pci = true;
        } else if (counting(c, p->ctl) && ev == EV_CYCLES) {
            uint64_t at = t + (CTL_M - v);
            c->cp0.perf_at = MIN(c->cp0.perf_at, at);
        } else if (counting(c, p->ctl) && rate) {
            uint64_t at = t + MAX(1u, (CTL_M - v) / rate);
            c->cp0.perf_chk = MIN(c->cp0.perf_chk, at);
        }
    }
}

void cp0_perf_recheck(Core *c, uint64_t now)
{
    /* at a block boundary: every counted block has run (as at a switch) */
    rearm(c, now, NULL, 0);
    c->cp0.match_at = MIN(c->cp0.cmp_at, c->cp0.perf_at);
}

void cp0_perf_fire(Core *c, uint64_t now)
{
    if (c->cp0.perf_at <= now) {
        c->cp0.pci = true;
        c->cp0.perf_at = UINT64_MAX;
    }
}

uint32_t cp0_perf_access(Core *c, bool write, unsigned sel, uint32_t v, uint64_t t, const Block *b, uint32_t i)
{
    unsigned n = sel >> 1;
    PerfCounter *p = &c->cp0.perf[n];
    if (!write) {
        if (sel & 1)
            return value_at(c, n, t, b, i);
        return (p->ctl & CTL_WRITABLE) | (n == 0 ? CTL_M : 0);
    }
    if (sel & 1) {
        restart(c, n, v, t, b, i);
    } else {
        uint32_t now_val = value_at(c, n, t, b, i);
        p->ctl = v & CTL_WRITABLE;
        restart(c, n, now_val, t, b, i);
    }
    rearm(c, t, b, i);
    return 0;
}

void cp0_perf_switch(Core *c, bool irq, uint64_t t)
{
    bool any = false;
    for (unsigned n = 0; n < 2; n++) {
        PerfCounter *p = &c->cp0.perf[n];
        if (counts_in(p->ctl, c->irq.in) == counts_in(p->ctl, irq))
            continue;
        /* at a block boundary: every counted block has run */
        p->val = value_at(c, n, t, NULL, 0);
        p->ev = events(c, n, CTL_EVENT(p->ctl), t, NULL, 0);
        any = true;
    }
    c->irq.in = irq;
    if (any) {
        rearm(c, t, NULL, 0);
        c->cp0.match_at = MIN(c->cp0.cmp_at, c->cp0.perf_at);
    }
}

void cp0_perf_init(Core *c)
{
    c->cp0.perf_at = UINT64_MAX;
    c->cp0.perf_chk = UINT64_MAX;
    for (unsigned n = 0; n < 2; n++)
        c->cp0.perf[n] = (PerfCounter){ 0 };
    c->cp0.pci = false;
}

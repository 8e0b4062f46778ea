// SPDX-License-Identifier: GPL-2.0-or-later
/* core_priv.h — the Core and Block structs, shared only by emu/core.c,
 * block.c, sample.c, exc.c and mmio.c. Nothing outside emu/ includes it. */
#ifndef NOCPROF_CORE_PRIV_H
#define NOCPROF_CORE_PRIV_H

#include <unicorn/unicorn.h>

#include "emu/core.h"
#include "emu/dev.h"
#include "platform/mips.h"
#include "emu/timing_24k.h"

#define CORE_STUB_VADDR 0xBFC00000u
#define CORE_STUB_PHYS 0x1FC00000u
/* RAM's uncached alias (uncached.c): data accesses through kseg1 go to
 * CORE_UNC_PHYS + their physical address (RAM is at most 256 MiB) */
#define CORE_UNC_PHYS 0x20000000u
#define CORE_NSLOTS 4u            /* device windows */

#define BLOCK_MEMO 4            /* (previous, block) interlock pairs kept */
/* The kinds of instruction the performance counters count besides
 * loads, stores and branches (cp0_perf.c): integer, FPU, no-op (a $0
 * destination), multiply/divide unit, sc */
enum { CP0_XK_INT, CP0_XK_FPU, CP0_XK_NOP, CP0_XK_MDU, CP0_XK_SC, CP0_NXK };

struct Block {
    /* cache line 0 (block_new allocates blocks 64-byte aligned): all
     * the unprofiled hook reads and writes of a block, and its checks
     * but $sp's */
    uint32_t key;              /* block_hook_plain's lookup compares it
                                  with address + size (core_slot_key):
                                  addr + size, BLOCK_KEY_ATTN when attn
                                  (then block_miss takes it) */
    uint32_t fallthrough;      /* addr + size; 1 (no address) when its
                                  branch is always taken */
    uint32_t bt;               /* extra cycles when its branch is taken
                                  (24k: with the next block's wait for
                                  what it left pending) */
    uint32_t bnt;              /* 24k: the wait of its fall-through block */
    uint32_t cost;             /* static cycles */
    uint8_t qk;                /* block_leave: chk | BLOCK_QK_PEND (if
                                  rt_pend) when that is all that leaving
                                  it checks (no attn_out, no
                                  BLOCK_CHK_SLOW, the register file
                                  known), else BLOCK_QK_SLOW:
                                  boundary_quick's tests */
    uint8_t leave;             /* attn_out | rt_pend | chk, kept by
                                  block_leave: block_hook's one test */
    bool attn;                 /* watch: entering it takes the hook's
                                  slow path */
    uint8_t aq;                /* block_leave: leaving it for the client's
                                  arrival (boundary_arrive's quick form):
                                  chk | BLOCK_QK_PEND (if rt_pend) | its
                                  kind (BLOCK_AQ_*) when the checks of
                                  chk are all there is; 0 otherwise */
    uint64_t count;            /* executions */
    int64_t extra;             /* cycles charged besides count * cost
                                  (taken branches, device accesses) */
    const volatile uint32_t *jr_reg; /* BLOCK_CHK_JR: that register in the
                                  engine's register file (Core.gpr +
                                  jr_rs; NULL without one): the hook's
                                  check is one load less */
    uint64_t pend_f, use_f;    /* 24k: pend_mask and pend_ag, use_mask and
                                  base_mask in one filter for
                                  block_hook_plain (block_filter_24k):
                                  they meet whenever those do */
    /* line 1: the client's view (BLOCK_VIEW_AT), and the rest */
    BlockView view;            /* block_view() (BLOCK_VIEW_AT); kept by
                                  block_publish() */
    uint32_t addr, size;       /* bytes */
    int64_t sp_dip;            /* BLOCK_CHK_SP: how far below its final $sp
                                  a $sp inside it may be (stack.c); 64
                                  bits: the hook's check is one
                                  subtraction and one comparison */
    bool attn_out;             /* flags & arrive_mask: leaving it does */
    uint32_t ninsns;
    unsigned flags;            /* mips_classify() of its control instruction,
                                  or BLOCK_IRQ_ENTRY for the marker */
    uint32_t branch_pc;        /* address of that instruction (0 if none) */
    uint32_t branch_insn;      /* that instruction */
    uint64_t lost;             /* instructions of its executions cut short
                                  (exit, fault) that did not run */
    uint32_t tag;              /* the client's (CoreHooks.block_tag) */
    bool watch;                /* the client wants every arrival here */
    bool rt_pend;              /* 24k: it leaves results pending and its
                                  successor is known only at run time
                                  (jr, jalr, eret, page end): leaving it
                                  takes the slow path (entry_stall) */
    uint32_t pend_ag, base_mask; /* 24k: GPRs pending only as an address
                                  base at its end, and read as a base */
    uint64_t pend_mask;        /* 24k: results still pending at its end */
    uint64_t use_mask;         /* 24k: what it reads before writing it;
                                  entered from a block whose pend_mask
                                  meets it, it waits (block.c) */
    bool sp_write;             /* it may lower $sp: leaving it checks the
                                  stack (stack.c) */
    uint8_t chk;               /* BLOCK_CHK_*: what leaving it checks in the
                                  hook's fast path (boundary_quick) */
    uint8_t jr_rs;             /* BLOCK_CHK_JR: its jump register */
    bool arr_ok;               /* leaving it for the client's arrival needs
                                  none of boundary_fast's rarer cases (no
                                  CORE_ARRIVE_SLOW flag, no jalx): kept by
                                  block_leave */
    bool jr_hooked;            /* its delay slot may write its jump
                                  register: jr_hook saves the target
                                  (Core.jr_saved), leaving it takes the
                                  slow path (exc_scan_block) */
    bool jr_free;              /* a register jump the engine itself faults
                                  at an odd target (Core.no_mips16): no
                                  check when it is left */
    uint8_t sp_n;              /* its $sp writes (at most 4 listed) */
    uint16_t sp_at[4];         /* their indices, in order */
    uint16_t *icost;           /* [ninsns] cycles of each instruction
                                  (at most 1 + 1000 + 1000) */
    uint32_t *words;           /* [ninsns] the instructions, host order */
    int8_t pollable;           /* -1 unknown; 1: a one-block idempotent
                                  loop around its one load (poll skip) */
    uint16_t *mem;             /* [nmem] indices of its loads and stores */
    struct LocMem *locmem;     /* [ninsns] locate.c: how each load/store
                                  finds its address (NULL: not yet) */
    uint32_t nmem;
    T24Exit *pend;             /* 24k: what it leaves pending (NULL: none) */
    T24Use *uses;              /* 24k: its first reads (t24_entry_wait) */
    uint8_t nuses;
    bool stalls;               /* 24k: waits inside it: a wait at its start
                                  needs the exact pass (memoised) */
    uint32_t ds_cost;          /* BLOCK_SPLIT: its delay slot's static
                                  cycles (0: not known yet), for ds_word */
    uint32_t ds_word;
    uint8_t memo_next;
    const Block *memo_from[BLOCK_MEMO]; /* 24k: the last blocks it was
                                  entered from with an interlock across
                                  the boundary */
    uint32_t memo_stall[BLOCK_MEMO]; /* and the cycles that interlock cost */
    uint32_t first_use;        /* 24k: index of its first instruction
                                  reading something of use_mask (0 when
                                  none: where its entry stall goes) */
    uint32_t nev[BLOCK_NEV];   /* loads, stores, branches ... per execution */
    uint32_t wait[T24_NWAIT];  /* 24k: its static waits by cause, per execution */
    uint64_t lost_ev[BLOCK_NEV]; /* of them, in the instructions `lost` */
    uint64_t lost_wait[T24_NWAIT]; /* 24k: the waits of the instructions `lost` */
    uint8_t *skip;             /* [ninsns] 1: a word that never runs, the
                                  slot a never-taken likely branch skips
                                  (QEMU: pc += 4; NULL: none) */
    uint32_t nskip;            /* of them, 1s */
    uint16_t xk[CP0_NXK];      /* cp0_perf.c: its words of each kind the
                                  counters' other events count, once
                                  xk_known */
    bool xk_known;
    uint64_t igen;             /* cache.c: the I-cache's gen after its last
                                  fetch (0: none, or lines share a set) */
    uint32_t ilines;           /* cache.c: the I-cache lines it spans */
    uint64_t *cmiss;           /* [BLOCK_NMISS][ninsns] cache misses by
                                  instruction (cache.c; NULL: none) */
    uint64_t *xcut;            /* [ninsns] the runs cut short before each
                                  instruction (lose; NULL: none) */
    int64_t *xcyc;             /* [ninsns] the cycles of `extra` charged on
                                  rare paths, by instruction: cache misses,
                                  entry stalls, device accesses, cycles
                                  taken back (block_note_extra; NULL:
                                  none). The rest of extra is its branch's */
    struct DPlan *dplan;       /* dcache.c: its loads and stores, when
                                  [cache] d_model = predict (NULL: none) */
    bool live;                 /* its words are watched: it may still run
                                  (smc.c); false once memory changed */
};

#define BLOCK_IRQ_ENTRY (1u << 30)  /* the interrupt marker block */
#define BLOCK_SPLIT (1u << 29)      /* ends with a branch whose delay slot is
                                       the next block (page end) */
#define BLOCK_EVAL (1u << 28)       /* conditional branch to its own
                                       fall-through: taken-ness needs the
                                       registers */
#define BLOCK_SPIN (1u << 27)       /* it ends a loop of one or two blocks
                                       that only a change of RAM it does not
                                       write could end (block_spin_mark): a
                                       failed iteration is a wait
                                       (block_spin_failed) */
/* Block.chk: leaving the block, the hook's fast path checks with plain
 * loads from the register file (c->gpr) that nothing is due: */
#define BLOCK_CHK_JR 1u   /* a register jump's target is even (exc_odd_target) */
#define BLOCK_CHK_SP 2u   /* $sp stays above the lowest seen and the limit */
#define BLOCK_CHK_SLOW 4u /* it may lower $sp in a way only stack_check follows */
#define BLOCK_KEY_ATTN 1u /* Block.key: odd, never an address + size */
#define BLOCK_QK_PEND 8u    /* Block.qk: rt_pend (24k): what b reads must not be pending */
#define BLOCK_QK_SLOW 0x80u /* Block.qk: more than that to check */
/* Block.aq: the kind of arrival leaving it makes (one bit: as a byte
 * offset, its entry of Core.arrive_to, CORE_ARRIVE_TO); none: not quick */
#define BLOCK_AQ_RET 0x10u  /* jr $ra */
#define BLOCK_AQ_CALL 0x20u /* a branch or jump, not jr/jalr without link */
#define BLOCK_AQ_GEN 0x40u  /* any other */
#define BLOCK_AQ_KIND 0x70u
/* The entry of Core.arrive_to for aq's kind: aq & BLOCK_AQ_KIND is its
 * byte offset (one instruction) */
#define CORE_ARRIVE_TO(c, aq) (c)->arrive_to[((aq) & BLOCK_AQ_KIND) / sizeof(CoreArriveFn *)]

/* What leaving b needs, in one byte for block_hook's fast test and one
 * for boundary_quick's: set once attn_out, rt_pend and chk are
 * (block_new, inherit_branch); regs: the core reads its registers as
 * plain loads (c->gpr). */
/* Flags of a block whose leaving always takes the hook's slow path (the
 * client's calls and returns take its fast arrival) */
#define CORE_ARRIVE_SLOW (MIPS_ERET | MIPS_LIKELY | BLOCK_IRQ_ENTRY | BLOCK_SPLIT | BLOCK_EVAL | BLOCK_SPIN)

static inline void block_leave(Block *b, bool regs)
{
    b->leave = (uint8_t)(b->attn_out | b->rt_pend | b->chk);
    b->qk = (uint8_t)(b->attn_out || (b->chk & BLOCK_CHK_SLOW) || (b->chk && !regs) || b->jr_hooked
                      ? BLOCK_QK_SLOW : b->chk | (b->rt_pend ? BLOCK_QK_PEND : 0u));
    b->arr_ok = !(b->flags & CORE_ARRIVE_SLOW) && !MIPS_IS_JALX(b->branch_insn) && !b->jr_hooked;
    unsigned f = b->flags;
    unsigned kind = (f & (MIPS_ERET | MIPS_JREG | MIPS_LINK | MIPS_RETURN)) == (MIPS_JREG | MIPS_RETURN)
                    ? BLOCK_AQ_RET
                    : (f & (MIPS_ERET | MIPS_BRANCH)) == MIPS_BRANCH && (!(f & MIPS_JREG) || (f & MIPS_LINK))
                    ? BLOCK_AQ_CALL : BLOCK_AQ_GEN;
    bool quick = b->arr_ok && !(b->chk & BLOCK_CHK_SLOW) && !(b->chk && !regs)
                 && (!(f & MIPS_JREG) || (b->chk & BLOCK_CHK_JR) || b->jr_free) && (!b->sp_write || (b->chk & BLOCK_CHK_SP));
    b->aq = (uint8_t)(quick ? b->chk | (b->rt_pend ? BLOCK_QK_PEND : 0u) | kind : 0u);
}

typedef struct Histogram {
    uint32_t period;
    uint64_t next;             /* cycle of the next sample */
    uint64_t *bins;            /* per instruction of [lo, hi) */
    uint64_t idle, outside, total;
} Histogram;

/* A performance counter (cp0_perf.c): PerfCtl, and its value `val` when
 * the event count was `ev` */
typedef struct PerfCounter {
    uint32_t ctl, val;
    uint64_t ev;
} PerfCounter;

#define CP0_CAUSE_SW_MASK 0x00800300u /* Cause bits software writes: IV, IP1..0 */

/* CP0 Count/Compare/Cause (cp0.c) */
typedef struct Cp0 {
    uint32_t divisor;          /* [clock] count_divisor */
    uint32_t count_base;       /* Count(t) = count_base + t / divisor */
    uint32_t compare;
    uint64_t match_at;         /* min(cmp_at, perf_at): the next CP0 event */
    uint64_t cmp_at;           /* cycle Count next becomes Compare */
    PerfCounter perf[2];       /* PerfCtl/PerfCnt 0 and 1 (cp0_perf.c) */
    uint64_t perf_at;          /* cycle a counter's overflow bit rises */
    uint64_t perf_chk;         /* a counter of another event may cross
                                  bit 31 from this cycle on: look again
                                  at the first boundary (cp0_perf.c) */
    bool pci;                  /* Cause.PCI: a counter overflowed */
    bool ti;                   /* CP0 timer pending (Cause.IP7, TI) */
    uint32_t cause_sw;         /* Cause bits software wrote (IV, IP1..0) */
    uint32_t epc, error_epc;   /* as last written (mtc0, interrupt entry):
                                  an eret to an odd one faults (exc.c) */
    uint32_t wired;            /* Wired as last written, and the cycle */
    uint64_t wired_at;         /* (Random counts down from 15 since then) */
    GHashTable *hooked;        /* addresses with a code hook */
    bool fix_pending;          /* an mfc0's value still to reach rt (and CORE_RARE_FIX) */
    unsigned fix_reg;
    uint32_t fix_val;
} Cp0;

/* The cycle limit cuts block `block` after its instructions before `end`
 * (block_limit_cut): `run` while that prefix runs, `slack` = the static
 * cycles of the instructions cut away. Written by block.c only. */
typedef struct CoreCut {
    Block *block;
    uint32_t end;
    bool run;
    uint64_t slack;
} CoreCut;

/* Poll skip: the block whose failed poll may repeat (NULL: none), the
 * cycle that iteration started, the poll's offset in cycles from it and
 * its address, and whether it polled for room to send, or spun on RAM
 * (block_spin_failed). Written by block.c only (block_poll_failed arms
 * it, the next boundary disarms it). */
typedef struct CorePoll {
    Block *blk;
    uint64_t s0;
    uint32_t off, pc;
    bool tx, ram;
} CorePoll;

/* The search for the instruction of each access in one execution (the
 * `count`-th) of `block`: `next` is the index of its next instruction that
 * may be a device access (exc_locate_access). Written by exc.c only. */
typedef struct CoreScan {
    const Block *block;
    uint64_t count;
    uint32_t next;
} CoreScan;

/* Device accesses in one execution (the `count`-th) of `block`: `delta`,
 * the cycles they charged over their static costs so far; the last one
 * with an extra cost: instruction `insn`, starting at cycle `at`, `extra`
 * cycles over its static cost (0: none yet). Written by mmio.c only
 * (block_truncate takes one back through mmio_access_undo). */
typedef struct CoreAccess {
    const Block *block;
    uint64_t count;
    int64_t delta;
    uint32_t insn;
    uint64_t at;
    int64_t extra;
    /* its last cache miss charged (cache.c): instruction, start, cycles;
     * sample_untake walks from it when it is later than the access */
    uint32_t miss_insn;
    uint64_t miss_at;
    int64_t miss_extra;
} CoreAccess;

/* True when c->acc describes the execution of b under way. */
#define CORE_ACC_OF(c, b) ((c)->acc.block == (b) && (c)->acc.count == (b)->count)

/* Interrupts delivered (`count`); `in` from the delivery to the handler's
 * eret, which began at cycle `start`; `cycles` spent in handlers before
 * it. Written by core.c only (block.c reports the eret: core_irq_return). */
typedef struct CoreIrq {
    uint64_t count, start, cycles;
    bool in;
} CoreIrq;

typedef struct CodePage CodePage;    /* smc.c */
typedef struct CoreCache CoreCache;  /* cache.c */

typedef struct DevSlot {
    const DevOps *ops;
    void *opaque;
} DevSlot;

struct Core {
    /* cache line 0 (core_new allocates the core 64-byte aligned): what
     * the unprofiled hook reads and writes */
    uint64_t cycles;
    uint64_t deadline;         /* min(next_event, next_sample): a block ending
                                  past it takes the hook's slow path;
                                  atomic (relaxed): core_request_yield
                                  zeroes it from other threads */
    Block *prev;               /* the block that ran last, for locating
                                  accesses and charging; never NULL:
                                  `none` when no transfer is pending,
                                  `irq_marker` when the interrupt vector
                                  is about to be entered */
    const volatile uint32_t *gpr; /* the engine's register file (gpr.c), or
                                  NULL: read through uc_reg_read */
    int64_t sp_floor;          /* MAX(sp_low, sp_limit): stack.c (64
                                  bits: see Block.sp_dip) */
    uint32_t slot_bytes;       /* slot_mask << 2: an address masked with
                                  it, times 2, is its entry's byte offset
                                  (no shift) */

    void *raw;                 /* the allocation the core is aligned in */
    unsigned id, ncores;
    uc_engine *uc;
    const Config *cfg;
    const ElfImage *img;
    CoreState state;
    int exit_code;
    CoreFault fault;

    uint32_t pc;               /* where the next uc_emu_start begins */
    uint64_t idle_cycles;
    uint64_t slice_end;        /* run no further than this (the horizon) */
    uint64_t next_event, next_sample;
    uint64_t next_sample2;     /* the next sample of any other period */
    unsigned next_hist;        /* the period whose sample is next_sample */
    uint32_t rare;             /* CORE_RARE_*: what the quick arrival
                                  (boundary_arrive) must not miss, in one
                                  word; atomic (relaxed, read-modify-write:
                                  core_request_yield sets its bit from
                                  other threads), kept by the writers */
    uint64_t idle_from;
    bool stopping;
    bool no_mips16;            /* core_drop_mips16: no target to check */
    bool in_run;               /* inside core_run's uc_emu_start: a halt
                                  there is told to the debugger when it
                                  returns, once the access it stopped in
                                  is taken back (block_truncate) */
    uint64_t waits;
    CoreIrq irq;               /* interrupt handlers (core.c) */

    Block none, irq_marker;    /* prev's stand-ins (above) */
    unsigned arrive_mask;      /* prev->flags that need the slow path */
    uint32_t nslots;           /* btab entries in RAM (ram_size / 4) */
    uint32_t slot_mask;        /* btab's length - 1: the power of two at
                                  or above nslots, less 1 (entries past
                                  nslots stay NULL); block_hook_plain's
                                  lookup masks with it instead of testing
                                  the bound (an address past RAM lands on
                                  a block of another address: a miss) */
    CoreScan scan;             /* locating accesses (exc.c) */
    CoreAccess acc;            /* device accesses' cycles (mmio.c) */

    intptr_t *btab;            /* [slot_mask + 1] by physical address / 4:
                                  the live block starting there, as its
                                  distance from `none` (0: none, whose
                                  key never matches: the hooks test no
                                  NULL); core_slot / core_slot_set. The
                                  same allocation as the core, right
                                  after it (CORE_BTAB) */
    bool block_limit_hit;      /* stopped at [limits] blocks */
    GPtrArray *blocks;         /* every Block, owned */

    /* code written at run time (smc.c) */
    uint8_t *ram;              /* RAM's host memory (mmap) */
    CodePage **pages;          /* [ram_size / 4096]: NULL before code ran there */
    GHashTable *versions;      /* every Block translated, keyed by its
                                  address, size and words (smc.c) */
    GHashTable *cache_hooked;  /* synci/cache addresses with a code hook */
    uint32_t split_lo;         /* RAM above: one region until code lands
                                  on a page (split then, smc.c) */
    uint32_t nsplit;           /* pages split off since */
    uint64_t nprotect;         /* protection changes (core_smc_protects) */
    bool smc_splitting;        /* smc.c is splitting a region: the TLB
                                  fill hook maps Unicorn's own lookups */

    /* devices */
    SysDev sys;
    TimerDev timer;
    IrqcDev irqc;
    DevSlot dev[CORE_NSLOTS];
    Cp0 cp0;
    CoreCache *cache;          /* [cache] enabled: the L1 caches, else NULL */
    /* dcache.c: the accesses of the execution (the `count`-th) of `block`
     * still to look up from `next` on, after its device access */
    struct { const Block *block; uint64_t count; uint32_t next; } dres;
    /* uncached.c: the last kseg1 data access charged, in the execution
     * (the `count`-th) of `block`: the word it touched, and how many more
     * engine accesses its instruction makes (lwl, swl, ldc1, sc ...) */
    struct { const Block *block; uint64_t count; uint32_t word; unsigned left; } unc;
    uint64_t unc_acc[2];       /* uncached data loads [0] and stores [1]
                                  (devices and kseg1 RAM, one per
                                  instruction charged: mmio_charge) */
    struct DState *dstate;     /* dcache.c: the program running now */
    GHashTable *dc_hooked;     /* dcache.c: addresses with its code hook */
    uint32_t dc_ll;            /* dcache.c: the address of the last ll (~0: none) */
    int dc_cu1;                /* dcache.c: Status.CU1 as last read (-1: read it) */

    /* sampling */
    unsigned nhists;
    Histogram *hists;
    unsigned nranges;          /* the histograms' executable ranges */
    CoreRange *ranges;
    unsigned range_hint;       /* the range bin_of found last (sample.c) */
    uint32_t nbins;

    CoreHooks hooks;
    const Block *watch_run;    /* core_watch_run: that block's run ... */
    uint64_t watch_count;      /* ... its count then (the run in progress) */
    /* by Block.aq's kind (CORE_ARRIVE_TO), called once `to` is entered
     * (boundary_arrive): CoreHooks.ret, .call, else arrive_before (the
     * client's arrive, as if `to` were not entered yet) */
    CoreArriveFn *arrive_to[BLOCK_AQ_KIND / sizeof(CoreArriveFn *) + 1];
    CoreSched sched;
    /* where block boundaries publish the clock (sched.lb_pub or lb_own) */
    uint64_t *lb_pub, lb_own;
    uc_hook block_uh;          /* the block hook: block_hook_plain until
                                  core_set_hooks (then block_hook) */
    bool hook_lone;            /* it is block_hook_lone (core_set_sched) */
    /* a CONSOLE write is a sync point and reported (sched.progress): the
     * scheduler's livelock watch has the core waiting (core_watch_console) */
    bool console_sync;
    /* the instruction count for a progress line on another thread
     * (core_publish_instructions), as of cycle insns_at */
    uint64_t insns_pub, insns_at;

    CorePoll poll;             /* poll skip (block.c) */

    /* the target of the register jump that ran last (jr/jalr): saved
     * before its delay slot ran when that slot may write the register
     * (exc.c) */
    bool jr_saved;
    uint32_t jr_target;
    uint32_t jr_from;          /* the address of the block whose leaving
                                  reads jr_target (a stale one is not) */
    GHashTable *jr_hooked;     /* jr/jalr addresses with that code hook */

    CoreCut cut;               /* the cycle limit's cut block (block.c) */

    /* locate.c: markers (addresses with one), the last one reached: in
     * execution mark_count of block mark_blk, instruction mark_idx */
    GHashTable *loc_marked;
    const Block *mark_blk;
    uint64_t mark_count;
    uint32_t mark_idx;
    bool fpe_armed;            /* FCSR enables were written non-zero */
    unsigned fpe_enables;      /* as last written (V Z O U I) */
    /* SPEC 1 Stack (stack.c): $sp at reset, the lowest seen, the ELF's
     * __nocprof_stack_limit (0: none) */
    uint32_t sp_top, sp_low, sp_limit;

    /* an access the TLB fill hook refused (kuseg, kseg2/3, the stub page) */
    bool tlb_miss;
    uint32_t sp_buf, reg_buf;  /* register reads land here (core.c) */
    uint32_t tlb_miss_addr;
    uc_mem_type tlb_miss_type;
    bool tlb_miss_user;        /* refused: a user-mode access to kseg0/1 */
    bool ksu_written;          /* an mtc0 Status wrote KSU != 0 (cp0.c) */

    struct CoreDebug *dbg;     /* a debugger's stops (debug.c), or NULL */
#ifdef NOCPROF_CHECK
    uint64_t chk_cycles;       /* check.c: the clock at the last boundary */
#endif
};

/* Core.btab, found from the core's own address (core_new allocates the
 * table right after the core): the hooks without a client index it
 * without loading the pointer first */
#define CORE_BTAB(c) ((intptr_t *)(void *)((c) + 1))

/* A btab entry's block: `none` when the slot is empty (none.key is
 * BLOCK_KEY_ATTN, no address + size: every lookup misses), so the hook
 * dereferences it without a test. Integer arithmetic: the blocks are
 * other allocations. */
static inline Block *core_slot_at(const Core *c, intptr_t e)
{
    return (Block *)((uintptr_t)&c->none + (uintptr_t)e);
}

/* The live block at slot idx (< slot_mask + 1), or NULL. */
static inline Block *core_slot(const Core *c, uint32_t idx)
{
    intptr_t e = c->btab[idx];
    return e ? core_slot_at(c, e) : NULL;
}

static inline void core_slot_set(Core *c, uint32_t idx, const Block *b)
{
    c->btab[idx] = b ? (intptr_t)((uintptr_t)b - (uintptr_t)&c->none) : 0;
}

/* What Block.key is compared with: a block's address + size is unique
 * among the addresses of one slot, since they differ by multiples of
 * 4 * (slot_mask + 1) >= CORE_MIN_SLOTS * 4 and a translation's size is
 * below that (one 4 KiB page at most). A MIPS16 translation at an
 * address 2 past a block's could share its sum: only a register jump
 * or eret gets there, and their leaving is always checked (Block.qk),
 * the check's failure looking the block up again exactly (block_miss). */
#define CORE_MIN_SLOTS 4096u
static inline uint32_t core_slot_key(uint32_t addr, uint32_t size)
{
    return addr + size;
}

/* The hooks' lookup: the block of addr's slot, never NULL (`none` when
 * empty), with no bound test: (addr & 0x1FFFFFFF) / 4 below nslots
 * (slot_mask < 2^27), else a slot of another address (a miss). As a byte
 * offset, (addr & slot_mask << 2) * 8 / 4: no shift (Core.slot_bytes);
 * btab from the core's address, not a load (CORE_BTAB; a byte offset,
 * else GCC adds the displacement to the 32-bit index: one more). The
 * caller compares the key or the address and size. */
static inline Block *core_slot_lookup(const Core *c, uint32_t addr)
{
    uintptr_t off = (uintptr_t)(addr & c->slot_bytes) * (sizeof(intptr_t) / 4);
    return core_slot_at(c, *(const intptr_t *)(const void *)((const char *)CORE_BTAB(c) + off));
}

/* check.c: the invariants of c's state at a block boundary (assertions;
 * checking builds only, NOCPROF_CHECK). CORE_CHECK_RUN: a run begins (the
 * clock may have been set back meanwhile: a restored state). */
#ifdef NOCPROF_CHECK
void core_check(Core *c);
#define CORE_CHECK(c) core_check(c)
#define CORE_CHECK_RUN(c) ((c)->chk_cycles = (c)->cycles)
#else
#define CORE_CHECK(c) ((void)0)
#define CORE_CHECK_RUN(c) ((void)0)
#endif

/* debug.c */
typedef struct CoreDebug CoreDebug;
void core_debug_free(Core *c);

/* core.c */
void core_stop(Core *c, CoreState state);
void core_update_next_event(Core *c);
/* Slow path of the block hook: timer, limit, interrupt, slice end. True
 * when the block at addr must not run now. */
bool core_events(Core *c, uint32_t addr, bool delay_slot);
uint32_t core_reg(Core *c, int reg);
/* gpr.c: find the engine's register file (c->gpr) once, at creation. */
void core_locate_gpr(Core *c);
/* isa.c: MIPS16e taken out of c's engine (a jump to an odd address then
 * faults in the engine itself); false: kept, exc_odd_target checks. */
bool core_drop_mips16(Core *c);
/* The engine's CP0 BadVAddr (what its last address error set), read
 * through a saved context; false when unknown. */
bool core_badvaddr(Core *c, uint32_t *addr);
/* fpr.c: the FPU registers $f0-$f31 (each one's low 32 bits) and FCSR,
 * read and written through a saved CPU context; false (registers read 0)
 * when their place in it could not be found. n 32 is
 * FCSR (a write changing FS or RM, or raising a trap, is refused). */
bool core_fpu_read(Core *c, uint32_t fpr[32], uint32_t *fcsr);
bool core_fpu_write(Core *c, unsigned n, uint32_t v);
/* General register n (the hot reads: no call when c->gpr is known). */
static inline uint32_t core_gpr(Core *c, unsigned n)
{
    return G_LIKELY(c->gpr) ? c->gpr[n & 31] : core_reg(c, UC_MIPS_REG_0 + (int)(n & 31));
}
/* Leaving p, the checks of its Block.chk, with plain loads from the
 * register file (c->gpr): true when they find nothing due, false when
 * they cannot tell (then the exact code looks): block.c's
 * fast paths. */

/* Its register jump went to an even target (else exc_odd_target). */
static inline bool block_jr_quick(const Core *c, const Block *p)
{
    const volatile uint32_t *g = c->gpr;
    return p->jr_free || (g && (p->chk & BLOCK_CHK_JR) && !p->jr_hooked && !(g[p->jr_rs] & 1));
}

/* The $sp values inside it are above the lowest seen and the limit (else
 * stack_check walks them). */
static inline bool block_sp_quick(const Core *c, const Block *p)
{
    const volatile uint32_t *g = c->gpr;
    return g && (p->chk & BLOCK_CHK_SP) && (int64_t)g[29] - p->sp_dip >= c->sp_floor;
}

/* 24k: b reads what p left pending (entry_stall), entered at *start. The
 * wait is charged in line when b's memo has it and nothing comes with
 * it: nothing due by b's later end, b's xcyc there for the cycles
 * (charge_stall's work, its samples none); *start moves past it. Else
 * false, nothing changed (boundary_fast). block_arrive.c's; block.c's
 * stall_in_line does the same for block_hook_plain. */
static inline bool block_stall_memo(Core *c, const Block *p, Block *b, uint64_t *start)
{
    unsigned k = 0;
    while (k < BLOCK_MEMO && b->memo_from[k] != p)
        k++;
    if (k == BLOCK_MEMO)
        return false;
    uint64_t st = b->memo_stall[k];
    if (!st)
        return true;
    if (!b->xcyc || *start + b->cost + st > __atomic_load_n(&c->deadline, __ATOMIC_RELAXED))
        return false;
    *start += st;
    b->extra += (int64_t)st;
    b->xcyc[b->first_use] += (int64_t)st;
    return true;
}

/* Before a network-dependent access or test at cycle t (pc: the
 * instruction): the scheduler makes the network exact at t. False when
 * the core was halted meanwhile (it is then stopped before pc). A true
 * return must be paired with core_sync_end after the access, which is
 * false when the machine halted the core meanwhile (it then stops before
 * pc). */
bool core_sync(Core *c, uint64_t t, uint32_t pc);
bool core_sync_end(Core *c, uint32_t pc);
uint32_t core_guest_word(const Core *c, const uint8_t *p);

/* IRQC output: PENDING & ENABLE != 0 (hardware line 0, Cause.IP2). */
bool core_irqc_output(const Core *c);
bool core_irq_check_here(Core *c, uint32_t pc, uint64_t t);
/* An eret reached `now`: the handler being run (if any) ends. */
void core_irq_return(Core *c, uint64_t now);

/* cp0.c */
void cp0_init(Core *c);
void cp0_clear(Core *c);
uint32_t cp0_count(const Core *c, uint64_t t);
void cp0_rearm(Core *c, uint64_t now);
/* Matches of Count and Compare up to `now` make the CP0 timer pending. */
void cp0_fire_due(Core *c, uint64_t now);
/* At a block boundary at or after perf_chk: whether a counter of an
 * event other than cycles has crossed bit 31 (cp0_perf.c). */
void cp0_perf_recheck(Core *c, uint64_t now);
/* The CP0 events due by `now` (a Compare match, a counter's overflow):
 * nothing is due before match_at = min(cmp_at, perf_at), the common case
 * tested in line (it runs at every event boundary). */
static inline void cp0_fire(Core *c, uint64_t now)
{
    if (now >= c->cp0.match_at)
        cp0_fire_due(c, now);
}
/* Cause at cycle t without a sync point (IP2 as of the last one). */
uint32_t cp0_cause_peek(Core *c, uint64_t t);
bool cp0_timer_line(const Core *c);
void cp0_apply_fix(Core *c);
/* Hook the CP0 accesses of a new block: true when the block must be
 * translated again (hooks were added). */
bool cp0_scan_block(Core *c, const Block *b);

/* cp0_perf.c */
void cp0_perf_init(Core *c);
/* w is mfc0/mtc0 of PerfCtl/PerfCnt (select sel, register rt). */
bool cp0_perf_decode(uint32_t w, bool *write, unsigned *sel, unsigned *rt);
/* The access by instruction i of the current block b at cycle t: a read's
 * value, or write v (then cp0.perf_at and cp0.pci are new). */
uint32_t cp0_perf_access(Core *c, bool write, unsigned sel, uint32_t v, uint64_t t, const Block *b, uint32_t i);
/* At a block boundary at cycle t, the core enters (irq) or leaves an
 * interrupt handler: the counters counting in one context only stop or
 * start (PerfCtl K and EXL); sets c->irq.in. */
void cp0_perf_switch(Core *c, bool irq, uint64_t t);
/* perf_at reached by now: PCI rises. */
void cp0_perf_fire(Core *c, uint64_t now);

/* mmio.c */
/* Cause.IP2 is read at cycle t by the instruction at pc: the network is
 * made exact at t (core_sync, as for an IRQC PENDING read) and a TIMER
 * expiry already due fires. False when the core was halted meanwhile
 * (it is then stopped before pc). */
bool core_sync_point(Core *c, uint64_t t, uint32_t pc);

/* block.c */
/* After a run, or when the core stops: publish core_instructions() for
 * core_instructions_published, when the core has stopped or is max(2^18,
 * 64 x its blocks) cycles past the last count (it walks every block, ~1 ns
 * each: at most a few percent of the simulation even at its fastest). */
void core_publish_instructions(Core *c);
void block_hook(uc_engine *uc, uint64_t address, uint32_t size, void *opaque);
/* block_hook for a core without a client (no watched block, no arrival):
 * the same work, fewer tests (block.c) */
void block_hook_plain(uc_engine *uc, uint64_t address, uint32_t size, void *opaque);
/* The boundary at start from p to b (block.c: the hook's own arguments;
 * bt, the cycles of p's branch, end = start + b->cost): every case but a
 * new block. */
void boundary_fast(uint64_t bt, uint64_t start, uint64_t end, Core *c, Block *p, Block *b);
/* block_arrive.c: the same when the client watches it (p->attn_out |
 * b->attn), with its per-kind entry (Core.arrive_to) when nothing else
 * is due. */
void boundary_arrive(uint64_t bt, uint64_t start, uint64_t end, Core *c, Block *p, Block *b);
/* CoreHooks.arrive as a CoreArriveFn called once `to` is entered: taken
 * back for the call (Core.arrive_to). */
CoreArriveFn arrive_before;
/* block_hook_plain without publishing the clock (CoreSched.lone), for
 * [timing] model = flat and 24k (the usual checked leaves of the model
 * first) */
/* block.c, for block_plain.c: what a hook's quick checks did not clear
 * (the client's arrival or everything else), and a lookup that missed,
 * called with the hook's own arguments */
#ifdef __clang__ /* no noipa there (the -Wthread-safety build); noinline is what matters */
#define BLOCK_NOIPA __attribute__((noinline))
#else
#define BLOCK_NOIPA __attribute__((noipa))
#endif
void boundary_other(uint64_t bt, uint64_t start, uint64_t end, Core *c, Block *p, Block *b);
void block_miss(uc_engine *uc, uint64_t address, uint32_t size, void *opaque);
void block_hook_lone(uc_engine *uc, uint64_t address, uint32_t size, void *opaque);
void block_hook_lone_24k(uc_engine *uc, uint64_t address, uint32_t size, void *opaque);
void block_free(gpointer p);
/* The current block stops before end_pc (exit or fault inside it): take
 * back the cycles, instructions and samples of what did not run. */
void block_truncate(Core *c, uint32_t end_pc);
/* core_run: the cycle limit cut a block (c->cut.block): run its prefix
 * up to c->cut.end and stop the core there (CORE_LIMIT). */
void block_run_cut(Core *c);
/* b, entered at start, would end past the cycle limit: stop before it
 * (true), to run only the instructions that complete by the limit
 * (block_limit.c). */
bool block_limit_cut(Core *c, Block *b, uint64_t start);
/* Costs, loads/stores and the control instruction of b's words (pend:
 * b is a real block, not a single word's cost). */
uint32_t block_scan(Core *c, Block *b, bool pend);
/* Word i of b never runs (Block.skip). */
static inline bool block_skipped(const Block *b, uint32_t i) { return b->skip && i < b->ninsns && b->skip[i]; }
/* Cycle at which the current execution of b began. */
uint64_t block_start(const Core *c, const Block *b);
/* The block executing now (NULL between blocks). */
Block *core_current_block(const Core *c);
/* The block executing now when pc is one of its instructions (*idx: its
 * index), else NULL: what a code hook asks first. */
Block *core_block_at(const Core *c, uint32_t pc, uint32_t *idx);

/* block_24k.c (24k) */
/* b's costs and what it leaves pending (pend: a real block). */
void block_cost_24k(Core *c, Block *b, bool pend);
void block_filter_24k(Block *b);
/* b left results pending: the waits of its static successors into
 * bt/bnt, or rt_pend. */
void block_static_successors(Core *c, Block *b);
/* The same for the delay slot `to` split off from `from` (inherit_branch). */
void block_split_successors(Core *c, const Block *from, Block *to);
/* The wait of b entered from rt_pend block p (memoised by the caller). */
uint32_t block_entry_stall_slow(Core *c, const Block *p, Block *b, uint64_t bt);

/* block_poll.c: arm the poll skip after a failed poll by the instruction at pc
 * of the current block, at cycle now. */
/* b touched uncached RAM (uncached.c): never skip it as a poll loop (its
 * iterations' extra cycles are not all the poll's); disarm a skip of it */
void block_poll_never(Core *c, Block *b);
void block_poll_failed(Core *c, uint32_t pc, uint64_t now, bool tx);
/* Entering b again right after its failed poll, at `start`: the cycle it
 * really starts at, iterations the scheduler lets it skip accounted. */
uint64_t block_poll_skip(Core *c, Block *b, uint64_t start);
/* At translation: flag b BLOCK_SPIN when it ends a spin loop (alone, or
 * with the block it branches back to, which falls through into it) that
 * can only wait (mips_wait_loop), the addresses of whose loads and
 * stores the end of an iteration still holds. */
void block_spin_mark(Core *c, Block *b);
/* Leaving BLOCK_SPIN p for b: b begins the loop p ends (p itself, or the
 * first of its two blocks). */
bool block_spin_entry(const Block *p, const Block *b);
/* ... then, at *start (c->cycles: the end of the failed iteration): when
 * its loads and stores went to RAM and none changed what the loop tests,
 * the iteration is a wait, reported at a sync point at *start, and the
 * iterations after it may be skipped (*start moves on; one-block
 * idempotent loops only). True when b must not run now (halted). */
bool block_spin_failed(Core *c, Block *p, Block *b, uint64_t *start);

/* cache.c: the L1 caches ([cache] enabled) */
/* Make c->cache when the cache is enabled (true), else nothing (false). */
bool cache_init(Core *c);
/* The I-cache lookups of poll-loop iterations skipped (block_poll.c): hits. */
void cache_count_skipped(Core *c, uint64_t ilookups);
void cache_free(Core *c);
/* The block hook with the I-cache, the D-cache's RAM access hook. */
void cache_block_hook(uc_engine *uc, uint64_t address, uint32_t size, void *opaque);
void cache_mem_hook(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value,
                    void *opaque);
/* cache or synci instruction w ran with effective address ea. */
void cache_op(Core *c, uint32_t w, uint32_t ea);
/* The D-cache access of instruction i of the current block b, at virtual
 * address ea (kseg0/kseg1, in RAM): what the memory hook does for it. */
void cache_d_at(Core *c, Block *b, uint32_t i, uint32_t ea, bool write);
/* n more accesses that hit (the later bytes of swl/swr) */
void cache_d_hits(Core *c, unsigned n);

/* dcache.c: [cache] d_model = predict */
typedef struct DPlan DPlan;
/* Plan b's loads and stores when first seen; true when code hooks were
 * added (its translation must be made again). */
bool dcache_scan_block(Core *c, Block *b);
/* b was just entered: look its predicted accesses up. */
void dcache_enter(Core *c, Block *b);
/* A device access of the current block completed (mmio.c). */
void dcache_after_device(Core *c, uint32_t value);
/* The kseg1 access the walk paused at was charged (uncached.c): go on. */
void dcache_after_uncached(Core *c);
void dcache_state_free(Core *c);
/* A CP0 access to Status is about to run (cp0.c). */
void dcache_status(Core *c);
/* FPU exceptions were just enabled (locate.c): true when hooks were added. */
bool dcache_fpe_armed(Core *c);
void dcache_free(DPlan *p);

/* smc.c: code written at run time */
/* Map RAM (host memory c->ram) and hook stores into pages holding code. */
bool smc_map_ram(Core *c, GError **error);
void smc_clear(Core *c);
/* A block of that address and size whose words are memory's now, made
 * live again; NULL if none. */
Block *smc_revive(Core *c, uint32_t addr, uint32_t size);
/* A new block: watch its words. */
void smc_track(Core *c, Block *b);
/* Memory at physical [phys, phys + len) changed: drop the blocks and
 * translations over it. */
void smc_invalidate(Core *c, uint32_t phys, uint32_t len);
bool smc_store(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value, void *opaque);
/* The guest stored size bytes at physical phys (RAM) past the write
 * protection (through kseg1: uncached.c): drop the code it overlaps. */
void smc_stored(Core *c, uint32_t phys, uint32_t size);

/* uncached.c: RAM's uncached alias, where data accesses through kseg1 go */
bool unc_map(Core *c, GError **error);
/* Hook the synci/cache instructions of a new block: true when the block
 * must be translated again (hooks were added). */
bool smc_scan_block(Core *c, const Block *b);

/* sample.c */
/* Samples of k repetitions of a one-block loop b from `start`, each
 * `period` cycles: its instructions by their costs, the poll at poll_pc
 * (a device access) with its extra cycles, then the taken branch. */
void sample_loop(Core *c, const Block *b, uint64_t start, uint64_t period, uint64_t k, uint32_t poll_pc);
void sample_init(Core *c);
void sample_clear(Core *c);
void sample_update_next(Core *c);
void sample_range(Core *c, uint64_t to, uint32_t pc);
void sample_block(Core *c, const Block *b, uint32_t before_pc, uint64_t start, uint64_t end);
/* Take back the samples of [cut, c->cycles) inside b, which began at
 * start (each from the instruction it was taken on). */
void sample_untake(Core *c, const Block *b, uint64_t start, uint64_t cut);
/* Instruction i of b, starting at cycle `at`, costs delta cycles over its
 * static cost (a device access): re-place b's samples past `at`. */
void sample_retime(Core *c, const Block *b, uint32_t i, uint64_t at, int64_t delta);

/* exc.c */
void core_raise(Core *c, const char *kind, uint32_t pc, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
int exc_locate_access(Core *c, uint32_t phys);
/* A new execution of b: the access search starts again at its top. */
void exc_scan_restart(Core *c, const Block *b);
uint32_t exc_insn_pc(const Core *c, int i);
uint64_t exc_insn_cycle(const Core *c, int i);
void exc_hook_intr(uc_engine *uc, uint32_t intno, void *opaque);
bool exc_hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t address, int size,
                       int64_t value, void *opaque);

void exc_engine_error(Core *c, uc_err err, uint32_t pc);
/* A new block b ends in jr/jalr whose delay slot may write the jump
 * register: hook the jump to save its target (true: hooks were added, the
 * block must be translated again). */
bool exc_scan_block(Core *c, Block *b);
/* Control went from p to addr: when p's register jump had an odd target
 * (Unicorn would go on in MIPS16 mode at target - 1), the core faults
 * ("misaligned-fetch") and true is returned. */
bool exc_odd_target(Core *c, Block *p, uint32_t addr);
bool exc_hook_tlb_fill(uc_engine *uc, uint64_t vaddr, uc_mem_type type,
                       uc_tlb_entry *result, void *opaque);

/* locate.c: which instruction of the current block raised an event */
typedef struct LocMem LocMem;
void loc_free(LocMem *p);
typedef enum { LOC_MEM, LOC_ALIGN_LD, LOC_ALIGN_ST, LOC_TRAP, LOC_OVERFLOW, LOC_FPE, LOC_MEM_KSEG1 } LocClass;
/* exc.c: exc_locate_access for class k (LOC_MEM or LOC_MEM_KSEG1) */
int exc_locate_in(Core *c, LocClass k, uint32_t phys);
/* Markers for a new block b: true when hooks were added (b must be
 * translated again). */
bool loc_scan_block(Core *c, Block *b);
/* Index of the instruction of class k of the current block, from index
 * `from` on, that raised the event: for LOC_MEM the access of physical
 * address phys (LOC_MEM_KSEG1: through kseg1), for the alignment classes *ea gets its address; -1 if none
 * (no block, or an event of another origin). */
int loc_find(Core *c, LocClass k, uint32_t from, uint32_t phys, uint32_t *ea);
/* FCSR Cause bits (V Z O U I >> 12) FPU instruction w raises now */
unsigned fpe_cause(Core *c, uint32_t w);
/* stack.c */
void stack_scan_block(Block *b);
/* After block p, which may have written $sp: record the lowest $sp; below
 * the stack limit the core faults (stack-overflow) at the instruction
 * that took it there, and true is returned; the fault's registers are
 * those at next, the block after p (CoreFault.regs_pc). */
bool stack_check(Core *c, Block *p, uint32_t next);

/* mmio.c */
/* The last device access with an extra cost (c->acc) did not complete:
 * forget its extra (block_truncate took back its cycles). */
void mmio_access_undo(Core *c);
/* Another file's extra cycles (a cache miss, cache.c) in the execution of
 * b under way, counted with its device accesses' (c->acc.delta); restart:
 * a new execution of b begins. */
void mmio_access_extra(Core *c, const Block *b, int64_t delta);
/* delta cycles of b->extra belong to instruction i (rare paths only:
 * never on the block hook's fast path). */
void block_note_extra(Block *b, uint32_t i, int64_t delta);
void mmio_access_restart(Core *c, const Block *b);
/* Instruction i (-1: not found) at pc, starting at `now`, made an
 * uncached access: charge 1 + `mmio` instead of its static cost, which
 * held `ram` extra cycles for the access (false: the core stopped) */
bool mmio_charge(Core *c, int i, uint32_t pc, uint64_t now, unsigned ram);
uint64_t mmio_read(uc_engine *uc, uint64_t offset, unsigned size, void *opaque);
void mmio_write(uc_engine *uc, uint64_t offset, unsigned size, uint64_t value, void *opaque);

/* A Unicorn call made while the core runs: any result but UC_ERR_OK
 * faults the core ("emulator", naming `what` and Unicorn's message). */
void core_uc_failed(Core *c, uc_err err, const char *what);
static inline bool core_uc_ok(Core *c, uc_err err, const char *what)
{
    if (G_LIKELY(err == UC_ERR_OK))
        return true;
    core_uc_failed(c, err, what);
    return false;
}

/* Core.rare's bits: a yield asked for (core_request_yield: stop at a
 * boundary; only here), and copies of Cp0.fix_pending and CoreCut.run
 * (set and cleared with them: core_rare). */
#define CORE_RARE_YIELD 1u
#define CORE_RARE_FIX 2u
#define CORE_RARE_CUT 4u
static inline void core_rare(Core *c, uint32_t bit, bool on)
{
    if (on)
        __atomic_fetch_or(&c->rare, bit, __ATOMIC_RELAXED);
    else
        __atomic_fetch_and(&c->rare, ~bit, __ATOMIC_RELAXED);
}

/* Every write of deadline (another thread may zero it: core_request_yield). */
static inline void core_set_deadline(Core *c, uint64_t v)
{
    __atomic_store_n(&c->deadline, v, __ATOMIC_RELAXED);
}

/* block_hook's fast path, for cache_block_hook (block_hook keeps its own
 * copy: calling this from it measured 9% slower on cpu-1e9; keep the two
 * in step): entering the known block at addr (size bytes) when neither
 * the previous block nor this one asks for a check and it ends before
 * the deadline, the cycles are accounted and the block is returned;
 * otherwise NULL, nothing done (block_hook then handles it). */
static inline Block *block_enter_quick(Core *c, uint32_t addr, uint32_t size)
{
    uint32_t idx = (addr & 0x1FFFFFFFu) >> 2;
    Block *b = G_LIKELY(idx < c->nslots) ? core_slot(c, idx) : NULL;
    Block *p = c->prev;
    if (G_UNLIKELY(!b || b->size != size || b->addr != addr))
        return NULL;
    uint64_t bt = addr != p->fallthrough ? p->bt : p->bnt;
    uint64_t start = c->cycles + bt;
    uint64_t end = start + b->cost;
    if (G_UNLIKELY(p->attn_out | p->rt_pend | p->chk | b->attn
                   | (end > __atomic_load_n(&c->deadline, __ATOMIC_RELAXED))))
        return NULL;
    p->extra += (int64_t)bt;
    __atomic_store_n(c->lb_pub, start, __ATOMIC_RELEASE);
    c->cycles = end;
    b->count++;
    c->prev = b;
    return b;
}

#endif

/* core.h — one emulated MIPS32 core: a Unicorn instance, its private RAM,
 * its devices (SYS, TIMER, IRQC, NI) and its cycle clock.
 *
 * Time model. The core's clock is `cycles`. A single UC_HOOK_BLOCK hook
 * charges each basic block its static cost (1 cycle per instruction plus
 * the [timing] extras of its loads, stores, multiplies and divides) when
 * the block starts, and `branch_taken` when the next block shows the
 * branch was taken. MMIO accesses cost `mmio` instead of `load`/`store`.
 * Everything the guest can observe (CYCLE_LO, timer expiry, interrupts,
 * NoC timing) is derived from this clock, never from host time.
 *
 * Interrupts are taken at block boundaries by the recipe measured on
 * Unicorn 2.1 (DEVELOPERS.md): $k0 = interrupted PC, Status.EXL = 1,
 * PC = a platform stub at 0xBFC00000 that copies $k0 to EPC and jumps to
 * EBase + 0x180.
 *
 * `wait` ends uc_emu_start by itself (Unicorn halts the CPU); the core is
 * then idle and its clock advances without executing until an interrupt
 * is pending and enabled.
 *
 * The profiler observes the core through CoreHooks; with no hooks the
 * core only counts cycles and samples.
 */
#ifndef NOCPROF_CORE_H
#define NOCPROF_CORE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <unicorn/unicorn.h>

#include "config.h"
#include "elfload.h"
#include "noc.h"

#define CORE_STUB_VADDR 0xBFC00000u
#define CORE_STUB_PHYS 0x1FC00000u
#define CORE_MMIO_PHYS 0x1F000000u
#define CORE_VECTOR 0x80000180u

typedef enum {
    CORE_RUNNING,
    CORE_IDLE,        /* in wait */
    CORE_EXITED,
    CORE_FAULT,
    CORE_LIMIT,
    CORE_DEADLOCK,
    CORE_INTERRUPTED,
} CoreState;

const char *core_state_name(CoreState s);

/* A basic block as Unicorn translated it, keyed by its first address. */
typedef struct Block {
    uint32_t addr, size;       /* bytes */
    uint32_t fallthrough;      /* addr + size; 1 (no address) when its
                                  branch is always taken */
    uint32_t bt;               /* extra cycles when its branch is taken */
    uint32_t ninsns;
    uint32_t cost;             /* static cycles */
    unsigned flags;            /* mips_classify() of its control instruction,
                                  or BLOCK_IRQ_ENTRY for the marker */
    uint32_t branch_pc;        /* address of that instruction (0 if none) */
    uint32_t branch_insn;      /* that instruction */
    uint64_t count;            /* executions */
    int64_t extra;             /* cycles charged besides count * cost
                                  (taken branches, device accesses) */
    int func;                  /* profiler function index, -1 without hooks */
    bool entry;                /* addr is a function's first instruction */
    bool sync;                 /* has accessed the NI or IRQC: a point where
                                  the core waits for the network's time */
    bool attn;                 /* entry || sync: entering it takes the
                                  hook's slow path */
    bool attn_out;             /* flags & arrive_mask: leaving it does */
    void *arc_cache;           /* profiler's: last arc taken from here */
    uint8_t *icost;            /* [ninsns] cycles of each instruction */
    uint32_t *words;           /* [ninsns] the instructions, host order */
    uint16_t *mem;             /* [nmem] indices of its loads and stores */
    uint32_t nmem;
} Block;

#define BLOCK_IRQ_ENTRY (1u << 30)  /* the interrupt marker block */
#define BLOCK_SPLIT (1u << 29)      /* ends with a branch whose delay slot is
                                       the next block (page end) */
#define BLOCK_EVAL (1u << 28)       /* conditional branch to its own
                                       fall-through: taken-ness needs the
                                       registers */

static inline uint64_t block_cycles(const Block *b)
{
    return b->count * b->cost + (uint64_t)b->extra;
}

typedef struct Core Core;

typedef struct CoreHooks {
    void *opaque;
    /* A new block: its function index and whether it starts that function. */
    int (*block_func)(void *opaque, uint32_t addr, bool *entry);
    /* Control reached `to`; `from` is the previous block (its control
     * instruction tells call/jump/return/eret), or NULL when `to` is the
     * interrupt vector just entered. `now` = cycles before `to` runs.
     * Called only when `to` is a function entry, or `from` ended in a
     * register jump (jr/jalr) or eret, or an interrupt was entered. */
    void (*arrive)(void *opaque, Core *core, const Block *from, Block *to, uint64_t now);
    /* An interrupt was taken at `now`; it will return to `epc`. */
    void (*interrupt)(void *opaque, uint32_t epc, uint64_t now);
    /* The core idled in wait over [from, to). */
    void (*idle)(void *opaque, uint64_t from, uint64_t to);
} CoreHooks;

typedef struct CoreFault {
    char *kind;                /* "unmapped-read", "reserved-instruction", "bus-error", "ni-misuse", ... */
    uint32_t pc;
    char *message;
} CoreFault;

typedef struct Histogram {
    uint32_t period;
    uint64_t next;             /* cycle of the next sample */
    uint32_t *bins;            /* per instruction of [lo, hi) */
    uint64_t idle, outside, total;
} Histogram;

typedef void (*ConsoleFn)(void *opaque, unsigned core, const char *line);

struct Core {
    unsigned id, ncores;
    uc_engine *uc;
    const Config *cfg;
    const ElfImage *img;
    Noc *noc;
    CoreState state;
    int exit_code;
    CoreFault fault;

    uint32_t pc;               /* where the next uc_emu_start begins */
    uint64_t cycles, idle_cycles, irq_cycles;
    uint64_t slice_end;        /* run no further than this (the horizon) */
    uint64_t sync_end;         /* end of the current quantum: a sync block
                                  at or past it waits for the network */
    uint64_t next_event, next_sample;
    uint64_t deadline;         /* min(next_event, next_sample): a block ending
                                  past it takes the hook's slow path */
    uint64_t insn_adjust;      /* instructions of partly executed blocks
                                  (exit, fault) that did not run */
    uint64_t irq_start, idle_from;
    bool in_irq, stopping;
    uint64_t interrupts, waits;

    /* current block, for locating accesses and charging; prev is never
     * NULL: `none` when no transfer is pending, `irq_marker` when the
     * interrupt vector is about to be entered */
    Block *prev;
    Block none, irq_marker;
    unsigned arrive_mask;      /* prev->flags that need the slow path */
    uint32_t nslots;           /* btab entries */
    uint32_t blk_scan;         /* next of its loads/stores to match */
    uint64_t scan_count;       /* its count when blk_scan was reset */
    const Block *scan_block;

    Block **btab;              /* [ram_size / 4] by physical address */
    GPtrArray *blocks;         /* every Block, owned */

    /* devices */
    uint32_t timer_ctrl, timer_period;
    uint64_t timer_expiry;     /* UINT64_MAX when not running */
    bool timer_pending;
    uint32_t irq_enable;
    uint32_t cycle_hi_latch;
    unsigned tx_dest, nstaged;
    uint32_t *staged;
    GString *console, *line;
    ConsoleFn console_fn;
    void *console_opaque;

    /* sampling */
    unsigned nhists;
    Histogram *hists;
    uint32_t hist_lo, hist_hi;

    CoreHooks hooks;
};

Core *core_new(unsigned id, const Config *cfg, const ElfImage *img, Noc *noc,
               ConsoleFn console_fn, void *console_opaque, GError **error);
void core_free(Core *c);
void core_set_hooks(Core *c, const CoreHooks *hooks);

/* Run the core from its clock towards `horizon` (block granularity)
 * unless it stops, faults or idles first, or reaches a block that touches
 * the network (NI or IRQC registers) at or past `sync_end`: there it stops
 * before the block, to resume once the network has caught up. */
void core_run(Core *c, uint64_t sync_end, uint64_t horizon);
/* Idle until `until` or until an interrupt wakes it (then it is RUNNING). */
void core_idle(Core *c, uint64_t until);
/* Cycle at which an idle core's own timer would wake it, or UINT64_MAX. */
uint64_t core_wake_cycle(const Core *c);
/* NoC receive or transmit-ready interrupts are enabled in IRQC. */
bool core_irq_network(const Core *c);
/* PENDING & ENABLE != 0. */
bool core_irq_wanted(const Core *c);
/* Stop a live core with a final state (limit, deadlock, interrupted). */
void core_halt(Core *c, CoreState state);

uint32_t core_read_reg(Core *c, int reg);
/* Instructions executed so far (sum over blocks). */
uint64_t core_instructions(const Core *c);
bool core_live(const Core *c);

#endif

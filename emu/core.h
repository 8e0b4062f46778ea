// SPDX-License-Identifier: GPL-2.0-or-later
/* core.h — one emulated MIPS32 core: its private RAM, its devices (SYS,
 * TIMER, IRQC and, when attached, NI) and its cycle clock. The Core is
 * opaque: everything outside emu/ uses the functions below.
 *
 * Time model. The core's clock counts cycles. Each basic block is charged
 * its static cost (1 cycle per instruction plus the [timing] extras of its
 * loads, stores, multiplies and divides) when it starts, and
 * `branch_taken` when the next block shows the branch was taken. MMIO
 * accesses cost `mmio` instead of `load`/`store`. Everything the guest can
 * observe (CYCLE_LO, timer expiry, interrupts, NoC timing) is derived from
 * this clock, never from host time.
 *
 * Interrupts are taken at block boundaries (emu/core.c, docs/design.md "Interrupts"):
 * $k0 = interrupted PC, Status.EXL = 1, PC = a platform stub at 0xBFC00000
 * that copies $k0 to EPC and jumps to EBase + 0x180.
 *
 * `wait` ends a run by itself; the core is then idle and its clock
 * advances without executing until an interrupt is pending and enabled.
 *
 * A client (the profiler) observes the core through CoreHooks; the
 * scheduler (machine.c) decides where a core stops through CoreSched.
 * With neither the core only counts cycles and samples. A core needs no
 * network: the NI device is attached separately (core_map_device), and
 * without it NI accesses are bus errors.
 */
#ifndef NOCPROF_CORE_H
#define NOCPROF_CORE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "platform/config.h"
#include "platform/mips.h"
#include "emu/elfload.h"

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

typedef struct Core Core;

/* A basic block as the engine translated it (opaque; see the block_*
 * accessors). Blocks live as long as their core. */
typedef struct Block Block;

#define CORE_NO_TAG UINT32_MAX

/* What a client reads of a block on every call and return, without a
 * function call: the same values as block_addr(), block_tag(),
 * block_flags() and block_branch_pc(). */
typedef struct BlockView {
    uint32_t addr, tag;
    unsigned flags;
    uint32_t branch_pc;
    void *data;                /* the client's (CoreHooks.block_tag) */
} BlockView;

/* A Block holds its BlockView BLOCK_VIEW_AT bytes in, after the cache
 * line of the hook without a client (emu/core_priv.h checks it). */
#define BLOCK_VIEW_AT 64
static inline const BlockView *block_view(const Block *b)
{
    return (const BlockView *)(const void *)((const char *)b + BLOCK_VIEW_AT);
}

uint32_t block_addr(const Block *b);
uint32_t block_ninsns(const Block *b);
/* Executions, and cycles charged to it (count x cost + taken branches and
 * device access differences). */
uint64_t block_count(const Block *b);
uint64_t block_cycles(const Block *b);
/* Instructions it executed: count x ninsns less those of executions cut
 * short by an exit or a fault. */
uint64_t block_instructions(const Block *b);
/* Of those, by kind (loads, stores, control transfers, conditional
 * branches, register jumps): ev[BLOCK_NEV]. */
enum { BLOCK_EV_LOADS = MIPS_EV_LOAD, BLOCK_EV_STORES = MIPS_EV_STORE, BLOCK_EV_BRANCHES = MIPS_EV_BRANCH,
       BLOCK_EV_COND = MIPS_EV_COND, BLOCK_EV_INDIRECT = MIPS_EV_INDIRECT, BLOCK_NEV = MIPS_NEV };
void block_events(const Block *b, uint64_t ev[BLOCK_NEV]);
/* Cycles its executions waited inside it (24k: static interlocks), by
 * cause: a load's result, an ALU result as an address base, the MDU, the
 * FPU (w[BLOCK_NWAIT]; all 0 under flat). */
enum { BLOCK_NWAIT = 4 };
void block_waits(const Block *b, uint64_t w[BLOCK_NWAIT]);
/* Cache misses ([cache] enabled, emu/cache.c) of instruction i of b: m[k]
 * for k = I-cache, D-cache read, D-cache write; block_has_misses: any. */
enum { BLOCK_MISS_I1, BLOCK_MISS_D1R, BLOCK_MISS_D1W, BLOCK_NMISS };
bool block_has_misses(const Block *b);
void block_misses(const Block *b, uint32_t i, uint64_t m[BLOCK_NMISS]);
/* The core's cache accesses and misses so far (0 without the cache). */
/* CACHE_CYCLES: the cycles misses and write-backs added (charged) */
enum { CACHE_I_ACCESS, CACHE_I_MISS, CACHE_D_ACCESS, CACHE_D_RMISS, CACHE_D_WMISS, CACHE_D_WBACK, CACHE_CYCLES,
       CACHE_NCOUNT };
uint64_t cache_count(const Core *c, unsigned what);
/* The same per instruction, per execution: instruction i waits cycles[i]
 * for cause[i] (BLOCK_NWAIT: none; the block_waits of one execution are
 * their sums). False under flat (nothing waits). Recomputes the block's
 * pipeline pass: for the end of a run, not the hot path. */
bool block_insn_waits(const Core *c, const Block *b, uint8_t *cause, uint16_t *cycles);
/* The cycles of each instruction over all its executions, into out
 * [block_ninsns]; they add up to block_cycles(). Each gets its executions
 * times its static cost (24k: the waits inside the block included), plus
 * what rare paths charged it (cache misses, an entry stall at the first
 * use, device accesses, cycles taken back); the rest of the dynamic
 * cycles (a taken branch's cost, the next block's wait charged to its
 * branch) goes on the block's branch, or evenly when it has none in it.
 * False when that cannot be split (then spread block_cycles evenly). */
bool block_insn_cycles(const Block *b, uint64_t *out);
/* The runs of b cut short before its instruction i ran (a fault, the
 * cycle limit, an interrupt taken inside it, an annulled delay slot). */
uint64_t block_insn_cut(const Block *b, uint32_t i);
/* Some run of b was cut short (block_insn_cut is not 0 everywhere). */
bool block_has_cuts(const Block *b);
/* Watch the block run in progress now (none between runs) for a cut:
 * CoreHooks.run_cut. A region of interest switched inside a run charges
 * what the cut takes back where it charged the run (profiler/collect/
 * region.c). Not on the hot path: checked where a run is cut. */
void core_watch_run(Core *c);
/* The kinds of one instruction word (bit BLOCK_EV_x). */
unsigned block_word_events(uint32_t insn);
/* mips_classify() of its control instruction (MIPS_* of mips.h; 0 if it
 * has none) and that instruction's address (0 if none). */
unsigned block_flags(const Block *b);
uint32_t block_branch_pc(const Block *b);
/* The client's tag (CoreHooks.block_tag), CORE_NO_TAG without hooks. */
uint32_t block_tag(const Block *b);

/* CoreHooks.ret and .call: the arrival at `to` from `from` at cycle
 * `now`, as `arrive`, with the arguments where the block hook has them
 * (x86-64: nothing moves before the call); `unused` holds nothing. */
typedef void CoreArriveFn(uint64_t unused, uint64_t now, void *opaque, Core *core, const Block *from,
                          const Block *to);

typedef struct CoreHooks {
    void *opaque;
    /* A new block at addr was translated: return the client's tag for it
     * (e.g. an index into its own per-block table), set *watch when
     * `arrive` must be called every time control reaches it, and *data
     * (BlockView.data, NULL unless set) as the client likes: its own
     * data about the block, one load away on every arrival. */
    uint32_t (*block_tag)(void *opaque, uint32_t addr, bool *watch, void **data);
    /* Control reached `to`; `from` is the previous block (its control
     * instruction tells call/jump/return/eret), or NULL when `to` is the
     * interrupt vector just entered. `now` = cycles before `to` runs.
     * Called only when `to` is watched, or `from` ended in a register
     * jump (jr/jalr) or eret, or an interrupt was entered. */
    void (*arrive)(void *opaque, Core *core, const Block *from, const Block *to, uint64_t now);
    /* Optional entries for the usual arrivals, called instead of `arrive`
     * when `from` ended in `jr $ra` (ret), or in a branch or jump other
     * than a register jump without link (call), and nothing else is due
     * at the boundary: the indirect call lands where the client handles
     * that kind, with no dispatch on from's flags. Called once `to` is
     * entered (a tail call): the core's clock, its counts and its current
     * block already include `to`, so these may read the core's registers,
     * not its counters. NULL: `arrive`, before `to` is entered. */
    CoreArriveFn *ret;
    CoreArriveFn *call;
    /* An interrupt was taken at `now`; it will return to `epc`. */
    void (*interrupt)(void *opaque, uint32_t epc, uint64_t now);
    /* The core idled in wait over [from, to). */
    void (*idle)(void *opaque, uint64_t from, uint64_t to);
    /* Firmware wrote SYS PROF_CTRL at the block ending at cycle `now`:
     * on = start collecting, off = stop (from the next block on). */
    void (*prof_ctrl)(void *opaque, Core *core, bool on, uint64_t now);
    /* Optional: the run that was in progress at the last core_watch_run
     * is cut short (a fault, an interrupt, the limit after a PROF_CTRL
     * write in that run; block_insn_cut): called before (done false) and
     * after (done true) its counts, cycles and samples are taken back. */
    void (*run_cut)(void *opaque, Core *core, bool done);
} CoreHooks;

typedef struct CoreSched {
    void *opaque;
    /* The core is about to access a network-dependent register (NI, IRQC)
     * at cycle t, or to test its network interrupt lines at a block
     * boundary at t. Return once the network's state at t is exact (the
     * core may be suspended meanwhile), with the network locked until
     * sync_done; or false when the core was halted meanwhile (core_halt):
     * the access does not happen. */
    bool (*sync)(void *opaque, Core *core, uint64_t t);
    /* After the access: false when the core must stop before it (the
     * machine halted it meanwhile: core_state tells how). */
    bool (*sync_done)(void *opaque, Core *core);
    /* The core spins in a one-block loop whose every iteration repeats a
     * failed NI poll and nothing else (mips_idempotent_loop): iterations
     * start at `start`, `start + period`, ...; the poll of each runs at
     * + poll_offset. Return the start of the first iteration that must
     * really run (its poll may succeed, or an event is due): the core
     * accounts the skipped ones exactly. NULL: never skip. ram: the loop
     * spins on a word of RAM (spin); each iteration's wait is at its end. */
    uint64_t (*poll_wait)(void *opaque, Core *core, uint64_t start, uint64_t period,
                          uint64_t poll_offset, uint32_t poll_pc, bool tx, bool ram);
    /* Optional: at a sync point at t (between sync and sync_done, lock
     * held), an iteration of a one-block loop that only reads the word of
     * RAM at addr (its lw at pc) and stores nothing failed: only an
     * interrupt handler or a debugger can end it (block_spin_failed). */
    void (*spin)(void *opaque, Core *core, uint64_t t, uint32_t pc, uint32_t addr);
    /* Where the running core publishes, with a release store at every
     * block boundary, the cycle that block starts: nothing it does from
     * then on (a sync included) happens earlier, so other host threads
     * can see how far it got without waiting for it. NULL: nowhere. */
    uint64_t *lb_pub;
    /* No other host thread runs cores while this one runs (one host
     * thread): the fast path of a core without a client then skips the
     * publication (the scheduler sets lb at every suspension; only a
     * progress line reads it meanwhile, and sees it per quantum). */
    bool lone;
    /* Optional: the core wrote CONSOLE at cycle t (something the outside
     * sees), called between sync and sync_done (lock held) while
     * core_watch_console has asked for it. */
    void (*progress)(void *opaque, Core *core, uint64_t t);
} CoreSched;

#define CORE_FAULT_NREGS 34u
typedef struct CoreFault {
    char *kind;        /* "unmapped-read", "reserved-instruction", "bus-error", "ni-misuse", ... */
    uint32_t pc;
    char *message;
    uint32_t site;     /* a fetch fault: the jump or branch that went to pc
                          (the last instruction that ran), else 0 */
    uint32_t regs_pc;  /* the pc regs are at: pc, or for a fault found at a block's end
                          (stack-overflow) the instruction after that block */
    bool has_data;     /* an unaligned or unmapped load or store: of data */
    uint32_t data;
    bool has_regs;     /* regs hold the registers as the faulting instruction read them: */
    uint32_t regs[CORE_FAULT_NREGS]; /* $0..$31, hi, lo (as in the message) */
} CoreFault;

/* One executable range of the histograms: bins first .. first + (hi - lo)
 * / 4 - 1 count the instructions of [lo, hi). */
typedef struct CoreRange {
    uint32_t lo, hi, first;
} CoreRange;

/* The histograms cover the ELF's executable segments (sorted, merged, at
 * most CORE_MAX_RANGES), never the gap between them. */
#define CORE_MAX_RANGES 1024u

/* A PC-sampling histogram: bins over the ranges, range after range;
 * samples while idle and outside every range counted apart. */
typedef struct CoreHist {
    uint32_t period;
    unsigned nranges;
    const CoreRange *ranges;
    uint32_t nbins;
    const uint64_t *bins;
    uint64_t idle, outside, total;
} CoreHist;

/* What a core printed, in order: len bytes (a NUL byte among them is part
 * of them) then a newline when eol. A line is passed when it ends, a line
 * longer than DEV_CONSOLE_PIECE (dev.h) in pieces, an unterminated last
 * line at the end of the run (core_flush_console) without eol: the pieces
 * and newlines together are exactly the bytes written to CONSOLE. */
typedef void (*ConsoleFn)(void *opaque, unsigned core, const char *line, size_t len, bool eol);

/* A core running img with config cfg as core `id`; console lines go to
 * console_fn. Error: NOCPROF_ERROR_EMU when the engine cannot be set up. */
Core *core_new(unsigned id, const Config *cfg, const ElfImage *img,
               ConsoleFn console_fn, void *console_opaque, GError **error);
void core_free(Core *c);
void core_set_hooks(Core *c, const CoreHooks *hooks);
/* From any thread: the core's current run (core_run) ends at its next
 * block boundary, as if its horizon were reached there. Only speed
 * changes (a scheduler lets another core of the thread run first); a
 * request that comes while the core does not run ends its next run early. */
void core_request_yield(Core *c);
void core_set_sched(Core *c, const CoreSched *sched);
/* Whether the running core stores the start of every block at
 * CoreSched.lb_pub (false only for a lone core without a client). */
bool core_publishes_clock(const Core *c);

/* Run from the core's clock towards `horizon` (block granularity) unless
 * it stops, faults or idles first. */
void core_run(Core *c, uint64_t horizon);
/* Idle until `until` or until an interrupt wakes it (then it is RUNNING):
 * the timer may wake it earlier; the network lines (core_refresh_net) are
 * taken as they are at `until`. */
void core_idle(Core *c, uint64_t until);
/* Cycle at which an idle core's own timer would wake it, or UINT64_MAX. */
uint64_t core_wake_cycle(const Core *c);
/* The timer's interrupt is enabled in IRQC. */
bool core_timer_irq_enabled(const Core *c);
/* NoC receive or transmit-ready interrupts are enabled in IRQC. */
bool core_irq_network(const Core *c);
/* IRQC ENABLE (NP_IRQ_* bits). */
uint32_t core_irq_enabled(const Core *c);
/* Why a core waiting for an interrupt is not woken, for a hang report:
 * IRQC ENABLE and PENDING, the TIMER, Status.IM7, and a verdict when a
 * raised line is masked or no source can fire. Caller frees. */
char *core_irq_explain(Core *c);
/* From the core's own thread: CONSOLE writes become sync points reported
 * to CoreSched.progress (on) or plain device writes again (off). */
void core_watch_console(Core *c, bool on);
/* PENDING & ENABLE != 0 (network lines as of the last sync point). */
bool core_irq_wanted(const Core *c);
/* With CP0 Status st, a raised line would be taken (SPEC 1: IE, not EXL
 * nor ERL, and IM2 with the IRQC output or IM7 with the CP0 timer's). */
bool core_irq_allowed(const Core *c, uint32_t st);
/* Re-read the network interrupt lines (the caller holds the network at
 * the core's time, e.g. inside CoreSched.sync or with the core idle). */
void core_refresh_net(Core *c);
/* Stop a live core with a final state (limit, deadlock, interrupted). */
void core_halt(Core *c, CoreState state);
/* A core that is not running (between runs) faults with kind and message
 * at its pc: what nocprof could not provide it (e.g. memory). */
void core_fail(Core *c, const char *kind, const char *message);

unsigned core_id(const Core *c);
CoreState core_state(const Core *c);
bool core_live(const Core *c);
int core_exit_code(const Core *c);
/* The first fault (kind NULL unless the state is CORE_FAULT). */
const CoreFault *core_fault(const Core *c);
/* The first bytes written to SYS CONSOLE (at most DEV_CONSOLE_KEEP, 64
 * KiB: the console is streamed through the ConsoleFn); *len set to their
 * length. */
const char *core_console(const Core *c, size_t *len);
/* How many bytes were written to SYS CONSOLE in all. */
uint64_t core_console_total(const Core *c);
/* Pass an unterminated console line to the console function. */
void core_flush_console(Core *c);
uint64_t core_cycles(const Core *c);
/* The next cycle the core's own devices may interrupt it (a TIMER expiry
 * on an enabled IRQC line, a CP0 match with IM7) or the cycle limit. */
uint64_t core_local_event(const Core *c);
/* Where the core goes on (or stopped): the next instruction to run. */
uint32_t core_pc(const Core *c);
uint64_t core_idle_cycles(const Core *c);
uint64_t core_irq_cycles(const Core *c);
uint64_t core_interrupts(const Core *c);
uint64_t core_waits(const Core *c);
/* How many times code written at run time changed a RAM page's
 * protection (smc.c; each commits Unicorn's memory map). */
uint64_t core_smc_protects(const Core *c);
/* Instructions executed so far. */
uint64_t core_instructions(const Core *c);
/* Instructions executed as the core last published them (after a run of
 * at most a [sched] quantum, every max(2^18, 64 x blocks) cycles or so,
 * and when it stops): safe to read from any thread while it runs (for a
 * progress line); never more than core_instructions(). */
uint64_t core_instructions_published(const Core *c);

/* CP0 register (NP_CP0_COUNT, _COMPARE, _CAUSE, _STATUS) as the guest
 * would read it now. */
uint32_t core_read_cp0(Core *c, unsigned reg);

#define CORE_GPR_SP 29u
#define CORE_GPR_RA 31u
/* General register n (0..31) as it is now. */
uint32_t core_read_gpr(Core *c, unsigned n);
/* $sp (the same as core_read_gpr(c, CORE_GPR_SP), quicker). */
uint32_t core_read_sp(Core *c);
/* The engine's register file ($n is gpr[n]) when reads are plain loads
 * (core_registers_direct), else NULL. For hooks on the hot path that read
 * a register at every call (the collector's $sp): a load, no call. Valid
 * inside the core's hooks, as core_read_gpr. */
const volatile uint32_t *core_gpr_file(const Core *c);
/* Register reads are plain loads from the engine's register file (found
 * and checked when the core was made, emu/gpr.c), not uc_reg_read calls. */
bool core_registers_direct(const Core *c);
/* The engine itself faults a register jump to an odd address: MIPS16e
 * taken out of it (emu/isa.c); false on another Unicorn (then nocprof
 * checks each register jump's target). */
bool core_no_mips16(const Core *c);
/* SPEC 1 Stack: $sp at reset, and the lowest $sp seen at the end of a
 * block that wrote it (exact for addiu chains inside a block). */
uint32_t core_stack_top(const Core *c);
uint32_t core_stack_lowest(const Core *c);

/* Blocks translated so far, in translation order. */
unsigned core_nblocks(const Core *c);
/* The core stopped because it would have needed more than [limits] blocks
 * distinct blocks (its state is then CORE_LIMIT). */
bool core_block_limit_hit(const Core *c);
const Block *core_block(const Core *c, unsigned i);

unsigned core_nhists(const Core *c);
CoreHist core_hist(const Core *c, unsigned i);

/* ---- devices ---------------------------------------------------------- */

/* One register access, as a device sees it. */
typedef struct DevAccess {
    uint32_t reg;        /* offset inside the device's window */
    uint32_t pc;         /* the accessing instruction */
    uint64_t now;        /* the cycle it runs at */
    const char *fault_kind; /* set with fault_msg (g_malloc'd) to reject */
    char *fault_msg;
    bool changed;        /* a read changed interrupt or event state */
    bool poll;           /* a status read that found nothing to do */
    bool poll_tx;        /* ... waiting for transmit room (else data) */
} DevAccess;

typedef struct DevOps {
    /* false: no register at a->reg (a bus error) */
    bool (*read)(void *opaque, DevAccess *a, uint32_t *value);
    bool (*write)(void *opaque, DevAccess *a, uint32_t value);
    void (*free)(void *opaque);
    bool sync;           /* its state depends on the network's time */
} DevOps;

#define CORE_DEV_NI 3u   /* window of NP_NI_BASE */

/* Map a device into window `slot` (0 .. 3 for NP_SYS_BASE ..
 * NP_NI_BASE); the core frees it with ops->free. `irq_poll` (may be
 * NULL) returns the IRQC lines the device holds up now. */
void core_map_device(Core *c, unsigned slot, const DevOps *ops, void *opaque,
                     uint32_t (*irq_poll)(void *opaque));

#endif

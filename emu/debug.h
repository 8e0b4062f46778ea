// SPDX-License-Identifier: GPL-2.0-or-later
/* debug.h — what a debugger (gdb/, the GDB remote stub) needs of a core:
 * stops before an instruction, registers, memory (docs/debugging.md).
 *
 * How. A debugged core carries one UC_HOOK_CODE over its whole address
 * space (core_debug_enable, before it first runs): before every
 * instruction the hook checks the breakpoints, a pending step, a
 * watchpoint hit by the instruction before, the stop cycle, and now and
 * then whether the debugger asked to stop (Ctrl-C). A stop calls
 * CoreDebugOps.stop inside the hook, with the registers current and the
 * instruction not run yet; when it returns, the core goes on exactly
 * where it was. Nothing of the core's accounting changes: blocks,
 * cycles, samples, every guest-visible value are those of the same run
 * without a debugger (the machine runs on one host thread then, so while
 * one core is stopped no other runs). The hooks count the instructions
 * of every core on one clock (DbgClock): the position reverse execution
 * replays to (gdb/history.c); replaying (clock->quiet) they stop nowhere
 * and note where breakpoints and watchpoints would have stopped.
 */
#ifndef NOCPROF_EMU_DEBUG_H
#define NOCPROF_EMU_DEBUG_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "emu/core.h"

typedef enum {
    DBG_STOP_BREAK,        /* a breakpoint (Z0/Z1) */
    DBG_STOP_STEP,         /* a single step finished */
    DBG_STOP_WATCH,        /* the instruction before accessed a watched range */
    DBG_STOP_CYCLE,        /* the core reached its stop cycle */
    DBG_STOP_REQUEST,      /* the debugger asked (Ctrl-C) */
    DBG_STOP_ENDED,        /* the core stopped for good: core_state() says how */
} DbgStop;

/* Watchpoint kinds, as GDB's Z2/Z3/Z4 */
enum { DBG_WATCH_WRITE = 2, DBG_WATCH_READ = 3, DBG_WATCH_ACCESS = 4 };

/* The machine's clock under a debugger, shared by every core's hook: the
 * guest instructions met so far (every core, in the one deterministic
 * order of the run), the position reverse execution replays to. */
typedef struct DbgClock {
    uint64_t now;          /* hook calls so far (1 = the first instruction) */
    uint64_t next;         /* CoreDebugOps.at is called when now reaches it */
    bool quiet;            /* replaying: no stop (breakpoints and watchpoints noted) */
    uint64_t hit;          /* quiet: the last `now` one would have stopped at (0: none) */
    unsigned hit_core;
} DbgClock;

typedef struct DbgWatch {
    uint32_t addr, len;    /* physical */
    int kind;
    uint32_t vaddr;        /* as gdb set it (kseg0 or kseg1): the stop names it */
} DbgWatch;

typedef struct CoreDebugOps {
    void *opaque;
    DbgClock *clock;       /* shared by every core of the machine */
    /* Called before the instruction at pc when clock->now reaches
     * clock->next (the stub's checkpoints and replay targets); true: stop
     * here (why). */
    bool (*at)(void *opaque, Core *c, uint32_t pc, DbgStop *why);
    /* c stopped (why) before the instruction at pc; data: the watched
     * address accessed (DBG_STOP_WATCH) with its kind in watch_kind.
     * Returns when the debugger lets the machine go on. */
    void (*stop)(void *opaque, Core *c, DbgStop why, uint32_t pc, uint32_t data, int watch_kind);
    /* Polled every few ten thousand instructions: true = stop now. */
    bool (*poll)(void *opaque);
} CoreDebugOps;

/* gdb's MIPS32 register numbers: 0-31 GPRs, 32 status, 33 lo, 34 hi,
 * 35 badvaddr, 36 cause, 37 pc, 38-69 f0-f31, 70 fcsr, 71 fir, 72 epc */
#define CORE_DBG_NREGS 73u
#define CORE_DBG_PC 37u

bool core_debug_enable(Core *c, const CoreDebugOps *ops, GError **error);
bool core_debug_enabled(const Core *c);
/* A breakpoint at addr (any alias: kseg0 and kseg1 are one). */
void core_debug_break(Core *c, uint32_t addr, bool on);
bool core_debug_watch(Core *c, uint32_t addr, uint32_t len, int kind, bool on);
/* The next resume runs one instruction (a branch with its delay slot)
 * and stops before the next. */
void core_debug_step(Core *c);
/* From inside a stop: the core ends as interrupted before this instruction. */
void core_debug_kill(Core *c);
/* Stop at its next instruction boundary (outside a delay slot). */
void core_debug_request(Core *c);
/* Stop when the core's clock reaches cycle (UINT64_MAX: never). */
void core_debug_stop_at(Core *c, uint64_t cycle);
/* The exact cycle now: of the instruction about to run when stopped. */
uint64_t core_debug_cycle(Core *c);
/* Where it stopped (the instruction about to run). */
uint32_t core_debug_pc(Core *c);
/* Registers in gdb's numbering (above); values as 32-bit numbers. */
void core_debug_read_regs(Core *c, uint32_t regs[CORE_DBG_NREGS]);
/* The pc written at a stop inside a block cuts the block there (the
 * instruction at the stop and the rest do not run, nor count) and the
 * core resumes at v; false: odd v, a stop in a delay slot, or a live
 * core waiting inside an instruction without being the one stopped. */
bool core_debug_write_reg(Core *c, unsigned n, uint32_t v);
/* RAM through kseg0/kseg1 (and the physical alias); false outside RAM
 * (device windows are not read: a read has side effects). A write drops
 * what the engine translated of those bytes. */
bool core_debug_read_mem(Core *c, uint32_t vaddr, uint8_t *buf, uint32_t len);
bool core_debug_write_mem(Core *c, uint32_t vaddr, const uint8_t *buf, uint32_t len);
/* History: the clock values of c's last two instructions where a stop
 * may fall (0: none), and the pc of the last. */
void core_debug_history(Core *c, uint64_t *prev, uint64_t *last, uint32_t *last_pc);
/* Would a breakpoint or watchpoint stop c before the instruction at pc
 * (as the hook would, on the registers now): DBG_STOP_BREAK or
 * DBG_STOP_WATCH (*data, *kind: the watched address and kind), else
 * DBG_STOP_REQUEST. */
DbgStop core_debug_hit(Core *c, uint32_t pc, uint32_t *data, int *kind);
/* The breakpoints (physical addresses, guint) and watchpoints (DbgWatch). */
void core_debug_points(Core *c, GArray *bps, GArray *watches);
uint64_t core_debug_stop_cycle(Core *c);
/* Replace them, with no step or request pending (a replayed copy of the
 * machine takes the debugger's state of the copy it replaces). */
void core_debug_reset(Core *c, const GArray *bps, const GArray *watches, uint64_t stop_cycle);
/* The firmware is big-endian. */
bool core_big_endian(const Core *c);
/* Called by the core when it stops for good (fault, limit, deadlock). */
void core_debug_ended(Core *c);

#endif

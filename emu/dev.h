// SPDX-License-Identifier: GPL-2.0-or-later
/* dev.h — the devices every core owns (SYS, TIMER, IRQC), private to emu/.
 *
 * Each device is a state struct plus a read/write pair (DevOps, core.h)
 * that the core's MMIO dispatch (emu/mmio.c) calls with the register
 * offset; offsets are NP_* of include/nocprof/platform.h. Devices never
 * touch CPU state: the timer raises its interrupt through an IrqLine, SYS
 * reports EXIT through a callback, and misuse is returned in the
 * DevAccess for the core to turn into a fault. The NI lives in dev_ni.h.
 */
#ifndef NOCPROF_DEV_H
#define NOCPROF_DEV_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "emu/core.h"

/* An interrupt line: set(opaque, line, level). */
typedef struct IrqLine {
    void (*set)(void *opaque, unsigned line, bool level);
    void *opaque;
    unsigned line;
} IrqLine;

/* An access against a register's direction (SPEC section 1: a write to a
 * read-only register, a read of a write-only one): a bus error that says
 * so. The device returns true after it (a known offset, rejected). */
static inline void dev_wrong_direction(DevAccess *a, const char *dev, const char *reg, bool write)
{
    a->fault_kind = "bus-error";
    a->fault_msg = g_strdup_printf("%s %s register %s %s (offset 0x%03x, pc 0x%08x)",
                                   write ? "write to" : "read of", write ? "read-only" : "write-only", dev,
                                   reg, a->reg, a->pc);
}

/* ---- SYS: identity, cycle counter, console, exit ---------------------- */
/* The console is streamed: each line goes to the ConsoleFn as it ends, a
 * longer one in pieces of DEV_CONSOLE_PIECE bytes; the device keeps only
 * the first DEV_CONSOLE_KEEP bytes (core_console), so a flood costs no
 * memory (docs/robustness.md). */
#define DEV_CONSOLE_PIECE 4096u
#define DEV_CONSOLE_KEEP (64u << 10)
typedef struct SysDev {
    unsigned id, ncores, mesh_w, mesh_h;
    uint32_t cycle_hi_latch;
    GString *head, *line;      /* the first DEV_CONSOLE_KEEP bytes; the line
                                  being printed (at most DEV_CONSOLE_PIECE) */
    uint64_t console_total;    /* every byte written to CONSOLE */
    ConsoleFn console_fn;
    void *console_opaque;
    void (*exit_fn)(void *opaque, int code, uint32_t pc);
    void *exit_opaque;
    /* PROF_CTRL written (on = value != 0); optional */
    void (*prof_fn)(void *opaque, bool on, uint32_t pc);
} SysDev;

extern const DevOps dev_sys_ops;
void dev_sys_init(SysDev *s, unsigned id, const Config *cfg, ConsoleFn fn, void *opaque);
void dev_sys_clear(SysDev *s);
void dev_sys_flush(SysDev *s);

/* ---- TIMER: one down-counter on the core clock ----------------------- */
typedef struct TimerDev {
    uint32_t ctrl, period;
    uint64_t expiry;     /* UINT64_MAX when not running */
    IrqLine irq;
} TimerDev;

extern const DevOps dev_timer_ops;
void dev_timer_init(TimerDev *t, IrqLine irq);
/* Expiry reached with the clock at `clock`: raise the line (CTRL.IRQ),
 * rearm past `clock` (periodic) or stop. */
void dev_timer_fire(TimerDev *t, uint64_t clock);
/* Cycle at which it raises its line, UINT64_MAX if never. */
uint64_t dev_timer_irq_cycle(const TimerDev *t);

/* ---- IRQC: pending and enable masks ---------------------------------- */
typedef struct IrqcDev {
    uint32_t enable;
    uint32_t level;      /* lines raised through dev_irqc_set */
    uint32_t (*poll)(void *opaque); /* lines a device holds up (the NI) */
    void *poll_opaque;
    uint32_t net;        /* poll() as of the last network sync point: the
                            lines are read only when the network is exact */
    /* before PENDING is read at cycle now: let the lines catch up */
    void (*refresh)(void *opaque, uint64_t now);
    void *refresh_opaque;
} IrqcDev;

extern const DevOps dev_irqc_ops;
void dev_irqc_set(void *irqc, unsigned line, bool level);
uint32_t dev_irqc_pending(const IrqcDev *q);
/* Re-read the lines of the polled device (only where the network is exact). */
void dev_irqc_refresh_net(IrqcDev *q);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * nocprof.h - firmware runtime for the nocprof MIPS32 NoC platform.
 *
 * The platform (SPEC.md section 1; summary in docs/firmware.md): one MIPS32r2 core per mesh node,
 * private RAM linked at 0x80000000, per-core devices in kseg1 (32-bit word
 * accesses only; any other size or an undefined offset stops the core with
 * a bus error), a mesh network reached through the NI device.
 *
 * Every rt_* entry point is a real, small, out-of-line function so that
 * profiles show where firmware spends its time (console, NoC polling,
 * delays).  None of them may be called from more than one context at once:
 * the handlers registered with rt_irq_set_handler run with interrupts off
 * (Status.EXL = 1) and should only use the leaf-level helpers they need
 * (rt_timer_ack, rt_try_recv, rt_cycles, ...), never the console while main
 * is printing.
 *
 * Contract for the program: int main(unsigned core, unsigned ncores); its
 * return value is the core's exit code (written to SYS EXIT by _start).
 */
#ifndef NOCPROF_H
#define NOCPROF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- memory map (SPEC 1, "Memory-mapped devices") ----------------------
 * The addresses and offsets are those of the one register map,
 * include/nocprof/platform.h (NP_*); the RT_* names are the runtime's
 * aliases for them. */
#include "nocprof/platform.h"

#define RT_RAM_BASE        NP_KSEG0      /* kseg0 view of physical 0 */

#define RT_SYS_BASE        NP_SYS_BASE
#define RT_SYS_CORE_ID     NP_SYS_CORE_ID
#define RT_SYS_NUM_CORES   NP_SYS_NUM_CORES
#define RT_SYS_MESH_W      NP_SYS_MESH_W
#define RT_SYS_MESH_H      NP_SYS_MESH_H
#define RT_SYS_CYCLE_LO    NP_SYS_CYCLE_LO   /* reading latches CYCLE_HI */
#define RT_SYS_CYCLE_HI    NP_SYS_CYCLE_HI
#define RT_SYS_CONSOLE     NP_SYS_CONSOLE
#define RT_SYS_EXIT        NP_SYS_EXIT
#define RT_SYS_PROF_CTRL   NP_SYS_PROF_CTRL

#define RT_TIMER_BASE      NP_TIMER_BASE
#define RT_TIMER_CTRL      NP_TIMER_CTRL
#define RT_TIMER_PERIOD    NP_TIMER_PERIOD
#define RT_TIMER_REMAIN    NP_TIMER_REMAIN
#define RT_TIMER_ACK       NP_TIMER_ACK
#define RT_TIMER_ENABLE    NP_TIMER_ENABLE   /* CTRL bits */
#define RT_TIMER_IRQ       NP_TIMER_IRQ
#define RT_TIMER_PERIODIC  NP_TIMER_PERIODIC

#define RT_IRQC_BASE       NP_IRQC_BASE
#define RT_IRQC_PENDING    NP_IRQC_PENDING
#define RT_IRQC_ENABLE     NP_IRQC_ENABLE

#define RT_NI_BASE         NP_NI_BASE
#define RT_NI_TX_DEST      NP_NI_TX_DEST
#define RT_NI_TX_DATA      NP_NI_TX_DATA
#define RT_NI_TX_SEND      NP_NI_TX_SEND
#define RT_NI_TX_STATUS    NP_NI_TX_STATUS
#define RT_NI_RX_COUNT     NP_NI_RX_COUNT
#define RT_NI_RX_SRC       NP_NI_RX_SRC
#define RT_NI_RX_LEN       NP_NI_RX_LEN
#define RT_NI_RX_DATA      NP_NI_RX_DATA
#define RT_NI_RX_DROP      NP_NI_RX_DROP

/* IRQC bits (PENDING / ENABLE) and handler slots */
#define RT_IRQ_TIMER       0u
#define RT_IRQ_NOC_RX      1u
#define RT_IRQ_NOC_TX      2u
#define RT_IRQ_COUNT       3u
#define RT_IRQ_BIT(n)      (1u << (n))

/* Default largest packet payload ([noc] max_payload). */
#define RT_MAX_PAYLOAD     16u

/* ---- raw MMIO (word accesses to kseg1 device registers) ----------------
 * Always inlined (even under -fno-inline) so that the load or store, and a
 * bus error it causes, belongs to the calling function. */
#define RT_NOINLINE __attribute__((noinline))

static inline __attribute__((always_inline)) uint32_t rt_mmio_read(uint32_t base, uint32_t off)
{
    return *(volatile uint32_t *)(uintptr_t)(base + off);
}

static inline __attribute__((always_inline)) void rt_mmio_write(uint32_t base, uint32_t off, uint32_t v)
{
    *(volatile uint32_t *)(uintptr_t)(base + off) = v;
}

/* ---- identity ---------------------------------------------------------- */
unsigned rt_core_id(void);
unsigned rt_num_cores(void);
unsigned rt_mesh_w(void);
unsigned rt_mesh_h(void);

/* ---- console (this core's console; one byte per CONSOLE write) --------- */
void rt_putc(char c);
/* Writes s as is; no newline is appended. */
void rt_puts(const char *s);
void rt_put_dec(int32_t v);       /* signed decimal */
void rt_put_udec(uint32_t v);     /* unsigned decimal */
void rt_put_u64(uint64_t v);      /* unsigned decimal, 64-bit (libgcc) */
void rt_put_hex(uint32_t v);      /* exactly 8 lower-case digits, no 0x */
/*
 * printf subset: conversions %d %i %u %x %X %c %s %p %%, optional flags '-'
 * (left-justify) and '0' (zero-pad), optional decimal field width, optional
 * 'l' (ignored: long is 32 bits).  No precision, no %ll, no floating point;
 * an unsupported conversion prints as "%?".  Returns characters written.
 */
int rt_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int rt_vprintf(const char *fmt, va_list ap);

/* ---- time -------------------------------------------------------------- */
uint64_t rt_cycles(void);            /* CYCLE_LO then CYCLE_HI (latched) */
uint32_t rt_cycles32(void);          /* CYCLE_LO only */
void rt_delay(uint32_t cycles);      /* busy-wait >= cycles on the counter */

/* ---- exit -------------------------------------------------------------- */
void rt_exit(int code) __attribute__((noreturn));

/* ---- profiling region (SYS PROF_CTRL) -----------------------------------
 * Start and stop the profiler's collection on this core (a region of
 * interest; run with `nocprof run --collect-initially no` to collect only
 * between the calls). Without the profiler they do nothing. Collection
 * changes at the block after the register write: the rest of rt_prof_start
 * (its return) is collected, rt_prof_stop's own block is. */
void rt_prof_start(void);
void rt_prof_stop(void);

/* ---- NoC ---------------------------------------------------------------- */
/* TX_STATUS bit0: a maximal packet can be staged now. */
bool rt_tx_ready(void);
/*
 * Send n words (1 <= n <= max_payload) to core dst: polls TX_STATUS bit0,
 * then TX_DEST, n x TX_DATA, TX_SEND.  n == 0 sends nothing (a packet needs
 * at least one word).  n above max_payload is NI misuse (the core stops).
 */
void rt_send(unsigned dst, const uint32_t *w, unsigned n);
/* Complete packets waiting (RX_COUNT). */
unsigned rt_rx_count(void);
/*
 * Receive the head packet, polling RX_COUNT until one is there.  Stores the
 * source in *src (if src != NULL) and up to max payload words in buf; words
 * beyond max are discarded (RX_DROP).  Returns the number of words stored.
 */
unsigned rt_recv(unsigned *src, uint32_t *buf, unsigned max);
/* Like rt_recv without polling: false (and nothing touched) if no packet. */
bool rt_try_recv(unsigned *src, uint32_t *buf, unsigned max, unsigned *n);

/* ---- timer -------------------------------------------------------------- */
/*
 * (Re)start the timer: first expiry `period` cycles after this call's CTRL
 * write, then every `period` cycles if periodic (else once).  The timer
 * always raises its IRQC PENDING bit; it interrupts only if IRQC ENABLE
 * bit0 and the CPU interrupt (rt_interrupts_on) are on.
 */
void rt_timer_start(uint32_t period, bool periodic);
void rt_timer_stop(void);
void rt_timer_ack(void);            /* clear the timer's pending interrupt */
uint32_t rt_timer_remain(void);     /* cycles to next expiry */

/* ---- interrupts --------------------------------------------------------- */
typedef void (*rt_irq_handler_t)(void);
/*
 * Handler for IRQC bit `bit` (RT_IRQ_TIMER, RT_IRQ_NOC_RX, RT_IRQ_NOC_TX),
 * called by rt_irq_dispatch with interrupts off.  It must remove the cause
 * (rt_timer_ack, receive or drop the packets, disable NOC_TX, ...) or the
 * interrupt is taken again at once.  An enabled bit with no handler is
 * disabled in IRQC ENABLE by the dispatcher.  fn == NULL unregisters.
 */
void rt_irq_set_handler(unsigned bit, rt_irq_handler_t fn);
void rt_irq_enable(uint32_t mask);   /* IRQC ENABLE |= mask */
void rt_irq_disable(uint32_t mask);  /* IRQC ENABLE &= ~mask */
uint32_t rt_irq_pending(void);       /* IRQC PENDING */
/* Status.IE and Status.IM2 (bit 10) on / IE off; both end with ehb. */
void rt_interrupts_on(void);
void rt_interrupts_off(void);
/*
 * The `wait` instruction: idles until IRQC PENDING & ENABLE != 0, whether or
 * not the CPU takes interrupts (if it does, the handler runs on waking).
 * Race-free pattern: rt_interrupts_off(); check the condition; rt_wait();
 * rt_interrupts_on();  (the pending interrupt is taken after the last call).
 */
void rt_wait(void);
/*
 * Called by _irq_vector: dispatches on CP0 Cause. IP7 (the CP0 timer,
 * hardware line 5) runs the rt_cp0_timer_set_handler handler; IP2 (the
 * IRQC, line 0) runs the handlers of PENDING & ENABLE, bit 0 first.
 */
void rt_irq_dispatch(void);

/* ---- CP0 Count / Compare (the MIPS core timer) --------------------------- */
/*
 * Count increments every [clock] count_divisor cycles (default 2). When
 * Count becomes equal to Compare, the CP0 timer interrupt (Cause.IP7) is
 * pending until Compare is written again. It is taken when Status.IM7
 * (rt_cp0_timer_on) and Status.IE (rt_interrupts_on) are on; `wait` also
 * wakes on it (with IM7 on).
 */
uint32_t rt_cp0_count(void);             /* mfc0 Count */
void rt_cp0_set_count(uint32_t v);       /* mtc0 Count */
uint32_t rt_cp0_compare(void);           /* mfc0 Compare */
void rt_cp0_set_compare(uint32_t v);     /* mtc0 Compare: clears IP7 */
uint32_t rt_cp0_cause(void);             /* mfc0 Cause */
/*
 * Handler of the CP0 timer, called by rt_irq_dispatch with interrupts off.
 * It must write Compare (rt_cp0_set_compare) or the interrupt is taken
 * again at once; with no handler the dispatcher clears Status.IM7.
 */
void rt_cp0_timer_set_handler(rt_irq_handler_t fn);
void rt_cp0_timer_on(void);              /* Status.IM7 on (ends with ehb) */
void rt_cp0_timer_off(void);             /* Status.IM7 off */

/* ---- string helpers (also what gcc may call for struct copies) --------- */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

/* The entry point every firmware provides. */
int main(unsigned core, unsigned ncores);

#endif /* NOCPROF_H */

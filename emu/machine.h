// SPDX-License-Identifier: GPL-2.0-or-later
/* machine.h — the W x H mesh: one Core per node, one Noc, and the exact
 * conservative scheduler that runs them on one or more host threads.
 *
 * Guarantee. Every guest-visible value and every reported number is what a
 * cycle-by-cycle co-simulation of all cores and the network gives; neither
 * [sched] quantum nor the number of host threads changes any of it.
 *
 * How. A core may run ahead of the others freely as long as it does not
 * look at the network. Each core has a lower bound `lb`: it does nothing
 * network-visible before cycle lb (its clock when it is between runs, the
 * cycle of the access it waits at, the cycle its timer wakes it when it
 * idles in `wait`). An access to a network-dependent register (NI, IRQC) at
 * cycle t, and the test of enabled NoC interrupt lines at a block boundary
 * at t, is a sync point: the core suspends (its engine run sits in a
 * coroutine, emu/coro.h) until every other live core has lb >= t; then
 * the network is simulated up to t, cycle by cycle where anything moves,
 * and a core idling in `wait` whose NoC line rises on the way wakes at
 * that exact cycle (if that is before t, the waiting core lets it run
 * first). Then the access happens, with the network exactly at t. So all
 * network accesses happen in cycle order and see the network as it is at
 * their cycle. Accesses of different cores at the same cycle touch
 * different NIs and commute.
 *
 * `[sched] quantum` only says how many cycles a core runs between
 * scheduling decisions (how stale its published lb may be); `[sched]
 * threads` how many host threads run cores (core i's home is thread
 * i * threads / cores; a free thread takes another's ready core), `[sched]
 * adapt` whether fewer run them when that is faster (machine_adapt.c).
 * All are performance knobs.
 *
 * Endings. When every live core idles in `wait` and the network can wake
 * none of them, the run ends in deadlock (idle time counted to the latest
 * clock of the run). Livelock counts as deadlock (SPEC 1, the hang rule):
 * when every live core has only waited since its last change another core
 * or the outside could see (a send, a receive or drop at its NI, a CONSOLE
 * write) for `[run] livelock_cycles` — polled an NI and found nothing
 * (dev_ni.c) or slept in `wait`, running interrupt handlers meanwhile (a
 * heartbeat timer's included), or sleeps in `wait` that only the network
 * could end — and no flit moved in the network for as long, the run ends
 * with `livelock` set; `waits` says what each core waited for
 * (machine_live.c).
 */
#ifndef NOCPROF_MACHINE_H
#define NOCPROF_MACHINE_H

#include <signal.h>

#include "platform/config.h"
#include "emu/core.h"
#include "emu/elfload.h"
#include "noc/noc.h"

typedef struct MachSched MachSched;

/* What a core stopped by a deadlock or livelock waited for. */
typedef enum {
    MACH_WAIT_NONE,            /* it did not wait (it was not stuck) */
    MACH_WAIT_RX,              /* a packet: it polled RX_COUNT/SRC/LEN */
    MACH_WAIT_TX,              /* room to transmit: it polled TX_STATUS */
    MACH_WAIT_IRQ,             /* an interrupt, in `wait` */
    MACH_WAIT_RAM,             /* a change of a word of its RAM: it spun on
                                  it in a loop that stores nothing */
} MachWaitKind;

typedef struct MachWait {
    MachWaitKind kind;
    uint32_t pc;               /* its last poll, `wait` or spin's load */
    uint32_t addr;             /* RAM: the word it spun on */
    int peer;                  /* TX: destination of the packet at the head
                                  of its injection queue (-1: none) */
    bool asleep;               /* its last wait was a `wait` (asleep until
                                  an interrupt), not a poll or a spin */
} MachWait;

typedef struct Machine {
    const Config *cfg;
    unsigned ncores;
    Core **cores;
    Noc *noc;
    bool deadlock;             /* the run ended in deadlock (or livelock) */
    bool livelock;             /* ... and it was a livelock */
    uint64_t end_cycle;        /* cycle at which the deadlock was found */
    MachWait *waits;           /* [ncores] after a deadlock or livelock */
    unsigned nthreads;         /* host threads the last run used */
    unsigned threads_wanted;   /* ... and those it asked for (more when
                                  some could not be created) */
    /* [sched] adapt (machine_adapt.c): the length of one trial (0: the
     * default, 10 ms), and how many times the last run changed the number
     * of threads running cores (it starts with one) */
    uint64_t adapt_trial_ns;
    unsigned adapt_switches;
    unsigned adapt_max_active; /* the most threads that ran cores at once */
    /* the clock adapt measures with, in ns (NULL: CLOCK_MONOTONIC): a test
     * gives a fake one to make the trials' ends independent of the host */
    uint64_t (*adapt_clock)(void);
    MachSched *sched;          /* private */
} Machine;

/* imgs[i] is core i's firmware (images may be shared between cores).
 * console_fn is called with a lock held, one line (or piece of a long
 * line) at a time. */
Machine *machine_new(const Config *cfg, ElfImage *const *imgs, ConsoleFn console_fn,
                     void *console_opaque, GError **error);
void machine_free(Machine *m);

/* Run until every core has stopped. `interrupted` (may be NULL) is polled
 * between runs of a core (at least every [sched] quantum cycles of it);
 * when set, live cores end as CORE_INTERRUPTED. */
void machine_run(Machine *m, volatile sig_atomic_t *interrupted);

/* Observe core i's NI events (dev_ni.h) from now on. */
struct NiEvent;
void machine_observe_ni(Machine *m, unsigned core, void (*fn)(void *opaque, const struct NiEvent *ev),
                        void *opaque);

/* The cycles the cores have published (smallest and largest), safe to
 * call from any thread while the machine runs (for a progress line). */
void machine_progress(Machine *m, uint64_t *lo, uint64_t *hi);

/* Flush each core's unterminated console line through console_fn. */
void machine_flush_console(Machine *m);

/* Host threads a run uses: [sched] threads, or when 0 the host's CPUs;
 * never more than the cores. */
unsigned machine_threads(const Config *cfg);

#endif

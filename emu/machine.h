/* machine.h — the W x H mesh: one Core per node, one Noc, and the
 * deterministic lockstep scheduler.
 *
 * Scheduling: global time advances in quanta of [sched] quantum cycles.
 * In each quantum every core, in id order, runs until its clock reaches
 * the quantum's end (block granularity), then the network simulates the
 * same cycles. A packet sent at core cycle t enters the network at t; a
 * packet delivered during quantum k is visible to its receiver from
 * quantum k+1 on.
 *
 * Run-ahead: a core need not stop at every quantum end. Each block that
 * has ever accessed the NI or the IRQC is a sync point: a core reaching
 * one at or past the end of the current quantum stops before it until the
 * network has caught up. Elsewhere a core runs on up to
 * MACHINE_HORIZON_QUANTA quanta ahead (a core with NoC interrupts enabled
 * stays in strict lockstep). So every synchronised network access sees the
 * network at most one quantum old, exactly as in lockstep, and CPU-bound
 * code is not stopped 1000 times a second. The only access that can see an
 * older network is the first execution of a block (before it is known to
 * be a sync point). All of this depends only on simulated state: runs stay
 * bit-for-bit repeatable. Nothing depends on host time, so runs are bit-for-bit
 * repeatable. When every live core is idle the scheduler skips to the
 * next timer expiry or network event; when nothing can ever wake them
 * it declares a deadlock.
 */
#ifndef NOCPROF_MACHINE_H
#define NOCPROF_MACHINE_H

#include <signal.h>

#include "config.h"
#include "core.h"
#include "elfload.h"
#include "noc.h"

#define MACHINE_HORIZON_QUANTA 64

typedef struct Machine {
    const Config *cfg;
    unsigned ncores;
    Core **cores;
    Noc *noc;
    uint64_t now;              /* start of the next quantum */
    uint64_t sync_end;         /* end of the quantum being run: sync
                                  blocks at or past it wait */
    bool deadlock;
} Machine;

/* imgs[i] is core i's firmware (images may be shared between cores). */
Machine *machine_new(const Config *cfg, ElfImage *const *imgs, ConsoleFn console_fn,
                     void *console_opaque, GError **error);
void machine_free(Machine *m);

/* Run until every core has stopped. `interrupted` (may be NULL) is polled
 * once per quantum; when set, live cores end as CORE_INTERRUPTED. */
void machine_run(Machine *m, volatile sig_atomic_t *interrupted);

/* Flush each core's unterminated console line through console_fn. */
void machine_flush_console(Machine *m);

#endif

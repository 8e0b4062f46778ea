/* machine.h — the W x H mesh: one Core per node, one Noc, and the
 * deterministic lockstep scheduler.
 *
 * Scheduling: global time advances in quanta of [sched] quantum cycles.
 * In each quantum every core, in id order, runs until its clock reaches
 * the quantum's end (block granularity), then the network simulates the
 * same cycles. A packet sent at core cycle t enters the network at t; a
 * packet delivered during quantum k is visible to its receiver from
 * quantum k+1 on. Nothing depends on host time, so runs are bit-for-bit
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

typedef struct Machine {
    const Config *cfg;
    unsigned ncores;
    Core **cores;
    Noc *noc;
    uint64_t now;              /* start of the next quantum */
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

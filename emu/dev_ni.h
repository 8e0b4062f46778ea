/* dev_ni.h — the network interface of one core: the only emu code that
 * talks to noc/. The machine creates one per core and maps it into the
 * core's NI window (core_map_device with dev_ni_ops and dev_ni_irq). */
#ifndef NOCPROF_DEV_NI_H
#define NOCPROF_DEV_NI_H

#include "core.h"


struct Noc;
typedef struct NiDev NiDev;

extern const DevOps dev_ni_ops;
NiDev *dev_ni_new(struct Noc *noc, unsigned id, unsigned ncores, unsigned max_payload);
/* IRQC lines it holds up now: NP_IRQ_NOC_RX, NP_IRQ_NOC_TX. */
uint32_t dev_ni_irq(void *ni);

#endif

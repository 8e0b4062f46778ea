// SPDX-License-Identifier: GPL-2.0-or-later
/* dev_irqc.c — IRQC: PENDING (lines raised, plus lines a device holds up)
 * and ENABLE. The core takes an interrupt when PENDING & ENABLE != 0. */
#include "emu/dev.h"

#include "nocprof/platform.h"

void dev_irqc_set(void *irqc, unsigned line, bool level)
{
    IrqcDev *q = irqc;
    if (level)
        q->level |= 1u << line;
    else
        q->level &= ~(1u << line);
}

uint32_t dev_irqc_pending(const IrqcDev *q)
{
    return q->level | q->net;
}

void dev_irqc_refresh_net(IrqcDev *q)
{
    q->net = q->poll ? q->poll(q->poll_opaque) : 0;
}

static bool irqc_read(void *opaque, DevAccess *a, uint32_t *v)
{
    IrqcDev *q = opaque;
    switch (a->reg) {
    case NP_IRQC_PENDING:
        if (q->refresh)
            q->refresh(q->refresh_opaque, a->now);
        *v = dev_irqc_pending(q);
        return true;
    case NP_IRQC_ENABLE: *v = q->enable; return true;
    default: return false;
    }
}

static bool irqc_write(void *opaque, DevAccess *a, uint32_t v)
{
    IrqcDev *q = opaque;
    if (a->reg == NP_IRQC_PENDING) {
        dev_wrong_direction(a, "IRQC", "PENDING", true);
        return true;
    }
    if (a->reg != NP_IRQC_ENABLE)
        return false;
    q->enable = v & (NP_IRQ_TIMER | NP_IRQ_NOC_RX | NP_IRQ_NOC_TX);
    return true;
}

const DevOps dev_irqc_ops = { .read = irqc_read, .write = irqc_write, .sync = true };

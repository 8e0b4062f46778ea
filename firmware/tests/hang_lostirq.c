// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hang_lostirq.c - lost interrupts: core 0 registers a TIMER handler and
 * starts a one-shot TIMER with its interrupt, but never enables the
 * timer's line in IRQC ENABLE, then sleeps until the handler has run;
 * core 1 stops every source and sleeps. Cores 2 and 3 exit 0. Nothing can
 * wake cores 0 and 1: a deadlock (exit 4), each waiting for an interrupt
 * at its call of rt_wait in sleep_until_tick(), and the report says why:
 * core 0's timer line is raised (PENDING bit 0) but masked (ENABLE 0),
 * core 1 has no source enabled.
 */
#include "nocprof.h"

static volatile unsigned ticked;

static void on_tick(void)
{
    rt_timer_ack();
    ticked = 1;
}

void sleep_until_tick(void)
{
    while (!ticked)
        rt_wait(); /* the waiting line */
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core >= 2)
        return 0;
    rt_irq_disable(RT_IRQ_BIT(RT_IRQ_TIMER) | RT_IRQ_BIT(RT_IRQ_NOC_RX) | RT_IRQ_BIT(RT_IRQ_NOC_TX));
    if (core == 0) {
        rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
        rt_timer_start(500, false); /* forgot rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER)) */
        rt_interrupts_on();
    }
    sleep_until_tick();
    return 1;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hang_irq.c - a hang kept busy by interrupts (issue 19.8 a): cores 0 and
 * 1 each wait in rt_recv for the other's packet before sending their own,
 * while a periodic TIMER interrupt runs on both (its handler only acks:
 * nothing another core could see). The other cores exit 0. SPEC 1's hang
 * rule finds it within [run] livelock_cycles: exit 4, each stuck core
 * named at its call of rt_recv in exchange() (the caller's line, not the
 * runtime's), waiting to receive, and the wait-for cycle 0 -> 1 -> 0.
 */
#include "nocprof.h"

static volatile unsigned ticks;

static void on_tick(void)
{
    rt_timer_ack();
    ticks++;
}

static RT_NOINLINE unsigned exchange(unsigned peer)
{
    uint32_t w[1];
    rt_recv(NULL, w, 1); /* HANG_IRQ_WAIT */
    rt_send(peer, w, 1);
    return w[0];
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core > 1)
        return 0;
    rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER));
    rt_timer_start(5000, true);
    rt_interrupts_on();
    unsigned v = exchange(1 - core);
    rt_printf("hang_irq: core %u got %u after %u ticks\n", core, v, ticks);
    return 1;
}

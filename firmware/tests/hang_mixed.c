// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hang_mixed.c - one core asleep in `wait`, one polling (SPEC 1 hang rule,
 * a mix): core 0 sleeps in `wait` with only the NoC receive interrupt
 * enabled (no timer) until a packet comes; core 1 polls in rt_recv. Nobody
 * sends. Both wait for a packet: core 0's report says `receive` (what its
 * enabled line waits for, as for a core in rt_recv), not `interrupt`.
 * Before: a core halted while asleep was always reported as waiting for
 * an interrupt, whatever it had enabled.
 */
#include "nocprof.h"

static volatile unsigned got;

static void on_rx(void)
{
    uint32_t w[1];
    rt_recv(NULL, w, 1);
    got = 1;
}

static RT_NOINLINE void sleeper(void)
{
    rt_irq_set_handler(RT_IRQ_NOC_RX, on_rx);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_NOC_RX));
    rt_interrupts_on();
    while (!got)
        rt_wait(); /* HANG_MIXED_WAIT */
}

static RT_NOINLINE void poller(void)
{
    uint32_t w[1];
    rt_recv(NULL, w, 1); /* HANG_MIXED_POLL */
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core == 0)
        sleeper();
    else if (core == 1)
        poller();
    return 0;
}

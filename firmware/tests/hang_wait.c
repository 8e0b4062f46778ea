// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hang_wait.c - a hang with every core asleep in `wait` under a heartbeat
 * (issue 19): cores 0 and 1 each sleep in `wait` (the race-free pattern,
 * the NoC receive interrupt enabled) until the other's packet has arrived,
 * before sending their own, while a periodic TIMER interrupt wakes them
 * every HANG_WAIT_PERIOD cycles (its handler only acks and counts: nothing
 * another core could see). The other cores exit 0. SPEC 1's hang rule
 * finds it within [run] livelock_cycles: exit 4, each stuck core named at
 * its wait loop in await_peer() (the caller's line, not rt_wait's),
 * waiting to receive, and the wait-for cycle 0 -> 1 -> 0. Before, a core
 * in `wait` that its own timer would wake was never stuck: the run went
 * on to the cycle limit.
 */
#include "nocprof.h"

#define HANG_WAIT_PERIOD 2000u

static volatile unsigned ticks, got;
static volatile uint32_t msg;

static void on_tick(void)
{
    rt_timer_ack();
    ticks++;
}

static void on_rx(void)
{
    uint32_t w[1];
    while (rt_rx_count()) {
        rt_recv(NULL, w, 1);
        msg = w[0];
        got = 1;
    }
}

/* Sleep until the peer's packet is in; both calls on one line: the core
 * stops in `wait` or in the tick's handler taken in rt_interrupts_on. */
static RT_NOINLINE uint32_t await_peer(void)
{
    for (;;) {
        rt_interrupts_off();
        if (got)
            break;
        rt_wait(); rt_interrupts_on(); /* HANG_WAIT_WAIT */
    }
    rt_interrupts_on();
    return msg;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core > 1)
        return 0;
    rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
    rt_irq_set_handler(RT_IRQ_NOC_RX, on_rx);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER) | RT_IRQ_BIT(RT_IRQ_NOC_RX));
    rt_timer_start(HANG_WAIT_PERIOD, true);
    rt_interrupts_on();
    uint32_t w[1] = { await_peer() + 1 };
    rt_send(1 - core, w, 1);
    rt_printf("hang_wait: core %u got %u after %u ticks\n", core, (unsigned)w[0] - 1, ticks);
    return 1;
}

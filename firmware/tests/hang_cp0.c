// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hang_cp0.c - every core asleep in `wait` under a CP0 Compare heartbeat,
 * for a flag nobody sets (issue 19): each core's CP0 timer (Status.IM7)
 * wakes it every HANG_CP0_INTERVAL cycles; the handler only moves Compare
 * on, and main goes back to sleep until `ready`, which nothing writes. No
 * IRQC line is enabled and nothing touches the NoC or the IRQC: the only
 * points at which the hang can be seen are the waits, the wakes and each
 * core's due cycle. SPEC 1's hang rule finds it within [run]
 * livelock_cycles: exit 4, every core waiting for an interrupt at its
 * loop in sleep_until_ready(), no wait-for cycle. Before, it ran to the
 * cycle limit.
 */
#include "nocprof.h"

#define HANG_CP0_INTERVAL 1500u   /* Count ticks: 3000 cycles at count_divisor 2 */

static volatile unsigned ticks, ready;

static void on_cp0_tick(void)
{
    ticks++;
    rt_cp0_set_compare(rt_cp0_compare() + HANG_CP0_INTERVAL);
}

static RT_NOINLINE void sleep_until_ready(void)
{
    while (!ready) {
        rt_wait(); rt_interrupts_on(); rt_interrupts_off(); /* HANG_CP0_WAIT */
    }
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    rt_cp0_timer_set_handler(on_cp0_tick);
    rt_interrupts_off();
    rt_cp0_set_compare(rt_cp0_count() + HANG_CP0_INTERVAL);
    rt_cp0_timer_on();
    sleep_until_ready();
    rt_printf("hang_cp0: core %u ready after %u ticks\n", core, ticks);
    return 1;
}

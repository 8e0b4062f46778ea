// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wait_print.c - a heartbeat loop that prints is no hang (issue 19): core
 * 0 sleeps in `wait` under a periodic TIMER interrupt of WAIT_PRINT_PERIOD
 * cycles and prints one line per tick, WAIT_PRINT_TICKS times (about
 * 80000 cycles), then exits 0; the other cores exit 0 at once. Console
 * output is something the outside sees (SPEC 1, the hang rule): with
 * [run] livelock_cycles far below the run, it still ends normally.
 */
#include "nocprof.h"

#define WAIT_PRINT_PERIOD 2000u
#define WAIT_PRINT_TICKS 40u

static volatile unsigned ticks;

static void on_tick(void)
{
    rt_timer_ack();
    ticks++;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core > 0)
        return 0;
    rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER));
    rt_timer_start(WAIT_PRINT_PERIOD, true);
    rt_interrupts_on();
    for (unsigned seen = 0; seen < WAIT_PRINT_TICKS;) {
        rt_interrupts_off();
        if (ticks == seen) {
            rt_wait();
            rt_interrupts_on();
            continue;
        }
        rt_interrupts_on();
        seen = ticks;
        rt_printf("tick %u\n", seen);
    }
    rt_timer_stop();
    return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hang_tick.c - a spin on a flag in the core's own RAM that a periodic
 * TIMER handler sets at its HANG_TICKS-th tick (a delay counted in
 * ticks): core 0 runs `while (flag == 0) ;` (one block, lw/beqz/nop) while
 * ticks come every HANG_TICK_PERIOD cycles; the other cores exit 0.
 * Built twice: spin_tick (5 ticks, 10000 cycles: shorter than
 * livelock_cycles in e2e; exits 0, identical in every schedule, e2e/exact)
 * and hang_tick (100 ticks, 200000 cycles: with nothing another core could
 * see meanwhile, a livelock once livelock_cycles have passed, like a loop
 * of `wait`s that ticks wake; e2e/status).
 */
#include "nocprof.h"

#ifndef HANG_TICKS
#define HANG_TICKS 100u
#endif
#define HANG_TICK_PERIOD 2000u

static volatile unsigned ticks, flag;

static void on_tick(void)
{
    rt_timer_ack();
    if (++ticks == HANG_TICKS)
        flag = 1;
}

static RT_NOINLINE void await_flag(void)
{
    while (flag == 0) /* HANG_TICK_WAIT */
        ;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core > 0)
        return 0;
    rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER));
    rt_timer_start(HANG_TICK_PERIOD, true);
    rt_interrupts_on();
    await_flag();
    rt_timer_stop();
    rt_printf("hang_tick: flag after %u ticks\n", ticks);
    return 0;
}

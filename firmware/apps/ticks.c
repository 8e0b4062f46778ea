/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * ticks.c - a periodic timer-interrupt task on every core.
 *
 * Core k programs the TIMER periodic with TICKS_PERIOD(k) cycles and an
 * interrupt; on_tick (the IRQC bit0 handler) ACKs, counts and time-stamps
 * each tick and stops the timer at the TICKS_N-th.  main alternates a
 * little work (do_work, a few hundred cycles) with rt_wait() using the
 * race-free pattern (interrupts off, test, wait, interrupts on).
 *
 * Checks: exactly TICKS_N ticks; ticks TICKS_N apart in time by
 * (TICKS_N - 1) * period within TICKS_SLACK cycles; first tick between
 * period and period + TICKS_LATENCY cycles after the timer was started.
 * Prints "ticks: core k period P: 50 ticks ok" and exits 0 when right.
 */
#include "nocprof.h"

#define TICKS_N             50u
#define TICKS_PERIOD(k)     (5000u + 1000u * (k))
#define TICKS_SLACK         64u    /* spacing error allowed over all ticks */
#define TICKS_LATENCY       400u   /* expiry -> handler time stamp */

static volatile unsigned ticks;
static volatile uint64_t first_tick, last_tick;

static void on_tick(void)
{
    uint64_t now = rt_cycles();

    rt_timer_ack();
    ticks++;
    if (ticks == 1)
        first_tick = now;
    if (ticks == TICKS_N) {
        last_tick = now;
        rt_timer_stop();
    }
}

RT_NOINLINE static uint32_t do_work(uint32_t x)
{
    for (unsigned i = 0; i < 32; i++)
        x = x * 1103515245u + 12345u;
    return x;
}

int main(unsigned core, unsigned ncores)
{
    uint32_t period = TICKS_PERIOD(core);
    uint32_t work = core;

    (void)ncores;
    rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER));
    uint64_t start = rt_cycles();
    rt_timer_start(period, true);
    rt_interrupts_on();

    for (;;) {
        work = do_work(work);
        rt_interrupts_off();
        if (ticks >= TICKS_N) {
            rt_interrupts_on();
            break;
        }
        rt_wait();
        rt_interrupts_on();          /* the pending tick is taken here */
    }
    rt_irq_disable(RT_IRQ_BIT(RT_IRQ_TIMER));

    uint64_t spacing = last_tick - first_tick;
    uint64_t want = (uint64_t)(TICKS_N - 1u) * period;
    uint64_t first = first_tick - start;
    bool ok_count = ticks == TICKS_N;
    bool ok_spacing = spacing + TICKS_SLACK >= want && spacing <= want + TICKS_SLACK;
    bool ok_first = first >= period && first <= period + TICKS_LATENCY;
    bool ok = ok_count && ok_spacing && ok_first;

    rt_printf("ticks: core %u period %u: %u ticks %s\n", core, period, ticks,
              ok ? "ok" : "WRONG");
    if (!ok_spacing)
        rt_puts("ticks: tick spacing is not (ticks - 1) * period\n");
    if (!ok_first)
        rt_puts("ticks: first tick not one period after the start\n");
    return ok ? 0 : 1;
}

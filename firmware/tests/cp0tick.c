/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * cp0tick.c - a tick handler on the MIPS core timer (CP0 Count/Compare,
 * hardware line 5), as docs/firmware.md shows it.
 *
 * Every core arms Compare CP0TICK_INTERVAL(k) Count increments ahead,
 * turns on Status.IM7 and IE, and waits. The handler (registered with
 * rt_cp0_timer_set_handler, run by the runtime's vector when Cause.IP7 is
 * set) time-stamps the tick with CYCLE_LO, records Compare and advances
 * Compare by the interval, which also clears the interrupt. main prints
 *   cp0tick: core k tick i compare C cycle T
 * for each of CP0TICK_N ticks, then "cp0tick: core k ok".
 *
 * With count_divisor d and Count never written, Count(t) = t / d: Count
 * becomes C at cycle d * C, and the core, idle in `wait`, takes the
 * interrupt right then. T - d * C is therefore the same for every tick
 * (the vector and dispatcher's path to the time stamp), which the e2e test
 * checks together with the spacing d * interval.
 */
#include "nocprof.h"

#define CP0TICK_N               8u
#define CP0TICK_INTERVAL(k)     (2000u + 500u * (k))

static volatile unsigned ticks;
static uint32_t interval;
static uint32_t compare_at[CP0TICK_N];
static uint32_t cycle_at[CP0TICK_N];

static void on_cp0_tick(void)
{
    uint32_t now = rt_cycles32();
    uint32_t c = rt_cp0_compare();
    if (ticks < CP0TICK_N) {
        compare_at[ticks] = c;
        cycle_at[ticks] = now;
    }
    ticks++;
    if (ticks < CP0TICK_N)
        rt_cp0_set_compare(c + interval);
    else
        rt_cp0_timer_off();        /* done: Compare stays, IM7 off */
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    interval = CP0TICK_INTERVAL(core);
    rt_cp0_timer_set_handler(on_cp0_tick);
    rt_interrupts_off();
    rt_cp0_set_compare(rt_cp0_count() + interval);
    rt_cp0_timer_on();
    while (ticks < CP0TICK_N) {
        rt_wait();                 /* woken by the CP0 timer (IM7) */
        rt_interrupts_on();        /* the pending tick is taken here */
        rt_interrupts_off();
    }
    for (unsigned i = 0; i < CP0TICK_N; i++)
        rt_printf("cp0tick: core %u tick %u compare %u cycle %u\n", core, i, compare_at[i], cycle_at[i]);
    rt_printf("cp0tick: core %u ok\n", core);
    return 0;
}

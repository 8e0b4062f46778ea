/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * alias.c - work locked to a periodic timer, to show sampling aliasing.
 *
 * The timer fires every ALIAS_PERIOD = 5000 cycles; on_tick (IRQC bit0)
 * stamps the tick's cycle count and sets a flag.  main waits for the flag
 * (race-free rt_wait), then runs short_task() for SHORT_CYCLES (10% of the
 * period) and long_task() for LONG_CYCLES (80%), both measured from the
 * tick stamp on the cycle counter inside the task itself (so the time is
 * their own self time), and waits again.  ALIAS_TICKS = 400 ticks.
 *
 * Exact (instrumented) profile, per core, over the 400 periods:
 *   short_task   ~10% of the cycles   (SHORT_CYCLES after the stamp)
 *   long_task    ~80%                 (until the stamp + 90% of the period)
 *   <idle>       ~10% minus the handler and loop overhead
 *   on_tick / rt_irq_dispatch / _irq_vector / main: the remaining few %
 * The timer is started at a fixed phase (cycle ALIAS_START), so samples
 * taken every 5000 cycles (--sample-period 5000) always land at the same
 * point of the period, about half-way through it: long_task receives ~100%
 * of those samples and short_task none.  A period close to a multiple of
 * 5000 aliases too (4999, 5001, and the default 10007 = 2 x 5000 + 7: its
 * phase drifts only 7 cycles a tick); periods a few percent away (the
 * --alias-check neighbours, e.g. 4947 or 5111) give shares close to the
 * exact ones.
 * Prints "alias: 400 ticks, 400 periods ok" and exits 0 when no tick was
 * missed.
 */
#include "nocprof.h"

#define ALIAS_PERIOD   5000u
#define ALIAS_TICKS    400u
#define SHORT_CYCLES   (ALIAS_PERIOD / 10u)          /* 10% */
#define LONG_END       (ALIAS_PERIOD * 9u / 10u)     /* short + 80% */
#define ALIAS_START    (2u * ALIAS_PERIOD + ALIAS_PERIOD / 2u)

static volatile unsigned tick_flag, tick_count;
static volatile uint32_t tick_stamp;
static volatile uint32_t sink;

static void on_tick(void)
{
    tick_stamp = rt_cycles32();
    rt_timer_ack();
    tick_flag = 1;
    tick_count++;
}

static inline uint32_t now32(void)
{
    return rt_mmio_read(RT_SYS_BASE, RT_SYS_CYCLE_LO);
}

/* Computes until SHORT_CYCLES after the tick stamp (10% of the period). */
RT_NOINLINE void short_task(uint32_t stamp)
{
    uint32_t x = sink;

    while (now32() - stamp < SHORT_CYCLES)
        x = x * 33u + 7u;
    sink = x;
}

/* Computes until LONG_END after the tick stamp (the next 80%). */
RT_NOINLINE void long_task(uint32_t stamp)
{
    uint32_t x = sink;

    while (now32() - stamp < LONG_END)
        x = (x << 3) ^ (x >> 5) ^ 0x5bd1e995u;
    sink = x;
}

RT_NOINLINE static void wait_for_tick(void)
{
    rt_interrupts_off();
    while (!tick_flag) {
        rt_wait();
        rt_interrupts_on();          /* the pending tick is taken here */
        rt_interrupts_off();
    }
    tick_flag = 0;
    rt_interrupts_on();
}

int main(unsigned core, unsigned ncores)
{
    unsigned periods = 0;

    (void)core;
    (void)ncores;
    rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER));
    while (now32() < ALIAS_START)
        ;
    rt_timer_start(ALIAS_PERIOD, true);
    rt_interrupts_on();

    while (periods < ALIAS_TICKS) {
        wait_for_tick();
        uint32_t stamp = tick_stamp;
        short_task(stamp);
        long_task(stamp);
        periods++;
    }
    rt_timer_stop();
    rt_irq_disable(RT_IRQ_BIT(RT_IRQ_TIMER));

    bool ok = tick_count == periods;
    rt_printf("alias: %u ticks, %u periods %s\n", tick_count, periods,
              ok ? "ok" : "MISSED TICKS");
    return ok ? 0 : 1;
}

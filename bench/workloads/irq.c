// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irq.c - interrupt-heavy bench workload (platform only): a periodic timer
 * every IRQ_PERIOD = 200 cycles whose handler does a little work (a hash
 * step), while main computes IRQ_WORK rounds of an LCG/CRC-style loop.
 *
 * The handler path (vector, dispatch, on_tick) takes well under 200 cycles
 * with the default timing, so main keeps making progress.  Checks that the
 * number of ticks matches the elapsed cycles (elapsed / IRQ_PERIOD, +-2)
 * and that main's result is right; returns 0 when both hold.
 */
#include "workload.h"

#define IRQ_PERIOD 200u
#ifndef IRQ_WORK
#define IRQ_WORK   20000u
#endif

static volatile uint32_t ticks, tick_hash;

static void on_tick(void)
{
    rt_timer_ack();
    ticks++;
    tick_hash = (tick_hash ^ ticks) * 0x01000193u;
}

/* noipa: gcc must not treat it as const and move it out of the timed part */
__attribute__((noipa)) static uint32_t compute(uint32_t rounds)
{
    uint32_t x = 0xffffffffu;

    for (uint32_t i = 0; i < rounds; i++) {
        x ^= i & 0xffu;
        for (unsigned k = 0; k < 8; k++)
            x = (x & 1u) ? (x >> 1) ^ 0xedb88320u : x >> 1;
    }
    return x;
}

/* The same computation with interrupts off, for the check. */
__attribute__((noipa)) static uint32_t compute_quiet(uint32_t rounds)
{
    rt_interrupts_off();
    uint32_t r = compute(rounds);
    rt_interrupts_on();
    return r;
}

int workload_main(unsigned core, unsigned ncores)
{
    (void)ncores;
    rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER));
    rt_interrupts_on();

    uint64_t start = rt_cycles();
    rt_timer_start(IRQ_PERIOD, true);
    uint32_t r = compute(IRQ_WORK);
    rt_timer_stop();
    uint64_t elapsed = rt_cycles() - start;
    rt_timer_ack();
    rt_irq_disable(RT_IRQ_BIT(RT_IRQ_TIMER));

    uint32_t want_ticks = (uint32_t)(elapsed / IRQ_PERIOD);
    bool ok_ticks = ticks + 2u >= want_ticks && ticks <= want_ticks + 2u;
    bool ok_result = r == compute_quiet(IRQ_WORK);
    rt_printf("irq: core %u %u rounds under a %u-cycle timer %s\n", core, IRQ_WORK,
              IRQ_PERIOD, ok_ticks && ok_result ? "ok" : "WRONG");
    return ok_ticks && ok_result ? 0 : 1;
}

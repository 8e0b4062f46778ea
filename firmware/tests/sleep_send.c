// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sleep_send.c - one long sleep is no hang, also when the cycle limit
 * comes first (SPEC 1, docs/design.md "Endings"): core 0 sleeps in `wait`
 * until a one-shot TIMER of SLEEP_SEND_CYCLES expires, then sends core 1
 * a word; core 1 polls for it in rt_recv. With --max-cycles past the
 * sleep every core exits 0; below it the run ends at the limit, both
 * cores `limit`. Before: core 0 reached the limit asleep, was left out
 * of the livelock check as a stopped core, and core 1 alone was a
 * livelock after [run] livelock_cycles.
 */
#include "nocprof.h"

#define SLEEP_SEND_CYCLES 300000u

static volatile unsigned ticks;

static void on_tick(void)
{
    rt_timer_ack();
    ticks++;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core == 0) {
        rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
        rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER));
        rt_timer_start(SLEEP_SEND_CYCLES, false);
        rt_interrupts_on();
        while (!ticks)
            rt_wait();
        uint32_t w[1] = { 0x5eed };
        rt_send(1, w, 1);
    } else if (core == 1) {
        uint32_t w[1];
        rt_recv(NULL, w, 1);
        return w[0] == 0x5eed ? 0 : 1;
    }
    return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fault_one.c - one core faults and another waits for it: core 1 stores
 * through a NULL pointer in publish() before it sends its result to
 * core 2, which waits for that packet in rt_recv with a periodic timer
 * interrupt running (a livelock once core 1 is gone). Cores 0 and 3 exit
 * 0. Expected: exit status 3, summary.txt's headline names core 1's fault
 * first, then the livelock (e2e/status test_headline_names_the_fault).
 */
#include "nocprof.h"

struct result {
    uint32_t seq, value;
};

/* read at run time, so the compiler cannot see the NULL */
struct result *volatile slot;
static volatile unsigned ticks;

static void on_tick(void)
{
    rt_timer_ack();
    ticks++;
}

RT_NOINLINE void publish(struct result *r, uint32_t v)
{
    r->value = v;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    uint32_t w = 0;
    if (core == 1) {
        publish(slot, 42);
        rt_send(2, &w, 1);
    } else if (core == 2) {
        rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
        rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER));
        rt_timer_start(5000, true);
        rt_interrupts_on();
        rt_recv(NULL, &w, 1);
    }
    return 0;
}

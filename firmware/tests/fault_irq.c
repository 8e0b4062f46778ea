// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fault_irq.c - core 0 faults inside a TIMER interrupt handler (a NULL
 * write in on_tick) that interrupted busy(), called from main; the other
 * cores exit 0. Expected frames: on_tick, rt_irq_dispatch, _irq_vector,
 * then busy at the interrupted instruction (EPC: inside its loop), main.
 */
#include "nocprof.h"

struct cell {
    int x;
};

/* read at run time, so the compiler cannot see the NULL */
struct cell *volatile fault_irq_null;
static volatile int spin;

static void on_tick(void)
{
    rt_timer_ack();
    fault_irq_null->x = 1; /* the faulting line */
}

void busy(void)
{
    for (;;)
        spin++; /* the interrupted line */
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core)
        return 0;
    rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER));
    rt_timer_start(300, false);
    rt_interrupts_on();
    busy();
    return 1;
}

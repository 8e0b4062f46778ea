/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * deadlock.c - every core disables all IRQC sources, stops its timer and
 * waits forever in wait_forever().  Nothing can wake any core, so the
 * emulator reports a deadlock (exit status 4, core status "deadlock").
 */
#include "nocprof.h"

void wait_forever(void)
{
    for (;;)
        rt_wait();
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    rt_printf("deadlock: core %u waits forever\n", core);
    rt_timer_stop();
    rt_irq_disable(RT_IRQ_BIT(RT_IRQ_TIMER) | RT_IRQ_BIT(RT_IRQ_NOC_RX) |
                   RT_IRQ_BIT(RT_IRQ_NOC_TX));
    wait_forever();
    return 1;
}

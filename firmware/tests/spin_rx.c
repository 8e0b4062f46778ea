// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * spin_rx.c - a spin on a flag in the core's own RAM that its NoC receive
 * interrupt handler sets: core 1 computes for a while, then sends core 0
 * a packet, three times (each after a different delay, so the packet
 * lands at another phase of the spin); core 0 spins on `while (got < k) ;`
 * (one block: lw, sltu, branch) with the receive interrupt enabled. The network, not a local event,
 * ends the spin: the skipped iterations must end where the interrupt is
 * taken without skipping (e2e/exact: the same files as the reference
 * schedule at every quantum and thread count). Built again as spin_rx28
 * (the second packet 28 compute steps after the first): it lands while
 * core 0 runs the first iteration of its second spin, right after the
 * first handler, before the skip begins.
 */
#include "nocprof.h"

static volatile unsigned got;
static volatile uint32_t msg;
#ifndef SPIN_RX_DELAYS
#define SPIN_RX_DELAYS 3000, 1001, 517
#endif
static const unsigned delays[3] = { SPIN_RX_DELAYS };

static void on_rx(void)
{
    uint32_t w[1];
    while (rt_rx_count()) {
        rt_recv(NULL, w, 1);
        msg += w[0];
        got++;
    }
}

static RT_NOINLINE unsigned compute(unsigned n)
{
    unsigned x = 1;
    for (unsigned i = 0; i < n; i++)
        x = x * 1103515245u + 12345u;
    return x;
}

static RT_NOINLINE void await_msg(unsigned k)
{
    while (got < k)
        ;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core == 1) {
        for (unsigned k = 0; k < 3; k++) {
            uint32_t w[1] = { compute(delays[k]) };
            rt_send(0, w, 1);
        }
        return 0;
    }
    if (core != 0)
        return 0;
    rt_irq_set_handler(RT_IRQ_NOC_RX, on_rx);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_NOC_RX));
    rt_interrupts_on();
    for (unsigned k = 1; k <= 3; k++)
        await_msg(k);
    rt_printf("spin_rx: got 0x%08x\n", (unsigned)msg);
    return 0;
}

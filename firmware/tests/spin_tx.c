// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * spin_tx.c - a transmit-room poll (rt_send on a full injection queue)
 * that the core's NoC receive interrupt breaks into: core 0 enables the
 * receive interrupt and sends core 1 twelve 16-word packets; core 1
 * computes for a long while before it receives any, so core 0's queue
 * and the path fill and core 0 polls TX_STATUS in rt_send (a one-block
 * loop whose failed polls are skipped). Meanwhile core 2 sends core 0
 * three packets, each after a different delay (so they land at other
 * phases of the poll loop): the skip must end where the interrupt is
 * taken without skipping, at the first iteration boundary after the
 * line rose (e2e/exact: the same files as the reference schedule at
 * every quantum and thread count).
 */
#include "nocprof.h"

#define SPIN_TX_PACKETS 12u

static volatile unsigned got;
static volatile uint32_t msg, at[3];

static void on_rx(void)
{
    uint32_t w[1];
    while (rt_rx_count()) {
        rt_recv(NULL, w, 1);
        msg += w[0];
        if (got < 3)
            at[got] = rt_mmio_read(RT_SYS_BASE, RT_SYS_CYCLE_LO);
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

static const unsigned delays[3] = { 3000, 1001, 517 };

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    uint32_t w[16];
    if (core == 2) {
        for (unsigned k = 0; k < 3; k++) {
            w[0] = compute(delays[k]);
            rt_send(0, w, 1);
        }
        return 0;
    }
    if (core == 1) {
        uint32_t sum = compute(20000);
        for (unsigned k = 0; k < SPIN_TX_PACKETS; k++) {
            rt_recv(NULL, w, 16);
            sum += w[k];
        }
        rt_printf("spin_tx: core 1 sum 0x%08x\n", (unsigned)sum);
        return 0;
    }
    if (core != 0)
        return 0;
    rt_irq_set_handler(RT_IRQ_NOC_RX, on_rx);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_NOC_RX));
    rt_interrupts_on();
    for (unsigned k = 0; k < SPIN_TX_PACKETS; k++) {
        for (unsigned i = 0; i < 16; i++)
            w[i] = k * 16u + i;
        rt_send(1, w, 16);
    }
    while (got < 3)
        ;
    rt_printf("spin_tx: got 0x%08x at %u %u %u\n", (unsigned)msg, (unsigned)at[0], (unsigned)at[1], (unsigned)at[2]);
    return 0;
}

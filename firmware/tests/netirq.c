/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * netirq.c - interrupt-driven networking: the NoC receive and
 * transmit-ready interrupts, and `wait` woken by the network.
 *
 * Core 0 sends NETIRQ_PACKETS packets to every other core from its NoC
 * transmit-ready interrupt handler (one packet per interrupt while the
 * injection queue has room; the handler disables the interrupt when all
 * are sent) and sleeps in `wait` meanwhile. Every other core sleeps in
 * `wait` with the NoC receive interrupt enabled; its handler drains the
 * receive queue and checks each packet (source 0, sequence number, payload
 * derived from it). Each core prints its counts and exits 0 only when every
 * packet arrived intact and in order.
 */
#include "nocprof.h"

#define NETIRQ_PACKETS 40u
#define NETIRQ_WORDS 4u

static volatile unsigned sent, next_dst = 1, received, bad;
static volatile unsigned rx_irqs, tx_irqs;
static unsigned ncores_g;

static uint32_t payload(unsigned dst, unsigned seq, unsigned i)
{
    return (dst << 24) ^ (seq << 8) ^ (i * 0x9e3779b9u);
}

/* transmit-ready: queue one packet, round robin over the destinations */
static void on_tx_ready(void)
{
    tx_irqs++;
    unsigned total = NETIRQ_PACKETS * (ncores_g - 1);
    if (sent < total && rt_tx_ready()) {
        unsigned dst = next_dst, seq = sent / (ncores_g - 1);
        uint32_t w[NETIRQ_WORDS];
        for (unsigned i = 0; i < NETIRQ_WORDS; i++)
            w[i] = payload(dst, seq, i);
        rt_send(dst, w, NETIRQ_WORDS);
        sent++;
        next_dst = dst + 1 < ncores_g ? dst + 1 : 1;
    }
    if (sent == total)
        rt_irq_disable(RT_IRQ_BIT(RT_IRQ_NOC_TX));
}

/* receive: drain every complete packet */
static void on_rx(void)
{
    rx_irqs++;
    unsigned me = rt_core_id();
    while (rt_rx_count()) {
        unsigned src;
        uint32_t w[NETIRQ_WORDS];
        unsigned n = rt_recv(&src, w, NETIRQ_WORDS);
        bool ok = src == 0 && n == NETIRQ_WORDS;
        for (unsigned i = 0; ok && i < NETIRQ_WORDS; i++)
            ok = w[i] == payload(me, received, i);
        if (!ok)
            bad++;
        received++;
    }
}

/* Sleep until *counter reaches goal; the handlers run on waking. */
static void sleep_until(volatile unsigned *counter, unsigned goal)
{
    for (;;) {
        rt_interrupts_off();
        if (*counter >= goal)
            break;
        rt_wait();
        rt_interrupts_on();
    }
    rt_interrupts_on();
}

int main(unsigned core, unsigned ncores)
{
    ncores_g = ncores;
    if (ncores < 2) {
        rt_printf("netirq: needs 2 or more cores\n");
        return 1;
    }
    if (core == 0) {
        rt_irq_set_handler(RT_IRQ_NOC_TX, on_tx_ready);
        rt_irq_enable(RT_IRQ_BIT(RT_IRQ_NOC_TX));
        sleep_until(&sent, NETIRQ_PACKETS * (ncores - 1));
        rt_printf("netirq: core 0 sent %u packets in %u tx interrupts\n", sent, tx_irqs);
        return sent == NETIRQ_PACKETS * (ncores - 1) ? 0 : 1;
    }
    rt_irq_set_handler(RT_IRQ_NOC_RX, on_rx);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_NOC_RX));
    sleep_until(&received, NETIRQ_PACKETS);
    rt_irq_disable(RT_IRQ_BIT(RT_IRQ_NOC_RX));
    rt_printf("netirq: core %u received %u packets, %u bad\n", core, received, bad);
    return received == NETIRQ_PACKETS && bad == 0 ? 0 : 1;
}

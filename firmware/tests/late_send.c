// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * late_send.c - a result sent after a long computation is no hang (SPEC 1:
 * real progress is never a livelock). Core 1 computes for about
 * LATE_SEND_ITERS * 4 cycles (past a livelock_cycles of 50000), sends the
 * result to core 0 and exits at once; core 0 polls for it in rt_recv.
 * Core 3 does the same towards core 2, but sleeps once in `wait` for a
 * tick of a periodic TIMER first and computes under its interrupts.
 * Every core exits 0 when the value it got is the one it computes itself.
 * Before: the packet was ejected into core 0's receive queue while its
 * sender was already done, the network was empty, and the receiver's wake
 * (the packet's arrival) found "every live core stuck": a livelock
 * naming core 0 in rt_recv, the packet never read.
 */
#include "nocprof.h"

#define LATE_SEND_ITERS 20000u

static volatile unsigned ticks;

static void on_tick(void)
{
    rt_timer_ack();
    ticks++;
}

static uint32_t work(unsigned n)
{
    uint32_t x = 1;
    for (unsigned i = 0; i < n; i++)
        x = x * 1103515245u + 12345u;
    return x;
}

static void send_late(unsigned dst, bool sleep_first)
{
    if (sleep_first) {
        rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
        rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER));
        rt_timer_start(1000, true);
        rt_interrupts_on();
        while (ticks == 0)
            rt_wait();
    }
    uint32_t w[1] = { work(LATE_SEND_ITERS) };
    rt_send(dst, w, 1);
}

static int receive(void)
{
    uint32_t w[1];
    rt_recv(NULL, w, 1);
    return w[0] == work(LATE_SEND_ITERS) ? 0 : 1;
}

int main(unsigned core, unsigned ncores)
{
    if (ncores < 4)
        return 2;
    switch (core) {
    case 0:
    case 2:
        return receive();
    case 1:
        send_late(0, false);
        return 0;
    case 3:
        send_late(2, true);
        return 0;
    default:
        return 0;
    }
}

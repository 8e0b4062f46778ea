// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wait_beat.c - sleeping in `wait` under a heartbeat is no hang when the
 * event comes (issue 19): cores 0 and 1 run a periodic TIMER interrupt of
 * WAIT_BEAT_PERIOD cycles and sleep in `wait` meanwhile. Core 1 sleeps for
 * WAIT_BEAT_TICKS ticks, then sends core 0 one packet; core 0 sleeps until
 * it arrives (NoC receive interrupt). Both print and exit 0, the others
 * exit 0 at once. With [run] livelock_cycles above the WAIT_BEAT_TICKS
 * ticks (about 20000 cycles) it ends normally; below it, both cores have
 * only waited for livelock_cycles and the run is a livelock (the rule's
 * documented limit: a wait that only a timer ends must end within it).
 */
#include "nocprof.h"

#define WAIT_BEAT_PERIOD 2000u
#define WAIT_BEAT_TICKS 10u

static volatile unsigned ticks, got;
static volatile uint32_t msg;

static void on_tick(void)
{
    rt_timer_ack();
    ticks++;
}

static void on_rx(void)
{
    uint32_t w[1];
    while (rt_rx_count()) {
        rt_recv(NULL, w, 1);
        msg = w[0];
        got = 1;
    }
}

static void sleep_until(volatile unsigned *v, unsigned goal)
{
    for (;;) {
        rt_interrupts_off();
        if (*v >= goal)
            break;
        rt_wait();
        rt_interrupts_on();
    }
    rt_interrupts_on();
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core > 1)
        return 0;
    rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
    rt_irq_set_handler(RT_IRQ_NOC_RX, on_rx);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER) | RT_IRQ_BIT(RT_IRQ_NOC_RX));
    rt_timer_start(WAIT_BEAT_PERIOD, true);
    rt_interrupts_on();
    if (core == 1) {
        sleep_until(&ticks, WAIT_BEAT_TICKS);
        uint32_t w[1] = { 0xbeefu };
        rt_send(0, w, 1);
    } else {
        sleep_until(&got, 1);
    }
    rt_timer_stop();
    rt_printf("wait_beat: core %u msg 0x%x after %u ticks\n", core, (unsigned)msg, ticks);
    return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * livelock.c - every core waits for a packet that nobody sends, by
 * polling RX_COUNT (rt_recv) instead of sleeping in `wait`. Nothing is in
 * flight and no timer interrupt is enabled: after [run] livelock_cycles
 * the run ends as a deadlock whose report says "livelock" and where each
 * core was polling. Core 0 first sends one packet to core 1 and receives
 * one back, so the detection starts from real progress.
 */
#include "nocprof.h"

static RT_NOINLINE void wait_for_nothing(void)
{
    uint32_t w[1];
    rt_recv(NULL, w, 1);
}

int main(unsigned core, unsigned ncores)
{
    uint32_t w[1] = { core };

    if (ncores > 1 && core == 0) {
        rt_send(1, w, 1);
        rt_recv(NULL, w, 1);
    } else if (ncores > 1 && core == 1) {
        rt_recv(NULL, w, 1);
        rt_send(0, w, 1);
    }
    wait_for_nothing();
    rt_printf("livelock: core %u got a packet nobody sent\n", core);
    return 1;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * afterwait.c - the critical chain's last stretch (issue 20.9): core 0
 * spins DELAY cycles, then sends core 1 one packet; core 1 waits for it in
 * rt_recv, then runs hot_loop for HOT iterations (far longer than the
 * wait) and finishes last. comm.txt must say the time after the last wait
 * went to hot_loop, not to rt_recv where the wait was. Cores 2, 3 return.
 */
#include "nocprof.h"

#define DELAY 20000u
#define HOT   200000u

volatile uint32_t sink;

uint32_t hot_loop(uint32_t n)
{
    uint32_t acc = 1;
    for (uint32_t i = 0; i < n; i++)
        acc = acc * 1664525u + 1013904223u;
    return acc;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    uint32_t w = 7, src;
    if (core == 0) {
        rt_delay(DELAY);
        rt_send(1, &w, 1);
    } else if (core == 1) {
        rt_recv(&src, &w, 1);
        sink = hot_loop(HOT);
    }
    return 0;
}

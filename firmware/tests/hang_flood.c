// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hang_flood.c - every core floods core 0, core 0 included, and nobody
 * receives (issue 19.8 c). The network fills and every core spins on a
 * full transmit queue, waiting for room toward core 0: a wait-for cycle
 * 0 -> 0 that the hang rule finds within [run] livelock_cycles.
 */
#include "nocprof.h"

static RT_NOINLINE void flood(unsigned dst)
{
    uint32_t w[16] = { 0 };
    for (unsigned n = 0;; n++) {
        w[0] = n;
        rt_send(dst, w, 16); /* HANG_FLOOD_WAIT */
    }
}

int main(unsigned core, unsigned ncores)
{
    (void)core;
    (void)ncores;
    flood(0);
    return 1;
}

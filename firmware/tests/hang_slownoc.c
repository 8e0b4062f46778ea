// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hang_slownoc.c - a packet on its way is no hang, however slow the
 * network (SPEC 1: a livelock needs nothing in flight). The last core
 * sends core 0 one word and exits; core 0 receives it in rt_recv, prints
 * it, then waits in rt_recv for a second packet that nobody sends: a
 * hang, found [run] livelock_cycles after the first packet's arrival.
 * e2e/status runs it with router and link latencies of 1000 cycles
 * (several thousand cycles in flight) and livelock_cycles 500. Before:
 * no flit had moved for 500 cycles while the packet waited out a
 * latency, and the run was a livelock at the first rt_recv.
 */
#include "nocprof.h"

int main(unsigned core, unsigned ncores)
{
    uint32_t w[1] = { 0x51 };
    if (core == ncores - 1 && core != 0) {
        rt_send(0, w, 1);
    } else if (core == 0) {
        rt_recv(NULL, w, 1);
        rt_printf("got 0x%x\n", (unsigned)w[0]);
        rt_recv(NULL, w, 1); /* HANG_SLOWNOC_WAIT */
    }
    return 0;
}

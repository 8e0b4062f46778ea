/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * devsample.c - where the samples of device-access loops land (e2e/profiler
 * DeviceAccessSamples).  Core 0 runs ds_cycle_loop (DS_N iterations), then
 * polls its receive queue with ds_poll_rx until core 1's packet, sent after
 * DS_DELAY cycles, is there; it prints the two CYCLE_LO values. Other cores
 * exit at once.
 */
#include "nocprof.h"

#define DS_N 3000u
#define DS_DELAY 100000u

unsigned ds_cycle_loop(unsigned n);
unsigned ds_poll_rx(void);

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core == 0) {
        unsigned loop_last = ds_cycle_loop(DS_N);
        unsigned poll_before = ds_poll_rx();
        uint32_t w[1];
        unsigned src;
        rt_recv(&src, w, 1);
        rt_printf("devsample: loop %u last %u poll %u\n", DS_N, loop_last, poll_before);
    } else if (core == 1) {
        uint32_t w[1] = { 7 };
        rt_delay(DS_DELAY);
        rt_send(0, w, 1);
    }
    return 0;
}

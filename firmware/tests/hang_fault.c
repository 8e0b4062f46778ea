// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hang_fault.c - a fault and a hang in one run (SPEC 4: status 3 wins
 * over 4): core 0 reads through a NULL pointer before it would send
 * core 1 its packet; core 1 waits for it in rt_recv for ever (a
 * livelock after [run] livelock_cycles). The run's status is 3, and
 * summary.txt says a core faulted (before: "exit status: 3 (livelock:
 * every live core only waited)"), then names the livelock and core 1.
 */
#include "nocprof.h"

static int *volatile nowhere;

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    uint32_t w[1] = { 0 };
    if (core == 0) {
        w[0] = (uint32_t)*nowhere;
        rt_send(1, w, 1);
    } else if (core == 1) {
        rt_recv(NULL, w, 1); /* HANG_FAULT_WAIT */
    }
    return 0;
}

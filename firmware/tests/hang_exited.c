// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hang_exited.c - senders blocked on a core that exited (issue 19.8 b):
 * core 1 exits at once; every other core sends packets to it for ever.
 * Its receive queue fills, the network backs up to the senders, whose
 * rt_send polls TX_STATUS for room that never comes. Found as a hang
 * within [run] livelock_cycles although the network is not empty: each
 * sender waits for transmit room toward core 1 at its call of rt_send in
 * flood().
 */
#include "nocprof.h"

static RT_NOINLINE void flood(unsigned dst)
{
    uint32_t w[16] = { 0 };
    for (unsigned n = 0;; n++) {
        w[0] = n;
        rt_send(dst, w, 16); /* HANG_EXITED_WAIT */
    }
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core == 1)
        return 0;
    flood(1);
    return 1;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hang_own.c - a hang in the firmware's own poll loop, not the runtime's:
 * cores 0 and 1 read NI RX_COUNT through the header's inline rt_mmio_read
 * in await_packet() until a packet comes, and nobody sends one. Each
 * stuck core's waiting site is await_packet's loop line (the poll
 * itself), whose first instruction is the inlined read's (nocprof.h).
 * Before: await_packet was taken for a runtime function (its first line
 * is in nocprof.h) and the site was main's call of it.
 */
#include "nocprof.h"

static RT_NOINLINE unsigned await_packet(void)
{
    unsigned n;
    while ((n = rt_mmio_read(RT_NI_BASE, RT_NI_RX_COUNT)) == 0) /* HANG_OWN_WAIT */
        ;
    return n;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core > 1)
        return 0;
    return (int)await_packet();
}

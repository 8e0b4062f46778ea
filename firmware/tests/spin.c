/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * spin.c - every core polls NI RX_COUNT forever in spin_forever() (nobody
 * sends).  Polling is not waiting: the run ends at the cycle limit (exit
 * status 4, core status "limit"), with nearly all cycles in spin_forever
 * and rt_rx_count.
 */
#include "nocprof.h"

unsigned spin_forever(void)
{
    unsigned polls = 0;

    while (rt_rx_count() == 0)
        polls++;
    return polls;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    rt_printf("spin: core %u polls forever\n", core);
    spin_forever();
    rt_puts("spin: not reached\n");
    return 1;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* dhry_port.c — Dhrystone 2.1's timer for nocprof firmware. Dhrystone
 * (Weicker; C by Richardson) is compiled from its unmodified dhry_1.c and
 * dhry_2.c with -DTIME, which times the runs with time(): here the core's
 * exact cycle counter (rt_cycles). Each call prints the cycle it returns,
 * so bench/mhz/run reads the cycles of the timed loop from the console:
 * DMIPS/MHz = runs x 10^6 / (cycles x 1757). */
#include <nocprof.h>
#include <stdio.h>

long time(long *t)
{
    uint64_t c = rt_cycles();
    rt_printf("dhry-port: cycle %u\n", (unsigned)c);
    if (t)
        *t = (long)c;
    return (long)c;
}

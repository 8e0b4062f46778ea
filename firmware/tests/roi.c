/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * roi.c - regions of interest (issue 11): work before, inside and after a
 * region marked with rt_prof_start()/rt_prof_stop(), and a kernel function
 * for --collect-only. Built -O1 -fno-inline -fno-optimize-sibling-calls so
 * every call is a call. Counts are known from the source:
 *   warmup(): ROI_WARM calls of leaf_before      (outside the region)
 *   kernel(): ROI_K calls of leaf                 (inside, once)
 *   cooldown(): ROI_COOL calls of leaf_after      (outside)
 * main prints them; e2e/regions checks the profiles against them and the
 * instruction counts of leaf (straight-line code) from the disassembly.
 */
#include "nocprof.h"

#define ROI_WARM 50u
#define ROI_K    200u
#define ROI_COOL 30u

volatile unsigned sink;

unsigned leaf_before(unsigned x) { return x * 5u + 1u; }
unsigned leaf(unsigned x) { return x * 3u + 7u; }
unsigned leaf_after(unsigned x) { return x ^ 0x55u; }

unsigned warmup(void)
{
    unsigned s = 0;
    for (unsigned i = 0; i < ROI_WARM; i++)
        s += leaf_before(i);
    return s;
}

unsigned kernel(void)
{
    unsigned s = 0;
    for (unsigned i = 0; i < ROI_K; i++)
        s += leaf(i);
    return s;
}

unsigned cooldown(void)
{
    unsigned s = 0;
    for (unsigned i = 0; i < ROI_COOL; i++)
        s += leaf_after(i);
    return s;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    sink = warmup();
    rt_prof_start();
    sink += kernel();
    rt_prof_stop();
    sink += cooldown();
    if (core == 0)
        rt_printf("roi: warm %u kernel %u cool %u sum %u\n", ROI_WARM, ROI_K, ROI_COOL, sink);
    return 0;
}

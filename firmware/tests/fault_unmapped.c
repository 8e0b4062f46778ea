/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * fault_unmapped.c - every core loads a word from 0x8FF00000 (kseg0,
 * physical 0x0FF00000: beyond RAM and outside every device window) in
 * load_unmapped(), called from main.  Expected: fault kind "unmapped",
 * function load_unmapped, exit status 3.
 */
#include "nocprof.h"

#define UNMAPPED_ADDR 0x8FF00000u

uint32_t load_unmapped(void)
{
    return *(volatile uint32_t *)UNMAPPED_ADDR;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    rt_printf("fault_unmapped: core %u loads from 0x%08x\n", core, UNMAPPED_ADDR);
    uint32_t v = load_unmapped();
    rt_printf("fault_unmapped: not reached (0x%08x)\n", v);
    return 1;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * unaligned.c - every core loads a word (lw) from an address that is 1 mod
 * 4 in load_unaligned().  Expected: fault kind "unaligned" (address error
 * on load) in load_unaligned, exit status 3.
 */
#include "nocprof.h"

static uint32_t buffer[4] = { 0x11111111u, 0x22222222u, 0x33333333u, 0x44444444u };

uint32_t load_unaligned(const void *p)
{
    uint32_t v;

    __asm__ volatile("lw %0, 1(%1)" : "=r"(v) : "r"(p) : "memory");
    return v;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    rt_printf("unaligned: core %u loads a word from an odd address\n", core);
    uint32_t v = load_unaligned(buffer);
    rt_printf("unaligned: not reached (0x%08x)\n", v);
    return 1;
}

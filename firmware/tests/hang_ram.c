// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hang_ram.c - a hang in a spin on a flag in the core's own RAM that
 * nothing ever sets (a user trial): core 0 runs `while (flag == 0) ;`,
 * one block `L: lw v0, flag; beqz v0, L; nop`, with no interrupt enabled;
 * the other cores exit 0. SPEC 1's hang rule finds it within [run]
 * livelock_cycles: exit 4, the stuck core named at its spin in
 * await_flag() waiting for a word of RAM to change. Before, the spin ran
 * to the cycle limit.
 */
#include "nocprof.h"

static volatile unsigned flag;

static RT_NOINLINE void await_flag(void)
{
    while (flag == 0) /* HANG_RAM_WAIT */
        ;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core > 0)
        return 0;
    await_flag();
    rt_printf("hang_ram: flag %u\n", flag);
    return 1;
}

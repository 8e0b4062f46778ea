/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * fault_break.c - every core executes `break` in do_break().  Expected:
 * fault kind "break" in do_break, exit status 3.
 */
#include "nocprof.h"

void do_break(void)
{
    __asm__ volatile("break" : : : "memory");
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    rt_printf("fault_break: core %u executes break\n", core);
    do_break();
    rt_puts("fault_break: not reached\n");
    return 1;
}

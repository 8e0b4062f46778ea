// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fault_div.c - `x = a / b; y = a / c;` with c = 0 (issue 19.3): gcc's
 * divide-by-zero checks (`teq divisor, $zero, 7` after each `div`) sit in
 * one block; the second traps. Expected: fault kind "trap" in divide(),
 * at the second teq, on the line of `y = a / c`, the first division
 * counted and not the second's mflo.
 */
#include "nocprof.h"

volatile int fault_div_b = 3, fault_div_c = 0;

int divide(int a, int b, int c)
{
    int x = a / b;
    int y = a / c; /* the faulting line */
    return x + y;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    rt_printf("fault_div: core %u divides by zero\n", core);
    int r = divide(10 + (int)core, fault_div_b, fault_div_c);
    rt_printf("fault_div: not reached %d\n", r);
    return 1;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fault_jump.c - each core calls through a corrupt function pointer in
 * call_through(), called from main: core 0 a NULL pointer, core 1
 * 0x12345678 (kuseg, unmapped), core 2 0x80fff000 (kseg0 past the 1 MiB
 * of RAM), core 3 an odd address inside rt_printf (misaligned).
 * Expected: each fault at the target address, exactly (not its page),
 * located at the jalr in call_through on the line marked below, call
 * stack call_through <- main, exit status 3.
 */
#include "nocprof.h"

typedef int (*fn_t)(int);

/* read at run time, so the compiler cannot see the targets */
volatile uint32_t fault_jump_targets[4] = { 0, 0x12345678u, 0x80fff000u, 1u };

int call_through(unsigned k, int v)
{
    uint32_t t = fault_jump_targets[k & 3];
    fn_t f = (fn_t)(t == 1u ? (uint32_t)(uintptr_t)rt_printf + 13u : t);
    return f(v) + 1; /* the jumping line */
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    rt_printf("fault_jump: core %u calls through a bad pointer\n", core);
    int r = call_through(core, 3);
    rt_printf("fault_jump: not reached %d\n", r);
    return 1;
}

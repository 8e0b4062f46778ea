/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * fault_null.c - every core stores through a NULL struct pointer in
 * store_null(), called from main: kuseg (0x0000_0000 .. 0x7FFF_FFFF) is
 * unmapped (SPEC section 1), so the store to address 4 faults.  Expected:
 * fault kind "unmapped-write", function store_null, address 0x00000004,
 * exit status 3.
 */
#include "nocprof.h"

struct pair {
    uint32_t a, b;
};

void store_null(struct pair *p, uint32_t v)
{
    p->b = v;
}

/* read at run time, so the compiler cannot see the NULL and drop the call */
struct pair *volatile null_pair;

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    rt_printf("fault_null: core %u stores through NULL\n", core);
    store_null(null_pair, core);
    rt_printf("fault_null: not reached\n");
    return 1;
}

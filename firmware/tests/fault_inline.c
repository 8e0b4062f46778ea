// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fault_inline.c - a NULL write inside a function the compiler inlines
 * (always_inline, built -O2): the fault's pc is in main, and its frames
 * say what gdb and `addr2line -i` say: poke (inlined) on the faulting
 * line, then main on the line of the inlined call, then _start.
 */
#include "nocprof.h"

struct node {
    int val;
    struct node *next;
};

/* read at run time, so the compiler cannot see the NULL */
struct node *volatile fault_inline_head;

static inline __attribute__((always_inline)) void poke(struct node *n, int v)
{
    n->next->val = v; /* the faulting line */
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    static struct node first;
    fault_inline_head = &first;
    rt_printf("fault_inline: core %u writes through NULL\n", core);
    poke(fault_inline_head, (int)core); /* the inlining line */
    return 1;
}

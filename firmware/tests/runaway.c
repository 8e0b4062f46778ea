// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runaway.c - runaway recursion (issue 19.10): core 0 recurses without
 * end, 64 bytes of locals a frame. Its $sp crosses __nocprof_stack_limit
 * (the SDK's link.ld: the end of .bss) long before it reaches the code:
 * a stack-overflow fault at runaway()'s prologue, whose call stack folds
 * the thousands of runaway frames into one entry (`runaway xN <- main`).
 * The other cores return 0 at once (their lowest $sp: main's frame).
 */
#include "nocprof.h"

static volatile unsigned sink, depth_limit = ~0u;

static RT_NOINLINE void touch(volatile char *p, unsigned n)
{
    p[n & 63] = (char)n;
    sink += (unsigned)p[0];
}

static RT_NOINLINE unsigned runaway(unsigned n)
{
    volatile char buf[64];
    touch(buf, n);
    if (n == depth_limit) /* never: the recursion has no end */
        return 0;
    return runaway(n + 1) + buf[n & 63];
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core != 0)
        return 0;
    return (int)runaway(0);
}

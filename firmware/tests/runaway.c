// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runaway.c - runaway recursion (issue 19.10): core 0 recurses without
 * end, 64 bytes of locals a frame. Its $sp crosses __nocprof_stack_limit
 * (the SDK's link.ld: the end of .bss) long before it reaches the code:
 * a stack-overflow fault at runaway()'s prologue, whose call stack folds
 * the thousands of runaway frames into one entry (`runaway xN <- main`).
 * Core 2 recurses through two functions (ping -> pong -> ping ...): its
 * stack folds by period two, `(ping <- pong) xN`. The other cores return 0
 * at once (their lowest $sp: the reset one, main is a leaf there).
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

static unsigned pong(unsigned n);

static RT_NOINLINE unsigned ping(unsigned n)
{
    volatile char buf[40];
    touch(buf, n);
    return pong(n + 1) + buf[n & 31];
}

static RT_NOINLINE unsigned pong(unsigned n)
{
    volatile char buf[24];
    touch(buf, n);
    if (n == depth_limit) /* never */
        return 0;
    return ping(n + 1) + buf[n & 15];
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core == 0)
        return (int)runaway(0);
    if (core == 2)
        return (int)ping(0);
    return 0;
}

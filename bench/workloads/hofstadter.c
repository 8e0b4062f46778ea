// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hofstadter.c - deep mutual recursion: Hofstadter's Female and Male
 * sequences, computed naively on every core.
 *
 *     F(0) = 1, M(0) = 0, F(n) = n - M(F(n-1)), M(n) = n - F(M(n-1))
 *
 * Each call is a real call (noinline, no sibling calls), so the profiler's
 * shadow stack, call arcs and calling-context tree see every one of them:
 * the workload of issue 11's defect 1 (deep recursion must cost the same per
 * call at any depth). HOF_N picks the argument (default 30); main prints
 * F(HOF_N), M(HOF_N) and the number of calls, which the host build of the
 * same file (host_shim.c) prints too. HOF_REPEAT (default 1) repeats the
 * whole computation, for the bench harness (same paths, more time).
 */
#include "workload.h"

#ifndef HOF_N
#define HOF_N 30
#endif
#ifndef HOF_REPEAT
#define HOF_REPEAT 1
#endif

static uint32_t hof_calls;

WORKLOAD_NOINLINE uint32_t hof_m(uint32_t n);

WORKLOAD_NOINLINE uint32_t hof_f(uint32_t n)
{
    hof_calls++;
    if (n == 0)
        return 1;
    return n - hof_m(hof_f(n - 1));
}

WORKLOAD_NOINLINE uint32_t hof_m(uint32_t n)
{
    hof_calls++;
    if (n == 0)
        return 0;
    return n - hof_f(hof_m(n - 1));
}

int workload_main(unsigned core, unsigned ncores)
{
    (void)ncores;
    uint32_t f = 0, m = 0;
    for (unsigned r = 0; r < HOF_REPEAT; r++) {
        hof_calls = 0;
        f = hof_f(HOF_N);
        m = hof_m(HOF_N);
    }
    if (core == 0)
        rt_printf("F(%u)=%u M(%u)=%u calls=%u\n", (unsigned)HOF_N, (unsigned)f, (unsigned)HOF_N,
                  (unsigned)m, (unsigned)hof_calls);
    return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * callheavy.c - CPU-bound workload of many small functions: short basic
 * blocks, a call or return every few instructions, the shape of issue 11's
 * defect 6 (profiling cost per call and per sample). Portable (host build
 * with host_shim.c prints the same checksum).
 *
 * Each of CALLS_ITER rounds runs a chain of tiny leaf and near-leaf
 * functions over a small state; every function is a real call (noinline,
 * noclone; built with -fno-optimize-sibling-calls).
 */
#include "workload.h"

#ifndef CALLS_ITER
#define CALLS_ITER 200000u
#endif

WORKLOAD_NOINLINE static uint32_t rotl(uint32_t x, unsigned k)
{
    return (x << k) | (x >> (32u - k));
}

WORKLOAD_NOINLINE static uint32_t mix(uint32_t a, uint32_t b)
{
    return rotl(a ^ b, 5) + 0x9e3779b9u;
}

WORKLOAD_NOINLINE static uint32_t odd(uint32_t x)
{
    return x & 1u;
}

WORKLOAD_NOINLINE static uint32_t step(uint32_t s, uint32_t i)
{
    if (odd(s))
        return mix(s, i);
    return rotl(s, 3) ^ i;
}

WORKLOAD_NOINLINE static uint32_t pair(uint32_t s, uint32_t i)
{
    return step(step(s, i), i + 1u);
}

int workload_main(unsigned core, unsigned ncores)
{
    (void)ncores;
    uint32_t s = 0x12345678u + core;
    for (uint32_t i = 0; i < CALLS_ITER; i++)
        s = pair(s, i);
    rt_printf("callheavy %u: %08x\n", core, (unsigned)s);
    return 0;
}

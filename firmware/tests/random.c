// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * random.c - CP0 Random (SPEC section 1: per core and deterministic).
 *
 * Every core reads `mfc0 Random` on its own (how the cores' reads
 * interleave on the host depends on the quantum and the threads), then
 * between messages passed round a ring of cores, and prints what it read:
 *   random: core k i R
 * e2e/exact compares every output file across quanta and thread counts;
 * e2e/timing checks the values against the 24K's count-down from 15 at the
 * cycle of each read, and a Wired write.
 */
#include "nocprof.h"

#define RANDOM_N 6u

static inline uint32_t cp0_random(void)
{
    uint32_t v;
    __asm__ volatile("mfc0 %0, $1" : "=r"(v));
    return v;
}

static inline uint32_t cp0_random_at(uint32_t *cycle)
{
    uint32_t v;
    /* the mfc0 runs right after the CYCLE_LO read (at its cycle + 1 + mmio) */
    __asm__ volatile(".set push\n.set noreorder\n"
                     "lw %1, %2(%3)\n"
                     "mfc0 %0, $1\n"
                     ".set pop"
                     : "=r"(v), "=&r"(*cycle)
                     : "i"(NP_SYS_CYCLE_LO), "r"(NP_SYS_BASE));
    return v;
}

int main(unsigned core, unsigned ncores)
{
    uint32_t got[RANDOM_N], at[RANDOM_N], w = 0;
    for (unsigned i = 0; i < RANDOM_N; i++) {
        if (ncores > 1 && i >= RANDOM_N / 2) {
            unsigned src;
            if (core != 0 || i > RANDOM_N / 2)
                rt_recv(&src, &w, 1);
            w += cp0_random();
            rt_send((core + 1) % ncores, &w, 1);
        }
        got[i] = cp0_random_at(&at[i]);
        for (volatile unsigned k = 0; k < 3 * core + i; k++)
            ;
    }
    if (ncores > 1 && core == 0) {
        unsigned src;
        rt_recv(&src, &w, 1);
    }
    /* Wired = 10: Random counts 15 .. 10 from this write on */
    uint32_t wired_at, after;
    __asm__ volatile(".set push\n.set noreorder\n"
                     "lw %0, %3(%4)\n"
                     "mtc0 %2, $6\n"
                     "nop\n"
                     "mfc0 %1, $1\n"
                     ".set pop"
                     : "=&r"(wired_at), "=r"(after)
                     : "r"(10), "i"(NP_SYS_CYCLE_LO), "r"(NP_SYS_BASE));
    for (unsigned i = 0; i < RANDOM_N; i++)
        rt_printf("random: core %u %u %u at %u\n", core, i, got[i], at[i]);
    rt_printf("random: core %u wired %u at %u after %u\n", core, 10u, wired_at, after);
    rt_printf("random: core %u sum %u\n", core, w);
    return 0;
}

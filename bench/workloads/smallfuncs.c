// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * smallfuncs.c - CPU-bound workload of many small functions of typical
 * firmware size: a packet-processing loop whose helpers (field getters,
 * a checksum step, a table lookup, a saturating add, a bit count) are each
 * a real call of 10-40 instructions, with short loops inside some of
 * them. The shape of the workload of issue 11's defect 6 ("a CPU-bound
 * 4-core workload of many small functions"), between the long blocks of
 * cpu.c and the call every 9 instructions of callheavy.c. Portable: the
 * host build (host_shim.c) prints the same checksum.
 *
 * SF_ROUNDS rounds over SF_PACKETS packets of SF_WORDS words; SF_WORK is the
 * length of the inner loops (more work per call).
 */
#include "workload.h"

#ifndef SF_ROUNDS
#define SF_ROUNDS 400u
#endif
#ifndef SF_WORK
#define SF_WORK 4u
#endif
#define SF_PACKETS 16u
#define SF_WORDS 16u

static uint32_t packets[SF_PACKETS][SF_WORDS];
static const uint8_t prio_table[16] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3 };

WORKLOAD_NOINLINE static uint32_t field(const uint32_t *p, unsigned i, unsigned shift)
{
    return (p[i] >> shift) & 0xffu;
}

WORKLOAD_NOINLINE static uint32_t csum_step(uint32_t sum, uint32_t w)
{
    for (unsigned k = 0; k < SF_WORK; k++) {
        sum += (w >> (8 * (k & 3))) & 0xffu;
        sum = (sum & 0xffffu) + (sum >> 16);
    }
    return sum;
}

WORKLOAD_NOINLINE static unsigned popcount(uint32_t x)
{
    unsigned n = 0;
    for (unsigned k = 0; k < SF_WORK && x; k++) {
        x &= x - 1u;
        n++;
    }
    return n;
}

WORKLOAD_NOINLINE static uint32_t sat_add(uint32_t a, uint32_t b)
{
    uint32_t s = a + b;
    return s < a ? 0xffffffffu : s;
}

WORKLOAD_NOINLINE static unsigned priority(uint32_t hdr)
{
    return prio_table[hdr & 15u] + prio_table[(hdr >> 4) & 15u];
}

WORKLOAD_NOINLINE static uint32_t process(uint32_t *p, uint32_t state)
{
    uint32_t sum = 0;
    for (unsigned i = 0; i < SF_WORDS; i++)
        sum = csum_step(sum, p[i]);
    unsigned pr = priority(field(p, 0, 8));
    state = sat_add(state, sum * pr);
    state ^= popcount(field(p, 1, 0) | (field(p, 2, 16) << 8)) << (state & 7u);
    p[SF_WORDS - 1] ^= state;
    return state * 2654435761u + 1u;
}

static void fill(unsigned core)
{
    uint32_t x = 0x2545f491u + core;
    for (unsigned i = 0; i < SF_PACKETS; i++)
        for (unsigned j = 0; j < SF_WORDS; j++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            packets[i][j] = x;
        }
}

int workload_main(unsigned core, unsigned ncores)
{
    (void)ncores;
    fill(core);
    uint32_t state = core;
    for (unsigned r = 0; r < SF_ROUNDS; r++)
        for (unsigned i = 0; i < SF_PACKETS; i++)
            state = process(packets[i], state);
    rt_printf("smallfuncs %u: %08x\n", core, (unsigned)state);
    return 0;
}

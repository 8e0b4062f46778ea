// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpu.c - compute-bound bench workload: CRC-32 and integer matrix multiply
 * on every core, no NoC.  Portable: builds for the platform (with
 * fw_main.c) and natively (with host_shim.c).
 *
 * Each of ITERATIONS rounds computes the CRC-32 (table-driven, reflected
 * 0xEDB88320) of a CPU_BYTES buffer, multiplies two CPU_N x CPU_N int32
 * matrices, folds the product into a checksum and perturbs the inputs with
 * the results, so no round can be skipped.  Guest instructions per core per
 * round: about 38,200 (counted on a test harness), so with 4 cores
 *     cpu       ITERATIONS=64     ~1.0e7 instructions in total
 *     cpu-1e8   ITERATIONS=640    ~1.0e8
 *     cpu-1e9   ITERATIONS=6400   ~1.0e9
 * Known-answer checks first (CRC-32 of "123456789", A x I = A); prints the
 * final checksum (same on every byte order and natively) and returns 0 when
 * the checks passed.
 */
#include "workload.h"

#ifndef ITERATIONS
#define ITERATIONS 64
#endif
#define CPU_BYTES 1024u
#define CPU_N     16u

static uint32_t crc_table[256];
static uint8_t data[CPU_BYTES];
static int32_t mat_a[CPU_N][CPU_N], mat_b[CPU_N][CPU_N], mat_c[CPU_N][CPU_N];

WORKLOAD_NOINLINE static void crc_init(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (unsigned k = 0; k < 8; k++)
            c = (c & 1u) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

WORKLOAD_NOINLINE static uint32_t crc32_buf(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;

    for (size_t i = 0; i < n; i++)
        c = crc_table[(c ^ p[i]) & 0xffu] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

WORKLOAD_NOINLINE static void matmul(int32_t a[CPU_N][CPU_N], int32_t b[CPU_N][CPU_N],
                                     int32_t c[CPU_N][CPU_N])
{
    for (unsigned i = 0; i < CPU_N; i++) {
        for (unsigned j = 0; j < CPU_N; j++) {
            int32_t sum = 0;
            for (unsigned k = 0; k < CPU_N; k++)
                sum += a[i][k] * b[k][j];
            c[i][j] = sum;
        }
    }
}

WORKLOAD_NOINLINE static uint32_t fill(uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 1u;

    for (unsigned i = 0; i < CPU_BYTES; i++) {
        x = x * 1664525u + 1013904223u;
        data[i] = (uint8_t)(x >> 24);
    }
    for (unsigned i = 0; i < CPU_N; i++) {
        for (unsigned j = 0; j < CPU_N; j++) {
            x = x * 1664525u + 1013904223u;
            mat_a[i][j] = (int32_t)(x >> 20) - 2048;
            x = x * 1664525u + 1013904223u;
            mat_b[i][j] = (int32_t)(x >> 20) - 2048;
        }
    }
    return x;
}

static bool known_answers(void)
{
    static const uint8_t check[9] = { '1', '2', '3', '4', '5', '6', '7', '8', '9' };
    bool ok = crc32_buf(check, sizeof check) == 0xcbf43926u;

    for (unsigned i = 0; i < CPU_N; i++)
        for (unsigned j = 0; j < CPU_N; j++)
            mat_b[i][j] = i == j;
    matmul(mat_a, mat_b, mat_c);
    for (unsigned i = 0; i < CPU_N; i++)
        for (unsigned j = 0; j < CPU_N; j++)
            ok = ok && mat_c[i][j] == mat_a[i][j];
    return ok;
}

int workload_main(unsigned core, unsigned ncores)
{
    (void)ncores;
    crc_init();
    fill(core);
    bool ok = known_answers();
    fill(core);

    uint32_t sum = 0;
    for (unsigned it = 0; it < ITERATIONS; it++) {
        uint32_t crc = crc32_buf(data, CPU_BYTES);
        matmul(mat_a, mat_b, mat_c);
        for (unsigned i = 0; i < CPU_N; i++)
            sum = (sum << 1 | sum >> 31) ^ (uint32_t)mat_c[i][(i + it) % CPU_N];
        sum ^= crc;
        data[it % CPU_BYTES] ^= (uint8_t)crc;
        mat_a[it % CPU_N][(it / CPU_N) % CPU_N] += (int32_t)(crc & 0xffu);
    }
    rt_printf("cpu: core %u %u iterations checksum %08x %s\n", core,
              (unsigned)ITERATIONS, sum, ok ? "ok" : "KNOWN-ANSWER FAILED");
    return ok ? 0 : 1;
}

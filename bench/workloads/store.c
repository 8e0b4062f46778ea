// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store.c - memory-bound bench workload: block copies and sorting.
 * Portable: builds for the platform (with fw_main.c) and natively (with
 * host_shim.c).
 *
 * Each of ITERATIONS rounds fills a STORE_WORDS array with pseudo-random
 * words, copies it (word loop, copy_words) to a second array, sorts the
 * copy with heapsort and checks that it is ordered and is a permutation
 * (sum and xor preserved).  Guest instructions per core per round: about
 * 1.39 million (ITERATIONS=4: ~5.6e6 per core).  Prints a checksum of the sorted data
 * (same on every byte order and natively) and returns 0 when every round
 * checked out.
 */
#include "workload.h"

#ifndef ITERATIONS
#define ITERATIONS 4
#endif
#define STORE_WORDS 4096u

static uint32_t src_buf[STORE_WORDS], dst_buf[STORE_WORDS];

WORKLOAD_NOINLINE static void copy_words(uint32_t *dst, const uint32_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = src[i];
}

WORKLOAD_NOINLINE static void sift_down(uint32_t *a, size_t start, size_t end)
{
    size_t root = start;

    while (2 * root + 1 <= end) {
        size_t child = 2 * root + 1, swap = root;
        if (a[swap] < a[child])
            swap = child;
        if (child + 1 <= end && a[swap] < a[child + 1])
            swap = child + 1;
        if (swap == root)
            return;
        uint32_t t = a[root];
        a[root] = a[swap];
        a[swap] = t;
        root = swap;
    }
}

WORKLOAD_NOINLINE static void heap_sort(uint32_t *a, size_t n)
{
    if (n < 2)
        return;
    for (size_t start = (n - 2) / 2 + 1; start-- > 0; )
        sift_down(a, start, n - 1);
    for (size_t end = n - 1; end > 0; end--) {
        uint32_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end - 1);
    }
}

WORKLOAD_NOINLINE static bool check_sorted(const uint32_t *a, const uint32_t *orig, size_t n)
{
    uint32_t sum_a = 0, sum_o = 0, xor_a = 0, xor_o = 0;

    for (size_t i = 0; i < n; i++) {
        if (i > 0 && a[i - 1] > a[i])
            return false;
        sum_a += a[i];
        xor_a ^= a[i];
        sum_o += orig[i];
        xor_o ^= orig[i];
    }
    return sum_a == sum_o && xor_a == xor_o;
}

int workload_main(unsigned core, unsigned ncores)
{
    uint32_t x = 0x12345678u ^ (core * 0x9e3779b9u), digest = 0;
    bool ok = true;

    (void)ncores;
    for (unsigned it = 0; it < ITERATIONS; it++) {
        for (size_t i = 0; i < STORE_WORDS; i++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            src_buf[i] = x;
        }
        copy_words(dst_buf, src_buf, STORE_WORDS);
        heap_sort(dst_buf, STORE_WORDS);
        ok = ok && check_sorted(dst_buf, src_buf, STORE_WORDS);
        for (size_t i = 0; i < STORE_WORDS; i += 64)
            digest = (digest << 5 | digest >> 27) ^ dst_buf[i];
    }
    rt_printf("store: core %u %u iterations digest %08x %s\n", core,
              (unsigned)ITERATIONS, digest, ok ? "ok" : "NOT SORTED");
    return ok ? 0 : 1;
}

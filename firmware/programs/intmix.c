/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * intmix.c - an integer benchmark-style program with known results:
 * CRC-32 (check value of "123456789" is 0xCBF43926), N-queens (solutions
 * for N = 5..8 are 10, 4, 40, 92), heapsort and quicksort of LCG data (both
 * sorted, equal, same sum), an 8x8 matrix product checked against
 * (A B)^T = B^T A^T, and Euclid's gcd(1071, 462) = 21.
 *
 * Portable C: built as firmware (main(core, ncores)) and, with
 * -DNOCPROF_HOST, for the host (argv[1] = core), where tests/e2e/test_libc.py
 * counts its calls with -finstrument-functions; each core's run must make
 * the same calls as the host run with the same core number.  It prints one
 * line per kernel and returns 0 only if every result is right.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSORT 200
#define NMAT 8

static uint32_t crc_table[256];

void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;

        for (int k = 0; k < 8; k++)
            c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

uint32_t crc32_buf(const unsigned char *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;

    while (n--)
        c = crc_table[(c ^ *p++) & 0xFFu] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

int queen_safe(const int *col, int row, int c)
{
    for (int r = 0; r < row; r++) {
        int d = col[r] - c;

        if (d == 0 || d == row - r || d == r - row)
            return 0;
    }
    return 1;
}

int queens(int *col, int row, int n)
{
    int count = 0;

    if (row == n)
        return 1;
    for (int c = 0; c < n; c++) {
        if (queen_safe(col, row, c)) {
            col[row] = c;
            count += queens(col, row + 1, n);
        }
    }
    return count;
}

static uint32_t lcg_state;

uint32_t lcg_next(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state >> 8;
}

void sift_down(int32_t *a, int start, int end)
{
    int root = start;

    while (2 * root + 1 <= end) {
        int child = 2 * root + 1;
        int sw = root;

        if (a[sw] < a[child])
            sw = child;
        if (child + 1 <= end && a[sw] < a[child + 1])
            sw = child + 1;
        if (sw == root)
            return;
        int32_t t = a[root];
        a[root] = a[sw];
        a[sw] = t;
        root = sw;
    }
}

void heap_sort(int32_t *a, int n)
{
    for (int s = (n - 2) / 2; s >= 0; s--)
        sift_down(a, s, n - 1);
    for (int end = n - 1; end > 0; end--) {
        int32_t t = a[end];
        a[end] = a[0];
        a[0] = t;
        sift_down(a, 0, end - 1);
    }
}

int partition(int32_t *a, int lo, int hi)
{
    int32_t pivot = a[(lo + hi) / 2];
    int i = lo - 1, j = hi + 1;

    for (;;) {
        do
            i++;
        while (a[i] < pivot);
        do
            j--;
        while (a[j] > pivot);
        if (i >= j)
            return j;
        int32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

void quick_sort(int32_t *a, int lo, int hi)
{
    if (lo < hi) {
        int p = partition(a, lo, hi);

        quick_sort(a, lo, p);
        quick_sort(a, p + 1, hi);
    }
}

int is_sorted(const int32_t *a, int n)
{
    for (int i = 1; i < n; i++)
        if (a[i - 1] > a[i])
            return 0;
    return 1;
}

void mat_mul(int32_t r[NMAT][NMAT], int32_t a[NMAT][NMAT], int32_t b[NMAT][NMAT])
{
    for (int i = 0; i < NMAT; i++)
        for (int j = 0; j < NMAT; j++) {
            int32_t s = 0;

            for (int k = 0; k < NMAT; k++)
                s += a[i][k] * b[k][j];
            r[i][j] = s;
        }
}

void mat_transpose(int32_t r[NMAT][NMAT], int32_t a[NMAT][NMAT])
{
    for (int i = 0; i < NMAT; i++)
        for (int j = 0; j < NMAT; j++)
            r[j][i] = a[i][j];
}

unsigned gcd(unsigned a, unsigned b)
{
    return b == 0 ? a : gcd(b, a % b);
}

int check(const char *what, int ok)
{
    printf("intmix: %-8s %s\n", what, ok ? "ok" : "FAILED");
    return ok;
}

int run_intmix(int core)
{
    static const int queens_known[4] = { 10, 4, 40, 92 };
    static int32_t a[NSORT], b[NSORT];
    static int32_t ma[NMAT][NMAT], mb[NMAT][NMAT], mc[NMAT][NMAT];
    static int32_t at[NMAT][NMAT], bt[NMAT][NMAT], ct[NMAT][NMAT], btat[NMAT][NMAT];
    int col[8], ok = 1, n = 5 + core % 4;
    int64_t sa = 0, sb = 0;

    crc_init();
    uint32_t crc = crc32_buf((const unsigned char *)"123456789", 9);
    printf("intmix: core %d crc32 %08x\n", core, (unsigned)crc);
    ok &= check("crc32", crc == 0xCBF43926u);

    int q = queens(col, 0, n);
    printf("intmix: %d-queens %d solutions\n", n, q);
    ok &= check("queens", q == queens_known[n - 5]);

    lcg_state = 12345u + (uint32_t)core;
    for (int i = 0; i < NSORT; i++) {
        a[i] = b[i] = (int32_t)(lcg_next() % 100000u) - 50000;
        sa += a[i];
    }
    heap_sort(a, NSORT);
    quick_sort(b, 0, NSORT - 1);
    for (int i = 0; i < NSORT; i++)
        sb += a[i];
    printf("intmix: sorted min %ld max %ld sum %lld\n", (long)a[0], (long)a[NSORT - 1],
           (long long)sb);
    ok &= check("sort", is_sorted(a, NSORT) && memcmp(a, b, sizeof a) == 0 && sa == sb);

    for (int i = 0; i < NMAT; i++)
        for (int j = 0; j < NMAT; j++) {
            ma[i][j] = i + j + core;
            mb[i][j] = i - 2 * j;
        }
    mat_mul(mc, ma, mb);
    mat_transpose(at, ma);
    mat_transpose(bt, mb);
    mat_transpose(ct, mc);
    mat_mul(btat, bt, at);
    printf("intmix: matrix c[0][0] %ld c[7][7] %ld\n", (long)mc[0][0], (long)mc[7][7]);
    ok &= check("matrix", memcmp(ct, btat, sizeof ct) == 0);

    unsigned g = gcd(1071u, 462u);
    ok &= check("gcd", g == 21u);
    printf("intmix: core %d %s\n", core, ok ? "all ok" : "FAILED");
    return ok ? 0 : 1;
}

#ifdef NOCPROF_HOST
int main(int argc, char **argv)
{
    return run_intmix(argc > 1 ? atoi(argv[1]) : 0);
}
#else
int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    return run_intmix((int)core);
}
#endif

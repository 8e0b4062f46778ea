/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * matmul.c - scatter, compute, gather: C = A x B over the NoC.
 *
 *   core 0   builds A and B (N x N, small integers from xorshift32), sends
 *            all of B and then the rows of A that each worker owns (row r
 *            belongs to worker 1 + r % (ncores - 1)), receives the rows of
 *            C back, recomputes C itself and compares; prints a checksum
 *            and exits 0 when every element matched.
 *   core k>0 receives B and its rows of A, computes its rows of C and
 *            sends each back as (row index, N words).
 *
 * Send-heavy on purpose: the injection queue fills while core 0 scatters,
 * so every number depends on exactly when TX_STATUS shows room. It is the
 * firmware of the exactness tests: summary.json must not change with
 * [sched] quantum or --threads.
 */
#include "nocprof.h"

#define N      24u
#define CHUNK  16u
#define TAG_B  0xb0000000u
#define TAG_A  0xa0000000u
#define TAG_C  0xc0000000u

static uint32_t A[N][N], B[N][N], C[N][N];

static uint32_t next_rand(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

static void build(void)
{
    uint32_t x = 0x12345678u;

    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++) {
            A[i][j] = next_rand(&x) % 100u;
            B[i][j] = next_rand(&x) % 100u;
        }
}

/* Sends n words as packets of a tag word plus up to CHUNK - 1 words. */
static void send_words(unsigned dst, uint32_t tag, const uint32_t *w, unsigned n)
{
    uint32_t pkt[CHUNK];

    for (unsigned off = 0; off < n; off += CHUNK - 1) {
        unsigned k = n - off < CHUNK - 1 ? n - off : CHUNK - 1;
        pkt[0] = tag | off;
        for (unsigned i = 0; i < k; i++)
            pkt[1 + i] = w[off + i];
        rt_send(dst, pkt, k + 1);
    }
}

/* Receives n words sent by send_words with this tag (any source). */
static bool recv_words(uint32_t tag, uint32_t *w, unsigned n)
{
    uint32_t pkt[CHUNK];

    for (unsigned got = 0; got < n;) {
        unsigned k = rt_recv(NULL, pkt, CHUNK);
        if (k < 2 || (pkt[0] & 0xf0000000u) != tag)
            return false;
        unsigned off = pkt[0] & 0xffffu;
        for (unsigned i = 1; i < k && off + i - 1 < n; i++)
            w[off + i - 1] = pkt[i];
        got += k - 1;
    }
    return true;
}

static void row_times_b(const uint32_t *a, uint32_t *c)
{
    for (unsigned j = 0; j < N; j++) {
        uint32_t s = 0;
        for (unsigned k = 0; k < N; k++)
            s += a[k] * B[k][j];
        c[j] = s;
    }
}

static unsigned owner(unsigned row, unsigned ncores)
{
    return 1u + row % (ncores - 1u);
}

static int master(unsigned ncores)
{
    static uint32_t got[N][N];
    uint32_t pkt[CHUNK];
    unsigned bad = 0;

    build();
    for (unsigned w = 1; w < ncores; w++)
        send_words(w, TAG_B, &B[0][0], N * N);
    for (unsigned r = 0; r < N; r++)
        send_words(owner(r, ncores), TAG_A | (r << 16), A[r], N);
    /* gather: packets of all workers interleave; each names its row */
    for (unsigned words = 0; words < N * N;) {
        unsigned k = rt_recv(NULL, pkt, CHUNK);
        unsigned row = (pkt[0] >> 16) & 0xfffu, off = pkt[0] & 0xffffu;
        if (k < 2 || (pkt[0] & 0xf0000000u) != TAG_C || row >= N || off + k - 1 > N)
            return 2;
        for (unsigned i = 1; i < k; i++)
            got[row][off + i - 1] = pkt[i];
        words += k - 1;
    }
    uint32_t sum = 0;
    for (unsigned r = 0; r < N; r++) {
        row_times_b(A[r], C[r]);
        for (unsigned j = 0; j < N; j++) {
            bad += C[r][j] != got[r][j];
            sum = sum * 31u + got[r][j];
        }
    }
    rt_printf("matmul %ux%u on %u cores: checksum %08x, %u mismatches\n", N, N, ncores, sum, bad);
    return bad ? 1 : 0;
}

/* Receives every row of A this worker owns (into A), then computes and
 * sends back: receiving everything first keeps the scatter from waiting on
 * a worker that is itself waiting to send (no cyclic wait). */
static int worker(unsigned core, unsigned ncores)
{
    uint32_t pkt[CHUNK], row_c[N];
    unsigned words = 0, mine = 0;

    if (!recv_words(TAG_B, &B[0][0], N * N))
        return 2;
    for (unsigned r = 0; r < N; r++)
        mine += owner(r, ncores) == core;
    while (words < mine * N) {
        unsigned k = rt_recv(NULL, pkt, CHUNK);
        unsigned row = (pkt[0] >> 16) & 0xfffu, off = pkt[0] & 0xffffu;
        if (k < 2 || (pkt[0] & 0xf0000000u) != TAG_A || row >= N || off + k - 1 > N)
            return 2;
        for (unsigned i = 1; i < k; i++)
            A[row][off + i - 1] = pkt[i];
        words += k - 1;
    }
    for (unsigned r = 0; r < N; r++) {
        if (owner(r, ncores) != core)
            continue;
        row_times_b(A[r], row_c);
        send_words(0, TAG_C | (r << 16), row_c, N);
    }
    return 0;
}

int main(unsigned core, unsigned ncores)
{
    if (ncores < 2) {
        rt_printf("matmul needs at least 2 cores\n");
        return 1;
    }
    return core == 0 ? master(ncores) : worker(core, ncores);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * pipeline.c - a four-stage checksum pipeline over the NoC.
 *
 *   core 0  generate NBLOCKS blocks of BLOCK_WORDS pseudo-random words
 *           (xorshift32, seeded per block) and send each to core 1 as
 *           PKTS_PER_BLOCK packets of PKT_WORDS words;
 *   core 1  known-answer tests of CRC-32, then per block: CRC-32 of the
 *           block's bytes with gzip's updcrc; forward the data and a trailer
 *           {TRAILER_TAG | block, crc} to core 2;
 *   core 2  known-answer test of Adler-32, then per block: Adler-32 of the
 *           bytes; forward the data and {TRAILER_TAG | block, crc, adler}
 *           to core 3;
 *   core 3  regenerate the block, recompute both checksums with independent
 *           code (bitwise CRC), compare, print one line per block and the
 *           verdict; send {VERDICT_TAG, failures} to cores 0..2.
 *
 * Every core exits 0 only if all blocks matched (cores 0..2 exit with the
 * verdict they receive, 1 on failure).  With fewer than 4 cores the program
 * prints a message and exits 1 on every core; cores 4 and up (bigger
 * meshes) print that they are idle and exit 0.
 *
 * Console output is the same on both byte orders: bytes are taken from
 * words by shifts, and only checksums and counts are printed.
 */
#include "checksum.h"
#include "nocprof.h"

#define NBLOCKS         8u
#define BLOCK_WORDS     64u
#define PKT_WORDS       16u
#define PKTS_PER_BLOCK  (BLOCK_WORDS / PKT_WORDS)
#define TRAILER_TAG     0x7a110000u
#define VERDICT_TAG     0x7e5d0000u
#define STAGES          4u

/* Deterministic block contents: xorshift32 seeded by the block number. */
static void gen_block(unsigned block, uint32_t *w)
{
    uint32_t x = 0x9e3779b9u * (block + 1u);

    for (unsigned i = 0; i < BLOCK_WORDS; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        w[i] = x;
    }
}

static void send_block(unsigned dst, const uint32_t *w)
{
    for (unsigned p = 0; p < PKTS_PER_BLOCK; p++)
        rt_send(dst, w + p * PKT_WORDS, PKT_WORDS);
}

/* Receives one block from `from`; returns false on a malformed packet. */
static bool recv_block(unsigned from, uint32_t *w)
{
    bool ok = true;

    for (unsigned p = 0; p < PKTS_PER_BLOCK; p++) {
        unsigned src;
        unsigned n = rt_recv(&src, w + p * PKT_WORDS, PKT_WORDS);
        if (src != from || n != PKT_WORDS)
            ok = false;
    }
    return ok;
}

/* Receives a trailer of `len` words from `from` for block `block`. */
static bool recv_trailer(unsigned from, unsigned block, uint32_t *t, unsigned len)
{
    unsigned src;
    unsigned n = rt_recv(&src, t, len);

    return src == from && n == len && t[0] == (TRAILER_TAG | block);
}

/* Cores 0..2: wait for core 3's verdict. */
static int await_verdict(unsigned core)
{
    uint32_t v[2];
    unsigned src;
    unsigned n = rt_recv(&src, v, 2);

    if (src != STAGES - 1 || n != 2 || v[0] != VERDICT_TAG) {
        rt_printf("pipeline: core %u: bad verdict packet\n", core);
        return 1;
    }
    return v[1] == 0 ? 0 : 1;
}

static int stage_generate(void)
{
    static uint32_t block[BLOCK_WORDS];

    for (unsigned b = 0; b < NBLOCKS; b++) {
        gen_block(b, block);
        send_block(1, block);
    }
    rt_printf("pipeline: core 0 sent %u blocks of %u words\n", NBLOCKS, BLOCK_WORDS);
    return await_verdict(0);
}

static bool crc_known_answers(void)
{
    static const char check[] = "123456789";
    static const char fox[] = "The quick brown fox jumps over the lazy dog";
    uint32_t c1, c2, c3;

    updcrc(NULL, 0);
    c1 = updcrc((const uint8_t *)check, 9);
    updcrc(NULL, 0);
    updcrc((const uint8_t *)check, 4);             /* split stream */
    c2 = updcrc((const uint8_t *)check + 4, 5);
    updcrc(NULL, 0);
    c3 = updcrc((const uint8_t *)fox, (unsigned)strlen(fox));

    bool ok = c1 == 0xcbf43926u && c2 == 0xcbf43926u && c3 == 0x414fa339u
           && crc32_bitwise((const uint8_t *)check, 9) == 0xcbf43926u;
    rt_printf("pipeline: crc32(\"123456789\")=0x%08x %s\n", c1, ok ? "ok" : "FAILED");
    return ok;
}

static int stage_crc(void)
{
    static uint32_t block[BLOCK_WORDS];
    bool ok = crc_known_answers();

    for (unsigned b = 0; b < NBLOCKS; b++) {
        if (!recv_block(0, block))
            ok = false;
        uint32_t trailer[2] = { TRAILER_TAG | b, crc32_words(block, BLOCK_WORDS) };
        send_block(2, block);
        rt_send(2, trailer, 2);
    }
    rt_printf("pipeline: core 1 computed %u crc32s\n", NBLOCKS);
    int verdict = await_verdict(1);
    return ok ? verdict : 1;
}

static bool adler_known_answers(void)
{
    static const char wiki[] = "Wikipedia";
    uint32_t a = adler32_update(1, (const uint8_t *)wiki, 9);
    bool ok = a == 0x11e60398u;

    rt_printf("pipeline: adler32(\"Wikipedia\")=0x%08x %s\n", a, ok ? "ok" : "FAILED");
    return ok;
}

static int stage_adler(void)
{
    static uint32_t block[BLOCK_WORDS];
    bool ok = adler_known_answers();

    for (unsigned b = 0; b < NBLOCKS; b++) {
        uint32_t in[2];
        if (!recv_block(1, block) || !recv_trailer(1, b, in, 2))
            ok = false;
        uint32_t trailer[3] = { TRAILER_TAG | b, in[1], adler32_words(block, BLOCK_WORDS) };
        send_block(3, block);
        rt_send(3, trailer, 3);
    }
    rt_printf("pipeline: core 2 computed %u adler32s\n", NBLOCKS);
    int verdict = await_verdict(2);
    return ok ? verdict : 1;
}

static int stage_check(void)
{
    static uint32_t block[BLOCK_WORDS];
    static uint32_t expect[BLOCK_WORDS];
    static uint8_t bytes[4 * BLOCK_WORDS];
    unsigned failures = 0;

    for (unsigned b = 0; b < NBLOCKS; b++) {
        uint32_t t[3] = { 0, 0, 0 };
        bool ok = recv_block(2, block);
        ok = recv_trailer(2, b, t, 3) && ok;

        gen_block(b, expect);
        for (unsigned i = 0; i < BLOCK_WORDS; i++) {
            if (block[i] != expect[i])
                ok = false;
        }
        words_to_bytes(expect, BLOCK_WORDS, bytes);
        uint32_t crc = crc32_bitwise(bytes, sizeof bytes);
        uint32_t adler = adler32_update(1, bytes, sizeof bytes);
        if (crc != t[1] || adler != t[2])
            ok = false;
        if (!ok)
            failures++;
        rt_printf("block %u: crc32=0x%08x adler32=0x%08x %s\n",
                  b, crc, adler, ok ? "ok" : "MISMATCH");
    }

    uint32_t verdict[2] = { VERDICT_TAG, failures };
    for (unsigned c = 0; c < STAGES - 1; c++)
        rt_send(c, verdict, 2);

    if (failures == 0) {
        rt_printf("pipeline: %u blocks ok\n", NBLOCKS);
        return 0;
    }
    rt_printf("pipeline: %u of %u blocks FAILED\n", failures, NBLOCKS);
    return 1;
}

int main(unsigned core, unsigned ncores)
{
    if (ncores < STAGES) {
        rt_printf("pipeline: needs %u cores, have %u\n", STAGES, ncores);
        return 1;
    }
    switch (core) {
    case 0:
        return stage_generate();
    case 1:
        return stage_crc();
    case 2:
        return stage_adler();
    case 3:
        return stage_check();
    default:
        rt_printf("pipeline: core %u idle\n", core);
        return 0;
    }
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* test-cache.c — [cache] enabled = 1 (docs/timing.md "The L1 caches"):
 * the fixtures tests/fixtures/emu/c_*.S count misses with the guest's own
 * performance counters (24K events 9 and 11) over hand-computed access
 * patterns (each fixture's header has the figures), and every miss costs
 * exactly miss_penalty cycles. */
#include <glib.h>
#include <string.h>

#include "emu/core.h"

static const char *const endians[] = { "el", "eb" };

typedef struct Run {
    int code;
    uint64_t cycles, miss[CACHE_NCOUNT];
    uint64_t block_miss[BLOCK_NMISS]; /* summed over every block */
} Run;

/* Run fixture name on one core; cache: [cache] enabled, penalty its
 * miss_penalty, wb its writeback_penalty. */
static Run run_wb(const char *name, const char *endian, bool cache, unsigned penalty, unsigned wb)
{
    Config cfg;
    config_defaults(&cfg);
    cfg.mesh_width = cfg.mesh_height = 1;
    cfg.cache.enabled = cache;
    cfg.cache.miss_penalty = penalty;
    cfg.cache.writeback_penalty = wb;
    g_autofree char *path = g_strdup_printf("%s/%s-%s.elf", FIXTURES, name, endian);
    GError *err = NULL;
    ElfImage *img = elf_image_load(path, cfg.ram_size, &err);
    g_assert_no_error(err);
    Core *c = core_new(0, &cfg, img, NULL, NULL, &err);
    g_assert_no_error(err);
    core_run(c, UINT64_C(1) << 40);
    g_assert_cmpint(core_state(c), ==, CORE_EXITED);
    Run r = { .code = core_exit_code(c), .cycles = core_cycles(c) };
    for (unsigned k = 0; k < CACHE_NCOUNT; k++)
        r.miss[k] = cache_count(c, k);
    for (unsigned i = 0; i < core_nblocks(c); i++) {
        const Block *b = core_block(c, i);
        uint64_t m[BLOCK_NMISS];
        for (uint32_t j = 0; j < block_ninsns(b); j++) {
            block_misses(b, j, m);
            for (unsigned k = 0; k < BLOCK_NMISS; k++)
                r.block_miss[k] += m[k];
        }
    }
    core_free(c);
    elf_image_free(img);
    return r;
}

static Run run(const char *name, const char *endian, bool cache, unsigned penalty)
{
    return run_wb(name, endian, cache, penalty, 0);
}

static void test_counts(void)
{
    static const struct { const char *name; int expect; } cases[] = {
        { "c_dsweep16k", 512 << 16 | 0 },     /* fits: the second pass hits */
        { "c_dsweep64k", 2048 << 16 | 2048 }, /* twice the cache: LRU misses again */
        { "c_dconflict", 4 << 16 | 50 },      /* 4 lines in a 4-way set; 5 thrash */
        { "c_iloop", 3 },                     /* the loop's 2 lines once, then `after` */
        { "c_kseg1", 0 },                     /* uncached: no D or I miss */
        { "c_ithrash", 51 },                  /* 5 blocks in a 4-way set: all miss */
    };
    for (unsigned e = 0; e < 2; e++)
        for (unsigned k = 0; k < G_N_ELEMENTS(cases); k++) {
            g_test_message("%s-%s", cases[k].name, endians[e]);
            g_assert_cmpint(run(cases[k].name, endians[e], true, 30).code, ==, cases[k].expect);
        }
}

/* Every miss costs miss_penalty: cycles with the cache = cycles without +
 * misses x penalty, for two penalties; the misses counted per instruction
 * are the cache's. */
static void test_penalty(void)
{
    static const char *const names[] = { "c_dsweep16k", "c_dsweep64k", "c_dconflict", "c_iloop", "c_ithrash" };
    for (unsigned k = 0; k < G_N_ELEMENTS(names); k++) {
        Run off = run(names[k], "el", false, 30);
        Run p30 = run(names[k], "el", true, 30), p7 = run(names[k], "el", true, 7);
        uint64_t misses = p30.miss[CACHE_I_MISS] + p30.miss[CACHE_D_RMISS] + p30.miss[CACHE_D_WMISS];
        g_test_message("%s: %" G_GUINT64_FORMAT " misses", names[k], misses);
        g_assert_cmpuint(misses, >, 0);
        g_assert_cmpuint(off.miss[CACHE_I_MISS] + off.miss[CACHE_D_RMISS], ==, 0);
        g_assert_cmpuint(p30.cycles, ==, off.cycles + 30 * misses);
        g_assert_cmpuint(p7.cycles, ==, off.cycles + 7 * misses);
        g_assert_cmpuint(p30.block_miss[BLOCK_MISS_I1], ==, p30.miss[CACHE_I_MISS]);
        g_assert_cmpuint(p30.block_miss[BLOCK_MISS_D1R], ==, p30.miss[CACHE_D_RMISS]);
        g_assert_cmpuint(p30.block_miss[BLOCK_MISS_D1W], ==, p30.miss[CACHE_D_WMISS]);
    }
}

/* Dirty victims and the `cache` operations, from the fixtures' hand
 * figures: exit code, D-cache read and write misses, and the write-backs
 * (cycles with writeback_penalty 5 - cycles with 0, over 5). */
static void test_writeback_ops(void)
{
    static const struct {
        const char *name;
        int expect;
        uint64_t rmiss, wmiss, wbacks;
    } cases[] = {
        { "c_dwb", 2048 << 16 | 2048, 2048, 2048, 2048 }, /* LRU over dirty lines */
        { "c_dhitwb", 0 << 16 | 1024, 1024, 1024, 0 },    /* Hit Writeback cleans, keeps */
        { "c_dindex", 1024, 1024, 1024, 0 },              /* Index WB Invalidate: all */
        { "c_dsc", 1 << 16 | 5, 5, 0, 1 },                /* sc dirties its line */
        { "c_iops", 0x000001, 0, 0, 0 },                  /* I Fill keeps, Hit Inv drops */
        { "c_dev13", 1536 << 16 | 1024, 1024, 1536, 512 + 1024 }, /* event 13 */
        { "c_dev10", 512 << 16 | 1024, 0, 1536, 512 },    /* event 10 odd */
    };
    for (unsigned e = 0; e < 2; e++)
        for (unsigned k = 0; k < G_N_ELEMENTS(cases); k++) {
            g_test_message("%s-%s", cases[k].name, endians[e]);
            Run w0 = run_wb(cases[k].name, endians[e], true, 30, 0);
            Run w5 = run_wb(cases[k].name, endians[e], true, 30, 5);
            g_assert_cmpint(w0.code, ==, cases[k].expect);
            g_assert_cmpint(w5.code, ==, cases[k].expect);
            g_assert_cmpuint(w0.miss[CACHE_D_RMISS], ==, cases[k].rmiss);
            g_assert_cmpuint(w0.miss[CACHE_D_WMISS], ==, cases[k].wmiss);
            g_assert_cmpuint(w5.cycles - w0.cycles, ==, 5 * cases[k].wbacks);
        }
}

/* The geometry keys: powers of two, at least one line per way. */
static void test_config(void)
{
    static const char *const bad[] = { "cache.line=48", "cache.dcache_ways=3", "cache.icache_size=1000" };
    for (unsigned k = 0; k < G_N_ELEMENTS(bad); k++) {
        Config cfg;
        config_defaults(&cfg);
        GError *err = NULL;
        g_assert_true(config_set(&cfg, bad[k], &err));
        g_assert_false(config_validate(&cfg, "--set", &err));
        g_assert_error(err, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG);
        g_assert_nonnull(strstr(err->message, "[cache]"));
        g_clear_error(&err);
    }
    Config cfg;
    config_defaults(&cfg);
    cfg.cache.dcache_size = 512;
    cfg.cache.dcache_ways = 16;
    cfg.cache.line = 64;
    GError *err = NULL;
    g_assert_false(config_validate(&cfg, "--set", &err)); /* 16 x 64 > 512 */
    g_clear_error(&err);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cache/counts", test_counts);
    g_test_add_func("/cache/penalty", test_penalty);
    g_test_add_func("/cache/config", test_config);
    g_test_add_func("/cache/writeback-ops", test_writeback_ops);
    return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* test-timing24k.c — [timing] model = 24k (docs/timing.md), one rule at a
 * time: the fixtures tests/fixtures/emu/t24_*.S run on one core, and
 * hand-assembled instruction streams go through the pipeline pass
 * (emu/timing_24k.c) alone. Every expected figure is written out from the
 * rule table of docs/timing.md (each fixture's header has the sum). */
#include <glib.h>

#include "emu/core.h"
#include "emu/timing_24k.h"

static const char *const endians[] = { "el", "eb" };

/* Exit code (the measured cycles) of fixture name under 24k. */
static int run_24k(const char *name, const char *endian)
{
    Config cfg;
    config_defaults(&cfg);
    g_assert_cmpuint(cfg.timing.model, ==, TIMING_24K); /* the default */
    cfg.mesh_width = cfg.mesh_height = 1;
    g_autofree char *path = g_strdup_printf("%s/%s-%s.elf", FIXTURES, name, endian);
    GError *err = NULL;
    ElfImage *img = elf_image_load(path, cfg.ram_size, &err);
    g_assert_no_error(err);
    Core *c = core_new(0, &cfg, img, NULL, NULL, &err);
    g_assert_no_error(err);
    core_run(c, UINT64_C(1) << 40);
    g_assert_cmpint(core_state(c), ==, CORE_EXITED);
    int code = core_exit_code(c);
    core_free(c);
    elf_image_free(img);
    return code;
}

/* mmio = 4: the MEASURE_BEGIN read of CYCLE_LO costs 1 + 4 */
#define RP 5

static void test_fixtures(void)
{
    static const struct { const char *name; int expect; } cases[] = {
        { "t24_ldep", RP + 5 * (1 + 2) },       /* load-to-use: 1 stall */
        { "t24_lind", RP + 5 * 2 },             /* independent: none */
        { "t24_mfloearly", RP + 3 * (1 + 5) },  /* mflo waits for HI/LO */
        { "t24_mflolate", RP + 3 * 6 },         /* late mflo: free */
        { "t24_div", RP + 2 * (1 + 36) },       /* div → mflo 36 */
        { "t24_branch", RP + 5 * (2 + 1) },     /* taken bne: +1 */
        { "t24_jump", RP + 5 * 2 },             /* j: +0 */
        { "t24_xblock", RP + 5 * (1 + 1 + 2) }, /* load-use across blocks */
        { "t24_xblockind", RP + 5 * 3 },
        { "t24_xblockjr", RP + 3 * (4 + 2 + 1 + 2) }, /* across a jr: at run time */
        { "t24_uncached", RP + (1 + 2) + 1 + 4 * (1 + 4) }, /* kseg1 fetch */
        { "t24_perf", 12 << 16 | 12 },         /* PerfCnt0 cycles, 1 insns */
        { "t24_perfovf", 0x100 | 72 },         /* overflow: PCI, IP7 */
        { "t24_perfstall", 3 << 16 | 2 },      /* load-use stalls, stores */
        { "t24_xbne", RP + 3 * 5 + 3 * 7 },    /* across a taken bne's slot */
        { "t24_perfirq", 64 },                 /* overflow interrupt: EPC */
        { "t24_perfxc1", 3 << 8 | 2 },         /* lwxc1 ... are loads, stores */
        { "t24_perfmode", 303 << 16 | 3 << 8 | 1 }, /* K outside, EXL in a handler */
        { "t24_perfldirq", 120 },              /* overflow of loads: EPC */
        { "t24_perfinirq", 102 },              /* overflow of instructions */
    };
    for (unsigned e = 0; e < 2; e++)
        for (unsigned k = 0; k < G_N_ELEMENTS(cases); k++) {
            g_test_message("%s-%s", cases[k].name, endians[e]);
            g_assert_cmpint(run_24k(cases[k].name, endians[e]), ==, cases[k].expect);
        }
}

/* Run words through the pass: per-instruction costs into icost. */
static uint32_t pass(const uint32_t *w, uint32_t n, uint16_t *icost, T24Result *r)
{
    Config cfg;
    config_defaults(&cfg);
    t24_block(&cfg.timing, w, n, 0x80000000u, NULL, icost, NULL, r);
    return r->cost;
}

/* add.d $f2,$f0,$f0 = 0x46200080 | fd << 6 | fs << 11 | ft << 16 */
static uint32_t add_d(unsigned fd, unsigned fs, unsigned ft)
{
    return 0x46200000u | ft << 16 | fs << 11 | fd << 6;
}

static void test_fpu_chain(void)
{
    /* dependent: f2 = f0+f0, f4 = f2+f2, f6 = f4+f4, f8 = f6+f6: each
     * waits for the previous (latency 4): 1, 4, 4, 4 */
    uint32_t dep[] = { add_d(2, 0, 0), add_d(4, 2, 2), add_d(6, 4, 4), add_d(8, 6, 6) };
    /* independent: all from f0: back to back, 1 each */
    uint32_t ind[] = { add_d(2, 0, 0), add_d(4, 0, 0), add_d(6, 0, 0), add_d(8, 0, 0) };
    uint16_t ic[4];
    T24Result r = { 0 };
    g_assert_cmpuint(pass(dep, 4, ic, &r), ==, 13);
    g_assert_cmpuint(ic[0], ==, 1);
    g_assert_cmpuint(ic[3], ==, 4);
    g_assert_cmpuint(pass(ind, 4, ic, &r), ==, 4);
    /* div.d f2,f0,f0 (0x46200003) then an independent add.d: the pipe is
     * blocked 29 cycles: 1 + 29 */
    uint32_t blk[] = { 0x46200083u, add_d(4, 6, 6) };
    g_assert_cmpuint(pass(blk, 2, ic, &r), ==, 30);
    /* the last add.d of the chain leaves f8 pending 3 cycles past the
     * block's end: a next block reading f8 would wait */
    pass(dep, 4, ic, &r);
    g_assert_true(r.pend_mask & (UINT64_C(1) << (32 + 8)));
}

static void test_agen_and_mul(void)
{
    /* addiu a0,a0,4 ; lw v0,0(a0): the base from the ALU one stage late:
     * 1 + 2 */
    uint32_t ag[] = { 0x24840004u, 0x8c820000u };
    /* mul v0,a0,a1 ; addu v1,v0,v0: 1 + 5 */
    uint32_t mu[] = { 0x70851002u, 0x00421821u };
    /* sw v0,0(a0) after lw v0: the data waits the load's latency (2), not
     * the base's (3): 1 + 2 */
    uint32_t st[] = { 0x8ca20000u, 0xac820000u };
    uint16_t ic[2];
    T24Result r = { 0 };
    g_assert_cmpuint(pass(ag, 2, ic, &r), ==, 3);
    g_assert_cmpuint(pass(mu, 2, ic, &r), ==, 6);
    g_assert_cmpuint(pass(st, 2, ic, &r), ==, 3);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/timing24k/fixtures", test_fixtures);
    g_test_add_func("/timing24k/fpu-chain", test_fpu_chain);
    g_test_add_func("/timing24k/agen-mul", test_agen_and_mul);
    return g_test_run();
}

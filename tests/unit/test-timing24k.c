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
static uint32_t no_tag(void *opaque, uint32_t addr, bool *watch, void **data)
{
    (void)data;
    *watch = false;
    return 0;
}

static void no_arrive(void *opaque, Core *core, const Block *from, const Block *to, uint64_t now) {}

/* A core of path under cfg (its image in *img), run by the block hook of
 * `hook`: 0 block_hook_plain (no client), 1 block_hook (a client that
 * watches nothing: every jr takes the exact path), 2 block_hook_lone_24k
 * (one host thread). */
static Core *core_hooked(const char *path, const Config *cfg, unsigned hook, ElfImage **img)
{
    GError *err = NULL;
    *img = elf_image_load(path, cfg->ram_size, &err);
    g_assert_no_error(err);
    Core *c = core_new(0, cfg, *img, NULL, NULL, &err);
    g_assert_no_error(err);
    if (hook == 1)
        core_set_hooks(c, &(CoreHooks){ .block_tag = no_tag, .arrive = no_arrive });
    if (hook == 2)
        core_set_sched(c, &(CoreSched){ .lone = true });
    return c;
}

static int run_24k(const char *name, const char *endian)
{
    Config cfg;
    config_defaults(&cfg);
    g_assert_cmpuint(cfg.timing.model, ==, TIMING_24K); /* the default */
    cfg.mesh_width = cfg.mesh_height = 1;
    g_autofree char *path = g_strdup_printf("%s/%s-%s.elf", FIXTURES, name, endian);
    ElfImage *img;
    Core *c = core_hooked(path, &cfg, 0, &img);
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
        { "t24_mfloearly", RP + 3 * (1 + 1 + 5) }, /* mflo's result: 5 */
        { "t24_mflolate", RP + 3 * 7 },         /* a late use: free */
        { "t24_div", RP + 2 * (1 + 36) },       /* div → mflo 36 */
        { "t24_branch", RP + 5 * (2 + 1) },     /* taken bne: +1 */
        { "t24_jump", RP + 5 * 2 },             /* j: +0 */
        { "t24_xblock", RP + 5 * (1 + 1 + 2) }, /* load-use across blocks */
        { "t24_xblockind", RP + 5 * 3 },
        { "t24_xblockjr", RP + 3 * (4 + 2 + 1 + 2) }, /* across a jr: at run time */
        { "t24_xjrloop", RP + 5 * (4 + 2 + 2 + 4) + 4 }, /* the same, memoised */
        { "t24_uncached", RP + (1 + 2) + 1 + 4 * (1 + 4) }, /* kseg1 fetch */
        { "t_kseg1data", RP + 8 * (8 * (1 + 4) + 3) + 7 }, /* kseg1 loads, stores */
        { "t_kseg1odd", RP + 6 * (1 + 4) + 6 + 2 }, /* ldc1 ... sc: once each */
        { "t24_perf", 12 << 16 | 12 },         /* PerfCnt0 cycles, 1 insns */
        { "t24_perfovf", 0x100 | 72 },         /* overflow: PCI, IP7 */
        { "t24_perfstall", 3 << 16 | 2 },      /* load-use stalls, stores */
        { "t24_xbne", RP + 3 * 5 + 3 * 7 },    /* across a taken bne's slot */
        { "t24_xsplit", RP + 3 + 3 * 9 + 2 },  /* slot split at a page end */
        { "t24_xsplitjr", RP + 3 + 3 * 12 + 2 }, /* the same after a jr */
        { "t24_xsplitmul", RP + 3 + 3 * 10 + 2 }, /* a mul pending across branch and slot */
        { "t24_xtwo", RP + 3 + 3 * 40 + 2 },   /* a divide pending across two blocks */
        { "t24_xlikely", RP + 2 + 3 * 5 + 2 },  /* an annulled slot leaves nothing pending */
        { "t24_xlikelysplit", RP + 2 + 3 * 5 + 2 }, /* the same, the slot split off */
        { "t24_xslotwait", RP + 4 + 33 },      /* a wait in the successor's slot */
        { "t24_never", RP + 2 + 3 * 8 + 2 },   /* bne x,x: not the block's end */
        { "t24_xpagewait", RP + 5 + 32 },      /* a wait past a page end */
        { "t24_perfirq", 64 },                 /* overflow interrupt: EPC */
        { "t24_perfxc1", 3 << 8 | 2 },         /* lwxc1 ... are loads, stores */
        { "t24_perfmode", 303 << 16 | 3 << 8 | 1 }, /* K outside, EXL in a handler */
        { "t24_perfldirq", 120 },              /* overflow of loads: EPC */
        { "t24_perfinirq", 102 },              /* overflow of instructions */
        { "t24_perfcut", 2 << 8 | 7 },         /* read after an interrupt cut a block */
        { "t24_audit", RP + 35 },              /* the audit's rules, one block */
        { "t24_perfcutei", 2 },                /* loads of a block cut by ei */
        { "t24_perfmore", 0x10212 },           /* events 19, 33, 23 by hand */
    };
    for (unsigned e = 0; e < 2; e++)
        for (unsigned k = 0; k < G_N_ELEMENTS(cases); k++) {
            g_test_message("%s-%s", cases[k].name, endians[e]);
            g_assert_cmpint(run_24k(cases[k].name, endians[e]), ==, cases[k].expect);
        }
}

/* t24_neverl: the slot a never-taken likely branch skips (QEMU) is not
 * run: neither charged nor counted, under both models (the fixture's
 * header: 27 cycles under 24k, 28 under flat, 27 instructions; before
 * 135, 82 and 30). */
static void test_never_likely(void)
{
    for (unsigned e = 0; e < 2; e++)
        for (unsigned m = 0; m < 2; m++) {
            Config cfg;
            config_defaults(&cfg);
            cfg.timing.model = m ? TIMING_FLAT : TIMING_24K;
            cfg.mesh_width = cfg.mesh_height = 1;
            g_autofree char *path = g_strdup_printf("%s/t24_neverl-%s.elf", FIXTURES, endians[e]);
            ElfImage *img;
            Core *c = core_hooked(path, &cfg, 0, &img);
            core_run(c, UINT64_C(1) << 40);
            g_assert_cmpint(core_state(c), ==, CORE_EXITED);
            int want = m ? RP + 3 + 3 * 6 + 2 * (int)cfg.timing.branch_taken : RP + 2 + 3 * 6 + 2;
            g_assert_cmpint(core_exit_code(c), ==, want);
            g_assert_cmpuint(core_instructions(c), ==, 27);
            core_free(c);
            elf_image_free(img);
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

/* The MDU's three multipliers (24k.md: mul reserves one of r24k_mul3a/b/c
 * for 5 cycles, mult/madd/mfhi/mflo/mthi/mtlo one for 1, div all three
 * for 36): a fourth MDU instruction within 5 cycles of three independent
 * `mul`s waits for the first one's; a div waits for every multiplier.
 * Before (one MDU, mul holding it 1 cycle): 4, 4, 2. */
static void test_mul_units(void)
{
    enum { MUL0 = 0x70854002u, MUL1 = 0x70854802u, MUL2 = 0x70855002u, MUL3 = 0x70855802u,
           MULT = 0x00850018u, DIV = 0x0085001au, NOP = 0 };
    uint16_t ic[8];
    T24Result r = { 0 };
    /* mul at 0, 1, 2 (the three busy until 5, 6, 7), the 4th at 5: 1, 1, 1, 3 */
    uint32_t four[] = { MUL0, MUL1, MUL2, MUL3 };
    g_assert_cmpuint(pass(four, 4, ic, &r), ==, 6);
    g_assert_cmpuint(ic[3], ==, 3);
    g_assert_cmpuint(r.wait[T24_WAIT_MDU], ==, 2);
    /* a mult after them waits the same */
    uint32_t mult[] = { MUL0, MUL1, MUL2, MULT };
    g_assert_cmpuint(pass(mult, 4, ic, &r), ==, 6);
    /* two nops between: the 4th mul at 5, when the first multiplier frees */
    uint32_t late[] = { MUL0, MUL1, MUL2, NOP, NOP, MUL3 };
    g_assert_cmpuint(pass(late, 6, ic, &r), ==, 6);
    g_assert_cmpuint(ic[5], ==, 1);
    /* mult x 4: 1 cycle each, back to back */
    uint32_t mults[] = { MULT, MULT, MULT, MULT };
    g_assert_cmpuint(pass(mults, 4, ic, &r), ==, 4);
    /* mul; div: the div needs the three, the mul's until 5: 1 + (1 + 4) */
    uint32_t div[] = { MUL0, DIV };
    g_assert_cmpuint(pass(div, 2, ic, &r), ==, 6);
}

/* HI/LO (24k.md r24k_int_mult, r24k_int_mfhilo, r24k_int_div, the
 * mthilo->madd bypass): mult/madd/msub deliver HI/LO to an mfhi/mflo
 * at once (latency 1); mfhi/mflo deliver their GPR in 5 cycles (6 as a
 * base), wherever they stand; div holds the MDU 36 cycles. */
static void test_hilo(void)
{
    enum { MULT = 0x00850018u, MFLO = 0x00001012u, ADDU = 0x00421821u, NOP = 0,
           MTLO = 0x00800013u, DIV = 0x0085001au, LWB = 0x8c430000u, MADD = 0x70a60000u };
    uint16_t ic[8];
    T24Result r = { 0 };
    /* mult; mflo v0; addu v1,v0,v0: mflo at 1, addu at 1 + 5: 1, 1, 5 */
    uint32_t adj[] = { MULT, MFLO, ADDU };
    g_assert_cmpuint(pass(adj, 3, ic, &r), ==, 7);
    g_assert_cmpuint(ic[1], ==, 1);
    g_assert_cmpuint(ic[2], ==, 5);
    /* mult; 4 nops; mflo; addu: the late mflo's result is still 5 away:
     * 6 x 1 + 5 = 11 */
    uint32_t late[] = { MULT, NOP, NOP, NOP, NOP, MFLO, ADDU };
    g_assert_cmpuint(pass(late, 7, ic, &r), ==, 11);
    g_assert_cmpuint(ic[5], ==, 1);
    g_assert_cmpuint(ic[6], ==, 5);
    /* mtlo a0; mflo v0; addu: mtlo -> mflo 1, mflo -> use 5: 1 + 1 + 5 */
    uint32_t mt[] = { MTLO, MFLO, ADDU };
    g_assert_cmpuint(pass(mt, 3, ic, &r), ==, 7);
    /* div; mflo; addu: the MDU busy 36, then 5: 1 + 36 + 5 */
    uint32_t dv[] = { DIV, MFLO, ADDU };
    g_assert_cmpuint(pass(dv, 3, ic, &r), ==, 42);
    g_assert_cmpuint(ic[1], ==, 36);
    g_assert_cmpuint(ic[2], ==, 5);
    /* mflo v0; lw v1,0(v0): a base 6 after the mflo: 1 + 6 */
    uint32_t base[] = { MFLO, LWB };
    g_assert_cmpuint(pass(base, 2, ic, &r), ==, 7);
    /* mult; madd: the accumulate chain does not wait: 2; mtlo; madd:
     * mthilo -> madd 2 (one stall): 1 + 2 */
    uint32_t acc[] = { MULT, MADD };
    g_assert_cmpuint(pass(acc, 2, ic, &r), ==, 2);
    uint32_t mtacc[] = { MTLO, MADD };
    g_assert_cmpuint(pass(mtacc, 2, ic, &r), ==, 3);
}

/* FPU compare (24k.md r24kx_fcmp, its bypass to r24kx_fmove): c.cond's
 * condition reaches bc1t in 2 cycles, a movf/movt (FPU or integer
 * destination) in 1. */
static void test_fcc(void)
{
    enum { CEQ = 0x46020032u, MOVFS = 0x46003111u, MOVF = 0x00801001u, BC1T = 0x45010003u };
    uint16_t ic[3];
    T24Result r = { 0 };
    uint32_t fmov[] = { CEQ, MOVFS };   /* c.eq.s f0,f2; movf.s f4,f6: 1 + 1 */
    g_assert_cmpuint(pass(fmov, 2, ic, &r), ==, 2);
    uint32_t imov[] = { CEQ, MOVF };    /* c.eq.s; movf v0,a0: 1 + 1 */
    g_assert_cmpuint(pass(imov, 2, ic, &r), ==, 2);
    uint32_t br[] = { CEQ, BC1T, 0 };   /* c.eq.s; bc1t; nop: 1 + 2 + 1 */
    g_assert_cmpuint(pass(br, 3, ic, &r), ==, 4);
    g_assert_cmpuint(ic[1], ==, 2);
}

/* FPU loads, stores and moves issue into the FPU pipe (24k.md: every
 * FPU reservation, fload, fstore and fxfer included, takes
 * r24k_fpu_arith): they wait while a div.s blocks it (14 cycles) and for
 * mul.d's repeat (2). */
static void test_fpu_pipe(void)
{
    enum { DIVS = 0x46041003u, LWC1 = 0xc4860000u, MTC1 = 0x44843000u, MFC1 = 0x44024000u,
           SWC1 = 0xe4880000u, MULD = 0x46241002u, LDC1 = 0xd4860000u, LWXC1 = 0x4c850180u,
           ADDU = 0x00a62021u };
    static const uint32_t after_div[] = { LWC1, MTC1, MFC1, SWC1, LWXC1 };
    uint16_t ic[2];
    T24Result r = { 0 };
    for (unsigned k = 0; k < G_N_ELEMENTS(after_div); k++) {
        uint32_t w[] = { DIVS, after_div[k] };   /* div.s f0,f2,f4 blocks 14: 1 + 14 */
        g_assert_cmpuint(pass(w, 2, ic, &r), ==, 15);
        g_assert_cmpuint(r.wait[T24_WAIT_FPU], ==, 13);
    }
    uint32_t md[] = { MULD, LDC1 };              /* mul.d repeats in 2: 1 + 2 */
    g_assert_cmpuint(pass(md, 2, ic, &r), ==, 3);
    uint32_t alu[] = { DIVS, ADDU };             /* the integer pipe does not wait */
    g_assert_cmpuint(pass(alu, 2, ic, &r), ==, 2);
}

/* CP0 reads (24k.md's r24k_int_cop, "cfc1, di, ei, mfc0, mtc0": 3, and
 * 4 to an address base; the SUM counts the waits as event 46, "CP0 read
 * stalls"): mfc0 and di/ei deliver their GPR in 3 cycles. */
static void test_cop0_read(void)
{
    enum { MFC0 = 0x40024800u, DI = 0x41626000u, ADDU = 0x00421821u, LWB = 0x8c430000u };
    uint16_t ic[2];
    T24Result r = { 0 };
    uint32_t use[] = { MFC0, ADDU };    /* mfc0 v0,Count; addu v1,v0,v0: 1 + 3 */
    g_assert_cmpuint(pass(use, 2, ic, &r), ==, 4);
    g_assert_cmpuint(ic[1], ==, 3);
    for (unsigned w = 0; w < T24_NWAIT; w++)   /* none of the four causes */
        g_assert_cmpuint(r.wait[w], ==, 0);
    uint32_t base[] = { MFC0, LWB };    /* as lw's base: 1 + 4 */
    g_assert_cmpuint(pass(base, 2, ic, &r), ==, 5);
    uint32_t di[] = { DI, ADDU };       /* di v0: the old Status, 1 + 3 */
    g_assert_cmpuint(pass(di, 2, ic, &r), ==, 4);
}

/* The rows of docs/timing.md's table that no fixture above measures,
 * each a pair producer; consumer hand-summed from the table (24k.md's
 * 24kx figures): 1 + the consumer's issue distance. */
static void test_table_rows(void)
{
    static const struct { const char *what; uint32_t w[2]; uint32_t cost; } rows[] = {
        { "lw v0; lw v1,0(v0): load -> base 3", { 0x8c820000u, 0x8c430000u }, 1 + 3 },
        { "mul v0; lw v1,0(v0): mul -> base 6", { 0x70851002u, 0x8c430000u }, 1 + 6 },
        { "div; mult: the MDU busy 36", { 0x0085001au, 0x00c70018u }, 1 + 36 },
        { "mul.d; mul.d: repeat 2", { 0x46241002u, 0x46241182u }, 1 + 2 },
        { "mul.d f0; add.d f8,f0,f0: 5", { 0x46241002u, 0x46200200u }, 1 + 5 },
        { "mul.s; mul.s: repeat 1", { 0x46041002u, 0x46041182u }, 1 + 1 },
        { "mul.s f0; add.s f8,f0,f0: 4", { 0x46041002u, 0x46000200u }, 1 + 4 },
        { "div.s f0; add.s f6,f0,f0: 17", { 0x46041003u, 0x46000180u }, 1 + 17 },
        { "sqrt.d f0; add.d f4,f0,f0: 32", { 0x46201004u, 0x46200100u }, 1 + 32 },
        { "sqrt.d; mul.s (independent): blocked 29", { 0x46201004u, 0x46041182u }, 1 + 29 },
        { "rsqrt.d f0; add.d f4,f0,f0: 35", { 0x46201016u, 0x46200100u }, 1 + 35 },
        { "rsqrt.d; mul.s (independent): blocked 31", { 0x46201016u, 0x46041182u }, 1 + 31 },
        { "recip.s f0; add.s f6,f0,f0: 17", { 0x46001015u, 0x46000180u }, 1 + 17 },
        { "cvt.w.d f0; mfc1 v0,f0: 5", { 0x46201024u, 0x44020000u }, 1 + 5 },
        { "cvt.s.d f0; add.s f6,f0,f0: 6", { 0x46201020u, 0x46000180u }, 1 + 6 },
        { "cvt.d.w f0; add.d f4,f0,f0: 4", { 0x46801021u, 0x46200100u }, 1 + 4 },
        { "mtc1 a0,f2; add.s f4,f2,f2: 2", { 0x44841000u, 0x46021100u }, 1 + 2 },
        { "mfc1 v0,f2; addu v1,v0,v0: 2", { 0x44021000u, 0x00421821u }, 1 + 2 },
        { "mfc1 v0,f2; lw v1,0(v0): base 3", { 0x44021000u, 0x8c430000u }, 1 + 3 },
        { "lwc1 f2; add.s f4,f2,f2: 3", { 0xc4820000u, 0x46021100u }, 1 + 3 },
        { "madd.d; madd.d: repeat 2", { 0x4c462021u, 0x4c462221u }, 1 + 2 },
        { "madd.s f0; add.s f8,f0,f0: 4", { 0x4c462020u, 0x46000200u }, 1 + 4 },
        { "addiu a0; synci 0(a0): a base 2", { 0x24840020u, 0x049f0000u }, 1 + 2 },
    };
    uint16_t ic[2];
    T24Result r = { 0 };
    for (unsigned k = 0; k < G_N_ELEMENTS(rows); k++) {
        g_test_message("%s", rows[k].what);
        g_assert_cmpuint(pass(rows[k].w, 2, ic, &r), ==, rows[k].cost);
    }
    /* synci writes no register (REGIMM rt 0x1f is not a bltzal): $31
     * stays a first read of the block */
    uint32_t sy[] = { 0x049f0000u, 0x03e00008u };     /* synci 0(a0); jr ra */
    pass(sy, 2, ic, &r);
    g_assert_true(r.use_mask & (UINT64_C(1) << 31));
}

/* t24_xjrloop: the loop block (addu t1, t0, t0; addiu; bnez; nop) runs
 * 5 times, each entered by the jr block with the mul's result 2 cycles
 * away: the waits go on the addu (2 x 5), the 4 taken bnez on the bnez,
 * whether charged by the exact path (the first two entries: new pairs)
 * or from the memo in the unprofiled block hook (the last three). */
static void test_entry_stall_memo(void)
{
    for (unsigned e = 0; e < 2; e++) {
        Config cfg;
        config_defaults(&cfg);
        cfg.mesh_width = cfg.mesh_height = 1;
        g_autofree char *path = g_strdup_printf("%s/t24_xjrloop-%s.elf", FIXTURES, endians[e]);
        ElfImage *img;
        Core *c = core_hooked(path, &cfg, 0, &img);
        core_run(c, UINT64_C(1) << 40);
        g_assert_cmpint(core_state(c), ==, CORE_EXITED);
        g_assert_cmpint(core_exit_code(c), ==, RP + 5 * (4 + 2 + 2 + 4) + 4);
        const Block *loop = NULL;
        for (unsigned i = 0; i < core_nblocks(c); i++) {
            const Block *b = core_block(c, i);
            if (block_count(b) == 5 && block_ninsns(b) == 4) {
                g_assert_null(loop);
                loop = b;
            }
        }
        g_assert_nonnull(loop);
        uint64_t cyc[4];
        g_assert_true(block_insn_cycles(loop, cyc));
        g_assert_cmpuint(cyc[0], ==, 5 * (1 + 2)); /* addu: its waits */
        g_assert_cmpuint(cyc[1], ==, 5);
        g_assert_cmpuint(cyc[2], ==, 5 + 4);       /* bnez: taken 4 times */
        g_assert_cmpuint(cyc[3], ==, 5);
        g_assert_cmpuint(block_cycles(loop), ==, 5 * 4 + 5 * 2 + 4);
        core_free(c);
        elf_image_free(img);
    }
}

/* t24_xjrloop stopped by [run] max_cycles at each cycle of its run: the
 * block hook of a core without a client (the memoised waits charged in
 * it, or left to the exact path when the limit falls inside one) stops
 * exactly where the hook of a core with a client stops, whose every jr
 * takes the exact path (boundary_fast): state, cycles, pc; so does the
 * hook of one host thread (block_hook_lone_24k: the 24k return first). */
static void test_entry_stall_limit(void)
{
    for (unsigned e = 0; e < 2; e++) {
        g_autofree char *path = g_strdup_printf("%s/t24_xjrloop-%s.elf", FIXTURES, endians[e]);
        unsigned limited = 0;
        for (uint64_t limit = 1; limit < 200; limit++) {
            uint64_t got[3][4];
            for (unsigned client = 0; client < 3; client++) {
                Config cfg;
                config_defaults(&cfg);
                cfg.mesh_width = cfg.mesh_height = 1;
                cfg.max_cycles = limit;
                ElfImage *img;
                Core *c = core_hooked(path, &cfg, client, &img);
                core_run(c, UINT64_C(1) << 40);
                got[client][0] = (uint64_t)core_state(c);
                got[client][1] = core_cycles(c);
                got[client][2] = core_pc(c);
                got[client][3] = core_state(c) == CORE_EXITED ? (uint64_t)core_exit_code(c) : 0;
                core_free(c);
                elf_image_free(img);
            }
            g_assert_cmpmem(got[0], sizeof got[0], got[1], sizeof got[1]);
            g_assert_cmpmem(got[2], sizeof got[2], got[1], sizeof got[1]);
            limited += got[0][0] == CORE_LIMIT;
        }
        g_assert_cmpuint(limited, >, 60); /* the limit fell inside the loop */
    }
}

/* t24_xjrfpu: an FPU result and an address base left pending across a
 * jr, read at once by its target. A core without a client tests them in
 * block_hook_plain through one word (Block.pend_f & use_f), so does one
 * on one host thread (block_hook_lone_24k); a core with a client takes
 * the exact path (boundary_fast) at every jr. All three measure
 * the same cycles, and the add.s waits 5 x 11 cycles (missed: 0): div.s
 * issues at cycle 1 of the jr block (lui, div.s, ori, jr, nop), its
 * result (17) at 18; the add.s issues at 5 + 2 (the jr) = 7. The lw's
 * base is ready after the jump's 2 cycles: no wait. */
static void test_entry_stall_filter(void)
{
    for (unsigned e = 0; e < 2; e++) {
        g_autofree char *path = g_strdup_printf("%s/t24_xjrfpu-%s.elf", FIXTURES, endians[e]);
        uint64_t got[3][3];
        for (unsigned client = 0; client < 3; client++) {
            Config cfg;
            config_defaults(&cfg);
            cfg.mesh_width = cfg.mesh_height = 1;
            ElfImage *img;
            Core *c = core_hooked(path, &cfg, client, &img);
            core_run(c, UINT64_C(1) << 40);
            g_assert_cmpint(core_state(c), ==, CORE_EXITED);
            got[client][0] = (uint64_t)core_exit_code(c);
            got[client][1] = core_cycles(c);
            got[client][2] = core_instructions(c);
            uint64_t waited = 0, cyc[4]; /* the targets' first instructions wait (the jr blocks' lui not) */
            for (unsigned i = 0; i < core_nblocks(c); i++) {
                const Block *b = core_block(c, i);
                if (block_count(b) == 5 && block_ninsns(b) == 4 && block_insn_cycles(b, cyc))
                    waited += cyc[0] - 5;
            }
            got[client][2] += waited << 32;
            g_assert_cmpuint(waited, ==, 5 * 11); /* add.s: 11 cycles, 5 times; the lw: none */
            core_free(c);
            elf_image_free(img);
        }
        g_assert_cmpmem(got[0], sizeof got[0], got[1], sizeof got[1]);
        g_assert_cmpmem(got[2], sizeof got[2], got[1], sizeof got[1]);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/timing24k/fixtures", test_fixtures);
    g_test_add_func("/timing24k/never-likely", test_never_likely);
    g_test_add_func("/timing24k/fpu-chain", test_fpu_chain);
    g_test_add_func("/timing24k/agen-mul", test_agen_and_mul);
    g_test_add_func("/timing24k/hilo", test_hilo);
    g_test_add_func("/timing24k/mul-units", test_mul_units);
    g_test_add_func("/timing24k/fcc", test_fcc);
    g_test_add_func("/timing24k/fpu-pipe", test_fpu_pipe);
    g_test_add_func("/timing24k/cop0-read", test_cop0_read);
    g_test_add_func("/timing24k/table-rows", test_table_rows);
    g_test_add_func("/timing24k/entry-stall-memo", test_entry_stall_memo);
    g_test_add_func("/timing24k/entry-stall-limit", test_entry_stall_limit);
    g_test_add_func("/timing24k/entry-stall-filter", test_entry_stall_filter);
    return g_test_run();
}

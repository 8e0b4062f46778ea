// SPDX-License-Identifier: GPL-2.0-or-later
/* test-core.c — one core with no network, on the assembly fixtures of
 * tests/fixtures/emu. Expected figures are hand counts from the fixtures'
 * disassembly (each fixture's header comment gives the layout). */
#include <glib.h>
#include <string.h>

#include "emu/core.h"

typedef struct Run {
    Config cfg;
    ElfImage *img;
    Core *core;
} Run;

static const char *const endians[] = { "el", "eb" };

static void run_fixture(Run *r, const char *name, const char *endian, void (*tweak)(Config *))
{
    config_defaults(&r->cfg);
    r->cfg.timing.model = TIMING_FLAT; /* hand-computed under flat */
    if (tweak)
        tweak(&r->cfg);
    g_autofree char *path = g_strdup_printf("%s/%s-%s.elf", FIXTURES, name, endian);
    GError *err = NULL;
    r->img = elf_image_load(path, r->cfg.ram_size, &err);
    g_assert_no_error(err);
    r->core = core_new(0, &r->cfg, r->img, NULL, NULL, &err);
    g_assert_no_error(err);
    core_run(r->core, UINT64_C(1) << 40);
}

static void run_done(Run *r)
{
    core_free(r->core);
    elf_image_free(r->img);
}

/* t_div: lui, li, li, lw CYCLE_LO, 5 div, 5 divu, lw CYCLE_LO, subu,
 * sw EXIT (then b . ; nop, never run). Cycles: 4 plain + 3 MMIO accesses
 * at 1 + mmio (4) + 10 x (1 + div) = 29 + 10 div; 17 instructions.
 * Exit = (1 + mmio) + 10 x (1 + div). */
static unsigned div_cost;
static void set_div(Config *c) { c->timing.div = div_cost; }

static void test_div_costs(void)
{
    static const unsigned costs[] = { 0, 17, 255, 300, 1000 };
    for (unsigned e = 0; e < 2; e++)
        for (unsigned k = 0; k < G_N_ELEMENTS(costs); k++) {
            Run r;
            div_cost = costs[k];
            run_fixture(&r, "t_div", endians[e], set_div);
            g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
            g_assert_cmpint(core_exit_code(r.core), ==, 5 + 10 * (1 + (int)div_cost));
            g_assert_cmpuint(core_cycles(r.core), ==, 29 + 10 * (uint64_t)div_cost);
            g_assert_cmpuint(core_instructions(r.core), ==, 17);
            run_done(&r);
        }
}

/* The instructions of a block cut short by EXIT are not counted in the
 * block either: the blocks' counts sum to the core's. */
static void test_block_instructions(void)
{
    for (unsigned e = 0; e < 2; e++) {
        Run r;
        run_fixture(&r, "t_div", endians[e], NULL);
        uint64_t sum = 0;
        for (unsigned i = 0; i < core_nblocks(r.core); i++)
            sum += block_instructions(core_block(r.core, i));
        g_assert_cmpuint(core_nblocks(r.core), ==, 1);
        g_assert_cmpuint(block_count(core_block(r.core, 0)), ==, 1);
        g_assert_cmpuint(block_ninsns(core_block(r.core, 0)), ==, 19);
        g_assert_cmpuint(sum, ==, 17);
        run_done(&r);
    }
}

typedef struct FaultCase {
    const char *fixture, *kind;
    uint32_t pc;
    uint64_t insns;
} FaultCase;

static void test_faults(void)
{
    static const FaultCase cases[] = {
        { "t_f_syscall", "syscall", 0x80000008u, 2 },
        { "t_f_trap", "trap", 0x80000008u, 2 },
        { "t_f_overflow", "overflow", 0x8000000Cu, 3 },
        { "t_f_cop1", "coprocessor-unusable", 0x8000001Cu, 7 },
        { "t_ni", "bus-error", 0x80000004u, 1 },
        /* kuseg is unmapped: NULL pointers fault at the exact PC */
        { "t_f_null", "unmapped-write", 0x80000008u, 2 },
        { "t_f_nullrd", "unmapped-read", 0x8000000Cu, 3 },
        { "t_f_nullcall", "unmapped-fetch", 0x00000000u, 4 },
        /* the interrupt-entry stub page is no guest memory */
        { "t_f_stubw", "unmapped-write", 0x80000010u, 4 },
        { "t_f_stubr", "unmapped-read", 0x80000008u, 2 },
        { "t_f_stubj", "unmapped-fetch", 0xBFC00000u, 3 },
        /* the faulting instruction exactly, not the first of its class in
         * the block (issue 19.3) */
        { "t_f_trap2", "trap", 0x80000010u, 4 },
        { "t_f_overflow2", "overflow", 0x80000010u, 4 },
        { "t_f_unal2", "unaligned-load", 0x8000000Cu, 3 },
        { "t_f_fpe", "fpu-exception", 0x80000030u, 12 },
        { "t_f_mfhc0", "reserved-instruction", 0x80000008u, 2 },
    };
    for (unsigned e = 0; e < 2; e++)
        for (unsigned k = 0; k < G_N_ELEMENTS(cases); k++) {
            Run r;
            run_fixture(&r, cases[k].fixture, endians[e], NULL);
            const CoreFault *f = core_fault(r.core);
            g_test_message("%s-%s", cases[k].fixture, endians[e]);
            g_assert_cmpint(core_state(r.core), ==, CORE_FAULT);
            g_assert_cmpstr(f->kind, ==, cases[k].kind);
            g_assert_cmphex(f->pc, ==, cases[k].pc);
            g_assert_cmpuint(core_instructions(r.core), ==, cases[k].insns);
            if (g_str_has_prefix(cases[k].kind, "unaligned"))
                g_assert_nonnull(strstr(f->message, "address 0x800ffff6")); /* $sp + 2 + 4 */
            if (g_str_has_prefix(cases[k].kind, "unmapped") && strcmp(cases[k].kind, "unmapped-fetch") != 0) {
                /* the exact address is named: NULL + 4, 0x7FFFFFFC, the stub */
                g_assert_true(strstr(f->message, "0x00000004") || strstr(f->message, "0x7ffffffc")
                              || strstr(f->message, "0xbfc00000"));
            }
            run_done(&r);
        }
}

/* The lookup of a core without a client masks the address with
 * Core.slot_mask (the power of two at or above ram_size / 4, less 1)
 * instead of testing the bound: an address past RAM lands on a slot of
 * RAM, whose block is another address's (a miss, the exact path). The
 * stub page (0xBFC00000: slot 0 of a 1 MB RAM, where _start's block is)
 * and kuseg 0 (slot 0 again) fault as with the bound; t_alu runs whole,
 * with RAM a power of two and not (3 MB: 2^20 slots for 786432). */
static uint64_t ram_bytes;
static void set_ram(Config *c) { c->ram_size = ram_bytes; }

static void test_lookup_past_ram(void)
{
    static const uint64_t rams[] = { 65536, 1u << 20, 3u << 20, 5u << 16 }; /* 5 x 64 KB: 2^15 slots */
    for (unsigned e = 0; e < 2; e++)
        for (unsigned k = 0; k < G_N_ELEMENTS(rams); k++) {
            ram_bytes = rams[k];
            g_test_message("ram %" G_GUINT64_FORMAT " %s", rams[k], endians[e]);
            Run r;
            run_fixture(&r, "t_f_stubj", endians[e], set_ram);
            g_assert_cmpint(core_state(r.core), ==, CORE_FAULT);
            g_assert_cmpstr(core_fault(r.core)->kind, ==, "unmapped-fetch");
            g_assert_cmphex(core_fault(r.core)->pc, ==, 0xBFC00000u);
            g_assert_cmpuint(core_instructions(r.core), ==, 3);
            run_done(&r);
            run_fixture(&r, "t_f_nullcall", endians[e], set_ram);
            g_assert_cmpint(core_state(r.core), ==, CORE_FAULT);
            g_assert_cmpstr(core_fault(r.core)->kind, ==, "unmapped-fetch");
            g_assert_cmphex(core_fault(r.core)->pc, ==, 0);
            g_assert_cmpuint(core_instructions(r.core), ==, 4);
            run_done(&r);
            run_fixture(&r, "t_alu", endians[e], set_ram);
            g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
            g_assert_cmpint(core_exit_code(r.core), ==, 1 + 4 + 20); /* x_alu: flat, mmio 4 */
            run_done(&r);
        }
}

/* t_mmio2: the device access is the load that reads the device, not an
 * earlier RAM load through a base register later pointed at SYS: CYCLE_LO
 * read at cycle 5 (issue 19.2; the fixture's header). The faults name what
 * they are and dump the registers. */
static void test_mmio_exact_access(void)
{
    for (unsigned e = 0; e < 2; e++) {
        Run r;
        run_fixture(&r, "t_mmio2", endians[e], NULL);
        g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
        g_assert_cmpint(core_exit_code(r.core), ==, 5);
        run_done(&r);
        run_fixture(&r, "t_f_trap2", endians[e], NULL);
        g_assert_nonnull(strstr(core_fault(r.core)->message, "trap (teq) at pc 0x80000010"));
        g_assert_nonnull(strstr(core_fault(r.core)->message, "t0=00000000"));
        run_done(&r);
        run_fixture(&r, "t_f_fpe", endians[e], NULL);
        g_assert_nonnull(strstr(core_fault(r.core)->message, "FPU divide-by-zero at pc 0x80000030"));
        run_done(&r);
        run_fixture(&r, "t_f_overflow2", endians[e], NULL);
        g_assert_nonnull(strstr(core_fault(r.core)->message, "integer overflow (addi) at pc 0x80000010"));
        g_assert_nonnull(strstr(core_fault(r.core)->message, "t1=7ffffffe"));
        run_done(&r);
    }
}

/* t_timer: ten periodic TIMER interrupts taken and returned from (eret)
 * exactly where they struck: exit 10 (see the fixture). */
static void test_timer_interrupts(void)
{
    for (unsigned e = 0; e < 2; e++) {
        Run r;
        run_fixture(&r, "t_timer", endians[e], NULL);
        g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
        g_assert_cmpint(core_exit_code(r.core), ==, 10);
        g_assert_cmpuint(core_interrupts(r.core), ==, 10);
        run_done(&r);
    }
}

/* t_cp0 (see its header for the cycle of every instruction): Count read,
 * written, read in a delay slot; Compare raises the CP0 timer (IP7) that
 * wakes `wait` and is taken with IE | IM7; Cause in the handler shows
 * IP7 | TI with ExcCode 0 and BD 0; writing Compare clears it. With
 * count_divisor d: Count(t) = base + t/d where base = 1000 - 9/d (mtc0 at
 * cycle 9); Compare = base + 16/d + 50, reached at t = (16/d + 50) d. */
static unsigned divisor;
static void set_divisor(Config *c) { c->count_divisor = divisor; }

static void test_cp0_count_compare_cause(void)
{
    static const unsigned ds[] = { 1, 2, 3, 7 };
    for (unsigned e = 0; e < 2; e++)
        for (unsigned k = 0; k < G_N_ELEMENTS(ds); k++) {
            Run r;
            unsigned d = divisor = ds[k];
            run_fixture(&r, "t_cp0", endians[e], set_divisor);
            while (core_state(r.core) == CORE_IDLE) {
                core_idle(r.core, UINT64_C(1) << 40);
                core_run(r.core, UINT64_C(1) << 40);
            }
            g_test_message("t_cp0-%s divisor %u", endians[e], d);
            uint32_t base = 1000 - 9 / d, match = (16 / d + 50) * d;
            g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
            g_assert_cmpint(core_exit_code(r.core), ==, 0x55);
            g_assert_cmpuint(core_read_gpr(r.core, 17), ==, 7 / d);           /* s1 */
            g_assert_cmpuint(core_read_gpr(r.core, 18), ==, base + 12 / d);   /* s2 */
            g_assert_cmpuint(core_read_gpr(r.core, 19), ==, base + 14 / d);   /* s3: delay slot */
            g_assert_cmphex(core_read_gpr(r.core, 20), ==, 0);                /* s4: Cause, idle */
            g_assert_cmphex(core_read_gpr(r.core, 21), ==, 0x40008000u);      /* s5: Cause in handler */
            g_assert_cmpuint(core_read_gpr(r.core, 22), ==, base + (match + 1) / d); /* s6 */
            g_assert_cmphex(core_read_gpr(r.core, 23), ==, 0x8000005Cu);      /* s7: EPC = after_wait */
            g_assert_cmphex(core_read_gpr(r.core, 9), ==, 0);                 /* t1: Cause after ack */
            g_assert_cmpuint(core_interrupts(r.core), ==, 1);
            g_assert_cmpuint(core_idle_cycles(r.core), ==, match - 24);
            g_assert_cmpuint(core_cycles(r.core), ==, match + 13);
            g_assert_cmpuint(core_instructions(r.core), ==, 32);
            g_assert_cmpuint(core_read_cp0(r.core, 11), ==, 0);               /* Compare */
            g_assert_cmpuint(core_read_cp0(r.core, 9), ==, base + (match + 13) / d);
            run_done(&r);
        }
}

/* t_cp0irq (cycles in its header): Cause.IP2 follows the IRQC output at
 * the exact cycle of the mfc0 (interrupts off): first seen at 120, the
 * TIMER's expiry; cleared by TIMER ACK. 13 + 20 x 4 + 6 instructions. */
static void test_cp0_cause_ip2(void)
{
    for (unsigned e = 0; e < 2; e++) {
        Run r;
        run_fixture(&r, "t_cp0irq", endians[e], NULL);
        g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
        g_assert_cmpint(core_exit_code(r.core), ==, 0x66);
        g_assert_cmpuint(core_read_gpr(r.core, 17), ==, 124);
        g_assert_cmphex(core_read_gpr(r.core, 18), ==, 0x400);
        g_assert_cmphex(core_read_gpr(r.core, 19), ==, 0);
        g_assert_cmpuint(core_cycles(r.core), ==, 142);
        g_assert_cmpuint(core_instructions(r.core), ==, 99);
        g_assert_cmpuint(core_interrupts(r.core), ==, 0);
        run_done(&r);
    }
}

/* t_mmio with mmio (0) below load and store (10): lui, lw CYCLE_LO,
 * 10 lw CORE_ID, 10 sw IRQC ENABLE, lw CYCLE_LO, subu, sw EXIT = 25
 * instructions of 1 cycle; exit (1 + mmio) + 20 x (1 + mmio) = 21. With a
 * sample every cycle there are exactly 25 samples: the cycles a block was
 * first charged for its loads and stores were never sampled. */
static void cheap_mmio(Config *c)
{
    c->timing.load = c->timing.store = 10;
    c->timing.mmio = 0;
    c->nperiods = 1;
    c->periods[0] = 1;
}

static void test_mmio_below_load(void)
{
    for (unsigned e = 0; e < 2; e++) {
        Run r;
        run_fixture(&r, "t_mmio", endians[e], cheap_mmio);
        g_assert_cmpint(core_exit_code(r.core), ==, 21);
        g_assert_cmpuint(core_cycles(r.core), ==, 25);
        g_assert_cmpuint(core_instructions(r.core), ==, 25);
        CoreHist h = core_hist(r.core, 0);
        g_assert_cmpuint(h.total, ==, 25);
        g_assert_cmpuint(h.outside + h.idle, ==, 0);
        uint64_t sum = 0;
        for (uint32_t k = 0; k < h.nbins; k++)
            sum += h.bins[k];
        g_assert_cmpuint(sum, ==, 25);
        run_done(&r);
    }
}

/* t_fpu (see its header): every FPU class costs its [timing] key, single
 * and double alike; moves to the FPU cost nothing extra. */
static Timing fpu_timing;
static void set_fpu(Config *c)
{
    c->timing.fpu_add = fpu_timing.fpu_add;
    c->timing.fpu_mul = fpu_timing.fpu_mul;
    c->timing.fpu_div = fpu_timing.fpu_div;
    c->timing.fpu_sqrt = fpu_timing.fpu_sqrt;
}

static void test_fpu_costs(void)
{
    static const Timing ts[] = {
        { .fpu_add = 3, .fpu_mul = 4, .fpu_div = 31, .fpu_sqrt = 31 }, /* defaults */
        { .fpu_add = 0, .fpu_mul = 0, .fpu_div = 0, .fpu_sqrt = 0 },
        { .fpu_add = 1, .fpu_mul = 10, .fpu_div = 100, .fpu_sqrt = 1000 },
    };
    static const int want[] = { 174, 20, 5 + 6 * 2 + 3 * 11 + 2 * 101 + 2 * 1001 + 2 };
    for (unsigned e = 0; e < 2; e++)
        for (unsigned k = 0; k < G_N_ELEMENTS(ts); k++) {
            Run r;
            fpu_timing = ts[k];
            run_fixture(&r, "t_fpu", endians[e], set_fpu);
            g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
            int exit = 5 + 6 * (1 + (int)ts[k].fpu_add) + 3 * (1 + (int)ts[k].fpu_mul)
                       + 2 * (1 + (int)ts[k].fpu_div) + 2 * (1 + (int)ts[k].fpu_sqrt) + 2;
            g_assert_cmpint(exit, ==, want[k]);
            g_assert_cmpint(core_exit_code(r.core), ==, want[k]);
            g_assert_cmpuint(core_instructions(r.core), ==, 26);
            run_done(&r);
        }
}

/* t_likely: lui, li, move, lw CYCLE_LO, 10 beqzl never taken (their
 * delay slots annulled), lw CYCLE_LO, subu, sw EXIT: 17 instructions,
 * 4 x 1 + 10 x 1 + 3 MMIO x 5 = 29 cycles, exit 5 + 10 = 15, $t1 = 0. */
static void test_branch_likely_annulled(void)
{
    for (unsigned e = 0; e < 2; e++) {
        Run r;
        run_fixture(&r, "t_likely", endians[e], NULL);
        g_assert_cmpint(core_exit_code(r.core), ==, 15);
        g_assert_cmpuint(core_cycles(r.core), ==, 29);
        g_assert_cmpuint(core_instructions(r.core), ==, 17);
        g_assert_cmpuint(core_read_gpr(r.core, 9), ==, 0);
        run_done(&r);
    }
}

/* t_likelysplit: the same with the beql at a page end, its annulled slot
 * a block of its own that Unicorn enters: 22 cycles, 22 instructions by
 * hand (the fixture's header), $t1 = 0; before, the slot was charged and
 * counted each time (25 and 25). */
static void test_branch_likely_annulled_split(void)
{
    for (unsigned e = 0; e < 2; e++) {
        Run r;
        run_fixture(&r, "t_likelysplit", endians[e], NULL);
        g_assert_cmpint(core_exit_code(r.core), ==, 22);
        g_assert_cmpuint(core_instructions(r.core), ==, 22);
        g_assert_cmpuint(core_read_gpr(r.core, 9), ==, 0);
        run_done(&r);
    }
}

/* Every [timing] cost on a core without a network: the exit code of each
 * timing fixture is the cycles between its two CYCLE_LO reads, by the
 * formula in the fixture's header (the same as e2e/timing's), with the
 * default costs, with others, and with 1000 (the top of the range). */
typedef struct TimingCase {
    const char *fixture;
    int64_t (*expect)(const Timing *t);
} TimingCase;

static int64_t rp(const Timing *t) { return 1 + (int64_t)t->mmio; }
static int64_t x_empty(const Timing *t) { return rp(t); }
static int64_t x_alu(const Timing *t) { return rp(t) + 20; }
static int64_t x_load(const Timing *t) { return rp(t) + 10 * (1 + (int64_t)t->load); }
static int64_t x_store(const Timing *t) { return rp(t) + 10 * (1 + (int64_t)t->store); }
static int64_t x_mul(const Timing *t) { return rp(t) + 10 * (1 + (int64_t)t->mul); }
static int64_t x_div(const Timing *t) { return rp(t) + 10 * (1 + (int64_t)t->div); }
static int64_t x_branch(const Timing *t) { return rp(t) + 10 * (2 + (int64_t)t->branch_taken) + 20; }
static int64_t x_jump(const Timing *t) { return rp(t) + 15 * (2 + (int64_t)t->branch_taken); }
static int64_t x_mmio(const Timing *t) { return rp(t) + 20 * (1 + (int64_t)t->mmio); }
static int64_t x_loop(const Timing *t)
{
    return rp(t) + 1 + 25 * (4 + (int64_t)t->load) + 24 * (int64_t)t->branch_taken;
}

static const Timing *timing_now;
static void set_timing(Config *c) { c->timing = *timing_now; }

static void test_timing_costs(void)
{
    static const TimingCase cases[] = {
        { "t_empty", x_empty }, { "t_alu", x_alu }, { "t_load", x_load }, { "t_store", x_store },
        { "t_mul", x_mul }, { "t_div", x_div }, { "t_branch", x_branch }, { "t_jump", x_jump },
        { "t_mmio", x_mmio }, { "t_loop", x_loop },
    };
    static const Timing timings[] = {
        { .load = 1, .store = 0, .mul = 2, .div = 17, .branch_taken = 1, .mmio = 4 },
        { .load = 3, .store = 2, .mul = 5, .div = 40, .branch_taken = 4, .mmio = 9 },
        { .load = 1000, .store = 1000, .mul = 1000, .div = 1000, .branch_taken = 1000, .mmio = 1000 },
        { .load = 0, .store = 0, .mul = 0, .div = 0, .branch_taken = 0, .mmio = 0 },
    };
    for (unsigned e = 0; e < 2; e++)
        for (unsigned t = 0; t < G_N_ELEMENTS(timings); t++)
            for (unsigned k = 0; k < G_N_ELEMENTS(cases); k++) {
                Run r;
                timing_now = &timings[t];
                run_fixture(&r, cases[k].fixture, endians[e], set_timing);
                g_test_message("%s-%s timing %u", cases[k].fixture, endians[e], t);
                g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
                g_assert_cmpint(core_exit_code(r.core), ==, cases[k].expect(&timings[t]));
                run_done(&r);
            }
}

static void console_line(void *opaque, unsigned core, const char *line, size_t len, bool eol)
{
    g_string_append_printf(opaque, "%u:", core);
    g_string_append_len(opaque, line, (gssize)len);
    g_string_append_c(opaque, eol ? '|' : '~');
}

/* t_devices (see the fixture): every SYS, TIMER and IRQC register. */
static void test_device_registers(void)
{
    for (unsigned e = 0; e < 2; e++) {
        Config cfg;
        config_defaults(&cfg);
        cfg.timing.model = TIMING_FLAT; /* hand-computed under flat */
        g_autofree char *path = g_strdup_printf("%s/t_devices-%s.elf", FIXTURES, endians[e]);
        GError *err = NULL;
        ElfImage *img = elf_image_load(path, cfg.ram_size, &err);
        g_assert_no_error(err);
        GString *lines = g_string_new(NULL);
        Core *c = core_new(3, &cfg, img, console_line, lines, &err);
        g_assert_no_error(err);
        core_run(c, UINT64_C(1) << 40);
        g_assert_cmpint(core_state(c), ==, CORE_EXITED);
        g_assert_cmpint(core_exit_code(c), ==, 0);
        static const struct { unsigned reg; uint32_t v; } want[] = {
            { 17, 3 }, { 18, 4 }, { 19, 2 }, { 20, 2 }, { 21, 500 }, { 22, 495 },
            { 23, 7 }, { 24, 0 }, { 25, 0 },
        };
        for (unsigned k = 0; k < G_N_ELEMENTS(want); k++)
            g_assert_cmpuint(core_read_gpr(c, want[k].reg), ==, want[k].v);
        size_t len;
        g_assert_cmpstr(core_console(c, &len), ==, "ok\n");
        g_assert_cmpuint(len, ==, 3);
        g_assert_cmpstr(lines->str, ==, "3:ok|");
        g_string_free(lines, TRUE);
        core_free(c);
        elf_image_free(img);
    }
}

/* core_request_yield while the core does not run (as a scheduler thread
 * may do) ends its next run at the first block boundary, with nothing
 * run; running on gives exactly the figures of an uninterrupted run
 * (t_loop: 25 iterations of a 4-instruction block). */
static void test_request_yield(void)
{
    for (unsigned e = 0; e < 2; e++) {
        Run r;
        run_fixture(&r, "t_loop", endians[e], NULL);
        g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
        uint64_t cycles = core_cycles(r.core), insns = core_instructions(r.core);
        run_done(&r);

        Config cfg;
        config_defaults(&cfg);
        cfg.timing.model = TIMING_FLAT; /* hand-computed under flat */
        g_autofree char *path = g_strdup_printf("%s/t_loop-%s.elf", FIXTURES, endians[e]);
        GError *err = NULL;
        ElfImage *img = elf_image_load(path, cfg.ram_size, &err);
        g_assert_no_error(err);
        Core *c = core_new(0, &cfg, img, NULL, NULL, &err);
        g_assert_no_error(err);
        core_run(c, 40); /* the horizon ends it inside the loop */
        g_assert_cmpint(core_state(c), ==, CORE_RUNNING);
        uint64_t at = core_cycles(c);
        g_assert_cmpuint(at, >, 0);
        core_request_yield(c);
        core_run(c, UINT64_C(1) << 40);
        g_assert_cmpint(core_state(c), ==, CORE_RUNNING);
        g_assert_cmpuint(core_cycles(c), ==, at);
        core_run(c, UINT64_C(1) << 40);
        g_assert_cmpint(core_state(c), ==, CORE_EXITED);
        g_assert_cmpuint(core_cycles(c), ==, cycles);
        g_assert_cmpuint(core_instructions(c), ==, insns);
        core_free(c);
        elf_image_free(img);
    }
}

/* CoreSched.lone: a core without a client stops publishing the start of
 * every block (block_hook_lone); core_set_sched called again with lone
 * false publishes again (block_hook_plain back), a client always does. */
static void test_sched_lone(void)
{
    Config cfg;
    config_defaults(&cfg);
    g_autofree char *path = g_strdup_printf("%s/t_loop-%s.elf", FIXTURES, endians[0]);
    GError *err = NULL;
    ElfImage *img = elf_image_load(path, cfg.ram_size, &err);
    g_assert_no_error(err);
    Core *c = core_new(0, &cfg, img, NULL, NULL, &err);
    g_assert_no_error(err);
    uint64_t pub = 0;
    g_assert_true(core_publishes_clock(c));
    core_set_sched(c, &(CoreSched){ .lb_pub = &pub, .lone = true });
    g_assert_false(core_publishes_clock(c));
    core_set_sched(c, &(CoreSched){ .lb_pub = &pub, .lone = false });
    g_assert_true(core_publishes_clock(c));
    core_set_sched(c, &(CoreSched){ .lb_pub = &pub, .lone = true });
    g_assert_false(core_publishes_clock(c));
    core_run(c, 40); /* the horizon ends it inside the loop */
    g_assert_cmpint(core_state(c), ==, CORE_RUNNING);
    core_set_sched(c, &(CoreSched){ .lb_pub = &pub, .lone = false });
    g_assert_true(core_publishes_clock(c));
    core_run(c, UINT64_C(1) << 40);
    g_assert_cmpint(core_state(c), ==, CORE_EXITED);
    core_free(c);
    elf_image_free(img);
}

/* t_cp0page (see the fixture): an mfc0 Count alone in a page-end delay
 * slot; adding its hook restarts that block without losing the branch. */
static void test_cp0_page_end_delay_slot(void)
{
    for (unsigned e = 0; e < 2; e++) {
        Run r;
        run_fixture(&r, "t_cp0page", endians[e], NULL);
        g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
        g_assert_cmpint(core_exit_code(r.core), ==, 102);
        g_assert_cmpuint(core_cycles(r.core), ==, 13);
        g_assert_cmpuint(core_instructions(r.core), ==, 7);
        run_done(&r);
    }
}

/* Registers are read from the engine's register file directly on the
 * validated Unicorn (emu/gpr.c), and read what uc_reg_read would: the
 * reset state, then what t_div's li instructions left. */
static void test_registers_direct(void)
{
    for (unsigned e = 0; e < 2; e++) {
        Config cfg;
        config_defaults(&cfg);
        g_autofree char *path = g_strdup_printf("%s/t_div-%s.elf", FIXTURES, endians[e]);
        GError *err = NULL;
        ElfImage *img = elf_image_load(path, cfg.ram_size, &err);
        g_assert_no_error(err);
        Core *c = core_new(3, &cfg, img, NULL, NULL, &err);
        g_assert_no_error(err);
        g_assert_true(core_registers_direct(c));
        g_assert_true(core_no_mips16(c)); /* emu/isa.c's experiment held */
        g_assert_cmpuint(core_read_gpr(c, 0), ==, 0);
        g_assert_cmpuint(core_read_gpr(c, 4), ==, 3);              /* $a0 = core id */
        g_assert_cmpuint(core_read_gpr(c, 5), ==, config_cores(&cfg)); /* $a1 */
        g_assert_cmphex(core_read_sp(c), ==, 0x80000000u + (uint32_t)cfg.ram_size - 16);
        g_assert_cmphex(core_read_gpr(c, CORE_GPR_SP), ==, core_read_sp(c));
        for (unsigned r = 1; r < 32; r++)
            if (r != 4 && r != 5 && r != CORE_GPR_SP)
                g_assert_cmphex(core_read_gpr(c, r), ==, 0);
        /* the register file the collector reads $sp from (core_gpr_file) */
        const volatile uint32_t *g = core_gpr_file(c);
        g_assert_nonnull(g);
        for (unsigned r = 0; r < 32; r++)
            g_assert_cmphex(g[r], ==, core_read_gpr(c, r));
        core_free(c);
        elf_image_free(img);
    }
}

/* t_smc_jit: code written 2048 times at one address, 1024 different
 * versions each run twice. Every version is one block, taken back when
 * its words come again (counts 2); the page keeps its protection while
 * code is rewritten there (before: released when the old code was
 * dropped and protected again when the new one ran, 2 changes per
 * rewrite, each a commit of Unicorn's memory map: 4,096 of them). */
static void test_smc_jit(void)
{
    for (unsigned e = 0; e < 2; e++) {
        Run r;
        run_fixture(&r, "t_smc_jit", endians[e], NULL);
        g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
        g_assert_cmpint(core_exit_code(r.core), ==, 1047552);
        unsigned versions = 0;
        for (unsigned i = 0; i < core_nblocks(r.core); i++) {
            const Block *b = core_block(r.core, i);
            if (block_addr(b) != 0x80080000u)
                continue;
            versions++;
            g_assert_cmpuint(block_count(b), ==, 2);
            g_assert_cmpuint(block_ninsns(b), ==, 3);
        }
        g_assert_cmpuint(versions, ==, 1024);
        g_assert_cmpuint(core_smc_protects(r.core), <=, 4);
        run_done(&r);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/core/div-costs", test_div_costs);
    g_test_add_func("/core/sched-lone", test_sched_lone);
    g_test_add_func("/core/block-instructions", test_block_instructions);
    g_test_add_func("/core/faults", test_faults);
    g_test_add_func("/core/lookup-past-ram", test_lookup_past_ram);
    g_test_add_func("/core/mmio_exact_access", test_mmio_exact_access);
    g_test_add_func("/core/timer-interrupts", test_timer_interrupts);
    g_test_add_func("/core/cp0-count-compare-cause", test_cp0_count_compare_cause);
    g_test_add_func("/core/cp0-cause-ip2", test_cp0_cause_ip2);
    g_test_add_func("/core/fpu-costs", test_fpu_costs);
    g_test_add_func("/core/cp0-page-end-delay-slot", test_cp0_page_end_delay_slot);
    g_test_add_func("/core/mmio-below-load", test_mmio_below_load);
    g_test_add_func("/core/branch-likely-annulled", test_branch_likely_annulled);
    g_test_add_func("/core/branch-likely-annulled-split", test_branch_likely_annulled_split);
    g_test_add_func("/core/device-registers", test_device_registers);
    g_test_add_func("/core/timing-costs", test_timing_costs);
    g_test_add_func("/core/request-yield", test_request_yield);
    g_test_add_func("/core/registers-direct", test_registers_direct);
    g_test_add_func("/core/smc-jit", test_smc_jit);
    return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* test-machine.c — the scheduler over cores and the network: every core
 * runs to its own end, a machine where nothing can wake any idle core
 * ends in a deadlock, and cores moving between threads ([sched] adapt)
 * give the one-thread results. */
#include <glib.h>

#include "emu/machine.h"

/* A machine running the ELF at dir/name on every core of cfg's mesh (the
 * default 2 x 2); *img must be freed after the machine. */
static Machine *machine_of(const Config *cfg, const char *dir, const char *name, ElfImage **img)
{
    GError *err = NULL;
    g_autofree char *path = g_strdup_printf("%s/%s", dir, name);
    *img = elf_image_load(path, cfg->ram_size, &err);
    g_assert_no_error(err);
    ElfImage *imgs[4] = { *img, *img, *img, *img };
    Machine *m = machine_new(cfg, imgs, NULL, NULL, &err);
    g_assert_no_error(err);
    return m;
}

static void test_all_cores_exit(void)
{
    /* t_div on each of the 4 cores of the default 2 x 2 mesh: 29 + 10 x
     * div (17) = 199 cycles, 17 instructions each (see test-core.c); on
     * one and on two host threads. What the cores published for the
     * progress line at the end: those cycles and 4 x 17 instructions. */
    for (unsigned threads = 1; threads <= 2; threads++) {
        Config cfg;
        config_defaults(&cfg);
        cfg.timing.model = TIMING_FLAT; /* hand-computed under flat */
        cfg.threads = threads;
        ElfImage *img;
        Machine *m = machine_of(&cfg, FIXTURES, "t_div-el.elf", &img);
        g_assert_cmpuint(m->ncores, ==, 4);
        uint64_t lo, hi, insns = 0;
        for (unsigned i = 0; i < 4; i++)
            insns += core_instructions_published(m->cores[i]);
        g_assert_cmpuint(insns, ==, 0);
        machine_run(m, NULL);
        g_assert_cmpuint(m->nthreads, ==, threads);
        g_assert_false(m->deadlock);
        for (unsigned i = 0; i < 4; i++) {
            g_assert_cmpint(core_state(m->cores[i]), ==, CORE_EXITED);
            g_assert_cmpint(core_exit_code(m->cores[i]), ==, 5 + 10 * 18);
            g_assert_cmpuint(core_cycles(m->cores[i]), ==, 199);
            g_assert_cmpuint(core_instructions(m->cores[i]), ==, 17);
        }
        machine_progress(m, &lo, &hi);
        for (unsigned i = 0; i < 4; i++)
            insns += core_instructions_published(m->cores[i]);
        g_assert_cmpuint(lo, ==, 199);
        g_assert_cmpuint(hi, ==, 199);
        g_assert_cmpuint(insns, ==, 4 * 17);
        machine_free(m);
        elf_image_free(img);
    }
}

static void test_deadlock(void)
{
    /* firmware/tests/deadlock.c: every core disables its interrupts and
     * waits forever */
    Config cfg;
    config_defaults(&cfg);
    cfg.timing.model = TIMING_FLAT; /* hand-computed under flat */
    ElfImage *img;
    Machine *m = machine_of(&cfg, FIRMWARE, "deadlock-eb.elf", &img);
    machine_run(m, NULL);
    g_assert_true(m->deadlock);
    for (unsigned i = 0; i < 4; i++) {
        g_assert_cmpint(core_state(m->cores[i]), ==, CORE_DEADLOCK);
        g_assert_cmpuint(core_waits(m->cores[i]), ==, 1);
        /* halted in wait: the final count is published too */
        g_assert_cmpuint(core_instructions_published(m->cores[i]), ==, core_instructions(m->cores[i]));
        g_assert_cmpuint(core_instructions(m->cores[i]), >, 0);
    }
    machine_free(m);
    elf_image_free(img);
}

/* One run of firmware/apps alltoall on the 2 x 2 mesh: each core's
 * cycles, instructions and exit code, and the run's thread switches. */
/* A clock that advances one second at every reading: every adapt trial
 * and keep ends at the next reading, whatever the host's speed, so the
 * switches do not depend on host timing (a switch at least every second
 * reading, one reading per four resumptions). */
static uint64_t fake_ns;

static uint64_t fake_clock(void)
{
    return __atomic_add_fetch(&fake_ns, UINT64_C(1000000000), __ATOMIC_RELAXED);
}

static void run_alltoall(unsigned threads, unsigned adapt, uint64_t out[4][3], unsigned *switches)
{
    Config cfg;
    config_defaults(&cfg);
    cfg.timing.model = TIMING_FLAT; /* hand-computed under flat */
    cfg.threads = threads;
    cfg.adapt = adapt;
    ElfImage *img;
    Machine *m = machine_of(&cfg, FIRMWARE, "alltoall-el.elf", &img);
    m->adapt_trial_ns = 50 * 1000; /* 0.05 ms trials: many switches */
    m->adapt_clock = fake_clock;
    machine_run(m, NULL);
    g_assert_false(m->deadlock);
    for (unsigned i = 0; i < 4; i++) {
        out[i][0] = core_cycles(m->cores[i]);
        out[i][1] = core_instructions(m->cores[i]);
        out[i][2] = (uint64_t)core_exit_code(m->cores[i]);
        g_assert_cmpint(core_state(m->cores[i]), ==, CORE_EXITED);
    }
    *switches = m->adapt_switches;
    machine_free(m);
    elf_image_free(img);
}

static void test_adapt(void)
{
    /* [sched] adapt moves cores between the threads that run them, from
     * all threads to one and back: the all-to-all exchange (every core
     * syncs every few cycles) gives the same cycles, instructions and exit
     * codes as on one thread; without adapt the count never changes */
    uint64_t one[4][3], two[4][3];
    unsigned sw;
    run_alltoall(1, 1, one, &sw);
    g_assert_cmpuint(sw, ==, 0);
    run_alltoall(2, 0, two, &sw);
    g_assert_cmpuint(sw, ==, 0);
    g_assert_cmpmem(one, sizeof one, two, sizeof two);
    run_alltoall(2, 1, two, &sw);
    g_test_message("%u switches", sw);
    g_assert_cmpuint(sw, >=, 2);
    g_assert_cmpmem(one, sizeof one, two, sizeof two);
    g_assert_cmpuint(one[0][2], ==, 0);
}

/* A run shorter than adapt's first trial runs on one thread only: it
 * starts there (a second thread's hand-offs cost a short run more than it
 * gains); a long one still gets both (test_adapt). Same figures. */
static void test_adapt_short_run(void)
{
    uint64_t one[4][3];
    unsigned sw;
    run_alltoall(1, 1, one, &sw);
    Config cfg;
    config_defaults(&cfg);
    cfg.timing.model = TIMING_FLAT;
    cfg.threads = 2;
    cfg.adapt = 1;
    ElfImage *img;
    Machine *m = machine_of(&cfg, FIRMWARE, "alltoall-el.elf", &img);
    m->adapt_trial_ns = UINT64_C(3600) * 1000000000u; /* an hour: the run is shorter */
    machine_run(m, NULL);
    g_assert_cmpuint(m->nthreads, ==, 2);
    g_assert_cmpuint(m->adapt_max_active, ==, 1);
    g_assert_cmpuint(m->adapt_switches, ==, 0);
    for (unsigned i = 0; i < 4; i++) {
        g_assert_cmpuint(core_cycles(m->cores[i]), ==, one[i][0]);
        g_assert_cmpuint(core_instructions(m->cores[i]), ==, one[i][1]);
    }
    machine_free(m);
    elf_image_free(img);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/machine/all-cores-exit", test_all_cores_exit);
    g_test_add_func("/machine/deadlock", test_deadlock);
    g_test_add_func("/machine/adapt", test_adapt);
    g_test_add_func("/machine/adapt-short-run", test_adapt_short_run);
    return g_test_run();
}

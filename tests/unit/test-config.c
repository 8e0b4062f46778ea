// SPDX-License-Identifier: GPL-2.0-or-later
/* test-config.c — unit tests of the platform configuration (emu/config.h):
 * built-in defaults against configs/default.ini, file loading, --set, and
 * the error messages (file, group and key named). */
#include "platform/config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#ifndef DEFAULT_INI
#error "DEFAULT_INI must name configs/default.ini"
#endif

/* Every key of the table, in order. */
static unsigned count_keys(void)
{
    unsigned n = 0;
    const char *g, *k;
    while (config_key(n, &g, &k))
        n++;
    return n;
}

/* SPEC 5 lists these keys; the table must have exactly them. */
static const char *const spec_keys[] = {
    "mesh.width", "mesh.height", "memory.ram_size", "clock.hz", "clock.count_divisor",
    "timing.model", "timing.load", "timing.store", "timing.mul", "timing.div", "timing.branch_taken", "timing.mmio",
    "timing.fpu_add", "timing.fpu_mul", "timing.fpu_div", "timing.fpu_sqrt",
    /* [cache] enabled, geometry and miss penalty (docs/timing.md "The L1 caches") */
    "cache.enabled", "cache.line", "cache.icache_size", "cache.icache_ways", "cache.dcache_size",
    "cache.dcache_ways", "cache.miss_penalty", "cache.writeback_penalty",
    "cache.d_model",
    "noc.router_latency", "noc.link_latency", "noc.buffer_depth", "noc.max_payload",
    "noc.tx_queue_flits", "noc.rx_queue_flits", "sched.quantum", "sched.threads",
    "run.max_cycles", "run.livelock_cycles",
    "profiler.sample_period",
    /* nocprof's resource limits (README "Configuration", docs/robustness.md) */
    "limits.functions", "limits.blocks", "limits.contexts", "limits.folded_bytes",
    /* nocprof's adaptive thread count (README "Host threads") */
    "sched.adapt",
    /* the literal reference schedule, a testing knob (docs/design.md) */
    "sched.reference",
};

static void test_key_table_is_spec(void)
{
    g_assert_cmpuint(count_keys(), ==, G_N_ELEMENTS(spec_keys));
    for (gsize i = 0; i < G_N_ELEMENTS(spec_keys); i++) {
        bool found = false;
        const char *g, *k;
        for (unsigned j = 0; config_key(j, &g, &k); j++) {
            g_autofree char *name = g_strdup_printf("%s.%s", g, k);
            if (strcmp(name, spec_keys[i]) == 0)
                found = true;
        }
        if (!found)
            g_error("SPEC 5 key %s missing from config_key()", spec_keys[i]);
    }
}

/* The built-in defaults equal configs/default.ini, read independently
 * with GKeyFile: the file has every key and the same value. */
static void test_defaults_equal_default_ini(void)
{
    Config def;
    config_defaults(&def);
    g_autoptr(GKeyFile) kf = g_key_file_new();
    GError *err = NULL;
    g_assert_true(g_key_file_load_from_file(kf, DEFAULT_INI, G_KEY_FILE_NONE, &err));
    g_assert_no_error(err);

    const char *g, *k;
    unsigned n = 0;
    for (unsigned i = 0; config_key(i, &g, &k); i++, n++) {
        g_autofree char *in_file = g_key_file_get_value(kf, g, k, NULL);
        if (!in_file)
            g_error("%s has no [%s] %s", DEFAULT_INI, g, k);
        g_strstrip(in_file);
        g_autofree char *builtin = config_value_string(&def, g, k);
        if (strcmp(in_file, builtin) != 0)
            g_error("[%s] %s: built-in default %s, %s says %s", g, k, builtin, DEFAULT_INI, in_file);
    }
    /* and the file has no key that the table does not know */
    gsize ngroups;
    g_auto(GStrv) groups = g_key_file_get_groups(kf, &ngroups);
    unsigned file_keys = 0;
    for (gsize i = 0; i < ngroups; i++) {
        gsize nk;
        g_auto(GStrv) keys = g_key_file_get_keys(kf, groups[i], &nk, NULL);
        file_keys += (unsigned)nk;
    }
    g_assert_cmpuint(file_keys, ==, n);

    /* loading the file over the defaults changes nothing */
    Config loaded;
    config_defaults(&loaded);
    g_assert_true(config_load_file(&loaded, DEFAULT_INI, &err));
    g_assert_no_error(err);
    for (unsigned i = 0; config_key(i, &g, &k); i++) {
        g_autofree char *a = config_value_string(&def, g, k);
        g_autofree char *b = config_value_string(&loaded, g, k);
        g_assert_cmpstr(a, ==, b);
    }
    g_assert_true(config_validate(&loaded, "test", &err));
    g_assert_no_error(err);
    g_assert_cmpuint(config_cores(&def), ==, 4);
    /* a few values spelled out (SPEC 1 and configs/default.ini) */
    g_assert_cmpuint(def.timing.load, ==, 1);
    g_assert_cmpuint(def.timing.store, ==, 0);
    g_assert_cmpuint(def.timing.mul, ==, 2);
    g_assert_cmpuint(def.timing.div, ==, 17);
    g_assert_cmpuint(def.timing.branch_taken, ==, 1);
    g_assert_cmpuint(def.timing.mmio, ==, 4);
    g_assert_cmpuint(def.timing.fpu_add, ==, 3);
    g_assert_cmpuint(def.timing.fpu_mul, ==, 4);
    g_assert_cmpuint(def.timing.fpu_div, ==, 31);
    g_assert_cmpuint(def.timing.fpu_sqrt, ==, 31);
    g_assert_cmpuint(def.count_divisor, ==, 2);
    g_assert_cmpuint(def.ram_size, ==, 1u << 20);
    g_assert_cmpuint(def.max_cycles, ==, G_GUINT64_CONSTANT(10000000000));
    g_assert_cmpuint(def.max_payload, ==, 16);
}

static void test_mesh4x4(void)
{
    Config c;
    GError *err = NULL;
    config_defaults(&c);
    g_assert_true(config_load_file(&c, MESH4X4_INI, &err));
    g_assert_no_error(err);
    g_assert_true(config_validate(&c, "test", &err));
    g_assert_cmpuint(c.mesh_width, ==, 4);
    g_assert_cmpuint(c.mesh_height, ==, 4);
    g_assert_cmpuint(config_cores(&c), ==, 16);
    Config def;
    config_defaults(&def);
    const char *g, *k;
    for (unsigned i = 0; config_key(i, &g, &k); i++) {
        if (strcmp(g, "mesh") == 0)
            continue;
        g_autofree char *a = config_value_string(&def, g, k);
        g_autofree char *b = config_value_string(&c, g, k);
        g_assert_cmpstr(a, ==, b);
    }
}

/* Writes text to a temporary INI file; returns its path. */
static char *write_ini(const char *text)
{
    GError *err = NULL;
    char *path = NULL;
    int fd = g_file_open_tmp("test-config-XXXXXX.ini", &path, &err);
    g_assert_no_error(err);
    close(fd);
    g_assert_true(g_file_set_contents(path, text, -1, &err));
    g_assert_no_error(err);
    return path;
}

/* Loading `text` fails and the message contains every needle (the path is
 * always a needle). Returns nothing; the config must be usable after. */
static void expect_file_error(const char *text, const char *const *needles)
{
    g_autofree char *path = write_ini(text);
    Config c;
    config_defaults(&c);
    GError *err = NULL;
    gboolean ok = config_load_file(&c, path, &err);
    if (ok)
        g_error("loading \"%s\" succeeded", text);
    g_assert_nonnull(err);
    g_assert_true(err->domain == NOCPROF_ERROR);
    if (!strstr(err->message, path))
        g_error("message \"%s\" does not name the file %s", err->message, path);
    for (const char *const *n = needles; *n; n++)
        if (!strstr(err->message, *n))
            g_error("message \"%s\" (for \"%s\") does not mention \"%s\"", err->message, text, *n);
    g_error_free(err);
    g_unlink(path);
}

static void test_file_errors(void)
{
    expect_file_error("[bogus]\nwidth = 2\n", (const char *const[]){ "bogus", NULL });
    expect_file_error("[mesh]\nwidth = 2\ndepth = 3\n", (const char *const[]){ "mesh", "depth", NULL });
    expect_file_error("[timing]\nload = fast\n", (const char *const[]){ "timing", "load", "fast", NULL });
    expect_file_error("[timing]\nload = -1\n", (const char *const[]){ "timing", "load", NULL });
    expect_file_error("[timing]\nmul = 3x\n", (const char *const[]){ "timing", "mul", NULL });
    /* Count must advance: a divisor of 0 is rejected */
    expect_file_error("[clock]\ncount_divisor = 0\n", (const char *const[]){ "clock", "count_divisor", NULL });
    expect_file_error("[mesh]\nwidth = 0\n", (const char *const[]){ "mesh", "width", NULL });
    expect_file_error("[noc]\nbuffer_depth =\n", (const char *const[]){ "noc", "buffer_depth", NULL });
    expect_file_error("[run]\nmax_cycles = 99999999999999999999999\n",
                      (const char *const[]){ "run", "max_cycles", NULL });
    expect_file_error("[profiler]\nsample_period = 1000,abc\n",
                      (const char *const[]){ "profiler", "sample_period", NULL });
    expect_file_error("[profiler]\nsample_period = 0\n", (const char *const[]){ "profiler", "sample_period", NULL });
    /* not an INI file at all */
    expect_file_error("this is not\x01 an ini file\n", (const char *const[]){ NULL });
}

static void test_file_missing(void)
{
    Config c;
    config_defaults(&c);
    GError *err = NULL;
    g_assert_false(config_load_file(&c, "/nonexistent/nocprof.ini", &err));
    g_assert_nonnull(err);
    g_assert_nonnull(strstr(err->message, "/nonexistent/nocprof.ini"));
    g_error_free(err);
}

static void test_file_overrides(void)
{
    g_autofree char *path = write_ini("# comment\n[timing]\ndiv = 40\n[noc]\nmax_payload = 8\n"
                                      "[profiler]\nsample_period = 1000, 997\n");
    Config c;
    config_defaults(&c);
    GError *err = NULL;
    g_assert_true(config_load_file(&c, path, &err));
    g_assert_no_error(err);
    g_assert_cmpuint(c.timing.div, ==, 40);
    g_assert_cmpuint(c.max_payload, ==, 8);
    g_assert_cmpuint(c.nperiods, ==, 2);
    g_assert_cmpuint(c.periods[0], ==, 1000);
    g_assert_cmpuint(c.periods[1], ==, 997);
    g_autofree char *p = config_value_string(&c, "profiler", "sample_period");
    g_assert_cmpstr(p, ==, "1000,997");
    /* untouched keys keep their defaults */
    g_assert_cmpuint(c.timing.mul, ==, 2);
    g_assert_cmpuint(c.mesh_width, ==, 2);
    g_unlink(path);
}

/* [timing] model: 24k (the default) or flat, by name; anything else is an
 * error naming the key */
static void test_timing_model(void)
{
    Config c;
    config_defaults(&c);
    g_assert_cmpuint(c.timing.model, ==, TIMING_24K);
    GError *err = NULL;
    g_assert_true(config_set(&c, "timing.model=flat", &err));
    g_assert_no_error(err);
    g_assert_cmpuint(c.timing.model, ==, TIMING_FLAT);
    g_autofree char *v = config_value_string(&c, "timing", "model");
    g_assert_cmpstr(v, ==, "flat");
    g_assert_true(config_set(&c, "timing.model=24K", &err));
    g_assert_cmpuint(c.timing.model, ==, TIMING_24K);
    g_assert_false(config_set(&c, "timing.model=74k", &err));
    g_assert_nonnull(strstr(err->message, "[timing] model"));
    g_assert_nonnull(strstr(err->message, "74k"));
    g_clear_error(&err);
}

static void test_set(void)
{
    Config c;
    config_defaults(&c);
    GError *err = NULL;
    g_assert_true(config_set(&c, "timing.load=3", &err));
    g_assert_no_error(err);
    g_assert_cmpuint(c.timing.load, ==, 3);
    g_assert_true(config_set(&c, "mesh.width=4", &err));
    g_assert_true(config_set(&c, "mesh.height=3", &err));
    g_assert_cmpuint(config_cores(&c), ==, 12);
    g_assert_true(config_set(&c, "run.max_cycles=123456789012", &err));
    g_assert_cmpuint(c.max_cycles, ==, G_GUINT64_CONSTANT(123456789012));
    g_autofree char *mc = config_value_string(&c, "run", "max_cycles");
    g_assert_cmpstr(mc, ==, "123456789012");
    g_assert_true(config_set(&c, "profiler.sample_period=1000,997,10007", &err));
    g_assert_cmpuint(c.nperiods, ==, 3);
    g_assert_cmpuint(c.periods[2], ==, 10007);
    g_assert_true(config_set(&c, "memory.ram_size=65536", &err));
    g_assert_cmpuint(c.ram_size, ==, 65536);
    g_assert_true(config_validate(&c, "test", &err));
    g_assert_no_error(err);
    /* the last assignment wins */
    g_assert_true(config_set(&c, "timing.load=0", &err));
    g_assert_cmpuint(c.timing.load, ==, 0);
}

static void expect_set_error(const char *assignment, const char *const *needles)
{
    Config c;
    config_defaults(&c);
    Config before = c;
    GError *err = NULL;
    if (config_set(&c, assignment, &err))
        g_error("--set %s succeeded", assignment);
    g_assert_nonnull(err);
    g_assert_true(err->domain == NOCPROF_ERROR);
    for (const char *const *n = needles; *n; n++)
        if (!strstr(err->message, *n))
            g_error("message \"%s\" (for --set %s) does not mention \"%s\"", err->message, assignment, *n);
    g_error_free(err);
    /* a failed --set leaves the configuration as it was */
    g_assert_true(memcmp(&before, &c, sizeof c) == 0);
}

static void test_set_errors(void)
{
    expect_set_error("timing.bogus=1", (const char *const[]){ "timing.bogus", NULL });
    expect_set_error("bogus.load=1", (const char *const[]){ "bogus", NULL });
    expect_set_error("timing.load", (const char *const[]){ "timing.load", NULL });
    expect_set_error("timingload=1", (const char *const[]){ NULL });
    expect_set_error("timing.load=", (const char *const[]){ "timing", "load", NULL });
    expect_set_error("timing.load=abc", (const char *const[]){ "timing", "load", "abc", NULL });
    expect_set_error("timing.load=-2", (const char *const[]){ "timing", "load", NULL });
    expect_set_error("mesh.width=0", (const char *const[]){ "mesh", "width", NULL });
    expect_set_error("profiler.sample_period=", (const char *const[]){ "sample_period", NULL });
    expect_set_error("profiler.sample_period=0", (const char *const[]){ "sample_period", NULL });
    expect_set_error("profiler.sample_period=5000000000", (const char *const[]){ "sample_period", NULL });
}

static void test_periods(void)
{
    Config c;
    config_defaults(&c);
    GError *err = NULL;
    g_assert_cmpuint(c.nperiods, ==, 1);
    g_assert_cmpuint(c.periods[0], ==, 10007);
    g_assert_true(config_set_periods(&c, "1000,1000,997", "--sample-period", &err));
    g_assert_cmpuint(c.nperiods, ==, 2); /* duplicates dropped */
    g_assert_true(config_add_period(&c, 997, &err));
    g_assert_cmpuint(c.nperiods, ==, 2);
    g_assert_true(config_add_period(&c, 5003, &err));
    g_assert_cmpuint(c.nperiods, ==, 3);
    g_assert_cmpuint(c.periods[2], ==, 5003);
    /* a bad list leaves the periods as they were */
    g_assert_false(config_set_periods(&c, "100,x", "--sample-period", &err));
    g_assert_nonnull(err);
    g_assert_nonnull(strstr(err->message, "--sample-period"));
    g_clear_error(&err);
    g_assert_cmpuint(c.nperiods, ==, 3);
    /* at most CONFIG_MAX_PERIODS */
    for (uint32_t p = 1; p <= CONFIG_MAX_PERIODS; p++)
        if (!config_add_period(&c, 100000 + p, &err))
            break;
    g_assert_cmpuint(c.nperiods, ==, CONFIG_MAX_PERIODS);
    g_assert_nonnull(err);
    g_clear_error(&err);
}

static void expect_invalid(void (*change)(Config *), const char *group, const char *key)
{
    Config c;
    config_defaults(&c);
    change(&c);
    GError *err = NULL;
    if (config_validate(&c, "test", &err))
        g_error("config_validate accepted an impossible [%s] %s", group, key);
    g_assert_nonnull(err);
    if (!strstr(err->message, group) || !strstr(err->message, key))
        g_error("message \"%s\" does not name [%s] %s", err->message, group, key);
    g_error_free(err);
}

static void tx_too_small(Config *c) { c->tx_queue_flits = c->max_payload; }
static void rx_too_small(Config *c) { c->max_payload = 64; c->tx_queue_flits = 100; c->rx_queue_flits = 40; }
static void ram_unaligned(Config *c) { c->ram_size = 65536 + 100; }

static void test_validate(void)
{
    expect_invalid(tx_too_small, "noc", "tx_queue_flits");
    expect_invalid(rx_too_small, "noc", "rx_queue_flits");
    expect_invalid(ram_unaligned, "memory", "ram_size");
    /* the smallest legal queues: max_payload + 1 head flit */
    Config c;
    config_defaults(&c);
    c.tx_queue_flits = c.rx_queue_flits = c.max_payload + 1;
    GError *err = NULL;
    g_assert_true(config_validate(&c, "test", &err));
    g_assert_no_error(err);
}

/* Impossible combinations given through --set are caught by validate with
 * group and key named. */
static void test_set_then_validate(void)
{
    Config c;
    config_defaults(&c);
    GError *err = NULL;
    g_assert_true(config_set(&c, "noc.max_payload=40", &err));
    g_assert_false(config_validate(&c, "test", &err));
    g_assert_nonnull(err);
    g_assert_nonnull(strstr(err->message, "noc"));
    g_assert_nonnull(strstr(err->message, "queue_flits"));
    g_error_free(err);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/config/key-table-is-spec", test_key_table_is_spec);
    g_test_add_func("/config/defaults-equal-default-ini", test_defaults_equal_default_ini);
    g_test_add_func("/config/mesh4x4", test_mesh4x4);
    g_test_add_func("/config/timing-model", test_timing_model);
    g_test_add_func("/config/file-errors", test_file_errors);
    g_test_add_func("/config/file-missing", test_file_missing);
    g_test_add_func("/config/file-overrides", test_file_overrides);
    g_test_add_func("/config/set", test_set);
    g_test_add_func("/config/set-errors", test_set_errors);
    g_test_add_func("/config/periods", test_periods);
    g_test_add_func("/config/validate", test_validate);
    g_test_add_func("/config/set-then-validate", test_set_then_validate);
    return g_test_run();
}

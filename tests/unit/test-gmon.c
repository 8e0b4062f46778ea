// SPDX-License-Identifier: GPL-2.0-or-later
/* test-gmon.c — profiler/gmon.c: byte layout, and the real gprof
 * (mipsel-linux-gnu-gprof, mips-linux-gnu-gprof) reading what we write. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "profiler/formats/gmon.h"
#include "tests/fixtures/profiler/fixture-profile.h"

#ifdef FIXTURE_EL
static const char *fixture_el = FIXTURE_EL, *fixture_eb = FIXTURE_EB;
#else
static const char *fixture_el = NULL, *fixture_eb = NULL;
#endif
#ifdef GPROF_EL
static const char *gprof_el = GPROF_EL;
#else
static const char *gprof_el = NULL;
#endif
#ifdef GPROF_EB
static const char *gprof_eb = GPROF_EB;
#else
static const char *gprof_eb = NULL;
#endif

typedef struct Fx {
    Symbols *syms;
    Profile *prof;
    char *dir;
} Fx;

static bool fx_open(Fx *fx, const char *elf)
{
    memset(fx, 0, sizeof *fx);
    if (!fx_load(elf, &fx->syms, &fx->prof))
        return false;
    GError *err = NULL;
    fx->dir = g_dir_make_tmp("nocprof-gmon-XXXXXX", &err);
    g_assert_no_error(err);
    return true;
}

static void fx_close(Fx *fx)
{
    if (fx->dir) {
        GDir *d = g_dir_open(fx->dir, 0, NULL);
        const char *n;
        while (d && (n = g_dir_read_name(d))) {
            char *f = g_build_filename(fx->dir, n, NULL);
            g_unlink(f);
            g_free(f);
        }
        if (d)
            g_dir_close(d);
        g_rmdir(fx->dir);
        g_free(fx->dir);
    }
    profile_free(fx->prof);
    symbols_free(fx->syms);
}

static char *write_gmon_flags(Fx *fx, const char *name, unsigned hist, GmonFlags flags)
{
    GError *err = NULL;
    GByteArray *g = gmon_build_flags(fx->prof, hist, flags, &err);
    g_assert_no_error(err);
    char *path = g_build_filename(fx->dir, name, NULL);
    g_file_set_contents(path, (const char *)g->data, g->len, &err);
    g_assert_no_error(err);
    g_byte_array_unref(g);
    return path;
}

static char *write_gmon(Fx *fx, const char *name, unsigned hist)
{
    return write_gmon_flags(fx, name, hist, GMON_DEFAULT);
}

/* Run gprof in fx->dir; returns stdout, asserts exit status 0 and no
 * complaint on stderr except the basic-block notice when not using -l. */
static char *run_gprof(Fx *fx, const char *gprof, const char *const *args)
{
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (char *)gprof);
    for (; *args; args++)
        g_ptr_array_add(argv, (char *)*args);
    g_ptr_array_add(argv, NULL);
    char *out = NULL, *errout = NULL;
    int status = 0;
    GError *err = NULL;
    g_spawn_sync(fx->dir, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                 &errout, &status, &err);
    g_assert_no_error(err);
    if (g_test_verbose())
        g_printerr("%s%s", out, errout);
    if (!g_spawn_check_wait_status(status, NULL))
        g_error("gprof failed: %s", errout);
    /* gprof without -l notes that it ignores block counts; anything else
     * on stderr means it did not like the file */
    char **lines = g_strsplit(errout, "\n", -1);
    for (char **l = lines; *l; l++)
        if (**l && !strstr(*l, "ignoring basic-block exec counts"))
            g_error("gprof complained: %s", *l);
    g_strfreev(lines);
    g_free(errout);
    g_ptr_array_free(argv, TRUE);
    return out;
}

/* Flat profile rows of gprof -p: name -> calls (-1 when blank) and self
 * seconds. */
typedef struct Row {
    double self_s;
    long long calls;
} Row;

static GHashTable *parse_flat(const char *out)
{
    GHashTable *rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    GRegex *re = g_regex_new("^\\s*(\\d+\\.\\d+)\\s+(\\d+\\.\\d+)\\s+(\\d+\\.\\d+)\\s+"
                             "(?:(\\d+)\\s+\\S+\\s+\\S+\\s+)?(\\S+)",
                             G_REGEX_MULTILINE, 0, NULL);
    const char *flat = out, *graph = strstr(out, "Call graph");
    char *part = graph ? g_strndup(flat, graph - flat) : g_strdup(flat);
    GMatchInfo *mi;
    g_regex_match(re, part, 0, &mi);
    while (g_match_info_matches(mi)) {
        char *calls = g_match_info_fetch(mi, 4), *self = g_match_info_fetch(mi, 3);
        Row *r = g_new0(Row, 1);
        r->self_s = g_ascii_strtod(self, NULL);
        r->calls = calls && *calls ? g_ascii_strtoll(calls, NULL, 10) : -1;
        g_hash_table_insert(rows, g_match_info_fetch(mi, 5), r);
        g_free(calls);
        g_free(self);
        g_match_info_next(mi, NULL);
    }
    g_match_info_free(mi);
    g_regex_unref(re);
    g_free(part);
    return rows;
}

/* The "called" column of the primary line of name in gprof -q output. */
static char *graph_called(const char *out, const char *name)
{
    char *pat = g_strdup_printf("^\\[\\d+\\]\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+\\s+(\\S+)\\s+%s\\b",
                                name);
    GRegex *re = g_regex_new(pat, G_REGEX_MULTILINE, 0, NULL);
    GMatchInfo *mi;
    char *called = NULL;
    if (g_regex_match(re, out, 0, &mi))
        called = g_match_info_fetch(mi, 1);
    g_match_info_free(mi);
    g_regex_unref(re);
    g_free(pat);
    return called;
}

/* ---- an independent reader of what gmon_build wrote ------------------- */

typedef struct Rd {
    const guint8 *p, *end;
    bool big;
} Rd;

static uint32_t rd32(Rd *r, bool big)
{
    g_assert_cmpint(r->end - r->p, >=, 4);
    const guint8 *b = r->p;
    r->p += 4;
    return big ? (uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
               : (uint32_t)b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0];
}

static uint16_t rd16(Rd *r)
{
    g_assert_cmpint(r->end - r->p, >=, 2);
    const guint8 *b = r->p;
    r->p += 2;
    return r->big ? (uint16_t)(b[0] << 8 | b[1]) : (uint16_t)(b[1] << 8 | b[0]);
}

typedef struct Parsed {
    unsigned nhist, narcs, nbbrec;
    uint32_t low, high, nbins, rate;
    uint64_t hist_sum, bb_pairs, arc_count_sum;
    bool handler_arc;
} Parsed;

static Parsed parse(const GByteArray *g, bool big, uint32_t handler_addr)
{
    Parsed x = { 0 };
    Rd r = { g->data, g->data + g->len, big };
    g_assert_cmpint(g->len, >=, 20);
    g_assert_cmpmem(g->data, 4, "gmon", 4);
    r.p += 4;
    g_assert_cmpuint(rd32(&r, big), ==, 1);
    for (int i = 0; i < 12; i++)
        g_assert_cmpuint(r.p[i], ==, 0);
    r.p += 12;
    while (r.p < r.end) {
        guint8 tag = *r.p++;
        if (tag == 0) {
            x.nhist++;
            x.low = rd32(&r, big);
            x.high = rd32(&r, big);
            x.nbins = rd32(&r, big);
            x.rate = rd32(&r, big);
            g_assert_cmpstr((const char *)r.p, ==, "seconds");
            for (int i = 7; i < 15; i++)
                g_assert_cmpuint(r.p[i], ==, 0);
            r.p += 15;
            g_assert_cmpuint(*r.p++, ==, 's');
            g_assert_cmpuint(x.nbins, ==, (x.high - x.low) / 4);
            for (uint32_t i = 0; i < x.nbins; i++)
                x.hist_sum += rd16(&r);
        } else if (tag == 1) {
            x.narcs++;
            rd32(&r, big);
            if (rd32(&r, big) == handler_addr)
                x.handler_arc = true;
            x.arc_count_sum += rd32(&r, big);
        } else if (tag == 2) {
            x.nbbrec++;
            uint32_t n = rd32(&r, false);   /* binutils 2.40 quirk: always LE */
            for (uint32_t i = 0; i < n; i++) {
                rd32(&r, big);
                rd32(&r, big);
            }
            x.bb_pairs += n;
        } else {
            g_error("bad tag %u", tag);
        }
    }
    return x;
}

static void check_layout(const char *elf, bool big)
{
    Fx fx;
    if (!fx_open(&fx, elf))
        return;
    GError *err = NULL;
    GByteArray *g = gmon_build(fx.prof, 0, &err);
    g_assert_no_error(err);
    uint32_t handler = fx.prof->funcs[fx_index(fx.syms, "handler")].addr;
    Parsed x = parse(g, big, handler);
    g_assert_cmpuint(x.nhist, ==, 1);
    g_assert_cmphex(x.low, ==, prof_hist_low(&fx.prof->hists[0]));
    g_assert_cmphex(x.high, ==, prof_hist_high(&fx.prof->hists[0]));
    g_assert_cmpuint(x.rate, ==, 10);                 /* 100 Hz / period 10 */
    g_assert_cmpuint(x.hist_sum, ==, 46 - 19);        /* idle samples have no bin */
    g_assert_cmpuint(x.narcs, ==, G_N_ELEMENTS(fx_arcs) - 1);  /* not <interrupt> */
    g_assert_false(x.handler_arc);
    g_assert_cmpuint(x.arc_count_sum, ==, 1 + 10 + 1 + 4 + 1 + 2 + 2 + 2);
    g_assert_cmpuint(x.nbbrec, ==, 1);
    g_assert_cmpuint(x.bb_pairs, ==, fx.prof->nblocks);
    g_byte_array_unref(g);

    /* the second period: 100 Hz / 7 = 14.29 -> 14 */
    g = gmon_build(fx.prof, 1, &err);
    g_assert_no_error(err);
    x = parse(g, big, handler);
    g_assert_cmpuint(x.rate, ==, 14);
    g_assert_cmpuint(x.hist_sum, ==, 66 - 29);
    g_byte_array_unref(g);
    fx_close(&fx);
}

static void test_layout_el(void)
{
    check_layout(fixture_el, false);
}

static void test_layout_eb(void)
{
    check_layout(fixture_eb, true);
}

/* gprof -p's calls column: the calls of the arcs written to gmon.out
 * (none from <interrupt>), without self-recursive ones (fact: 1, printed
 * 1+4 in the call graph); blank (-1) when there are none. */
static long long gprof_calls(const Profile *p, unsigned f)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < p->narcs; i++)
        if (p->arcs[i].callee == f && p->arcs[i].caller != f && !p->funcs[p->arcs[i].caller].pseudo)
            n += p->arcs[i].count;
    return n ? (long long)n : -1;
}

/* Every function's calls and samples as gprof -b -p -q reads them back,
 * with a multiplier for summed files. */
static void check_gprof_output(Fx *fx, const char *out, unsigned hist, unsigned times)
{
    const Profile *p = fx->prof;
    GHashTable *rows = parse_flat(out);
    double rate = round(p->clock_hz / p->hists[hist].period);
    double total = 0;
    for (unsigned i = 0; i < G_N_ELEMENTS(fx_funcs); i++) {
        unsigned f = fx_index(fx->syms, fx_funcs[i].name);
        const char *gname = strcmp(fx_funcs[i].name, "_start") == 0 ? "_ftext" : fx_funcs[i].name;
        Row *r = g_hash_table_lookup(rows, gname);
        if (!p->funcs[f].samples[hist] && gprof_calls(p, f) < 0)
            continue;   /* gprof -p lists only functions with time or calls */
        if (!r)
            g_error("gprof -p has no row for %s", gname);
        long long calls = gprof_calls(p, f);
        g_assert_cmpint(r->calls, ==, calls < 0 ? -1 : calls * (long long)times);
        double expect = (double)p->funcs[f].samples[hist] * times / rate;
        g_assert_cmpfloat_with_epsilon(r->self_s, expect, 0.006);
        total += r->self_s * rate;
    }
    uint64_t binned = 0;
    for (uint32_t i = 0; i < p->hists[hist].nbins; i++)
        binned += p->hists[hist].bins[i];
    g_assert_cmpfloat_with_epsilon(total, (double)binned * times, 0.5);
    g_hash_table_unref(rows);

    /* call graph: n+r for self recursion, cycle members, spontaneous handler */
    char *c = graph_called(out, "fact");
    char *expect = g_strdup_printf("%u+%u", 1 * times, 4 * times);
    g_assert_cmpstr(c, ==, expect);
    g_free(expect);
    g_free(c);
    c = graph_called(out, "leaf");
    expect = g_strdup_printf("%lld", gprof_calls(p, fx_index(fx->syms, "leaf")) * times);
    g_assert_cmpstr(c, ==, expect);
    g_free(expect);
    g_free(c);
    g_assert_nonnull(strstr(out, "<cycle 1 as a whole>"));
    g_assert_nonnull(strstr(out, "ping <cycle 1>"));
    GRegex *re = g_regex_new("<spontaneous>\\n\\[\\d+\\][^\\n]*handler", 0, 0, NULL);
    g_assert_true(g_regex_match(re, out, 0, NULL));
    g_regex_unref(re);
}

static void check_gprof(const char *elf, const char *gprof)
{
    if (!gprof) {
        g_test_skip("gprof not found");
        return;
    }
    Fx fx;
    if (!fx_open(&fx, elf))
        return;
    for (unsigned hist = 0; hist < FX_NPERIODS; hist++) {
        char *path = write_gmon(&fx, "gmon.out", hist);
        const char *args[] = { "-b", "-p", "-q", elf, path, NULL };
        char *out = run_gprof(&fx, gprof, args);
        check_gprof_output(&fx, out, hist, 1);
        g_free(out);
        /* -l reads the basic-block record too */
        const char *largs[] = { "-b", "-l", "-p", elf, path, NULL };
        out = run_gprof(&fx, gprof, largs);
        g_assert_nonnull(strstr(out, "fixture.c"));
        g_free(out);
        g_free(path);
    }
    fx_close(&fx);
}

static void test_gprof_el(void)
{
    check_gprof(fixture_el, gprof_el);
}

static void test_gprof_eb(void)
{
    check_gprof(fixture_eb, gprof_eb);
}

/* gprof -s sums two files into gmon.sum: every count doubles. binutils
 * 2.40 cannot read back a big-endian gmon.sum holding block counts (it
 * writes nblocks without its own double swap), so the big-endian files are
 * written without the block record (GMON_NO_BLOCKS). */
static void check_sum(const char *elf, const char *gprof, GmonFlags flags)
{
    if (!gprof) {
        g_test_skip("gprof not found");
        return;
    }
    Fx fx;
    if (!fx_open(&fx, elf))
        return;
    char *a = write_gmon_flags(&fx, "a.out", 0, flags);
    char *b = write_gmon_flags(&fx, "b.out", 0, flags);
    const char *sargs[] = { "-s", elf, a, b, NULL };
    g_free(run_gprof(&fx, gprof, sargs));
    char *sum = g_build_filename(fx.dir, "gmon.sum", NULL);
    g_assert_true(g_file_test(sum, G_FILE_TEST_IS_REGULAR));
    const char *args[] = { "-b", "-p", "-q", elf, sum, NULL };
    char *out = run_gprof(&fx, gprof, args);
    check_gprof_output(&fx, out, 0, 2);
    g_free(out);
    g_free(sum);
    g_free(a);
    g_free(b);
    fx_close(&fx);
}

static void test_sum_el(void)
{
    check_sum(fixture_el, gprof_el, GMON_DEFAULT);
}

static void test_sum_eb(void)
{
    check_sum(fixture_eb, gprof_eb, GMON_NO_BLOCKS);
}

/* A bin above 65535 is split over records with the same range, and a call
 * count above 2^32-1 over several arc records; gprof sums both. */
static void check_split(const char *elf, const char *gprof)
{
    if (!gprof) {
        g_test_skip("gprof not found");
        return;
    }
    Fx fx;
    if (!fx_open(&fx, elf))
        return;
    Profile *p = fx.prof;
    unsigned leaf = fx_index(fx.syms, "leaf");
    ProfHist *h = &p->hists[0];
    h->bins[prof_hist_index(h, p->funcs[leaf].addr)] += 140000;   /* 3 records */
    p->funcs[leaf].samples[0] += 140000;
    uint64_t big = UINT64_C(5000000000);
    for (unsigned i = 0; i < p->narcs; i++)
        if (p->arcs[i].callee == leaf && p->arcs[i].caller == fx_index(fx.syms, "main")) {
            p->arcs[i].count += big;
            p->funcs[leaf].calls += big;
        }
    for (unsigned i = 0; i < p->nblocks; i++)
        if (p->blocks[i].addr == p->funcs[leaf].addr)
            p->blocks[i].count += big;

    GError *err = NULL;
    GByteArray *g = gmon_build(p, 0, &err);
    g_assert_no_error(err);
    Parsed x = parse(g, symbols_big_endian(fx.syms), 0);
    g_assert_cmpuint(x.nhist, ==, 3);
    g_assert_cmpuint(x.hist_sum, ==, 27 + 140000);
    g_assert_cmpuint(x.narcs, ==, G_N_ELEMENTS(fx_arcs) - 1 + 1);
    g_assert_cmpuint(x.bb_pairs, ==, p->nblocks + 1);
    g_byte_array_unref(g);

    char *path = write_gmon(&fx, "gmon.out", 0);
    const char *args[] = { "-b", "-p", "-q", elf, path, NULL };
    char *out = run_gprof(&fx, gprof, args);
    check_gprof_output(&fx, out, 0, 1);
    g_assert_nonnull(strstr(out, "5000000012"));
    g_free(out);
    g_free(path);
    fx_close(&fx);
}

static void test_split_el(void)
{
    check_split(fixture_el, gprof_el);
}

static void test_split_eb(void)
{
    check_split(fixture_eb, gprof_eb);
}

/* 64-bit bins (issue 19.6): a histogram of more than 2^32 samples. With
 * every bin under gprof's int (2^31 - 1) the records are exact, as many as
 * needed (30,518 for leaf's 2e9); a bin over it is written scaled by a
 * power of two, the rate by the same factor: gprof's seconds stay right.
 * Checked with the real gprof: its self seconds per function and their
 * sum against the samples put in. Before: 32-bit bins wrapped. */
static void check_wide(const char *elf, const char *gprof, bool over)
{
    if (!gprof) {
        g_test_skip("gprof not found");
        return;
    }
    Fx fx;
    if (!fx_open(&fx, elf))
        return;
    Profile *p = fx.prof;
    p->clock_hz = 1e9;      /* period 10: 1e8 samples per second */
    ProfHist *h = &p->hists[0];
    const char *names[] = { "leaf", "main", "fact" };
    uint64_t add[] = { over ? UINT64_C(6000000000) : UINT64_C(2000000000), UINT64_C(1500000000),
                       UINT64_C(1000000000) };
    for (unsigned i = 0; i < 3; i++) {
        unsigned f = fx_index(fx.syms, names[i]);
        h->bins[prof_hist_index(h, p->funcs[f].addr)] += add[i];
        p->funcs[f].samples[0] += add[i];
        h->total += add[i];
    }
    uint64_t binned = 0;
    for (uint32_t i = 0; i < h->nbins; i++)
        binned += h->bins[i];
    g_assert_cmpuint(binned, >, UINT64_C(1) << 32);
    g_assert_cmpuint(gmon_hist_scale(p, 0), ==, over ? 4 : 1);
    char *path = write_gmon(&fx, "gmon.out", 0);
    const char *args[] = { "-b", "-p", elf, path, NULL };
    char *out = run_gprof(&fx, gprof, args);
    GHashTable *rows = parse_flat(out);
    double rate = p->clock_hz / h->period, total = 0;
    for (unsigned i = 0; i < G_N_ELEMENTS(fx_funcs); i++) {
        unsigned f = fx_index(fx.syms, fx_funcs[i].name);
        const char *gname = strcmp(fx_funcs[i].name, "_start") == 0 ? "_ftext" : fx_funcs[i].name;
        Row *r = g_hash_table_lookup(rows, gname);
        if (!r)
            continue;
        /* gprof prints seconds with 2 decimals */
        g_assert_cmpfloat_with_epsilon(r->self_s, (double)p->funcs[f].samples[0] / rate, 0.006);
        total += r->self_s;
    }
    g_assert_cmpfloat_with_epsilon(total, (double)binned / rate, 0.006 * G_N_ELEMENTS(fx_funcs));
    g_hash_table_unref(rows);
    g_free(out);
    g_free(path);
    fx_close(&fx);
}

static void test_wide_exact(void)
{
    check_wide(fixture_el, gprof_el, false);
}

static void test_wide_scaled(void)
{
    check_wide(fixture_eb, gprof_eb, true);
}

static void test_errors(void)
{
    Fx fx;
    if (!fx_open(&fx, fixture_el))
        return;
    GError *err = NULL;
    g_assert_null(gmon_build(fx.prof, 2, &err));
    g_assert_error(err, GMON_ERROR, GMON_ERROR_INVALID);
    g_clear_error(&err);
    fx.prof->syms = NULL;
    g_assert_null(gmon_build(fx.prof, 0, &err));
    g_assert_error(err, GMON_ERROR, GMON_ERROR_INVALID);
    g_clear_error(&err);
    fx.prof->syms = fx.syms;
    /* no sampling period: arcs and blocks only */
    fx.prof->nperiods = 0;
    GByteArray *g = gmon_build(fx.prof, 7, &err);
    g_assert_no_error(err);
    Parsed x = parse(g, false, 0);
    g_assert_cmpuint(x.nhist, ==, 0);
    g_assert_cmpuint(x.narcs, ==, G_N_ELEMENTS(fx_arcs) - 1);
    g_byte_array_unref(g);
    fx.prof->nperiods = FX_NPERIODS;
    fx_close(&fx);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gmon/layout/little-endian", test_layout_el);
    g_test_add_func("/gmon/layout/big-endian", test_layout_eb);
    g_test_add_func("/gmon/gprof/little-endian", test_gprof_el);
    g_test_add_func("/gmon/gprof/big-endian", test_gprof_eb);
    g_test_add_func("/gmon/gprof-sum/little-endian", test_sum_el);
    g_test_add_func("/gmon/gprof-sum/big-endian", test_sum_eb);
    g_test_add_func("/gmon/split/little-endian", test_split_el);
    g_test_add_func("/gmon/split/big-endian", test_split_eb);
    g_test_add_func("/gmon/wide/exact", test_wide_exact);
    g_test_add_func("/gmon/wide/scaled", test_wide_scaled);
    g_test_add_func("/gmon/errors", test_errors);
    return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* test-reports.c — the flat profile, call graph, annotated listing and
 * chip-wide merge, on the hand-built profile of fixture.c
 * (tests/fixtures/profiler/fixture-profile.h) with known numbers. */
#include <glib.h>
#include <string.h>

#include "profiler/report/report.h"
#include "tests/fixtures/profiler/fixture-profile.h"

#ifdef FIXTURE_EL
static const char *fixture_el = FIXTURE_EL, *fixture_stripped = FIXTURE_STRIPPED,
                  *fixture_nosrc = FIXTURE_NOSRC;
#else
static const char *fixture_el = NULL, *fixture_stripped = NULL, *fixture_nosrc = NULL;
#endif

typedef struct Fx {
    Symbols *syms;
    Profile *prof;
} Fx;

static bool fx_open(Fx *fx, const char *elf)
{
    memset(fx, 0, sizeof *fx);
    if (!fx_load(elf, &fx->syms, &fx->prof))
        return false;
    return true;
}

static void fx_close(Fx *fx)
{
    profile_free(fx->prof);
    symbols_free(fx->syms);
}

/* Assert that some line of text matches the regex (multiline). */
static void assert_line(const char *text, const char *re_src)
{
    GError *err = NULL;
    GRegex *re = g_regex_new(re_src, G_REGEX_MULTILINE, 0, &err);
    g_assert_no_error(err);
    if (!g_regex_match(re, text, 0, NULL))
        g_error("no line matches /%s/ in:\n%s", re_src, text);
    g_regex_unref(re);
}

static void assert_no_line(const char *text, const char *re_src)
{
    GRegex *re = g_regex_new(re_src, G_REGEX_MULTILINE, 0, NULL);
    if (g_regex_match(re, text, 0, NULL))
        g_error("a line matches /%s/ in:\n%s", re_src, text);
    g_regex_unref(re);
}

/* The part of text from the first occurrence of from up to to (or end). */
static char *section(const char *text, const char *from, const char *to)
{
    const char *a = strstr(text, from);
    g_assert_nonnull(a);
    const char *b = to ? strstr(a + strlen(from), to) : NULL;
    return b ? g_strndup(a, b - a) : g_strdup(a);
}

static void test_flat(void)
{
    Fx fx;
    if (!fx_open(&fx, fixture_el))
        return;
    GString *r = report_flat(fx.prof);
    if (g_test_verbose())
        g_printerr("%s", r->str);
    char *exact = section(r->str, "Exact profile", "Sampled profile");
    assert_line(exact, "^Exact profile: 467 cycles .* = 4\\.670000000 seconds at 100 Hz");
    /* %time cumulative(cycles, s) self(cycles, s) calls self/call total/call */
    assert_line(exact, "^ 42\\.83 +200 +2\\.000000000 +200 +2\\.000000000 +<idle>$");
    assert_line(exact, "^ 21\\.41 +300 +3\\.000000000 +100 +1\\.000000000 +1 +100\\.00 +250\\.00  main$");
    assert_line(exact, "^ 10\\.71 +350 +3\\.500000000 +50 +0\\.500000000 +5 +10\\.00 +10\\.00  fact$");
    assert_line(exact, "^ 10\\.28 +398 .* +48 +0\\.480000000 +12 +4\\.00 +4\\.00  leaf$");
    assert_line(exact, "^ +3\\.21 +465 +4\\.650000000 +15 .* +3 +5\\.00 +5\\.00  handler$");
    assert_line(exact, "^ +0\\.43 +467 +4\\.670000000 +2 +0\\.020000000 +_start$");
    assert_no_line(exact, "<unknown>|<interrupt>|fixture_end|asmfunc");

    char *s10 = section(r->str, "sampling period 10 cycles", "sampling period 7 cycles");
    assert_line(s10, "each sample counts as 10 cycles = 0\\.1 seconds");
    assert_line(s10, "^46 samples: 27 in the histogram, 19 idle, 0 outside");
    assert_line(s10, "the whole run, 46 samples, is \\+-6\\.8 \\(14\\.7%\\)");
    /* sampled% cum self samples +-sqrt exact% diff calls name */
    assert_line(s10, "^ +41\\.30 +1\\.9\\d+ +1\\.900000000 +19 +4\\.4 +42\\.83 +-1\\.52  +<idle>$");
    assert_line(s10, "^ +21\\.74 .* +1\\.000000000 +10 +3\\.2 +21\\.41 +\\+0\\.33  +1  main$");
    assert_line(s10, "^ +10\\.87 .* +0\\.500000000 +5 +2\\.2 +10\\.28 +\\+0\\.59  +12  leaf$");
    char *s7 = section(r->str, "sampling period 7 cycles", NULL);
    assert_line(s7, "^66 samples: 37 in the histogram, 29 idle");
    assert_line(s7, "^ +21\\.21 .* +14 +3\\.7 +21\\.41 +-0\\.20  +1  main$");
    g_free(s7);
    g_free(s10);
    g_free(exact);
    g_string_free(r, TRUE);
    fx_close(&fx);
}

/* A function whose samples are far from its exact share gets a '!'. */
static void test_flat_aliasing(void)
{
    Fx fx;
    if (!fx_open(&fx, fixture_el))
        return;
    unsigned leaf = fx_index(fx.syms, "leaf"), m = fx_index(fx.syms, "main");
    fx.prof->funcs[leaf].samples[0] = 0;     /* expected ~4.7 */
    fx.prof->funcs[m].samples[0] += 5;
    GString *r = report_flat(fx.prof);
    char *s10 = section(r->str, "sampling period 10 cycles", "sampling period 7 cycles");
    assert_line(s10, "^ +0\\.00 .* +0 +0\\.0 +10\\.28 +-10\\.28! +12  leaf$");
    assert_line(s10, "^ +32\\.61 .* +15 .* main$");
    g_free(s10);
    g_string_free(r, TRUE);
    fx_close(&fx);
}

static void test_callgraph(void)
{
    Fx fx;
    if (!fx_open(&fx, fixture_el))
        return;
    GString *r = report_callgraph(fx.prof);
    if (g_test_verbose())
        g_printerr("%s", r->str);
    const char *t = r->str;
    /* entries in order of self + children: _start 252, main 250, <idle> 200,
     * cycle 1 60, fact 50, leaf 48, ping 44, pong 16, <interrupt> 15,
     * handler 15 */
    assert_line(t, "^\\[1\\] +54\\.0 +2 +250 +_start \\[1\\]$");
    assert_line(t, "^ +<spontaneous>\\n\\[1\\] ");
    assert_line(t, "^\\[2\\] +53\\.5 +100 +150 +1 +main \\[2\\]$");
    assert_line(t, "^\\[3\\] +42\\.8 +200 +0 +<idle> \\[3\\]$");
    /* main's callees, exact inclusive split self/children */
    assert_line(t, "^ +52 +8 +1/1 +ping <cycle 1> \\[7\\]$");
    assert_line(t, "^ +50 +0 +1/1 +fact \\[5\\]$");
    assert_line(t, "^ +40 +0 +10/12 +leaf \\[6\\]$");
    /* the cycle: 1 call from outside + 4 between members */
    assert_line(t, "^ +52 +8 +1/1 +main \\[2\\]\\n\\[4\\] +12\\.8 +52 +8 +1\\+4 +<cycle 1 as a whole> \\[4\\]$");
    /* members: gprof's convention, all calls but self-arc ones (ping: 1 from
     * main + 2 from pong; pong: 2 from ping), as gprof prints them */
    assert_line(t, "^ +36 +8 +3 +ping <cycle 1> \\[7\\]$");
    assert_line(t, "^ +16 +0 +2 +pong <cycle 1> \\[8\\]$");
    /* fact: self recursion as n+r, its own caller/callee lines count only */
    assert_line(t, "^ +4 +fact \\[5\\]\\n +50 +0 +1/1 +main \\[2\\]\\n"
                   "\\[5\\] +10\\.7 +50 +0 +1\\+4 +fact \\[5\\]\\n +4 +fact \\[5\\]$");
    /* leaf: two callers, biggest nearest */
    assert_line(t, "^ +8 +0 +2/12 +ping <cycle 1> \\[7\\]\\n +40 +0 +10/12 +main \\[2\\]\\n"
                   "\\[6\\] +10\\.3 +48 +0 +12 +leaf \\[6\\]$");
    /* ping: intra-cycle arcs count only, leaf with times */
    assert_line(t, "^ +2 +pong <cycle 1> \\[8\\]\\n +52 +8 +1/1 +main \\[2\\]\\n"
                   "\\[7\\] +9\\.4 +36 +8 +3 +ping <cycle 1> \\[7\\]\\n"
                   " +8 +0 +2/12 +leaf \\[6\\]\\n +2 +pong <cycle 1> \\[8\\]$");
    /* handler entered from <interrupt> */
    assert_line(t, "^ +15 +0 +3/3 +<interrupt> \\[9\\]\\n\\[10\\] +3\\.2 +15 +0 +3 +handler \\[10\\]$");
    assert_line(t, "^\\[9\\] +3\\.2 +0 +15 +<interrupt> \\[9\\]\\n +15 +0 +3/3 +handler \\[10\\]$");
    /* index by name */
    char *idx = section(t, "Index by function name", NULL);
    assert_line(idx, "\\[4\\] <cycle 1>");
    assert_line(idx, "\\[5\\] fact");
    assert_line(idx, "\\[10\\] handler");
    g_free(idx);
    g_string_free(r, TRUE);
    fx_close(&fx);
}

static void test_annotated(void)
{
    Fx fx;
    if (!fx_open(&fx, fixture_el))
        return;
    GString *r = report_annotated(fx.prof);
    if (g_test_verbose())
        g_printerr("%s", r->str);
    char *fact = section(r->str, "*** fact", "*** ");
    assert_line(fact, "^\\*\\*\\* fact  \\[0x80000024, 0x80000064\\)  called 5 \\(1\\+4\\), self 50 cycles, "
                      "inclusive 50 cycles$");
    assert_line(fact, "fixture\\.c:13-17$");
    /* count cycles samples line: source */
    assert_line(fact, "^ +4 +12 +0 +13: \\{$");
    assert_line(fact, "^ +5 +15 +5 +14:     if \\(n <= 1\\)$");
    assert_line(fact, "^ {40}15:         return 1;$");
    assert_line(fact, "^ +4 +\\d+ +\\d+ +16:     return n \\* fact\\(n - 1\\);$");
    assert_line(fact, "^ +4,1 +\\d+ +\\d+ +17: \\}$");
    char *mainf = section(r->str, "*** main", "*** ");
    assert_line(mainf, "^ +1 +5 +10 +41: \\{$");   /* main's 10 samples sit on its first line */
    assert_line(mainf, "^ +1,10 +\\d+ +\\d+ +43:     for \\(int i = 0; i < 10; i\\+\\+\\)$");
    assert_line(mainf, "^ +10 +\\d+ +\\d+ +44:         s \\+= leaf\\(i\\);$");
    g_free(mainf);
    char *leaf = section(r->str, "*** leaf", "*** ");
    /* 48 cycles over 4 instructions, 2 per line; leaf's 5 samples */
    assert_line(leaf, "^ +12 +24 +5 +9:     return x \\* 3 \\+ 1;$");
    assert_line(leaf, "^ +12 +24 +0 +10: \\}$");
    g_free(leaf);
    /* ping has no blocks in the profile but ran: its lines are ##### */
    char *ping = section(r->str, "*** ping", "*** ");
    assert_line(ping, "^ +##### +0 +\\d+ +32:");
    g_free(ping);
    assert_no_line(r->str, "\\*\\*\\* fixture_end");
    assert_line(r->str, "^Execution summary: 7 functions listed");
    g_free(fact);
    g_string_free(r, TRUE);
    fx_close(&fx);
}

/* No line information (stripped) and a source file that is gone: both
 * fall back to disassembly with per-instruction counts. */
static void check_disasm_fallback(const char *elf, const char *why)
{
    Fx fx;
    if (!fx_open(&fx, fixture_el) || !elf)
        return;
    GError *err = NULL;
    Symbols *other = symbols_load(elf, &err);
    g_assert_no_error(err);
    fx.prof->syms = other;
    GString *r = report_annotated(fx.prof);
    if (g_test_verbose())
        g_printerr("%s", r->str);
    char *fact = section(r->str, "*** fact", "*** ");
    assert_line(fact, why);
    /* count cycles samples address: instruction */
    assert_line(fact, "^ +5 +5 +1  0x80000024: slti \\$v0, \\$a0, 2$");
    assert_line(fact, "^ +4 +\\d+ +0  0x80000040: jal 0x80000024$");
    assert_line(fact, "^ +1 +\\d+ +0  0x80000060: addiu \\$v0, \\$zero, 1$");
    char *leaf = section(r->str, "*** leaf", "*** ");
    assert_line(leaf, "^ +12 +12 +4  0x80000018: addu \\$v0, \\$v0, \\$a0$");
    g_free(leaf);
    g_free(fact);
    g_string_free(r, TRUE);
    fx.prof->syms = fx.syms;
    symbols_free(other);
    fx_close(&fx);
}

static void test_annotated_stripped(void)
{
    check_disasm_fallback(fixture_stripped, "no line information: disassembly");
}

static void test_annotated_nosrc(void)
{
    check_disasm_fallback(fixture_nosrc, "source file not readable: disassembly");
}

static void test_insn_count(void)
{
    Fx fx;
    if (!fx_open(&fx, fixture_el))
        return;
    uint32_t mainf = fx.prof->funcs[fx_index(fx.syms, "main")].addr;
    g_assert_cmpuint(profile_insn_count(fx.prof, mainf), ==, 1);
    g_assert_cmpuint(profile_insn_count(fx.prof, mainf + 32), ==, 10);
    g_assert_cmpuint(profile_insn_count(fx.prof, mainf + 52), ==, 1);
    g_assert_cmpuint(profile_insn_count(fx.prof, mainf + 100), ==, 0);
    /* an overlapping block (a branch into the middle of a block) adds up */
    ProfBlock *b = g_new(ProfBlock, fx.prof->nblocks + 1);
    memcpy(b, fx.prof->blocks, sizeof *b * fx.prof->nblocks);
    b[fx.prof->nblocks] = (ProfBlock){ mainf + 4, 2, fx_index(fx.syms, "main"), 7, 2, NULL, NULL };
    g_free(fx.prof->blocks);
    fx.prof->blocks = b;
    fx.prof->nblocks++;
    qsort(b, fx.prof->nblocks, sizeof *b, fx_block_cmp);
    g_assert_cmpuint(profile_insn_count(fx.prof, mainf), ==, 1);
    g_assert_cmpuint(profile_insn_count(fx.prof, mainf + 4), ==, 8);
    g_assert_cmpuint(profile_insn_count(fx.prof, mainf + 8), ==, 8);
    g_assert_cmpuint(profile_insn_count(fx.prof, mainf + 12), ==, 1);
    uint64_t c[4];
    profile_insn_counts(fx.prof, mainf, 4, c);
    g_assert_cmpuint(c[0], ==, 1);
    g_assert_cmpuint(c[1], ==, 8);
    g_assert_cmpuint(c[2], ==, 8);
    g_assert_cmpuint(c[3], ==, 1);
    fx_close(&fx);
}

static void test_merge(void)
{
    Fx a, b;
    if (!fx_open(&a, fixture_el) || !fx_open(&b, fixture_el))
        return;
    b.prof->core = 1;
    /* core 1 also ran a function core 0 never did */
    unsigned asmf = fx_index(b.syms, "asmfunc");
    b.prof->funcs[asmf].self_cycles = 33;
    b.prof->funcs[asmf].calls = 3;
    b.prof->cycles += 33;
    const Profile *cores[] = { a.prof, b.prof };
    Profile *m = profile_merge(cores, 2);
    g_assert_cmpuint(m->core, ==, G_MAXUINT);
    g_assert_cmpuint(m->cycles, ==, 2 * 467 + 33);
    unsigned mi = 0;
    for (unsigned i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, "main") == 0)
            mi = i;
    g_assert_cmpuint(m->funcs[mi].calls, ==, 2);
    g_assert_cmpuint(m->funcs[mi].self_cycles, ==, 200);
    g_assert_cmpuint(m->funcs[mi].samples[0], ==, 20);
    g_assert_cmpstr(m->funcs[profile_pseudo(m, PROF_IDLE)].name, ==, "<idle>");
    g_assert_cmpuint(m->funcs[profile_pseudo(m, PROF_IDLE)].self_cycles, ==, 400);
    g_assert_cmpuint(m->narcs, ==, a.prof->narcs);
    g_assert_cmpuint(m->hists[0].total, ==, 92);

    GString *r = report_flat(m);
    assert_line(r->str, "^Flat profile, chip \\(all cores\\)");
    assert_line(r->str, "^ +\\d+\\.\\d+ .* +200 +2\\.000000000 +2 +100\\.00 +250\\.00  main$");
    assert_line(r->str, "^ +\\d+\\.\\d+ .* +33 +0\\.330000000 +3 +11\\.00 +0\\.00  asmfunc$");
    assert_line(r->str, "^92 samples");
    g_string_free(r, TRUE);
    r = report_callgraph(m);
    assert_line(r->str, "^\\[\\d+\\] .* +2\\+8 +fact \\[\\d+\\]$");
    assert_line(r->str, "<cycle 1 as a whole>");
    g_string_free(r, TRUE);
    profile_free(m);
    fx_close(&b);
    fx_close(&a);
}

/* Profiles with nothing in them print without crashing. */
static void test_empty(void)
{
    Profile *p = g_new0(Profile, 1);
    p->nfuncs = PROF_NPSEUDO;
    p->funcs = g_new0(ProfFunc, PROF_NPSEUDO);
    static const char *names[] = { "<idle>", "<interrupt>", "<unknown>" };
    for (unsigned i = 0; i < PROF_NPSEUDO; i++) {
        p->funcs[i].name = names[i];
        p->funcs[i].pseudo = true;
    }
    /* nothing ran: one line instead of the tables (issue 24) */
    GString *r = report_flat(p);
    assert_line(r->str, "^Nothing ran: 0 instructions in 0 cycles \\(idle 0, interrupt 0\\): no table to show\\.$");
    g_assert_null(strstr(r->str, "Exact profile"));
    g_string_free(r, TRUE);
    r = report_callgraph(p);
    assert_line(r->str, "^Nothing ran: 0 instructions");
    g_assert_null(strstr(r->str, "Index by function name"));
    g_string_free(r, TRUE);
    p->instructions = p->cycles = p->busy_cycles = 1; /* something ran: the tables, empty */
    r = report_flat(p);
    assert_line(r->str, "No sampling period");
    g_string_free(r, TRUE);
    r = report_callgraph(p);
    assert_line(r->str, "Index by function name");
    g_string_free(r, TRUE);
    r = report_annotated(p);
    assert_line(r->str, "^Execution summary: 0 functions");
    g_string_free(r, TRUE);
    profile_free(p);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/reports/flat/exact-and-sampled", test_flat);
    g_test_add_func("/reports/flat/aliasing", test_flat_aliasing);
    g_test_add_func("/reports/callgraph", test_callgraph);
    g_test_add_func("/reports/annotated/source", test_annotated);
    g_test_add_func("/reports/annotated/stripped", test_annotated_stripped);
    g_test_add_func("/reports/annotated/missing-source", test_annotated_nosrc);
    g_test_add_func("/reports/insn-count", test_insn_count);
    g_test_add_func("/reports/merge", test_merge);
    g_test_add_func("/reports/empty", test_empty);
    return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* test-flame.c — report.html's flame data made from the folded trees
 * (cli_flame_json, cli/flame.c) is byte for byte what the text builder
 * (html_flame_json, web/html_flame.c, itself checked by hand in
 * unit/html) makes from the stacks.folded lines folded_write writes of the
 * same trees: merges by name (two functions of one name, a name spelled
 * two ways, a function named like a core's frame), escapes, lines that
 * are not written (no cycles of their own), recursion folding and paths
 * cut at a depth, cores without a profile or with only a root; and
 * folded_write's lines themselves, by hand. */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "profiler/formats/folded.h"
#include "profiler/model/profile.h"
#include "web/html_report.h"

/* core0: distinct names, mutual recursion main > F > M > F > M > F, a
 * frame with ';' and one with ' ', a function named core1, a context with
 * no cycles of its own in the middle of a path. */
static ProfFunc funcs0[] = { { .name = "main" }, { .name = "F" }, { .name = "M" }, { .name = "x;y" },
                             { .name = "sp ace" }, { .name = "core1" }, { .name = "unused" } };
static ProfCtx ctxs0[] = {
    { .parent = 0, .func = 0, .self = 5 },  /* 0 main */
    { .parent = 0, .func = 1, .self = 0 },  /* 1 main;F (no line of its own) */
    { .parent = 1, .func = 2, .self = 7 },  /* 2 main;F;M */
    { .parent = 2, .func = 1, .self = 3 },  /* 3 main;F;M;F */
    { .parent = 3, .func = 2, .self = 2 },  /* 4 ..;M */
    { .parent = 4, .func = 1, .self = 9 },  /* 5 ..;F */
    { .parent = 0, .func = 3, .self = 4 },  /* 6 main;x;y */
    { .parent = 6, .func = 4, .self = 1 },  /* 7 main;x;y;sp ace */
    { .parent = 0, .func = 5, .self = 6 },  /* 8 main;core1 */
    { .parent = 5, .func = 3, .self = 8 },  /* 9 ..;F;x;y */
};

/* core1: two functions named dup (merged by name), "a;b" and the literal
 * "a\x3bb" (one name once unfolded), a dup without cycles of its own. */
static ProfFunc funcs1[] = { { .name = "main" }, { .name = "dup" }, { .name = "dup" }, { .name = "a;b" },
                             { .name = "a\\x3bb" }, { .name = "z" } };
static ProfCtx ctxs1[] = {
    { .parent = 0, .func = 0, .self = 1 },  /* 0 main */
    { .parent = 0, .func = 1, .self = 0 },  /* 1 main;dup (the first) */
    { .parent = 1, .func = 3, .self = 2 },  /* 2 main;dup;a;b */
    { .parent = 0, .func = 2, .self = 3 },  /* 3 main;dup (the second) */
    { .parent = 3, .func = 4, .self = 4 },  /* 4 main;dup;a\x3bb: the same path */
    { .parent = 3, .func = 5, .self = 5 },  /* 5 main;dup;z */
    { .parent = 5, .func = 2, .self = 6 },  /* 6 main;dup;z;dup */
    { .parent = 6, .func = 2, .self = 7 },  /* 7 ..;dup;dup */
    { .parent = 2, .func = 1, .self = 8 },  /* 8 main;dup;a;b;dup */
};

static ProfFunc funcs3[] = { { .name = "start" } };
static ProfCtx ctxs3[] = { { .parent = 0, .func = 0, .self = 11 } };

static void check(unsigned fold, unsigned depth, unsigned *lines)
{
    Profile p0 = { .nfuncs = G_N_ELEMENTS(funcs0), .funcs = funcs0, .nctxs = G_N_ELEMENTS(ctxs0), .ctxs = ctxs0 };
    Profile p1 = { .nfuncs = G_N_ELEMENTS(funcs1), .funcs = funcs1, .nctxs = G_N_ELEMENTS(ctxs1), .ctxs = ctxs1 };
    Profile p3 = { .nfuncs = G_N_ELEMENTS(funcs3), .funcs = funcs3, .nctxs = G_N_ELEMENTS(ctxs3), .ctxs = ctxs3 };
    Folded *f[4] = { folded_new(&p0, fold), folded_new(&p1, fold), NULL, folded_new(&p3, fold) };
    const char *prefix[4] = { "core0", "core1", "core2", "core3" };
    GString *text = g_string_new(NULL);
    for (unsigned i = 0; i < 4; i++)
        if (f[i])
            folded_write(text, f[i], prefix[i], depth);
    GString *want = html_flame_json(text->str);
    GString *got = cli_flame_json(f, prefix, 4, depth);
    g_assert_cmpstr(got->str, ==, want->str);
    /* the same trees known to have distinct children (ctxs_distinct: the
     * collector's), their children not looked up: the same lines */
    p0.ctxs_distinct = p1.ctxs_distinct = p3.ctxs_distinct = true;
    GString *fast = g_string_new(NULL);
    for (unsigned i = 0; i < 4; i++)
        if (f[i]) {
            Folded *g = folded_new(i == 0 ? &p0 : i == 1 ? &p1 : &p3, fold);
            folded_write(fast, g, prefix[i], depth);
            folded_free(g);
        }
    g_assert_cmpstr(fast->str, ==, text->str);
    g_string_free(fast, TRUE);
    *lines = 0;
    for (const char *s = text->str; (s = strchr(s, '\n')); s++)
        ++*lines;
    g_string_free(text, TRUE);
    g_string_free(want, TRUE);
    g_string_free(got, TRUE);
    for (unsigned i = 0; i < 4; i++)
        folded_free(f[i]);
}

static void test_tree_as_text(void)
{
    static const struct { unsigned fold, depth, lines; } cases[] = {
        { 0, FOLDED_MAX_DEPTH, 18 }, { 0, 3, 11 }, { 0, 2, 8 }, { 0, 1, 3 },
        { 1, FOLDED_MAX_DEPTH, 12 }, { 2, FOLDED_MAX_DEPTH, 16 }, { 1, 3, 11 },
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        unsigned lines;
        check(cases[i].fold, cases[i].depth, &lines);
        g_assert_cmpuint(lines, ==, cases[i].lines);   /* the case is the one meant */
    }
}

/* The merged tree itself, by hand: core1's two dup are one node (3
 * cycles of its own) with the "a;b" of both spellings under it (2 + 4
 * cycles); under that "a;b" the first dup again (8); z (5) under the
 * merged dup, dup (6) under z, dup (7) under that. */
static void test_merged_by_name(void)
{
    Profile p1 = { .nfuncs = G_N_ELEMENTS(funcs1), .funcs = funcs1, .nctxs = G_N_ELEMENTS(ctxs1), .ctxs = ctxs1 };
    Folded *f = folded_new(&p1, 0);
    const char *prefix = "core1";
    GString *got = cli_flame_json(&f, &prefix, 1, 2);
    /* cut at 2 frames: main 1, the first dup's subtree 10 and the
     * second's 25 in one node */
    g_assert_cmpstr(got->str, ==, "{\"names\":[\"core1\",\"main\",\"dup\"],\"nodes\":[0,0,0,1,1,1,1,2,35]}");
    g_string_free(got, TRUE);
    got = cli_flame_json(&f, &prefix, 1, FOLDED_MAX_DEPTH);
    g_assert_cmpstr(got->str, ==, "{\"names\":[\"core1\",\"main\",\"dup\",\"a;b\",\"z\"],"
                                  "\"nodes\":[0,0,0,1,1,1,1,2,3,1,3,6,2,4,5,1,2,6,1,2,7,4,2,8]}");
    g_string_free(got, TRUE);
    folded_free(f);
}

/* folded_write's lines by hand: a main with 20 children (past the few a
 * node's list holds before its children are indexed), contexts that
 * repeat a path (as a hand-edited profile.data may: summed), one repeated
 * while main has 3 children and one when it has 20; a line whose parent
 * has none of its own (copied from main's line), one whose every
 * ancestor has none (written whole). */
static void test_folded_lines(void)
{
    ProfFunc funcs[24] = { { .name = "main" } };
    char names[21][8];
    for (unsigned k = 0; k < 20; k++) {
        g_snprintf(names[k], sizeof names[k], "f%u", k);
        funcs[k + 1].name = names[k];
    }
    funcs[21].name = "g";
    funcs[22].name = "h";
    ProfCtx ctx[32] = { { .parent = 0, .func = 0, .self = 1 } };
    unsigned n = 1;
    for (unsigned k = 0; k < 20; k++) {
        ctx[n++] = (ProfCtx){ .parent = 0, .func = k + 1, .self = k == 1 ? 0 : 10 + k };
        if (k == 2)
            ctx[n++] = (ProfCtx){ .parent = 0, .func = 1, .self = 100 };    /* 4: f0 again */
    }
    ctx[n++] = (ProfCtx){ .parent = 0, .func = 16, .self = 200 };            /* 22: f15 again */
    ctx[n++] = (ProfCtx){ .parent = 4, .func = 21, .self = 7 };              /* under the second f0 */
    ctx[n++] = (ProfCtx){ .parent = 1, .func = 21, .self = 8 };              /* the same path */
    ctx[n++] = (ProfCtx){ .parent = 22, .func = 21, .self = 9 };
    ctx[n++] = (ProfCtx){ .parent = 2, .func = 22, .self = 5 };              /* under f1, no line */
    Profile p = { .nfuncs = 23, .funcs = funcs, .nctxs = n, .ctxs = ctx };
    GString *want = g_string_new("core0;main 1\ncore0;main;f0 110\n");
    for (unsigned k = 2; k < 20; k++)
        g_string_append_printf(want, "core0;main;f%u %u\n", k, k == 15 ? 225 : 10 + k);
    g_string_append(want, "core0;main;f0;g 15\ncore0;main;f15;g 9\ncore0;main;f1;h 5\n");
    Folded *f = folded_new(&p, 0);
    GString *got = g_string_new(NULL);
    folded_write(got, f, "core0", FOLDED_MAX_DEPTH);
    g_assert_cmpstr(got->str, ==, want->str);
    g_string_truncate(got, 0);
    folded_free(f);
    ProfCtx chain[] = { { .parent = 0, .func = 0 }, { .parent = 0, .func = 21 }, { .parent = 1, .func = 22, .self = 3 } };
    Profile q = { .nfuncs = 23, .funcs = funcs, .nctxs = 3, .ctxs = chain };
    f = folded_new(&q, 0);
    folded_write(got, f, "core1", FOLDED_MAX_DEPTH);
    folded_write(got, f, NULL, FOLDED_MAX_DEPTH);
    g_assert_cmpstr(got->str, ==, "core1;main;g;h 3\nmain;g;h 3\n");
    folded_free(f);
    g_string_free(got, TRUE);
    g_string_free(want, TRUE);
}

/* stacks.folded through a file in 256 KiB chunks (folded_write_file) is
 * the text folded_write makes: deep mutual recursion (lines whose
 * ancestors' lines went out in an earlier chunk, nodes without a line of
 * their own), a 300,000-byte name (a line longer than a chunk), uncut and
 * cut at a depth; a stream that cannot be written answers false. */
static void test_folded_file(void)
{
    char *name[4] = { g_strdup("main"), g_strnfill(30, 'F'), g_strnfill(20, 'M'), g_strnfill(300000, 'B') };
    ProfFunc funcs[4] = { { .name = name[0] }, { .name = name[1] }, { .name = name[2] }, { .name = name[3] } };
    enum { N = 1200 };
    ProfCtx *ctx = g_new(ProfCtx, N + 2);
    ctx[0] = (ProfCtx){ .parent = 0, .func = 0, .self = 1 };
    for (unsigned n = 1; n < N; n++)   /* a chain, and every 7th a sibling leaf of the one before */
        ctx[n] = n % 7 ? (ProfCtx){ .parent = n - 1 - (n % 7 == 1 && n > 7), .func = 1 + n % 2, .self = n % 5 ? n : 0 }
                       : (ProfCtx){ .parent = n - 2, .func = 1 + (n + 1) % 2, .self = 1000 + n };
    ctx[N] = (ProfCtx){ .parent = 500, .func = 3, .self = 77 };      /* main;..;B */
    ctx[N + 1] = (ProfCtx){ .parent = N, .func = 1, .self = 78 };    /* main;..;B;F */
    Profile p = { .nfuncs = 4, .funcs = funcs, .nctxs = N + 2, .ctxs = ctx };
    Folded *f = folded_new(&p, 0);
    const unsigned depths[] = { FOLDED_MAX_DEPTH, 300, 2 };
    for (unsigned d = 0; d < G_N_ELEMENTS(depths); d++) {
        GString *want = g_string_new(NULL);
        folded_write(want, f, "core2", depths[d]);
        folded_write(want, f, NULL, depths[d]);
        g_assert_cmpuint(want->len, >, d < 2 ? 4 * 262144 : 50);   /* the case is the one meant */
        FILE *out = tmpfile();
        g_assert_nonnull(out);
        g_assert_true(folded_write_file(out, f, "core2", depths[d]));
        g_assert_true(folded_write_file(out, f, NULL, depths[d]));
        long size = ftell(out);
        g_assert_cmpint(size, ==, (long)want->len);
        rewind(out);
        char *got = g_malloc((gsize)size + 1);
        g_assert_cmpuint(fread(got, 1, (size_t)size, out), ==, (size_t)size);
        got[size] = 0;
        g_assert_true(memcmp(got, want->str, want->len) == 0);
        g_free(got);
        fclose(out);
        g_string_free(want, TRUE);
    }
    FILE *ro = fopen("/dev/null", "r");
    g_assert_nonnull(ro);
    g_assert_false(folded_write_file(ro, f, "core2", FOLDED_MAX_DEPTH));
    fclose(ro);
    folded_free(f);
    g_free(ctx);
    for (unsigned i = 0; i < 4; i++)
        g_free(name[i]);
}

/* The subtrees' cycles by hand (core0: 45 in all, 29 under main;F, 22
 * under main;F;M;F: 3 + 2 + 9 + 8), made only for a cut: none when the depth cuts
 * nothing (7 frames: main;F;M;F;M;F;x;y is the deepest path). */
static void test_subtrees_on_cut(void)
{
    Profile p0 = { .nfuncs = G_N_ELEMENTS(funcs0), .funcs = funcs0, .nctxs = G_N_ELEMENTS(ctxs0), .ctxs = ctxs0 };
    Folded *f = folded_new(&p0, 0);
    g_assert_cmpuint(folded_max_depth(f), ==, 7);
    g_assert_null(folded_subtrees(f, 7));
    g_assert_null(folded_subtrees(f, FOLDED_MAX_DEPTH));
    const uint64_t *sub = folded_subtrees(f, 6);
    g_assert_nonnull(sub);
    g_assert_cmpuint(sub[0], ==, 45);
    g_assert_cmpuint(sub[1], ==, 29);
    g_assert_cmpuint(sub[3], ==, 22);
    g_assert_cmpuint(sub[9], ==, 8);
    /* at the cut a node's count is its subtree's, above it its self */
    const FoldedNode *n = folded_node_array(f);
    g_assert_cmpuint(folded_node_count(n, sub, 3, 4), ==, 22);
    g_assert_cmpuint(folded_node_count(n, sub, 1, 4), ==, 0);
    g_assert_cmpuint(folded_node_count(n, NULL, 9, 7), ==, 8);
    folded_free(f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/flame/tree-as-text", test_tree_as_text);
    g_test_add_func("/flame/merged-by-name", test_merged_by_name);
    g_test_add_func("/flame/folded-lines", test_folded_lines);
    g_test_add_func("/flame/folded-file", test_folded_file);
    g_test_add_func("/flame/subtrees-on-cut", test_subtrees_on_cut);
    return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* test-cliwrite.c — cli_write_file / cli_replace: a report replaces a
 * regular file whole (exchanged, the old one unlinked), is created where
 * there is none, and never moves what is not a regular file (a directory
 * in its place is an error naming the path, left where it was). */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "profiler/data/profile_data.h"

static char *read_all(const char *path)
{
    char *text = NULL;
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    return text;
}

static gint by_name(gconstpointer x, gconstpointer y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The names in dir, sorted, joined by spaces. */
static char *names(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    g_assert_nonnull(d);
    GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
    const char *n;
    while ((n = g_dir_read_name(d)))
        g_ptr_array_add(a, g_strdup(n));
    g_dir_close(d);
    g_ptr_array_sort(a, by_name);
    g_ptr_array_add(a, NULL);
    char *s = g_strjoinv(" ", (char **)a->pdata);
    g_ptr_array_free(a, TRUE);
    return s;
}

static void test_replace_and_create(void)
{
    g_autofree char *dir = g_dir_make_tmp("np-cliwrite-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "summary.txt", NULL);
    GError *err = NULL;
    g_assert_true(cli_write_file(dir, "summary.txt", "first\n", 6, &err)); /* created */
    g_assert_no_error(err);
    g_autofree char *a = read_all(path);
    g_assert_cmpstr(a, ==, "first\n");
    g_assert_true(cli_write_file(dir, "summary.txt", "second, longer\n", 15, &err)); /* replaced */
    g_assert_no_error(err);
    g_autofree char *b = read_all(path);
    g_assert_cmpstr(b, ==, "second, longer\n");
    g_autofree char *n = names(dir);
    g_assert_cmpstr(n, ==, "summary.txt"); /* no temporary left, old or new */
    g_assert_cmpint(g_unlink(path), ==, 0);
    g_assert_cmpint(g_rmdir(dir), ==, 0);
}

static void test_directory_in_place(void)
{
    g_autofree char *dir = g_dir_make_tmp("np-cliwrite-XXXXXX", NULL);
    g_autofree char *sub = g_build_filename(dir, "report.html", NULL);
    g_autofree char *inner = g_build_filename(sub, "keep", NULL);
    g_assert_cmpint(g_mkdir(sub, 0755), ==, 0);
    g_assert_true(g_file_set_contents(inner, "mine", 4, NULL));
    GError *err = NULL;
    g_assert_false(cli_write_file(dir, "report.html", "<html>", 6, &err));
    g_assert_error(err, NOCPROF_ERROR, NOCPROF_ERROR_IO);
    g_assert_nonnull(strstr(err->message, sub)); /* names the path */
    g_clear_error(&err);
    g_autofree char *k = read_all(inner); /* the directory is where it was */
    g_assert_cmpstr(k, ==, "mine");
    g_autofree char *n = names(dir);
    g_assert_cmpstr(n, ==, "report.html"); /* and the temporary is gone */
    g_assert_cmpint(g_unlink(inner), ==, 0);
    g_assert_cmpint(g_rmdir(sub), ==, 0);
    g_assert_cmpint(g_rmdir(dir), ==, 0);
}

/* One core's data, encoded: function f at 0x80000000, a block of `first`
 * instructions there (5 runs), then 200 blocks of one instruction (block
 * i at word i + 11, i runs). */
static GBytes *block_data(uint32_t first)
{
    ProfileData d;
    profile_data_init(&d, 1);
    config_defaults(&d.cfg);
    d.cfg.mesh_width = d.cfg.mesh_height = 1;
    const Config *c = &d.cfg;
    NocConfig nc = { .width = 1, .height = 1, .router_latency = c->router_latency,
                     .link_latency = c->link_latency, .buffer_depth = c->buffer_depth,
                     .max_payload = c->max_payload, .tx_queue_flits = c->tx_queue_flits,
                     .rx_queue_flits = c->rx_queue_flits };
    Noc *noc = noc_new(&nc);
    d.noc = noc_stats(noc);
    noc_free(noc);
    Profile *p = g_new0(Profile, 1);
    static const char *names[] = { "f", "<idle>", "<interrupt>", "<unknown>" };
    p->nfuncs = G_N_ELEMENTS(names);
    p->funcs = g_new0(ProfFunc, p->nfuncs);
    for (unsigned i = 0; i < p->nfuncs; i++) {
        p->funcs[i].name = names[i];
        p->funcs[i].pseudo = i > 0;
        p->funcs[i].samples = g_new0(uint64_t, 1);
    }
    p->funcs[0].addr = 0x80000000u;
    p->funcs[0].size = 0x1000u;
    p->nblocks = 201;
    p->blocks = g_new0(ProfBlock, p->nblocks);
    p->blocks[0] = (ProfBlock){ .addr = 0x80000000u, .ninsns = first, .func = 0, .count = 5, .cycles = 5 * first };
    for (unsigned i = 1; i < p->nblocks; i++)
        p->blocks[i] = (ProfBlock){ .addr = 0x80000000u + 4 * (i + 11), .ninsns = 1, .func = 0, .count = i,
                                    .cycles = i };
    p->max_block_insns = first;
    p->instructions = p->cycles = p->busy_cycles = 5 * first + 200 * 201 / 2;
    p->funcs[0].self_cycles = p->funcs[0].inclusive_cycles = p->funcs[0].instructions = p->cycles;
    p->clock_hz = (double)d.cfg.clock_hz;
    p->nperiods = 1;   /* the configuration's, empty */
    p->hists = g_new0(ProfHist, 1);
    p->hists[0].period = d.cfg.periods[0];
    p->hists[0].ranges = g_new0(ProfRange, 1);
    p->hists[0].bins = g_new0(uint64_t, 1);
    d.profs[0] = p;
    d.cores[0].prof = p;
    d.cores[0].instructions = d.cores[0].cycles = d.cores[0].busy_cycles = p->cycles;
    d.cores[0].status = profile_data_intern(&d, "exited");
    d.cores[0].elf = profile_data_intern(&d, "f.elf");
    d.elf_abs[0] = g_strdup("/f.elf");
    d.elf_sha256[0] = g_strnfill(64, 'a');
    GBytes *bytes = profile_data_encode(&d);
    profile_data_clear(&d);
    return bytes;
}

static void block_decode(uint32_t first, ProfileData *e)
{
    GBytes *bytes = block_data(first);
    GError *err = NULL;
    bool ok = profile_data_decode(bytes, "t.data", e, &err);
    g_assert_no_error(err);
    g_assert_true(ok);
    g_bytes_unref(bytes);
}

/* Saved and loaded again, a profile still knows its longest block, and
 * so does a sum (nocprof merge): the range lookups (profile_first_block,
 * profile_insn_counts) of `nocprof report`, diff and merge search from
 * there instead of scanning every block for every function (quadratic:
 * 20,000 functions on 4 cores re-rendered in 2.9 s of CPU against the
 * run's 1.4 s). */
static void test_loaded_block_reach(void)
{
    ProfileData e, e20;
    block_decode(12, &e);
    const Profile *q = e.profs[0];
    g_assert_cmpuint(q->max_block_insns, ==, 12);
    g_assert_cmpuint(profile_first_block(q, 0x80000000u + 4 * 150), ==, 150 - 12 - 11);
    uint64_t counts[5];
    profile_insn_counts(q, 0x80000000u + 4 * 10, 3, counts);   /* 10, 11 in the first block; 12 */
    g_assert_cmpuint(counts[0], ==, 5);
    g_assert_cmpuint(counts[1], ==, 5);
    g_assert_cmpuint(counts[2], ==, 1);
    /* summed with a longer first block (20 instructions, 5 runs more) */
    block_decode(20, &e20);
    GError *err = NULL;
    g_assert_true(profile_sum(e.profs[0], e20.profs[0], &err));
    g_assert_no_error(err);
    g_assert_cmpuint(q->max_block_insns, ==, 20);
    profile_insn_counts(q, 0x80000000u + 4 * 16, 5, counts);   /* words 16 .. 20 */
    for (unsigned k = 0; k < 4; k++)
        g_assert_cmpuint(counts[k], ==, 5 + 2 * (16 + k - 11));
    g_assert_cmpuint(counts[4], ==, 2 * (20 - 11));
    profile_data_clear(&e20);
    profile_data_clear(&e);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cliwrite/replace-and-create", test_replace_and_create);
    g_test_add_func("/cliwrite/directory-in-place", test_directory_in_place);
    g_test_add_func("/cliwrite/loaded-block-reach", test_loaded_block_reach);
    return g_test_run();
}

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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cliwrite/replace-and-create", test_replace_and_create);
    g_test_add_func("/cliwrite/directory-in-place", test_directory_in_place);
    return g_test_run();
}

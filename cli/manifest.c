// SPDX-License-Identifier: GPL-2.0-or-later
/* manifest.c — OUT/.nocprof-manifest: the files nocprof wrote in an output
 * folder, one path relative to the folder per line. A run into a folder
 * that has one removes the files listed there that it did not write itself
 * (aliasing.* of a run with several periods, gmon-P.out of a period no longer
 * recorded, coreN/ of a core that no longer exists), then the folders left
 * empty; any file nocprof did not write is left alone. */
#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "base/file.h"
#include "cli/cli.h"

#define MANIFEST_NAME ".nocprof-manifest"
#define MANIFEST_MAX_SIZE (16u << 20)   /* ~100 bytes a file written */
#define MANIFEST_HEAD "# nocprof: files written by the last run into this folder (relative paths)\n"

/* A path a manifest may name: relative, inside the folder, not itself. */
static bool safe_path(const char *p)
{
    if (!*p || g_path_is_absolute(p) || strcmp(p, MANIFEST_NAME) == 0)
        return false;
    g_auto(GStrv) parts = g_strsplit(p, G_DIR_SEPARATOR_S, -1);
    for (char **c = parts; *c; c++)
        if (!**c || strcmp(*c, ".") == 0 || strcmp(*c, "..") == 0)
            return false;
    return true;
}

GPtrArray *manifest_read(const char *out)
{
    GPtrArray *list = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *path = g_build_filename(out, MANIFEST_NAME, NULL);
    g_autofree char *text = NULL;
    gsize len;
    /* read back: a FIFO there blocked the command for ever, /dev/zero was
     * read until memory ran out; such a file is no list */
    if (!base_read_regular(path, MANIFEST_MAX_SIZE, &text, &len, NOCPROF_ERROR_IO, NULL))
        return list;
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++)
        if (**l != '#' && safe_path(*l))
            g_ptr_array_add(list, g_strdup(*l));
    return list;
}

void manifest_prune(const char *out, const GPtrArray *before, const GPtrArray *now)
{
    g_autoptr(GHashTable) keep = g_hash_table_new(g_str_hash, g_str_equal);
    for (unsigned i = 0; i < now->len; i++)
        g_hash_table_add(keep, g_ptr_array_index(now, i));
    for (unsigned i = 0; i < before->len; i++) {
        const char *rel = g_ptr_array_index(before, i);
        if (g_hash_table_contains(keep, rel))
            continue;
        g_autofree char *path = g_build_filename(out, rel, NULL);
        g_unlink(path);
        /* then the folders it leaves empty (a non-empty one stays) */
        g_autofree char *dir = g_path_get_dirname(rel);
        while (strcmp(dir, ".") != 0) {
            g_autofree char *full = g_build_filename(out, dir, NULL);
            if (g_rmdir(full) != 0)
                break;
            char *up = g_path_get_dirname(dir);
            g_free(dir);
            dir = up;
        }
    }
}

bool manifest_write(const char *out, const GPtrArray *files, GError **error)
{
    GString *s = g_string_new(MANIFEST_HEAD);
    for (unsigned i = 0; i < files->len; i++)
        g_string_append_printf(s, "%s\n", (const char *)g_ptr_array_index(files, i));
    bool ok = cli_write_file(out, MANIFEST_NAME, s->str, s->len, error);
    g_string_free(s, TRUE);
    return ok;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* srcpath.c — source file lookup (see srcpath.h). */
#include "profiler/model/srcpath.h"

#include <string.h>

#include "base/error.h"
#include "base/file.h"

static GPtrArray *src_dirs;     /* char * */
static GPtrArray *src_maps;     /* char * pairs: old, new */

void srcpath_reset(void)
{
    if (src_dirs)
        g_ptr_array_free(src_dirs, TRUE);
    if (src_maps)
        g_ptr_array_free(src_maps, TRUE);
    src_dirs = src_maps = NULL;
}

bool srcpath_configure(char **dirs, char **maps, GError **error)
{
    srcpath_reset();
    src_dirs = g_ptr_array_new_with_free_func(g_free);
    src_maps = g_ptr_array_new_with_free_func(g_free);
    for (char **d = dirs; d && *d; d++)
        g_ptr_array_add(src_dirs, g_strdup(*d));
    for (char **m = maps; m && *m; m++) {
        const char *eq = strchr(*m, '=');
        if (!eq || eq == *m) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE,
                        "--source-map %s: expected OLD=NEW with a non-empty OLD", *m);
            srcpath_reset();
            return false;
        }
        g_ptr_array_add(src_maps, g_strndup(*m, (gsize)(eq - *m)));
        g_ptr_array_add(src_maps, g_strdup(eq + 1));
    }
    return true;
}

/* `path` with the first matching map applied, or NULL. OLD matches whole
 * leading components ("/a/b" matches "/a/b/c.c", not "/a/bc/c.c"). */
static char *apply_map(const char *path)
{
    for (guint i = 0; src_maps && i + 1 < src_maps->len; i += 2) {
        const char *old = src_maps->pdata[i], *new = src_maps->pdata[i + 1];
        size_t n = strlen(old);
        while (n > 1 && old[n - 1] == '/')
            n--;
        if (strncmp(path, old, n) == 0 && (path[n] == '/' || path[n] == '\0'))
            return g_strconcat(new, path + n, NULL);
    }
    return NULL;
}

static void add_unique(GPtrArray *c, char *path)
{
    for (guint i = 0; i < c->len; i++)
        if (strcmp(c->pdata[i], path) == 0) {
            g_free(path);
            return;
        }
    g_ptr_array_add(c, path);
}

/* Every candidate path for `file`, in lookup order. */
static GPtrArray *candidates(const char *file)
{
    GPtrArray *c = g_ptr_array_new_with_free_func(g_free);
    char *mapped = apply_map(file);
    const char *bases[2] = { mapped ? mapped : file, mapped ? file : NULL };
    for (int b = 0; b < 2 && bases[b]; b++)
        add_unique(c, g_strdup(bases[b]));
    for (guint d = 0; src_dirs && d < src_dirs->len; d++)
        for (int b = 0; b < 2 && bases[b]; b++) {
            if (!g_path_is_absolute(bases[b]))
                add_unique(c, g_build_filename(src_dirs->pdata[d], bases[b], NULL));
            char *base = g_path_get_basename(bases[b]);
            add_unique(c, g_build_filename(src_dirs->pdata[d], base, NULL));
            g_free(base);
        }
    g_free(mapped);
    return c;
}

char *srcpath_read(const char *file, gsize *len, char **used, GPtrArray *tried)
{
    GPtrArray *c = candidates(file);
    char *text = NULL;
    if (used)
        *used = NULL;
    for (guint i = 0; i < c->len && !text; i++) {
        const char *p = c->pdata[i];
        if (tried)
            g_ptr_array_add(tried, g_strdup(p));
        gsize n;
        if (!base_read_regular(p, SRCPATH_MAX_FILE, &text, &n, NOCPROF_ERROR_IO, NULL))
            continue;
        if (len)
            *len = n;
        if (used)
            *used = g_strdup(p);
    }
    g_ptr_array_free(c, TRUE);
    return text;
}

char *srcpath_find(const char *file)
{
    GPtrArray *c = candidates(file);
    const char *found = c->len ? c->pdata[0] : file;
    for (guint i = 0; i < c->len; i++)
        if (g_file_test(c->pdata[i], G_FILE_TEST_IS_REGULAR)) {
            found = c->pdata[i];
            break;
        }
    char *abs = g_canonicalize_filename(found, NULL);
    g_ptr_array_free(c, TRUE);
    return abs;
}

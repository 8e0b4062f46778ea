// SPDX-License-Identifier: GPL-2.0-or-later
/* fname.c — command-line function names against a profile's (fname.h). */
#include "profiler/model/fname.h"

#include "base/name.h"

#include <string.h>

/* The clone suffixes GCC appends (ipa-clones, tree-sra, ipa-split,
 * hot/cold partitioning, LTO privatisation); each may be followed by
 * ".N". */
static const char *const clone_kinds[] = { "constprop", "isra", "part", "cold", "lto_priv", "clone", "localalias",
                                           "specialized" };

/* Length of the clone suffix ".kind[.N]" at s, or 0. */
static size_t clone_suffix(const char *s)
{
    if (s[0] != '.')
        return 0;
    for (unsigned k = 0; k < G_N_ELEMENTS(clone_kinds); k++) {
        size_t n = strlen(clone_kinds[k]);
        if (strncmp(s + 1, clone_kinds[k], n) != 0 || (s[1 + n] != '\0' && s[1 + n] != '.'))
            continue;
        size_t len = 1 + n;
        if (s[len] == '.' && g_ascii_isdigit(s[len + 1])) {
            len++;
            while (g_ascii_isdigit(s[len]))
                len++;
        }
        return len;
    }
    return 0;
}

char *fname_source(const char *name)
{
    const char *dot = strchr(name, '.');
    if (!dot || dot == name)
        return NULL;
    for (const char *s = dot; *s;) {
        size_t n = clone_suffix(s);
        if (!n)
            return NULL;   /* not only clone suffixes after the first dot */
        s += n;
    }
    return g_strndup(name, (gsize)(dot - name));
}

bool fname_match(const char *sym, const char *query, bool *clone)
{
    if (clone)
        *clone = false;
    if (strcmp(sym, query) == 0)
        return true;
    size_t q = strlen(query);
    if (strncmp(sym, query, q) != 0 || sym[q] != '.')
        return false;
    g_autofree char *src = fname_source(sym);
    if (!src || strcmp(src, query) != 0)
        return false;
    if (clone)
        *clone = true;
    return true;
}

typedef struct Cand {
    const char *name;
    unsigned score;
} Cand;

static gint cand_cmp(gconstpointer x, gconstpointer y)
{
    const Cand *a = x, *b = y;
    if (a->score != b->score)
        return a->score < b->score ? -1 : 1;
    return strcmp(a->name, b->name);
}

char *fname_suggest(const char *query, const char *const *names, unsigned n)
{
    unsigned max = MAX(1u, (unsigned)strlen(query) / 3);
    GArray *c = g_array_new(FALSE, FALSE, sizeof(Cand));
    GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
    for (unsigned i = 0; i < n; i++) {
        const char *nm = names[i];
        if (!nm || nm[0] == '<')
            continue;
        char *src = fname_source(nm);   /* a clone is suggested by its source name */
        const char *shown = src ? g_intern_string(src) : nm;
        g_free(src);
        if (!g_hash_table_add(seen, (gpointer)shown))
            continue;
        unsigned d = name_edit_distance(shown, query, max);
        if (d <= max) {
            Cand x = { shown, d };
            g_array_append_val(c, x);
        }
    }
    g_array_sort(c, cand_cmp);
    GString *o = g_string_new(NULL);
    for (guint i = 0; i < c->len && i < 3; i++)
        g_string_append_printf(o, "%s%s", i ? ", " : "; did you mean ", g_array_index(c, Cand, i).name);
    if (o->len)
        g_string_append_c(o, '?');
    g_array_free(c, TRUE);
    g_hash_table_destroy(seen);
    return g_string_free(o, FALSE);
}

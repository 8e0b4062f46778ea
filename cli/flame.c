// SPDX-License-Identifier: GPL-2.0-or-later
/* flame.c — report.html's flame data from the folded trees that
 * stacks.folded is written from (cli_flame_json, cli.h), the same bytes as
 * html_flame_json makes from their text. */
#include <string.h>

#include "cli/cli.h"
#include "profiler/formats/folded.h"
#include "web/html_report.h"

/* Whether no two functions on f's paths have one name as the page shows
 * it: then no two children of a node share a name (the folded tree has
 * one child per function) and nothing of that core is merged by name. */
static bool names_distinct(const Folded *f)
{
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    bool distinct = true;
    for (unsigned fn = 0; distinct && fn < folded_funcs(f); fn++) {
        size_t len;
        const char *s = folded_name(f, fn, &len);
        distinct = !s || g_hash_table_add(seen, html_flame_unfold(s, len));
    }
    g_hash_table_destroy(seen);
    return distinct;
}

/* The frames in the order html_flame_json meets them in the lines: a
 * line's frames that an earlier line made are known by their folded node,
 * only the others are looked up (by name only when two functions share
 * one), root first, each function's name unfolded once. */
GString *cli_flame_json(Folded *const *f, const char *const *prefix, unsigned ncores, unsigned depth)
{
    HtmlFlame *fl = html_flame_new();
    guint most = ncores;   /* a root frame per core and at most a node per folded node */
    for (unsigned i = 0; i < ncores; i++)
        most += f[i] ? folded_nodes(f[i]) : 0;
    html_flame_reserve(fl, most);
    unsigned up[FOLDED_MAX_DEPTH + 1];   /* a path's frames not made yet, leaf first */
    for (unsigned i = 0; i < ncores; i++) {
        unsigned n = f[i] ? folded_nodes(f[i]) : 0, nf = f[i] ? folded_funcs(f[i]) : 0;
        int64_t *node = g_new(int64_t, n ? n : 1), root = -1;     /* -1: not made yet */
        unsigned *name = g_new(unsigned, nf ? nf : 1);             /* G_MAXUINT: not looked up */
        memset(node, 0xff, sizeof *node * (n ? n : 1));
        memset(name, 0xff, sizeof *name * (nf ? nf : 1));
        bool distinct = n && names_distinct(f[i]);
        const FoldedNode *fn = n ? folded_node_array(f[i]) : NULL;
        const uint64_t *sub = n ? folded_subtrees(f[i], depth) : NULL;
        for (unsigned k = 0; k < n; k++) {
            uint64_t v = folded_node_count(fn, sub, k, depth);
            if (!v)
                continue;
            if (root < 0)
                root = html_flame_child(fl, -1, html_flame_name(fl, g_strdup(prefix[i])));
            unsigned a = k, nup = 0;
            while (node[a] < 0) {
                up[nup++] = a;
                if (a == 0)
                    break;
                a = fn[a].parent;
            }
            int64_t at = node[a] >= 0 ? node[a] : root;
            bool added = false;
            while (nup) {
                unsigned b = up[--nup], fu = fn[b].func;
                if (name[fu] == G_MAXUINT) {
                    size_t len;
                    const char *s = folded_name(f[i], fu, &len);
                    name[fu] = html_flame_name(fl, html_flame_unfold(s, len));
                }
                if (distinct && !nup) {   /* the line's own node, new: its count with it */
                    at = html_flame_new_leaf(fl, at, name[fu], v);
                    added = true;
                } else {
                    at = distinct ? html_flame_new_child(fl, at, name[fu]) : html_flame_child(fl, at, name[fu]);
                }
                node[b] = at;
            }
            if (!added)
                html_flame_add(fl, at, v);
        }
        g_free(node);
        g_free(name);
    }
    return html_flame_finish(fl);
}

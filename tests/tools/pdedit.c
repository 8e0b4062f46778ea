// SPDX-License-Identifier: GPL-2.0-or-later
/* pdedit.c — a test tool: rewrite fields of a saved profile.data to make
 * hostile inputs for tests/e2e/test_robust.py and the fuzz_profile corpus.
 *
 *   pdedit IN OUT [PATH=VALUE]...
 *   pdedit IN PATH        prints the value at PATH (GVariant text)
 *
 * PATH is a list of child indexes into the payload's GVariant (PD_TOP, see
 * profiler/data/profile_data_types.h), dot-separated: 9.0.26.0.7.0.3 is
 * cores[0].profile(maybe).arcs[0].count. VALUE is GVariant text of the
 * leaf's type ("9223372036854775808" for a t, "'[[[[...'" for a string);
 * "@nest:N" instead makes a string of N '[' (a deeply nested JSON). The
 * header's length is rewritten; nothing is validated. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/data/profile_data_types.h"

static GVariant *replace(GVariant *v, char **path, GVariant *leaf)
{
    if (!*path)
        return leaf;
    gsize n = g_variant_n_children(v), k = strtoul(*path, NULL, 10);
    if (k >= n) {
        fprintf(stderr, "pdedit: index %s of %" G_GSIZE_FORMAT " children (%s)\n", *path, n,
                g_variant_get_type_string(v));
        exit(2);
    }
    GVariant **kids = g_new(GVariant *, n + 1);
    for (gsize i = 0; i < n; i++)
        kids[i] = g_variant_get_child_value(v, i);
    GVariant *old = kids[k];
    if (!path[1] && leaf == NULL) {
        fprintf(stderr, "pdedit: no value\n");
        exit(2);
    }
    kids[k] = replace(old, path + 1, leaf);
    if (kids[k] != old)
        g_variant_unref(old);
    const GVariantType *t = g_variant_get_type(v);
    GVariant *out;
    if (g_variant_type_is_tuple(t))
        out = g_variant_new_tuple(kids, n);
    else if (g_variant_type_is_array(t))
        out = g_variant_new_array(g_variant_type_element(t), kids, n);
    else if (g_variant_type_is_maybe(t))
        out = g_variant_new_maybe(NULL, kids[0]);
    else if (g_variant_type_is_dict_entry(t))
        out = g_variant_new_dict_entry(kids[0], kids[1]);
    else {
        fprintf(stderr, "pdedit: cannot descend into %s\n", g_variant_get_type_string(v));
        exit(2);
    }
    g_free(kids);
    return out;
}

/* The type of the leaf at path. */
static const GVariantType *leaf_type(GVariant *v, char **path)
{
    for (; *path; path++)
        v = g_variant_get_child_value(v, strtoul(*path, NULL, 10)); /* leaked: a test tool */
    return g_variant_get_type(v);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: pdedit IN OUT [PATH=VALUE]...\n");
        return 2;
    }
    char *text;
    gsize len;
    if (!g_file_get_contents(argv[1], &text, &len, NULL) || len < PD_HEADER) {
        fprintf(stderr, "pdedit: cannot read %s\n", argv[1]);
        return 2;
    }
    GBytes *payload = g_bytes_new(text + PD_HEADER, len - PD_HEADER);
    GVariant *top = g_variant_ref_sink(g_variant_new_from_bytes(G_VARIANT_TYPE(PD_TOP), payload, FALSE));
    if (argc == 3 && !strchr(argv[2], '=')) {
        char **path = g_strsplit(argv[2], ".", -1);
        GVariant *v = top;
        for (char **p = path; *p; p++)
            v = g_variant_get_child_value(v, strtoul(*p, NULL, 10));
        char *out = g_variant_print(v, FALSE);
        printf("%s\n", out);
        return 0;
    }
    for (int a = 3; a < argc; a++) {
        char *eq = strchr(argv[a], '=');
        if (!eq) {
            fprintf(stderr, "pdedit: %s: PATH=VALUE\n", argv[a]);
            return 2;
        }
        *eq = 0;
        char **path = g_strsplit(argv[a], ".", -1);
        GVariant *leaf;
        if (g_str_has_prefix(eq + 1, "@nest:")) {
            gsize n = strtoul(eq + 7, NULL, 10);
            char *s = g_malloc(n + 1);
            memset(s, '[', n);
            s[n] = 0;
            leaf = g_variant_new_take_string(s);
            if (g_variant_type_is_maybe(leaf_type(top, path)))
                leaf = g_variant_new_maybe(NULL, leaf);
        } else {
            GError *e = NULL;
            leaf = g_variant_parse(leaf_type(top, path), eq + 1, NULL, NULL, &e);
            if (!leaf) {
                fprintf(stderr, "pdedit: %s: %s\n", eq + 1, e->message);
                return 2;
            }
        }
        GVariant *next = g_variant_ref_sink(replace(top, path, leaf));
        g_variant_unref(top);
        top = next;
        g_strfreev(path);
    }
    gsize plen = g_variant_get_size(top);
    guint8 *buf = g_malloc(PD_HEADER + plen);
    memcpy(buf, text, PD_HEADER);
    guint64 l64 = GUINT64_TO_LE((guint64)plen);
    memcpy(buf + 16, &l64, 8);
    g_variant_store(top, buf + PD_HEADER);
    if (!g_file_set_contents(argv[2], (const char *)buf, (gssize)(PD_HEADER + plen), NULL)) {
        fprintf(stderr, "pdedit: cannot write %s\n", argv[2]);
        return 2;
    }
    return 0;
}


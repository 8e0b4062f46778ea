// SPDX-License-Identifier: GPL-2.0-or-later
/* base/json.c — JSON conventions over json-glib (see json.h). */
#include "base/json.h"

#include <math.h>
#include <string.h>

/* s, or a valid UTF-8 copy of it in *tmp. */
static const char *valid_utf8(const char *s, char **tmp)
{
    *tmp = NULL;
    if (g_utf8_validate(s, -1, NULL))
        return s;
    return *tmp = g_utf8_make_valid(s, -1);
}

void npjson_string(JsonBuilder *b, const char *s)
{
    if (!s) {
        json_builder_add_null_value(b);
        return;
    }
    g_autofree char *tmp = NULL;
    json_builder_add_string_value(b, valid_utf8(s, &tmp));
}

void npjson_double(JsonBuilder *b, double v)
{
    if (!isfinite(v)) {
        json_builder_add_null_value(b);
        return;
    }
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    json_builder_add_double_value(b, g_ascii_strtod(g_ascii_formatd(buf, sizeof buf, "%.6g", v), NULL));
}

void npjson_member_string(JsonBuilder *b, const char *name, const char *s)
{
    json_builder_set_member_name(b, name);
    npjson_string(b, s);
}

void npjson_member_u64(JsonBuilder *b, const char *name, uint64_t v)
{
    json_builder_set_member_name(b, name);
    json_builder_add_int_value(b, (gint64)v);
}

void npjson_member_i64(JsonBuilder *b, const char *name, int64_t v)
{
    json_builder_set_member_name(b, name);
    json_builder_add_int_value(b, v);
}

void npjson_member_double(JsonBuilder *b, const char *name, double v)
{
    json_builder_set_member_name(b, name);
    npjson_double(b, v);
}

void npjson_member_bool(JsonBuilder *b, const char *name, bool v)
{
    json_builder_set_member_name(b, name);
    json_builder_add_boolean_value(b, v);
}

void npjson_member_object(JsonBuilder *b, const char *name)
{
    json_builder_set_member_name(b, name);
    json_builder_begin_object(b);
}

void npjson_member_array(JsonBuilder *b, const char *name)
{
    json_builder_set_member_name(b, name);
    json_builder_begin_array(b);
}

void npjson_u64(JsonBuilder *b, uint64_t v)
{
    json_builder_add_int_value(b, (gint64)v);
}

void npjson_i64(JsonBuilder *b, int64_t v)
{
    json_builder_add_int_value(b, v);
}

void npjson_null(JsonBuilder *b)
{
    json_builder_add_null_value(b);
}

void npjson_member_null(JsonBuilder *b, const char *name)
{
    json_builder_set_member_name(b, name);
    json_builder_add_null_value(b);
}

GString *npjson_finish(JsonBuilder *b)
{
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    g_object_unref(b);
    g_autoptr(JsonGenerator) gen = json_generator_new();
    json_generator_set_root(gen, root);
    GString *out = g_string_new(NULL);
    json_generator_to_gstring(gen, out);
    g_string_append_c(out, '\n');
    return out;
}

char *npjson_render(JsonBuilder *b)
{
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    json_builder_reset(b);
    return json_to_string(root, FALSE);
}

/* A fragment's marker is a string no document holds by chance: a random
 * tag per document (json-glib writes its \001 bytes as \u0001). */
struct NpJsonFragments {
    GPtrArray *texts;
    guint32 tag;
};
#define FRAGMENT_MARK "\001nocprof-fragment-%08x-%u\001"
#define FRAGMENT_MARK_JSON "\"\\u0001nocprof-fragment-%08x-%u\\u0001\""

NpJsonFragments *npjson_fragments_new(void)
{
    NpJsonFragments *f = g_new(NpJsonFragments, 1);
    f->texts = g_ptr_array_new_with_free_func(g_free);
    f->tag = g_random_int();
    return f;
}

void npjson_fragment(JsonBuilder *b, NpJsonFragments *f, char *text)
{
    char mark[64];
    g_snprintf(mark, sizeof mark, FRAGMENT_MARK, f->tag, f->texts->len);
    json_builder_add_string_value(b, mark);
    g_ptr_array_add(f->texts, text);
}

GString *npjson_finish_fragments(JsonBuilder *b, NpJsonFragments *f)
{
    GString *doc = npjson_finish(b);
    gsize total = doc->len;
    for (unsigned k = 0; k < f->texts->len; k++)
        total += strlen(f->texts->pdata[k]);
    GString *out = g_string_sized_new(total + 1);
    const char *p = doc->str;
    for (unsigned k = 0; k < f->texts->len; k++) {
        char mark[64];
        g_snprintf(mark, sizeof mark, FRAGMENT_MARK_JSON, f->tag, k);
        const char *at = strstr(p, mark);
        g_assert(at);   /* each fragment once, in order */
        g_string_append_len(out, p, at - p);
        g_string_append(out, f->texts->pdata[k]);
        g_clear_pointer(&f->texts->pdata[k], g_free);   /* freed as we go */
        p = at + strlen(mark);
    }
    g_string_append(out, p);
    g_string_free(doc, TRUE);
    g_ptr_array_unref(f->texts);
    g_free(f);
    return out;
}

char *npjson_quote(const char *s)
{
    g_autofree char *tmp = NULL;
    g_autoptr(JsonNode) node = json_node_init_string(json_node_alloc(), valid_utf8(s ? s : "", &tmp));
    return json_to_string(node, FALSE);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* base/json.c — JSON conventions over json-glib (see json.h). */
#include "base/json.h"

#include <math.h>

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

void npjson_member_node(JsonBuilder *b, const char *name, JsonNode *node)
{
    json_builder_set_member_name(b, name);
    json_builder_add_value(b, node);
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

char *npjson_quote(const char *s)
{
    g_autofree char *tmp = NULL;
    g_autoptr(JsonNode) node = json_node_init_string(json_node_alloc(), valid_utf8(s ? s : "", &tmp));
    return json_to_string(node, FALSE);
}

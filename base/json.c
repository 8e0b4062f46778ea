// SPDX-License-Identifier: GPL-2.0-or-later
/* base/json.c — the streaming JSON writer (see json.h). */
#include "base/json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "base/num.h"

/* Nesting deeper than this is a bug of the writer, not of the data. */
#define NPJSON_MAX_DEPTH 64

struct NpJson {
    GString *out;
    FILE *sink;                        /* npjson_new_file: out goes here */
    bool sink_failed;
    unsigned depth;
    bool named;                        /* a member name was just written */
    bool empty[NPJSON_MAX_DEPTH + 1];  /* nothing yet at this level */
};

NpJson *npjson_new(void)
{
    NpJson *b = g_new0(NpJson, 1);
    b->out = g_string_sized_new(4096);
    b->empty[0] = true;
    return b;
}

NpJson *npjson_new_file(FILE *f)
{
    NpJson *b = npjson_new();
    b->sink = f;
    return b;
}

/* A file writer hands its text on a MiB at a time, between values. */
static void spill(NpJson *b)
{
    if (!b->sink || b->out->len < (1u << 20))
        return;
    if (fwrite(b->out->str, 1, b->out->len, b->sink) != b->out->len)
        b->sink_failed = true;
    g_string_truncate(b->out, 0);
}

bool npjson_finish_file(NpJson *b)
{
    g_assert(b->depth == 0 && b->sink);
    g_string_append_c(b->out, '\n');
    bool ok = !b->sink_failed && fwrite(b->out->str, 1, b->out->len, b->sink) == b->out->len;
    npjson_free(b);
    return ok;
}

GString *npjson_finish(NpJson *b)
{
    g_assert(b->depth == 0);
    GString *out = b->out;
    g_free(b);
    g_string_append_c(out, '\n');
    return out;
}

char *npjson_take(NpJson *b)
{
    g_assert(b->depth == 0);
    GString *out = b->out;
    g_free(b);
    return g_string_free(out, FALSE);
}

void npjson_free(NpJson *b)
{
    if (!b)
        return;
    g_string_free(b->out, TRUE);
    g_free(b);
}

/* Before any value: the comma after the previous one of its level. */
static void value(NpJson *b)
{
    if (b->named)
        b->named = false;
    else if (!b->empty[b->depth])
        g_string_append_c(b->out, ',');
    b->empty[b->depth] = false;
}

/* json-glib's escaping (json_strescape), with 0x1f escaped too. */
static void escape(GString *out, const char *s)
{
    g_string_append_c(out, '"');
    const char *run = s;
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f)
            continue;
        g_string_append_len(out, run, p - run);
        run = p + 1;
        switch (c) {
        case '"': g_string_append(out, "\\\""); break;
        case '\\': g_string_append(out, "\\\\"); break;
        case '\b': g_string_append(out, "\\b"); break;
        case '\f': g_string_append(out, "\\f"); break;
        case '\n': g_string_append(out, "\\n"); break;
        case '\r': g_string_append(out, "\\r"); break;
        case '\t': g_string_append(out, "\\t"); break;
        default: g_string_append_printf(out, "\\u00%02x", c); break;
        }
    }
    g_string_append(out, run);
    g_string_append_c(out, '"');
}

/* s, valid UTF-8 (each invalid byte as U+FFFD), quoted. */
void npjson_append_quoted(GString *out, const char *s)
{
    if (!s)
        s = "";
    if (g_utf8_validate(s, -1, NULL)) {
        escape(out, s);
        return;
    }
    g_autofree char *valid = g_utf8_make_valid(s, -1);
    escape(out, valid);
}

char *npjson_quote(const char *s)
{
    GString *out = g_string_new(NULL);
    npjson_append_quoted(out, s);
    return g_string_free(out, FALSE);
}

static void open_level(NpJson *b, char c)
{
    value(b);
    g_string_append_c(b->out, c);
    g_assert(b->depth < NPJSON_MAX_DEPTH);
    b->empty[++b->depth] = true;
}

static void close_level(NpJson *b, char c)
{
    g_assert(b->depth > 0 && !b->named);
    b->depth--;
    g_string_append_c(b->out, c);
}

void npjson_begin_object(NpJson *b)
{
    open_level(b, '{');
}

void npjson_end_object(NpJson *b)
{
    close_level(b, '}');
    spill(b);
}

void npjson_begin_array(NpJson *b)
{
    open_level(b, '[');
}

void npjson_end_array(NpJson *b)
{
    close_level(b, ']');
}

void npjson_string(NpJson *b, const char *s)
{
    if (!s) {
        npjson_null(b);
        return;
    }
    value(b);
    npjson_append_quoted(b->out, s);
}

/* Rounded to 6 significant digits, then written as json-glib writes a
 * double: the shortest text that reads back the same (g_ascii_dtostr),
 * with ".0" when that text would read as an integer. */
void npjson_double(NpJson *b, double v)
{
    if (!isfinite(v)) {
        npjson_null(b);
        return;
    }
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    double r = g_ascii_strtod(g_ascii_formatd(buf, sizeof buf, "%.6g", v), NULL);
    value(b);
    g_string_append(b->out, g_ascii_dtostr(buf, sizeof buf, r));
    if (!strpbrk(buf, ".eE"))
        g_string_append(b->out, ".0");
}

void npjson_u64(NpJson *b, uint64_t v)
{
    npjson_i64(b, (int64_t)v);   /* as json-glib: a gint64 */
}

void npjson_i64(NpJson *b, int64_t v)
{
    char buf[24], *w = buf;   /* "%" PRId64 without a printf (issue 24) */
    if (v < 0)
        *w++ = '-';
    w = num_put_u64(w, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
    value(b);
    g_string_append_len(b->out, buf, w - buf);
}

void npjson_bool(NpJson *b, bool v)
{
    value(b);
    g_string_append(b->out, v ? "true" : "false");
}

void npjson_null(NpJson *b)
{
    value(b);
    g_string_append(b->out, "null");
}

void npjson_raw(NpJson *b, const char *json)
{
    value(b);
    g_string_append(b->out, json);
}

void npjson_member(NpJson *b, const char *name)
{
    g_assert(b->depth > 0 && !b->named);
    value(b);
    escape(b->out, name);
    g_string_append_c(b->out, ':');
    b->named = true;
}

void npjson_member_string(NpJson *b, const char *name, const char *s)
{
    npjson_member(b, name);
    npjson_string(b, s);
}

void npjson_member_u64(NpJson *b, const char *name, uint64_t v)
{
    npjson_member(b, name);
    npjson_u64(b, v);
}

void npjson_member_i64(NpJson *b, const char *name, int64_t v)
{
    npjson_member(b, name);
    npjson_i64(b, v);
}

void npjson_member_double(NpJson *b, const char *name, double v)
{
    npjson_member(b, name);
    npjson_double(b, v);
}

void npjson_member_bool(NpJson *b, const char *name, bool v)
{
    npjson_member(b, name);
    npjson_bool(b, v);
}

void npjson_member_null(NpJson *b, const char *name)
{
    npjson_member(b, name);
    npjson_null(b);
}

void npjson_member_raw(NpJson *b, const char *name, const char *json)
{
    npjson_member(b, name);
    npjson_raw(b, json);
}

void npjson_member_object(NpJson *b, const char *name)
{
    npjson_member(b, name);
    npjson_begin_object(b);
}

void npjson_member_array(NpJson *b, const char *name)
{
    npjson_member(b, name);
    npjson_begin_array(b);
}

bool npjson_depth_ok(const char *text, int max_depth)
{
    int depth = 0;
    bool in_string = false;
    for (const char *c = text; *c; c++) {
        if (in_string) {
            if (*c == '\\' && c[1])
                c++;
            else if (*c == '"')
                in_string = false;
        } else if (*c == '"')
            in_string = true;
        else if ((*c == '[' || *c == '{') && ++depth > max_depth)
            return false;
        else if (*c == ']' || *c == '}')
            depth--;
    }
    return true;
}

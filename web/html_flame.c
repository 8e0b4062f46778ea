// SPDX-License-Identifier: GPL-2.0-or-later
/* html_flame.c — report.html's flame data: the tree the page's flame graphs
 * draw, made from stacks.folded's lines (see html_report.h). */
#include "web/html_report.h"

#include <inttypes.h>
#include <string.h>

#include "base/json.h"
#include "base/num.h"

/* 16 bytes: a node per folded node, 66,000 on hof30 (issue 24's page
 * faults); fewer than G_MAXUINT nodes (guint len), so parent + 1 fits. */
typedef struct FlameNode {
    guint up;                  /* parent + 1, 0: a root frame (coreN) */
    unsigned name;
    uint64_t value;
} FlameNode;
G_STATIC_ASSERT(sizeof(FlameNode) == 16);

struct HtmlFlame {
    GHashTable *names;         /* name -> index + 1 */
    GPtrArray *list;           /* names in order of first use */
    GHashTable *kids;          /* (parent + 1) << 32 | name -> node + 1 */
    FlameNode *nodes;          /* [len], parents first, room for cap */
    guint len, cap;
};

static guint key_hash(gconstpointer key)
{
    guint64 k = (guint64)GPOINTER_TO_SIZE(key);
    return (guint)((k * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15)) >> 32);
}

HtmlFlame *html_flame_new(void)
{
    G_STATIC_ASSERT(sizeof(gpointer) >= sizeof(guint64)); /* the node keys */
    HtmlFlame *f = g_new(HtmlFlame, 1);
    f->names = g_hash_table_new(g_str_hash, g_str_equal);
    f->list = g_ptr_array_new_with_free_func(g_free);
    f->kids = g_hash_table_new(key_hash, g_direct_equal);
    f->nodes = NULL;
    f->len = f->cap = 0;
    return f;
}

char *html_flame_unfold(const char *s, gsize n)
{
    GString *o = g_string_sized_new(n);
    for (gsize i = 0; i < n; i++)
        if (i + 3 < n && s[i] == '\\' && s[i + 1] == 'x'
            && ((s[i + 2] == '3' && s[i + 3] == 'b') || (s[i + 2] == '2' && s[i + 3] == '0'))) {
            g_string_append_c(o, s[i + 2] == '3' ? ';' : ' ');
            i += 3;
        } else {
            g_string_append_c(o, s[i]);
        }
    return g_string_free(o, FALSE);
}

unsigned html_flame_name(HtmlFlame *f, char *name)
{
    gpointer v = g_hash_table_lookup(f->names, name);
    if (v) {
        g_free(name);
    } else {
        g_ptr_array_add(f->list, name);
        v = GUINT_TO_POINTER(f->list->len);
        g_hash_table_insert(f->names, name, v);
    }
    return GPOINTER_TO_UINT(v) - 1;
}

int64_t html_flame_child(HtmlFlame *f, int64_t parent, unsigned name)
{
    gpointer key = GSIZE_TO_POINTER(((guint64)(parent + 1) << 32) | name);
    gpointer v = g_hash_table_lookup(f->kids, key);
    if (v)
        return (int64_t)GPOINTER_TO_SIZE(v) - 1;
    int64_t n = html_flame_new_child(f, parent, name);
    g_hash_table_insert(f->kids, key, GSIZE_TO_POINTER(f->len));
    return n;
}

void html_flame_reserve(HtmlFlame *f, guint nodes)
{
    if (nodes > f->cap) {
        f->cap = nodes;
        f->nodes = g_renew(FlameNode, f->nodes, f->cap);
    }
}

int64_t html_flame_new_leaf(HtmlFlame *f, int64_t parent, unsigned name, uint64_t count)
{
    if (f->len == f->cap) {   /* a GArray append per node cost more than the rest */
        f->cap = MAX(64, 2 * f->cap);
        f->nodes = g_renew(FlameNode, f->nodes, f->cap);
    }
    f->nodes[f->len] = (FlameNode){ (guint)(parent + 1), name, count };
    return f->len++;
}

int64_t html_flame_new_child(HtmlFlame *f, int64_t parent, unsigned name)
{
    return html_flame_new_leaf(f, parent, name, 0);
}

void html_flame_add(HtmlFlame *f, int64_t node, uint64_t count)
{
    f->nodes[node].value += count;
}

/* The text's reader: a frame's bytes -> name index + 1 (no copy once they
 * are known), the frame being looked up. */
typedef struct Flame {
    HtmlFlame *t;
    GHashTable *raw;
    GString *scratch;
} Flame;

/* The index of the frame s[0..n): by its bytes, then by its name (two
 * spellings of one name are one name). */
static unsigned name_index(Flame *f, const char *s, gsize n)
{
    g_string_truncate(f->scratch, 0);
    g_string_append_len(f->scratch, s, (gssize)n);
    gpointer v = g_hash_table_lookup(f->raw, f->scratch->str);
    if (v)
        return GPOINTER_TO_UINT(v) - 1;
    unsigned i = html_flame_name(f->t, html_flame_unfold(s, n));
    g_hash_table_insert(f->raw, g_strdup(f->scratch->str), GUINT_TO_POINTER(i + 1));
    return i;
}

/* The previous line's path: where each frame ends and its node. Lines of
 * deep recursion are long and share all but their last frames with the
 * line before (folded_write's order), so only the frames after the
 * shared prefix are looked up: the text is compared, not hashed. */
typedef struct Prev {
    const char *s;
    gsize len;                 /* bytes of its path */
    GArray *end, *node;        /* gsize, int64_t: per frame */
} Prev;

/* One line "a;b;c COUNT": the path's frames, then its count added to the
 * last one. A line without " COUNT" at its end is skipped (as the page
 * skipped it). */
static void add_line(Flame *f, Prev *pv, const char *s, gsize n)
{
    const char *sp = NULL;
    for (gsize i = n; i-- > 0;)
        if (s[i] == ' ') {
            sp = s + i;
            break;
        } else if (s[i] < '0' || s[i] > '9') {
            return;
        }
    if (!sp || sp == s + n - 1)
        return;
    uint64_t count = g_ascii_strtoull(sp + 1, NULL, 10);
    gsize len = (gsize)(sp - s), same = 0, max = MIN(len, pv->len);
    for (uint64_t a, b; same + 8 <= max; same += 8) {   /* a word at a time, then bytes */
        memcpy(&a, s + same, 8);
        memcpy(&b, pv->s + same, 8);
        if (a != b)
            break;
    }
    while (same < max && s[same] == pv->s[same])
        same++;
    /* the previous line's frames that end within the common bytes, at a
     * frame boundary of this line too */
    guint keep = 0;
    while (keep < pv->end->len) {
        gsize e = g_array_index(pv->end, gsize, keep);
        if (e > same || (e == same && e < len && s[e] != ';') || (e == same && e == len && same != len))
            break;
        keep++;
    }
    g_array_set_size(pv->end, keep);
    g_array_set_size(pv->node, keep);
    int64_t node = keep ? g_array_index(pv->node, int64_t, keep - 1) : -1;
    gsize at = keep ? g_array_index(pv->end, gsize, keep - 1) + 1 : 0;
    if (keep && g_array_index(pv->end, gsize, keep - 1) == len)
        at = len + 1;          /* the whole path is shared */
    while (at <= len) {
        const char *semi = memchr(s + at, ';', len - at);
        gsize end = semi ? (gsize)(semi - s) : len;
        node = html_flame_child(f->t, node, name_index(f, s + at, end - at));
        g_array_append_val(pv->end, end);
        g_array_append_val(pv->node, node);
        at = end + 1;
    }
    pv->s = s;
    pv->len = len;
    html_flame_add(f->t, node, count);
}

/* v in decimal then c at w, returning the end (a printf per number cost
 * more than building the tree) */
static inline char *put_uint(char *w, uint64_t v, char c)
{
    w = num_put_u64(w, v);
    *w = c;
    return w + 1;
}

GString *html_flame_finish(HtmlFlame *f)
{
    GString *o = g_string_new("{\"names\":[");
    for (guint i = 0; i < f->list->len; i++) {
        g_autofree char *q = npjson_quote(g_ptr_array_index(f->list, i));
        if (i)
            g_string_append_c(o, ',');
        g_string_append(o, q);
    }
    g_string_append(o, "],\"nodes\":[");
    gsize at = o->len;
    g_string_set_size(o, at + (gsize)f->len * 3 * 21);   /* 20 digits and a ',' at most */
    char *w = o->str + at;
    for (guint i = 0; i < f->len; i++) {
        const FlameNode *x = &f->nodes[i];
        w = put_uint(w, x->up ? (uint64_t)i + 1 - x->up : 0, ',');   /* small: compresses */
        w = put_uint(w, x->name, ',');
        w = put_uint(w, x->value, ',');
    }
    g_string_truncate(o, (gsize)(w - o->str) - (f->len ? 1 : 0));   /* the last ',' */
    g_string_append(o, "]}");
    g_hash_table_destroy(f->kids);
    g_hash_table_destroy(f->names);
    g_ptr_array_free(f->list, TRUE);
    g_free(f->nodes);
    g_free(f);
    return o;
}

GString *html_flame_json(const char *folded)
{
    Flame f = { html_flame_new(), g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL), g_string_new(NULL) };
    Prev pv = { "", 0, g_array_new(FALSE, FALSE, sizeof(gsize)), g_array_new(FALSE, FALSE, sizeof(int64_t)) };
    for (const char *s = folded ? folded : ""; *s;) {
        const char *nl = strchr(s, '\n');
        gsize n = nl ? (gsize)(nl - s) : strlen(s);
        add_line(&f, &pv, s, n);
        s += n + (nl != NULL);
    }
    g_array_free(pv.end, TRUE);
    g_array_free(pv.node, TRUE);
    g_string_free(f.scratch, TRUE);
    g_hash_table_destroy(f.raw);
    return html_flame_finish(f.t);
}

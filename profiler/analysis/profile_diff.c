// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_diff.c — function-by-function comparison of two profiles (see
 * profile_diff.h). */
#include "profiler/analysis/profile_diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/name.h"

static bool used(const ProfFunc *f)
{
    return f->calls || f->self_cycles || f->inclusive_cycles;
}

static DiffRow *row_of(GHashTable *index, GArray *rows, const char *name)
{
    gpointer v;
    if (g_hash_table_lookup_extended(index, name, NULL, &v))
        return &g_array_index(rows, DiffRow, GPOINTER_TO_UINT(v));
    DiffRow r = { .name = name };
    g_array_append_val(rows, r);
    g_hash_table_insert(index, (gpointer)name, GUINT_TO_POINTER(rows->len - 1));
    return &g_array_index(rows, DiffRow, rows->len - 1);
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

static int cmp_row(const void *x, const void *y, void *data)
{
    const DiffRow *a = x, *b = y;
    int m = *(const int *)data;
    if (m >= 0) {
        uint64_t ea = absdiff(a->ev_a[m], a->ev_b[m]), eb = absdiff(b->ev_a[m], b->ev_b[m]);
        if (ea != eb)
            return ea > eb ? -1 : 1;
    }
    uint64_t sa = absdiff(a->self_a, a->self_b), sb = absdiff(b->self_a, b->self_b);
    if (sa != sb)
        return sa > sb ? -1 : 1;
    uint64_t ia = absdiff(a->incl_a, a->incl_b), ib = absdiff(b->incl_a, b->incl_b);
    if (ia != ib)
        return ia > ib ? -1 : 1;
    return strcmp(a->name, b->name);
}

ProfDiff *profile_diff(const Profile *a, const Profile *b)
{
    ProfDiff *d = g_new0(ProfDiff, 1);
    GArray *rows = g_array_new(FALSE, TRUE, sizeof(DiffRow));
    GHashTable *index = g_hash_table_new(g_str_hash, g_str_equal);
    const Profile *side[2] = { a, b };
    for (unsigned s = 0; s < 2; s++) {
        const Profile *p = side[s];
        if (!p)
            continue;
        (s ? &d->cycles_b : &d->cycles_a)[0] = p->cycles;
        for (unsigned i = 0; i < p->nfuncs; i++) {
            const ProfFunc *f = &p->funcs[i];
            if (!used(f))
                continue;
            DiffRow *r = row_of(index, rows, f->name);
            for (unsigned e = 0; e < PEV_COUNT; e++) {
                uint64_t v = prof_event(f, (ProfEv)e);
                (s ? r->ev_b : r->ev_a)[e] += v;
                (s ? d->ev_b : d->ev_a)[e] += v;
            }
            if (s) {
                r->in_b = true;
                r->calls_b += f->calls;
                r->self_b += f->self_cycles;
                r->incl_b += f->inclusive_cycles;
            } else {
                r->in_a = true;
                r->calls_a += f->calls;
                r->self_a += f->self_cycles;
                r->incl_a += f->inclusive_cycles;
            }
        }
    }
    g_hash_table_destroy(index);
    d->nrows = rows->len;
    d->rows = (DiffRow *)(void *)g_array_free(rows, FALSE);
    profile_diff_rank(d, -1);
    return d;
}

void profile_diff_rank(ProfDiff *d, int metric)
{
    d->metric = metric >= 0 && metric < PEV_COUNT ? metric : -1;
    g_qsort_with_data(d->rows, (gint)d->nrows, sizeof(DiffRow), cmp_row, &d->metric);
}

void profile_diff_free(ProfDiff *d)
{
    if (!d)
        return;
    g_free(d->rows);
    g_free(d);
}

const DiffRow *profile_diff_find(const ProfDiff *d, const char *name)
{
    for (unsigned i = 0; i < d->nrows; i++)
        if (strcmp(d->rows[i].name, name) == 0)
            return &d->rows[i];
    return NULL;
}

/* "+123" / "-45" / "0" */
static void put_delta(GString *o, uint64_t a, uint64_t b, int width)
{
    char buf[32];
    if (a == b)
        g_snprintf(buf, sizeof buf, "0");
    else
        g_snprintf(buf, sizeof buf, "%c%" G_GUINT64_FORMAT, b > a ? '+' : '-', absdiff(a, b));
    g_string_append_printf(o, " %*s", width, buf);
}

/* B / A with 4 decimals; "-" when A is 0 */
static void put_ratio(GString *o, uint64_t a, uint64_t b)
{
    if (!a)
        g_string_append_printf(o, " %8s", "-");
    else
        g_string_append_printf(o, " %8.4f", (double)b / (double)a);
}

/* The events table: A, B and the change of every event in total, then
 * each function's change, in the order of the cycles table. */
/* The events diff.txt and diff.html show: misses only when some count
 * is not 0. */
static void diff_events_shown(const ProfDiff *d, bool shown[PEV_COUNT])
{
    bool cache = false;
    for (unsigned e = 0; e < PEV_COUNT; e++)
        cache = cache || (prof_events[e].cache && (d->ev_a[e] || d->ev_b[e]));
    for (unsigned e = 0; e < PEV_COUNT; e++)
        shown[e] = !prof_events[e].cache || cache;
}

static void diff_events_text(GString *o, const ProfDiff *d)
{
    bool shown[PEV_COUNT];
    diff_events_shown(d, shown);
    g_string_append_printf(o, "\n  events (the functions' own instructions; rows: B - A)%s%s\n",
                           d->metric >= 0 ? ", ranked by " : "", d->metric >= 0 ? prof_events[d->metric].key : "");
    g_string_append_printf(o, "%12s", "");
    for (unsigned e = 0; e < PEV_COUNT; e++)
        if (shown[e])
            g_string_append_printf(o, " %11s", prof_events[e].column);
    g_string_append(o, "  function\n");
    for (unsigned s = 0; s < 3; s++) {
        g_string_append_printf(o, "%12s", s == 0 ? "total A" : s == 1 ? "total B" : "delta");
        for (unsigned e = 0; e < PEV_COUNT; e++)
            if (shown[e] && s < 2)
                g_string_append_printf(o, " %11" G_GUINT64_FORMAT, s ? d->ev_b[e] : d->ev_a[e]);
            else if (shown[e])
                put_delta(o, d->ev_a[e], d->ev_b[e], 11);
        g_string_append(o, "\n");
    }
    for (unsigned i = 0; i < d->nrows; i++) {
        const DiffRow *r = &d->rows[i];
        g_string_append_printf(o, "%12s", "");
        for (unsigned e = 0; e < PEV_COUNT; e++)
            if (shown[e])
                put_delta(o, r->ev_a[e], r->ev_b[e], 11);
        g_string_append_printf(o, "  %s\n", r->name);
    }
}

void profile_diff_text(GString *o, const char *title, const ProfDiff *d)
{
    g_string_append_printf(o, "%s\n", title);
    g_string_append_printf(o, "  cycles  A %" G_GUINT64_FORMAT "  B %" G_GUINT64_FORMAT "  delta", d->cycles_a,
                           d->cycles_b);
    put_delta(o, d->cycles_a, d->cycles_b, 1);
    g_string_append(o, "  ratio");
    put_ratio(o, d->cycles_a, d->cycles_b);
    g_string_append(o, "\n\n");
    g_string_append_printf(o, "%12s %12s %12s %8s %12s %12s %12s %8s %9s %9s %9s  %s\n", "self A", "self B",
                           "delta", "ratio", "incl A", "incl B", "delta", "ratio", "calls A", "calls B", "delta",
                           "function");
    for (unsigned i = 0; i < d->nrows; i++) {
        const DiffRow *r = &d->rows[i];
        g_string_append_printf(o, "%12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT, r->self_a, r->self_b);
        put_delta(o, r->self_a, r->self_b, 12);
        put_ratio(o, r->self_a, r->self_b);
        g_string_append_printf(o, " %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT, r->incl_a, r->incl_b);
        put_delta(o, r->incl_a, r->incl_b, 12);
        put_ratio(o, r->incl_a, r->incl_b);
        g_string_append_printf(o, " %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT, r->calls_a, r->calls_b);
        put_delta(o, r->calls_a, r->calls_b, 9);
        g_string_append_printf(o, "  %s%s\n", r->name, !r->in_a ? "  [only in B]" : !r->in_b ? "  [only in A]" : "");
    }
    diff_events_text(o, d);
    for (unsigned s = 0; s < 2; s++) {
        GString *names = g_string_new(NULL);
        for (unsigned i = 0; i < d->nrows; i++)
            if (s ? (d->rows[i].in_b && !d->rows[i].in_a) : (d->rows[i].in_a && !d->rows[i].in_b))
                g_string_append_printf(names, " %s", d->rows[i].name);
        g_string_append_printf(o, "\n  only in %c:%s\n", s ? 'B' : 'A', names->len ? names->str : " (none)");
        g_string_free(names, TRUE);
    }
    g_string_append(o, "\n");
}

/* "name":[v[e] for the shown events] */
static void events_json(NpJson *b, const char *name, const uint64_t *v, const bool *shown)
{
    npjson_member_array(b, name);
    for (unsigned e = 0; e < PEV_COUNT; e++)
        if (shown[e])
            npjson_u64(b, v[e]);
    npjson_end_array(b);
}

void profile_diff_json(NpJson *b, const ProfDiff *d)
{
    bool shown[PEV_COUNT];
    diff_events_shown(d, shown);
    npjson_member_u64(b, "cycles_a", d->cycles_a);
    npjson_member_u64(b, "cycles_b", d->cycles_b);
    npjson_member_array(b, "events");
    for (unsigned e = 0; e < PEV_COUNT; e++)
        if (shown[e]) {
            npjson_begin_object(b);
            npjson_member_string(b, "key", prof_events[e].key);
            npjson_member_string(b, "column", prof_events[e].column);
            npjson_member_string(b, "label", prof_events[e].desc);
            npjson_end_object(b);
        }
    npjson_end_array(b);
    events_json(b, "ev_a", d->ev_a, shown);
    events_json(b, "ev_b", d->ev_b, shown);
    npjson_member_array(b, "rows");
    for (unsigned i = 0; i < d->nrows; i++) {
        const DiffRow *r = &d->rows[i];
        npjson_begin_object(b);
        npjson_member_string(b, "name", r->name);
        npjson_member_bool(b, "in_a", r->in_a);
        npjson_member_bool(b, "in_b", r->in_b);
        npjson_member_u64(b, "calls_a", r->calls_a);
        npjson_member_u64(b, "calls_b", r->calls_b);
        npjson_member_u64(b, "self_a", r->self_a);
        npjson_member_u64(b, "self_b", r->self_b);
        npjson_member_u64(b, "incl_a", r->incl_a);
        npjson_member_u64(b, "incl_b", r->incl_b);
        events_json(b, "ev_a", r->ev_a, shown);
        events_json(b, "ev_b", r->ev_b, shown);
        npjson_end_object(b);
    }
    npjson_end_array(b);
}

/* The path of context n, root first, ';'-joined, into buf; names escaped
 * as in stacks.folded (a ';' or space in a name cannot add a frame or a
 * count). */
static void ctx_path(GString *buf, const Profile *p, size_t n)
{
    g_string_truncate(buf, 0);
    g_autoptr(GString) one = g_string_new(NULL);
    for (size_t k = n;; k = p->ctxs[k].parent) {
        g_string_truncate(one, 0);
        name_append(one, p->funcs[p->ctxs[k].func].name, NAME_ESC_FOLDED);
        g_string_prepend(buf, one->str);
        if (k == 0)
            break;
        g_string_prepend_c(buf, ';');
    }
}

typedef struct Pair {
    uint64_t v[2];
} Pair;

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Paths are cut at this many frames, as stacks.folded's (FOLDED_MAX_DEPTH):
 * a deeper context's cycles go to its ancestor at that depth, so the output
 * and the work stay O(contexts x cap) (a 30,000-deep recursion was
 * quadratic: minutes) and totals stay exact. */
#define DIFF_FOLDED_MAX_DEPTH 512u

/* The self cycles of side p summed per kept context (depth <= the cap),
 * into paths (path -> Pair) at slot s. */
static void side_paths(GHashTable *paths, const Profile *p, unsigned s, GString *buf)
{
    if (!p || !p->nctxs)
        return;
    g_autofree unsigned *depth = g_new(unsigned, p->nctxs);
    g_autofree size_t *cut = g_new(size_t, p->nctxs);
    g_autofree uint64_t *sum = g_new0(uint64_t, p->nctxs);
    for (size_t n = 0; n < p->nctxs; n++) {   /* parents come first */
        depth[n] = n ? depth[p->ctxs[n].parent] + 1 : 1;
        cut[n] = depth[n] <= DIFF_FOLDED_MAX_DEPTH ? n : cut[p->ctxs[n].parent];
        sum[cut[n]] += p->ctxs[n].self;
    }
    for (size_t n = 0; n < p->nctxs; n++) {
        if (!sum[n])
            continue;
        ctx_path(buf, p, n);
        Pair *pr = g_hash_table_lookup(paths, buf->str);
        if (!pr) {
            pr = g_new0(Pair, 1);
            g_hash_table_insert(paths, g_strdup(buf->str), pr);
        }
        pr->v[s] += sum[n];
    }
}

void profile_diff_folded(GString *o, const Profile *a, const Profile *b, const char *prefix)
{
    GHashTable *paths = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    GString *buf = g_string_new(NULL);
    side_paths(paths, a, 0, buf);
    side_paths(paths, b, 1, buf);
    guint n;
    gpointer *keys = g_hash_table_get_keys_as_array(paths, &n);
    qsort(keys, n, sizeof *keys, cmp_str);
    for (guint i = 0; i < n; i++) {
        const Pair *pr = g_hash_table_lookup(paths, keys[i]);
        g_string_append_printf(o, "%s%s%s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", prefix ? prefix : "",
                               prefix ? ";" : "", (const char *)keys[i], pr->v[0], pr->v[1]);
    }
    g_free(keys);
    g_string_free(buf, TRUE);
    g_hash_table_destroy(paths);
}

bool profile_diff_regressed(uint64_t a, uint64_t b, double pct)
{
    if (b <= a)
        return false;
    /* b - a > a * pct / 100, in long double: exact for counts below 2^64 */
    return (long double)(b - a) * 100.0L > (long double)a * (long double)pct;
}

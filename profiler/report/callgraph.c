// SPDX-License-Identifier: GPL-2.0-or-later
/* report_callgraph.c — gprof -q style call graph with exact times.
 *
 * Pipeline: aggregate the arcs per (caller, callee); find the strongly
 * connected components of the arc graph (Tarjan; self-arcs do not make a
 * cycle) and number the components of two or more functions as <cycle N>
 * in order of decreasing time; build one entry per function and per cycle;
 * sort the entries by self + children (gprof's order) and number them;
 * print each entry with its callers above and callees below.
 *
 * Times are cycles and exact: a function's children are its inclusive
 * cycles minus its self cycles (shadow call stack), a cycle member's
 * children are the inclusive cycles of its arcs to functions outside the
 * cycle, and an arc line's self + children is that arc's inclusive cycles.
 * Only the split of an arc's inclusive time between the callee's self and
 * children columns is proportional (to the callee's, or its cycle's, own
 * self/total ratio), as the collection does not record it per arc.
 */
#include "profiler/report/report.h"
#include "profiler/report/report_util.h"

#include <inttypes.h>
#include <string.h>

typedef struct Arc {
    unsigned caller, callee;
    uint64_t count, incl;
} Arc;

typedef struct Cycle {
    unsigned num;        /* N of <cycle N> */
    GArray *members;     /* unsigned function indices, by address */
    uint64_t self, children, ext_calls, int_calls;
    unsigned index;      /* entry index */
} Cycle;

typedef struct Entry {
    bool is_cycle;
    unsigned id;         /* function index or cycle slot */
    uint64_t self, children;
    const char *name;
} Entry;

typedef struct Graph {
    const Profile *p;
    unsigned n;
    GArray *arcs;               /* Arc, sorted by (caller, callee) */
    GArray **out, **in;         /* [n] arrays of indices into arcs */
    int *comp;                  /* [n] cycle slot or -1 */
    GPtrArray *cycles;          /* Cycle * */
    unsigned *index;            /* [n] entry index, 0 = not printed */
    uint64_t *self, *children;  /* [n] entry times */
    uint64_t total;
} Graph;

/* ---- arcs ------------------------------------------------------------- */

static int arc_cmp(const void *a, const void *b)
{
    const Arc *x = a, *y = b;
    if (x->caller != y->caller)
        return x->caller < y->caller ? -1 : 1;
    return x->callee < y->callee ? -1 : x->callee > y->callee;
}

static void build_arcs(Graph *g)
{
    const Profile *p = g->p;
    GArray *raw = g_array_sized_new(FALSE, FALSE, sizeof(Arc), p->narcs);
    for (unsigned i = 0; i < p->narcs; i++) {
        const ProfArc *a = &p->arcs[i];
        if (a->caller >= g->n || a->callee >= g->n)
            continue;
        Arc x = { a->caller, a->callee, a->count, a->inclusive_cycles };
        g_array_append_val(raw, x);
    }
    g_array_sort(raw, arc_cmp);
    g->arcs = g_array_new(FALSE, FALSE, sizeof(Arc));
    for (guint i = 0; i < raw->len; i++) {
        Arc *x = &g_array_index(raw, Arc, i);
        Arc *last = g->arcs->len ? &g_array_index(g->arcs, Arc, g->arcs->len - 1) : NULL;
        if (last && last->caller == x->caller && last->callee == x->callee) {
            last->count += x->count;
            last->incl += x->incl;
        } else {
            g_array_append_val(g->arcs, *x);
        }
    }
    g_array_free(raw, TRUE);
    g->out = g_new0(GArray *, g->n);
    g->in = g_new0(GArray *, g->n);
    for (unsigned f = 0; f < g->n; f++) {
        g->out[f] = g_array_new(FALSE, FALSE, sizeof(unsigned));
        g->in[f] = g_array_new(FALSE, FALSE, sizeof(unsigned));
    }
    for (unsigned i = 0; i < g->arcs->len; i++) {
        Arc *x = &g_array_index(g->arcs, Arc, i);
        g_array_append_val(g->out[x->caller], i);
        g_array_append_val(g->in[x->callee], i);
    }
}

static const Arc *arc_at(const Graph *g, GArray *list, unsigned j)
{
    return &g_array_index(g->arcs, Arc, g_array_index(list, unsigned, j));
}

/* ---- cycles (Tarjan) -------------------------------------------------- */

typedef struct Tarjan {
    Graph *g;
    int *low, *num;
    bool *on;
    GArray *stack;
    int counter;
    GPtrArray *sccs;   /* GArray of unsigned, size >= 2 */
} Tarjan;

static void strongconnect(Tarjan *t, unsigned v)
{
    t->num[v] = t->low[v] = ++t->counter;
    g_array_append_val(t->stack, v);
    t->on[v] = true;
    GArray *out = t->g->out[v];
    for (guint j = 0; j < out->len; j++) {
        unsigned w = arc_at(t->g, out, j)->callee;
        if (!t->num[w]) {
            strongconnect(t, w);
            t->low[v] = MIN(t->low[v], t->low[w]);
        } else if (t->on[w]) {
            t->low[v] = MIN(t->low[v], t->num[w]);
        }
    }
    if (t->low[v] != t->num[v])
        return;
    GArray *scc = g_array_new(FALSE, FALSE, sizeof(unsigned));
    unsigned w;
    do {
        w = g_array_index(t->stack, unsigned, t->stack->len - 1);
        g_array_set_size(t->stack, t->stack->len - 1);
        t->on[w] = false;
        g_array_append_val(scc, w);
    } while (w != v);
    if (scc->len >= 2)
        g_ptr_array_add(t->sccs, scc);
    else
        g_array_free(scc, TRUE);
}

static int uint_cmp(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

static int cycle_cmp(const void *a, const void *b)
{
    const Cycle *x = *(Cycle *const *)a, *y = *(Cycle *const *)b;
    uint64_t tx = x->self + x->children, ty = y->self + y->children;
    if (tx != ty)
        return tx > ty ? -1 : 1;
    return uint_cmp(&g_array_index(x->members, unsigned, 0),
                    &g_array_index(y->members, unsigned, 0));
}

static void find_cycles(Graph *g)
{
    Tarjan t = { g, g_new0(int, g->n), g_new0(int, g->n), g_new0(bool, g->n),
                 g_array_new(FALSE, FALSE, sizeof(unsigned)), 0, g_ptr_array_new() };
    for (unsigned v = 0; v < g->n; v++)
        if (!t.num[v])
            strongconnect(&t, v);
    g->comp = g_new(int, g->n);
    for (unsigned v = 0; v < g->n; v++)
        g->comp[v] = -1;
    g->cycles = g_ptr_array_new();
    for (guint i = 0; i < t.sccs->len; i++) {
        Cycle *c = g_new0(Cycle, 1);
        c->members = g_ptr_array_index(t.sccs, i);
        g_array_sort(c->members, uint_cmp);
        g_ptr_array_add(g->cycles, c);
    }
    /* times first (for the numbering), then number by decreasing time */
    for (guint i = 0; i < g->cycles->len; i++) {
        Cycle *c = g_ptr_array_index(g->cycles, i);
        for (guint j = 0; j < c->members->len; j++)
            g->comp[g_array_index(c->members, unsigned, j)] = (int)i;
    }
    for (guint i = 0; i < g->cycles->len; i++) {
        Cycle *c = g_ptr_array_index(g->cycles, i);
        for (guint j = 0; j < c->members->len; j++) {
            unsigned m = g_array_index(c->members, unsigned, j);
            c->self += g->p->funcs[m].self_cycles;
            for (guint k = 0; k < g->out[m]->len; k++) {
                const Arc *a = arc_at(g, g->out[m], k);
                if (g->comp[a->callee] != (int)i)
                    c->children += a->incl;
                else if (a->callee != m) /* gprof leaves self-arcs out */
                    c->int_calls += a->count;
            }
            for (guint k = 0; k < g->in[m]->len; k++) {
                const Arc *a = arc_at(g, g->in[m], k);
                if (g->comp[a->caller] != (int)i)
                    c->ext_calls += a->count;
            }
        }
    }
    g_ptr_array_sort(g->cycles, cycle_cmp);
    for (guint i = 0; i < g->cycles->len; i++) {
        Cycle *c = g_ptr_array_index(g->cycles, i);
        c->num = i + 1;
        for (guint j = 0; j < c->members->len; j++)
            g->comp[g_array_index(c->members, unsigned, j)] = (int)i;
    }
    g_free(t.low);
    g_free(t.num);
    g_free(t.on);
    g_array_free(t.stack, TRUE);
    g_ptr_array_free(t.sccs, TRUE);
}

/* ---- entries ---------------------------------------------------------- */

static void function_times(Graph *g)
{
    const Profile *p = g->p;
    g->self = g_new0(uint64_t, g->n);
    g->children = g_new0(uint64_t, g->n);
    for (unsigned f = 0; f < g->n; f++) {
        const ProfFunc *x = &p->funcs[f];
        g->self[f] = x->self_cycles;
        if (g->comp[f] >= 0 || x->pseudo) {
            /* arcs to functions outside the cycle (or all, for a pseudo) */
            for (guint k = 0; k < g->out[f]->len; k++) {
                const Arc *a = arc_at(g, g->out[f], k);
                if (a->callee != f && (g->comp[f] < 0 || g->comp[a->callee] != g->comp[f]))
                    g->children[f] += a->incl;
            }
        } else {
            g->children[f] = x->inclusive_cycles > x->self_cycles
                                 ? x->inclusive_cycles - x->self_cycles : 0;
        }
    }
}

static int entry_cmp(const void *a, const void *b)
{
    const Entry *x = a, *y = b;
    uint64_t tx = x->self + x->children, ty = y->self + y->children;
    if (tx != ty)
        return tx > ty ? -1 : 1;
    if (x->is_cycle != y->is_cycle)
        return x->is_cycle ? -1 : 1;
    if (x->is_cycle)
        return x->id < y->id ? -1 : 1;
    return strcmp(x->name, y->name);
}

static GArray *build_entries(Graph *g)
{
    GArray *e = g_array_new(FALSE, FALSE, sizeof(Entry));
    for (unsigned f = 0; f < g->n; f++) {
        if (!report_func_active(g->p, f) && !g->out[f]->len && !g->in[f]->len)
            continue;
        Entry x = { false, f, g->self[f], g->children[f], g->p->funcs[f].name };
        g_array_append_val(e, x);
    }
    for (guint i = 0; i < g->cycles->len; i++) {
        Cycle *c = g_ptr_array_index(g->cycles, i);
        Entry x = { true, i, c->self, c->children, "" };
        g_array_append_val(e, x);
    }
    g_array_sort(e, entry_cmp);
    g->index = g_new0(unsigned, g->n);
    for (guint i = 0; i < e->len; i++) {
        Entry *x = &g_array_index(e, Entry, i);
        if (x->is_cycle)
            ((Cycle *)g_ptr_array_index(g->cycles, x->id))->index = i + 1;
        else
            g->index[x->id] = i + 1;
    }
    return e;
}

/* ---- printing --------------------------------------------------------- */

static char *fname(const Graph *g, unsigned f)
{
    if (g->comp[f] >= 0) {
        const Cycle *c = g_ptr_array_index(g->cycles, g->comp[f]);
        return g_strdup_printf("%s <cycle %u> [%u]", g->p->funcs[f].name, c->num, g->index[f]);
    }
    return g_strdup_printf("%s [%u]", g->p->funcs[f].name, g->index[f]);
}

static void put_line(GString *o, const char *idx, const char *pct, const char *self,
                     const char *children, const char *called, const char *name, bool primary)
{
    g_string_append_printf(o, "%-7s %6s %12s %12s %-15s %s%s\n", idx, pct, self, children,
                           called, primary ? "" : "    ", name);
}

/* called column: "n" or "n+r" (primary), "count/total" (arc), "count" */
static char *called_primary(uint64_t n, uint64_t r)
{
    if (n == 0 && r == 0)
        return g_strdup("");
    if (r)
        return g_strdup_printf("%7" PRIu64 "+%-7" PRIu64, n, r);
    return g_strdup_printf("%7" PRIu64, n);
}

static char *called_arc(uint64_t count, uint64_t total)
{
    return g_strdup_printf("%7" PRIu64 "/%-7" PRIu64, count, total);
}

static char *called_count(uint64_t count)
{
    return g_strdup_printf("%7" PRIu64, count);
}

/* An arc line with times: inclusive split by the callee's self ratio. */
static void arc_line(GString *o, uint64_t incl, uint64_t callee_self, uint64_t callee_total,
                     const char *called, const char *name)
{
    uint64_t s = callee_total ? (uint64_t)((double)incl * (double)callee_self /
                                           (double)callee_total + 0.5)
                              : incl;
    s = MIN(s, incl);
    char a[32], b[32];
    g_snprintf(a, sizeof a, "%" PRIu64, s);
    g_snprintf(b, sizeof b, "%" PRIu64, incl - s);
    put_line(o, "", "", a, b, called, name, false);
}

/* gprof's convention (cg_arcs.c): a function's calls split into those on
 * its self-arc (f calls f directly: the `+r` part) and all others, whoever
 * made them, so the numbers are those gprof prints for the same gmon.out. */
static uint64_t self_arc_calls(const Graph *g, unsigned f)
{
    for (guint j = 0; j < g->out[f]->len; j++) {
        const Arc *a = arc_at(g, g->out[f], j);
        if (a->callee == f)
            return a->count;
    }
    return 0;
}

static uint64_t nonrec_calls_of(const Graph *g, unsigned f)
{
    uint64_t c = g->p->funcs[f].calls, r = self_arc_calls(g, f);
    return c > r ? c - r : 0;
}

/* Denominator of an arc's count/total: the callee's non-self calls, or
 * for a cycle member the calls into its cycle from outside (gprof). */
static uint64_t arc_total(const Graph *g, unsigned f)
{
    if (g->comp[f] >= 0)
        return ((const Cycle *)g_ptr_array_index(g->cycles, g->comp[f]))->ext_calls;
    return nonrec_calls_of(g, f);
}

/* Self and total time of what an arc into f enters: f, or f's cycle. */
static void callee_ratio(const Graph *g, unsigned f, uint64_t *self, uint64_t *total)
{
    if (g->comp[f] >= 0) {
        const Cycle *c = g_ptr_array_index(g->cycles, g->comp[f]);
        *self = c->self;
        *total = c->self + c->children;
    } else {
        *self = g->self[f];
        *total = g->self[f] + g->children[f];
    }
}

/* Recursive and within-cycle arcs print as a bare count. */
static bool count_only(const Graph *g, const Arc *a)
{
    return a->caller == a->callee ||
           (g->comp[a->caller] >= 0 && g->comp[a->caller] == g->comp[a->callee]);
}

/* Callers: bare counts first, then by increasing time, so the biggest
 * caller sits next to the primary line; callees: by decreasing time, bare
 * counts last. */
static int arc_incl_cmp_asc(const void *a, const void *b, void *data)
{
    const Graph *g = data;
    const Arc *x = &g_array_index(g->arcs, Arc, *(const unsigned *)a);
    const Arc *y = &g_array_index(g->arcs, Arc, *(const unsigned *)b);
    if (count_only(g, x) != count_only(g, y))
        return count_only(g, x) ? -1 : 1;
    if (x->incl != y->incl)
        return x->incl < y->incl ? -1 : 1;
    if (x->count != y->count)
        return x->count < y->count ? -1 : 1;
    return strcmp(g->p->funcs[y->caller].name, g->p->funcs[x->caller].name);
}

static int arc_incl_cmp_desc(const void *a, const void *b, void *data)
{
    const Graph *g = data;
    const Arc *x = &g_array_index(g->arcs, Arc, *(const unsigned *)a);
    const Arc *y = &g_array_index(g->arcs, Arc, *(const unsigned *)b);
    if (count_only(g, x) != count_only(g, y))
        return count_only(g, x) ? 1 : -1;
    if (x->incl != y->incl)
        return x->incl > y->incl ? -1 : 1;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(g->p->funcs[x->callee].name, g->p->funcs[y->callee].name);
}

static GArray *sorted_copy(Graph *g, GArray *list, bool desc)
{
    GArray *c = g_array_copy(list);
    g_qsort_with_data(c->data, (gint)c->len, sizeof(unsigned),
                      desc ? arc_incl_cmp_desc : arc_incl_cmp_asc, g);
    return c;
}

static void pct_str(char *buf, size_t n, const Graph *g, uint64_t t)
{
    g_snprintf(buf, n, "%.1f", g->total ? 100.0 * (double)t / (double)g->total : 0.0);
}

static void print_function(GString *o, Graph *g, unsigned f)
{
    const ProfFunc *x = &g->p->funcs[f];

    /* callers */
    GArray *in = sorted_copy(g, g->in[f], false);
    bool any_caller = false;
    for (guint j = 0; j < in->len; j++) {
        const Arc *a = arc_at(g, in, j);
        char *name = fname(g, a->caller);
        char *called;
        if (count_only(g, a)) {
            called = called_count(a->count);
            put_line(o, "", "", "", "", called, name, false);
        } else {
            uint64_t s, t;
            callee_ratio(g, f, &s, &t);
            called = called_arc(a->count, arc_total(g, f));
            arc_line(o, a->incl, s, t, called, name);
        }
        if (a->caller != f)
            any_caller = true;
        g_free(called);
        g_free(name);
    }
    g_array_free(in, TRUE);
    if (!any_caller && !x->pseudo)
        put_line(o, "", "", "", "", "", "<spontaneous>", false);

    /* primary line */
    char idx[16], pct[16], s[32], c[32];
    g_snprintf(idx, sizeof idx, "[%u]", g->index[f]);
    pct_str(pct, sizeof pct, g, g->self[f] + g->children[f]);
    g_snprintf(s, sizeof s, "%" PRIu64, g->self[f]);
    g_snprintf(c, sizeof c, "%" PRIu64, g->children[f]);
    char *called = x->pseudo ? g_strdup("") : called_primary(nonrec_calls_of(g, f), self_arc_calls(g, f));
    char *name = fname(g, f);
    put_line(o, idx, pct, s, c, called, name, true);
    g_free(name);
    g_free(called);

    /* callees */
    GArray *out = sorted_copy(g, g->out[f], true);
    for (guint j = 0; j < out->len; j++) {
        const Arc *a = arc_at(g, out, j);
        char *cname = fname(g, a->callee);
        char *cc;
        if (count_only(g, a)) {
            cc = called_count(a->count);
            put_line(o, "", "", "", "", cc, cname, false);
        } else {
            uint64_t cs, ct;
            callee_ratio(g, a->callee, &cs, &ct);
            cc = called_arc(a->count, arc_total(g, a->callee));
            arc_line(o, a->incl, cs, ct, cc, cname);
        }
        g_free(cc);
        g_free(cname);
    }
    g_array_free(out, TRUE);
}

static void print_cycle(GString *o, Graph *g, unsigned slot)
{
    const Cycle *c = g_ptr_array_index(g->cycles, slot);
    /* callers from outside, into any member */
    GArray *in = g_array_new(FALSE, FALSE, sizeof(unsigned));
    for (guint j = 0; j < c->members->len; j++) {
        unsigned m = g_array_index(c->members, unsigned, j);
        for (guint k = 0; k < g->in[m]->len; k++) {
            unsigned ai = g_array_index(g->in[m], unsigned, k);
            if (g->comp[g_array_index(g->arcs, Arc, ai).caller] != (int)slot)
                g_array_append_val(in, ai);
        }
    }
    GArray *sorted = sorted_copy(g, in, false);
    for (guint j = 0; j < sorted->len; j++) {
        const Arc *a = arc_at(g, sorted, j);
        char *name = fname(g, a->caller);
        char *called = called_arc(a->count, c->ext_calls);
        arc_line(o, a->incl, c->self, c->self + c->children, called, name);
        g_free(called);
        g_free(name);
    }
    if (!sorted->len)
        put_line(o, "", "", "", "", "", "<spontaneous>", false);
    g_array_free(sorted, TRUE);
    g_array_free(in, TRUE);

    char idx[16], pct[16], s[32], ch[32], name[64];
    g_snprintf(idx, sizeof idx, "[%u]", c->index);
    pct_str(pct, sizeof pct, g, c->self + c->children);
    g_snprintf(s, sizeof s, "%" PRIu64, c->self);
    g_snprintf(ch, sizeof ch, "%" PRIu64, c->children);
    g_snprintf(name, sizeof name, "<cycle %u as a whole> [%u]", c->num, c->index);
    char *called = called_primary(c->ext_calls, c->int_calls);
    put_line(o, idx, pct, s, ch, called, name, true);
    g_free(called);

    /* members, by address */
    for (guint j = 0; j < c->members->len; j++) {
        unsigned m = g_array_index(c->members, unsigned, j);
        g_snprintf(s, sizeof s, "%" PRIu64, g->self[m]);
        g_snprintf(ch, sizeof ch, "%" PRIu64, g->children[m]);
        char *mc = called_primary(nonrec_calls_of(g, m), self_arc_calls(g, m));
        char *mn = fname(g, m);
        put_line(o, "", "", s, ch, mc, mn, false);
        g_free(mn);
        g_free(mc);
    }
}

typedef struct IndexItem {
    const char *name;
    unsigned index;
} IndexItem;

static int index_cmp(const void *a, const void *b)
{
    const IndexItem *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    return r ? r : (x->index < y->index ? -1 : x->index > y->index);
}

static void print_index(GString *o, Graph *g, GArray *entries)
{
    GArray *items = g_array_new(FALSE, FALSE, sizeof(IndexItem));
    GPtrArray *owned = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < entries->len; i++) {
        const Entry *e = &g_array_index(entries, Entry, i);
        IndexItem it = { e->name, i + 1 };
        if (e->is_cycle) {
            char *n = g_strdup_printf("<cycle %u>",
                                      ((Cycle *)g_ptr_array_index(g->cycles, e->id))->num);
            g_ptr_array_add(owned, n);
            it.name = n;
        }
        g_array_append_val(items, it);
    }
    g_array_sort(items, index_cmp);
    g_string_append(o, "\nIndex by function name\n\n");
    unsigned rows = (items->len + 2) / 3;
    for (unsigned r = 0; r < rows; r++) {
        for (unsigned col = 0; col < 3; col++) {
            unsigned i = col * rows + r;
            if (i >= items->len)
                break;
            const IndexItem *it = &g_array_index(items, IndexItem, i);
            char tag[16];
            g_snprintf(tag, sizeof tag, "[%u]", it->index);
            g_string_append_printf(o, "%7s %-24s", tag, it->name);
        }
        while (o->len && o->str[o->len - 1] == ' ')
            g_string_truncate(o, o->len - 1);
        g_string_append_c(o, '\n');
    }
    g_ptr_array_free(owned, TRUE);
    g_array_free(items, TRUE);
}

static const char graph_blurb[] =
    "\n"
    " Each entry is a function (or a cycle) with its callers above it and\n"
    " its callees below it; the primary line carries the entry's index.\n"
    "\n"
    " Primary line:\n"
    "   index     the entry's number; entries are sorted by self + children.\n"
    "   % time    self + children as a share of the run's cycles.\n"
    "   self      cycles of the function's own instructions (exact).\n"
    "   children  cycles of the functions it called, measured with a shadow\n"
    "             call stack (exact, not gprof's estimate): inclusive - self;\n"
    "             for a cycle member, the time of its arcs leaving the cycle.\n"
    "   called    times it was called: n, or n+r where r are recursive entries\n"
    "             (entered while already active); for a cycle as a whole,\n"
    "             calls from outside + calls between its members.\n"
    " Caller lines (above): self + children is the exact inclusive time of the\n"
    "   callee under calls from that caller; the split between the two columns\n"
    "   is proportional to the callee's self/total ratio. called is count/total\n"
    "   (calls from this caller / non-recursive calls of the callee); a\n"
    "   recursive or within-cycle arc shows only its count. <spontaneous>: the\n"
    "   function has no caller (an entry point); <interrupt>: it was entered by\n"
    "   an interrupt.\n"
    " Callee lines (below): the same, for each function it called.\n"
    " <cycle N>: functions that call each other (a strongly connected\n"
    "   component of the arcs), listed as a whole with their members.\n";

GString *report_callgraph(const Profile *p)
{
    g_autofree char *nothing = report_ran_nothing(p);
    if (nothing) {
        g_autofree char *title = report_title(p);
        GString *o = g_string_new(NULL);
        g_string_append_printf(o, "Call graph, %s\n\n%s", title, nothing);
        return o;
    }
    Graph g = { .p = p, .n = p->nfuncs, .total = report_total_cycles(p) };
    build_arcs(&g);
    find_cycles(&g);
    function_times(&g);
    GArray *entries = build_entries(&g);

    GString *o = g_string_new(NULL);
    char *title = report_title(p);
    g_string_append_printf(o, "Call graph, %s\n\n", title);
    g_free(title);
    g_string_append_printf(o,
        "Times are exact cycles; %" PRIu64 " cycles in all = %.9f seconds at %.0f Hz.\n\n",
        g.total, report_seconds(p, g.total), p->clock_hz);
    put_line(o, "index", "% time", "self", "children", "called", "name", true);
    for (guint i = 0; i < entries->len; i++) {
        const Entry *e = &g_array_index(entries, Entry, i);
        if (e->is_cycle)
            print_cycle(o, &g, e->id);
        else
            print_function(o, &g, e->id);
        g_string_append(o, "-----------------------------------------------\n");
    }
    g_string_append(o, graph_blurb);
    print_index(o, &g, entries);

    g_array_free(entries, TRUE);
    for (unsigned f = 0; f < g.n; f++) {
        g_array_free(g.out[f], TRUE);
        g_array_free(g.in[f], TRUE);
    }
    for (guint i = 0; i < g.cycles->len; i++) {
        Cycle *c = g_ptr_array_index(g.cycles, i);
        g_array_free(c->members, TRUE);
        g_free(c);
    }
    g_ptr_array_free(g.cycles, TRUE);
    g_free(g.out);
    g_free(g.in);
    g_free(g.comp);
    g_free(g.index);
    g_free(g.self);
    g_free(g.children);
    g_array_free(g.arcs, TRUE);
    return o;
}

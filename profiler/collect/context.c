/* context.c — the calling-context tree (one node per distinct call path,
 * with the cycles during which it was the whole stack) and the timeline of
 * waits and interrupt handler runs. */
#include "collect_private.h"

static const char *const pseudo_names[PROF_NPSEUDO] = { "<idle>", "<interrupt>", "<unknown>" };

void collect_add_event(Collector *col, uint64_t start, uint64_t end, unsigned func, bool idle)
{
    if (col->events->len >= col->max_events) {
        col->events_dropped++;
        return;
    }
    CollectorEvent e = { .start = start, .end = end, .func = func, .idle = idle };
    g_array_append_val(col->events, e);
}

/* The time since the last stack change belongs to the current path. */
/* The key (parent << 32 | func) hashed on all 64 bits (g_direct_hash keeps
 * only the low 32, the function: every context of one function collided,
 * and deep recursion cost time quadratic in the number of contexts).
 * Fibonacci hashing: multiply by 2^64 / phi, keep the high bits. */
guint collect_ctx_hash(gconstpointer key)
{
    guint64 k = (guint64)GPOINTER_TO_SIZE(key);
    return (guint)((k * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15)) >> 32);
}

/* Each node remembers its last two children (most nodes have one or two:
 * deep recursion makes a new path per call, and a hash lookup per call was
 * 28% of a profiled Hofstadter run); the hash is the fallback. */
static unsigned kid_lookup(Collector *col, unsigned parent, unsigned func, unsigned node)
{
    if (col->ctx_kids->len < col->ctx->len)
        g_array_set_size(col->ctx_kids, col->ctx->len);
    CtxKids *k = &g_array_index(col->ctx_kids, CtxKids, parent);
    if (node != G_MAXUINT) {   /* store */
        k->func[k->next] = func + 1;
        k->node[k->next] = node;
        k->next ^= 1;
        return node;
    }
    for (unsigned i = 0; i < 2; i++)
        if (k->func[i] == func + 1)
            return k->node[i];
    return G_MAXUINT;
}

unsigned collect_ctx_child(Collector *col, unsigned parent, unsigned func)
{
    unsigned hit = kid_lookup(col, parent, func, G_MAXUINT);
    if (hit != G_MAXUINT)
        return hit;
    gpointer key = GSIZE_TO_POINTER(((guint64)parent << 32) | func);
    gpointer v;
    if (g_hash_table_lookup_extended(col->ctx_index, key, NULL, &v))
        return kid_lookup(col, parent, func, GPOINTER_TO_UINT(v));
    Ctx c = { .parent = parent, .func = func };
    g_array_append_val(col->ctx, c);
    g_hash_table_insert(col->ctx_index, key, GUINT_TO_POINTER(col->ctx->len - 1));
    return kid_lookup(col, parent, func, col->ctx->len - 1);
}

const char *collect_func_name(const Collector *col, unsigned f)
{
    return f < col->nsyms ? symbols_func(col->syms, f)->name : pseudo_names[f - col->nsyms];
}

const CollectorEvent *collector_events(const Collector *col, size_t *n, uint64_t *dropped)
{
    *n = col->events->len;
    *dropped = col->events_dropped;
    return (const CollectorEvent *)(void *)col->events->data;
}

const char *collector_func_name(const Collector *col, unsigned func)
{
    return collect_func_name(col, func);
}

const CollectorCtx *collector_contexts(const Collector *col, size_t *n)
{
    *n = col->ctx->len;
    return (const CollectorCtx *)(void *)col->ctx->data;
}

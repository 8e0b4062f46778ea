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

unsigned collect_ctx_child(Collector *col, unsigned parent, unsigned func)
{
    gpointer key = GSIZE_TO_POINTER(((guint64)parent << 32) | func);
    gpointer v;
    if (g_hash_table_lookup_extended(col->ctx_index, key, NULL, &v))
        return GPOINTER_TO_UINT(v);
    Ctx c = { .parent = parent, .func = func };
    g_array_append_val(col->ctx, c);
    g_hash_table_insert(col->ctx_index, key, GUINT_TO_POINTER(col->ctx->len - 1));
    return col->ctx->len - 1;
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

/* ---- communication (profiler/comm) ------------------------------------ */

void collector_attach_core(Collector *col, const Core *core)
{
    col->core = core;
}

uint64_t collector_block_end(Collector *col, uint64_t now, unsigned *kind)
{
    if (kind)
        *kind = col->blk_kind < 0 ? 0 : (unsigned)col->blk_kind;
    if (col->blk_kind < 0)
        return 0;
    collect_ctx_account(col, now);
    uint64_t n = col->blk_acc;
    col->blk_kind = -1;
    col->blk_acc = 0;
    return n;
}

void collector_block_begin(Collector *col, unsigned kind, uint64_t now)
{
    if (col->blk_kind == (int)kind)
        return;
    if (col->blk_kind >= 0)
        collector_block_end(col, now, NULL);
    collect_ctx_account(col, now);
    col->blk_kind = (int)kind;
    col->blk_irq_depth = col->irq_depth;
    col->blk_acc = 0;
}

bool collector_blocked(const Collector *col, unsigned *kind)
{
    if (kind)
        *kind = col->blk_kind < 0 ? 0 : (unsigned)col->blk_kind;
    return col->blk_kind >= 0;
}

unsigned collector_count_packet(Collector *col, uint64_t now, bool sent, unsigned flits)
{
    collect_ctx_account(col, now);
    Ctx *c = &g_array_index(col->ctx, Ctx, col->ctx_cur);
    if (sent) {
        c->sent_packets++;
        c->sent_flits += flits;
    } else {
        c->recv_packets++;
        c->recv_flits += flits;
    }
    return col->ctx_cur;
}

bool collector_last_noc_wait(const Collector *col, uint64_t *from, uint64_t *to)
{
    *from = col->noc_wait_from;
    *to = col->noc_wait_to;
    return col->noc_waited;
}

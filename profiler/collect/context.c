// SPDX-License-Identifier: GPL-2.0-or-later
/* context.c — the calling-context tree (one node per distinct call path,
 * with the cycles during which it was the whole stack) and the timeline of
 * waits and interrupt handler runs. */
#include "profiler/collect/collect_private.h"

#include <string.h>

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
 * 28% of a profiled Hofstadter run); then the list of its children while
 * they are few, the hash beyond (a new context was a hash insert, 46 M
 * host instructions of hof30's 16,500 contexts per core: issue 24). */
static CtxKids *kids_of(Collector *col, unsigned node)
{
    if (col->ctx_kids->len < col->nctx)   /* doubled: one new context is no call; not cleared */
        g_array_set_size(col->ctx_kids, MAX(col->nctx, 2 * col->ctx_kids->len));
    return &g_array_index(col->ctx_kids, CtxKids, node);
}

/* Remember node as k's child for func (one of its last two). */
static inline unsigned kid_remember(CtxKids *k, unsigned func, unsigned node)
{
    k->func[k->next] = func + 1;
    k->node[k->next] = node;
    k->next ^= 1;
    return node;
}

static gpointer ctx_key(unsigned parent, unsigned func)
{
    return GSIZE_TO_POINTER(((guint64)parent << 32) | func);
}

/* parent's (kids k) child for func among all its children, or G_MAXUINT. */
static unsigned kid_find(const Collector *col, const CtxKids *k, unsigned parent, unsigned func)
{
    if (k->nkids > CTX_FEW_KIDS) {
        gpointer v;
        return g_hash_table_lookup_extended(col->ctx_index, ctx_key(parent, func), NULL, &v)
             ? GPOINTER_TO_UINT(v) : G_MAXUINT;
    }
    for (unsigned n = k->first; n; n = g_array_index(col->ctx_kids, CtxKids, n).sib)
        if (g_array_index(col->ctx, Ctx, n).func == func)
            return n;
    return G_MAXUINT;
}

/* The node's kids looked up once per call (three times before, and the
 * context appended through a GArray call: issue 24). */
unsigned collect_ctx_child(Collector *col, unsigned parent, unsigned func)
{
    CtxKids *k = kids_of(col, parent);
    for (unsigned i = 0; i < 2; i++)
        if (k->func[i] == func + 1)
            return k->node[i];
    unsigned hit = kid_find(col, k, parent, func);
    if (hit != G_MAXUINT)
        return kid_remember(k, func, hit);
    if (col->nctx >= col->max_contexts) {
        /* [limits] contexts: the call stays in its caller's context
         * (push() counts it) */
        return parent;
    }
    if (col->nctx == col->ctx->len) { /* doubled, not a call per context */
        g_array_set_size(col->ctx, 2 * col->nctx);
        col->ctxv = (Ctx *)(void *)col->ctx->data;
    }
    unsigned node = col->nctx++;
    g_array_index(col->ctx, Ctx, node) = (Ctx){ .parent = parent, .func = func };
    CtxKids *nk = kids_of(col, node);   /* may move the kids: parent's again */
    k = &g_array_index(col->ctx_kids, CtxKids, parent);
    *nk = (CtxKids){ .sib = k->first };
    k->first = node;
    if (++k->nkids == CTX_FEW_KIDS + 1)   /* from now on by the hash */
        for (unsigned n = node; n; n = g_array_index(col->ctx_kids, CtxKids, n).sib)
            g_hash_table_insert(col->ctx_index, ctx_key(parent, g_array_index(col->ctx, Ctx, n).func),
                                GUINT_TO_POINTER(n));
    else if (k->nkids > CTX_FEW_KIDS + 1)
        g_hash_table_insert(col->ctx_index, ctx_key(parent, func), GUINT_TO_POINTER(node));
    return kid_remember(k, func, node);
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
    if (col->ctx_given) {   /* the Profile's since collector_profile */
        *n = col->nctx_given;
        return col->ctx_given;
    }
    *n = col->nctx;
    return (const CollectorCtx *)(void *)col->ctx->data;
}

/* ---- communication (profiler/comm) ------------------------------------ */

const CollectorCtxComm *collector_ctx_comms(const Collector *col, size_t *n)
{
    *n = col->ctx_comm->len;
    return (const CollectorCtxComm *)(void *)col->ctx_comm->data;
}

void collector_attach_core(Collector *col, const Core *core)
{
    col->core = core;
}

/* Blocked cycles since the span's last failed poll are pending: a failed
 * poll or the successful status read commits them to their paths; a span
 * the core abandons (`wait`, leaving the handler that polled) drops them,
 * so it counts up to its last failed poll. */
void collect_block_pend(Collector *col, uint64_t d)
{
    if (col->npend && col->pend[col->npend - 1].ctx == col->ctx_cur) {
        col->pend[col->npend - 1].cycles += d;
        return;
    }
    if (col->npend == COLLECT_MAX_PEND) { /* many paths since the last poll: keep the oldest */
        collect_ctx_comm(col, col->pend[0].ctx)->blocked[col->blk_kind] += col->pend[0].cycles;
        col->blk_acc += col->pend[0].cycles;
        memmove(col->pend, col->pend + 1, sizeof col->pend[0] * (COLLECT_MAX_PEND - 1));
        col->npend--;
    }
    col->pend[col->npend].ctx = col->ctx_cur;
    col->pend[col->npend++].cycles = d;
}

static void block_commit(Collector *col)
{
    for (unsigned i = 0; i < col->npend; i++) {
        collect_ctx_comm(col, col->pend[i].ctx)->blocked[col->blk_kind] += col->pend[i].cycles;
        col->blk_acc += col->pend[i].cycles;
    }
    col->npend = 0;
}

uint64_t collector_block_end(Collector *col, uint64_t now, unsigned *kind)
{
    if (kind)
        *kind = col->blk_kind < 0 ? 0 : (unsigned)col->blk_kind;
    uint64_t n = col->blk_closed;
    col->blk_closed = 0;
    if (col->blk_kind < 0)
        return n;
    collect_ctx_account(col, MAX(now, col->ctx_mark));
    block_commit(col);
    n += col->blk_acc;
    col->blk_kind = -1;
    collect_quick_update(col);
    col->blk_acc = 0;
    return n;
}

void collect_block_close(Collector *col, uint64_t now)
{
    if (col->blk_kind < 0)
        return;
    collect_ctx_account(col, MAX(now, col->ctx_mark));
    col->npend = 0; /* after the last failed poll: not blocked */
    col->blk_closed += col->blk_acc;
    col->blk_kind = -1;
    collect_quick_update(col);
    col->blk_acc = 0;
}

void collector_block_begin(Collector *col, unsigned kind, uint64_t now)
{
    if (col->blk_kind == (int)kind) { /* one more failed poll */
        collect_ctx_account(col, MAX(now, col->ctx_mark));
        block_commit(col);
        return;
    }
    collect_ctx_account(col, MAX(now, col->ctx_mark));
    if (col->blk_kind >= 0) { /* a poll of the other kind: counted up to here */
        block_commit(col);
        col->blk_closed += col->blk_acc;
    }
    col->blk_kind = (int)kind;
    collect_quick_update(col);
    col->blk_irq_depth = col->irq_depth;
    col->blk_acc = 0;
    col->npend = 0;
}

bool collector_blocked(const Collector *col, unsigned *kind)
{
    if (kind)
        *kind = col->blk_kind < 0 ? 0 : (unsigned)col->blk_kind;
    return col->blk_kind >= 0;
}

unsigned collector_count_packet(Collector *col, uint64_t now, bool sent, unsigned flits)
{
    collect_ctx_account(col, MAX(now, col->ctx_mark));
    CollectorCtxComm *c = collect_ctx_comm(col, col->ctx_cur);
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

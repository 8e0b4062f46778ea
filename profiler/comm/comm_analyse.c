// SPDX-License-Identifier: GPL-2.0-or-later
/* comm_analyse.c — from the recorder to the CommReport: per function, per
 * call path, per partner, per line, and the critical chain. */
#include <string.h>

#include "profiler/comm/comm_private.h"

#include "base/name.h"

G_STATIC_ASSERT((int)COLLECT_POLL_RX == (int)COMM_POLL_RX && (int)COLLECT_WAIT_TX == (int)COMM_WAIT_TX
                && (int)COLLECT_WAIT_IRQ == (int)COMM_WAIT_IRQ && (int)COLLECT_NBLOCKED == (int)COMM_NBLOCKED);

static const char *intern(CommReport *r, const char *s)
{
    return s ? g_string_chunk_insert_const(r->strings, s) : NULL;
}

static uint64_t blocked_sum(const uint64_t *b)
{
    return b[COLLECT_POLL_RX] + b[COLLECT_WAIT_TX] + b[COLLECT_WAIT_IRQ];
}

static bool has_comm(const uint64_t *b, uint64_t sp, uint64_t rp)
{
    return blocked_sum(b) || sp || rp;
}

/* Context node i's own communication figures; wait_irq of an <idle> node
 * is charged to its parent (the path that executed `wait`). */
static void ctx_add(uint64_t *b, uint64_t *sp, uint64_t *sf, uint64_t *rp, uint64_t *rf, const CollectorCtxComm *c)
{
    for (unsigned k = 0; k < COMM_NBLOCKED; k++)
        b[k] += c->blocked[k];
    *sp += c->sent_packets;
    *sf += c->sent_flits;
    *rp += c->recv_packets;
    *rf += c->recv_flits;
}

static int cmp_func(const void *x, const void *y)
{
    const CommFunc *a = x, *b = y;
    uint64_t ba = blocked_sum(a->blocked), bb = blocked_sum(b->blocked);
    if (ba != bb)
        return ba > bb ? -1 : 1;
    if (a->sent_packets + a->recv_packets != b->sent_packets + b->recv_packets)
        return a->sent_packets + a->recv_packets > b->sent_packets + b->recv_packets ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int cmp_path(const void *x, const void *y)
{
    const CommPath *a = x, *b = y;
    uint64_t ba = blocked_sum(a->blocked), bb = blocked_sum(b->blocked);
    if (ba != bb)
        return ba > bb ? -1 : 1;
    if (a->sent_packets + a->recv_packets != b->sent_packets + b->recv_packets)
        return a->sent_packets + a->recv_packets > b->sent_packets + b->recv_packets ? -1 : 1;
    return strcmp(a->path, b->path);
}

static char *ctx_path(const Collector *col, const CollectorCtx *c, unsigned i)
{
    GPtrArray *names = g_ptr_array_new();
    for (;;) {
        g_ptr_array_add(names, (gpointer)collector_func_name(col, c[i].func));
        if (i == 0)
            break;
        i = c[i].parent;
    }
    GString *s = g_string_new(NULL);
    for (unsigned j = names->len; j-- > 0;) {
        name_append(s, g_ptr_array_index(names, j), NAME_ESC_FOLDED);
        if (j)
            g_string_append_c(s, ';');
    }
    g_ptr_array_free(names, TRUE);
    return g_string_free(s, FALSE);
}

/* Per function and per path of one core. A node's figures go to its own
 * function and path, except an <idle> node's, which go to its parent. */
static void core_funcs(CommReport *r, CommCoreReport *cr, const Collector *col)
{
    size_t n;
    const CollectorCtx *c = collector_contexts(col, &n);
    size_t ncomm;
    const CollectorCtxComm *comm = collector_ctx_comms(col, &ncomm);
    if (!ncomm) {   /* no context communicated: no function or path to keep */
        cr->funcs = g_new(CommFunc, 1);
        cr->paths = g_new(CommPath, 1);
        return;
    }
    GHashTable *byname = g_hash_table_new(g_str_hash, g_str_equal);
    GArray *funcs = g_array_new(FALSE, TRUE, sizeof(CommFunc));
    GArray *paths = g_array_new(FALSE, TRUE, sizeof(CommPath));
    GHashTable *pathof = g_hash_table_new(g_direct_hash, g_direct_equal); /* node -> path index + 1 */
    /* by function index: its CommFunc index + 1 (0: not seen yet), whether
     * it is <idle> (a name lookup per context was most of this with deep
     * recursion's 16,500 contexts per core: issue 24) */
    GArray *byfunc = g_array_new(FALSE, TRUE, sizeof(unsigned)), *isidle = g_array_new(FALSE, TRUE, sizeof(bool));
    for (size_t i = 0; i < n; i++) {
        if (c[i].func >= byfunc->len) {
            unsigned had = isidle->len;
            g_array_set_size(byfunc, c[i].func + 1);
            g_array_set_size(isidle, c[i].func + 1);
            for (unsigned k = had; k < isidle->len; k++)
                g_array_index(isidle, bool, k) = strcmp(collector_func_name(col, k), "<idle>") == 0;
        }
        bool idle = g_array_index(isidle, bool, c[i].func) && i > 0;
        unsigned owner = idle ? c[i].parent : (unsigned)i;
        unsigned *known = &g_array_index(byfunc, unsigned, c[owner].func);
        gpointer fi = GUINT_TO_POINTER(*known);
        if (!fi) {
            const char *name = collector_func_name(col, c[owner].func);
            fi = g_hash_table_lookup(byname, name);
            if (!fi) {
                CommFunc f = { .name = intern(r, name) };
                g_array_append_val(funcs, f);
                fi = GUINT_TO_POINTER(funcs->len);
                g_hash_table_insert(byname, (gpointer)name, fi);
            }
            *known = GPOINTER_TO_UINT(fi);
        }
        CommFunc *f = &g_array_index(funcs, CommFunc, GPOINTER_TO_UINT(fi) - 1);
        if (!idle)
            f->self_cycles += c[i].self;
        if (i >= ncomm)
            continue;   /* no communication: only its self cycles */
        const CollectorCtxComm *cm = &comm[i];
        ctx_add(f->blocked, &f->sent_packets, &f->sent_flits, &f->recv_packets, &f->recv_flits, cm);
        if (!has_comm(cm->blocked, cm->sent_packets, cm->recv_packets))
            continue; /* paths only for nodes with communication: no O(depth) walk each */
        gpointer pi = g_hash_table_lookup(pathof, GUINT_TO_POINTER(owner));
        if (!pi) {
            g_autofree char *path = ctx_path(col, c, owner);
            CommPath p = { .path = intern(r, path), .self_cycles = c[owner].self };
            g_array_append_val(paths, p);
            pi = GUINT_TO_POINTER(paths->len);
            g_hash_table_insert(pathof, GUINT_TO_POINTER(owner), pi);
        }
        CommPath *p = &g_array_index(paths, CommPath, GPOINTER_TO_UINT(pi) - 1);
        ctx_add(p->blocked, &p->sent_packets, &p->sent_flits, &p->recv_packets, &p->recv_flits, cm);
    }
    /* keep those with communication (sized to them: most functions of a
     * big firmware have none) */
    unsigned keep = 0;
    for (unsigned i = 0; i < funcs->len; i++) {
        const CommFunc *f = &g_array_index(funcs, CommFunc, i);
        keep += has_comm(f->blocked, f->sent_packets, f->recv_packets);
    }
    cr->funcs = g_new(CommFunc, keep + 1);
    for (unsigned i = 0; i < funcs->len; i++) {
        CommFunc *f = &g_array_index(funcs, CommFunc, i);
        if (has_comm(f->blocked, f->sent_packets, f->recv_packets))
            cr->funcs[cr->nfuncs++] = *f;
    }
    keep = 0;
    for (unsigned i = 0; i < paths->len; i++) {
        const CommPath *p = &g_array_index(paths, CommPath, i);
        keep += has_comm(p->blocked, p->sent_packets, p->recv_packets);
    }
    cr->paths = g_new(CommPath, keep + 1);
    for (unsigned i = 0; i < paths->len; i++) {
        CommPath *p = &g_array_index(paths, CommPath, i);
        if (has_comm(p->blocked, p->sent_packets, p->recv_packets))
            cr->paths[cr->npaths++] = *p;
    }
    if (cr->nfuncs)
        qsort(cr->funcs, cr->nfuncs, sizeof *cr->funcs, cmp_func);
    if (cr->npaths)
        qsort(cr->paths, cr->npaths, sizeof *cr->paths, cmp_path);
    for (unsigned i = 0; i < cr->nfuncs; i++)
        for (unsigned k = 0; k < COMM_NBLOCKED; k++)
            cr->blocked[k] += cr->funcs[i].blocked[k];
    g_array_free(funcs, TRUE);
    g_array_free(paths, TRUE);
    g_hash_table_destroy(byname);
    g_hash_table_destroy(pathof);
    g_array_free(byfunc, TRUE);
    g_array_free(isidle, TRUE);
}

static int cmp_partner(const void *x, const void *y)
{
    const CommPartner *a = x, *b = y;
    if (a->w.late_sender != b->w.late_sender)
        return a->w.late_sender > b->w.late_sender ? -1 : 1;
    if (a->w.packets != b->w.packets)
        return a->w.packets > b->w.packets ? -1 : 1;
    int c = strcmp(a->recv_func, b->recv_func);
    return c ? c : a->src != b->src ? (a->src < b->src ? -1 : 1) : strcmp(a->send_func, b->send_func);
}

static void wait_add(CommWait *to, const CommWait *w)
{
    to->packets += w->packets;
    to->late_sender += w->late_sender;
    to->network += w->network;
    to->late_receiver += w->late_receiver;
    to->waited += w->waited;
}

/* Partners by (receiver function, sender core, sender function) names. */
static void core_partners(CommReport *r, CommCoreReport *cr, const CommRun *run, const CommCore *cc)
{
    GArray *out = g_array_new(FALSE, TRUE, sizeof(CommPartner));
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, cc->partners);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        const PartnerKey *key = k;
        const char *rf = comm_ctx_func(run, cc->id, key->recv_ctx);
        const char *sf = comm_ctx_func(run, key->src, key->send_ctx);
        rf = intern(r, rf ? rf : "??");
        sf = intern(r, sf ? sf : "??");
        unsigned j;
        for (j = 0; j < out->len; j++) {
            CommPartner *p = &g_array_index(out, CommPartner, j);
            if (p->src == key->src && strcmp(p->recv_func, rf) == 0 && strcmp(p->send_func, sf) == 0)
                break;
        }
        if (j == out->len) {
            CommPartner p = { .recv_func = rf, .src = key->src, .send_func = sf };
            g_array_append_val(out, p);
        }
        wait_add(&g_array_index(out, CommPartner, j).w, v);
    }
    cr->npartners = out->len;
    cr->partners = (CommPartner *)(void *)g_array_free(out, FALSE);
    if (cr->npartners)
        qsort(cr->partners, cr->npartners, sizeof *cr->partners, cmp_partner);
}

static int cmp_line(const void *x, const void *y)
{
    const CommLine *a = x, *b = y;
    return a->pc < b->pc ? -1 : a->pc > b->pc;
}

static void core_lines(CommCoreReport *cr, const CommCore *cc)
{
    cr->nlines = g_hash_table_size(cc->lines);
    cr->lines = g_new(CommLine, cr->nlines + 1);
    GHashTableIter it;
    gpointer v;
    unsigned j = 0;
    g_hash_table_iter_init(&it, cc->lines);
    while (g_hash_table_iter_next(&it, NULL, &v))
        cr->lines[j++] = *(const CommLine *)v;
    if (cr->nlines)
        qsort(cr->lines, cr->nlines, sizeof *cr->lines, cmp_line);
}

static const char *or_unknown(const char *s)
{
    return s ? s : "??";
}

/* take[i]: how many of core i's packet records become trace flows: the
 * first `limit` packets consumed on the chip (by consumed cycle, then core
 * id), so that trace.json holds at most as many messages as packets
 * (--trace-limit) however many cores there are. */
static void flow_counts(const CommRun *run, size_t limit, size_t *take)
{
    g_autofree size_t *n = g_new0(size_t, run->n + 1);
    g_autofree const CommPacket **p = g_new0(const CommPacket *, run->n + 1);
    uint64_t dropped;
    for (unsigned i = 0; i < run->n; i++) {
        p[i] = comm_packets(run, i, &n[i], &dropped);
        take[i] = 0;
    }
    for (size_t k = 0; k < limit; k++) {
        unsigned best = run->n;
        for (unsigned i = 0; i < run->n; i++)
            if (take[i] < n[i] && (best == run->n || p[i][take[i]].tc < p[best][take[best]].tc))
                best = i;
        if (best == run->n)
            break;
        take[best]++;
    }
}

static void core_flows(CommReport *r, CommCoreReport *cr, const CommRun *run, const CommCore *cc, size_t take)
{
    size_t n;
    const CommPacket *p = comm_packets(run, cc->id, &n, &cr->flows_dropped);
    cr->flows_dropped += n - take;
    n = take;
    cr->nflows = n;
    cr->flows = g_new(CommFlow, n + 1);
    for (size_t j = 0; j < n; j++)
        cr->flows[j] = (CommFlow){ .src = p[j].src, .ts = p[j].ts, .td = p[j].td, .tc = p[j].tc,
                                   .send_func = intern(r, or_unknown(comm_ctx_func(run, p[j].src, p[j].send_ctx))),
                                   .recv_func = intern(r, or_unknown(comm_ctx_func(run, cc->id, p[j].recv_ctx))) };
}

/* The last packet core waited for and consumed at or before cycle t. */
static const CommPacket *last_wait(const CommRun *run, unsigned core, uint64_t t)
{
    size_t n;
    uint64_t dropped;
    const CommPacket *p = comm_packets(run, core, &n, &dropped);
    size_t lo = 0, hi = n; /* first record with tc > t */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p[mid].tc <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    while (lo-- > 0)
        if (p[lo].tw != COMM_NO_WAIT)
            return &p[lo];
    return NULL;
}

char *comm_ctx_path(const CommRun *run, unsigned core, unsigned ctx)
{
    if (ctx == COMM_NO_CTX || core >= run->n || !run->cores[core].col)
        return g_strdup("??");
    size_t n;
    const CollectorCtx *c = collector_contexts(run->cores[core].col, &n);
    return ctx < n ? ctx_path(run->cores[core].col, c, ctx) : g_strdup("??");
}

/* Walk back from the core that finished last: the packet it last waited
 * for, its sender at the send cycle, and so on. */
static void chain(CommReport *r, const CommRun *run, const uint64_t *finish)
{
    r->last_core = 0;
    for (unsigned i = 1; i < r->ncores; i++)
        if (finish[i] > finish[r->last_core])
            r->last_core = i;
    GArray *steps = g_array_new(FALSE, FALSE, sizeof(CommStep));
    unsigned core = r->last_core;
    uint64_t t = r->ncores ? finish[core] : 0;
    const CommPacket *p;
    while (steps->len < 10000 && (p = last_wait(run, core, t))) {
        const char *rf = comm_ctx_func(run, core, p->recv_ctx), *sf = comm_ctx_func(run, p->src, p->send_ctx);
        g_autofree char *rp = comm_ctx_path(run, core, p->recv_ctx);
        g_autofree char *sp = comm_ctx_path(run, p->src, p->send_ctx);
        CommStep s = { .core = core, .src = p->src, .recv_func = intern(r, rf ? rf : "??"),
                       .send_func = intern(r, sf ? sf : "??"), .tw = p->tw, .ts = p->ts, .td = p->td, .tc = p->tc,
                       .recv_path = intern(r, rp), .send_path = intern(r, sp) };
        g_array_append_val(steps, s);
        core = p->src;
        t = p->ts;
    }
    for (unsigned i = 0; i < r->ncores; i++)
        if (run->cores[i].packets_dropped)
            r->chain_truncated = true;
    r->nchain = steps->len;
    r->chain = g_new(CommStep, steps->len + 1);
    for (unsigned i = 0; i < steps->len; i++)
        r->chain[i] = g_array_index(steps, CommStep, steps->len - 1 - i);
    g_array_free(steps, TRUE);
}

CommReport *comm_analyse(const CommRun *run, const uint64_t *finish)
{
    CommReport *r = g_new0(CommReport, 1);
    r->strings = g_string_chunk_new(4096);
    r->ncores = run->n;
    r->cores = g_new0(CommCoreReport, run->n + 1);
    r->pairs = g_memdup2(run->pairs, sizeof(CommWait) * run->n * run->n);
    g_autofree size_t *take = g_new0(size_t, run->n + 1);
    flow_counts(run, run->n ? run->cores[0].max_packets : 0, take);
    for (unsigned i = 0; i < run->n; i++) {
        const CommCore *cc = &run->cores[i];
        CommCoreReport *cr = &r->cores[i];
        cr->id = i;
        cr->finish = finish[i];
        cr->polls_rx = cc->polls_rx;
        cr->polls_tx = cc->polls_tx;
        r->unmatched += cc->unmatched;
        if (cc->col)
            core_funcs(r, cr, cc->col);
        core_partners(r, cr, run, cc);
        core_lines(cr, cc);
        core_flows(r, cr, run, cc, take[i]);
    }
    chain(r, run, finish);
    return r;
}


// SPDX-License-Identifier: GPL-2.0-or-later
/* comm.c — recording the communication profile from NI events (comm.h). */
#include "profiler/comm/comm_private.h"

static guint partner_hash(gconstpointer p)
{
    const PartnerKey *k = p;
    return (k->recv_ctx * 2654435761u) ^ (k->src * 40503u) ^ (k->send_ctx * 97u);
}

static gboolean partner_equal(gconstpointer x, gconstpointer y)
{
    const PartnerKey *a = x, *b = y;
    return a->recv_ctx == b->recv_ctx && a->src == b->src && a->send_ctx == b->send_ctx;
}

CommRun *comm_new(unsigned ncores, Collector *const *cols, size_t max_packets)
{
    CommRun *run = g_new0(CommRun, 1);
    run->n = ncores;
    run->cores = g_new0(CommCore, ncores);
    run->fifo = g_new0(CommFifo, (size_t)ncores * ncores);
    run->pairs = g_new0(CommWait, (size_t)ncores * ncores);
    for (unsigned i = 0; i < ncores; i++) {
        CommCore *cc = &run->cores[i];
        cc->run = run;
        cc->col = cols[i];
        cc->id = i;
        cc->rx_tw = COMM_NO_WAIT;
        cc->max_packets = max_packets;
        cc->lines = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
        cc->partners = g_hash_table_new_full(partner_hash, partner_equal, g_free, NULL);
        cc->packets = g_array_new(FALSE, FALSE, sizeof(CommPacket));
    }
    return run;
}

void comm_free(CommRun *run)
{
    if (!run)
        return;
    for (unsigned i = 0; i < run->n; i++) {
        CommCore *cc = &run->cores[i];
        g_hash_table_destroy(cc->lines);
        g_hash_table_destroy(cc->partners);
        g_array_free(cc->packets, TRUE);
    }
    for (size_t i = 0; i < (size_t)run->n * run->n; i++)
        g_free(run->fifo[i].a);
    g_free(run->fifo);
    g_free(run->pairs);
    g_free(run->cores);
    g_free(run);
}

CommCore *comm_core(CommRun *run, unsigned core)
{
    return &run->cores[core];
}

static CommLine *line_at(CommCore *cc, uint32_t pc)
{
    CommLine **slot = &cc->line_cache[(pc >> 2) & (COMM_LINE_CACHE - 1)];
    if (*slot && (*slot)->pc == pc)
        return *slot;
    CommLine *l = g_hash_table_lookup(cc->lines, GUINT_TO_POINTER(pc));
    if (!l) {
        l = g_new0(CommLine, 1);
        l->pc = pc;
        g_hash_table_insert(cc->lines, GUINT_TO_POINTER(pc), l);
    }
    return *slot = l;
}

/* Ring buffer of the sends from one core to another, oldest first. */
static void fifo_push(CommFifo *q, const CommSend *s)
{
    if (q->len == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 16;
        CommSend *a = g_new(CommSend, cap);
        for (size_t i = 0; i < q->len; i++)
            a[i] = q->a[(q->head + i) % q->cap];
        g_free(q->a);
        q->a = a;
        q->cap = cap;
        q->head = 0;
    }
    q->a[(q->head + q->len++) % q->cap] = *s;
}

static bool fifo_pop(CommFifo *q, CommSend *s)
{
    if (!q->len)
        return false;
    *s = q->a[q->head];
    q->head = (q->head + 1) % q->cap;
    q->len--;
    return true;
}

/* Close the open blocked span if it is of kind `kind`. */
static void end_span(CommCore *cc, unsigned kind, uint64_t now)
{
    unsigned k;
    if (collector_blocked(cc->col, &k) && k != kind)
        return;
    uint64_t n = collector_block_end(cc->col, now, NULL);
    if (n)
        line_at(cc, cc->span_pc)->blocked += n;
}

static void poll(CommCore *cc, unsigned kind, const NiEvent *ev)
{
    unsigned k;
    if (!collector_blocked(cc->col, &k) || k != kind) {
        uint64_t n = collector_block_end(cc->col, ev->cycle, NULL);
        if (n)
            line_at(cc, cc->span_pc)->blocked += n;
        cc->span_pc = ev->pc;
    }
    collector_block_begin(cc->col, kind, ev->cycle); /* opens, or commits up to this poll */
    /* a poll loop the scheduler skipped ahead: count failed polls, the
     * last at `until` (the core's clock is past it: nothing ran between) */
    if (ev->count > 1 && ev->until > ev->cycle)
        collector_block_begin(cc->col, kind, ev->until);
    uint64_t count = ev->count ? ev->count : 1;
    if (kind == COLLECT_POLL_RX) {
        cc->polls_rx += count;
        if (cc->rx_tw == COMM_NO_WAIT)
            cc->rx_tw = ev->cycle;
    } else {
        cc->polls_tx += count;
    }
}

static void on_send(CommCore *cc, const NiEvent *ev)
{
    end_span(cc, COLLECT_WAIT_TX, ev->cycle);
    CommSend s = { .ts = ev->cycle, .pc = ev->pc };
    s.ctx = collector_count_packet(cc->col, ev->cycle, true, ev->words + 1);
    fifo_push(&cc->run->fifo[(size_t)cc->id * cc->run->n + ev->peer], &s);
    line_at(cc, ev->pc)->sent++;
}

static void add_wait(CommWait *w, const CommPacket *p)
{
    w->packets++;
    if (p->tw != COMM_NO_WAIT) {
        w->waited++;
        if (p->ts > p->tw)
            w->late_sender += p->ts - p->tw;
    }
    w->network += p->td - p->ts;
    w->late_receiver += p->tc - p->td;
}

/* RECV or DROP: the packet from ev->peer was consumed. */
static void on_consume(CommCore *cc, const NiEvent *ev)
{
    CommRun *run = cc->run;
    end_span(cc, COLLECT_POLL_RX, ev->cycle);
    CommSend s = { .ts = ev->sent, .ctx = COMM_NO_CTX };
    if (!fifo_pop(&run->fifo[(size_t)ev->peer * run->n + cc->id], &s) || s.ts != ev->sent) {
        cc->unmatched++;
        s = (CommSend){ .ts = ev->sent, .ctx = COMM_NO_CTX };
    }
    CommPacket p = {
        .src = ev->peer, .dst = cc->id, .words = ev->words, .send_ctx = s.ctx, .send_pc = s.pc,
        .recv_pc = ev->pc, .ts = ev->sent, .td = ev->delivered, .tc = ev->cycle, .tw = cc->rx_tw,
    };
    uint64_t from, to;
    if (collector_last_noc_wait(cc->col, &from, &to) && from >= cc->last_consume && to <= ev->cycle
        && (p.tw == COMM_NO_WAIT || from < p.tw))
        p.tw = from;
    if (p.tw != COMM_NO_WAIT && p.tw > p.td)
        p.tw = COMM_NO_WAIT; /* it was there already: no wait for it */
    p.recv_ctx = collector_count_packet(cc->col, ev->cycle, false, ev->words + 1);
    add_wait(&run->pairs[(size_t)p.src * run->n + p.dst], &p);
    PartnerKey key = { .recv_ctx = p.recv_ctx, .src = p.src, .send_ctx = p.send_ctx };
    CommWait *w = g_hash_table_lookup(cc->partners, &key);
    if (!w) {
        PartnerKey *k = g_malloc0(sizeof key + sizeof(CommWait));
        *k = key;
        w = (CommWait *)(k + 1);
        g_hash_table_insert(cc->partners, k, w);
    }
    add_wait(w, &p);
    if (cc->packets->len < cc->max_packets)
        g_array_append_val(cc->packets, p);
    else
        cc->packets_dropped++;
    line_at(cc, ev->pc)->recv++;
    cc->rx_tw = COMM_NO_WAIT;
    cc->last_consume = ev->cycle;
}

void comm_observer(void *opaque, const NiEvent *ev)
{
    CommCore *cc = opaque;
    switch (ev->kind) {
    case NI_EV_POLL_RX:
        poll(cc, COLLECT_POLL_RX, ev);
        break;
    case NI_EV_POLL_TX:
        poll(cc, COLLECT_WAIT_TX, ev);
        break;
    case NI_EV_READY_RX:
        end_span(cc, COLLECT_POLL_RX, ev->cycle);
        break;
    case NI_EV_READY_TX:
        end_span(cc, COLLECT_WAIT_TX, ev->cycle);
        break;
    case NI_EV_SEND:
        on_send(cc, ev);
        break;
    case NI_EV_RECV:
    case NI_EV_DROP:
        on_consume(cc, ev);
        break;
    }
}

const CommPacket *comm_packets(const CommRun *run, unsigned dst, size_t *n, uint64_t *dropped)
{
    const CommCore *cc = &run->cores[dst];
    *n = cc->packets->len;
    *dropped = cc->packets_dropped;
    return (const CommPacket *)(void *)cc->packets->data;
}

const char *comm_ctx_func(const CommRun *run, unsigned core, unsigned ctx)
{
    if (ctx == COMM_NO_CTX || core >= run->n || !run->cores[core].col)
        return NULL;
    size_t n;
    const CollectorCtx *c = collector_contexts(run->cores[core].col, &n);
    return ctx < n ? collector_func_name(run->cores[core].col, c[ctx].func) : NULL;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* noc.c — cycle-level W x H mesh network on chip (see noc.h, docs/noc.md).
 *
 * Timeline of one flit without contention. A flit enters its source
 * router's local input buffer in the cycle it is injected (cycle a); it may
 * leave a router router_latency cycles after it arrived (cycle a + R); a
 * flit leaving on a link in cycle d arrives in the next router's input
 * buffer in cycle d + link_latency; a flit leaving through the local output
 * in cycle d is in the receive queue in cycle d. Hence the head of a packet
 * injected at t0 over h hops is delivered at t0 + (h+1)R + h*Lk, and the
 * other flits follow one per cycle.
 *
 * A cycle is two phases over the whole mesh: decide() looks only at the
 * state at the start of the cycle and picks, for every output port, the
 * input port (if any) that sends a flit through it; apply() then moves the
 * chosen flits. Because every decision reads start-of-cycle state, the
 * order in which routers are visited never matters.
 *
 * Credits. The credit counter an upstream output holds for a downstream
 * input buffer equals buffer_depth minus the flits that buffer holds or has
 * reserved (flits still on the link count) at the start of the cycle. A
 * slot freed in cycle c is therefore usable upstream from cycle c + 1: a
 * one-cycle credit return, so a link streams one flit per cycle when
 * buffer_depth >= router_latency + link_latency + 1 (and the local input
 * when buffer_depth >= router_latency + 1). The counter is derived from the
 * downstream occupancy rather than stored, which is the same number.
 * The local output's credit is the receive queue's free space; it grows
 * only when the NI consumes or drops a whole packet.
 *
 * Idle time. When a cycle moves nothing, the state stays frozen until the
 * next "event": a buffer head finishing its router latency, a flit
 * arriving off a link, or a queued packet's stamp coming due (a blocked
 * flit unblocks only after some other flit moves, or after the receive
 * side frees space, which happens between noc_run_until calls). Such a
 * span is accounted in one step with the frozen cycle's statistics
 * weighted by its length, which is exactly what cycle-by-cycle simulation
 * would add.
 */
#include "noc/noc.h"

#include <glib.h>
#include <string.h>

#include "noc/noc_priv.h"

/* g_queue_peek_head for const queues. */
static Packet *queue_front(const GQueue *q)
{
    return q->head ? q->head->data : NULL;
}

/* --- topology --- */

static unsigned opposite(unsigned port)
{
    return port == PORT_LOCAL ? PORT_LOCAL : (port + 1) % 4 + 1;
}

/* Node behind port of node r (north is y - 1), or -1 at the mesh edge. */
static int compute_neighbour(const Noc *noc, unsigned r, unsigned port)
{
    unsigned w = noc->cfg.width, x = r % w, y = r / w;

    switch (port) {
    case PORT_N: return y > 0 ? (int)(r - w) : -1;
    case PORT_S: return y + 1 < noc->cfg.height ? (int)(r + w) : -1;
    case PORT_E: return x + 1 < w ? (int)(r + 1) : -1;
    case PORT_W: return x > 0 ? (int)(r - 1) : -1;
    default: return (int)r;
    }
}

/* Dimension-order routing: correct x first, then y. */
static unsigned compute_route(const Noc *noc, unsigned r, unsigned dst)
{
    unsigned w = noc->cfg.width;
    unsigned x = r % w, y = r / w, dx = dst % w, dy = dst / w;

    if (dx != x)
        return dx > x ? PORT_E : PORT_W;
    if (dy != y)
        return dy > y ? PORT_S : PORT_N;
    return PORT_LOCAL;
}

static int neighbour(const Noc *noc, unsigned r, unsigned port)
{
    return noc->nb[r * NPORTS + port];
}

static unsigned route(const Noc *noc, unsigned r, unsigned dst)
{
    return noc->route[r * noc->nodes + dst];
}

/* --- input buffers --- */

static const BufEntry *in_front(const InPort *in)
{
    return &in->slot[in->head];
}

static void in_push(InPort *in, unsigned depth, Packet *pkt, unsigned idx,
                    uint64_t arrive)
{
    g_assert(in->count < depth);
    unsigned i = in->head + in->count++;
    in->slot[i >= depth ? i - depth : i] =
        (BufEntry){ .pkt = pkt, .idx = idx, .arrive = arrive };
}

static BufEntry in_pop(InPort *in, unsigned depth)
{
    BufEntry e = in->slot[in->head];

    if (++in->head == depth)
        in->head = 0;
    in->count--;
    return e;
}

/* Flits that have arrived by cycle c (the rest are still on the link). */
static unsigned in_arrived(const InPort *in, unsigned depth, uint64_t c)
{
    unsigned n = in->count;

    while (n > 0) {
        unsigned i = in->head + n - 1;
        if (in->slot[i >= depth ? i - depth : i].arrive <= c)
            break;
        n--;
    }
    return n;
}

/* --- per-cycle decisions --- */

/* Output port wanted in cycle c by the flit at the head of input i of
 * router r, or -1 if the buffer is empty or its head is still inside the
 * router pipeline. */
static int request(const Noc *noc, unsigned r, unsigned i, uint64_t c)
{
    const InPort *in = &noc->routers[r].in[i];
    const BufEntry *e;

    if (in->count == 0)
        return -1;
    e = in_front(in);
    if (e->arrive + noc->cfg.router_latency > c)
        return -1;
    return (int)route(noc, r, e->pkt->dst);
}

static unsigned credits(const Noc *noc, unsigned r, unsigned o)
{
    if (o == PORT_LOCAL)
        return noc->cfg.rx_queue_flits - noc->ni[r].rx_flits;
    return noc->cfg.buffer_depth -
           noc->routers[neighbour(noc, r, o)].in[opposite(o)].count;
}

/* Output o of router r can take a flit from input i this cycle: it has a
 * credit and is free or already held by i's packet. */
static bool output_accepts(const Noc *noc, unsigned r, unsigned o, unsigned i)
{
    int owner = noc->routers[r].out[o].owner;

    return credits(noc, r, o) > 0 && (owner < 0 || owner == (int)i);
}

static bool tx_due(const Ni *ni, uint64_t c)
{
    const Packet *p = queue_front(&ni->tx);

    return p && p->stamp <= c;
}

static bool inject_possible(const Noc *noc, unsigned n, uint64_t c)
{
    return tx_due(&noc->ni[n], c) &&
           noc->routers[n].in[PORT_LOCAL].count < noc->cfg.buffer_depth;
}

/* Phase 1: grants for every output, injections, and which routers stall.
 * Returns the number of flits that will move. */
static unsigned decide(Noc *noc, uint64_t c)
{
    unsigned moves = 0;

    for (unsigned r = 0; r < noc->nodes; r++) {
        Router *rt = &noc->routers[r];
        int req[NPORTS];

        rt->quiet = !noc->ni[r].tx.head && !rt->in[0].count && !rt->in[1].count
                    && !rt->in[2].count && !rt->in[3].count && !rt->in[4].count;
        if (rt->quiet) {
            noc->ni[r].inject = rt->stalled = false;
            continue;
        }
        unsigned want[NPORTS] = { 0 };   /* per output: candidate inputs */
        for (unsigned i = 0; i < NPORTS; i++) {
            req[i] = request(noc, r, i, c);
            if (req[i] >= 0 && output_accepts(noc, r, req[i], i))
                want[req[i]] |= 1u << i;
        }
        /* Round robin from rr: a held output has its owner as only candidate. */
        for (unsigned o = 0; o < NPORTS; o++) {
            OutPort *op = &rt->out[o];
            unsigned w = want[o];

            op->grant = -1;
            if (!w)
                continue;
            unsigned rot = (w >> op->rr) | (w << (NPORTS - op->rr));
            unsigned k = (unsigned)__builtin_ctz(rot & ((1u << NPORTS) - 1));
            unsigned i = op->rr + k;
            op->grant = (int)(i >= NPORTS ? i - NPORTS : i);
            moves++;
        }
        rt->stalled = false;
        for (unsigned i = 0; i < NPORTS; i++)
            if (req[i] >= 0 && rt->out[req[i]].grant != (int)i)
                rt->stalled = true;

        noc->ni[r].inject = inject_possible(noc, r, c);
        moves += noc->ni[r].inject;
    }
    return moves;
}

/* Statistics of a packet whose tail reached the receive queue in cycle c. */
static void record_delivery(Noc *noc, const Packet *p, uint64_t c)
{
    unsigned pair = p->src * noc->nodes + p->dst;
    uint64_t lat = c - p->stamp;

    ((Packet *)p)->delivered = c;
    noc->pair_packets[pair]++;
    noc->pair_flits[pair] += p->nwords + 1;
    noc->flits += p->nwords + 1;
    if (noc->packets++ == 0 || lat < noc->lat_min)
        noc->lat_min = lat;
    noc->lat_max = MAX(noc->lat_max, lat);
    noc->lat_sum += lat;
    if (lat < LAT_DENSE)
        noc->lat_dense[lat]++;
    else
        g_array_append_val(noc->lat_big, lat);
    if (noc->log) {
        if (noc->log->len < noc->log_max) {
            NocPacketRecord rec = { .src = p->src, .dst = p->dst, .nwords = p->nwords,
                                    .sent = p->stamp, .delivered = c };
            g_array_append_val(noc->log, rec);
        } else {
            noc->log_dropped++;
        }
    }
}

/* A flit leaves router r through the local output into the receive queue. */
static void eject(Noc *noc, unsigned r, BufEntry e, uint64_t c)
{
    Ni *ni = &noc->ni[r];

    if (e.idx == 0)
        g_queue_push_tail(&ni->rx, e.pkt);
    ni->rx_flits++;
    noc->busy_flits--;
    if (e.idx == e.pkt->nwords) {
        ni->rx_complete++;
        noc->watch_hit |= ni->watched;
        record_delivery(noc, e.pkt, c);
    }
}

/* Phase 2: move the flits chosen by decide(). */
static void apply(Noc *noc, uint64_t c)
{
    unsigned depth = noc->cfg.buffer_depth;

    for (unsigned r = 0; r < noc->nodes; r++) {
        Router *rt = &noc->routers[r];

        if (rt->quiet)
            continue;
        for (unsigned o = 0; o < NPORTS; o++) {
            OutPort *op = &rt->out[o];
            BufEntry e;

            if (op->grant < 0)
                continue;
            e = in_pop(&rt->in[op->grant], depth);
            if (e.idx == 0) {
                op->owner = op->grant;
                op->rr = (unsigned)(op->grant + 1) % NPORTS;
            }
            if (e.idx == e.pkt->nwords)
                op->owner = -1;
            if (o == PORT_LOCAL) {
                eject(noc, r, e, c);
            } else {
                in_push(&noc->routers[neighbour(noc, r, o)].in[opposite(o)],
                        depth, e.pkt, e.idx, c + noc->cfg.link_latency);
                op->flits++;
            }
        }

        Ni *ni = &noc->ni[r];
        if (ni->inject) {
            Packet *p = queue_front(&ni->tx);

            in_push(&rt->in[PORT_LOCAL], depth, p, ni->tx_sent++, c);
            ni->tx_flits--;
            noc->watch_hit |= ni->watched;
            if (ni->tx_sent == p->nwords + 1) {
                g_queue_pop_head(&ni->tx);
                ni->tx_sent = 0;
            }
        }
    }
}

/* Statistics of cycle c (state after its moves), counted span times. */
static void account(Noc *noc, uint64_t c, uint64_t span)
{
    for (unsigned r = 0; r < noc->nodes; r++) {
        Router *rt = &noc->routers[r];
        Ni *ni = &noc->ni[r];
        unsigned occ = 0;

        if (rt->quiet)
            continue; /* nothing buffered, nothing queued: adds nothing */
        for (unsigned i = 0; i < NPORTS; i++)
            occ += in_arrived(&rt->in[i], noc->cfg.buffer_depth, c);
        rt->occ_sum += (uint64_t)occ * span;
        if (occ > rt->occ_max)
            rt->occ_max = occ;
        if (rt->stalled)
            rt->stall_cycles += span;
        if (tx_due(ni, c) && !ni->inject)
            ni->inject_stall += span;
    }
}

/* First cycle after c at which a frozen network changes by itself: a
 * buffer head leaves the router pipeline, a flit comes off a link, or a
 * queued packet's stamp comes due. */
static uint64_t next_event(const Noc *noc, uint64_t c)
{
    uint64_t e = UINT64_MAX;
    unsigned depth = noc->cfg.buffer_depth;

    for (unsigned r = 0; r < noc->nodes; r++) {
        const Packet *p = queue_front(&noc->ni[r].tx);

        if (p && p->stamp > c)
            e = MIN(e, p->stamp);
        for (unsigned i = 0; i < NPORTS; i++) {
            const InPort *in = &noc->routers[r].in[i];
            uint64_t ready;
            unsigned n;

            if (in->count == 0)
                continue;
            ready = in_front(in)->arrive + noc->cfg.router_latency;
            if (ready > c)
                e = MIN(e, ready);
            n = in_arrived(in, depth, c);
            if (n < in->count)
                e = MIN(e, in->slot[(in->head + n) % depth].arrive);
        }
    }
    return e;
}

/* --- public API --- */

Noc *noc_new(const NocConfig *cfg)
{
    Noc *noc;
    unsigned nodes;

    g_assert(cfg->width >= 1 && cfg->width <= 16);
    g_assert(cfg->height >= 1 && cfg->height <= 16);
    g_assert(cfg->router_latency >= 1 && cfg->link_latency >= 1);
    g_assert(cfg->buffer_depth >= 1 && cfg->max_payload >= 1);
    g_assert(cfg->tx_queue_flits >= cfg->max_payload + 1);
    g_assert(cfg->rx_queue_flits >= cfg->max_payload + 1);

    nodes = cfg->width * cfg->height;
    noc = g_new0(Noc, 1);
    noc->cfg = *cfg;
    noc->nodes = nodes;
    noc->slots = g_new0(BufEntry, (gsize)nodes * NPORTS * cfg->buffer_depth);
    noc->routers = g_new0(Router, nodes);
    noc->ni = g_new0(Ni, nodes);
    noc->pair_packets = g_new0(uint64_t, (gsize)nodes * nodes);
    noc->pair_flits = g_new0(uint64_t, (gsize)nodes * nodes);
    noc->lat_big = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    noc->nb = g_new(int, (gsize)nodes * NPORTS);
    noc->route = g_new(uint8_t, (gsize)nodes * nodes);
    for (unsigned r = 0; r < nodes; r++) {
        for (unsigned p = 0; p < NPORTS; p++)
            noc->nb[r * NPORTS + p] = compute_neighbour(noc, r, p);
        for (unsigned d = 0; d < nodes; d++)
            noc->route[r * nodes + d] = (uint8_t)compute_route(noc, r, d);
    }
    for (unsigned r = 0; r < nodes; r++) {
        Router *rt = &noc->routers[r];

        for (unsigned p = 0; p < NPORTS; p++) {
            rt->in[p].slot =
                &noc->slots[((gsize)r * NPORTS + p) * cfg->buffer_depth];
            rt->out[p].owner = -1;
            rt->out[p].grant = -1;
        }
        g_queue_init(&noc->ni[r].tx);
        g_queue_init(&noc->ni[r].rx);
    }
    return noc;
}

/* Every live packet is freed exactly once: through the queue that holds it
 * if it is waiting to be injected or has reached its receive queue, else
 * through the buffer entry holding its head flit. */
void noc_log_packets(Noc *noc, size_t max)
{
    if (!noc->log)
        noc->log = g_array_new(FALSE, FALSE, sizeof(NocPacketRecord));
    noc->log_max = max;
}

const NocPacketRecord *noc_packet_log(const Noc *noc, size_t *n, uint64_t *dropped)
{
    *n = noc->log ? noc->log->len : 0;
    *dropped = noc->log_dropped;
    return noc->log ? (const NocPacketRecord *)(void *)noc->log->data : NULL;
}

void noc_free(Noc *noc)
{
    if (!noc)
        return;
    if (noc->log)
        g_array_free(noc->log, TRUE);
    for (unsigned r = 0; r < noc->nodes; r++) {
        Ni *ni = &noc->ni[r];

        if (ni->tx_sent > 0)
            g_queue_pop_head(&ni->tx);
        g_queue_clear_full(&ni->tx, g_free);
        g_queue_clear_full(&ni->rx, g_free);
        for (unsigned i = 0; i < NPORTS; i++) {
            InPort *in = &noc->routers[r].in[i];

            while (in->count > 0) {
                BufEntry e = in_pop(in, noc->cfg.buffer_depth);
                if (e.idx == 0)
                    g_free(e.pkt);
            }
        }
    }
    g_array_free(noc->lat_big, TRUE);
    g_free(noc->nb);
    g_free(noc->route);
    g_free(noc->pair_packets);
    g_free(noc->pair_flits);
    g_free(noc->ni);
    g_free(noc->routers);
    g_free(noc->slots);
    g_free(noc);
}

const NocConfig *noc_config(const Noc *noc)
{
    return &noc->cfg;
}

unsigned noc_nodes(const Noc *noc)
{
    return noc->nodes;
}

uint64_t noc_now(const Noc *noc)
{
    return noc->now;
}

/* Simulate [now, until); with `watch`, stop after the first cycle in
 * which a watched NI's receive count or injection queue changed. */
static bool run(Noc *noc, uint64_t until, bool watch)
{
    noc->watch_hit = false;
    while (noc->now < until) {
        uint64_t span = 1;

        /* Empty network: statistics only grow by the cycle count. */
        if (noc->busy_flits == 0) {
            noc->now = until;
            return false;
        }
        if (decide(noc, noc->now) > 0) {
            apply(noc, noc->now);
            noc->last_move = noc->now;
        } else
            span = MIN(next_event(noc, noc->now), until) - noc->now;
        g_assert(span > 0);
        account(noc, noc->now, span);
        noc->now += span;
        if (watch && noc->watch_hit)
            return true;
    }
    return false;
}

void noc_run_until(Noc *noc, uint64_t until)
{
    run(noc, until, false);
}

void noc_watch(Noc *noc, unsigned node, bool on)
{
    g_assert(node < noc->nodes);
    noc->ni[node].watched = on;
}

bool noc_run_watched(Noc *noc, uint64_t until)
{
    return run(noc, until, true);
}

uint64_t noc_next_activity(const Noc *noc)
{
    uint64_t c = noc->now;

    if (noc->busy_flits == 0)
        return UINT64_MAX;
    for (unsigned r = 0; r < noc->nodes; r++) {
        if (inject_possible(noc, r, c))
            return c;
        for (unsigned i = 0; i < NPORTS; i++) {
            int o = request(noc, r, i, c);
            if (o >= 0 && output_accepts(noc, r, o, i))
                return c;
        }
    }
    return next_event(noc, c);
}

unsigned noc_tx_free_flits(const Noc *noc, unsigned node)
{
    g_assert(node < noc->nodes);
    return noc->cfg.tx_queue_flits - noc->ni[node].tx_flits;
}

bool noc_send(Noc *noc, unsigned src, unsigned dst, const uint32_t *words,
              unsigned nwords, uint64_t at)
{
    Ni *ni;
    Packet *p;

    g_assert(src < noc->nodes && dst < noc->nodes);
    g_assert(nwords >= 1 && nwords <= noc->cfg.max_payload);
    g_assert(at >= noc->now);
    ni = &noc->ni[src];
    g_assert(at >= ni->last_stamp);

    if (noc_tx_free_flits(noc, src) < nwords + 1)
        return false;
    p = g_malloc(sizeof(*p) + nwords * sizeof(uint32_t));
    p->stamp = at;
    p->src = src;
    p->dst = dst;
    p->nwords = nwords;
    memcpy(p->words, words, nwords * sizeof(uint32_t));
    g_queue_push_tail(&ni->tx, p);
    ni->tx_flits += nwords + 1;
    ni->last_stamp = at;
    noc->busy_flits += nwords + 1;
    return true;
}

unsigned noc_rx_packets(const Noc *noc, unsigned node)
{
    g_assert(node < noc->nodes);
    return noc->ni[node].rx_complete;
}

bool noc_rx_head_times(const Noc *noc, unsigned node, uint64_t *sent, uint64_t *delivered)
{
    g_assert(node < noc->nodes);
    const Ni *ni = &noc->ni[node];
    if (ni->rx_complete == 0)
        return false;
    const Packet *p = queue_front(&ni->rx);
    *sent = p->stamp;
    *delivered = p->delivered;
    return true;
}

bool noc_rx_head(const Noc *noc, unsigned node, unsigned *src,
                 unsigned *len, unsigned *remaining)
{
    const Ni *ni;
    const Packet *p;

    g_assert(node < noc->nodes);
    ni = &noc->ni[node];
    if (ni->rx_complete == 0)
        return false;
    p = queue_front(&ni->rx);
    if (src)
        *src = p->src;
    if (len)
        *len = p->nwords;
    if (remaining)
        *remaining = p->nwords - ni->rx_popped;
    return true;
}

/* Free the head packet's receive-queue slots: its flits become credits of
 * the local output port. */
static void rx_consume(Ni *ni)
{
    Packet *p = g_queue_pop_head(&ni->rx);

    ni->rx_flits -= p->nwords + 1;
    ni->rx_complete--;
    ni->rx_popped = 0;
    g_free(p);
}

bool noc_rx_pop(Noc *noc, unsigned node, uint32_t *word)
{
    Ni *ni;
    const Packet *p;

    g_assert(node < noc->nodes);
    ni = &noc->ni[node];
    if (ni->rx_complete == 0)
        return false;
    p = queue_front(&ni->rx);
    *word = p->words[ni->rx_popped++];
    if (ni->rx_popped == p->nwords)
        rx_consume(ni);
    return true;
}

bool noc_rx_drop(Noc *noc, unsigned node)
{
    g_assert(node < noc->nodes);
    if (noc->ni[node].rx_complete == 0)
        return false;
    rx_consume(&noc->ni[node]);
    return true;
}

bool noc_quiescent(const Noc *noc)
{
    return noc->busy_flits == 0;
}

uint64_t noc_last_move(const Noc *noc)
{
    return noc->last_move;
}

int noc_tx_head_dst(const Noc *noc, unsigned node)
{
    g_assert(node < noc->nodes);
    const Packet *p = queue_front(&noc->ni[node].tx);
    return p ? (int)p->dst : -1;
}

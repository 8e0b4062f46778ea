// SPDX-License-Identifier: GPL-2.0-or-later
/* test-noc.c — unit tests of the mesh network-on-chip model (noc/noc.h). */
#include "noc/noc.h"

#include <glib.h>
#include <string.h>

/* configs/default.ini values on a w x h mesh. */
static NocConfig cfg_default(unsigned w, unsigned h)
{
    return (NocConfig){
        .width = w, .height = h,
        .router_latency = 2, .link_latency = 1, .buffer_depth = 4,
        .max_payload = 16, .tx_queue_flits = 34, .rx_queue_flits = 68,
    };
}

static unsigned hops(const NocConfig *cfg, unsigned s, unsigned d)
{
    unsigned sx = s % cfg->width, sy = s / cfg->width;
    unsigned dx = d % cfg->width, dy = d / cfg->width;

    return (sx > dx ? sx - dx : dx - sx) + (sy > dy ? sy - dy : dy - sy);
}

/* The contention-free full-delivery cycle promised by noc.h. */
static uint64_t formula(const NocConfig *cfg, uint64_t t0, unsigned h,
                        unsigned nwords)
{
    return t0 + (uint64_t)(h + 1) * cfg->router_latency +
           (uint64_t)h * cfg->link_latency + nwords;
}

/* Step one cycle at a time until node holds a complete packet; returns the
 * cycle in which it was delivered. */
static uint64_t step_until_delivered(Noc *noc, unsigned node, uint64_t limit)
{
    while (noc_rx_packets(noc, node) == 0) {
        g_assert_cmpuint(noc_now(noc), <, limit);
        noc_run_until(noc, noc_now(noc) + 1);
    }
    return noc_now(noc) - 1;
}

static uint64_t link_flits(const NocStats *st, unsigned from, unsigned to)
{
    for (unsigned i = 0; i < st->nlinks; i++)
        if (st->links[i].from == from && st->links[i].to == to)
            return st->links[i].flits;
    g_assert_not_reached();
}

static void assert_stats_equal(const NocStats *a, const NocStats *b)
{
    unsigned n = a->nodes;

    g_assert_cmpuint(a->cycles, ==, b->cycles);
    g_assert_cmpuint(a->nodes, ==, b->nodes);
    g_assert_cmpuint(a->nlinks, ==, b->nlinks);
    for (unsigned i = 0; i < a->nlinks; i++) {
        g_assert_cmpuint(a->links[i].from, ==, b->links[i].from);
        g_assert_cmpuint(a->links[i].to, ==, b->links[i].to);
        g_assert_cmpuint(a->links[i].flits, ==, b->links[i].flits);
        g_assert_cmpfloat(a->links[i].utilization, ==,
                          b->links[i].utilization);
    }
    g_assert_cmpmem(a->pair_packets, n * n * sizeof(uint64_t),
                    b->pair_packets, n * n * sizeof(uint64_t));
    g_assert_cmpmem(a->pair_flits, n * n * sizeof(uint64_t),
                    b->pair_flits, n * n * sizeof(uint64_t));
    g_assert_cmpuint(a->packets, ==, b->packets);
    g_assert_cmpuint(a->flits, ==, b->flits);
    g_assert_cmpuint(a->lat_min, ==, b->lat_min);
    g_assert_cmpuint(a->lat_max, ==, b->lat_max);
    g_assert_cmpuint(a->lat_p50, ==, b->lat_p50);
    g_assert_cmpuint(a->lat_p95, ==, b->lat_p95);
    g_assert_cmpuint(a->lat_p99, ==, b->lat_p99);
    g_assert_cmpfloat(a->lat_mean, ==, b->lat_mean);
    for (unsigned r = 0; r < n; r++) {
        g_assert_cmpfloat(a->router_occupancy_mean[r], ==,
                          b->router_occupancy_mean[r]);
        g_assert_cmpuint(a->router_occupancy_max[r], ==,
                         b->router_occupancy_max[r]);
        g_assert_cmpuint(a->router_stall_cycles[r], ==,
                         b->router_stall_cycles[r]);
        g_assert_cmpuint(a->inject_stall_cycles[r], ==,
                         b->inject_stall_cycles[r]);
    }
    g_assert_cmpuint(a->stall_cycles, ==, b->stall_cycles);
    g_assert_cmpuint(a->inject_stall_total, ==, b->inject_stall_total);
}

/* --- traffic driver: numbered packets with checkable payloads --- */

typedef struct RxCursor {
    unsigned src, len, seq, idx;
} RxCursor;

typedef struct Traffic {
    Noc *noc;
    unsigned n;
    uint32_t *next_seq, *expect_seq;  /* [src * n + dst] */
    uint64_t *last_stamp;             /* [src] */
    RxCursor *cur;                    /* [dst] packet being popped */
    uint64_t sent, received, refused;
} Traffic;

static uint32_t payload_word(unsigned src, unsigned dst, uint32_t seq,
                             unsigned k)
{
    return k == 0 ? seq
                  : (src * 2654435761u) ^ (dst << 20) ^ (seq * 40503u) ^ k;
}

static void traffic_init(Traffic *t, Noc *noc)
{
    memset(t, 0, sizeof(*t));
    t->noc = noc;
    t->n = noc_nodes(noc);
    t->next_seq = g_new0(uint32_t, t->n * t->n);
    t->expect_seq = g_new0(uint32_t, t->n * t->n);
    t->last_stamp = g_new0(uint64_t, t->n);
    t->cur = g_new0(RxCursor, t->n);
}

static void traffic_clear(Traffic *t)
{
    g_free(t->next_seq);
    g_free(t->expect_seq);
    g_free(t->last_stamp);
    g_free(t->cur);
}

/* Send the next numbered packet src -> dst, stamped no earlier than at. */
static bool traffic_send(Traffic *t, unsigned src, unsigned dst,
                         unsigned nwords, uint64_t at)
{
    uint32_t words[256];
    uint32_t seq = t->next_seq[src * t->n + dst];

    g_assert_cmpuint(nwords, <=, G_N_ELEMENTS(words));
    at = MAX(at, MAX(t->last_stamp[src], noc_now(t->noc)));
    for (unsigned k = 0; k < nwords; k++)
        words[k] = payload_word(src, dst, seq, k);
    if (!noc_send(t->noc, src, dst, words, nwords, at)) {
        t->refused++;
        return false;
    }
    t->last_stamp[src] = at;
    t->next_seq[src * t->n + dst]++;
    t->sent++;
    return true;
}

/* Pop up to max_words words at node, checking order and payload. */
static unsigned traffic_pop(Traffic *t, unsigned node, unsigned max_words)
{
    RxCursor *c = &t->cur[node];
    unsigned popped = 0;

    while (popped < max_words) {
        unsigned src, len, remaining;
        uint32_t w;

        if (!noc_rx_head(t->noc, node, &src, &len, &remaining))
            break;
        if (c->idx == 0) {
            c->src = src;
            c->len = len;
        }
        g_assert_cmpuint(src, ==, c->src);
        g_assert_cmpuint(len, ==, c->len);
        g_assert_cmpuint(remaining, ==, len - c->idx);
        g_assert_true(noc_rx_pop(t->noc, node, &w));
        popped++;
        if (c->idx == 0) {
            c->seq = w;
            g_assert_cmpuint(w, ==, t->expect_seq[src * t->n + node]);
        } else {
            g_assert_cmpuint(w, ==, payload_word(src, node, c->seq, c->idx));
        }
        if (++c->idx == len) {
            c->idx = 0;
            t->expect_seq[src * t->n + node]++;
            t->received++;
        }
    }
    return popped;
}

static void traffic_pop_all(Traffic *t)
{
    for (unsigned d = 0; d < t->n; d++)
        traffic_pop(t, d, UINT_MAX);
}

/* Every packet sent was received, in order per pair. */
static void traffic_assert_complete(const Traffic *t)
{
    g_assert_cmpuint(t->received, ==, t->sent);
    g_assert_cmpmem(t->next_seq, t->n * t->n * sizeof(uint32_t),
                    t->expect_seq, t->n * t->n * sizeof(uint32_t));
    g_assert_true(noc_quiescent(t->noc));
}

/* --- latency --- */

/* One packet over h hops, every pair of a 4x4 mesh, arrives exactly at the
 * formula's cycle; half the packets are stamped in the future. */
static void test_latency_hops(void)
{
    static const unsigned rls[] = { 1, 2, 3 }, lls[] = { 1, 2, 4 };
    static const unsigned sizes[] = { 1, 5, 16 };

    for (unsigned a = 0; a < G_N_ELEMENTS(rls); a++)
    for (unsigned b = 0; b < G_N_ELEMENTS(lls); b++)
    for (unsigned z = 0; z < G_N_ELEMENTS(sizes); z++)
    for (unsigned s = 0; s < 16; s++)
    for (unsigned d = 0; d < 16; d++) {
        NocConfig cfg = cfg_default(4, 4);
        Noc *noc;
        Traffic t;
        NocStats *st;
        unsigned h = hops(&cfg, s, d), nw = sizes[z];
        uint64_t t0 = 3 + s % 5, expect;

        cfg.router_latency = rls[a];
        cfg.link_latency = lls[b];
        /* Deep enough for the credit loop not to throttle (docs/noc.md). */
        cfg.buffer_depth = rls[a] + lls[b] + 1;
        noc = noc_new(&cfg);
        traffic_init(&t, noc);
        if ((s + d) % 2)
            noc_run_until(noc, t0);
        g_assert_cmpuint(noc_next_activity(noc), ==, UINT64_MAX);
        g_assert_true(traffic_send(&t, s, d, nw, t0));
        g_assert_cmpuint(noc_next_activity(noc), ==, t0);

        expect = formula(&cfg, t0, h, nw);
        g_assert_cmpuint(step_until_delivered(noc, d, expect + 1), ==, expect);
        g_assert_true(noc_quiescent(noc));
        g_assert_cmpuint(noc_next_activity(noc), ==, UINT64_MAX);
        traffic_pop_all(&t);
        traffic_assert_complete(&t);

        st = noc_stats(noc);
        g_assert_cmpuint(st->packets, ==, 1);
        g_assert_cmpuint(st->lat_min, ==, expect - t0);
        g_assert_cmpuint(st->lat_max, ==, expect - t0);
        g_assert_cmpuint(st->lat_p99, ==, expect - t0);
        g_assert_cmpuint(st->stall_cycles, ==, 0);
        g_assert_cmpuint(st->inject_stall_total, ==, 0);
        noc_stats_free(st);
        traffic_clear(&t);
        noc_free(noc);
    }
}

/* The same deliveries when noc_run_until jumps straight past them. */
static void test_latency_jump(void)
{
    NocConfig cfg = cfg_default(4, 4);
    Noc *noc = noc_new(&cfg);
    Traffic t;
    NocStats *st;

    traffic_init(&t, noc);
    g_assert_true(traffic_send(&t, 0, 15, 16, 100));
    noc_run_until(noc, 100000);
    st = noc_stats(noc);
    g_assert_cmpuint(st->lat_max, ==, formula(&cfg, 0, 6, 16));
    g_assert_cmpuint(st->cycles, ==, 100000);
    noc_stats_free(st);
    traffic_pop_all(&t);
    traffic_assert_complete(&t);
    traffic_clear(&t);
    noc_free(noc);
}

/* --- throughput --- */

/* A stream between neighbours keeps their link busy every cycle: the whole
 * stream behaves like one long packet, so N packets of L flits are done at
 * formula(t0 = 0, h = 1) with N * L - 1 trailing flits. */
static void test_throughput_saturation(void)
{
    NocConfig cfg = cfg_default(4, 4);
    Noc *noc = noc_new(&cfg);
    const unsigned npkts = 2000, nw = 16, L = nw + 1, src = 5, dst = 6;
    const uint64_t last = formula(&cfg, 0, 1, npkts * L - 1);
    uint64_t at1000 = 0;
    unsigned queued = 0;
    Traffic t;
    NocStats *st;

    traffic_init(&t, noc);
    for (;;) {
        g_assert_cmpuint(noc_now(noc), <=, last + 1);
        traffic_pop(&t, dst, UINT_MAX);
        if (t.received == npkts)
            break;
        while (queued < npkts && noc_tx_free_flits(noc, src) >= L) {
            g_assert_true(traffic_send(&t, src, dst, nw, noc_now(noc)));
            queued++;
        }
        if (noc_now(noc) == 1000 || noc_now(noc) == 31000) {
            st = noc_stats(noc);
            if (noc_now(noc) == 1000) {
                at1000 = link_flits(st, src, dst);
            } else {
                /* Steady state: exactly one flit per cycle. */
                g_assert_cmpuint(link_flits(st, src, dst) - at1000, ==, 30000);
            }
            noc_stats_free(st);
        }
        noc_run_until(noc, noc_now(noc) + 1);
    }
    g_assert_cmpuint(noc_now(noc), ==, last + 1);

    st = noc_stats(noc);
    g_assert_cmpuint(st->flits, ==, (uint64_t)npkts * L);
    g_assert_cmpuint(link_flits(st, src, dst), ==, (uint64_t)npkts * L);
    /* Utilization over the run: N * L flits in N * L + 5 cycles (head
     * latency 2R + Lk = 5; the last cycle is the +1 of "delivered at"). */
    g_assert_cmpuint(st->cycles, ==, (uint64_t)npkts * L + 5);
    for (unsigned i = 0; i < st->nlinks; i++) {
        if (st->links[i].from == src && st->links[i].to == dst)
            g_assert_cmpfloat(st->links[i].utilization, ==,
                              (double)(npkts * L) / (double)(npkts * L + 5));
    }
    g_assert_cmpuint(st->stall_cycles, ==, 0);
    g_assert_cmpuint(st->inject_stall_total, ==, 0);
    g_assert_cmpuint(st->router_occupancy_max[src], <=, 2 * cfg.buffer_depth);
    noc_stats_free(st);
    traffic_clear(&t);
    noc_free(noc);
}

/* --- torture: one flit of buffering --- */

static void test_buffer_depth_one(void)
{
    static const unsigned lat[][2] = { { 1, 1 }, { 3, 2 } };

    /* Exact: the credit loop R + Lk + 1 paces each flit over the link
     * (R = Lk = 1, one hop, 2 words: head at 3, then every 3 cycles). */
    {
        NocConfig cfg = cfg_default(2, 1);
        Noc *noc;
        Traffic t;

        cfg.router_latency = cfg.link_latency = cfg.buffer_depth = 1;
        noc = noc_new(&cfg);
        traffic_init(&t, noc);
        g_assert_true(traffic_send(&t, 0, 1, 2, 0));
        g_assert_cmpuint(step_until_delivered(noc, 1, 100), ==, 3 + 2 * 3);
        traffic_pop_all(&t);
        traffic_assert_complete(&t);
        traffic_clear(&t);
        noc_free(noc);
    }

    for (unsigned v = 0; v < G_N_ELEMENTS(lat); v++) {
        NocConfig cfg = cfg_default(3, 3);
        GRand *rng = g_rand_new_with_seed(7 + v);
        unsigned per_node = 40, left[9];
        Noc *noc;
        Traffic t;
        NocStats *st;

        cfg.router_latency = lat[v][0];
        cfg.link_latency = lat[v][1];
        cfg.buffer_depth = 1;
        cfg.max_payload = 8;
        cfg.tx_queue_flits = cfg.rx_queue_flits = 9;
        noc = noc_new(&cfg);
        traffic_init(&t, noc);
        for (unsigned n = 0; n < 9; n++)
            left[n] = per_node;
        while (t.received < 9 * per_node) {
            g_assert_cmpuint(noc_now(noc), <, 1000000);
            for (unsigned n = 0; n < 9; n++) {
                if (left[n] > 0 &&
                    traffic_send(&t, n, g_rand_int_range(rng, 0, 9),
                                 g_rand_int_range(rng, 1, 9), noc_now(noc)))
                    left[n]--;
            }
            traffic_pop_all(&t);
            noc_run_until(noc, noc_now(noc) + 1);
        }
        traffic_pop_all(&t);
        traffic_assert_complete(&t);
        st = noc_stats(noc);
        g_assert_cmpuint(st->packets, ==, 9 * per_node);
        for (unsigned r = 0; r < 9; r++)
            g_assert_cmpuint(st->router_occupancy_max[r], <=, 5);
        noc_stats_free(st);
        traffic_clear(&t);
        noc_free(noc);
        g_rand_free(rng);
    }
}

/* --- hot spot --- */

/* Fifteen nodes flood node 5, whose receive queue holds one packet and
 * which pops one word every 4 cycles. */
static void test_hotspot(void)
{
    NocConfig cfg = cfg_default(4, 4);
    const unsigned hot = 5, per_src = 12, nw = 16;
    unsigned left[16];
    Noc *noc;
    Traffic t;
    NocStats *st;

    cfg.rx_queue_flits = nw + 1;
    noc = noc_new(&cfg);
    traffic_init(&t, noc);
    for (unsigned n = 0; n < 16; n++)
        left[n] = n == hot ? 0 : per_src;
    while (t.received < 15 * per_src) {
        uint64_t now = noc_now(noc);

        g_assert_cmpuint(now, <, 1000000);
        for (unsigned n = 0; n < 16; n++)
            if (left[n] > 0 && traffic_send(&t, n, hot, nw, now))
                left[n]--;
        if (now % 4 == 0)
            traffic_pop(&t, hot, 1);
        noc_run_until(noc, now + 1);
    }
    traffic_assert_complete(&t);

    st = noc_stats(noc);
    g_assert_cmpuint(t.refused, >, 0);
    g_assert_cmpuint(st->inject_stall_total, >, 0);
    g_assert_cmpuint(st->stall_cycles, >, 0);
    g_assert_cmpuint(st->router_stall_cycles[hot], >, 0);
    g_assert_cmpuint(st->packets, ==, 15 * per_src);
    for (unsigned s = 0; s < 16; s++) {
        g_assert_cmpuint(st->pair_packets[s * 16 + hot], ==,
                         s == hot ? 0 : per_src);
        g_assert_cmpuint(st->pair_flits[s * 16 + hot], ==,
                         s == hot ? 0 : per_src * (nw + 1));
    }
    /* The receiver is the bottleneck: 4 cycles per word. */
    g_assert_cmpuint(st->cycles, >, 4ull * (15 * per_src * nw - 1));
    noc_stats_free(st);
    traffic_clear(&t);
    noc_free(noc);
}

/* A network blocked only by a full receive queue cannot change by itself. */
static void test_backpressure_blocked(void)
{
    NocConfig cfg = cfg_default(2, 2);
    Noc *noc;
    Traffic t;

    cfg.max_payload = 4;
    cfg.rx_queue_flits = 5;
    noc = noc_new(&cfg);
    traffic_init(&t, noc);
    g_assert_true(traffic_send(&t, 0, 3, 4, 0));
    g_assert_true(traffic_send(&t, 0, 3, 4, 0));
    noc_run_until(noc, 500);
    g_assert_cmpuint(noc_rx_packets(noc, 3), ==, 1);
    g_assert_false(noc_quiescent(noc));
    g_assert_cmpuint(noc_next_activity(noc), ==, UINT64_MAX);
    g_assert_true(noc_rx_drop(noc, 3));
    t.expect_seq[0 * 4 + 3]++;
    t.received++;
    g_assert_cmpuint(noc_next_activity(noc), ==, 500);
    noc_run_until(noc, 1000);
    traffic_pop_all(&t);
    traffic_assert_complete(&t);
    traffic_clear(&t);
    noc_free(noc);
}

/* --- arbitration --- */

/* Nodes 0, 1 and 2 of a 3x1 mesh each queue 12 two-flit packets for node
 * 1 at cycle 0. Node 1's own packets reach its local output first (head
 * latency R = 2 against 2R + Lk = 5 from a neighbour) and take two turns;
 * from then on the output rotates E (node 2), W (node 0), local (node 1)
 * until node 1 runs dry, then alternates E, W. */
static void test_arbitration_round_robin(void)
{
    static const char expect[] =
        "11" "201201201201201201201201201201" "2020";
    NocConfig cfg = cfg_default(3, 1);
    const unsigned per_src = 12;
    unsigned order[3 * 12], got = 0;
    char seq[3 * 12 + 1] = { 0 };
    Noc *noc = noc_new(&cfg);
    Traffic t;

    traffic_init(&t, noc);
    for (unsigned k = 0; k < per_src; k++)
        for (unsigned s = 0; s < 3; s++)
            g_assert_true(traffic_send(&t, s, 1, 1, 0));
    while (got < 3 * per_src) {
        unsigned src;

        g_assert_cmpuint(noc_now(noc), <, 10000);
        while (noc_rx_head(noc, 1, &src, NULL, NULL)) {
            order[got++] = src;
            traffic_pop(&t, 1, 1);
        }
        noc_run_until(noc, noc_now(noc) + 1);
    }
    traffic_assert_complete(&t);
    for (unsigned k = 0; k < 3 * per_src; k++)
        seq[k] = (char)('0' + order[k]);
    g_assert_cmpstr(seq, ==, expect);
    traffic_clear(&t);
    noc_free(noc);
}

/* --- routing --- */

static void assert_only_path(const NocStats *st, const unsigned *path,
                             unsigned npath, uint64_t flits)
{
    for (unsigned i = 0; i < st->nlinks; i++) {
        uint64_t expect = 0;

        for (unsigned k = 0; k + 1 < npath; k++)
            if (st->links[i].from == path[k] && st->links[i].to == path[k + 1])
                expect = flits;
        g_assert_cmpuint(st->links[i].flits, ==, expect);
    }
}

static NocStats *one_packet_stats(const NocConfig *cfg, unsigned s,
                                  unsigned d, unsigned nw)
{
    Noc *noc = noc_new(cfg);
    Traffic t;
    NocStats *st;

    traffic_init(&t, noc);
    g_assert_true(traffic_send(&t, s, d, nw, 0));
    noc_run_until(noc, 1000);
    traffic_pop_all(&t);
    traffic_assert_complete(&t);
    st = noc_stats(noc);
    traffic_clear(&t);
    noc_free(noc);
    return st;
}

static void test_routing_xy(void)
{
    NocConfig cfg = cfg_default(4, 4);
    static const unsigned p1[] = { 0, 1, 2, 3, 7, 11 };
    static const unsigned p2[] = { 15, 14, 13, 9, 5, 1 };
    NocStats *st;
    uint64_t expect[16][16] = { { 0 } };
    Noc *noc;
    Traffic t;

    st = one_packet_stats(&cfg, 0, 11, 3);
    g_assert_cmpuint(st->nlinks, ==, 48);
    for (unsigned i = 1; i < st->nlinks; i++)
        g_assert_true(st->links[i - 1].from < st->links[i].from ||
                      (st->links[i - 1].from == st->links[i].from &&
                       st->links[i - 1].to < st->links[i].to));
    assert_only_path(st, p1, G_N_ELEMENTS(p1), 4);
    noc_stats_free(st);
    st = one_packet_stats(&cfg, 15, 1, 16);
    assert_only_path(st, p2, G_N_ELEMENTS(p2), 17);
    noc_stats_free(st);

    /* All pairs, one at a time, against an independent XY walk. */
    noc = noc_new(&cfg);
    traffic_init(&t, noc);
    for (unsigned s = 0; s < 16; s++) {
        for (unsigned d = 0; d < 16; d++) {
            unsigned nw = 1 + (s + 3 * d) % 16, x = s % 4, y = s / 4;

            g_assert_true(traffic_send(&t, s, d, nw, noc_now(noc)));
            while (x != d % 4 || y != d / 4) {
                unsigned from = y * 4 + x;
                if (x != d % 4)
                    x = x < d % 4 ? x + 1 : x - 1;
                else
                    y = y < d / 4 ? y + 1 : y - 1;
                expect[from][y * 4 + x] += nw + 1;
            }
            noc_run_until(noc, noc_now(noc) + 100);
            traffic_pop_all(&t);
        }
    }
    traffic_assert_complete(&t);
    st = noc_stats(noc);
    for (unsigned i = 0; i < st->nlinks; i++)
        g_assert_cmpuint(st->links[i].flits, ==,
                         expect[st->links[i].from][st->links[i].to]);
    noc_stats_free(st);
    traffic_clear(&t);
    noc_free(noc);
}

/* --- statistics --- */

static void test_stats_pairs(void)
{
    NocConfig cfg = cfg_default(2, 2);
    static const struct { unsigned s, d, nw, count; } sends[] = {
        { 0, 3, 4, 3 }, { 1, 2, 2, 2 }, { 3, 3, 1, 1 }, { 2, 0, 16, 1 },
    };
    uint64_t pk[16] = { 0 }, fl[16] = { 0 };
    Noc *noc = noc_new(&cfg);
    Traffic t;
    NocStats *st;

    traffic_init(&t, noc);
    for (unsigned i = 0; i < G_N_ELEMENTS(sends); i++) {
        for (unsigned k = 0; k < sends[i].count; k++)
            g_assert_true(traffic_send(&t, sends[i].s, sends[i].d,
                                       sends[i].nw, 0));
        pk[sends[i].s * 4 + sends[i].d] += sends[i].count;
        fl[sends[i].s * 4 + sends[i].d] += sends[i].count * (sends[i].nw + 1);
    }
    noc_run_until(noc, 1000);
    traffic_pop_all(&t);
    traffic_assert_complete(&t);
    st = noc_stats(noc);
    g_assert_cmpmem(st->pair_packets, sizeof(pk), pk, sizeof(pk));
    g_assert_cmpmem(st->pair_flits, sizeof(fl), fl, sizeof(fl));
    g_assert_cmpuint(st->packets, ==, 7);
    g_assert_cmpuint(st->flits, ==, 15 + 6 + 2 + 17);
    /* XY: 0->3 via 1, 1->2 via 0. */
    g_assert_cmpuint(link_flits(st, 0, 1), ==, 15);
    g_assert_cmpuint(link_flits(st, 1, 3), ==, 15);
    g_assert_cmpuint(link_flits(st, 1, 0), ==, 6);
    g_assert_cmpuint(link_flits(st, 0, 2), ==, 6);
    g_assert_cmpuint(link_flits(st, 2, 0), ==, 17);
    g_assert_cmpuint(link_flits(st, 3, 1) + link_flits(st, 2, 3) +
                     link_flits(st, 3, 2), ==, 0);
    g_assert_cmpfloat(st->links[0].utilization, ==, 15.0 / 1000.0);
    noc_stats_free(st);
    traffic_clear(&t);
    noc_free(noc);
}

/* Self-sends on a 1x1 mesh one at a time: latency is R + nwords, so a
 * permutation of sizes 1..20 gives latencies 2..21 (R = 1). Percentiles
 * are nearest-rank. */
static void test_stats_latency(void)
{
    static const unsigned order[20] = {
        7, 20, 1, 13, 4, 18, 2, 9, 16, 11, 5, 19, 3, 14, 8, 17, 6, 12, 15, 10,
    };
    NocConfig cfg = cfg_default(1, 1);
    Noc *noc;
    Traffic t;
    NocStats *st;

    cfg.router_latency = 1;
    cfg.max_payload = 20;
    cfg.tx_queue_flits = cfg.rx_queue_flits = 21;
    noc = noc_new(&cfg);
    traffic_init(&t, noc);
    for (unsigned i = 0; i < 20; i++) {
        uint64_t t0 = noc_now(noc);

        g_assert_true(traffic_send(&t, 0, 0, order[i], t0));
        g_assert_cmpuint(step_until_delivered(noc, 0, t0 + 100), ==,
                         t0 + 1 + order[i]);
        traffic_pop_all(&t);
    }
    traffic_assert_complete(&t);
    st = noc_stats(noc);
    g_assert_cmpuint(st->packets, ==, 20);
    g_assert_cmpuint(st->flits, ==, 230);
    g_assert_cmpuint(st->pair_flits[0], ==, 230);
    g_assert_cmpuint(st->lat_min, ==, 2);
    g_assert_cmpuint(st->lat_max, ==, 21);
    g_assert_cmpfloat(st->lat_mean, ==, 11.5);
    g_assert_cmpuint(st->lat_p50, ==, 11);
    g_assert_cmpuint(st->lat_p95, ==, 20);
    g_assert_cmpuint(st->lat_p99, ==, 21);
    g_assert_cmpuint(st->nlinks, ==, 0);
    noc_stats_free(st);
    traffic_clear(&t);
    noc_free(noc);
}

/* Two 1-word self-sends at cycle 0 into a 2-flit receive queue left full
 * until cycle 10000: every statistic follows by hand (docs/noc.md). */
static void test_stats_blocked(void)
{
    NocConfig cfg = cfg_default(1, 1);
    Noc *noc;
    Traffic t;
    NocStats *st;

    cfg.router_latency = 1;
    cfg.max_payload = 1;
    cfg.tx_queue_flits = 4;
    cfg.rx_queue_flits = 2;
    noc = noc_new(&cfg);
    traffic_init(&t, noc);
    g_assert_true(traffic_send(&t, 0, 0, 1, 0));
    g_assert_true(traffic_send(&t, 0, 0, 1, 0));
    g_assert_cmpuint(noc_tx_free_flits(noc, 0), ==, 0);
    g_assert_false(traffic_send(&t, 0, 0, 1, 0));
    noc_run_until(noc, 10000);
    g_assert_cmpuint(noc_rx_packets(noc, 0), ==, 1);
    g_assert_cmpuint(noc_tx_free_flits(noc, 0), ==, 4);
    g_assert_cmpuint(traffic_pop(&t, 0, 1), ==, 1);
    noc_run_until(noc, 10002);
    traffic_pop_all(&t);
    traffic_assert_complete(&t);

    st = noc_stats(noc);
    g_assert_cmpuint(st->cycles, ==, 10002);
    g_assert_cmpuint(st->lat_min, ==, 2);
    g_assert_cmpuint(st->lat_max, ==, 10001);
    g_assert_cmpuint(st->lat_p50, ==, 2);
    g_assert_cmpuint(st->lat_p95, ==, 10001);
    g_assert_cmpuint(st->lat_p99, ==, 10001);
    g_assert_cmpfloat(st->lat_mean, ==, 5001.5);
    /* Second head ready at 3, blocked through 9999. */
    g_assert_cmpuint(st->router_stall_cycles[0], ==, 9997);
    g_assert_cmpuint(st->stall_cycles, ==, 9997);
    g_assert_cmpuint(st->inject_stall_total, ==, 0);
    /* Buffered flit-cycles: 1 + 1 + 1 + 2 * 9997 + 1. */
    g_assert_cmpuint(st->router_occupancy_max[0], ==, 2);
    g_assert_cmpfloat(st->router_occupancy_mean[0], ==, 19998.0 / 10002.0);
    noc_stats_free(st);
    traffic_clear(&t);
    noc_free(noc);
}

/* Injection stalls: a 1-flit local buffer with R = 2 admits one flit every
 * R + 1 = 3 cycles, so a 2-flit packet's tail waits 2 cycles. */
static void test_stats_inject_stall(void)
{
    NocConfig cfg = cfg_default(1, 1);
    Noc *noc;
    Traffic t;
    NocStats *st;

    cfg.buffer_depth = 1;
    noc = noc_new(&cfg);
    traffic_init(&t, noc);
    g_assert_true(traffic_send(&t, 0, 0, 1, 0));
    g_assert_cmpuint(step_until_delivered(noc, 0, 100), ==, 5);
    traffic_pop_all(&t);
    traffic_assert_complete(&t);
    st = noc_stats(noc);
    g_assert_cmpuint(st->inject_stall_cycles[0], ==, 2);
    g_assert_cmpuint(st->inject_stall_total, ==, 2);
    g_assert_cmpuint(st->stall_cycles, ==, 0);
    noc_stats_free(st);
    traffic_clear(&t);
    noc_free(noc);
}

/* --- idle skipping and determinism --- */

enum { RUN_PER_CYCLE, RUN_JUMP, RUN_GUIDED };

#define SCRIPT_SEND_END 3000
#define SCRIPT_END 12000

static NocConfig script_cfg(void)
{
    NocConfig cfg = cfg_default(3, 3);

    cfg.router_latency = 2;
    cfg.link_latency = 3;
    cfg.buffer_depth = 2;
    cfg.max_payload = 8;
    cfg.tx_queue_flits = 18;
    cfg.rx_queue_flits = 9;
    return cfg;
}

/* The driver's actions at cycle c depend only on c, never on the mode. */
static void script_act(Traffic *t, uint64_t c)
{
    GRand *r = g_rand_new_with_seed((guint32)(c * 2654435761u + 1));

    if (c < SCRIPT_SEND_END) {
        unsigned k = g_rand_int_range(r, 0, 4);

        for (unsigned i = 0; i < k; i++) {
            unsigned s = g_rand_int_range(r, 0, 9);
            unsigned d = g_rand_int_range(r, 0, 9);
            unsigned nw = g_rand_int_range(r, 1, 9);
            traffic_send(t, s, d, nw, c + g_rand_int_range(r, 0, 30));
        }
    }
    for (unsigned n = 0; n < t->n; n++)
        traffic_pop(t, n, c < SCRIPT_SEND_END ? (unsigned)g_rand_int_range(r, 0, 10)
                                              : UINT_MAX);
    g_rand_free(r);
}

/* A snapshot that changes whenever a flit is injected, crosses a link or
 * completes a packet. */
static uint64_t motion(const Noc *noc)
{
    NocStats *st = noc_stats(noc);
    uint64_t m = st->flits;

    for (unsigned i = 0; i < st->nlinks; i++)
        m += st->links[i].flits;
    for (unsigned n = 0; n < st->nodes; n++)
        m += noc_tx_free_flits(noc, n);
    noc_stats_free(st);
    return m;
}

static NocStats *run_script(int mode, Traffic *t)
{
    NocConfig cfg = script_cfg();
    Noc *noc = noc_new(&cfg);
    GRand *gaps = g_rand_new_with_seed(42);
    uint64_t next_action = 0, frozen_until = 0, frozen_motion = 0;
    NocStats *st;

    traffic_init(t, noc);
    while (noc_now(noc) < SCRIPT_END) {
        uint64_t c = noc_now(noc), a;

        if (c == next_action) {
            script_act(t, c);
            next_action = c + g_rand_int_range(gaps, 1, 60);
            frozen_until = 0;
        }
        a = noc_next_activity(noc);
        g_assert_cmpuint(a, >=, c);
        switch (mode) {
        case RUN_PER_CYCLE:
            /* noc_next_activity's promise: nothing moves before a. */
            if (c < frozen_until)
                g_assert_cmpuint(motion(noc), ==, frozen_motion);
            else if (a > c)
                frozen_until = a, frozen_motion = motion(noc);
            noc_run_until(noc, c + 1);
            break;
        case RUN_JUMP:
            noc_run_until(noc, MIN(next_action, SCRIPT_END));
            break;
        case RUN_GUIDED:
            noc_run_until(noc, MIN(MAX(a, c + 1), MIN(next_action, SCRIPT_END)));
            break;
        }
    }
    traffic_pop_all(t);
    traffic_assert_complete(t);
    g_assert_cmpuint(t->sent, >, 100);
    g_assert_cmpuint(t->refused, >, 0);
    st = noc_stats(noc);
    g_assert_cmpuint(st->stall_cycles, >, 0);
    g_assert_cmpuint(st->inject_stall_total, >, 0);
    g_rand_free(gaps);
    noc_free(noc);
    t->noc = NULL;
    return st;
}

static void test_skip_identical(void)
{
    Traffic ta, tb, tc;
    NocStats *a = run_script(RUN_PER_CYCLE, &ta);
    NocStats *b = run_script(RUN_JUMP, &tb);
    NocStats *c = run_script(RUN_GUIDED, &tc);

    assert_stats_equal(a, b);
    assert_stats_equal(a, c);
    g_assert_cmpuint(ta.sent, ==, tb.sent);
    g_assert_cmpuint(ta.refused, ==, tb.refused);
    g_assert_cmpuint(ta.sent, ==, tc.sent);
    g_assert_cmpuint(ta.refused, ==, tc.refused);
    noc_stats_free(a);
    noc_stats_free(b);
    noc_stats_free(c);
    traffic_clear(&ta);
    traffic_clear(&tb);
    traffic_clear(&tc);
}

static void test_determinism(void)
{
    Traffic ta, tb;
    NocStats *a = run_script(RUN_GUIDED, &ta);
    NocStats *b = run_script(RUN_GUIDED, &tb);

    assert_stats_equal(a, b);
    g_assert_cmpuint(ta.sent, ==, tb.sent);
    noc_stats_free(a);
    noc_stats_free(b);
    traffic_clear(&ta);
    traffic_clear(&tb);
}

/* --- 1x1 mesh --- */

static void test_self_send_1x1(void)
{
    NocConfig cfg = cfg_default(1, 1);
    Noc *noc = noc_new(&cfg);
    uint32_t w[16], out;
    unsigned src, len, remaining;

    g_assert_cmpuint(noc_nodes(noc), ==, 1);
    g_assert_cmpuint(noc_config(noc)->rx_queue_flits, ==, 68);
    g_assert_false(noc_rx_head(noc, 0, &src, &len, &remaining));
    g_assert_false(noc_rx_pop(noc, 0, &out));
    g_assert_false(noc_rx_drop(noc, 0));
    for (unsigned i = 0; i < 16; i++)
        w[i] = 0xc0de0000u + i;
    g_assert_true(noc_send(noc, 0, 0, w, 16, 0));
    g_assert_true(noc_send(noc, 0, 0, w + 1, 3, 0));
    g_assert_cmpuint(noc_tx_free_flits(noc, 0), ==, 34 - 17 - 4);
    g_assert_false(noc_send(noc, 0, 0, w, 16, 0));
    g_assert_true(noc_send(noc, 0, 0, w + 2, 2, 0));
    g_assert_cmpuint(noc_tx_free_flits(noc, 0), ==, 34 - 17 - 4 - 3);

    /* Back to back through the local port: R + 16, then 4 and 3 more. */
    g_assert_cmpuint(step_until_delivered(noc, 0, 100), ==, 2 + 16);
    noc_run_until(noc, 2 + 16 + 4 + 3 + 1);
    g_assert_cmpuint(noc_rx_packets(noc, 0), ==, 3);
    g_assert_true(noc_quiescent(noc));

    g_assert_true(noc_rx_head(noc, 0, &src, &len, &remaining));
    g_assert_cmpuint(src, ==, 0);
    g_assert_cmpuint(len, ==, 16);
    for (unsigned i = 0; i < 16; i++) {
        g_assert_true(noc_rx_pop(noc, 0, &out));
        g_assert_cmphex(out, ==, w[i]);
    }
    g_assert_true(noc_rx_head(noc, 0, &src, &len, &remaining));
    g_assert_cmpuint(len, ==, 3);
    g_assert_true(noc_rx_pop(noc, 0, &out));
    g_assert_cmphex(out, ==, w[1]);
    g_assert_true(noc_rx_head(noc, 0, &src, &len, &remaining));
    g_assert_cmpuint(remaining, ==, 2);
    g_assert_true(noc_rx_drop(noc, 0));
    g_assert_true(noc_rx_pop(noc, 0, &out));
    g_assert_cmphex(out, ==, w[2]);
    g_assert_true(noc_rx_pop(noc, 0, &out));
    g_assert_cmphex(out, ==, w[3]);
    g_assert_cmpuint(noc_rx_packets(noc, 0), ==, 0);
    g_assert_false(noc_rx_pop(noc, 0, &out));
    noc_free(noc);
}

/* noc_free releases packets wherever they are: queued, partly injected,
 * spread over routers and links, partly or fully received (ASan checks). */
/* The packet log: one record per delivered packet, with the stamp and the
 * delivery cycle of the formula; past its maximum, records are counted. */
static void test_packet_log(void)
{
    NocConfig cfg = cfg_default(4, 4);
    Noc *noc = noc_new(&cfg);
    noc_log_packets(noc, 2);
    uint32_t w[3] = { 1, 2, 3 };
    g_assert_true(noc_send(noc, 0, 15, w, 3, 10));
    noc_run_until(noc, 200);
    g_assert_true(noc_send(noc, 5, 6, w, 1, 300));
    g_assert_true(noc_send(noc, 6, 5, w, 2, 300));
    noc_run_until(noc, 500);
    size_t n;
    uint64_t dropped;
    const NocPacketRecord *r = noc_packet_log(noc, &n, &dropped);
    g_assert_cmpuint(n, ==, 2);
    g_assert_cmpuint(dropped, ==, 1);
    g_assert_cmpuint(r[0].src, ==, 0);
    g_assert_cmpuint(r[0].dst, ==, 15);
    g_assert_cmpuint(r[0].nwords, ==, 3);
    g_assert_cmpuint(r[0].sent, ==, 10);
    g_assert_cmpuint(r[0].delivered, ==, formula(&cfg, 10, hops(&cfg, 0, 15), 3));
    g_assert_cmpuint(r[1].sent, ==, 300);
    g_assert_cmpuint(r[1].delivered, ==, formula(&cfg, 300, 1, r[1].nwords));
    noc_free(noc);
}

static void test_free_in_flight(void)
{
    static const uint64_t stops[] = { 0, 1, 3, 7, 12, 20, 33, 60, 200 };
    NocConfig cfg = cfg_default(4, 4);

    cfg.rx_queue_flits = 17;
    for (unsigned i = 0; i < G_N_ELEMENTS(stops); i++) {
        Noc *noc = noc_new(&cfg);
        Traffic t;

        traffic_init(&t, noc);
        for (unsigned s = 0; s < 16; s++) {
            traffic_send(&t, s, (s * 7 + 3) % 16, 16, s % 3);
            traffic_send(&t, s, (s * 5 + 1) % 16, 9, 4);
        }
        g_assert_cmpuint(t.sent, ==, 32);
        noc_run_until(noc, stops[i]);
        /* Nobody reads, and a receive queue of 17 flits holds one packet
         * at most (16 words + head, or 9 + head with no room for
         * another), so the network cannot drain: noc_free below frees
         * flits in routers, links and queues. Every packet delivered so
         * far is still waiting in its receive queue. */
        g_assert_false(noc_quiescent(noc));
        NocStats *st = noc_stats(noc);
        uint64_t waiting = 0;
        for (unsigned n = 0; n < 16; n++) {
            g_assert_cmpuint(noc_rx_packets(noc, n), <=, 1);
            waiting += noc_rx_packets(noc, n);
        }
        g_assert_cmpuint(st->packets, ==, waiting);
        g_assert_cmpuint(st->packets, <, 32);
        if (stops[i] == 0)
            g_assert_cmpuint(st->packets, ==, 0);
        noc_stats_free(st);
        traffic_clear(&t);
        noc_free(noc);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/noc/latency/hops", test_latency_hops);
    g_test_add_func("/noc/log/packets", test_packet_log);
    g_test_add_func("/noc/latency/jump", test_latency_jump);
    g_test_add_func("/noc/throughput/saturation", test_throughput_saturation);
    g_test_add_func("/noc/buffer/depth-one", test_buffer_depth_one);
    g_test_add_func("/noc/backpressure/hotspot", test_hotspot);
    g_test_add_func("/noc/backpressure/blocked", test_backpressure_blocked);
    g_test_add_func("/noc/arbitration/round-robin",
                    test_arbitration_round_robin);
    g_test_add_func("/noc/routing/xy", test_routing_xy);
    g_test_add_func("/noc/stats/pairs", test_stats_pairs);
    g_test_add_func("/noc/stats/latency", test_stats_latency);
    g_test_add_func("/noc/stats/blocked", test_stats_blocked);
    g_test_add_func("/noc/stats/inject-stall", test_stats_inject_stall);
    g_test_add_func("/noc/skip/identical", test_skip_identical);
    g_test_add_func("/noc/determinism", test_determinism);
    g_test_add_func("/noc/self-send/1x1", test_self_send_1x1);
    g_test_add_func("/noc/free/in-flight", test_free_in_flight);
    return g_test_run();
}

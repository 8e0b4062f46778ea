// SPDX-License-Identifier: GPL-2.0-or-later
/* noc_stats.c — the network's statistics (noc_stats): per pair, per link,
 * latency percentiles, buffer occupancy and stalls. */
#include "noc/noc_priv.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return (x > y) - (x < y);
}

/* Nearest-rank percentile: the smallest latency such that at least
 * ceil(pct * packets / 100) latencies are <= it. big is lat_big sorted. */
static uint64_t lat_percentile(const Noc *noc, const uint64_t *big,
                               unsigned pct)
{
    uint64_t rank = (pct * noc->packets + 99) / 100, seen = 0;

    for (uint64_t lat = 0; lat < LAT_DENSE; lat++) {
        seen += noc->lat_dense[lat];
        if (seen >= rank)
            return lat;
    }
    return big[rank - seen - 1];
}

NocStats *noc_stats(const Noc *noc)
{
    NocStats *st = g_new0(NocStats, 1);
    unsigned n = noc->nodes;
    double cycles = (double)noc->now;

    st->cycles = noc->now;
    st->nodes = n;

    /* Directed links sorted by (from, to): neighbours N, W, E, S have
     * increasing ids. */
    static const unsigned by_id[] = { PORT_N, PORT_W, PORT_E, PORT_S };
    st->links = g_new0(NocLinkStat, 4 * n);
    for (unsigned r = 0; r < n; r++) {
        for (unsigned k = 0; k < G_N_ELEMENTS(by_id); k++) {
            int to = noc->nb[r * NPORTS + by_id[k]]; /* neighbour() */
            NocLinkStat *l;

            if (to < 0)
                continue;
            l = &st->links[st->nlinks++];
            l->from = r;
            l->to = (unsigned)to;
            l->flits = noc->routers[r].out[by_id[k]].flits;
            l->utilization = cycles > 0 ? (double)l->flits / cycles : 0.0;
        }
    }

    st->pair_packets = g_memdup2(noc->pair_packets,
                                 (gsize)n * n * sizeof(uint64_t));
    st->pair_flits = g_memdup2(noc->pair_flits,
                               (gsize)n * n * sizeof(uint64_t));
    st->packets = noc->packets;
    st->flits = noc->flits;
    if (noc->packets > 0) {
        GArray *big = g_array_copy(noc->lat_big);
        const uint64_t *v = (const uint64_t *)(void *)big->data;

        g_array_sort(big, cmp_u64);
        st->lat_min = noc->lat_min;
        st->lat_max = noc->lat_max;
        st->lat_mean = (double)noc->lat_sum / (double)noc->packets;
        st->lat_p50 = lat_percentile(noc, v, 50);
        st->lat_p95 = lat_percentile(noc, v, 95);
        st->lat_p99 = lat_percentile(noc, v, 99);
        g_array_free(big, TRUE);
    }

    st->router_occupancy_mean = g_new0(double, n);
    st->router_occupancy_max = g_new0(unsigned, n);
    st->router_stall_cycles = g_new0(uint64_t, n);
    st->inject_stall_cycles = g_new0(uint64_t, n);
    for (unsigned r = 0; r < n; r++) {
        const Router *rt = &noc->routers[r];

        st->router_occupancy_mean[r] =
            cycles > 0 ? (double)rt->occ_sum / cycles : 0.0;
        st->router_occupancy_max[r] = rt->occ_max;
        st->router_stall_cycles[r] = rt->stall_cycles;
        st->stall_cycles += rt->stall_cycles;
        st->inject_stall_cycles[r] = noc->ni[r].inject_stall;
        st->inject_stall_total += noc->ni[r].inject_stall;
    }
    return st;
}

void noc_stats_free(NocStats *st)
{
    if (!st)
        return;
    g_free(st->links);
    g_free(st->pair_packets);
    g_free(st->pair_flits);
    g_free(st->router_occupancy_mean);
    g_free(st->router_occupancy_max);
    g_free(st->router_stall_cycles);
    g_free(st->inject_stall_cycles);
    g_free(st);
}

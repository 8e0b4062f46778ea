// SPDX-License-Identifier: GPL-2.0-or-later
/* noc.h — cycle-level model of a W x H mesh network on chip.
 *
 * Plain C, no Unicorn. One Noc models every router, link and network
 * interface (NI) queue of the mesh. Node id = y * width + x.
 *
 * Model (SPEC section 2):
 *  - Packets: one head flit (source, destination, length) plus one flit per
 *    32-bit payload word, 1 .. max_payload words.
 *  - Each node has an NI injection queue of tx_queue_flits flits and a
 *    receive queue of rx_queue_flits flits. A full receive queue
 *    back-pressures the network; a full path stalls the injection queue.
 *  - Routers: five ports (N, S, E, W, local), buffer_depth flits of input
 *    buffering per port, credit-based flow control, dimension-order (XY)
 *    routing, wormhole switching (an output port is held by one packet from
 *    head to tail), round-robin arbitration among inputs for an output, one
 *    flit per link per cycle.
 *  - Latency without contention: a packet of L = nwords + 1 flits sent at
 *    cycle t0 over h hops (h = |dx| + |dy|) is fully delivered (its last
 *    flit is in the receive queue) at cycle
 *        t0 + (h + 1) * router_latency + h * link_latency + (L - 1)
 *    and its head flit at t0 + (h + 1) * router_latency + h * link_latency.
 *    ("delivered at cycle c" means: visible to noc_rx_* once noc_now() > c.)
 *  - Packets between one source and one destination arrive in order.
 *    Nothing is ever dropped.
 *
 * Time: the Noc has a current cycle noc_now() (the first cycle not yet
 * simulated). noc_run_until(c) simulates cycles [now, c). Senders may hand
 * in packets stamped with a cycle >= noc_now(); a packet takes part in the
 * simulation from its stamped cycle on. Stamps from one source must not
 * decrease.
 *
 * Errors: the caller validates parameters and arguments (see each function);
 * violations are programming errors (g_assert), not guest errors — the NI
 * device checks guest misuse before calling in.
 */
#ifndef NOCPROF_NOC_H
#define NOCPROF_NOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct NocConfig {
    unsigned width, height;      /* 1 .. 16 each */
    unsigned router_latency;     /* >= 1 cycles */
    unsigned link_latency;       /* >= 1 cycles */
    unsigned buffer_depth;       /* >= 1 flits per input port */
    unsigned max_payload;        /* >= 1 words per packet */
    unsigned tx_queue_flits;     /* >= max_payload + 1 */
    unsigned rx_queue_flits;     /* >= max_payload + 1 */
} NocConfig;

typedef struct Noc Noc;

/* Directed link between two neighbouring routers. */
typedef struct NocLinkStat {
    unsigned from, to;           /* node ids */
    uint64_t flits;              /* flits that crossed it */
    double utilization;          /* flits / cycles simulated */
} NocLinkStat;

typedef struct NocStats {
    uint64_t cycles;             /* cycles simulated (noc_now) */
    unsigned nodes;
    unsigned nlinks;             /* directed links, sorted by (from, to) */
    NocLinkStat *links;          /* nlinks entries */
    uint64_t *pair_packets;      /* [src * nodes + dst], delivered packets */
    uint64_t *pair_flits;        /* [src * nodes + dst], delivered flits */
    uint64_t packets;            /* delivered packets */
    uint64_t flits;              /* delivered flits */
    /* Packet latency, stamped send cycle to full delivery, in cycles. */
    uint64_t lat_min, lat_max, lat_p50, lat_p95, lat_p99;
    double lat_mean;             /* all 0 when packets == 0 */
    /* Per router (nodes entries): mean and max input-buffer occupancy in
     * flits summed over its five ports, and cycles in which some flit at
     * the router could not advance (no credit or lost arbitration). */
    double *router_occupancy_mean;
    unsigned *router_occupancy_max;
    uint64_t *router_stall_cycles;
    uint64_t stall_cycles;       /* sum of router_stall_cycles */
    /* Cycles in which the head of a node's injection queue could not enter
     * its router (back-pressure into the NI), per node and summed. */
    uint64_t *inject_stall_cycles;
    uint64_t inject_stall_total;
} NocStats;

Noc *noc_new(const NocConfig *cfg);
void noc_free(Noc *noc);

const NocConfig *noc_config(const Noc *noc);
unsigned noc_nodes(const Noc *noc);
uint64_t noc_now(const Noc *noc);

/* Simulate cycles [noc_now(), until). No-op if until <= noc_now(). */
void noc_run_until(Noc *noc, uint64_t until);

/* Watch a node's NI: noc_run_watched stops after any cycle in which a
 * packet completed in its receive queue or a flit left its injection
 * queue (the only changes that can raise its lines or answer its polls). */
void noc_watch(Noc *noc, unsigned node, bool on);
/* noc_run_until(until), stopping early after the first cycle in which a
 * watched NI changed (then noc_now() is that cycle + 1); true if it did. */
bool noc_run_watched(Noc *noc, uint64_t until);

/* The earliest cycle >= noc_now() at which the network state can change by
 * itself (a flit can move or a stamped packet becomes active), or UINT64_MAX
 * when nothing is in flight or queued for injection. Lets a scheduler skip
 * idle time. */
uint64_t noc_next_activity(const Noc *noc);

/* --- injection (the NI transmit side) --- */

/* Free flits in node's injection queue now. */
unsigned noc_tx_free_flits(const Noc *noc, unsigned node);

/* Queue a packet of nwords (1 .. max_payload) payload words from src to dst
 * (both < nodes, src == dst allowed: it goes through the local port),
 * stamped with cycle `at` (>= noc_now()). Returns false, queuing nothing, if
 * the injection queue lacks room for nwords + 1 flits. */
bool noc_send(Noc *noc, unsigned src, unsigned dst, const uint32_t *words,
              unsigned nwords, uint64_t at);

/* --- delivery (the NI receive side) --- */

/* Complete packets waiting in node's receive queue. */
unsigned noc_rx_packets(const Noc *noc, unsigned node);

/* Head packet: source node, total payload words, and words not yet popped.
 * Returns false if no complete packet is waiting. */
bool noc_rx_head(const Noc *noc, unsigned node, unsigned *src,
                 unsigned *len, unsigned *remaining);

/* The head packet's stamped send cycle and the cycle its last flit reached
 * the receive queue. False if no complete packet is waiting. */
bool noc_rx_head_times(const Noc *noc, unsigned node, uint64_t *sent, uint64_t *delivered);

/* Pop the next word of the head packet; the packet is consumed (its flits
 * freed from the receive queue) after its last word. False if none. */
bool noc_rx_pop(Noc *noc, unsigned node, uint32_t *word);

/* Discard the rest of the head packet. False if none. */
bool noc_rx_drop(Noc *noc, unsigned node);

/* True when no flit is in any router, link or injection queue (receive
 * queues may hold packets). */
bool noc_quiescent(const Noc *noc);
/* The last cycle before noc_now() in which a flit moved (0: none). */
uint64_t noc_last_move(const Noc *noc);
/* Destination of the packet at the head of node's injection queue, -1
 * when it is empty (what a sender polling TX_STATUS waits behind). */
int noc_tx_head_dst(const Noc *noc, unsigned node);

/* --- packet log (for timelines) --- */

typedef struct NocPacketRecord {
    unsigned src, dst, nwords;
    uint64_t sent;               /* stamped send cycle */
    uint64_t delivered;          /* cycle its last flit reached the receive queue */
} NocPacketRecord;

/* Record every delivered packet from now on, at most max of them (later
 * ones are only counted). */
void noc_log_packets(Noc *noc, size_t max);
/* The records in delivery order; *dropped = packets past the maximum. */
const NocPacketRecord *noc_packet_log(const Noc *noc, size_t *n, uint64_t *dropped);

/* Statistics up to noc_now(). The returned struct is owned by the caller;
 * free with noc_stats_free. */
NocStats *noc_stats(const Noc *noc);
void noc_stats_free(NocStats *st);

#endif

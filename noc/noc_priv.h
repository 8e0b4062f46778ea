// SPDX-License-Identifier: GPL-2.0-or-later
/* noc_priv.h — the mesh's state, shared by noc.c (the simulation) and
 * noc_stats.c (the statistics it reports). See noc.c for the model. */
#ifndef NOCPROF_NOC_PRIV_H
#define NOCPROF_NOC_PRIV_H

#include "noc/noc.h"

#include <glib.h>

enum { PORT_LOCAL, PORT_N, PORT_E, PORT_S, PORT_W, NPORTS };

/* Latencies below this are counted in a dense histogram, larger ones kept
 * raw (they only occur under long back-pressure). */
#define LAT_DENSE 4096u

typedef struct Packet {
    uint64_t stamp;
    uint64_t delivered;          /* cycle its tail reached the receive queue */
    unsigned src, dst, nwords;
    uint32_t words[];
} Packet;

/* A flit is (packet, index): index 0 is the head, nwords the tail. */
typedef struct BufEntry {
    Packet *pkt;
    unsigned idx;
    uint64_t arrive;             /* cycle it is (or will be) in the buffer */
} BufEntry;

/* Input buffer: a ring of buffer_depth slots holding arrived flits and
 * flits still on the link towards it, in arrival order. */
typedef struct InPort {
    BufEntry *slot;
    unsigned head, count;
} InPort;

typedef struct OutPort {
    int owner;                   /* input holding it (wormhole), or -1 */
    unsigned rr;                 /* input with first priority next time */
    int grant;                   /* this cycle's decision, or -1 */
    uint64_t flits;              /* flits sent over the link */
} OutPort;

typedef struct Router {
    InPort in[NPORTS];
    OutPort out[NPORTS];
    bool stalled;                /* this cycle's decision */
    bool quiet;                  /* this cycle: no flit buffered, none to inject */
    uint64_t occ_sum;            /* sum over cycles of buffered flits */
    unsigned occ_max;
    uint64_t stall_cycles;
} Router;

/* Network interface. tx holds packets not yet fully injected (tx_sent
 * flits of the head one are in the network); rx holds delivered packets
 * in arrival order, the last one possibly still arriving. */
typedef struct Ni {
    GQueue tx;
    unsigned tx_flits, tx_sent;
    uint64_t last_stamp;
    bool inject;                 /* this cycle's decision */
    uint64_t inject_stall;
    GQueue rx;
    unsigned rx_flits, rx_complete, rx_popped;
    bool watched;                /* noc_run_watched stops when it changes */
} Ni;

struct Noc {
    NocConfig cfg;
    unsigned nodes;
    uint64_t now;
    uint64_t busy_flits;         /* flits in injection queues or routers */
    uint64_t last_move;          /* last cycle a flit moved (0: none yet) */
    BufEntry *slots;
    Router *routers;
    Ni *ni;
    uint64_t *pair_packets, *pair_flits;
    uint64_t packets, flits, lat_sum, lat_min, lat_max;
    uint64_t lat_dense[LAT_DENSE];
    GArray *lat_big;             /* uint64_t latencies >= LAT_DENSE */
    GArray *log;                 /* NocPacketRecord, when enabled */
    size_t log_max;
    uint64_t log_dropped;
    bool watch_hit;              /* a watched NI changed this cycle */
    int *nb;                     /* [node * NPORTS + port]: neighbour() */
    uint8_t *route;              /* [node * nodes + dst]: XY output port */
};

#endif

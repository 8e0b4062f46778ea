// SPDX-License-Identifier: GPL-2.0-or-later
/* comm_private.h — the recorder's state, shared by the files of comm/. */
#ifndef NOCPROF_COMM_PRIVATE_H
#define NOCPROF_COMM_PRIVATE_H

#include "profiler/comm/comm.h"

#define COMM_NO_CTX UINT32_MAX
#define COMM_LINE_CACHE 8      /* a power of two */

typedef struct CommSend {      /* a packet sent, waiting to be consumed */
    uint64_t ts;
    uint32_t pc;
    unsigned ctx;
} CommSend;

typedef struct CommFifo {
    CommSend *a;
    size_t head, len, cap;
} CommFifo;

typedef struct PartnerKey {    /* followed in memory by its CommWait */
    unsigned recv_ctx, src, send_ctx;
    unsigned pad;
} PartnerKey;

struct CommCore {
    CommRun *run;
    Collector *col;
    unsigned id;
    uint32_t span_pc;          /* first failed poll of the open span */
    uint64_t rx_tw;            /* first failed RX poll since the last consumption */
    uint64_t last_consume;
    uint64_t polls_rx, polls_tx, unmatched, packets_dropped;
    size_t max_packets;
    GHashTable *lines;         /* pc -> CommLine */
    CommLine *line_cache[COMM_LINE_CACHE]; /* recent lines by pc (a poll
                                  loop alternates between a few pcs) */
    GHashTable *partners;      /* PartnerKey -> (CommWait after it) */
    GArray *packets;           /* CommPacket */
};

struct CommRun {
    unsigned n;
    CommCore *cores;
    CommFifo *fifo;            /* [src * n + dst] */
    CommWait *pairs;           /* [src * n + dst], written by dst's thread */
};

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/* comm_report.h — the communication profile as plain data (issue 12):
 * what profiler/comm's analysis makes, what profile.data saves and what
 * comm.txt, summary.json "communication", callgrind.out and trace.json
 * show. Definitions: comm.h and docs/reports.md. No emulator types. */
#ifndef NOCPROF_COMM_REPORT_H
#define NOCPROF_COMM_REPORT_H

#include <glib.h>
#include "base/json.h"
#include <stdbool.h>
#include <stdint.h>

#include "profiler/model/profile.h"

/* Kinds of blocked cycles (the values of collect.h's COLLECT_*). */
enum { COMM_POLL_RX, COMM_WAIT_TX, COMM_WAIT_IRQ, COMM_NBLOCKED };

/* Sums of one (receiver, sender) combination. */
typedef struct CommWait {
    uint64_t packets;
    uint64_t late_sender, network, late_receiver;
    uint64_t waited;           /* packets whose receiver waited for them */
} CommWait;

typedef struct CommFlow {      /* one packet consumed (trace.json flows) */
    unsigned src;
    uint64_t ts, td, tc;
    const char *send_func, *recv_func;
} CommFlow;

typedef struct CommFunc {
    const char *name;
    uint64_t self_cycles;      /* from the calling contexts */
    uint64_t blocked[COMM_NBLOCKED];
    uint64_t sent_packets, sent_flits, recv_packets, recv_flits;
} CommFunc;

typedef struct CommPath {
    const char *path;          /* "main;rt_recv" */
    uint64_t self_cycles;
    uint64_t blocked[COMM_NBLOCKED];
    uint64_t sent_packets, sent_flits, recv_packets, recv_flits;
} CommPath;

typedef struct CommPartner {
    const char *recv_func;
    unsigned src;
    const char *send_func;
    CommWait w;
} CommPartner;

/* Per source line: blocked cycles charged at the first failed poll's pc,
 * packets at the TX_SEND / last RX_DATA pc. */
typedef ProfCommLine CommLine;

typedef struct CommCoreReport {
    unsigned id;
    uint64_t finish;           /* the core's last cycle */
    uint64_t blocked[COMM_NBLOCKED];
    uint64_t polls_rx, polls_tx;
    unsigned nfuncs, npaths, npartners, nlines;
    CommFunc *funcs;           /* those with any communication, by blocked desc */
    CommPath *paths;           /* likewise */
    CommPartner *partners;     /* by late_sender desc */
    CommLine *lines;           /* by pc */
    size_t nflows;
    CommFlow *flows;           /* packets consumed, time order (limited) */
    uint64_t flows_dropped;
} CommCoreReport;

typedef struct CommStep {      /* one wait of the critical chain */
    unsigned core, src;
    const char *recv_func, *send_func;
    const char *recv_path, *send_path; /* calling contexts: "main;stage;rt_recv" */
    uint64_t tw, ts, td, tc;
} CommStep;

typedef struct CommReport {
    unsigned ncores;
    CommCoreReport *cores;
    CommWait *pairs;           /* [src * ncores + dst] */
    unsigned last_core;        /* the core that finished last */
    unsigned nchain;
    CommStep *chain;           /* in time order; the last step ends on last_core */
    bool chain_truncated;      /* packet records ran out */
    uint64_t unmatched;        /* RECVs without a recorded SEND (0 normally) */
    GStringChunk *strings;     /* every name above */
} CommReport;

void comm_report_free(CommReport *r);
/* comm_text.c: OUT/comm.txt. */
/* profs (may be NULL): the cores' profiles, for where the last core's own
 * work went (the critical chain's last stretch). */
GString *comm_text(const CommReport *r, const Profile *const *profs, unsigned nprofs);
/* comm_json.c: summary.json "communication" (SPEC section 6), one object
 * value added to b (base/json.h); full adds what profile.data keeps
 * besides (per-line figures, flows_dropped; the flows themselves
 * profile.data saves apart, as a fixed-size array). */
void comm_json(NpJson *b, const CommReport *r, bool full);
/* The CommReport of a full comm_json text (no flows); NULL and *error
 * (NOCPROF_ERROR_DATA) if it is not one. */
CommReport *comm_from_json(const char *text, GError **error);

#endif

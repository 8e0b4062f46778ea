// SPDX-License-Identifier: GPL-2.0-or-later
/* trace.h — the run's timeline in the Chrome Trace Event format (Perfetto,
 * chrome://tracing; FORMATS.md).
 *
 * One process per core ("core N", pid N): complete events ("X") for every
 * wait (cat "idle") and every interrupt handler run (cat "interrupt", named
 * after the vector's function), and an instant event ("i") where the core
 * stopped (exit code, fault, limit...). One process "NoC" (pid = number of
 * cores) with one thread per source node: a complete event per delivered
 * packet from its send stamp to full delivery, named "src->dst", with its
 * payload words and latency in args. Timestamps are microseconds at the
 * configured clock (cycles / hz * 1e6); args also carry the cycles.
 * Thread 1 "messages" of each core has a 1-cycle slice per packet sent and
 * consumed, and flow events ("s"/"f") from the sending call site to the
 * receiving one.
 */
#ifndef NOCPROF_TRACE_H
#define NOCPROF_TRACE_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

#include "noc/noc.h"
#include "profiler/model/profile.h"

/* A packet consumed by a core: a flow arrow ("s" at the sender's TX_SEND
 * slice, "f" at the receiver's consume slice, both on thread 1
 * "messages" of the cores). */
typedef struct TraceFlow {
    unsigned src;
    uint64_t sent, delivered, consumed;
    const char *send_func, *recv_func;
} TraceFlow;

typedef struct TraceCore {
    unsigned id;
    const TraceFlow *flows;    /* packets this core consumed (may be NULL) */
    size_t nflows;
    const Profile *prof;       /* its events; NULL: no spans (profiling off) */
    uint64_t end_cycle;
    const char *end_what;      /* e.g. "exit 0", "fault: bus-error" */
} TraceCore;

/* The NoC's packet log (noc_packet_log) over its nodes. */
typedef struct TracePackets {
    unsigned nodes;
    const NocPacketRecord *recs;
    size_t n;
    uint64_t dropped;          /* packets past the log's limit */
} TracePackets;

GString *trace_build(const TraceCore *cores, unsigned ncores, const TracePackets *pk, double clock_hz);
/* The same text written to f as it is made (64 KiB at a time), so the
 * timeline never sits in memory whole; false on a write error. page (may
 * be NULL) gets the same text without the message events (flows), for
 * report.html, which does not draw them: it need not read trace.json back
 * and filter it. */
bool trace_write(FILE *f, const TraceCore *cores, unsigned ncores, const TracePackets *pk, double clock_hz,
                 GString *page);

#endif

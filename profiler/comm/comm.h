// SPDX-License-Identifier: GPL-2.0-or-later
/* comm.h — the communication profile: the NoC charged to the code, with
 * wait-state analysis (issue 12; definitions in docs/reports.md).
 *
 * Recording. comm_new() makes one recorder per run; comm_observer() is the
 * NiObserver (emu/dev_ni.h) to register for each core with the CommCore of
 * comm_core(). It runs on the core's thread with the network locked, and
 * talks to that core's Collector (the shadow stack: which function and
 * calling context did the access) and to the per-pair FIFOs of sender
 * contexts (packets between one pair arrive in order).
 *
 * Definitions (exact, in core cycles):
 *  - A *poll* is an NI status read that found nothing (dev_ni.h). A blocked
 *    span starts at the first failed poll of a kind and ends at the status
 *    read of that kind that finds something (READY), or at the NI access
 *    that makes progress on that side (RECV/DROP for receive, SEND for
 *    transmit); one the core abandons (`wait`, return from the handler
 *    that polled) counts up to its last failed poll. Its cycles, outside
 *    interrupt handlers entered meanwhile,
 *    are blocked cycles of the paths (functions) that ran them: poll_rx
 *    (empty receive queue) or wait_tx (no room in the injection queue). So
 *    blocked cycles are a part of each function's self cycles.
 *  - wait_irq: the cycles of `wait` spans with a NoC interrupt enabled,
 *    charged to the function that executed `wait` (the profile counts
 *    these cycles in its <idle> child, not in its self cycles).
 *  - Per packet: ts send cycle, td delivered cycle (last flit in the
 *    receive queue), tc consumed cycle (last RX_DATA or RX_DROP), tw the
 *    cycle the receiver started waiting for it: its first failed RX poll,
 *    or the start of its first NoC `wait`, since it consumed the previous
 *    packet (none when it did not wait). late_sender = ts - tw when
 *    tw < ts; network = td - ts; late_receiver = tc - td.
 */
#ifndef NOCPROF_COMM_H
#define NOCPROF_COMM_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "profiler/collect/collect.h"
#include "profiler/comm/comm_report.h"
#include "emu/dev_ni.h"

typedef struct CommRun CommRun;
typedef struct CommCore CommCore;

/* cols[i] is core i's collector (borrowed; must outlive the recorder).
 * max_packets: per-packet records kept per core for the critical chain
 * (sums are exact beyond it); the trace flows are the first max_packets
 * packets consumed on the whole chip. */
CommRun *comm_new(unsigned ncores, Collector *const *cols, size_t max_packets);
void comm_free(CommRun *run);
CommCore *comm_core(CommRun *run, unsigned core);
void comm_observer(void *opaque, const NiEvent *ev);

/* One consumed packet. tw == COMM_NO_WAIT: the receiver did not wait. */
#define COMM_NO_WAIT UINT64_MAX
typedef struct CommPacket {
    unsigned src, dst, words;
    unsigned send_ctx, recv_ctx;   /* calling contexts on src / dst */
    uint32_t send_pc, recv_pc;
    uint64_t ts, td, tc, tw;
} CommPacket;

/* ---- after the run (collector_finish done): the analysis ------------- */

/* finish[i]: core i's final cycle. */
CommReport *comm_analyse(const CommRun *run, const uint64_t *finish);
/* The consumed packets of core `dst` (time order); *dropped = not kept. */
const CommPacket *comm_packets(const CommRun *run, unsigned dst, size_t *n, uint64_t *dropped);
/* Name of the function of calling context ctx on core (NULL if unknown),
 * and its call path "main;f;g" (newly allocated, "??" if unknown). */
const char *comm_ctx_func(const CommRun *run, unsigned core, unsigned ctx);
char *comm_ctx_path(const CommRun *run, unsigned core, unsigned ctx);



#endif

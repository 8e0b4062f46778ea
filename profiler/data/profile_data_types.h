// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_data_types.h — the GVariant types of the saved profile data,
 * shared by the writer (profile_data.c) and the reader (profile_data_read.c).
 * Changing any of them changes the format: bump PROFILE_DATA_VERSION. */
#ifndef NOCPROF_PROFILE_DATA_TYPES_H
#define NOCPROF_PROFILE_DATA_TYPES_H

#include <glib.h>

/* name, addr, size, pseudo, calls, recursive calls, self, inclusive,
 * instructions, samples per period */
#define PD_FUNC "(suubtttttatat)" /* ..., samples, events[PROF_NEVENTS] */
/* caller, callee, call site, count, inclusive cycles */
#define PD_ARC "(uuutt)"
/* addr, instructions, function, executions, cycles */
#define PD_BLOCK "(uuutt)"
/* period, ranges (lo, hi pairs), the bins that have samples (format 10:
 * their indexes, range after range, strictly increasing, and their
 * counts, 64-bit since format 6, none 0), idle, outside, total */
#define PD_HIST "(uauauatttt)"
/* parent, function, self cycles */
#define PD_CTX "(uut)"
/* start, end, function, idle */
#define PD_EVENT "(ttub)"
/* 24k stalls per instruction (format 9): pc, cause, cycles */
#define PD_STALL "(uut)"
/* cycles, instructions, idle, irq, busy, clock_hz, then the arrays,
 * events dropped, cycles outside the region of interest, how the region
 * was chosen, calls past [limits] contexts, stopped at [limits] blocks,
 * the cache misses per instruction, the stalls per instruction, each
 * block's cycles per instruction (format 11) and the runs cut short
 * before its instructions (format 14, PD_CUT) */
/* runs cut short before an instruction of a block (format 14): block
 * index, instruction, runs (only those not 0, in order) */
#define PD_CUT "(uut)"
/* pc, 0, I-cache, D-cache read, D-cache write misses (format 9) */
#define PD_MISS "(uuttt)"
#define PD_PROF "(tttttda" PD_FUNC "a" PD_ARC "a" PD_BLOCK "a" PD_HIST "a" PD_CTX "a" PD_EVENT "ttmstba" PD_MISS "a" PD_STALL "ata" PD_CUT ")"
/* id, elf, elf_abs, sha256, status, exit code, faulted, fault kind,
 * message, function, file, pc, line, stack, instructions, cycles, busy,
 * idle, irq, interrupts, waits, stop pc, function, file, line, console,
 * profile, wait (for, peer, pc, function, file, line), stack (lowest $sp,
 * bytes used), L1 counts (I-cache accesses, misses, D-cache accesses,
 * read misses, write misses, write-backs, then the cycles they cost; 0
 * without the cache), a fault's frames (function, file, pc, line, repeat,
 * inlined), why a wait is never woken, the fault's registers (34 or
 * none), the frames where a core stopped while live, whether it waited
 * asleep in `wait` */
#define PD_CORE "(u" "ssss" "i" "b" "msmsmsms" "uu" "as" "ttttttt" "umsmsu" "ay" "m" PD_PROF "msiumsmsu" "ut" "ttttttt" "a(msmsuuub)" "ms" "au" "a(msmsuuub)" "b" ")"
/* from, to, flits, utilization */
#define PD_LINK "(uutd)"
/* cycles, nodes, links, pair packets, pair flits, packets, flits, latency
 * min, max, p50, p95, p99, mean, router occupancy mean, max, stall cycles,
 * stall total, inject stall cycles, inject stall total */
#define PD_NOC "(tua" PD_LINK "atat" "ttttttt" "d" "adauat" "t" "at" "t)"
/* src, dst, words, sent, delivered (a fixed-size type: written from and
 * read into an array of PdPacket) */
#define PD_PACKET "(uuutt)"
typedef struct PdPacket {
    guint32 src, dst, nwords, zero; /* zero: GVariant's padding */
    guint64 sent, delivered;
} PdPacket;
G_STATIC_ASSERT(sizeof(PdPacket) == 32);
/* One trace flow of the communication profile: receiving core, sending
 * core, sending and receiving function (indexes into the flow names),
 * sent, delivered and consumed cycles. Fixed-size like PD_PACKET: ten
 * thousand flows as JSON objects cost more than the rest of the file. */
#define PD_FLOW "(uuuuttt)"
typedef struct PdFlow {
    guint32 dst, src, send_name, recv_name;
    guint64 ts, td, tc;
} PdFlow;
G_STATIC_ASSERT(sizeof(PdFlow) == 40);
/* config (group, key, value), config path, deadlock, livelock, end
 * cycle, exit status, NoC,
 * packet log, packets dropped, cores, report settings (name -> value:
 * "fold-recursion" N, "no-trace" "1", "focus"/"exclude" names one per
 * line, "annotate" source|asm|both, "source-dir"/"source-map" one per
 * line), the communication profile (the full JSON form of
 * profiler/comm/comm_report.h, its trace flows apart; nothing without
 * profiles or with --no-comm), the names the flows use, the flows (by
 * receiving core, each core's in time order) */
#define PD_TOP "(a(sss)msbbti" PD_NOC "a" PD_PACKET "ta" PD_CORE "a{ss}msasa" PD_FLOW ")"

#define PD_MAGIC "NOCPROFD"
#define PD_HEADER 24u

#endif

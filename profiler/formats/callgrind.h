// SPDX-License-Identifier: GPL-2.0-or-later
/* callgrind.h — a core's Profile in the Callgrind profile format, for
 * KCachegrind and callgrind_annotate (FORMATS.md, Valgrind's cl-format;
 * docs/reports.md).
 *
 * Events: Cycles (exact), then Ir Dr Dw Bc Bi (per instruction: its
 * executions times its class; self only: inclusive counts per call are
 * not collected), StallLoad StallAgen StallMDU StallFPU (24k, per
 * instruction from Profile.stalls) and I1mr D1mr D1mw (on a function's
 * first instruction) when some function has a count, from the event table
 * (profiler/model/events.h).
 * Positions: `instr line`; one cost line per instruction on
 * its own source line (each instruction's own cycles, ProfBlock.icycles,
 * docs/reports.md). File names absolute, written "/./dir/file" (see
 * callgrind.c). Each arc becomes a `calls=` record at its call site with
 * the callee's exact inclusive cycles under that arc. <idle> and
 * <interrupt> appear as functions of their own. Names escaped
 * (base/name.h).
 */
#ifndef NOCPROF_CALLGRIND_H
#define NOCPROF_CALLGRIND_H

#include <glib.h>

#include "profiler/model/profile.h"

GString *callgrind_build(const Profile *p);
/* With the core's communication per instruction (ncomm > 0): events
 * Cycles Ir Blocked Sent Received; each line of comm gives its Blocked
 * cycles, packets Sent and Received at its pc's line (self costs: calls=
 * records carry inclusive Cycles only). */
GString *callgrind_build_comm(const Profile *p, const ProfCommLine *comm, unsigned ncomm);

#endif

/* callgrind.h — a core's Profile in the Callgrind profile format, for
 * KCachegrind and callgrind_annotate (FORMATS.md, Valgrind's cl-format).
 *
 * Event: Cycles (exact; instructions are not given because inclusive
 * instruction counts per call are not collected). Positions: `instr line`. Self cost is written per basic block at the block's first
 * instruction and source line; each arc becomes a `calls=` record at its
 * call site with the callee's exact inclusive cycles under that arc.
 * <idle> and <interrupt> appear as functions of their own.
 */
#ifndef NOCPROF_CALLGRIND_H
#define NOCPROF_CALLGRIND_H

#include <glib.h>

#include "profile.h"

GString *callgrind_build(const Profile *p);
/* With the core's communication per instruction (ncomm > 0): events
 * Cycles Blocked Sent Received; each line of comm gives its Blocked
 * cycles, packets Sent and Received at its pc's line (self costs: calls=
 * records carry inclusive Cycles only). */
GString *callgrind_build_comm(const Profile *p, const ProfCommLine *comm, unsigned ncomm);

#endif

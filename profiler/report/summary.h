// SPDX-License-Identifier: GPL-2.0-or-later
/* summary.h — the run's summary.txt and the network report noc.txt
 * (SPEC section 4). Pure text builders; the CLI writes. */
#ifndef NOCPROF_SUMMARY_H
#define NOCPROF_SUMMARY_H

#include <glib.h>

#include "platform/config.h"
#include "noc/noc.h"
#include "profiler/model/run.h"

GString *summary_text(const RunInfo *run);
/* How a deadlock or livelock ended the run: the rule, each stuck core's
 * stop, what it waited for and where, the wait-for cycle (each line
 * prefixed with indent). */
void summary_endings(GString *o, const RunInfo *run, const char *indent);
/* A fault's frames, one line each (gdb's backtrace: `#1  0x80000414 in
 * main at f.c:43`; repeated frames `#1-3600 ... (3600 frames)`), each
 * line prefixed with indent. */
void summary_frames(GString *o, const FaultFrame *frames, unsigned n, const char *indent);
/* Where core c faulted, for a headline: `F (file:line)` of the function
 * whose line it is; when the compiler inlined F, `, inlined into G
 * (file:line)` after it, G's line being the call (fault_function is the
 * out-of-line function, whose line the inlined one's is not). */
void summary_fault_where(GString *o, const CoreResult *c);
/* The same for any place: fn (file:line), or the innermost of frames when
 * the compiler inlined it (stuck cores, cores at the limit). */
void summary_where(GString *o, const char *fn, const char *file, unsigned line, const FaultFrame *f, unsigned n);
GString *noc_report(const NocStats *st, const Config *cfg);

#endif

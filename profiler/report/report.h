// SPDX-License-Identifier: GPL-2.0-or-later
/* report.h — text reports of a Profile, in the layouts of GNU gprof.
 *
 * Every printer takes a finished Profile and returns a newly allocated
 * GString (free with g_string_free(s, TRUE)); none does any I/O except the
 * annotated listing, which reads the source files named by DWARF. Layouts and
 * column meanings are documented in docs/reports.md.
 *
 *   report_flat        gprof -p: the exact profile (cycles, and seconds at
 *                      p->clock_hz), then one sampled profile per sampling
 *                      period side by side with the exact percentages and
 *                      the expected sampling error.
 *   report_callgraph   gprof -q: call graph with exact children time from
 *                      the arcs, <cycle N> groups (Tarjan SCCs), n+r called
 *                      counts, <spontaneous> and <interrupt> callers, and an
 *                      index by function name.
 *   report_annotated   gprof -A -l -x: source lines of every executed
 *                      function with block counts, cycles and samples;
 *                      disassembly where the source cannot be read.
 *
 * The gmon.out writer is in formats/gmon.h; profile_merge (the chip-wide
 * profile) in model/profile.h.
 */
#ifndef NOCPROF_REPORT_H
#define NOCPROF_REPORT_H

#include <glib.h>

#include "profiler/model/profile.h"

GString *report_flat(const Profile *p);
/* With events: the exact table gets a column per event of the event table
 * (profiler/model/events.h) before the name (--events). */
GString *report_flat_events(const Profile *p, bool events);
GString *report_callgraph(const Profile *p);
GString *report_annotated(const Profile *p);
/* With events: a column per event of the event table after samples, per
 * line the sum of prof_insn_events over its instructions (--events). */
GString *report_annotated_events(const Profile *p, bool events);
/* --annotate=asm (with_source false) and --annotate=both (true): every
 * function that ran, instruction by instruction with its executions,
 * cycles and samples (perf annotate); with source, each group of
 * instructions is headed by its source line (file:line: text). */
GString *report_annotated_asm(const Profile *p, bool with_source, bool events);

#endif

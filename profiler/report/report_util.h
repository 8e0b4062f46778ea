// SPDX-License-Identifier: GPL-2.0-or-later
/* report_util.h — helpers shared by the report_*.c printers (private). */
#ifndef NOCPROF_REPORT_UTIL_H
#define NOCPROF_REPORT_UTIL_H

#include <glib.h>
#include <stdbool.h>

#include "profiler/model/events.h"
#include "profiler/model/profile.h"

/* cycles -> seconds at p->clock_hz (0 when the clock is unknown). */
double report_seconds(const Profile *p, uint64_t cycles);

/* Sum of self cycles over all functions, pseudo ones included: the 100%
 * of every percentage (equals p->cycles when collection is consistent;
 * falls back to p->cycles when no function has any). */
uint64_t report_total_cycles(const Profile *p);

/* Sum of samples of period k over all functions (falls back to
 * hists[k].total). */
uint64_t report_total_samples(const Profile *p, unsigned k);

/* "core N" or "chip" (merged profile) plus the ELF, for titles. */
char *report_title(const Profile *p);

/* The one line flat.txt and callgraph.txt hold in place of their tables
 * when no instruction ran in the profile (the core never started, its
 * collection never did, or it only waited) and no report filter is set:
 * "Nothing ran: ...\n". NULL when something ran (free with g_free). */
char *report_ran_nothing(const Profile *p);

/* Whether a function has anything worth printing. */
bool report_func_active(const Profile *p, unsigned f);

/* [nfuncs]: whether any instruction of each function ran, also one that
 * an executed block starting before it ran into (free with g_free). */
bool *report_funcs_ran(const Profile *p);

/* --events columns of the per-line listings: the events of the event
 * table (the cache's misses only when some function has one). */
typedef struct EvCols {
    unsigned n;
    ProfEv e[PEV_COUNT];
} EvCols;

/* The legend of those columns in the listings. */
#define REPORT_EVENTS_LEGEND                                                                          \
    "instr..indbr: executions x the instruction's class (flat.txt --events); st.*: its 24k stall\n"  \
    "cycles by cause; I1mr D1mr D1mw: its L1 misses (when on); per line, the sum over the line's\n"  \
    "instructions, as callgrind.out's cost lines of that line.\n"

/* The columns shown (none without events). */
EvCols report_event_columns(const Profile *p, bool events);
/* One right-aligned cell per column: its name, its count in v[PEV_COUNT],
 * or blank (v NULL). */
void report_event_header(GString *o, const EvCols *c);
void report_event_cells(GString *o, const EvCols *c, const uint64_t *v);

#endif

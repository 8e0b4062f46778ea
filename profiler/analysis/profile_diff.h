// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_diff.h — two profiles of the same code compared function by
 * function (`nocprof diff`): exact self and inclusive cycles and calls of
 * A and B, matched by function name, sorted by the size of the change.
 * Pure data in, text out; the CLI reads the saved profiles and writes. */
#ifndef NOCPROF_PROFILE_DIFF_H
#define NOCPROF_PROFILE_DIFF_H

#include <glib.h>
#include "base/json.h"
#include <stdbool.h>

#include "profiler/model/events.h"
#include "profiler/model/profile.h"

typedef struct DiffRow {
    const char *name;          /* borrowed from the profiles */
    bool in_a, in_b;           /* present (ran or was listed) on that side */
    uint64_t calls_a, calls_b, self_a, self_b, incl_a, incl_b;
    uint64_t ev_a[PEV_COUNT], ev_b[PEV_COUNT]; /* its own instructions' events */
} DiffRow;

typedef struct ProfDiff {
    uint64_t cycles_a, cycles_b;
    uint64_t ev_a[PEV_COUNT], ev_b[PEV_COUNT]; /* the events of every function */
    int metric;                /* what ranks the rows: -1 cycles, else a ProfEv */
    unsigned nrows;
    DiffRow *rows;             /* sorted: |self delta| desc, |inclusive
                                  delta| desc, then name; with an event
                                  metric, |its delta| desc first */
} ProfDiff;

/* a or b may be NULL (that side has no such core / no profile). Functions
 * with no call, no cycle and no sample on both sides are left out. */
ProfDiff *profile_diff(const Profile *a, const Profile *b);
/* Rank the rows by the change of event `metric` (-1: cycles, the default
 * order), ties by the cycles order. */
void profile_diff_rank(ProfDiff *d, int metric);
void profile_diff_free(ProfDiff *d);
/* The row of a function, or NULL. */
const DiffRow *profile_diff_find(const ProfDiff *d, const char *name);

/* One section of diff.txt: title line, total cycles, the table, the
 * events of A and B and their change (totals, then per function in the
 * table's order; misses only when some count is not 0), and the functions
 * present on one side only. */
void profile_diff_text(GString *out, const char *title, const ProfDiff *d);

/* The members of one view of diff.html into the object being built:
 *   "cycles_a":N,"cycles_b":N,"events":[{"key":S,"column":S,"label":S}],
 *   "ev_a":[N],"ev_b":[N],"rows":[{"name":S,"in_a":B,"in_b":B,
 *     "calls_a":N,"calls_b":N,"self_a":N,"self_b":N,"incl_a":N,"incl_b":N,
 *     "ev_a":[N],"ev_b":[N]}]
 * rows in the order of d (the order of diff.txt); the events those of
 * diff.txt's events table (misses only when some count is not 0), the
 * ev_ arrays in their order. */
void profile_diff_json(NpJson *b, const ProfDiff *d);

/* Differential folded stacks: every calling context of a and b (summed by
 * path) as "prefix;f;g countA countB" lines, paths sorted, cut at 512
 * frames as stacks.folded's (deeper cycles in the ancestor at that depth);
 * a or b may be NULL. */
void profile_diff_folded(GString *out, const Profile *a, const Profile *b, const char *prefix);

/* Whether `b` exceeds `a` by more than pct percent (b > a * (1 + pct/100)),
 * computed exactly on the integers; a = 0 regresses whenever b > 0. */
bool profile_diff_regressed(uint64_t a, uint64_t b, double pct);

#endif

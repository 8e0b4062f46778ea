// SPDX-License-Identifier: GPL-2.0-or-later
/* coverage.h — OUT/coverage.info: an lcov tracefile (geninfo(1) format) of
 * the run, which genhtml turns into HTML (docs/reports.md).
 *
 * One record per source file (SF: the absolute path of the file the
 * reports read, srcpath.h), all cores merged (counts summed per file and
 * line, per function name, per branch), test name empty:
 *   FN/FNDA   every listed function whose entry has a source line, with
 *             its calls (a function entered without a call, like _start at
 *             reset, counts the executions of its first instruction);
 *   DA        per line with code: the most executions of any one of its
 *             instructions within a function, summed over the functions
 *             whose code is on that line (inlined copies add up, as gcov's);
 *   BRDA      per conditional branch: taken / not taken, exact where the
 *             block graph determines it (the fall-through or the target
 *             has no other way in, or a branch-likely's delay slot), left
 *             out where it does not; `-` when the branch never ran.
 * Functions the profile hides (--focus, --exclude) and files that cannot
 * be read are left out. */
#ifndef NOCPROF_COVERAGE_H
#define NOCPROF_COVERAGE_H

#include <glib.h>

#include "profiler/model/profile.h"

/* The tracefile of n profiles (NULL entries skipped). sums (may be NULL)
 * gets one line per source file of the tracefile, in sha256sum(1)'s
 * format: the SHA-256 of the content read (GChecksum), two spaces, the
 * absolute path (OUT/sources.sha256: `nocprof report` warns when a file
 * changed since the run). */
GString *coverage_lcov(const Profile *const *profs, unsigned n, GString *sums);

#endif

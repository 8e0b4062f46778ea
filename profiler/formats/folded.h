/* folded.h — folded stacks (flamegraph.pl, speedscope, inferno) of a core's
 * calling-context tree (Profile.ctxs).
 *
 * One line per distinct call path with the exact cycles during which it was
 * the whole stack, root first, each line prefixed by `prefix;` when prefix
 * is not NULL; paths that never were the whole stack are left out. The
 * counts add up to the core's cycles. */
#ifndef NOCPROF_FOLDED_H
#define NOCPROF_FOLDED_H

#include <glib.h>

#include "profile.h"

/* Appends the lines to out. */
void folded_append(GString *out, const Profile *p, const char *prefix);

/* Paths are cut at FOLDED_MAX_DEPTH frames: a deeper context's cycles go to
 * its ancestor at that depth, so the output stays O(contexts x depth cap)
 * (deep recursion would otherwise make it quadratic) and totals stay exact
 * (docs/robustness.md). */
#define FOLDED_MAX_DEPTH 512u
/* The same with recursion folded (callgrind's --separate-recs): at most
 * `fold` frames of one function on any path (fold = 0: no limit). A deeper
 * frame of a function that is already `fold` times on the path is merged
 * into the path without it, so identical folded paths sum and the counts
 * still add up to the core's cycles. */
void folded_append_fold(GString *out, const Profile *p, const char *prefix, unsigned fold);

#endif

/* folded.h — folded stacks (flamegraph.pl, speedscope, inferno) of a core's
 * calling-context tree.
 *
 * One line per distinct call path with the exact cycles during which it was
 * the whole stack, root first, each line prefixed by `prefix;` when prefix
 * is not NULL; paths that never were the whole stack are left out. The
 * counts add up to the core's cycles (after collector_finish). */
#ifndef NOCPROF_FOLDED_H
#define NOCPROF_FOLDED_H

#include <glib.h>

#include "collect.h"

/* Appends the lines to out. */
void folded_append(GString *out, const Collector *col, const char *prefix);

#endif

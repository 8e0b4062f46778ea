// SPDX-License-Identifier: GPL-2.0-or-later
/* fname.h — matching a function name given on the command line (--focus,
 * --exclude, --collect-only, diff --function) against a profile's.
 *
 * GCC names the copies it makes of a function after it: `simpson.constprop.0`
 * (constant propagation), `f.isra.1` (scalar replacement of aggregates),
 * `f.part.0` (partial inlining), `f.cold` (a hot/cold split), and
 * combinations (`f.isra.0.constprop.1`). A name matches the function of
 * that name and every clone of it (same source name): the user writes the
 * name of the C source. A name that matches nothing gets suggestions ("did
 * you mean") from the close names: same source name, same text ignoring
 * case, or at most a third of its length in edits (Levenshtein).
 */
#ifndef NOCPROF_FNAME_H
#define NOCPROF_FNAME_H

#include <glib.h>
#include <stdbool.h>

/* The source name of a GCC clone (`simpson` for `simpson.constprop.0`), a
 * new string, or NULL when name is not a clone. */
char *fname_source(const char *name);

/* Whether sym is query, or a GCC clone of it. *clone (may be NULL) says
 * it was the latter. */
bool fname_match(const char *sym, const char *query, bool *clone);

/* "; did you mean A, B?" (at most 3 names, closest first) or "" when
 * nothing is close; names[0..n) may hold duplicates and NULLs. g_free. */
char *fname_suggest(const char *query, const char *const *names, unsigned n);

#endif

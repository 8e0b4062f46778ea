// SPDX-License-Identifier: GPL-2.0-or-later
/* check.h — assertions of invariants on the hot paths (the block hook,
 * sampling, the collector's calls and returns): checked in checking builds
 * (NOCPROF_CHECK: Debug and ASan builds, CMakeLists.txt), nothing in
 * a release. Elsewhere, where a test costs nothing that counts, the code
 * uses g_assert as noc/noc.c does. */
#ifndef NOCPROF_CHECK_H
#define NOCPROF_CHECK_H

#include <glib.h>

#ifdef NOCPROF_CHECK
#define NP_CHECK(expr) g_assert(expr)
#define NP_CHECK_CMPUINT(a, op, b) g_assert_cmpuint(a, op, b)
#else
#define NP_CHECK(expr) ((void)0)
#define NP_CHECK_CMPUINT(a, op, b) ((void)0)
#endif

#endif

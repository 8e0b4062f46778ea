// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_data_check.h — magnitudes of a loaded profile checked against
 * their totals (profile_data_check.c); private to profiler/data. Each
 * returns NULL when the counts are consistent, else the field (relative to
 * the profile, "arcs[3].count") and what is wrong, newly allocated. */
#ifndef NOCPROF_PROFILE_DATA_CHECK_H
#define NOCPROF_PROFILE_DATA_CHECK_H

#include <glib.h>

#include "profiler/model/profile.h"

/* Histogram h of p: total <= core_cycles / period, idle + outside + the
 * bins <= total. */
char *pd_check_hist(const Profile *p, unsigned h, uint64_t core_cycles);
/* Everything of p (its histograms with pd_check_hist): instructions and
 * interrupt cycles <= cycles; functions' self cycles and instructions add
 * up to at most the profile's, calls <= instructions, samples <= the
 * histogram's total; arcs' counts add up to at most the instructions,
 * those into one function to at most its calls;
 * blocks' runs to at most its instructions plus `stops` (the runs summed:
 * each core's last run of a block may have been cut before its first
 * instruction), their cycles to its cycles;
 * contexts' self cycles to at most the cycles; timeline spans end by the
 * core's last cycle. */
char *pd_check_profile(const Profile *p, uint64_t core_cycles, unsigned stops);

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/* gmon.h — GNU gprof gmon.out (version 1) writer.
 *
 * The file follows the ELF being profiled: every field in the target byte
 * order (symbols_big_endian(p->syms)) with 4-byte addresses, written field
 * by field, so `mipsel-linux-gnu-gprof` / `mips-linux-gnu-gprof` read it on
 * any host. Records, in order:
 *
 *   tag 0  histogram of p->hists[hist_index]: one record per executable
 *          range of the histogram (ProfHist.ranges: the ELF's executable
 *          segments, never the gap between them), one bin per instruction;
 *          bins above 65535 are split over several records with the same
 *          range (gprof sums them); prof_rate = round(clock_hz /
 *          period) samples per second, dimension "seconds", abbreviation 's'.
 *          Bins are 64-bit; the records are exact unless the histogram
 *          part would pass GMON_HIST_BUDGET bytes or a bin GMON_BIN_LIMIT
 *          (gprof sums a bin's records in an int): then every count is
 *          divided by a power of two S, rounded to nearest, and prof_rate
 *          by S too (gmon_hist_scale), so gprof's seconds and percentages
 *          hold within S/2 samples per bin.
 *          Idle and outside-range samples have no bin and are not written.
 *   tag 1  one record per arc: from_pc = the call site (or the caller's
 *          start when the site is unknown), self_pc = the callee's start,
 *          count split over several records above 2^32-1. Arcs from a
 *          pseudo-function (<interrupt>, <unknown>) or to one are skipped, so
 *          interrupt handlers print as <spontaneous>.
 *   tag 2  one record with every executed block (address, count); counts
 *          above 2^32-1 are split over repeated pairs. binutils 2.40 swaps
 *          nblocks twice, so for a big-endian target nblocks is written
 *          little-endian (the pairs stay big-endian).
 */
#ifndef NOCPROF_GMON_H
#define NOCPROF_GMON_H

#include <glib.h>

#include "profiler/model/profile.h"

#define GMON_ERROR (gmon_error_quark())
GQuark gmon_error_quark(void);
typedef enum { GMON_ERROR_INVALID } GmonError;

/* gmon_build refuses (GMON_ERROR_INVALID) to write a file larger than this:
 * whatever the counts (a saved profile is untrusted), the writer's time
 * and memory stay bounded. */
#define GMON_MAX_BYTES (1024u * 1024u * 1024u)

/* The whole gmon.out image for one core. hist_index selects the sampling
 * period whose histogram is written; with p->nperiods == 0 no histogram is
 * written and hist_index is ignored. Fails (GMON_ERROR_INVALID) when
 * hist_index is out of range, p->syms is NULL (the byte order is unknown) or
 * the histogram range is malformed. */
GByteArray *gmon_build(const Profile *p, unsigned hist_index, GError **error);

/* The histogram part of one gmon.out stays under this many bytes. */
#define GMON_HIST_BUDGET (64ull << 20)
/* The largest count written for one bin (gprof's int accumulator). */
#define GMON_BIN_LIMIT 0x7FFFFFFFull
/* The scale S histogram hist_index is written with (1: exact). */
uint64_t gmon_hist_scale(const Profile *p, unsigned hist_index);

typedef enum {
    GMON_DEFAULT = 0,
    /* Leave out the basic-block record. binutils 2.40 `gprof -s` writes the
     * block count of a big-endian gmon.sum in target order and then cannot
     * read its own file back (the double swap above), so files meant to be
     * summed with `mips-linux-gnu-gprof -s` should carry no block record. */
    GMON_NO_BLOCKS = 1 << 0,
} GmonFlags;

/* gmon_build() with flags. */
GByteArray *gmon_build_flags(const Profile *p, unsigned hist_index, GmonFlags flags,
                             GError **error);

#endif

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

#include "profile.h"

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

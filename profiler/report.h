/* report.h — text reports of a Profile, in the layouts of GNU gprof.
 *
 * Every printer takes a finished Profile and returns a newly allocated
 * GString (free with g_string_free(s, TRUE)); none does any I/O except the
 * annotated listing, which reads the source files named by DWARF. Layouts and
 * column meanings are documented in docs/reports.md.
 *
 *   report_flat        gprof -p: the exact profile (cycles, and seconds at
 *                      p->clock_hz), then one sampled profile per sampling
 *                      period side by side with the exact percentages and
 *                      the expected sampling error.
 *   report_callgraph   gprof -q: call graph with exact children time from
 *                      the arcs, <cycle N> groups (Tarjan SCCs), n+r called
 *                      counts, <spontaneous> and <interrupt> callers, and an
 *                      index by function name.
 *   report_annotated   gprof -A -l -x: source lines of every executed
 *                      function with block counts, cycles and samples;
 *                      disassembly where the source cannot be read.
 *
 * The gmon.out writer is in gmon.h.
 */
#ifndef NOCPROF_REPORT_H
#define NOCPROF_REPORT_H

#include <glib.h>

#include "profile.h"

GString *report_flat(const Profile *p);
GString *report_callgraph(const Profile *p);
GString *report_annotated(const Profile *p);

/* Chip-wide profile: the n per-core profiles summed function by function,
 * matching functions by NAME (so different ELFs per core combine: a function
 * present on several cores sums, one present on a single core appears once;
 * addr/size are those of the first core that has it). Pseudo-functions
 * (<idle>, <interrupt>, <unknown>) stay last, so profile_pseudo() works.
 * Totals (cycles, instructions, idle/irq/busy cycles), calls, recursive
 * calls, self/inclusive cycles, instructions and samples are sums; arcs are
 * summed per (caller name, callee name, call_site), and call sites are only
 * meaningful when all cores ran the same ELF. Sampling periods are those of
 * cores[0]; a core's samples count for a period only if it recorded the same
 * period. The merged histograms keep period and totals but have no bins
 * (address spaces are private per core), and there are no blocks, so the
 * result suits report_flat and report_callgraph but not gmon_build or
 * report_annotated. core is G_MAXUINT, syms is cores[0]->syms, clock_hz
 * that of cores[0]. Function names are borrowed from the input profiles:
 * free the merged profile (profile_free) before their Symbols. */
Profile *profile_merge(const Profile *const *cores, unsigned n);

/* Execution count of each of the n instructions starting at start (4 bytes
 * apart), summed over the blocks that contain it: profile_insn_count() for a
 * whole range in one pass over the blocks. counts has n entries. */
void profile_insn_counts(const Profile *p, uint32_t start, unsigned n, uint64_t *counts);

#endif

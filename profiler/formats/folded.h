// SPDX-License-Identifier: GPL-2.0-or-later
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
#include <stdio.h>

#include "profiler/model/profile.h"

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

/* The same in steps, for a byte budget ([limits] folded_bytes, cli/write.c):
 * the folded tree of p once, then the size of its output and the output
 * itself with paths cut at `depth` frames (1..FOLDED_MAX_DEPTH): a deeper
 * frame's cycles are charged to its ancestor at that depth, so the counts
 * still add up to the core's cycles. The size grows with depth, so the
 * deepest cut that fits a budget is found by bisection. */
typedef struct Folded Folded;
Folded *folded_new(const Profile *p, unsigned fold);
void folded_free(Folded *f);
unsigned folded_max_depth(const Folded *f);
uint64_t folded_bytes(Folded *f, const char *prefix, unsigned depth);   /* the last one remembered */
void folded_write(GString *out, Folded *f, const char *prefix, unsigned depth);
/* The same lines to out in chunks of 256 KiB, never whole (issue 24: the
 * page faults of megabytes held in memory); false when a write failed
 * (errno says why). */
bool folded_write_file(FILE *out, Folded *f, const char *prefix, unsigned depth);

/* The folded tree read back, for report.html's flame data (cli/write.c):
 * its nodes 0..folded_nodes-1 in the order folded_write writes their lines
 * (node 0 the root, parents before children), each node's parent, its
 * function's index (< folded_funcs) and that name as folded_write spells
 * it, and the count its line carries with paths cut at depth (0: no
 * line). */
unsigned folded_nodes(const Folded *f);
unsigned folded_funcs(const Folded *f);
const char *folded_name(const Folded *f, unsigned func, size_t *len);

/* The nodes themselves, read-only (a call per node and field was a
 * quarter of the flame data's cost: issue 24): node i is nodes[i], its
 * count at a cut folded_node_count(nodes, folded_subtrees(f, depth), i,
 * depth). */
typedef struct FoldedNode {
    unsigned parent, func;
    unsigned depth;            /* frames on its path (root: 1) */
    uint64_t self;
} FoldedNode;
const FoldedNode *folded_node_array(const Folded *f);
/* Each node's self + its descendants' cycles, made on the first cut that
 * needs them; NULL when depth cuts nothing (every count is then a node's
 * self: 8 bytes a node and a pass saved; issue 24's page faults). */
const uint64_t *folded_subtrees(Folded *f, unsigned depth);

static inline uint64_t folded_node_count(const FoldedNode *nodes, const uint64_t *subtree, unsigned i,
                                         unsigned depth)
{
    const FoldedNode *c = &nodes[i];
    return c->depth < depth || !subtree ? c->self : c->depth == depth ? subtree[i] : 0;
}

#endif

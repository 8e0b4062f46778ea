// SPDX-License-Identifier: GPL-2.0-or-later
/* html_report.h — OUT/report.html, the self-contained interactive report.
 *
 * The page is the web/ front end (d3, d3-flame-graph; bundled by esbuild at
 * build time and embedded into the binary as nocprof_web_bundle) followed by
 * the run's data as one JSON document in a <script type="application/json">
 * element: summary.json, stacks.folded, trace.json and the per-instruction
 * source data below. Nothing is fetched when the page is opened.
 * diff.html (`nocprof diff`) is the same bundle over a comparison's data.
 */
#ifndef NOCPROF_HTML_REPORT_H
#define NOCPROF_HTML_REPORT_H

#include <glib.h>
#include <stdbool.h>

#include "profiler/model/profile.h"

/* Per-instruction data of every function that ran, per core, as JSON:
 *   {"events":[K, ...],"files":[{"path":P,"text":[lines...] | null}, ...],
 *    "cores":[{"core":N,"functions":[{"name":S,"address":A,
 *       "insns":[[addr,count,cycles,samples,file,line,"disasm"(,ev)], ...]}]}
 *             | null, ...]}
 * count = executions of the instruction (summed over the basic blocks that
 * hold it), cycles = its blocks' cycles spread evenly over their
 * instructions (exact per block, as in annotated.txt), samples = samples of
 * the first sampling period; file = index into "files" or -1, line = 0
 * when unknown. Source text is read from the paths DWARF names (null when
 * unreadable). ev, only when an event other than its executions is not 0:
 * [mask, e, n, ...] of prof_insn_events (bit e of mask: event e counts its
 * executions; pairs: event e's count otherwise), e indexing "events" (the
 * event table's summary.json keys). profs[i] may be NULL (no profile for
 * that core). */
GString *html_lines_json(const Profile *const *profs, unsigned ncores);

/* The flame graphs' data from stacks.folded's text: the tree of its paths
 * (one node per distinct path prefix, frames matched by name, the folded
 * escapes \x3b and \x20 undone), nodes in order of first appearance
 * (parents before children):
 *   {"names":[S, ...],"nodes":[up, name, value, ...]}
 * three numbers per node: how many nodes before it its parent is (0 for a
 * root frame, coreN), its name's index, the cycles of the lines ending
 * there. A few
 * bytes per calling context where the text repeats every path (issue 24:
 * 8.6 MB of text for deep mutual recursion, which report.html quoted and
 * compressed). html_flame.c. */
GString *html_flame_json(const char *folded);

/* The same tree made by its frames, for a caller that holds the paths
 * already (cli/write.c walks the folded trees of stacks.folded instead of
 * reading its text back: issue 24). html_flame_name gives the index of a
 * frame's name as the page shows it (name is taken: freed when known),
 * numbered in order of first use; html_flame_child the node named name
 * under parent (-1: a root frame), made when new; html_flame_add adds
 * cycles to a node; html_flame_finish frees the builder and returns the
 * JSON above. Calling them in the order html_flame_json meets the frames
 * of stacks.folded's lines (each line's frames root first, a name looked
 * up on its first use) gives the same bytes. */
typedef struct HtmlFlame HtmlFlame;
HtmlFlame *html_flame_new(void);
unsigned html_flame_name(HtmlFlame *f, char *name);
int64_t html_flame_child(HtmlFlame *f, int64_t parent, unsigned name);
/* A new child without looking for one of that name: for a caller that
 * knows parent has none (html_flame_child does not find it later). */
int64_t html_flame_new_child(HtmlFlame *f, int64_t parent, unsigned name);
/* The same with count cycles of its own (html_flame_add in the call). */
int64_t html_flame_new_leaf(HtmlFlame *f, int64_t parent, unsigned name, uint64_t count);
/* Room for this many nodes at once (a hint: more may still be made). */
void html_flame_reserve(HtmlFlame *f, guint nodes);
void html_flame_add(HtmlFlame *f, int64_t node, uint64_t count);
GString *html_flame_finish(HtmlFlame *f);
/* A folded frame's name as the page shows it: \x3b and \x20 undone. */
char *html_flame_unfold(const char *s, gsize n);

/* The page: the embedded bundle plus the data document
 *   {"summary":<summary_json>,"flame":<html_flame_json(folded)>,
 *    "trace":<trace_json, trimmed by html_trim_trace>|null,
 *    "trace_cut":C,"trace_dropped":N,"source":<lines_json>|null}.
 * summary_json is required; the others may be NULL. */
GString *html_report_build(const char *summary_json, const char *folded, const char *trace_json,
                           const char *lines_json);
/* The same with the summary read from the file summary_path (a MiB at a
 * time), "flame" the JSON flame (html_flame_finish's; NULL: made from
 * folded) and "source" made from profs (html_lines_json; profs NULL: null),
 * written into the page as it is made when the page is compressed anyway
 * (issue 24: neither is held whole). NULL on error (NOCPROF_ERROR_IO
 * naming the file). */
GString *html_report_build_run(const char *summary_path, const char *folded, const char *flame,
                               const char *trace_json, const Profile *const *profs, unsigned ncores,
                               GError **error);

/* diff.html of `nocprof diff`: the same front end (it shows the
 * comparison when the data document is {"diff":...}) with the data
 * document {"diff":<diff_json>}; diff_json is described in
 * docs/reports.md (built by cli/diff.c from profile_diff_json). */
GString *html_diff_build(const char *diff_json);

/* sweep.html of `nocprof sweep`: the same front end over the data document
 * {"sweep":<sweep_json>} (cli/sweep_collect.c; docs/sweeps.md). */
GString *html_sweep_build(const char *sweep_json);

/* A data document longer than this is embedded zlib-compressed in base64
 * (<script type="application/octet-stream" id="nocprof-data"
 * data-encoding="deflate-base64">); the page inflates it when it opens. */
#define HTML_PLAIN_MAX (4u << 20)

/* At most this many complete events (waits, handler runs, packets) of
 * trace.json go into the page; trace.json itself keeps all of them. */
#define HTML_TRACE_SPANS 150000u

/* trace.json (one event per line, profiler/formats/trace.c) without the
 * message events of the communication profile (cat "message": 1-cycle
 * send/receive slices and flow arrows, which the page does not draw) and
 * with only the complete events ("ph":"X") that start before *cut, the
 * start cycle of the (budget+1)-th earliest one, so that at most budget
 * remain (*cut = 0: no such cut); metadata and instant events are kept.
 * *dropped = complete events left out for the cut. NULL (and *cut =
 * *dropped = 0) when there are no messages and no more than budget. */
char *html_trim_trace(const char *trace, unsigned budget, uint64_t *cut, uint64_t *dropped);

/* The page of the finished run in out_dir: reads OUT/summary.json
 * (required), OUT/stacks.folded and OUT/trace.json (when present) and adds
 * html_lines_json(profs) (profs may be NULL). NULL on error
 * (NOCPROF_ERROR_IO naming the file). The caller writes it as
 * OUT/report.html. */
GString *html_report_page(const char *out_dir, const Profile *const *profs, unsigned ncores, GError **error);

#endif

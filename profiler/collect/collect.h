// SPDX-License-Identifier: GPL-2.0-or-later
/* collect.h — exact call-graph collection for one core.
 *
 * Plugs into the core as CoreHooks. Every arrival of control at a block
 * is classified from the previous block's control instruction:
 *   - a call (jal, jalr, bal) or any jump/branch from another function to
 *     a function's first instruction is a CALL (so a tail call `j f` is
 *     credited to the function that jumped); a branch back to a function's
 *     own entry from inside it is a loop;
 *   - `jr $ra` landing where a shadow frame expects to return (same return
 *     address, same $sp as at that frame's entry) is a RETURN: that frame
 *     and the tail-call frames that share its return pops;
 *   - any `jr` that lands with $sp above a frame's entry $sp unwinds that
 *     frame (longjmp-like exits, returns not seen);
 *   - entering the interrupt vector pushes an arc from <interrupt>; `eret`
 *     pops back to it.
 * Inclusive cycles of a frame = cycles between entry and exit minus the
 * idle and interrupt cycles that passed meanwhile, so interrupt handlers
 * are charged only to themselves (via <interrupt>) and wait cycles only to
 * <idle>. A function's inclusive total counts its outermost activations
 * only (recursion is not double counted); an arc's inclusive cycles count
 * only calls that entered the callee's outermost activation.
 */
#ifndef NOCPROF_COLLECT_H
#define NOCPROF_COLLECT_H

#include "emu/core.h"
#include "profiler/model/profile.h"
#include "profiler/model/symbols.h"

typedef struct Collector Collector;

Collector *collector_new(const Symbols *syms);
void collector_free(Collector *col);
/* Hooks to pass to core_set_hooks, once collector_collect_only was called
 * (with --collect-only the usual call and return are not reported late). */
CoreHooks collector_hooks(Collector *col);
/* Close every open frame at the core's final cycle. */
void collector_finish(Collector *col, uint64_t now);
/* Function indices of the shadow stack, innermost first (for fault
 * reports); *n set to their number. Caller frees. */
unsigned *collector_stack(const Collector *col, unsigned *n);
/* The return address of each of those frames (1: an interrupt's). */
uint32_t *collector_stack_ret(const Collector *col, unsigned *n);
/* Calling-context tree: one node per distinct call path. Node 0 is the
 * root (the function where the core started); every other node's parent
 * is a smaller index. self = the exact cycles during which the path was the
 * whole stack; idle time is an <idle> node under the path that waited,
 * interrupts are <interrupt> nodes on the path they interrupted, so the
 * selfs add up to the core's cycles (after collector_finish). */
typedef ProfCtx CollectorCtx;

/* A context's communication (profiler/comm; not saved in profile.data,
 * which keeps the CommReport instead): cycles of self that were blocked
 * (poll_rx, wait_tx; wait_irq on <idle> nodes: their cycles in `wait`
 * with NoC interrupts enabled), packets and flits sent and received. Kept
 * apart from the contexts (issue 24: 56 of a context's 72 bytes, zero
 * on a core that never talks to the NoC), made when first counted. */
typedef struct CollectorCtxComm {
    uint64_t blocked[3];
    uint64_t sent_packets, sent_flits, recv_packets, recv_flits;
} CollectorCtxComm;

/* Kinds of blocked cycles (profiler/comm, docs/reports.md). */
enum { COLLECT_POLL_RX, COLLECT_WAIT_TX, COLLECT_WAIT_IRQ, COLLECT_NBLOCKED };

/* The core, so that idle spans can tell whether NoC interrupts were
 * enabled (wait_irq). */
void collector_attach_core(Collector *col, const Core *core);
/* A failed poll of kind k (POLL_RX or WAIT_TX) at cycle now. The first
 * opens a blocked span: from then on the cycles of the current paths
 * (outside interrupt handlers entered later) are blocked cycles of kind k
 * of their calling contexts, up to the last failed poll, or up to
 * collector_block_end (the successful status read). An open span of the
 * other kind ends here first. */
void collector_block_begin(Collector *col, unsigned kind, uint64_t now);
/* End the open blocked span at cycle now; its blocked cycles (0 if none
 * was open), plus those of spans the collector ended by itself since the
 * last call (a span also ends when the core enters `wait`, and when the
 * interrupt handler that opened it returns). *kind (may be NULL) is set
 * to its kind. */
uint64_t collector_block_end(Collector *col, uint64_t now, unsigned *kind);
/* Whether a blocked span is open, and its kind. */
bool collector_blocked(const Collector *col, unsigned *kind);
/* Count a packet of `flits` flits sent (or received) by the current path at
 * cycle now; returns the path's calling-context node. */
unsigned collector_count_packet(Collector *col, uint64_t now, bool sent, unsigned flits);
/* The last `wait` span with NoC interrupts enabled, [*from, *to); false
 * if none yet. */
bool collector_last_noc_wait(const Collector *col, uint64_t *from, uint64_t *to);

const CollectorCtx *collector_contexts(const Collector *col, size_t *n);
/* The communication of nodes 0..*n-1 (*n may be fewer than the contexts:
 * the nodes beyond have none). */
const CollectorCtxComm *collector_ctx_comms(const Collector *col, size_t *n);

/* A span on the core's timeline: a wait (idle) or an interrupt handler
 * run (func = the vector's function), in cycles [start, end). */
typedef ProfEvent CollectorEvent;

/* Regions of interest (region.c). The core whose counters the collector
 * reads when collection stops and starts (needed before any switch). */
void collector_bind_core(Collector *col, Core *core);
/* Collect only while the function named `name` (or a GCC clone of it,
 * fname.h) is on the call stack (repeatable: any of them). false: no such
 * function. */
bool collector_collect_only(Collector *col, const char *name);
/* PROF_CTRL's state at reset (default on); firmware switches it. */
void collector_collect_initially(Collector *col, bool on);

/* Keep at most max spans (default 200,000; 0 records none). */
void collector_set_event_limit(Collector *col, size_t max);
/* At most max calling contexts ([limits] contexts); a call that would need
 * another stays in its caller's context and is counted
 * (Profile.contexts_dropped). */
void collector_set_context_limit(Collector *col, unsigned max);
/* The spans in time order (at most the limit; *dropped counts the rest). */
const CollectorEvent *collector_events(const Collector *col, size_t *n, uint64_t *dropped);
/* Name of a function index: a symbol or a pseudo-function. */
const char *collector_func_name(const Collector *col, unsigned func);

/* Build the core's Profile (after collector_finish), its calling contexts
 * and timeline spans included. The contexts move to the Profile:
 * collector_contexts reads them there afterwards, so the Profile must
 * outlive the collector's readers, and the collector collects no more. */
Profile *collector_profile(Collector *col, const Core *core, const char *elf_path, double clock_hz);

#endif

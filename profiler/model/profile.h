// SPDX-License-Identifier: GPL-2.0-or-later
/* profile.h — one core's profile: what collection produces, what every
 * report (flat, call graph, annotated listing, gmon.out, summary.json,
 * aliasing) consumes. Plain data; built once at the end of a run.
 *
 * Functions are indexed 0 .. nfuncs-1. The first symbols_count() entries
 * are the ELF's functions in symbols order; then come the pseudo-functions
 * PROF_IDLE ("<idle>": cycles spent in `wait`), PROF_INTERRUPT
 * ("<interrupt>": the caller of interrupt vectors) and PROF_UNKNOWN
 * ("<unknown>": code outside every symbol). Their indices are
 * profile_pseudo(p, PROF_IDLE) etc.
 *
 * Cycles are exact (counted by the emulator). Samples are the timer-tick
 * histogram: for each sampling period P the instruction running at cycle
 * k*P - 1 (k = 1, 2, ...) is counted, so a core that ran C cycles has
 * exactly floor(C / P) samples, idle samples included.
 */
#ifndef NOCPROF_PROFILE_H
#define NOCPROF_PROFILE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "profiler/model/symbols.h"

typedef enum { PROF_IDLE, PROF_INTERRUPT, PROF_UNKNOWN, PROF_NPSEUDO } ProfPseudo;

typedef struct ProfFunc {
    const char *name;          /* symbol name or "<idle>" etc.; never holds a control
                                * byte or invalid UTF-8 (escaped as \xNN where a
                                * Profile is made: base/name.h) */
    uint32_t addr, size;       /* 0 for pseudo-functions */
    bool pseudo;
    uint64_t calls;            /* entries, recursive ones included */
    uint64_t recursive_calls;  /* entries while already active on the stack */
    uint64_t self_cycles;      /* cycles of its own instructions (or idle) */
    uint64_t inclusive_cycles; /* self + callees, outermost activations only;
                                  idle and interrupt time excluded */
    uint64_t instructions;     /* instructions executed in its body */
    /* of them: loads, stores, control transfers, of which conditional
     * and jr/jalr; then (24k) the cycles waited inside its blocks, by
     * cause: a load, an address base, the MDU, the FPU; then the L1
     * cache's instruction, data-read and data-write misses ([cache]
     * enabled; 0 without the cache model). Names and order: the event
     * table, profiler/model/events.h */
#define PROF_NEVENTS 12
    union {
        struct {
            uint64_t loads, stores, branches, cond_branches, indirect_branches;
            uint64_t waits[4];
            uint64_t i1_misses, d1r_misses, d1w_misses;
        };
        uint64_t events[PROF_NEVENTS];
    };
    uint64_t *samples;         /* [nperiods] samples that hit it */
    bool hidden;               /* left out of the reports (profile_filter) */
} ProfFunc;

typedef struct ProfArc {
    unsigned caller, callee;   /* function indices */
    uint32_t call_site;        /* address of the call/jump/branch; 0 for an
                                  interrupt entry (caller <interrupt>) */
    uint64_t count;
    uint64_t inclusive_cycles; /* callee's inclusive cycles under this arc */
} ProfArc;

typedef struct ProfBlock {
    uint32_t addr;             /* first instruction */
    uint32_t ninsns;
    unsigned func;             /* function index */
    uint64_t count;            /* executions: times it was entered */
    uint64_t cycles;           /* all cycles charged to it */
    uint64_t *icycles;         /* [ninsns] of them, each instruction's
                                  (they add up to cycles; owned by the
                                  Profile; NULL: spread evenly) */
    uint64_t *cut;             /* [ninsns] of its executions, those cut
                                  short before each instruction (a fault,
                                  an interrupt, the exit, the cycle limit,
                                  a gdb pc write, an annulled delay slot):
                                  each <= count, not monotonic; owned by
                                  the Profile; NULL: none */
} ProfBlock;

/* The times b's instruction k (k < ninsns) really ran: its executions
 * less those cut short before it. Every per-instruction or per-line
 * execution count comes from this, never from count alone. */
static inline uint64_t prof_block_insn_runs(const ProfBlock *b, uint32_t k)
{
    return b->cut ? b->count - (b->cut[k] < b->count ? b->cut[k] : b->count) : b->count;
}

/* The cycles of b's instruction k (k < ninsns): icycles[k], or without
 * them b's cycles spread evenly (the first cycles % ninsns get one more). */
static inline uint64_t prof_block_insn_cycles(const ProfBlock *b, uint32_t k)
{
    return b->icycles ? b->icycles[k] : b->cycles / b->ninsns + (k < b->cycles % b->ninsns);
}

/* At most this many ranges (the emulator's CORE_MAX_RANGES). */
#define PROF_MAX_RANGES 1024u

/* One executable range of a histogram: bins first .. first + (hi - lo) / 4
 * - 1 of ProfHist.bins are the instructions of [lo, hi). */
typedef struct ProfRange {
    uint32_t lo, hi, first;
} ProfRange;

/* A sampling histogram over the ELF's executable ranges (its executable
 * segments, sorted and merged; not the hull between them, so a far
 * segment costs its own size only). */
typedef struct ProfHist {
    uint32_t period;           /* cycles between samples */
    unsigned nranges;
    ProfRange *ranges;         /* [nranges] sorted, disjoint, 4-aligned */
    uint32_t nbins;            /* sum of (hi - lo) / 4 */
    uint64_t *bins;            /* [nbins], range after range (64-bit: a
                                  period-1 run passes 2^32 samples) */
    uint64_t idle;             /* samples taken while the core was in wait */
    uint64_t outside;          /* samples at a PC outside every range */
    uint64_t total;            /* all samples = floor(cycles / period) */
} ProfHist;

/* The bin of pc, or -1 when pc lies outside every range. */
int64_t prof_hist_index(const ProfHist *h, uint32_t pc);
/* Samples at pc (0 outside every range). */
uint64_t prof_hist_at(const ProfHist *h, uint32_t pc);
/* The pc of bin k (k < nbins). */
uint32_t prof_hist_pc(const ProfHist *h, uint32_t k);
/* [low, high): the first range's start, the last range's end (0, 0: none). */
uint32_t prof_hist_low(const ProfHist *h);
uint32_t prof_hist_high(const ProfHist *h);
/* dst gets copies of src's ranges and bins (period and counters too). */
void prof_hist_copy(ProfHist *dst, const ProfHist *src);
void prof_hist_clear(ProfHist *h);

/* Calling-context tree node: one per distinct call path. Node 0 is the root
 * (the function where the core started); every other node's parent is a
 * smaller index; self = the exact cycles during which the path was the
 * whole stack (idle time is an <idle> node under the path that waited,
 * interrupts are <interrupt> nodes), so the selfs add up to the cycles. */
typedef struct ProfCtx {
    unsigned parent, func;
    uint64_t self;
} ProfCtx;   /* 16 bytes: the communication of a context is the
                collector's (CollectorCtxComm), not the Profile's */

/* [cache] enabled: the L1 misses of one instruction, summed over the
 * blocks that hold it (per-line event counts; docs/timing.md). */
typedef struct ProfMiss {
    uint32_t pc, zero;         /* zero: padding (profile.data's fixed layout) */
    uint64_t i1, d1r, d1w;     /* I-cache, D-cache read, D-cache write misses */
} ProfMiss;

/* A span on the core's timeline: a wait (idle) or an interrupt handler run
 * (func = the vector's function), cycles [start, end). */
typedef struct ProfEvent {
    uint64_t start, end;
    unsigned func;
    bool idle;
} ProfEvent;

/* 24k stall cycles per instruction: the cycles the instruction at pc
 * waited for cause (0 load, 1 address base, 2 MDU, 3 FPU: the order of
 * ProfFunc.waits) over all its executions, inside blocks; summed over
 * the blocks holding it. A function's entries add up to its waits. */
typedef struct ProfStall {
    uint32_t pc, cause;
    uint64_t cycles;
} ProfStall;

/* Communication per instruction (profiler/comm): blocked cycles charged
 * to the first failed poll of each blocked span, packets sent at TX_SEND,
 * received at the last RX_DATA / RX_DROP. */
typedef struct ProfCommLine {
    uint32_t pc;
    uint64_t blocked, sent, recv;
} ProfCommLine;

typedef struct Profile {
    unsigned core;
    char *elf_path;
    const Symbols *syms;       /* not owned */
    double clock_hz;           /* for cycles -> seconds */
    uint64_t cycles, instructions, idle_cycles, irq_cycles, busy_cycles;
    unsigned nfuncs;
    ProfFunc *funcs;
    unsigned narcs;
    ProfArc *arcs;             /* sorted by (callee, caller, call_site) */
    unsigned nblocks;
    ProfBlock *blocks;         /* sorted by addr */
    size_t nstalls;
    ProfStall *stalls;         /* sorted by (pc, cause); none under flat */
    uint32_t max_block_insns;  /* the longest block's ninsns; 0 = unknown
                                  (then range lookups scan every block) */
    unsigned nperiods;
    ProfHist *hists;           /* [nperiods], in the order given by the user */
    size_t nctxs;
    ProfCtx *ctxs;             /* calling contexts (folded stacks, flame graphs) */
    bool ctxs_distinct;        /* no two children of a node have one function
                                  (the collector's tree; a profile.data read
                                  back may repeat a path: summed) */
    size_t nevents;
    ProfEvent *events;         /* timeline spans in time order */
    uint64_t events_dropped;   /* spans past the recording limit */
    uint64_t contexts_dropped; /* calls past [limits] contexts, charged to
                                  their caller's context */
    bool blocks_full;          /* the core stopped at [limits] blocks */
    /* Regions of interest: every number above counts only what ran while
     * collection was on; excluded_cycles ran outside (0: collected
     * throughout), collection says how the region was chosen (owned). */
    uint64_t excluded_cycles;
    char *collection;
    char *filter;              /* what profile_filter did (owned), or NULL */
    size_t nmisses;
    ProfMiss *misses;          /* instructions with a cache miss, by pc
                                  (none without [cache] enabled) */
} Profile;

static inline unsigned profile_pseudo(const Profile *p, ProfPseudo which)
{
    return p->nfuncs - PROF_NPSEUDO + (unsigned)which;
}

void profile_free(Profile *p);
/* acc's per-instruction stalls plus n more (any order): sorted, summed by
 * (pc, cause). */
void profile_stalls_add(Profile *acc, const ProfStall *s, size_t n);

/* The reports' filters, gprof's -f/-F and -e/-E, as a new Profile:
 *   focus   (NULL-terminated names, or NULL) keep only these functions and
 *           those reachable from them by arcs; the others are hidden and
 *           their time (self cycles, samples, histogram bins) is removed,
 *           so percentages are of the focus subtrees (gprof -F);
 *   exclude "FUNC" hides FUNC, its time stays in the totals (gprof -e);
 *           "FUNC/time" also removes its time (gprof -E).
 * Hidden functions keep no arcs and no blocks: every report (flat, call
 * graph, annotated, summary.json, gmon.out, callgrind.out) leaves them
 * out. filter describes what was done. Error (NOCPROF_ERROR_USAGE): a name
 * that is no function of the profile. */
Profile *profile_filter(const Profile *p, char **focus, char **exclude, GError **error);

/* gprof -z: the ELF's functions (not pseudo-functions) with no calls, no
 * cycles and no samples: dead code, never-taken handlers. Function indices
 * in address order; *n set to their number. Caller frees. */
unsigned *profile_never_called(const Profile *p, unsigned *n);

/* Per-instruction execution count at addr, summed over the blocks that
 * contain it (an instruction can be in several overlapping blocks): the
 * times it really ran (prof_block_insn_runs). */
uint64_t profile_insn_count(const Profile *p, uint32_t addr);

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

/* Index of the first block that can contain an address >= addr (a binary
 * search using max_block_insns; 0 when that is unknown): walking the blocks
 * from there while blocks[i].addr < end visits every block overlapping
 * [addr, end), so per-function lookups cost O(log blocks + overlap) and a
 * report over every function stays near linear. */
unsigned profile_first_block(const Profile *p, uint32_t addr);

/* The one order of a Profile's arrays (qsort comparators): arcs by callee,
 * caller, call site; blocks by address, then length (code written at run
 * time can give one address blocks of several lengths). */
int profile_arc_cmp(const void *a, const void *b);
/* The misses of the instruction at pc (NULL: none). */
const ProfMiss *profile_misses_at(const Profile *p, uint32_t pc);
int profile_block_cmp(const void *a, const void *b);

#endif

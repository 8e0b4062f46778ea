// SPDX-License-Identifier: GPL-2.0-or-later
/* collect_private.h — the Collector's state, shared by the files of
 * collect/ (collect.c: hooks and shadow stack; context.c: calling contexts
 * and timeline events; profile_build.c: the Profile). Not for other stages. */
#ifndef NOCPROF_COLLECT_PRIVATE_H
#define NOCPROF_COLLECT_PRIVATE_H

#include "profiler/collect/collect.h"

typedef struct Arc {
    unsigned caller, callee;
    uint32_t site;
    uint64_t count, incl;
    unsigned ctx_parent, ctx_node; /* last calling-context node it made */
} Arc;

/* Calling-context tree: one node per distinct call path; its self cycles
 * are the time the path was the whole stack (folded stacks). */
typedef CollectorCtx Ctx;

/* The collector's own data about one emulator block; the block's tag
 * (CoreHooks.block_tag) is its index in Collector.blk. */
typedef struct BlockInfo {
    unsigned func;             /* function index (pseudo <unknown> outside) */
    bool entry;                /* starts at that function's first instruction */
    Arc *arc_cache;            /* last arc taken from it */
    const Block *call_to;      /* the block its last call went to (do_call;
                                  NULL: none): arrive_call's cache, with */
    uint32_t call_ret;         /* that call's return address (0: the frame
                                  below's, a jump) */
} BlockInfo;

/* Per function: calls (recursive ones: entered while already active),
 * inclusive cycles of its outermost frames, frames open now. A call
 * through an arc (every call of a function) is counted on the arc only,
 * as its inclusive cycles: calls and incl here are the pseudo-functions'
 * own (<idle>, <interrupt>), collector_profile adds the arcs'. */
typedef struct FuncStat {
    uint64_t calls, rcalls, incl;
    unsigned active;
} FuncStat;

#define COLLECT_MAX_PEND 16

typedef struct Frame {
    unsigned func, ctx;
    Arc *arc;
    uint32_t ret, sp;
    uint64_t entry, excluded;
    uint8_t fl;                /* FRAME_* */
} Frame;
#define FRAME_MONO 1u          /* no frame below it down to an interrupt
                                  frame (or the bottom) has a lower sp;
                                  interrupt frames are mono, with sp
                                  UINT32_MAX (never compared otherwise);
                                  bit 0: arrive_call's one `and` */
#define FRAME_OUTER 2u         /* its function was not active before */
#define FRAME_IRQ 4u           /* an interrupt handler's */
#define FRAME_UNCOUNTED 8u     /* entered while not collecting */

typedef struct Region Region;  /* region.c */

/* A context node's last two children (func + 1, 0 = none; node). */
typedef struct CtxKids {
    unsigned func[2], node[2]; /* the last two children looked up (func + 1) */
    unsigned first, sib;       /* its first child, its parent's next (0: none) */
    unsigned nkids;            /* children; beyond CTX_FEW_KIDS in ctx_index */
    unsigned char next;
} CtxKids;
#define CTX_FEW_KIDS 8u

#define COLLECT_STACK_BELOW 2u   /* interrupt frames below the bottom */

struct Collector {
    const Symbols *syms;
    unsigned nsyms, nfuncs;
    FuncStat *fs;              /* [nfuncs] */
    Frame *stack;              /* [depth], capacity cap; stack[-1] and
                                  stack[-2] are interrupt frames that
                                  never pop (the quick paths' tests need
                                  no depth) */
    Frame *top;                /* &stack[depth - 1]: the depth is
                                  top + 1 - stack (collect_depth) */
    unsigned cap;
    Frame *qlim;               /* quick ? &stack[cap - 1] : the frames'
                                  start: arrive_call's one test, top >=
                                  qlim (collect_quick_update) */
    GHashTable *arcs;          /* Arc* -> Arc* (keyed by caller, callee, site) */
    uint64_t excluded;         /* idle + interrupt cycles so far (outside irq) */
    uint64_t irq_incl;
    uint32_t epc;
    GArray *ctx;               /* Ctx; node 0 = the root (first code run);
                                  its length is its room (doubled) */
    unsigned nctx;             /* its nodes */
    const Ctx *ctx_given;      /* the contexts handed to the Profile by
                                  collector_profile (ctx is empty then) */
    size_t nctx_given;
    Ctx *ctxv;                 /* ctx->data, kept when it grows (context.c) */
    GHashTable *ctx_index;     /* (parent << 32 | func) -> node, for the
                                  children of nodes with many */
    GArray *ctx_kids;          /* CtxKids by node */
    GArray *ctx_comm;          /* CollectorCtxComm by node, up to the last
                                  that communicated (collect_ctx_comm) */
    unsigned ctx_cur;
    uint64_t ctx_mark;         /* cycles accounted to nodes so far */
    bool root_known;
    GArray *events;            /* CollectorEvent: waits and interrupts */
    GPtrArray *blk;            /* BlockInfo *, by block tag (each also the
                                  block's BlockView.data) */
    uint64_t events_dropped;
    size_t max_events;         /* COLLECTOR_MAX_EVENTS unless set */
    unsigned max_contexts;     /* [limits] contexts */
    uint64_t contexts_dropped; /* calls that found the context tree full */
    bool collecting;           /* counting now (regions of interest) */
    Region *region;            /* NULL: collecting throughout */
    const bool *only;          /* [nfuncs] --collect-only functions (the
                                  region's), or NULL */
    /* communication: the open blocked span (blk_kind < 0: none) */
    int blk_kind;
    unsigned irq_depth, blk_irq_depth;
    uint64_t blk_acc;          /* its blocked cycles so far */
    uint64_t blk_closed;       /* of spans closed by the collector, not yet
                                  taken by collector_block_end */
    unsigned npend;            /* cycles since the span's last failed poll, */
    struct { unsigned ctx; uint64_t cycles; } pend[COLLECT_MAX_PEND]; /* per path */
    const Core *core;          /* for wait_irq; NULL: not tracked */
    Core *core_q;              /* the core of the arrivals (a collector
                                  serves one core), whose register file
                                  gpr is: the quick paths' */
    const volatile uint32_t *gpr; /* core_gpr_file(core_q): NULL, none */
    bool quick;                /* the quick call and return may run:
                                  collecting throughout (no --collect-only,
                                  no region off), no blocked span open, the
                                  register file known
                                  (collect_quick_update) */
    uint64_t noc_wait_from, noc_wait_to;
    bool noc_waited;
};
#define COLLECTOR_MAX_EVENTS 200000
#define COLLECTOR_MAX_CONTEXTS 1000000u   /* [limits] contexts default */

/* Context node's communication figures, made (zero) when first counted. */
static inline CollectorCtxComm *collect_ctx_comm(Collector *col, unsigned node)
{
    if (node >= col->ctx_comm->len)
        g_array_set_size(col->ctx_comm, MAX(node + 1, 2 * col->ctx_comm->len));
    return &g_array_index(col->ctx_comm, CollectorCtxComm, node);
}

/* After a change of only, collecting, blk_kind or gpr. */
static inline void collect_quick_update(Collector *col)
{
    col->quick = !col->only && col->collecting && col->blk_kind < 0 && col->gpr;
    col->qlim = col->quick ? col->stack + col->cap - 1 : col->stack - COLLECT_STACK_BELOW;
}

/* The frames on the stack (the interrupt frames below it not counted). */
static inline unsigned collect_depth(const Collector *col)
{
    return (unsigned)(col->top + 1 - col->stack);
}

/* The collector's data about an emulator block. */
static inline BlockInfo *collect_block(const Collector *col, const Block *b)
{
    (void)col;
    return block_view(b)->data;
}

/* A span on the timeline (dropped beyond COLLECTOR_MAX_EVENTS). */
void collect_add_event(Collector *col, uint64_t start, uint64_t end, unsigned func, bool idle);
/* The time since the last stack change belongs to the current path. */
void collect_block_pend(Collector *col, uint64_t d);
static inline void collect_ctx_account(Collector *col, uint64_t now)
{
    if (col->collecting) {
        Ctx *c = &g_array_index(col->ctx, Ctx, col->ctx_cur);
        uint64_t d = now - col->ctx_mark;
        c->self += d;
        if (col->blk_kind >= 0 && col->irq_depth == col->blk_irq_depth && d)
            collect_block_pend(col, d);
    }
    col->ctx_mark = now;
}

/* End the open blocked span (the core went to sleep, or left the
 * interrupt handler that polled): its cycles wait in blk_closed. */
void collect_block_close(Collector *col, uint64_t now);

/* ---- region.c: collection on and off ---------------------------------- */
/* Idle, interrupt and not-collected cycles so far (frames subtract them). */
uint64_t collect_excluded_off(const Collector *col, uint64_t now); /* not collecting */
static inline uint64_t collect_excluded_now(const Collector *col, uint64_t now)
{
    return col->collecting ? col->excluded : collect_excluded_off(col, now);
}
/* Re-decide collection after a change of its inputs. */
void collect_region_update(Collector *col, uint64_t now);
/* A frame of func opened (delta +1) or closed (-1): --collect-only. */
void collect_region_frame(Collector *col, unsigned func, int delta, uint64_t now);
/* SYS PROF_CTRL written. */
void collect_region_ctrl(Collector *col, Core *core, bool on, uint64_t now);
/* End of the run: close the excluded amounts. */
void collect_region_finish(Collector *col);
/* CoreHooks.run_cut: the run of the last switch is cut short. */
void collect_region_run_cut(Collector *col, bool done);
/* The runs of core block i (b) cut before its instruction k while
 * collection was on. */
uint64_t collect_region_cut(const Collector *col, unsigned i, const Block *b, uint32_t k);
void collect_region_free(Collector *col);
/* Subtract what ran while not collecting: block i's counters, histogram
 * h, the Profile's totals (and set excluded_cycles, collection). */
void collect_region_block(const Collector *col, unsigned i, uint64_t *count, uint64_t *cycles,
                          uint64_t *insns);
/* Misses m[BLOCK_NMISS] of instruction insn of block i less those made
 * while collection was off. */
void collect_region_misses(const Collector *col, unsigned i, uint32_t insn, uint64_t *m);
void collect_region_hist(const Collector *col, unsigned h, ProfHist *d);
void collect_region_totals(const Collector *col, Profile *p);
/* The calling-context node for func called from node parent (made on
 * first use). */
unsigned collect_ctx_child(Collector *col, unsigned parent, unsigned func);
/* Hash of a calling-context key (parent << 32 | func), all 64 bits. */
guint collect_ctx_hash(gconstpointer key);
/* Function index of a pseudo-function. */
static inline unsigned collect_pseudo(const Collector *col, ProfPseudo which)
{
    return col->nsyms + (unsigned)which;
}
/* Name of function index f: a symbol or a pseudo-function. */
const char *collect_func_name(const Collector *col, unsigned f);

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/* collect.c — the hooks on a core: shadow call stack and arcs. */
#include "profiler/collect/collect_private.h"
#include "base/check.h"
#include "platform/mips.h"

#include <string.h>

static guint arc_hash(gconstpointer p)
{
    const Arc *a = p;
    return (a->caller * 2654435761u) ^ (a->callee * 40503u) ^ a->site;
}

static gboolean arc_equal(gconstpointer x, gconstpointer y)
{
    const Arc *a = x, *b = y;
    return a->caller == b->caller && a->callee == b->callee && a->site == b->site;
}

Collector *collector_new(const Symbols *syms)
{
    Collector *col = g_new0(Collector, 1);
    col->syms = syms;
    col->nsyms = syms ? symbols_count(syms) : 0;
    col->nfuncs = col->nsyms + PROF_NPSEUDO;
    col->fs = g_new0(FuncStat, col->nfuncs);
    col->cap = 256;
    col->stack = g_new0(Frame, col->cap + COLLECT_STACK_BELOW) + COLLECT_STACK_BELOW;
    for (unsigned i = 1; i <= COLLECT_STACK_BELOW; i++)
        col->stack[-(int)i] = (Frame){ .fl = FRAME_IRQ | FRAME_MONO, .sp = UINT32_MAX };
    col->top = col->stack - 1;
    col->arcs = g_hash_table_new_full(arc_hash, arc_equal, g_free, NULL);
    col->ctx = g_array_new(FALSE, FALSE, sizeof(Ctx));
    col->ctx_kids = g_array_new(FALSE, FALSE, sizeof(CtxKids));   /* each set as its node is made */
    col->ctx_comm = g_array_new(FALSE, TRUE, sizeof(CollectorCtxComm));   /* cleared as it grows */
    g_array_set_size(col->ctx_kids, 1);
    g_array_index(col->ctx_kids, CtxKids, 0) = (CtxKids){ 0 };
    Ctx root = { .parent = 0, .func = col->nsyms + PROF_UNKNOWN };
    g_array_append_val(col->ctx, root);
    col->nctx = 1;
    col->ctxv = (Ctx *)(void *)col->ctx->data;
    col->ctx_index = g_hash_table_new(collect_ctx_hash, g_direct_equal);
    col->events = g_array_new(FALSE, FALSE, sizeof(CollectorEvent));
    col->blk = g_ptr_array_new_with_free_func(g_free);
    col->max_events = COLLECTOR_MAX_EVENTS;
    col->max_contexts = COLLECTOR_MAX_CONTEXTS;
    col->blk_kind = -1;
    col->collecting = true;
    return col;
}

void collector_free(Collector *col)
{
    if (!col)
        return;
    g_free(col->fs);
    g_free(col->stack - COLLECT_STACK_BELOW);
    g_hash_table_destroy(col->arcs);
    g_array_free(col->ctx, TRUE);
    g_array_free(col->ctx_kids, TRUE);
    g_array_free(col->ctx_comm, TRUE);
    g_hash_table_destroy(col->ctx_index);
    g_array_free(col->events, TRUE);
    g_ptr_array_free(col->blk, TRUE);
    collect_region_free(col);
    g_free(col);
}

G_GNUC_NO_INLINE static Arc *arc_get(Collector *col, unsigned caller, unsigned callee, uint32_t site)
{
    Arc key = { .caller = caller, .callee = callee, .site = site, .ctx_parent = G_MAXUINT };
    Arc *a = g_hash_table_lookup(col->arcs, &key);
    if (!a) {
        a = g_memdup2(&key, sizeof key);
        g_hash_table_add(col->arcs, a);
    }
    return a;
}

static void push(Collector *col, unsigned func, Arc *arc, uint32_t ret, uint32_t sp,
                 uint64_t now, bool irq)
{
    if (G_UNLIKELY(col->only != NULL))
        collect_region_frame(col, func, +1, now);
    unsigned depth = collect_depth(col);
    if (G_UNLIKELY(depth == col->cap)) {
        col->cap *= 2;
        col->stack = g_renew(Frame, col->stack - COLLECT_STACK_BELOW, col->cap + COLLECT_STACK_BELOW)
                     + COLLECT_STACK_BELOW;
        col->top = col->stack + depth - 1;
        collect_quick_update(col); /* qlim */
    }
    /* written in place (a Frame built aside and copied cost a third of a
     * call's stores) */
    Frame *f = &col->stack[depth];
    const Frame *below = depth ? f - 1 : NULL;
    /* frames nest in time: a callee enters no earlier than its caller */
    NP_CHECK(!below || below->entry <= now);
    FuncStat *fs = &col->fs[func];
    bool counted = col->collecting, outermost = fs->active++ == 0;
    f->func = func;
    f->arc = arc;
    f->ret = ret;
    f->sp = sp;
    f->entry = now;
    f->excluded = collect_excluded_now(col, now);
    bool mono = irq || !below || (below->fl & FRAME_IRQ) || ((below->fl & FRAME_MONO) && sp <= below->sp);
    f->fl = (uint8_t)((outermost ? FRAME_OUTER : 0u) | (irq ? FRAME_IRQ : 0u) | (counted ? 0u : FRAME_UNCOUNTED)
                      | (mono ? FRAME_MONO : 0u));
    if (counted) {
        fs->rcalls += !outermost;
        arc->count++; /* and so fs's calls (FuncStat) */
    }
    collect_ctx_account(col, now);
    col->irq_depth += irq;
    unsigned parent = irq ? collect_ctx_child(col, col->ctx_cur, col->nsyms + PROF_INTERRUPT) : col->ctx_cur;
    if (G_UNLIKELY(arc->ctx_node == 0 || arc->ctx_parent != parent)) {
        arc->ctx_parent = parent;
        arc->ctx_node = collect_ctx_child(col, parent, func);
    }
    f->ctx = col->ctx_cur = arc->ctx_node;
    col->top = f;
    if (G_UNLIKELY(arc->ctx_node == parent)) {
        col->contexts_dropped++; /* no room for its context ([limits] contexts) */
        arc->ctx_parent = G_MAXUINT; /* looked up again each time: not arrive_call's */
    }
}

static Frame *top(Collector *col)
{
    return col->top >= col->stack ? col->top : NULL;
}

/* An interrupt frame closes: its time is excluded, and on the timeline. */
G_GNUC_NO_INLINE static void pop_irq(Collector *col, const Frame *f, uint64_t now)
{
    if (!(f->fl & FRAME_UNCOUNTED) && col->collecting) {
        col->irq_incl += now - f->entry;
        col->excluded += now - f->entry;
    }
    collect_add_event(col, f->entry, now, f->func, false);
}

static void pop(Collector *col, uint64_t now)
{
    Frame *f = top(col);
    /* a frame to pop, that entered by now, of a function it made active,
     * under as many interrupt frames as it counted */
    NP_CHECK(f != NULL && f->entry <= now);
    NP_CHECK(col->fs[f->func].active > 0 && col->irq_depth >= ((f->fl & FRAME_IRQ) ? 1u : 0u));
    NP_CHECK(collect_excluded_now(col, now) - f->excluded <= now - f->entry);
    FuncStat *fs = &col->fs[f->func];
    if ((f->fl & (FRAME_OUTER | FRAME_UNCOUNTED)) == FRAME_OUTER) {
        uint64_t incl = (now - f->entry) - (collect_excluded_now(col, now) - f->excluded);
        f->arc->incl += incl; /* and so fs's (FuncStat) */
    }
    fs->active--;
    if (G_UNLIKELY(f->fl & FRAME_IRQ))
        pop_irq(col, f, now);
    collect_ctx_account(col, now);
    col->irq_depth -= (f->fl & FRAME_IRQ) ? 1u : 0u;
    if (col->blk_kind >= 0 && col->blk_irq_depth > col->irq_depth)
        collect_block_close(col, now);
    unsigned func = f->func;
    col->top = f - 1;
    col->ctx_cur = f > col->stack ? f[-1].ctx : 0;
    if (G_UNLIKELY(col->only != NULL))
        collect_region_frame(col, func, -1, now);
}

static uint32_t read_sp(Core *core)
{
    return core_read_sp(core);
}

/* A jr landed at `to` with $sp = sp. Frames entered with a lower $sp are
 * dead; so are frames entered with this very $sp by another function than
 * the one we landed in, unless we landed on a function entry (a tail call
 * through a register): a longjmp back into the function that called them,
 * or a return into their caller. */
G_GNUC_NO_INLINE static void unwind_below(Collector *col, uint32_t sp, const BlockInfo *to, uint64_t now)
{
    Frame *f;
    while ((f = top(col)) && !(f->fl & FRAME_IRQ)
           && (f->sp < sp || (f->sp == sp && !to->entry && f->func != to->func)))
        pop(col, now);
}

/* Pop the frames (tail calls) that return to addr with $sp = sp too. */
static void pop_tail_calls(Collector *col, uint32_t addr, uint32_t sp, uint64_t now)
{
    Frame *f;
    while ((f = top(col)) && !(f->fl & FRAME_IRQ) && f->ret == addr && f->sp == sp)
        pop(col, now);
}

/* jr $ra landed at addr with $sp = sp: pop the frame that returns there,
 * with the frames above it and the tail-call frames below that share it.
 * The search stops at a frame that has a higher sp than any below it
 * (mono): none below can match. */
G_GNUC_NO_INLINE static void do_return(Collector *col, uint32_t addr, uint32_t sp, uint64_t now)
{
    unsigned n = collect_depth(col), j = n;
    while (j-- > 0) {
        Frame *f = &col->stack[j];
        if (f->fl & FRAME_IRQ)
            return;
        if (f->ret == addr && f->sp == sp)
            break;
        if ((f->fl & FRAME_MONO) && f->sp > sp)
            return;
    }
    if (j == (unsigned)-1 || j >= n)
        return;
    while (collect_depth(col) > j)
        pop(col, now);
    pop_tail_calls(col, addr, sp, now);
}

static void do_call(Collector *col, Core *core, const BlockView *from, BlockInfo *fi,
                    const BlockInfo *to, const Block *to_b, uint64_t now)
{
    uint32_t sp = read_sp(core);
    unsigned caller = fi->func;
    Arc *arc = fi->arc_cache;
    if (G_UNLIKELY(!arc || arc->callee != to->func || arc->caller != caller)) {
        arc = arc_get(col, caller, to->func, from->branch_pc);
        fi->arc_cache = arc;
    }
    uint32_t ret;
    if (from->flags & MIPS_LINK) {
        ret = from->branch_pc + 8;
    } else {
        Frame *t = top(col);
        ret = t && !(t->fl & FRAME_IRQ) ? t->ret : 0;
    }
    push(col, to->func, arc, ret, sp, now, false);
    /* arrive_call's cache: the same call again is this arc, this return
     * address (0: the frame below's) */
    fi->call_to = to_b;
    fi->call_ret = from->flags & MIPS_LINK ? from->branch_pc + 8 : 0;
}

/* An interrupt vector entered (from NULL) or an eret left. */
G_GNUC_NO_INLINE static void arrive_irq(Collector *col, const Block *from_b, const BlockInfo *to, uint64_t now)
{
    if (!from_b) {
        unsigned f = to->func;
        Arc *arc = arc_get(col, collect_pseudo(col, PROF_INTERRUPT), f, 0);
        col->fs[collect_pseudo(col, PROF_INTERRUPT)].calls++;
        push(col, f, arc, col->epc, UINT32_MAX, now, true); /* sp: see FRAME_MONO */
        return;
    }
    Frame *f;
    while ((f = top(col)) && !(f->fl & FRAME_IRQ))
        pop(col, now);
    if (f)
        pop(col, now);
}

#ifdef __clang__ /* no noipa (the -Wthread-safety build); noinline is what matters */
#define COLLECT_NOIPA __attribute__((noinline))
#define COLLECT_SCALAR
#else /* noipa: GCC's constant propagation would move the arguments */
#define COLLECT_NOIPA __attribute__((noipa))
/* the frame's stores as they are: GCC's SLP packed them into vector
 * registers, more instructions and two registers saved */
#define COLLECT_SCALAR __attribute__((optimize("no-tree-slp-vectorize")))
#endif

/* Every arrival: the shadow stack's general case. The arguments of a
 * CoreArriveFn: the quick paths' tail calls move none. */
__attribute__((flatten)) COLLECT_NOIPA static void arrive_general(uint64_t unused, uint64_t now, Collector *col,
                                                                     Core *core, const Block *from_b,
                                                                     const Block *to_b)
{
    (void)unused;
    if (G_UNLIKELY(col->core_q != core)) { /* for the quick paths */
        col->core_q = core;
        col->gpr = core_gpr_file(core);
        collect_quick_update(col);
    }
    const BlockView *tv = block_view(to_b);
    NP_CHECK(tv->tag < col->blk->len); /* every block was tagged (on_block_tag) */
    const BlockInfo *to = tv->data;
    if (G_UNLIKELY(!from_b || (block_view(from_b)->flags & MIPS_ERET))) {
        arrive_irq(col, from_b, to, now);
        return;
    }
    const BlockView *fv = block_view(from_b);
    BlockInfo *from = fv->data;
    unsigned fl = fv->flags;
    if ((fl & MIPS_JREG) && !(fl & MIPS_LINK)) {
        uint32_t sp = read_sp(core);
        Frame *t = top(col);
        if ((fl & MIPS_RETURN) && t && !(t->fl & FRAME_IRQ) && t->ret == tv->addr && t->sp == sp) {
            /* the usual return: the top frame returns where it was called
             * from. What unwind_below then do_return would do: */
            bool unwound = !to->entry && t->func != to->func;
            pop(col, now);
            t = top(col);
            if (unwound && t && !(t->fl & FRAME_IRQ) && !((t->fl & FRAME_MONO) && t->sp > sp)) {
                /* (a frame with a higher sp than any below: neither pops) */
                unwind_below(col, sp, to, now);
                do_return(col, tv->addr, sp, now);
            } else if (!unwound) {
                pop_tail_calls(col, tv->addr, sp, now);
            }
        } else {
            unwind_below(col, sp, to, now);
            if (fl & MIPS_RETURN)
                do_return(col, tv->addr, sp, now);
        }
        if (!to->entry || to->func == from->func)
            return;
    }
    if (!to->entry || !(fl & MIPS_BRANCH))
        return;
    if ((fl & MIPS_LINK) || to->func != from->func)
        do_call(col, core, fv, from, to, to_b, now);
}

/* The cycles since the last stack change go to the current path
 * (collect_ctx_account when Collector.quick). */
static inline void ctx_account_plain(Collector *col, uint64_t now)
{
    col->ctxv[col->ctx_cur].self += now - col->ctx_mark;
    col->ctx_mark = now;
}

/* arrive_return's pop of the top frame t (u below it), once decided. */
static inline void return_pop(uint64_t now, Collector *col, Frame *t)
{
    Frame *u = t - 1;
    NP_CHECK(t->entry <= now && col->fs[t->func].active > 0);
    if ((t->fl & (FRAME_OUTER | FRAME_UNCOUNTED)) == FRAME_OUTER)
        t->arc->incl += (now - t->entry) - (col->excluded - t->excluded); /* and so fs's */
    col->fs[t->func].active--;
    ctx_account_plain(col, now);
    col->top = u;
    col->ctx_cur = u->ctx;
}

/* A return (jr $ra, CoreHooks.ret). The usual one, when Collector.quick:
 * back to the top frame's caller (its return address and $sp), nothing
 * to unwind, no tail-call frame sharing it, not onto a function entry.
 * That is decided before anything changes, then done (return_pop):
 * exactly what arrive_general does then. Anything else: arrive_general.
 * The frames below the bottom are interrupt frames (Collector.stack):
 * the tests need no depth. Once quick is seen, the core is the
 * collector's (core_q): `core` is not kept, fewer registers are. */
G_GNUC_NO_INLINE static void arrive_return(uint64_t unused, uint64_t now, void *opaque, Core *core,
                                           const Block *from_b, const Block *to_b)
{
    Collector *col = opaque;
    if (G_UNLIKELY(!col->quick))
        goto general;
    Frame *t = col->top, *u = t - 1;
    const BlockView *tv = block_view(to_b);
    if ((t->fl & FRAME_IRQ) || t->ret != tv->addr || t->sp != col->gpr[CORE_GPR_SP])
        goto other;
    const BlockInfo *to = tv->data;
    if (to->entry)
        goto other;
    /* unwind_below and do_return (landed in another function), or
     * pop_tail_calls, would pop more. An interrupt frame u (FRAME_MONO,
     * sp UINT32_MAX) stops both: these tests let it through without
     * testing FRAME_IRQ (a t->sp of UINT32_MAX goes to arrive_general) */
    if (t->func != to->func ? !((u->fl & FRAME_MONO) && u->sp > t->sp) : u->ret == t->ret && u->sp == t->sp)
        goto other;
    return_pop(now, col, t);
    return;
other:
    core = col->core_q;
    unused = 0; /* not kept either */
general:
    arrive_general(unused, now, col, core, from_b, to_b);
}

/* arrive_call's push, once decided. The current path's cycles go first:
 * its registers are then free (none saved). */
static inline void call_push(uint64_t now, Collector *col, const BlockInfo *from)
{
    Arc *arc = from->arc_cache;
    Frame *below = col->top, *f = below + 1;
    NP_CHECK((below < col->stack || below->entry <= now) && arc->ctx_node != col->ctx_cur);
    ctx_account_plain(col, now);
    f->ctx = col->ctx_cur = arc->ctx_node;
    col->top = f;
    arc->count++; /* and so fs's calls */
    unsigned func = arc->callee;
    f->func = func;
    f->arc = arc;
    f->entry = now;
    f->excluded = col->excluded;
    f->ret = from->call_ret ? from->call_ret : (below->fl & FRAME_IRQ) ? 0 : below->ret;
    uint32_t sp = col->gpr[CORE_GPR_SP];
    f->sp = sp;
    FuncStat *fs = &col->fs[func];
    bool outermost = fs->active++ == 0;
    fs->rcalls += !outermost;
    /* FRAME_MONO when below is mono with an sp at or above this one (an
     * interrupt frame: mono, sp UINT32_MAX) */
    f->fl = (uint8_t)((outermost ? FRAME_OUTER : 0u) | (below->fl & (unsigned)(sp <= below->sp))); /* FRAME_MONO: bit 0 */
}

/* A call (a branch or jump onto a function entry, CoreHooks.call). The
 * usual one, when Collector.quick: the calling block made this very call
 * last time (BlockInfo.call_to: its arc, its return address), the arc's
 * context node is a child of the current path, room on the stack
 * (Collector.qlim: both quick and room in one test). Then
 * call_push: exactly what do_call does then. Anything else:
 * arrive_general. */
G_GNUC_NO_INLINE COLLECT_SCALAR static void arrive_call(uint64_t unused, uint64_t now, void *opaque,
                                                        Core *core, const Block *from_b, const Block *to_b)
{
    Collector *col = opaque;
    if (G_UNLIKELY(col->top >= col->qlim)) /* not quick, or no room */
        goto general;
    const BlockInfo *from = block_view(from_b)->data;
    if (from->call_to != to_b || from->arc_cache->ctx_parent != col->ctx_cur)
        goto other;
    call_push(now, col, from);
    return;
other:
    core = col->core_q;
    unused = 0; /* not kept either */
general:
    arrive_general(unused, now, col, core, from_b, to_b);
}

/* Control reached to_b from from_b (CoreHooks.arrive). The usual return
 * and call are decided before anything changes and done in line
 * (arrive_return, arrive_call); everything else, and whatever they
 * decline, arrive_general. */
static void on_arrive(void *opaque, Core *core, const Block *from_b, const Block *to_b, uint64_t now)
{
    Collector *col = opaque;
    unsigned fl = from_b ? block_view(from_b)->flags : MIPS_ERET;
    if ((fl & (MIPS_ERET | MIPS_JREG | MIPS_LINK | MIPS_RETURN)) == (MIPS_JREG | MIPS_RETURN))
        arrive_return(0, now, col, core, from_b, to_b);
    else if ((fl & (MIPS_ERET | MIPS_BRANCH)) == MIPS_BRANCH && (!(fl & MIPS_JREG) || (fl & MIPS_LINK)))
        arrive_call(0, now, col, core, from_b, to_b);
    else
        arrive_general(0, now, col, core, from_b, to_b);
}

static void on_interrupt(void *opaque, uint32_t epc, uint64_t now)
{
    Collector *col = opaque;
    col->epc = epc;
}

static void on_idle(void *opaque, uint64_t from, uint64_t to)
{
    Collector *col = opaque;
    unsigned idle = collect_pseudo(col, PROF_IDLE);
    collect_block_close(col, from); /* a poll loop does not go on in `wait` */
    if (!col->collecting) {
        collect_add_event(col, from, to, idle, true);
        col->ctx_mark = to;
        return;
    }
    col->fs[idle].calls++;
    col->fs[idle].incl += to - from;
    col->excluded += to - from;
    collect_add_event(col, from, to, idle, true);
    collect_ctx_account(col, from);
    unsigned node = collect_ctx_child(col, col->ctx_cur, idle); /* may grow ctx */
    g_array_index(col->ctx, Ctx, node).self += to - from;
    if (col->core && core_irq_network(col->core)) {
        collect_ctx_comm(col, node)->blocked[COLLECT_WAIT_IRQ] += to - from;
        col->noc_wait_from = from;
        col->noc_wait_to = to;
        col->noc_waited = true;
    }
    col->ctx_mark = to;
}

/* A new block: its function, and whether arrivals there are watched
 * (function entries). Its tag is its index in col->blk. */
static uint32_t on_block_tag(void *opaque, uint32_t addr, bool *watch, void **data)
{
    Collector *col = opaque;
    addr = symbols_code_addr(col->syms, addr); /* kseg1 runs kseg0's code */
    int i = col->syms ? symbols_lookup(col->syms, addr) : -1;
    BlockInfo bi = {
        .func = i >= 0 ? (unsigned)i : collect_pseudo(col, PROF_UNKNOWN),
        .entry = i >= 0 && symbols_func(col->syms, (unsigned)i)->addr == addr,
    };
    if (!col->root_known) { /* the first block: the root of every path */
        col->root_known = true;
        g_array_index(col->ctx, Ctx, 0).func = bi.func;
    }
    BlockInfo *p = g_memdup2(&bi, sizeof bi); /* BlockView.data: it never moves */
    g_ptr_array_add(col->blk, p);
    *watch = bi.entry;
    *data = p;
    return col->blk->len - 1;
}

static void on_prof_ctrl(void *opaque, Core *core, bool on, uint64_t now)
{
    collect_region_ctrl(opaque, core, on, now);
}

static void on_run_cut(void *opaque, Core *core, bool done)
{
    (void)core;
    collect_region_run_cut(opaque, done);
}

CoreHooks collector_hooks(Collector *col)
{
    return (CoreHooks){
        .opaque = col,
        .block_tag = on_block_tag,
        .arrive = on_arrive,
        /* called once the block is entered: nothing they or
         * arrive_general do reads the core's counters, unless
         * --collect-only (collect_region_frame's snapshots) */
        .ret = col->only ? NULL : arrive_return,
        .call = col->only ? NULL : arrive_call,
        .interrupt = on_interrupt,
        .idle = on_idle,
        .prof_ctrl = on_prof_ctrl,
        .run_cut = on_run_cut,
    };
}

void collector_set_event_limit(Collector *col, size_t max)
{
    col->max_events = max;
}

void collector_set_context_limit(Collector *col, unsigned max)
{
    col->max_contexts = MAX(max, 1u);
}

void collector_finish(Collector *col, uint64_t now)
{
    while (collect_depth(col))
        pop(col, now);
    /* every frame popped: no function active, no interrupt open */
    g_assert(col->irq_depth == 0);
    for (unsigned i = 0; i < col->nfuncs; i++)
        g_assert(col->fs[i].active == 0);
    collect_ctx_account(col, now);
    collect_region_finish(col);
}

uint32_t *collector_stack_ret(const Collector *col, unsigned *n)
{
    *n = collect_depth(col);
    uint32_t *out = g_new(uint32_t, *n ? *n : 1);
    for (unsigned i = 0; i < *n; i++) {
        const Frame *f = &col->stack[*n - 1 - i];
        out[i] = (f->fl & FRAME_IRQ) ? 1 : f->ret;
    }
    return out;
}

unsigned *collector_stack(const Collector *col, unsigned *n)
{
    *n = collect_depth(col);
    unsigned *out = g_new(unsigned, *n ? *n : 1);
    for (unsigned i = 0; i < *n; i++)
        out[i] = col->stack[*n - 1 - i].func;
    return out;
}


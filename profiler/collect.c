/* collect.c — shadow call stack, arcs, and the Profile they make. */
#include "collect.h"
#include "mips.h"

#include <string.h>

typedef struct Arc {
    unsigned caller, callee;
    uint32_t site;
    uint64_t count, incl;
    unsigned ctx_parent, ctx_node; /* last calling-context node it made */
} Arc;

/* Calling-context tree: one node per distinct call path; its self cycles
 * are the time the path was the whole stack (folded stacks). */
typedef struct Ctx {
    unsigned parent, func;
    uint64_t self;
} Ctx;

/* The collector's own data about one emulator block (the block's tag is
 * its index in Collector.blk). */
typedef struct BlockInfo {
    unsigned func;             /* function index (pseudo <unknown> outside) */
    bool entry;                /* starts at that function's first instruction */
    Arc *arc_cache;            /* last arc taken from it */
} BlockInfo;

typedef struct Frame {
    unsigned func, ctx;
    Arc *arc;
    uint32_t ret, sp;
    uint64_t entry, excluded;
    bool outermost, irq;
} Frame;

struct Collector {
    const Symbols *syms;
    unsigned nsyms, nfuncs;
    uint64_t *calls, *rcalls, *incl;
    unsigned *active;
    Frame *stack;              /* [depth], capacity cap */
    unsigned depth, cap;
    GHashTable *arcs;          /* Arc* -> Arc* (keyed by caller, callee, site) */
    uint64_t excluded;         /* idle + interrupt cycles so far (outside irq) */
    uint64_t irq_incl;
    uint32_t epc;
    GArray *ctx;               /* Ctx; node 0 = the root (first code run) */
    GHashTable *ctx_index;     /* (parent << 32 | func) -> node */
    unsigned ctx_cur;
    uint64_t ctx_mark;         /* cycles accounted to nodes so far */
    bool root_known;
    GArray *events;            /* CollectorEvent: waits and interrupts */
    GArray *blk;               /* BlockInfo, by block tag */
    uint64_t events_dropped;
};

#define COLLECTOR_MAX_EVENTS 200000

static void add_event(Collector *col, uint64_t start, uint64_t end, unsigned func, bool idle)
{
    if (col->events->len >= COLLECTOR_MAX_EVENTS) {
        col->events_dropped++;
        return;
    }
    CollectorEvent e = { .start = start, .end = end, .func = func, .idle = idle };
    g_array_append_val(col->events, e);
}

/* The time since the last stack change belongs to the current path. */
static void ctx_account(Collector *col, uint64_t now)
{
    g_array_index(col->ctx, Ctx, col->ctx_cur).self += now - col->ctx_mark;
    col->ctx_mark = now;
}

static unsigned ctx_child(Collector *col, unsigned parent, unsigned func)
{
    gpointer key = GSIZE_TO_POINTER(((guint64)parent << 32) | func);
    gpointer v;
    if (g_hash_table_lookup_extended(col->ctx_index, key, NULL, &v))
        return GPOINTER_TO_UINT(v);
    Ctx c = { .parent = parent, .func = func };
    g_array_append_val(col->ctx, c);
    g_hash_table_insert(col->ctx_index, key, GUINT_TO_POINTER(col->ctx->len - 1));
    return col->ctx->len - 1;
}

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
    col->calls = g_new0(uint64_t, col->nfuncs);
    col->rcalls = g_new0(uint64_t, col->nfuncs);
    col->incl = g_new0(uint64_t, col->nfuncs);
    col->active = g_new0(unsigned, col->nfuncs);
    col->cap = 256;
    col->stack = g_new(Frame, col->cap);
    col->arcs = g_hash_table_new_full(arc_hash, arc_equal, g_free, NULL);
    col->ctx = g_array_new(FALSE, FALSE, sizeof(Ctx));
    Ctx root = { .parent = 0, .func = col->nsyms + PROF_UNKNOWN };
    g_array_append_val(col->ctx, root);
    col->ctx_index = g_hash_table_new(g_direct_hash, g_direct_equal);
    col->events = g_array_new(FALSE, FALSE, sizeof(CollectorEvent));
    col->blk = g_array_new(FALSE, FALSE, sizeof(BlockInfo));
    return col;
}

void collector_free(Collector *col)
{
    if (!col)
        return;
    g_free(col->calls);
    g_free(col->rcalls);
    g_free(col->incl);
    g_free(col->active);
    g_free(col->stack);
    g_hash_table_destroy(col->arcs);
    g_array_free(col->ctx, TRUE);
    g_hash_table_destroy(col->ctx_index);
    g_array_free(col->events, TRUE);
    g_array_free(col->blk, TRUE);
    g_free(col);
}

static unsigned pseudo(const Collector *col, ProfPseudo which)
{
    return col->nsyms + (unsigned)which;
}

static Arc *arc_get(Collector *col, unsigned caller, unsigned callee, uint32_t site)
{
    Arc key = { .caller = caller, .callee = callee, .site = site };
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
    Frame f = {
        .func = func, .arc = arc, .ret = ret, .sp = sp, .entry = now,
        .excluded = col->excluded, .irq = irq,
    };
    f.outermost = col->active[func]++ == 0;
    if (!f.outermost)
        col->rcalls[func]++;
    col->calls[func]++;
    arc->count++;
    ctx_account(col, now);
    unsigned parent = irq ? ctx_child(col, col->ctx_cur, col->nsyms + PROF_INTERRUPT) : col->ctx_cur;
    if (arc->ctx_node == 0 || arc->ctx_parent != parent) {
        arc->ctx_parent = parent;
        arc->ctx_node = ctx_child(col, parent, func);
    }
    f.ctx = col->ctx_cur = arc->ctx_node;
    if (col->depth == col->cap) {
        col->cap *= 2;
        col->stack = g_renew(Frame, col->stack, col->cap);
    }
    col->stack[col->depth++] = f;
}

static Frame *top(Collector *col)
{
    return col->depth ? &col->stack[col->depth - 1] : NULL;
}

static void pop(Collector *col, uint64_t now)
{
    Frame *f = top(col);
    uint64_t incl = (now - f->entry) - (col->excluded - f->excluded);
    if (f->outermost) {
        col->incl[f->func] += incl;
        f->arc->incl += incl;
    }
    col->active[f->func]--;
    if (f->irq) {
        col->irq_incl += now - f->entry;
        col->excluded += now - f->entry;
        add_event(col, f->entry, now, f->func, false);
    }
    ctx_account(col, now);
    col->depth--;
    col->ctx_cur = col->depth ? col->stack[col->depth - 1].ctx : 0;
}

static uint32_t read_sp(Core *core)
{
    return core_read_gpr(core, CORE_GPR_SP);
}

static BlockInfo *info(const Collector *col, const Block *b)
{
    return &g_array_index(col->blk, BlockInfo, block_tag(b));
}

/* A jr landed at `to` with $sp = sp. Frames entered with a lower $sp are
 * dead; so are frames entered with this very $sp by another function than
 * the one we landed in, unless we landed on a function entry (a tail call
 * through a register): a longjmp back into the function that called them,
 * or a return into their caller. */
static void unwind_below(Collector *col, uint32_t sp, const BlockInfo *to, uint64_t now)
{
    Frame *f;
    while ((f = top(col)) && !f->irq
           && (f->sp < sp || (f->sp == sp && !to->entry && f->func != to->func)))
        pop(col, now);
}

/* jr $ra landed at addr with $sp = sp: pop the frame that returns there,
 * with the frames above it and the tail-call frames below that share it. */
static void do_return(Collector *col, uint32_t addr, uint32_t sp, uint64_t now)
{
    unsigned n = col->depth, j = n;
    while (j-- > 0) {
        Frame *f = &col->stack[j];
        if (f->irq)
            return;
        if (f->ret == addr && f->sp == sp)
            break;
    }
    if (j == (unsigned)-1 || j >= n)
        return;
    while (col->depth > j)
        pop(col, now);
    Frame *f;
    while ((f = top(col)) && !f->irq && f->ret == addr && f->sp == sp)
        pop(col, now);
}

static void do_call(Collector *col, Core *core, const Block *from, const BlockInfo *to, uint64_t now)
{
    uint32_t sp = read_sp(core);
    BlockInfo *fi = info(col, from);
    unsigned caller = fi->func;
    Arc *arc = fi->arc_cache;
    if (!arc || arc->callee != to->func || arc->caller != caller) {
        arc = arc_get(col, caller, to->func, block_branch_pc(from));
        fi->arc_cache = arc;
    }
    uint32_t ret;
    if (block_flags(from) & MIPS_LINK) {
        ret = block_branch_pc(from) + 8;
    } else {
        Frame *t = top(col);
        ret = t && !t->irq ? t->ret : 0;
    }
    push(col, to->func, arc, ret, sp, now, false);
}

static void on_arrive(void *opaque, Core *core, const Block *from_b, const Block *to_b, uint64_t now)
{
    Collector *col = opaque;
    const BlockInfo *to = info(col, to_b);
    if (!from_b) { /* interrupt vector entered */
        unsigned f = to->func;
        Arc *arc = arc_get(col, pseudo(col, PROF_INTERRUPT), f, 0);
        col->calls[pseudo(col, PROF_INTERRUPT)]++;
        push(col, f, arc, col->epc, 0, now, true);
        return;
    }
    const BlockInfo *from = info(col, from_b);
    unsigned fl = block_flags(from_b);
    if (fl & MIPS_ERET) {
        Frame *f;
        while ((f = top(col)) && !f->irq)
            pop(col, now);
        if (f)
            pop(col, now);
        return;
    }
    if ((fl & MIPS_JREG) && !(fl & MIPS_LINK)) {
        uint32_t sp = read_sp(core);
        unwind_below(col, sp, to, now);
        if (fl & MIPS_RETURN)
            do_return(col, block_addr(to_b), sp, now);
        if (!to->entry || to->func == from->func)
            return;
    }
    if (!to->entry || !(fl & MIPS_BRANCH))
        return;
    if ((fl & MIPS_LINK) || to->func != from->func)
        do_call(col, core, from_b, to, now);
}

static void on_interrupt(void *opaque, uint32_t epc, uint64_t now)
{
    Collector *col = opaque;
    col->epc = epc;
}

static void on_idle(void *opaque, uint64_t from, uint64_t to)
{
    Collector *col = opaque;
    unsigned idle = pseudo(col, PROF_IDLE);
    col->calls[idle]++;
    col->incl[idle] += to - from;
    col->excluded += to - from;
    add_event(col, from, to, idle, true);
    ctx_account(col, from);
    unsigned node = ctx_child(col, col->ctx_cur, idle); /* may grow ctx */
    g_array_index(col->ctx, Ctx, node).self += to - from;
    col->ctx_mark = to;
}

/* A new block: its function, and whether arrivals there are watched
 * (function entries). The tag is its index in col->blk. */
static uint32_t on_block_tag(void *opaque, uint32_t addr, bool *watch)
{
    Collector *col = opaque;
    int i = col->syms ? symbols_lookup(col->syms, addr) : -1;
    BlockInfo bi = {
        .func = i >= 0 ? (unsigned)i : pseudo(col, PROF_UNKNOWN),
        .entry = i >= 0 && symbols_func(col->syms, (unsigned)i)->addr == addr,
    };
    if (!col->root_known) { /* the first block: the root of every path */
        col->root_known = true;
        g_array_index(col->ctx, Ctx, 0).func = bi.func;
    }
    g_array_append_val(col->blk, bi);
    *watch = bi.entry;
    return col->blk->len - 1;
}

CoreHooks collector_hooks(Collector *col)
{
    return (CoreHooks){
        .opaque = col,
        .block_tag = on_block_tag,
        .arrive = on_arrive,
        .interrupt = on_interrupt,
        .idle = on_idle,
    };
}

void collector_finish(Collector *col, uint64_t now)
{
    while (col->depth)
        pop(col, now);
    ctx_account(col, now);
}

static const char *const pseudo_names[PROF_NPSEUDO];

static const char *func_name(const Collector *col, unsigned f)
{
    return f < col->nsyms ? symbols_func(col->syms, f)->name : pseudo_names[f - col->nsyms];
}

const CollectorEvent *collector_events(const Collector *col, size_t *n, uint64_t *dropped)
{
    *n = col->events->len;
    *dropped = col->events_dropped;
    return (const CollectorEvent *)(void *)col->events->data;
}

const char *collector_func_name(const Collector *col, unsigned func)
{
    return func_name(col, func);
}

GString *collector_folded(const Collector *col, const char *prefix)
{
    GString *o = g_string_new(NULL);
    GPtrArray *path = g_ptr_array_new();
    for (unsigned n = 0; n < col->ctx->len; n++) {
        const Ctx *c = &g_array_index(col->ctx, Ctx, n);
        if (!c->self)
            continue;
        g_ptr_array_set_size(path, 0);
        for (unsigned k = n;; k = g_array_index(col->ctx, Ctx, k).parent) {
            g_ptr_array_add(path, (gpointer)func_name(col, g_array_index(col->ctx, Ctx, k).func));
            if (k == 0)
                break;
        }
        if (prefix)
            g_string_append_printf(o, "%s;", prefix);
        for (unsigned i = path->len; i-- > 0;)
            g_string_append_printf(o, "%s%s", (const char *)g_ptr_array_index(path, i), i ? ";" : "");
        g_string_append_printf(o, " %" G_GUINT64_FORMAT "\n", c->self);
    }
    g_ptr_array_free(path, TRUE);
    return o;
}

unsigned *collector_stack(const Collector *col, unsigned *n)
{
    *n = col->depth;
    unsigned *out = g_new(unsigned, *n ? *n : 1);
    for (unsigned i = 0; i < *n; i++)
        out[i] = col->stack[*n - 1 - i].func;
    return out;
}

static int cmp_arc(const void *x, const void *y)
{
    const ProfArc *a = x, *b = y;
    if (a->callee != b->callee) return a->callee < b->callee ? -1 : 1;
    if (a->caller != b->caller) return a->caller < b->caller ? -1 : 1;
    return a->call_site < b->call_site ? -1 : a->call_site > b->call_site;
}

static int cmp_block(const void *x, const void *y)
{
    const ProfBlock *a = x, *b = y;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static const char *const pseudo_names[PROF_NPSEUDO] = { "<idle>", "<interrupt>", "<unknown>" };


Profile *collector_profile(Collector *col, const Core *core, const char *elf_path, double clock_hz)
{
    Profile *p = g_new0(Profile, 1);
    p->core = core_id(core);
    p->elf_path = g_strdup(elf_path);
    p->syms = col->syms;
    p->clock_hz = clock_hz;
    p->cycles = core_cycles(core);
    p->instructions = core_instructions(core);
    p->idle_cycles = core_idle_cycles(core);
    p->irq_cycles = core_irq_cycles(core);
    p->busy_cycles = p->cycles - p->idle_cycles;
    p->nfuncs = col->nfuncs;
    p->nperiods = core_nhists(core);
    p->funcs = g_new0(ProfFunc, p->nfuncs);
    for (unsigned i = 0; i < p->nfuncs; i++) {
        ProfFunc *f = &p->funcs[i];
        if (i < col->nsyms) {
            const SymFunc *s = symbols_func(col->syms, i);
            f->name = s->name;
            f->addr = s->addr;
            f->size = s->size;
        } else {
            f->name = pseudo_names[i - col->nsyms];
            f->pseudo = true;
        }
        f->calls = col->calls[i];
        f->recursive_calls = col->rcalls[i];
        f->inclusive_cycles = col->incl[i];
        f->samples = g_new0(uint64_t, p->nperiods ? p->nperiods : 1);
    }
    unsigned idle = pseudo(col, PROF_IDLE), intr = pseudo(col, PROF_INTERRUPT),
             unknown = pseudo(col, PROF_UNKNOWN);
    p->funcs[idle].self_cycles = p->idle_cycles;
    p->funcs[idle].inclusive_cycles = p->idle_cycles;
    p->funcs[intr].inclusive_cycles = col->irq_incl;

    /* blocks -> self cycles and instructions */
    p->nblocks = core_nblocks(core);
    p->blocks = g_new0(ProfBlock, p->nblocks ? p->nblocks : 1);
    unsigned nb = 0;
    for (unsigned i = 0; i < p->nblocks; i++) {
        const Block *b = core_block(core, i);
        uint64_t cyc = block_cycles(b), count = block_count(b);
        if (!count && !cyc)
            continue;
        unsigned fi = block_tag(b) != CORE_NO_TAG ? info(col, b)->func : unknown;
        p->blocks[nb++] = (ProfBlock){ .addr = block_addr(b), .ninsns = block_ninsns(b), .func = fi,
                                       .count = count, .cycles = cyc };
        p->funcs[fi].self_cycles += cyc;
        p->funcs[fi].instructions += block_instructions(b);
    }
    p->nblocks = nb;
    qsort(p->blocks, nb, sizeof *p->blocks, cmp_block);
    /* functions never called but executed (entry code, vectors): their
     * inclusive time is their own */
    for (unsigned i = 0; i < col->nsyms; i++)
        if (!p->funcs[i].calls && p->funcs[i].inclusive_cycles < p->funcs[i].self_cycles)
            p->funcs[i].inclusive_cycles = p->funcs[i].self_cycles;
    p->funcs[unknown].inclusive_cycles = p->funcs[unknown].self_cycles;

    /* arcs */
    p->narcs = g_hash_table_size(col->arcs);
    p->arcs = g_new0(ProfArc, p->narcs ? p->narcs : 1);
    GHashTableIter it;
    gpointer key;
    unsigned na = 0;
    g_hash_table_iter_init(&it, col->arcs);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        const Arc *a = key;
        p->arcs[na++] = (ProfArc){ .caller = a->caller, .callee = a->callee, .call_site = a->site,
                                   .count = a->count, .inclusive_cycles = a->incl };
    }
    qsort(p->arcs, na, sizeof *p->arcs, cmp_arc);

    /* histograms and samples per function */
    p->hists = g_new0(ProfHist, p->nperiods ? p->nperiods : 1);
    uint32_t nbins = 0, lo = 0;
    for (unsigned h = 0; h < p->nperiods; h++) {
        CoreHist src = core_hist(core, h);
        ProfHist *d = &p->hists[h];
        nbins = (src.high_pc - src.low_pc) / 4;
        lo = src.low_pc;
        d->period = src.period;
        d->low_pc = src.low_pc;
        d->high_pc = src.high_pc;
        d->bins = g_memdup2(src.bins, sizeof(uint32_t) * (nbins ? nbins : 1));
        d->idle = src.idle;
        d->outside = src.outside;
        d->total = src.total;
        p->funcs[idle].samples[h] = src.idle;
        p->funcs[unknown].samples[h] = src.outside;
    }
    int last = -1;
    for (uint32_t k = 0; k < nbins; k++) {
        uint32_t pc = lo + 4 * k;
        if (last < 0 || pc < p->funcs[last].addr || pc >= p->funcs[last].addr + p->funcs[last].size)
            last = col->syms ? symbols_lookup(col->syms, pc) : -1;
        unsigned fi = last >= 0 ? (unsigned)last : unknown;
        for (unsigned h = 0; h < p->nperiods; h++)
            p->funcs[fi].samples[h] += p->hists[h].bins[k];
    }
    return p;
}

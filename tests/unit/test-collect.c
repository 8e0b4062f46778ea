// SPDX-License-Identifier: GPL-2.0-or-later
/* test-collect.c — the collector (profiler/collect) on one core with no
 * network, running the firmware of firmware/tests and firmware/apps.
 * Expected counts come from the firmware's own expected-count headers
 * (calls_expected.h, tailcall_expected.h: counted from the C sources) and
 * from the emulator's independent counters (cycles, interrupts, waits). */
#include <glib.h>
#include <string.h>

#include "firmware/tests/calls_expected.h"
#include "profiler/collect/collect.h"
#include "firmware_paths.h"
#include "firmware/tests/tailcall_expected.h"

typedef struct Run {
    Config cfg;
    ElfImage *img;
    Symbols *syms;
    Core *core;
    Collector *col;
    Profile *prof;
} Run;

static bool with_cache; /* [cache] enabled, small caches (test_cache_misses) */
static bool no_quick;   /* the collector's hooks without ret and call (test_quick_same) */

/* Run FW_DIR/name-endian.elf as core 0 of a 1 x 1 mesh to its end. */
static void run_fw(Run *r, const char *name, const char *endian)
{
    memset(r, 0, sizeof *r);
    config_defaults(&r->cfg);
    r->cfg.mesh_width = r->cfg.mesh_height = 1;
    if (with_cache) {
        r->cfg.cache.enabled = 1;
        r->cfg.cache.icache_size = r->cfg.cache.dcache_size = 1024;
    }
    g_autofree char *path = g_strdup_printf("%s/%s-%s.elf", FW_DIR, name, endian);
    GError *err = NULL;
    r->img = elf_image_load(path, r->cfg.ram_size, &err);
    g_assert_no_error(err);
    r->syms = symbols_load(path, &err);
    g_assert_no_error(err);
    r->core = core_new(0, &r->cfg, r->img, NULL, NULL, &err);
    g_assert_no_error(err);
    r->col = collector_new(r->syms);
    CoreHooks h = collector_hooks(r->col);
    if (no_quick)
        h.ret = h.call = NULL;
    core_set_hooks(r->core, &h);
    while (core_live(r->core)) {
        core_run(r->core, UINT64_C(1) << 40);
        if (core_state(r->core) == CORE_IDLE) {
            uint64_t wake = core_wake_cycle(r->core);
            g_assert_cmpuint(wake, !=, UINT64_MAX);
            core_idle(r->core, wake);
        }
    }
}

static void finish(Run *r)
{
    collector_finish(r->col, core_cycles(r->core));
    r->prof = collector_profile(r->col, r->core, "fw", 1e8);
}

static void run_done(Run *r)
{
    profile_free(r->prof);
    collector_free(r->col);
    core_free(r->core);
    symbols_free(r->syms);
    elf_image_free(r->img);
}

static unsigned fn(const Profile *p, const char *name)
{
    for (unsigned i = 0; i < p->nfuncs; i++)
        if (strcmp(p->funcs[i].name, name) == 0)
            return i;
    g_error("no function %s", name);
}

/* Calls from caller into callee, over every call site. */
static uint64_t arc_count(const Profile *p, const char *caller, const char *callee)
{
    unsigned a = fn(p, caller), b = fn(p, callee);
    uint64_t n = 0;
    for (unsigned i = 0; i < p->narcs; i++)
        if (p->arcs[i].caller == a && p->arcs[i].callee == b)
            n += p->arcs[i].count;
    return n;
}

/* Inclusive cycles of the arcs out of caller. */
static uint64_t children(const Profile *p, const char *caller)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < p->narcs; i++)
        if (p->arcs[i].caller == fn(p, caller))
            n += p->arcs[i].inclusive_cycles;
    return n;
}

/* The whole run seen from its outermost function (_start is never called,
 * so its own figures are its self cycles). */
static uint64_t from_start(const Profile *p)
{
    return p->funcs[fn(p, "_start")].self_cycles + children(p, "_start");
}

static uint64_t self_sum(const Profile *p)
{
    uint64_t s = 0;
    for (unsigned i = 0; i < p->nfuncs; i++)
        s += p->funcs[i].self_cycles;
    return s;
}

/* Calls, returns and recursion: every count of calls_expected.h (k = 0). */
static void test_calls(void)
{
    static const char *const endians[] = { "el", "eb" };
    for (unsigned e = 0; e < 2; e++) {
        Run r;
        run_fw(&r, "calls", endians[e]);
        g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
        g_assert_cmpint(core_exit_code(r.core), ==, 0);
        finish(&r);
        const Profile *p = r.prof;
        g_assert_cmpuint(p->funcs[fn(p, "main")].calls, ==, CALLS_MAIN);
        g_assert_cmpuint(arc_count(p, "_start", "main"), ==, CALLS_MAIN);
        g_assert_cmpuint(p->funcs[fn(p, "fact")].calls, ==, CALLS_FACT);
        g_assert_cmpuint(p->funcs[fn(p, "fact")].recursive_calls, ==, CALLS_FACT_RECURSIVE);
        g_assert_cmpuint(arc_count(p, "main", "fact"), ==, CALLS_FACT_FROM_MAIN);
        g_assert_cmpuint(arc_count(p, "fact", "fact"), ==, CALLS_FACT_RECURSIVE);
        g_assert_cmpuint(p->funcs[fn(p, "fib")].calls, ==, CALLS_FIB);
        g_assert_cmpuint(p->funcs[fn(p, "fib")].recursive_calls, ==, CALLS_FIB_RECURSIVE);
        g_assert_cmpuint(arc_count(p, "main", "is_even"), ==, CALLS_IS_EVEN_FROM_MAIN);
        g_assert_cmpuint(arc_count(p, "is_odd", "is_even"), ==, CALLS_IS_EVEN_FROM_IS_ODD(0));
        g_assert_cmpuint(p->funcs[fn(p, "is_odd")].calls, ==, CALLS_IS_ODD(0));
        g_assert_cmpuint(arc_count(p, "is_even", "is_odd"), ==, CALLS_IS_ODD(0));
        static const char *const ops[] = { "op_add", "op_sub", "op_mul", "op_xor" };
        for (unsigned i = 0; i < 4; i++)    /* jalr through a table */
            g_assert_cmpuint(arc_count(p, "run_ops", ops[i]), ==, CALLS_OP_EACH(0));
        g_assert_cmpuint(arc_count(p, "caller_a", "leaf"), ==, CALLS_LEAF_FROM_A(0));
        g_assert_cmpuint(arc_count(p, "caller_b", "leaf"), ==, CALLS_LEAF_FROM_B);
        g_assert_cmpuint(p->funcs[fn(p, "leaf")].calls, ==, CALLS_LEAF(0));
        g_assert_cmpuint(p->funcs[fn(p, "marked_loop")].calls, ==, CALLS_MARKED_LOOP);
        /* returns: every frame closed where it should, so main's inclusive
         * time is that of everything it ran, and the outermost function's
         * the whole run */
        g_assert_cmpuint(self_sum(p), ==, core_cycles(r.core));
        g_assert_cmpuint(from_start(p), ==, core_cycles(r.core));
        g_assert_cmpuint(p->funcs[fn(p, "main")].inclusive_cycles, ==,
                         p->funcs[fn(p, "main")].self_cycles + children(p, "main"));
        run_done(&r);
    }
}

/* Tail calls (j f: credited to the function that jumped) and a longjmp
 * that abandons frames without returns (dive and tc_setjmp are called from
 * run_unwinds, which tailcall_expected.h counts as "from main"). */
static void test_tail_calls(void)
{
    Run r;
    run_fw(&r, "tailcall", "el");
    g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
    g_assert_cmpint(core_exit_code(r.core), ==, 0);
    finish(&r);
    const Profile *p = r.prof;
    g_assert_cmpuint(arc_count(p, "main", "tail_outer"), ==, TC_CALLS_TAIL_OUTER);
    g_assert_cmpuint(arc_count(p, "tail_outer", "tail_target"), ==, TC_CALLS_TAIL_TARGET);
    g_assert_cmpuint(arc_count(p, "main", "tail_target"), ==, 0);
    g_assert_cmpuint(arc_count(p, "run_unwinds", "tc_setjmp"), ==, TC_CALLS_SETJMP);
    g_assert_cmpuint(p->funcs[fn(p, "dive")].calls, ==, TC_CALLS_DIVE);
    g_assert_cmpuint(arc_count(p, "run_unwinds", "dive"), ==, TC_CALLS_DIVE_FROM_MAIN);
    g_assert_cmpuint(p->funcs[fn(p, "dive")].recursive_calls, ==, TC_CALLS_DIVE_RECURSIVE);
    g_assert_cmpuint(arc_count(p, "dive", "tc_longjmp"), ==, TC_CALLS_LONGJMP);
    g_assert_cmpuint(self_sum(p), ==, core_cycles(r.core));
    g_assert_cmpuint(from_start(p), ==, core_cycles(r.core));
    run_done(&r);
}

/* Interrupts: ticks.c takes exactly 50 timer interrupts; each enters
 * _irq_vector from <interrupt>, and handler time is charged only there. */
static void test_interrupts(void)
{
    Run r;
    run_fw(&r, "ticks", "el");
    g_assert_cmpint(core_state(r.core), ==, CORE_EXITED);
    g_assert_cmpint(core_exit_code(r.core), ==, 0);
    g_assert_cmpuint(core_interrupts(r.core), ==, 50);
    finish(&r);
    const Profile *p = r.prof;
    unsigned intr = profile_pseudo(p, PROF_INTERRUPT), idle = profile_pseudo(p, PROF_IDLE);
    g_assert_cmpuint(arc_count(p, "<interrupt>", "_irq_vector"), ==, 50);
    g_assert_cmpuint(p->funcs[fn(p, "_irq_vector")].calls, ==, 50);
    g_assert_cmpuint(p->funcs[fn(p, "on_tick")].calls, ==, 50);
    g_assert_cmpuint(p->funcs[intr].calls, ==, 50);
    g_assert_cmpuint(p->funcs[intr].inclusive_cycles, ==, core_irq_cycles(r.core));
    g_assert_cmpuint(p->funcs[fn(p, "_irq_vector")].inclusive_cycles, ==, core_irq_cycles(r.core));
    g_assert_cmpuint(p->funcs[idle].calls, ==, core_waits(r.core));
    g_assert_cmpuint(p->funcs[idle].self_cycles, ==, core_idle_cycles(r.core));
    /* the run's outermost function gets everything but idle and handlers */
    g_assert_cmpuint(from_start(p), ==,
                     core_cycles(r.core) - core_idle_cycles(r.core) - core_irq_cycles(r.core));
    g_assert_cmpuint(self_sum(p), ==, core_cycles(r.core));
    /* the timeline: one span per wait and per handler run */
    size_t n;
    uint64_t dropped;
    const CollectorEvent *ev = collector_events(r.col, &n, &dropped);
    g_assert_cmpuint(n, ==, 50 + core_waits(r.core));
    g_assert_cmpuint(dropped, ==, 0);
    for (size_t i = 1; i < n; i++)
        g_assert_cmpuint(ev[i - 1].end, <=, ev[i].start);
    run_done(&r);
}

/* The shadow stack at a fault: do_break <- main (_start, where the core
 * began, is the root and was never called: no frame). */
static void test_stack_at_fault(void)
{
    Run r;
    run_fw(&r, "fault_break", "el");
    g_assert_cmpint(core_state(r.core), ==, CORE_FAULT);
    unsigned n;
    g_autofree unsigned *fr = collector_stack(r.col, &n);
    g_assert_cmpuint(n, ==, 2);
    g_assert_cmpstr(collector_func_name(r.col, fr[0]), ==, "do_break");
    g_assert_cmpstr(collector_func_name(r.col, fr[1]), ==, "main");
    finish(&r);
    g_free(collector_stack(r.col, &n));
    g_assert_cmpuint(n, ==, 0);
    run_done(&r);
}

/* Calling contexts: the folded paths' cycles add up to the core's. */
static void test_contexts(void)
{
    Run r;
    run_fw(&r, "calls", "el");
    finish(&r);
    size_t n;
    const CollectorCtx *ctx = collector_contexts(r.col, &n);
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        sum += ctx[i].self;
        if (i)
            g_assert_cmpuint(ctx[i].parent, <, i);
    }
    g_assert_cmpuint(sum, ==, core_cycles(r.core));
    g_assert_cmpstr(collector_func_name(r.col, ctx[0].func), ==, "_start");
    run_done(&r);
}

/* [cache] enabled: the misses per instruction (ProfMiss, the per-line
 * counts) add up to the functions' and to the cache's own counts, and each
 * lies in a function that has misses of that kind. */
static void test_cache_misses(void)
{
    Run r;
    with_cache = true;
    run_fw(&r, "calls", "el");
    with_cache = false;
    finish(&r);
    const Profile *p = r.prof;
    uint64_t by_pc[3] = { 0 }, by_func[3] = { 0 };
    for (size_t i = 0; i < p->nmisses; i++) {
        const ProfMiss *m = &p->misses[i];
        g_assert_true(i == 0 || p->misses[i - 1].pc < m->pc);
        g_assert_true(profile_misses_at(p, m->pc) == m);
        by_pc[0] += m->i1;
        by_pc[1] += m->d1r;
        by_pc[2] += m->d1w;
        unsigned f = UINT_MAX;
        for (unsigned k = 0; k < p->nfuncs; k++)
            if (!p->funcs[k].pseudo && m->pc >= p->funcs[k].addr && m->pc < p->funcs[k].addr + p->funcs[k].size)
                f = k;
        g_assert_cmpuint(f, !=, UINT_MAX);
        g_assert_true(!m->i1 || p->funcs[f].i1_misses);
        g_assert_true(!m->d1r || p->funcs[f].d1r_misses);
        g_assert_true(!m->d1w || p->funcs[f].d1w_misses);
    }
    for (unsigned k = 0; k < p->nfuncs; k++) {
        by_func[0] += p->funcs[k].i1_misses;
        by_func[1] += p->funcs[k].d1r_misses;
        by_func[2] += p->funcs[k].d1w_misses;
    }
    static const unsigned what[] = { CACHE_I_MISS, CACHE_D_RMISS, CACHE_D_WMISS };
    for (unsigned k = 0; k < 3; k++) {
        g_test_message("misses %u: %" G_GUINT64_FORMAT, k, by_pc[k]);
        g_assert_cmpuint(by_pc[k], >, 0);
        g_assert_cmpuint(by_pc[k], ==, by_func[k]);
        g_assert_cmpuint(by_pc[k], ==, cache_count(r.core, what[k]));
    }
    g_assert_null(profile_misses_at(p, 0x7FFFFFFCu));
    run_done(&r);
}

/* The quick call and return (CoreHooks.ret, .call: arrive_return,
 * arrive_call, called once the block is entered) against the same run
 * with every arrival through `arrive` before the block is entered (the
 * general code, and the emulator's other order): the same profile, field
 * by field, on the firmware whose calls take every fallback (calls: jalr
 * through a table, recursion, mutual recursion; tailcall: tail calls,
 * tc_longjmp; ticks: timer interrupts during calls; cp0tick: the CP0
 * timer's). */
static void test_quick_same(void)
{
    static const char *const fws[] = { "calls", "tailcall", "ticks", "cp0tick" };
    for (unsigned k = 0; k < G_N_ELEMENTS(fws); k++) {
        Run a, b;
        run_fw(&a, fws[k], "el");
        no_quick = true;
        run_fw(&b, fws[k], "el");
        no_quick = false;
        finish(&a);
        finish(&b);
        const Profile *p = a.prof, *q = b.prof;
        g_assert_cmpuint(core_cycles(a.core), ==, core_cycles(b.core));
        g_assert_cmpuint(p->nfuncs, ==, q->nfuncs);
        uint64_t calls = 0;
        for (unsigned i = 0; i < p->nfuncs; i++) {
            g_assert_cmpuint(p->funcs[i].calls, ==, q->funcs[i].calls);
            g_assert_cmpuint(p->funcs[i].recursive_calls, ==, q->funcs[i].recursive_calls);
            g_assert_cmpuint(p->funcs[i].inclusive_cycles, ==, q->funcs[i].inclusive_cycles);
            g_assert_cmpuint(p->funcs[i].self_cycles, ==, q->funcs[i].self_cycles);
            calls += p->funcs[i].calls;
        }
        g_test_message("%s: %" G_GUINT64_FORMAT " calls", fws[k], calls);
        g_assert_cmpuint(calls, >, 10);
        g_assert_cmpuint(p->narcs, ==, q->narcs);
        for (unsigned i = 0; i < p->narcs; i++) {
            g_assert_cmpuint(p->arcs[i].caller, ==, q->arcs[i].caller);
            g_assert_cmpuint(p->arcs[i].callee, ==, q->arcs[i].callee);
            g_assert_cmpuint(p->arcs[i].call_site, ==, q->arcs[i].call_site);
            g_assert_cmpuint(p->arcs[i].count, ==, q->arcs[i].count);
            g_assert_cmpuint(p->arcs[i].inclusive_cycles, ==, q->arcs[i].inclusive_cycles);
        }
        g_assert_cmpuint(p->nctxs, ==, q->nctxs);
        for (size_t i = 0; i < p->nctxs; i++) {
            g_assert_cmpuint(p->ctxs[i].parent, ==, q->ctxs[i].parent);
            g_assert_cmpuint(p->ctxs[i].func, ==, q->ctxs[i].func);
            g_assert_cmpuint(p->ctxs[i].self, ==, q->ctxs[i].self);
        }
        run_done(&a);
        run_done(&b);
    }
}

/* The core's side: a client watching every block sees the same arrivals
 * (from, to, cycle) whether it has quick entries or not; `arrive` is
 * called before `to` is entered (the core's clock at `now`, to's count
 * without this run), CoreHooks.ret and .call once it is (the clock past
 * `now`, the count with it), ret only from a `jr $ra`, call only from a
 * branch or jump other than jr/jalr without link. */
typedef struct Seen {
    uint32_t from, to;
    uint64_t now, cycles, count;
    char via;
} Seen;
static GArray *seen;

static uint32_t spy_tag(void *o, uint32_t addr, bool *watch, void **data)
{
    (void)o, (void)addr, (void)data;
    *watch = true;
    return 0;
}

static void spy(char via, Core *core, const Block *from, const Block *to, uint64_t now)
{
    Seen s = { from ? block_addr(from) : 0, block_addr(to), now, core_cycles(core), block_count(to), via };
    unsigned fl = from ? block_flags(from) : 0;
    if (via == 'r')
        g_assert_cmpuint(fl & (MIPS_JREG | MIPS_RETURN | MIPS_LINK), ==, MIPS_JREG | MIPS_RETURN);
    if (via == 'c')
        g_assert_true((fl & MIPS_BRANCH) && (!(fl & MIPS_JREG) || (fl & MIPS_LINK)));
    g_array_append_val(seen, s);
}
static void spy_arrive(void *o, Core *core, const Block *from, const Block *to, uint64_t now)
{
    (void)o;
    spy('a', core, from, to, now);
}
static void spy_ret(uint64_t u, uint64_t now, void *o, Core *core, const Block *from, const Block *to)
{
    (void)u, (void)o;
    spy('r', core, from, to, now);
}
static void spy_call(uint64_t u, uint64_t now, void *o, Core *core, const Block *from, const Block *to)
{
    (void)u, (void)o;
    spy('c', core, from, to, now);
}

static GArray *spy_run(const char *name, bool quick, uint64_t *cycles)
{
    Config cfg;
    config_defaults(&cfg);
    cfg.mesh_width = cfg.mesh_height = 1;
    g_autofree char *path = g_strdup_printf("%s/%s-el.elf", FW_DIR, name);
    GError *err = NULL;
    ElfImage *img = elf_image_load(path, cfg.ram_size, &err);
    g_assert_no_error(err);
    Core *core = core_new(0, &cfg, img, NULL, NULL, &err);
    g_assert_no_error(err);
    CoreHooks h = { .block_tag = spy_tag, .arrive = spy_arrive };
    if (quick) {
        h.ret = spy_ret;
        h.call = spy_call;
    }
    core_set_hooks(core, &h);
    seen = g_array_new(FALSE, FALSE, sizeof(Seen));
    while (core_live(core)) {
        core_run(core, UINT64_C(1) << 40);
        if (core_state(core) == CORE_IDLE)
            core_idle(core, core_wake_cycle(core));
    }
    *cycles = core_cycles(core);
    core_free(core);
    elf_image_free(img);
    return seen;
}

static void test_arrive_entries(void)
{
    uint64_t ca, cb;
    g_autoptr(GArray) a = spy_run("calls", false, &ca);
    g_autoptr(GArray) b = spy_run("calls", true, &cb);
    g_assert_cmpuint(ca, ==, cb);
    g_assert_cmpuint(a->len, ==, b->len);
    unsigned n[128] = { 0 };
    for (unsigned i = 0; i < a->len; i++) {
        const Seen *x = &g_array_index(a, Seen, i), *y = &g_array_index(b, Seen, i);
        g_assert_cmpuint(x->from, ==, y->from);
        g_assert_cmpuint(x->to, ==, y->to);
        g_assert_cmpuint(x->now, ==, y->now);
        g_assert_cmpint(x->via, ==, 'a');
        g_assert_cmpuint(x->cycles, ==, x->now);
        n[(unsigned char)y->via]++;
        if (y->via == 'a') {
            g_assert_cmpuint(y->cycles, ==, y->now);
            g_assert_cmpuint(y->count, ==, x->count);
        } else {
            g_assert_cmpuint(y->cycles, >, y->now);
            g_assert_cmpuint(y->count, ==, x->count + 1);
        }
    }
    g_test_message("arrivals %u: arrive %u, ret %u, call %u", b->len, n['a'], n['r'], n['c']);
    g_assert_cmpuint(n['r'], >, 100);
    g_assert_cmpuint(n['c'], >, 100);
    g_assert_cmpuint(n['a'], >, 100); /* fall-throughs into watched blocks, jr through tables */
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/collect/calls", test_calls);
    g_test_add_func("/collect/tail-calls", test_tail_calls);
    g_test_add_func("/collect/interrupts", test_interrupts);
    g_test_add_func("/collect/stack-at-fault", test_stack_at_fault);
    g_test_add_func("/collect/contexts", test_contexts);
    g_test_add_func("/collect/cache-misses", test_cache_misses);
    g_test_add_func("/collect/quick-same", test_quick_same);
    g_test_add_func("/collect/arrive-entries", test_arrive_entries);
    return g_test_run();
}

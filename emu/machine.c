// SPDX-License-Identifier: GPL-2.0-or-later
/* machine.c — the exact conservative scheduler (see machine.h).
 *
 * Each core runs inside a coroutine (MCore.co) on the host thread it is
 * pinned to. Everything shared between cores — the Noc, every MCore's
 * scheduling fields, the console — is guarded by one lock (MachSched.lock);
 * a core's own engine state is touched only by its thread, except while it
 * idles (then only under the lock).
 *
 * A core is in one of four scheduling states:
 *   MC_RUN   between runs or running: lb = its clock when it last yielded;
 *   MC_SYNC  suspended at a sync point at cycle sync_t: lb = sync_t;
 *   MC_IDLE  in `wait`: lb = wake_t, the next cycle it must be looked at
 *            (the cycle it entered wait, then its timer's, or never);
 *            `woken` when the network raised one of its lines at wake_t;
 *   MC_DONE  stopped.
 * A core is ready when it can make progress: MC_RUN always; MC_SYNC and a
 * non-woken MC_IDLE when every other core's lb is at least the cycle they
 * wait for; a woken MC_IDLE always. Each thread resumes its ready core of
 * smallest lb. The smallest lb of all is always ready, so the run always
 * progresses; when no core is ready anywhere and every live core idles
 * with nothing to wait for, the network runs on by itself until it wakes a
 * core, or the run is a deadlock.
 */
#include "emu/machine.h"

#include "emu/coro.h"
#include "emu/dev_ni.h"
#include "emu/machine_priv.h"

#include "nocprof/platform.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

#define CORO_STACK (8u << 20)

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ---- the view every thread shares (lock held) ------------------------ */

/* Every core but `self` does nothing network-visible before t. */
static bool others_reached(const Machine *m, const MCore *self, uint64_t t) NP_REQUIRES(mach_sched_lock)
{
    for (unsigned i = 0; i < m->ncores; i++) {
        const MCore *o = &m->sched->mc[i];
        if (o != self && o->st != MC_DONE && lb_get(o) < t)
            return false;
    }
    return true;
}

LbView mach_lb_view(const Machine *m) NP_REQUIRES(mach_sched_lock)
{
    LbView v = { UINT64_MAX, UINT64_MAX, NULL };
    for (unsigned i = 0; i < m->ncores; i++) {
        const MCore *o = &m->sched->mc[i];
        if (o->st == MC_DONE)
            continue;
        uint64_t lb = lb_get(o);
        if (lb < v.min1) {
            v.min2 = v.min1;
            v.min1 = lb;
            v.arg1 = o;
        } else if (lb < v.min2) {
            v.min2 = lb;
        }
    }
    return v;
}

bool mach_others_at(const LbView *v, const MCore *self, uint64_t t) NP_REQUIRES(mach_sched_lock)
{
    return (self == v->arg1 ? v->min2 : v->min1) >= t;
}

bool mach_ready(const Machine *m, const MCore *mc, const LbView *v) NP_REQUIRES(mach_sched_lock)
{
    if (mc->active)
        return false;
    if (m->sched->halting && (!m->sched->halt_at_sync || mc->st != MC_RUN))
        return mc->st != MC_DONE;
    switch (mc->st) {
    case MC_RUN: return true;
    case MC_SYNC: return mach_others_at(v, mc, mc->sync_t);
    case MC_IDLE: return mc->woken || (mc->wake_t != UINT64_MAX && mach_others_at(v, mc, mc->wake_t));
    default: return false;
    }
}

/* The first iteration of a polling core whose poll runs at or after t. */
static uint64_t poll_iter_at(const MCore *o, uint64_t t) NP_REQUIRES(mach_sched_lock)
{
    uint64_t first = o->p_start + o->p_off;
    if (t <= first)
        return o->p_start;
    return o->p_start + (t - first + o->p_period - 1) / o->p_period * o->p_period;
}

/* The first iteration of a skipped loop to start at or after s: a line
 * that rises at s is seen at the iteration boundaries (core_events), and
 * that iteration takes the interrupt there, as without skipping. */
static uint64_t boundary_at(const MCore *o, uint64_t s) NP_REQUIRES(mach_sched_lock)
{
    if (s <= o->p_start)
        return o->p_start;
    return o->p_start + (s - o->p_start + o->p_period - 1) / o->p_period * o->p_period;
}

/* When an idle or polling core must run again, the network being as it
 * is at s (UINT64_MAX: not woken). A poll loop, at the first iteration
 * whose poll can see the answer; an idle core, spin on RAM or poll loop,
 * for an interrupt line the network raised that it wants (its handler
 * may end the loop: a spin's, or a receive handler breaking into a wait
 * for transmit room), at s or the first iteration boundary after it. */
static uint64_t net_wake_at(MCore *o, uint64_t s) NP_REQUIRES(mach_sched_lock)
{
    uint64_t at = UINT64_MAX;
    if (o->polling && !o->p_ram && dev_ni_poll_ready(o->ni, o->p_tx))
        at = poll_iter_at(o, s);
    core_refresh_net(o->core);
    if (core_irq_wanted(o->core))
        at = MIN(at, o->polling ? boundary_at(o, s) : MAX(s, core_cycles(o->core)));
    return at;
}

void mach_changed(Machine *m) NP_REQUIRES(mach_sched_lock)
{
    MachSched *s = m->sched;
    __atomic_add_fetch(&s->gen, 1, __ATOMIC_RELEASE);
    if (s->sleepers)
        pthread_cond_broadcast(&s->cond);
}

/* Simulate the network up to t (every core's lb >= t, idle cores apart).
 * An idle core whose line rises on the way wakes at the cycle after the
 * change (the network stops there: noc_run_watched); false when one wakes
 * before t (the caller must let it run first). */
static bool advance_network(Machine *m, uint64_t t) NP_REQUIRES(mach_sched_lock)
{
    while (noc_now(m->noc) < t) {
        for (unsigned i = 0; i < m->ncores; i++) {
            const MCore *o = &m->sched->mc[i];
            noc_watch(m->noc, i, o->st == MC_IDLE && !o->woken);
        }
        if (!noc_run_watched(m->noc, t))
            return true;
        uint64_t s = noc_now(m->noc);
        bool early = false;
        for (unsigned i = 0; i < m->ncores; i++) {
            MCore *o = &m->sched->mc[i];
            uint64_t at = o->st == MC_IDLE && !o->woken ? net_wake_at(o, s) : UINT64_MAX;
            if (at == UINT64_MAX)
                continue;
            o->woken = true;
            o->wake_t = at;
            lb_set(o, o->wake_t);
            early |= o->wake_t < t;
            mach_preempt_for(m, o);
            mach_changed(m);
        }
        if (early)
            return false;
    }
    return true;
}

void mach_start_halt(Machine *m, CoreState state, bool at_sync) NP_REQUIRES(mach_sched_lock)
{
    MachSched *s = m->sched;
    if (s->halting)
        return;
    s->halting = true;
    s->halt_at_sync = at_sync;
    s->halt_state = state;
    mach_changed(m);
}

/* ---- called from a core's coroutine ----------------------------------- */

/* Suspend the calling core until `ready` (the lock is dropped meanwhile). */
static void suspend(MCore *mc) NP_REQUIRES(mach_sched_lock)
{
    MachSched *s = mc->m->sched;
    mach_changed(mc->m);
    mach_unlock(s);
    coro_yield(mc->co);
    mach_lock(s);
}

/* CoreSched.sync: the network exactly at t, lock held on success. */
static bool sched_sync(void *opaque, Core *core, uint64_t t) NP_TRY_ACQUIRE(true, mach_sched_lock)
{
    MCore *mc = opaque;
    Machine *m = mc->m;
    MachSched *s = m->sched;
    mach_lock(s);
    mach_work(mc, t);
    mc->st = MC_SYNC;
    mc->sync_t = t;
    lb_set(mc, mc->sync_t);
    for (;;) {
        if (s->halting) {
            mc->st = MC_RUN;
            mach_unlock(s);
            core_halt(core, s->halt_state);
            return false;
        }
        if (others_reached(m, mc, t) && advance_network(m, t)) {
            /* judged before the access, as of t - 1: every core syncing
             * at t finds the same, and none of them accesses at t */
            mach_livelock_check(m, t);
            if (!s->halting)
                break;
            continue;
        }
        if (!mach_spin_sync(m, mc, t))
            suspend(mc);
    }
    mc->st = MC_RUN;
    return true;
}

static bool sched_sync_done(void *opaque, Core *core) NP_RELEASE(mach_sched_lock)
{
    MCore *mc = opaque;
    MachSched *s = mc->m->sched;
    bool halt = s->halting && s->halt_at_sync;
    CoreState st = s->halt_state;
    mach_unlock(s);
    if (halt)
        core_halt(core, st);
    return !halt;
}

/* CoreSched.poll_wait: sleep through the iterations of a failed poll loop
 * until the NI can answer otherwise (the network wakes it at the exact
 * cycle) or a local event (timer) is due; the first iteration to run. */
static uint64_t sched_poll_wait(void *opaque, Core *core, uint64_t start, uint64_t period,
                                uint64_t poll_offset, uint32_t poll_pc, bool tx, bool ram)
{
    MCore *mc = opaque;
    Machine *m = mc->m;
    MachSched *s = m->sched;
    mach_lock(s);
    mach_work(mc, start);
    /* a line the network raised before start, while the core ran the
     * iteration unwatched (the network simulated past it by this core's
     * own sync at the failed poll or spin, or by another's): taken at this
     * boundary, as without skipping, which nothing would wake it for (a
     * line its Status masks is no reason not to skip) */
    core_refresh_net(core);
    if (core_irq_wanted(core) && core_irq_allowed(core, core_read_cp0(core, NP_CP0_STATUS))) {
        mach_unlock(s);
        return start;
    }
    mc->polling = true;
    mc->p_tx = tx;
    mc->p_ram = ram;
    mc->p_start = start;
    mc->p_period = period;
    mc->p_off = poll_offset;
    mc->p_pc = poll_pc;
    mc->woken = false;
    /* a local event (a timer expiry, a Compare match) wakes the iteration
     * it falls in, not the next one: an interrupt it raises is taken at
     * the end of that iteration's block, as without skipping */
    uint64_t ev = core_local_event(core);
    mc->wake_t = ev >= m->cfg->max_cycles ? UINT64_MAX
               : ev <= start ? start : start + (ev - start) / period * period;
    /* looked at when its livelock is due, if nothing wakes it before */
    uint64_t due = mach_livelock_due(m, mc);
    if (due > start && due < m->cfg->max_cycles && poll_iter_at(mc, due) < mc->wake_t)
        mc->wake_t = poll_iter_at(mc, due);
    lb_set(mc, mc->wake_t);
    mc->st = MC_IDLE;
    uint64_t r = start;
    for (;;) {
        if (s->halting) {
            /* stop where it would have polled next after the verdict */
            r = mc->woken ? mc->wake_t : s->halt_at_sync ? poll_iter_at(mc, m->end_cycle) : start;
            break;
        }
        if (mc->woken) {
            r = mc->wake_t;
            break;
        }
        if (mc->wake_t != UINT64_MAX && others_reached(m, mc, mc->wake_t)
            && advance_network(m, mc->wake_t) && !mc->woken) {
            mach_livelock_check(m, mc->wake_t);
            if (s->halting)
                continue;
            r = mc->wake_t;
            break;
        }
        suspend(mc);
    }
    mc->polling = mc->woken = false;
    mc->st = MC_RUN;
    lb_set(mc, r);
    mc->mark = r; /* the skipped iterations are no work */
    /* the iterations the core accounts (block.c poll_skip): never one that
     * would end past the cycle limit (that one runs, cut, and its poll
     * reaches the observers by itself when it completes by the limit) */
    uint64_t k = r > start ? (r - start) / period : 0, limit = m->cfg->max_cycles;
    k = start < limit ? MIN(k, (limit - start) / period) : 0;
    if (k && ram)
        mach_spun(mc, start + poll_offset, poll_pc, mc->w_addr);
    else if (k)
        dev_ni_emit_polls(mc->ni, tx, poll_pc, start + poll_offset, period, k);
    mach_unlock(s);
    return r;
}

/* CoreSched.spin (lock held: between sync and sync_done). */
static void sched_spin(void *opaque, Core *core, uint64_t t, uint32_t pc, uint32_t addr) NP_REQUIRES(mach_sched_lock)
{
    (void)core;
    mach_spun(opaque, t, pc, addr);
}

/* The core idles (lock held): look at it at wake_t, wake it if it may. */
static void idle_step(MCore *mc) NP_REQUIRES(mach_sched_lock)
{
    Machine *m = mc->m;
    Core *c = mc->core;
    if (!mc->woken) {
        if (!advance_network(m, mc->wake_t))
            return; /* another core wakes first */
        core_refresh_net(c);
        /* every other core has reached wake_t: a livelock check point
         * (the core entered `wait`, its timer wakes it, its livelock is due) */
        mach_livelock_check(m, mc->wake_t);
    }
    core_idle(c, mc->wake_t);
    mc->woken = false;
    if (core_state(c) == CORE_IDLE) {
        uint64_t w = core_wake_cycle(c), due = mach_livelock_due(m, mc);
        w = w == UINT64_MAX ? UINT64_MAX : MAX(w, core_cycles(c));
        /* a timer will wake it: looked at when its livelock is due, if
         * before (only the network can wake the others: stuck already) */
        if (w != UINT64_MAX && due > core_cycles(c) && due < w)
            w = due;
        mc->wake_t = w;
        lb_set(mc, mc->wake_t);
    }
}

/* The core's life: runs of at most a quantum, idle spells, until it stops. */
static void core_main(void *opaque)
{
    MCore *mc = opaque;
    Machine *m = mc->m;
    MachSched *s = m->sched;
    Core *c = mc->core;
    for (;;) {
        mach_lock(s);
        /* a livelock found at end_cycle stops every core at its first sync
         * point or `wait` at or after it: one that its timer wakes by then
         * runs on to it (as it does in a schedule where it woke earlier) */
        bool runs_on = s->halting && s->halt_at_sync && s->halt_state == CORE_DEADLOCK
                    && core_state(c) == CORE_IDLE && core_wake_cycle(c) <= m->end_cycle;
        if (s->halting && core_live(c) && !runs_on && (!s->halt_at_sync || core_state(c) == CORE_IDLE)) {
            if (core_state(c) == CORE_IDLE && (s->halt_state == CORE_DEADLOCK || s->halt_state == CORE_LIMIT))
                core_idle(c, m->end_cycle);
            core_halt(c, s->halt_state);
        }
        if (core_state(c) == CORE_IDLE)
            idle_step(mc);
        CoreState st = core_state(c);
        if (!core_live(c)) {
            mc->st = MC_DONE;
            if (++s->ndone == m->ncores)
                pthread_cond_broadcast(&s->park);
            mach_changed(m);
            mach_unlock(s);
            return;
        }
        if (st == CORE_IDLE) {
            mc->st = MC_IDLE;
            suspend(mc);
            mach_unlock(s);
            continue;
        }
        mc->st = MC_RUN;
        uint64_t c0 = mc->mark = core_cycles(c);
        lb_set(mc, c0);
        mach_unlock(s);
        core_run(c, sat_add(c0, m->cfg->reference ? 1 : m->cfg->quantum));
        mach_lock(s);
        mach_work(mc, core_cycles(c));
        if (core_state(c) == CORE_IDLE) {
            mach_waited(mc);
            mc->st = MC_IDLE;           /* look at it at the cycle it waits */
            mc->woken = false;
            mc->wake_t = core_cycles(c);
            lb_set(mc, mc->wake_t);
        } else {
            lb_set(mc, core_cycles(c));
        }
        suspend(mc);
        mach_unlock(s);
    }
}

/* ---- the threads ----------------------------------------------------- */


/* Every live core idles or spins on a failed poll and nothing is in
 * flight: the spinning ones go on until the livelock is due (every poller
 * stuck for [run] livelock_cycles) or, with no livelock possible, until
 * the cycle limit. False when no core spins. */
static bool wake_pollers(Machine *m) NP_REQUIRES(mach_sched_lock)
{
    MachSched *s = m->sched;
    uint64_t L = m->cfg->livelock_cycles, due = 0;
    bool any = false;
    for (unsigned i = 0; i < m->ncores; i++) {
        const MCore *o = &s->mc[i];
        if (o->st != MC_IDLE || !o->polling)
            continue;
        any = true;
        uint64_t from = o->polled ? o->poll_from : o->p_start + o->p_off;
        due = MAX(due, sat_add(from, L));
    }
    if (!any)
        return false;
    uint64_t last = mach_net_last_move(m); /* a network that cannot move by itself */
    if (last != UINT64_MAX)
        due = MAX(due, sat_add(last, L + 1));
    if (L == 0 || due >= m->cfg->max_cycles)
        due = m->cfg->max_cycles;
    for (unsigned i = 0; i < m->ncores; i++) {
        MCore *o = &s->mc[i];
        if (o->st == MC_IDLE && o->polling) {
            o->woken = true;
            o->wake_t = poll_iter_at(o, due);
            lb_set(o, o->wake_t);
        }
    }
    mach_changed(m);
    return true;
}

/* No core is ready or running anywhere (lock held): if every live core
 * idles with nothing to wait for, let the network run until it wakes one,
 * or end the run in deadlock. */
static bool unstick(Machine *m) NP_REQUIRES(mach_sched_lock)
{
    MachSched *s = m->sched;
    uint64_t latest = noc_now(m->noc);
    for (unsigned i = 0; i < m->ncores; i++) {
        MCore *o = &s->mc[i];
        if (o->active || (o->st != MC_DONE && !(o->st == MC_IDLE && !o->woken && o->wake_t == UINT64_MAX)))
            return false; /* someone can still move */
        latest = MAX(latest, core_cycles(o->core));
    }
    uint64_t nx = noc_next_activity(m->noc);
    if (nx != UINT64_MAX) {
        advance_network(m, nx + 1);
        mach_changed(m);
        return true;
    }
    if (wake_pollers(m))
        return true;
    /* a core stopped at the cycle limit could have woken the others up
     * to it: the run ends at the limit (each idles to it), no deadlock */
    bool limit = false;
    for (unsigned i = 0; i < m->ncores; i++)
        limit |= core_state(s->mc[i].core) == CORE_LIMIT;
    m->deadlock = !limit;
    m->end_cycle = limit ? m->cfg->max_cycles : MIN(latest, m->cfg->max_cycles);
    mach_start_halt(m, limit ? CORE_LIMIT : CORE_DEADLOCK, false);
    return true;
}

/* The ready core of smallest lb for this thread (lock held): among its own
 * cores and those of parked threads; else, stolen, among the other
 * threads' ready cores (a core's coroutine may resume on any thread). */
MCore *mach_pick(Machine *m, unsigned thread) NP_REQUIRES(mach_sched_lock)
{
    MachSched *s = m->sched;
    MCore *best = NULL, *steal = NULL;
    LbView v = mach_lb_view(m);
    for (unsigned i = 0; i < m->ncores; i++) {
        MCore *o = &s->mc[i];
        if (!mach_ready(m, o, &v))
            continue;
        bool own = o->thread == thread || o->thread >= s->nactive;
        MCore **slot = own ? &best : &steal;
        if (!*slot || lb_get(o) < lb_get(*slot))
            *slot = o;
    }
    return best ? best : steal;
}

typedef struct ThreadArg {
    Machine *m;
    unsigned thread;
} ThreadArg;

static gpointer thread_main(gpointer opaque)
{
    ThreadArg *ta = opaque;
    Machine *m = ta->m;
    MachSched *s = m->sched;
    mach_lock(s);
    while (s->ndone < m->ncores) {
        if (s->interrupted && *s->interrupted)
            mach_start_halt(m, CORE_INTERRUPTED, false);
        bool parked = ta->thread >= s->nactive;
        MCore *mc = parked ? NULL : mach_pick(m, ta->thread);
        if (mc) {
            mc->active = true;
            s->running[ta->thread] = mc;
            mach_unlock(s);
            coro_resume(mc->co);
            mach_lock(s);
            mc->active = false;
            s->running[ta->thread] = NULL;
            mach_adapt_tick(m);
            mach_changed(m);
            continue;
        }
        if (parked) {
            /* until nactive grows or the run ends (signalled) */
            mach_wait(s, &s->park, NULL);
            continue;
        }
        /* the network moved (or the run ends): look again, no sleeping
         * (a 50 ms wait per network step made drains crawl) */
        if (unstick(m) || mach_pick(m, ta->thread) || s->ndone == m->ncores)
            continue;
        mach_preempt_others(m);
        if (mach_spin_thread(m))
            continue;
        /* wake up now and then to see an interrupt flag set by a signal */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += 50 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        s->sleepers++;
        mach_wait(s, &s->cond, &ts);
        s->sleepers--;
    }
    mach_unlock(s);
    return NULL;
}

/* ---- life cycle ------------------------------------------------------ */

static void console_locked(void *opaque, unsigned core, const char *line, size_t len, bool eol)
{
    MachSched *s = opaque;
    pthread_mutex_lock(&s->console_lock);
    if (s->console_fn)
        s->console_fn(s->console_opaque, core, line, len, eol);
    pthread_mutex_unlock(&s->console_lock);
}

unsigned machine_threads(const Config *cfg)
{
    if (cfg->reference)
        return 1;
    unsigned n = cfg->threads ? cfg->threads : (unsigned)MAX(1, (int)g_get_num_processors());
    return MAX(1u, MIN(n, config_cores(cfg)));
}

Machine *machine_new(const Config *cfg, ElfImage *const *imgs, ConsoleFn console_fn,
                     void *console_opaque, GError **error)
{
    Machine *m = g_new0(Machine, 1);
    MachSched *s = m->sched = g_new0(MachSched, 1);
    m->cfg = cfg;
    m->ncores = config_cores(cfg);
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ADAPTIVE_NP); /* spins a little first */
#endif
    pthread_mutex_init(&s->lock, &ma);
    pthread_mutexattr_destroy(&ma);
    pthread_mutex_init(&s->console_lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cond, &ca);
    pthread_cond_init(&s->park, &ca);
    pthread_condattr_destroy(&ca);
    s->console_fn = console_fn;
    s->console_opaque = console_opaque;
    NocConfig nc = {
        .width = cfg->mesh_width, .height = cfg->mesh_height,
        .router_latency = cfg->router_latency, .link_latency = cfg->link_latency,
        .buffer_depth = cfg->buffer_depth, .max_payload = cfg->max_payload,
        .tx_queue_flits = cfg->tx_queue_flits, .rx_queue_flits = cfg->rx_queue_flits,
    };
    m->noc = noc_new(&nc);
    m->cores = g_new0(Core *, m->ncores);
    s->mc = g_new0(MCore, m->ncores);
    for (unsigned i = 0; i < m->ncores; i++) {
        m->cores[i] = core_new(i, cfg, imgs[i], console_locked, s, error);
        if (!m->cores[i]) {
            machine_free(m);
            return NULL;
        }
        MCore *mc = &s->mc[i];
        *mc = (MCore){ .m = m, .core = m->cores[i], .id = i };
        mc->ni = dev_ni_new(m->noc, i, m->ncores, cfg->max_payload);
        core_map_device(m->cores[i], CORE_DEV_NI, &dev_ni_ops, mc->ni, dev_ni_irq);
        dev_ni_observe(mc->ni, mach_ni_event, mc);
        core_set_sched(m->cores[i], &(CoreSched){ .opaque = mc, .sync = sched_sync,
                                                  .sync_done = sched_sync_done,
                                                  .poll_wait = cfg->reference ? NULL : sched_poll_wait,
                                                  .spin = sched_spin,
                                                  .lb_pub = &mc->lb, .progress = mach_progress,
                                                  .lone = machine_threads(cfg) == 1 });
    }
    return m;
}

void machine_free(Machine *m)
{
    if (!m)
        return;
    MachSched *s = m->sched;
    for (unsigned i = 0; i < m->ncores; i++) {
        core_free(m->cores[i]);
        if (s->mc)
            coro_free(s->mc[i].co);
    }
    g_free(s->mc);
    g_free(m->waits);
    g_free(m->cores);
    noc_free(m->noc);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->console_lock);
    pthread_cond_destroy(&s->cond);
    pthread_cond_destroy(&s->park);
    g_free(s);
    g_free(m);
}

void machine_run(Machine *m, volatile sig_atomic_t *interrupted)
{
    MachSched *s = m->sched;
    /* no thread runs yet: the lock only tells the analysis so */
    mach_lock(s);
    s->interrupted = interrupted;
    s->ndone = 0;
    for (unsigned i = 0; i < m->ncores; i++) {
        MCore *mc = &s->mc[i];
        mc->co = coro_new(core_main, mc, CORO_STACK);
        if (!mc->co) /* no memory for its stack: that core faults, the run goes on */
            core_fail(mc->core, "emulator", "no memory for the core's coroutine stack");
        mc->st = core_live(mc->core) ? MC_RUN : MC_DONE;
        s->ndone += mc->st == MC_DONE;
        lb_set(mc, core_cycles(mc->core));
    }
    unsigned want = m->threads_wanted = machine_threads(m->cfg);
    ThreadArg *args = g_new0(ThreadArg, want);
    GThread **threads = g_new0(GThread *, want);
    /* then the host threads (the cores' stacks had the memory first), each
     * blocked on the lock until the cores are dealt to those that exist:
     * one that cannot start leaves its share to the others, as threads
     * never change a result (g_thread_new aborted the process) */
    unsigned n = 1;
    for (; n < want; n++) {
        args[n] = (ThreadArg){ .m = m, .thread = n };
        if (!(threads[n] = g_thread_try_new("nocprof-core", thread_main, &args[n], NULL)))
            break;
    }
    args[0] = (ThreadArg){ .m = m, .thread = 0 };
    s->nthreads = s->nactive = m->nthreads = n;
    m->adapt_switches = 0;
    s->adapt = m->cfg->adapt && s->nthreads > 1 ? mach_adapt_new(s->nthreads, m->adapt_trial_ns, m->adapt_clock) : NULL;
    if (s->adapt)
        s->nactive = 1; /* the first trial: a run shorter than it pays no thread hand-offs */
    m->adapt_max_active = s->nactive;
    for (unsigned i = 0; i < m->ncores; i++)
        s->mc[i].thread = i * s->nthreads / m->ncores; /* neighbours share a thread */
    s->running = g_new0(MCore *, s->nthreads);
    mach_unlock(s);
    thread_main(&args[0]);
    for (unsigned t = 1; t < s->nthreads; t++)
        g_thread_join(threads[t]);
    g_free(threads);
    g_free(args);
    g_clear_pointer(&s->running, g_free);
    g_clear_pointer(&s->adapt, mach_adapt_free);
    /* the network's clock at the end is the run's end (the latest core),
     * whatever the schedule simulated of it so far */
    uint64_t end = 0;
    for (unsigned i = 0; i < m->ncores; i++)
        end = MAX(end, core_cycles(m->cores[i]));
    noc_run_until(m->noc, MIN(end, m->cfg->max_cycles));
    if (m->deadlock) {
        g_free(m->waits);
        m->waits = g_new0(MachWait, m->ncores);
        for (unsigned i = 0; i < m->ncores; i++) {
            const MCore *o = &s->mc[i];
            bool stuck = core_state(m->cores[i]) == CORE_DEADLOCK;
            m->waits[i] = (MachWait){ .kind = stuck ? o->w_kind : MACH_WAIT_NONE, .pc = o->w_pc, .addr = o->w_addr,
                                      .peer = noc_tx_head_dst(m->noc, i), .asleep = o->w_asleep };
        }
    }
    machine_flush_console(m);
}

void machine_flush_console(Machine *m)
{
    for (unsigned i = 0; i < m->ncores; i++)
        core_flush_console(m->cores[i]);
}

void machine_observe_ni(Machine *m, unsigned core, NiObserver fn, void *opaque)
{
    g_return_if_fail(core < m->ncores);
    dev_ni_observe(m->sched->mc[core].ni, fn, opaque);
}

void machine_progress(Machine *m, uint64_t *lo, uint64_t *hi)
{
    MachSched *s = m->sched;
    *lo = UINT64_MAX;
    *hi = 0;
    mach_lock(s);
    for (unsigned i = 0; i < m->ncores; i++) {
        const MCore *o = &s->mc[i];
        uint64_t c = o->st == MC_DONE || !s->mc[i].co ? core_cycles(o->core) : lb_get(o);
        if (c == UINT64_MAX)
            c = core_cycles(o->core); /* idle with nothing armed: it stays where it is */
        *lo = MIN(*lo, c);
        *hi = MAX(*hi, c);
    }
    mach_unlock(s);
}

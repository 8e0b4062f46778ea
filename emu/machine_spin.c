// SPDX-License-Identifier: GPL-2.0-or-later
/* machine_spin.c — waiting on several host threads: spinning on the clocks
 * the running cores publish, and preempting a busy thread's long run for a
 * core that is behind (see "Several threads" in docs/design.md). */
#include "emu/machine_priv.h"

#include <sched.h>
#include <time.h>

/* ---- spinning instead of sleeping (several threads) -------------------- */

/* How long a thread watches cores running on other threads before it
 * suspends or sleeps: a hand-off through a condition variable costs tens
 * of microseconds, the cores publish their clocks at every block. */
#define SPIN_NS 50000u
#define SPIN_YIELD_NS 2000u

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* What one waiting core needs, taken under the lock: every core in `live`
 * but itself to have published lb >= t. */
typedef struct SpinNeed {
    unsigned self;
    uint64_t t;
} SpinNeed;

static bool need_met(const Machine *m, const bool *live, const SpinNeed *n)
{
    for (unsigned i = 0; i < m->ncores; i++)
        if (i != n->self && live[i] && lb_get(&m->sched->mc[i]) < n->t)
            return false;
    return true;
}

/* Drop the lock and watch the clocks until one need is met, the state
 * changes, or SPIN_NS pass; the lock is held again on return. True unless
 * it timed out. */
static bool spin(Machine *m, const SpinNeed *needs, unsigned nneeds) NP_REQUIRES(mach_sched_lock)
{
    MachSched *s = m->sched;
    bool live[m->ncores];
    for (unsigned i = 0; i < m->ncores; i++)
        live[i] = s->mc[i].st != MC_DONE;
    uint64_t g = __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE);
    mach_unlock(s);
    bool met = false;
    uint64_t t0 = now_ns();
    for (unsigned k = 1; !met; k++) {
        cpu_relax();
        if (__atomic_load_n(&s->gen, __ATOMIC_ACQUIRE) != g) {
            met = true;
        } else if ((k & 31) == 0) {
            for (unsigned j = 0; j < nneeds && !met; j++)
                met = need_met(m, live, &needs[j]);
            uint64_t dt = met ? 0 : now_ns() - t0;
            if (dt > SPIN_NS)
                break;
            if (dt > SPIN_YIELD_NS)
                sched_yield(); /* the core we watch may be waiting for a CPU */
        }
    }
    mach_lock(s);
    return met;
}

/* mc must wait at t (lock held). Worth spinning rather than suspending when
 * its thread has nothing else to run and every core it waits for is
 * running on another thread (so it publishes its clock as it goes). */
bool mach_spin_sync(Machine *m, MCore *mc, uint64_t t) NP_REQUIRES(mach_sched_lock)
{
    MachSched *s = m->sched;
    if (s->nactive < 2 || mach_pick(m, mc->thread))
        return false;
    for (unsigned i = 0; i < m->ncores; i++) {
        const MCore *o = &s->mc[i];
        if (o != mc && o->st != MC_DONE && lb_get(o) < t && !(o->active && o->st == MC_RUN))
            return false;
    }
    SpinNeed n = { mc->id, t };
    return spin(m, &n, 1);
}

/* The thread has nothing ready (lock held): watch for a waiting core that
 * is not running to become ready (it may be another thread's: mach_pick
 * steals). False when there is nothing to watch for or it timed out. */
bool mach_spin_thread(Machine *m) NP_REQUIRES(mach_sched_lock)
{
    MachSched *s = m->sched;
    if (s->nactive < 2)
        return false;
    SpinNeed needs[m->ncores];
    unsigned n = 0;
    for (unsigned i = 0; i < m->ncores; i++) {
        const MCore *o = &s->mc[i];
        if (o->active)
            continue;
        if (o->st == MC_SYNC)
            needs[n++] = (SpinNeed){ i, o->sync_t };
        else if (o->st == MC_IDLE && !o->woken && o->wake_t != UINT64_MAX)
            needs[n++] = (SpinNeed){ i, o->wake_t };
    }
    return n > 0 && spin(m, needs, n);
}

/* o is ready (lock held): if no active thread is free to take it and a
 * busy one runs a core that is ahead of it, that core's run ends at its
 * next block boundary, so that the core everybody may be waiting for runs
 * first (the busy thread with the core furthest ahead). */
void mach_preempt_for(Machine *m, const MCore *o) NP_REQUIRES(mach_sched_lock)
{
    MachSched *s = m->sched;
    if (s->nactive < 2)
        return;
    MCore *far = NULL;
    for (unsigned t = 0; t < s->nactive; t++) {
        MCore *r = s->running[t];
        if (!r)
            return; /* a free thread takes it */
        if (r != o && r->st == MC_RUN && (!far || lb_get(r) > lb_get(far)))
            far = r;
    }
    if (far && lb_get(far) > lb_get(o))
        core_request_yield(far->core);
}

/* Nothing to run on this thread (lock held): preempt for every ready core
 * that no thread runs. */
void mach_preempt_others(Machine *m) NP_REQUIRES(mach_sched_lock)
{
    MachSched *s = m->sched;
    LbView v = mach_lb_view(m);
    for (unsigned i = 0; i < m->ncores; i++) {
        MCore *o = &s->mc[i];
        if (mach_ready(m, o, &v))
            mach_preempt_for(m, o);
    }
}

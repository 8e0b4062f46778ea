// SPDX-License-Identifier: GPL-2.0-or-later
/* machine_adapt.c — how many of a run's host threads run cores.
 *
 * Several threads speed a run up only when its cores rarely wait for each
 * other: a NoC-heavy run that synchronises every few hundred cycles runs
 * slower on two threads than on one (each cross-thread wait is a hand-off
 * costing more than the guest work between two syncs; docs/performance.md).
 * With `[sched] adapt` (the default) the scheduler measures it: it runs a
 * trial of ADAPT_TRIAL_NS with a single thread (so a run shorter than that
 * never hands a core to another thread), one with every thread, and
 * keeps the faster for ADAPT_KEEP trials' time (doubled each time the same
 * mode wins again, 4x when it is over twice as fast, at most
 * ADAPT_KEEP_MAX), then tries the other again.
 * Speed is guest cycles executed per second of wall time (cycles skipped
 * by poll loops and idling are not work). Threads beyond `nactive` park;
 * their cores are run by the active threads (a core's coroutine and engine
 * may move between threads between two resumptions: Unicorn keeps no
 * thread-local state on the MIPS path). Results never depend on any of
 * this: the schedule changes, the co-simulation does not (machine.h). */
#include "emu/machine_priv.h"

#include <limits.h>
#include <time.h>

#define ADAPT_TRIAL_NS (10u * 1000u * 1000u)
#define ADAPT_KEEP 12u          /* first keep, in trials */
#define ADAPT_KEEP_MAX 96u      /* grown each time the same mode wins */

typedef enum { A_START, A_FIRST, A_SECOND, A_KEEP } APhase;

struct Adapt {
    unsigned n;                /* the run's threads */
    uint64_t trial;            /* ns */
    unsigned ticks;
    APhase phase;
    uint64_t t0, work0, end;
    double rate[2];            /* work per ns: [0] with n threads, [1] with one */
    uint64_t (*clock)(void);   /* ns */
    unsigned keep, kept;       /* the keep's length in trials; its mode */
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

Adapt *mach_adapt_new(unsigned nthreads, uint64_t trial_ns, uint64_t (*clock)(void))
{
    Adapt *a = g_new0(Adapt, 1);
    a->clock = clock ? clock : now_ns;
    a->n = nthreads;
    a->trial = trial_ns ? trial_ns : ADAPT_TRIAL_NS;
    a->keep = ADAPT_KEEP;
    a->kept = UINT_MAX;
    return a;
}

void mach_adapt_free(Adapt *a)
{
    g_free(a);
}

/* Threads nactive.. stop taking cores; a core they run now ends its run at
 * its next block boundary. */
static void set_active(Machine *m, unsigned nactive) NP_REQUIRES(mach_sched_lock)
{
    MachSched *s = m->sched;
    if (s->nactive == nactive)
        return;
    s->nactive = nactive;
    m->adapt_switches++;
    m->adapt_max_active = MAX(m->adapt_max_active, nactive);
    for (unsigned t = nactive; t < s->nthreads; t++)
        if (s->running[t])
            core_request_yield(s->running[t]->core);
    pthread_cond_broadcast(&s->park);
    mach_changed(m);
}

static void window(Adapt *a, const MachSched *s, uint64_t now, uint64_t len) NP_REQUIRES(mach_sched_lock)
{
    a->t0 = now;
    a->work0 = s->work;
    a->end = now + len;
}

/* After every resumption (lock held): end a trial or a keep when due. */
void mach_adapt_tick(Machine *m) NP_REQUIRES(mach_sched_lock)
{
    MachSched *s = m->sched;
    Adapt *a = s->adapt;
    if (!a || (++a->ticks & 3))
        return;
    uint64_t now = a->clock();
    if (a->phase == A_START) {
        window(a, s, now, a->trial);
        a->phase = A_FIRST;
        return;
    }
    if (now < a->end)
        return;
    unsigned mode = s->nactive == a->n ? 0 : 1;
    a->rate[mode] = (double)(s->work - a->work0) / (double)(now - a->t0);
    if (a->phase == A_SECOND) {
        /* both measured: the mode just tried (`mode`) replaces the one
         * before it only when it is 10% faster (a change moves cores
         * between threads, whose caches then start cold; and when the host
         * gives the run one CPU for a while both modes measure alike). The
         * winner is kept longer each time it wins again, 4x when it is
         * over twice as fast (a trial of the other then costs more than it
         * can tell) */
        unsigned best = a->rate[mode] > 1.1 * a->rate[!mode] ? mode : !mode;
        unsigned grow = a->rate[best] > 2 * a->rate[!best] ? 4 : 2;
        a->keep = best == a->kept ? MIN(grow * a->keep, ADAPT_KEEP_MAX) : grow == 4 ? 4 * ADAPT_KEEP : ADAPT_KEEP;
        a->kept = best;
        set_active(m, best ? 1 : a->n);
        window(a, s, now, a->trial * a->keep);
        a->phase = A_KEEP;
        return;
    }
    /* after the first trial or a keep: try the other mode */
    set_active(m, mode == 0 ? 1 : a->n);
    window(a, s, now, a->trial);
    a->phase = A_SECOND;
}

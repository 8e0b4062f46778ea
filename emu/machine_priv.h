// SPDX-License-Identifier: GPL-2.0-or-later
/* machine_priv.h — the scheduler's state, shared by machine.c (the
 * scheduler) and machine_spin.c (waiting without the lock on several host
 * threads). See machine.c for the states and the invariants. */
#ifndef NOCPROF_MACHINE_PRIV_H
#define NOCPROF_MACHINE_PRIV_H

#include "emu/machine.h"

#include "base/thread_safety.h"
#include "emu/coro.h"
#include "emu/dev_ni.h"

#include <pthread.h>

typedef struct Adapt Adapt;

/* The scheduler's lock (MachSched.lock) for the thread-safety analysis
 * (base/thread_safety.h): one token stands for every machine's lock, as C
 * cannot name a sibling field in an attribute (clang 14). mach_lock and
 * mach_unlock take and drop it; the fields it guards say so. */
typedef struct NP_CAPABILITY("mutex") MachLockCap { char unused; } MachLockCap;
extern MachLockCap mach_sched_lock;
#define MACH_GUARDED NP_GUARDED_BY(mach_sched_lock)
#define MACH_PT_GUARDED NP_PT_GUARDED_BY(mach_sched_lock)

typedef enum { MC_RUN, MC_SYNC, MC_IDLE, MC_DONE } McState;

typedef struct MCore {
    Machine *m;
    Core *core;
    NiDev *ni;
    unsigned id, thread;       /* thread: its home (mach_pick may steal it) */
    Coro *co;
    McState st MACH_GUARDED;
    bool active MACH_GUARDED;  /* resumed by its thread right now */
    bool woken MACH_GUARDED;   /* MC_IDLE: the network raised a line */
    uint64_t lb;               /* atomic: lb_get, lb_set */
    uint64_t sync_t MACH_GUARDED, wake_t MACH_GUARDED;
    uint64_t mark MACH_GUARDED; /* its cycles when its work was last counted */
    /* livelock: polling since poll_from with no progress (NI events); the
     * state before the last progress, to judge it as of an earlier cycle */
    bool polled, prev_polled;
    uint64_t poll_from, prev_poll_from, progress;
    /* ... and waited again (a second poll or `wait`) since, from again_at:
     * one long `wait` that its timer ends is a sleep, not a hang */
    bool again, prev_again;
    uint64_t again_at, prev_again_at;
    /* what it waited for last (MachWaitKind) and where (a poll's pc) */
    unsigned w_kind;
    uint32_t w_pc, w_addr;     /* ... and the word of RAM it spun on */
    bool w_asleep;             /* ... in `wait` (mach_waited) */
    /* MC_IDLE while spinning on a failed poll (CoreSched.poll_wait):
     * iterations start at p_start + j * p_period, their poll at + p_off;
     * p_ram: on a word of RAM (only a local event ends it) */
    bool polling MACH_GUARDED, p_tx MACH_GUARDED, p_ram MACH_GUARDED;
    uint64_t p_start MACH_GUARDED, p_period MACH_GUARDED, p_off MACH_GUARDED;
    uint64_t p_resume;
    uint32_t p_pc MACH_GUARDED;
} MCore;

struct MachSched {
    /* pthread, not GMutex: ThreadSanitizer sees pthread's synchronisation */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    pthread_cond_t park;       /* parked threads wait here (nactive grows) */
    pthread_mutex_t console_lock;
    uint64_t gen;              /* bumped (atomic) by every change of state */
    unsigned sleepers MACH_GUARDED; /* threads in pthread_cond_timedwait */
    MCore **running MACH_PT_GUARDED; /* [thread]: the core it resumed, or NULL */
    MCore *mc;
    unsigned nthreads, ndone MACH_GUARDED;
    unsigned nactive MACH_GUARDED; /* threads 0..nactive-1 run cores (adapt) */
    Adapt *adapt;              /* machine_adapt.c; NULL: nactive stays */
    uint64_t work MACH_GUARDED; /* cycles executed (not skipped by polls) */
    volatile sig_atomic_t *interrupted;
    bool halting MACH_GUARDED;
    bool halt_at_sync MACH_GUARDED; /* running cores stop at their next sync point */
    CoreState halt_state MACH_GUARDED;
    ConsoleFn console_fn;
    void *console_opaque;
};

/* A core's lb is read by other threads without the lock (spinning) and
 * written by its own block hook while it runs (CoreSched.lb_pub): atomic,
 * release/acquire so that seeing lb >= t also shows everything the core
 * did under the lock before it got there. */
static inline uint64_t lb_get(const MCore *o)
{
    return __atomic_load_n(&o->lb, __ATOMIC_ACQUIRE);
}

static inline void lb_set(MCore *o, uint64_t v)
{
    __atomic_store_n(&o->lb, v, __ATOMIC_RELEASE);
}

/* The two smallest lbs of the live cores, so that "every other core has
 * reached t" costs O(1) per core when picking (O(n^2) made big meshes slow). */
typedef struct LbView {
    uint64_t min1, min2;
    const MCore *arg1;
} LbView;

/* Take the lock, spinning a while before sleeping in the kernel (the
 * holders keep it for microseconds; a futex sleep and wake-up costs more) */
static inline void mach_lock(MachSched *s) NP_ACQUIRE(mach_sched_lock) NP_NO_TSA;
static inline void mach_lock(MachSched *s)
{
    for (unsigned i = 0; i < 1000; i++) {
        if (pthread_mutex_trylock(&s->lock) == 0)
            return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    pthread_mutex_lock(&s->lock);
}

static inline void mach_unlock(MachSched *s) NP_RELEASE(mach_sched_lock) NP_NO_TSA;
static inline void mach_unlock(MachSched *s)
{
    pthread_mutex_unlock(&s->lock);
}

/* Wait on cond, the lock dropped meanwhile and held again on return
 * (until: CLOCK_MONOTONIC deadline, or NULL). */
static inline void mach_wait(MachSched *s, pthread_cond_t *cond, const struct timespec *until)
    NP_REQUIRES(mach_sched_lock) NP_NO_TSA;
static inline void mach_wait(MachSched *s, pthread_cond_t *cond, const struct timespec *until)
{
    if (until)
        pthread_cond_timedwait(cond, &s->lock, until);
    else
        pthread_cond_wait(cond, &s->lock);
}

/* Count the cycles mc executed up to its clock `now` (lock held). */
static inline void mach_work(MCore *mc, uint64_t now) NP_REQUIRES(mach_sched_lock);
static inline void mach_work(MCore *mc, uint64_t now)
{
    if (now > mc->mark)
        mc->m->sched->work += now - mc->mark;
    mc->mark = now;
}

/* machine.c, lock held */
LbView mach_lb_view(const Machine *m) NP_REQUIRES(mach_sched_lock);
bool mach_others_at(const LbView *v, const MCore *self, uint64_t t) NP_REQUIRES(mach_sched_lock);
bool mach_ready(const Machine *m, const MCore *mc, const LbView *v) NP_REQUIRES(mach_sched_lock);
MCore *mach_pick(Machine *m, unsigned thread) NP_REQUIRES(mach_sched_lock);
void mach_changed(Machine *m) NP_REQUIRES(mach_sched_lock);

void mach_start_halt(Machine *m, CoreState state, bool at_sync) NP_REQUIRES(mach_sched_lock);

/* machine_live.c, lock held: the livelock watch (SPEC 1, the hang rule).
 * A check at cycle t (every other live core has published lb >= t, the
 * network is simulated up to t) ends the run in livelock when every live
 * core is stuck as of t - 1 and the network is still. */
void mach_livelock_check(Machine *m, uint64_t t) NP_REQUIRES(mach_sched_lock);
/* The cycle at which mc will have waited for [run] livelock_cycles (and
 * the network been still as long), or UINT64_MAX: it does not wait. */
uint64_t mach_livelock_due(const Machine *m, const MCore *mc) NP_REQUIRES(mach_sched_lock);
/* When a flit last moved (an empty network's last move included), or
 * UINT64_MAX when none ever did. */
uint64_t mach_net_last_move(const Machine *m) NP_REQUIRES(mach_sched_lock);
/* mc's core has just entered `wait` (core_run returned it idle). */
void mach_waited(MCore *mc);
/* CoreSched.progress (a CONSOLE write) and the NI's observer. */
void mach_progress(void *opaque, Core *core, uint64_t t);
void mach_ni_event(void *opaque, const NiEvent *ev);
/* CoreSched.spin, and the first of the iterations a spin skipped. */
void mach_spun(MCore *mc, uint64_t t, uint32_t pc, uint32_t addr) NP_REQUIRES(mach_sched_lock);

/* machine_spin.c, lock held (dropped while spinning, held on return) */
bool mach_spin_sync(Machine *m, MCore *mc, uint64_t t) NP_REQUIRES(mach_sched_lock);
bool mach_spin_thread(Machine *m) NP_REQUIRES(mach_sched_lock);
void mach_preempt_for(Machine *m, const MCore *o) NP_REQUIRES(mach_sched_lock);
void mach_preempt_others(Machine *m) NP_REQUIRES(mach_sched_lock);

/* machine_adapt.c, lock held: how many threads run cores. */
Adapt *mach_adapt_new(unsigned nthreads, uint64_t trial_ns, uint64_t (*clock)(void));
void mach_adapt_free(Adapt *a);
void mach_adapt_tick(Machine *m) NP_REQUIRES(mach_sched_lock);

#endif

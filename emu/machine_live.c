// SPDX-License-Identifier: GPL-2.0-or-later
/* machine_live.c — the livelock watch of the scheduler (SPEC 1, the hang
 * rule; docs/design.md, "Endings"). Lock held everywhere.
 *
 * Progress is only what another core, or the outside, could see: a packet
 * sent, received or dropped at the core's NI (NiEvent) and the first
 * CONSOLE write after a wait (a sync point then: core_watch_console). A
 * core waits from its first failed NI poll, spin on RAM (mach_spun) or
 * `wait` after its last progress (`polled`, `poll_from`), and is stuck
 * once it has waited for [run] livelock_cycles and waited again since
 * (`again`: one long `wait` that its timer ends is a sleep); interrupt
 * handlers, timer ticks and work that nobody sees change nothing. Every
 * progress is a sync point, so no core makes progress past a cycle t at
 * which another core checks:
 * the state before its last progress (prev_*) is the state as of t - 1.
 */
#include "emu/machine_priv.h"

#include "nocprof/platform.h"

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* A change another core (or the outside) could see, at `cycle`. */
static void progress_at(MCore *mc, uint64_t cycle)
{
    if (mc->progress < cycle) {
        mc->prev_polled = mc->polled;
        mc->prev_poll_from = mc->poll_from;
        mc->prev_again = mc->again;
        mc->prev_again_at = mc->again_at;
    }
    mc->progress = cycle;
    mc->polled = mc->again = false;
    core_watch_console(mc->core, false);
}

/* The core starts (or goes on) waiting at `cycle`. */
static void waited_at(MCore *mc, uint64_t cycle, unsigned kind, uint32_t pc, bool asleep)
{
    mc->w_kind = kind;
    mc->w_pc = pc;
    mc->w_asleep = asleep;
    if (!mc->polled) {
        mc->polled = true;
        mc->poll_from = cycle;
        core_watch_console(mc->core, true);
    } else if (!mc->again) {
        mc->again = true;
        mc->again_at = cycle;
    }
}

/* When o waited again after its first wait (UINT64_MAX: not yet), as of
 * before its last progress or now. A core asleep in a skipped poll loop
 * polls again at its first skipped iteration (reported when it wakes). */
static uint64_t again_from(const MCore *o, bool before_progress) NP_REQUIRES(mach_sched_lock)
{
    uint64_t at = UINT64_MAX;
    if (before_progress ? o->prev_again : o->again)
        at = before_progress ? o->prev_again_at : o->again_at;
    if (!before_progress && o->polling)
        at = MIN(at, o->p_start + o->p_off);
    return at;
}

/* Core o had only waited (polled an NI in vain, slept in `wait`, run
 * interrupt handlers meanwhile) with no change another core could see for
 * at least L cycles, as of cycle t - 1: its events at t itself may or may
 * not have happened yet, so they are not looked at (the verdict is the
 * same in every schedule). A core in `wait` that nothing but the network
 * can wake is stuck however long it has slept. */
static bool stuck_before(const MCore *o, uint64_t t, uint64_t L) NP_REQUIRES(mach_sched_lock)
{
    if (o->st == MC_IDLE && !o->polling && !o->woken && o->wake_t == UINT64_MAX)
        return true;
    bool before = o->progress >= t;
    bool polled = before ? o->prev_polled : o->polled;
    uint64_t from = before ? o->prev_poll_from : o->poll_from;
    return polled && from < t && t - from >= L && again_from(o, before) < t;
}

/* When a flit last moved; UINT64_MAX: none ever did. An empty network
 * counts its last move too: a packet ejected into a receive queue is seen
 * by its receiver's next poll (a sender that then exits is done, not
 * stuck, and its packet is the progress). */
uint64_t mach_net_last_move(const Machine *m) NP_REQUIRES(mach_sched_lock)
{
    uint64_t last = noc_last_move(m->noc);
    return noc_quiescent(m->noc) && last == 0 ? UINT64_MAX : last;
}

/* The network changed nothing for L cycles before t (the network has been
 * simulated up to t at every check); the caller then asks whether it
 * will move by itself (net_on_its_way). */
static bool net_still(const Machine *m, uint64_t t, uint64_t L) NP_REQUIRES(mach_sched_lock)
{
    uint64_t last = mach_net_last_move(m);
    return last == UINT64_MAX || last + L < t;
}

/* A flit is on its way (a router or link latency longer than L, a packet
 * stamped later): the network will move by itself, nothing is stuck. Not
 * so for flits blocked behind a full queue (noc_next_activity: never). */
static bool net_on_its_way(const Machine *m) NP_REQUIRES(mach_sched_lock)
{
    return noc_next_activity(m->noc) != UINT64_MAX;
}

void mach_livelock_check(Machine *m, uint64_t t) NP_REQUIRES(mach_sched_lock)
{
    uint64_t L = m->cfg->livelock_cycles;
    if (L == 0 || t < L || m->sched->halting || !net_still(m, t, L))
        return;
    for (unsigned i = 0; i < m->ncores; i++) {
        /* a core stopped at the cycle limit is judged as of t like a live
         * one (it ran there without a sync point, so its state is still
         * that of t): one asleep until a timer past the limit is asleep,
         * not stuck, and the run ends at the limit, not in a livelock */
        const MCore *o = &m->sched->mc[i];
        bool done = o->st == MC_DONE && core_state(o->core) != CORE_LIMIT;
        if (!done && !stuck_before(o, t, L))
            return;
    }
    if (net_on_its_way(m))
        return;
    m->deadlock = m->livelock = true;
    m->end_cycle = t;
    mach_start_halt(m, CORE_DEADLOCK, true);
}

uint64_t mach_livelock_due(const Machine *m, const MCore *mc) NP_REQUIRES(mach_sched_lock)
{
    uint64_t L = m->cfg->livelock_cycles;
    if (L == 0 || !mc->polled)
        return UINT64_MAX;
    uint64_t due = sat_add(mc->poll_from, L), again = again_from(mc, false);
    if (again == UINT64_MAX)
        return UINT64_MAX; /* one wait so far: looked at when it ends */
    due = MAX(due, again + 1);
    uint64_t last = mach_net_last_move(m), next = noc_next_activity(m->noc);
    if (next != UINT64_MAX) /* a flit on its way: still from then on, at best */
        last = last == UINT64_MAX ? next : MAX(last, next);
    if (last != UINT64_MAX)
        due = MAX(due, sat_add(last, L + 1));
    return due;
}

void mach_waited(MCore *mc)
{
    Core *c = mc->core;
    uint32_t en = core_irq_enabled(c);
    /* what could end the wait besides its own timer: a packet, room to
     * send (then like rt_recv / rt_send), or else any interrupt */
    unsigned kind = en & NP_IRQ_NOC_RX ? MACH_WAIT_RX : en & NP_IRQ_NOC_TX ? MACH_WAIT_TX : MACH_WAIT_IRQ;
    waited_at(mc, core_cycles(c), kind, core_pc(c) - 4, true);
}

void mach_progress(void *opaque, Core *core, uint64_t t)
{
    (void)core;
    progress_at(opaque, t);
}

/* NiObserver: polls and progress of one core's NI. */
void mach_ni_event(void *opaque, const NiEvent *ev)
{
    MCore *mc = opaque;
    if (ev->kind == NI_EV_READY_RX || ev->kind == NI_EV_READY_TX)
        return; /* a status read that found something: not a change */
    if (ev->kind == NI_EV_POLL_RX || ev->kind == NI_EV_POLL_TX) {
        waited_at(mc, ev->cycle, ev->kind == NI_EV_POLL_RX ? MACH_WAIT_RX : MACH_WAIT_TX, ev->pc, false);
        return;
    }
    progress_at(mc, ev->cycle);
}

/* A failed iteration of a spin on RAM (block_spin_failed): a wait like a
 * failed NI poll, at a sync point in every schedule. */
void mach_spun(MCore *mc, uint64_t t, uint32_t pc, uint32_t addr) NP_REQUIRES(mach_sched_lock)
{
    waited_at(mc, t, MACH_WAIT_RAM, pc, false);
    mc->w_addr = addr;
}

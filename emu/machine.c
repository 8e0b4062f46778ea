/* machine.c — lockstep scheduler over the cores and the network. */
#include "machine.h"
#include "dev_ni.h"

/* CoreSched.at_sync: a core reaching a sync block at or past the end of
 * the current quantum stops there until the network has caught up. */
static bool at_sync(void *opaque, const Core *core, uint64_t t)
{
    const Machine *m = opaque;
    return t >= m->sync_end;
}

Machine *machine_new(const Config *cfg, ElfImage *const *imgs, ConsoleFn console_fn,
                     void *console_opaque, GError **error)
{
    Machine *m = g_new0(Machine, 1);
    m->cfg = cfg;
    m->ncores = config_cores(cfg);
    NocConfig nc = {
        .width = cfg->mesh_width, .height = cfg->mesh_height,
        .router_latency = cfg->router_latency, .link_latency = cfg->link_latency,
        .buffer_depth = cfg->buffer_depth, .max_payload = cfg->max_payload,
        .tx_queue_flits = cfg->tx_queue_flits, .rx_queue_flits = cfg->rx_queue_flits,
    };
    m->noc = noc_new(&nc);
    m->cores = g_new0(Core *, m->ncores);
    for (unsigned i = 0; i < m->ncores; i++) {
        m->cores[i] = core_new(i, cfg, imgs[i], console_fn, console_opaque, error);
        if (!m->cores[i]) {
            machine_free(m);
            return NULL;
        }
        NiDev *ni = dev_ni_new(m->noc, i, m->ncores, cfg->max_payload);
        core_map_device(m->cores[i], CORE_DEV_NI, &dev_ni_ops, ni, dev_ni_irq);
        core_set_sched(m->cores[i], &(CoreSched){ .opaque = m, .at_sync = at_sync });
    }
    return m;
}

void machine_free(Machine *m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < m->ncores; i++)
        core_free(m->cores[i]);
    g_free(m->cores);
    noc_free(m->noc);
    g_free(m);
}

/* Run core c to at least `until`, through any number of wait/wake
 * episodes; a running core that does not touch the network may run on to
 * `horizon`. A core that takes network interrupts stays in lockstep. */
static void advance_core(Machine *m, Core *c, uint64_t until, uint64_t horizon)
{
    m->sync_end = until;
    while (core_live(c) && core_cycles(c) < until) {
        if (core_state(c) == CORE_RUNNING)
            core_run(c, core_irq_network(c) ? until : horizon);
        else {
            core_idle(c, until);
            if (core_state(c) == CORE_IDLE)
                break;
        }
    }
}

/* With every live core idle: the earliest cycle anything can change, or
 * UINT64_MAX if nothing ever can. */
static uint64_t next_wakeup(const Machine *m)
{
    uint64_t next = noc_next_activity(m->noc);
    for (unsigned i = 0; i < m->ncores; i++) {
        const Core *c = m->cores[i];
        if (core_state(c) == CORE_RUNNING || (core_state(c) == CORE_IDLE && core_irq_wanted(c)))
            return m->now;
        if (core_state(c) == CORE_IDLE)
            next = MIN(next, core_wake_cycle(c));
    }
    return next;
}

static bool any_live(const Machine *m, bool *all_idle)
{
    bool live = false;
    *all_idle = true;
    for (unsigned i = 0; i < m->ncores; i++) {
        if (core_live(m->cores[i]))
            live = true;
        if (core_state(m->cores[i]) == CORE_RUNNING)
            *all_idle = false;
    }
    return live;
}

void machine_run(Machine *m, volatile sig_atomic_t *interrupted)
{
    const uint64_t q = m->cfg->quantum;
    bool all_idle;
    while (any_live(m, &all_idle)) {
        if (interrupted && *interrupted) {
            for (unsigned i = 0; i < m->ncores; i++)
                core_halt(m->cores[i], CORE_INTERRUPTED);
            break;
        }
        if (all_idle) {
            uint64_t next = next_wakeup(m);
            if (next == UINT64_MAX && noc_quiescent(m->noc)) {
                m->deadlock = true;
                for (unsigned i = 0; i < m->ncores; i++)
                    core_halt(m->cores[i], CORE_DEADLOCK);
                break;
            }
            /* skip whole quanta in which nothing can happen */
            if (next != UINT64_MAX && next > m->now + q) {
                uint64_t skip_to = m->now + (next - m->now) / q * q;
                skip_to = MIN(skip_to, m->now + (m->cfg->max_cycles / q + 1) * q);
                for (unsigned i = 0; i < m->ncores; i++)
                    advance_core(m, m->cores[i], skip_to, skip_to);
                noc_run_until(m->noc, skip_to);
                m->now = skip_to;
                continue;
            }
        }
        uint64_t end = m->now + q;
        for (unsigned i = 0; i < m->ncores; i++)
            advance_core(m, m->cores[i], end, m->now + q * MACHINE_HORIZON_QUANTA);
        noc_run_until(m->noc, end);
        m->now = end;
    }
    machine_flush_console(m);
}

void machine_flush_console(Machine *m)
{
    for (unsigned i = 0; i < m->ncores; i++)
        core_flush_console(m->cores[i]);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* dev_ni.c — NI: stage and send packets, receive them (SPEC section 1).
 * The only emu file that includes noc.h. Misuse (sending nothing, a full
 * injection queue, reading with nothing waiting, ...) rejects the access
 * with an "ni-misuse" fault. */
#include "emu/dev_ni.h"
#include "emu/dev.h"
#include "noc/noc.h"

#include "nocprof/platform.h"

#define NI_MAX_OBSERVERS 4

struct NiDev {
    Noc *noc;
    unsigned id, ncores, max_payload;
    unsigned tx_dest, nstaged;
    uint32_t *staged;
    unsigned nobs;
    NiObserver obs[NI_MAX_OBSERVERS];
    void *obs_opaque[NI_MAX_OBSERVERS];
};

void dev_ni_observe(NiDev *n, NiObserver fn, void *opaque)
{
    g_return_if_fail(n->nobs < NI_MAX_OBSERVERS);
    n->obs[n->nobs] = fn;
    n->obs_opaque[n->nobs++] = opaque;
}

static void emit_at(NiDev *n, const DevAccess *a, NiEventKind kind, unsigned peer, unsigned words, uint64_t sent,
                    uint64_t delivered)
{
    NiEvent ev = { .kind = kind, .core = n->id, .peer = peer, .words = words,
                   .cycle = a->now, .pc = a->pc, .sent = sent, .delivered = delivered, .count = 1,
                   .until = a->now };
    for (unsigned i = 0; i < n->nobs; i++)
        n->obs[i](n->obs_opaque[i], &ev);
}

static void emit(NiDev *n, const DevAccess *a, NiEventKind kind, unsigned peer, unsigned words, uint64_t sent)
{
    emit_at(n, a, kind, peer, words, sent, 0);
}

NiDev *dev_ni_new(Noc *noc, unsigned id, unsigned ncores, unsigned max_payload)
{
    NiDev *n = g_new0(NiDev, 1);
    n->noc = noc;
    n->id = id;
    n->ncores = ncores;
    n->max_payload = max_payload;
    n->staged = g_new0(uint32_t, max_payload ? max_payload : 1);
    return n;
}

static void ni_free(void *opaque)
{
    NiDev *n = opaque;
    g_free(n->staged);
    g_free(n);
}

static bool tx_ready(const NiDev *n)
{
    return noc_tx_free_flits(n->noc, n->id) >= n->max_payload + 1;
}

uint32_t dev_ni_irq(void *ni)
{
    const NiDev *n = ni;
    uint32_t p = 0;
    if (noc_rx_packets(n->noc, n->id))
        p |= NP_IRQ_NOC_RX;
    if (tx_ready(n))
        p |= NP_IRQ_NOC_TX;
    return p;
}

static void misuse(DevAccess *a, const char *rule)
{
    a->fault_kind = "ni-misuse";
    a->fault_msg = g_strdup_printf("NI misuse at pc 0x%08x: %s", a->pc, rule);
}

static bool ni_read(void *opaque, DevAccess *a, uint32_t *v)
{
    NiDev *n = opaque;
    unsigned src, len, rem;
    uint64_t sent = 0, delivered;
    switch (a->reg) {
    case NP_NI_TX_STATUS:
        *v = tx_ready(n) ? 1 : 0;
        if (!*v) {
            emit(n, a, NI_EV_POLL_TX, 0, 0, 0);
            a->poll = a->poll_tx = true;
        } else {
            emit(n, a, NI_EV_READY_TX, 0, 0, 0);
        }
        return true;
    case NP_NI_RX_COUNT:
    case NP_NI_RX_SRC:
    case NP_NI_RX_LEN:
        if (!noc_rx_head(n->noc, n->id, &src, &len, &rem)) {
            *v = 0;
            emit(n, a, NI_EV_POLL_RX, 0, 0, 0);
            a->poll = true;
        } else {
            *v = a->reg == NP_NI_RX_COUNT ? noc_rx_packets(n->noc, n->id) : a->reg == NP_NI_RX_SRC ? src : len;
            emit(n, a, NI_EV_READY_RX, 0, 0, 0);
        }
        return true;
    case NP_NI_RX_DATA:
        *v = 0;
        if (!noc_rx_head(n->noc, n->id, &src, &len, &rem)) {
            misuse(a, "RX_DATA read with no packet waiting");
            return true;
        }
        noc_rx_head_times(n->noc, n->id, &sent, &delivered);
        noc_rx_pop(n->noc, n->id, v);
        if (rem == 1)
            emit_at(n, a, NI_EV_RECV, src, len, sent, delivered);
        a->changed = true;
        return true;
    case NP_NI_TX_DEST: dev_wrong_direction(a, "NI", "TX_DEST", false); return true;
    case NP_NI_TX_DATA: dev_wrong_direction(a, "NI", "TX_DATA", false); return true;
    case NP_NI_TX_SEND: dev_wrong_direction(a, "NI", "TX_SEND", false); return true;
    case NP_NI_RX_DROP: dev_wrong_direction(a, "NI", "RX_DROP", false); return true;
    default:
        return false;
    }
}

static void ni_send(NiDev *n, DevAccess *a)
{
    if (n->nstaged == 0) {
        misuse(a, "TX_SEND with nothing staged");
        return;
    }
    if (!noc_send(n->noc, n->id, n->tx_dest, n->staged, n->nstaged, MAX(a->now, noc_now(n->noc)))) {
        misuse(a, "TX_SEND with a full injection queue (poll TX_STATUS first)");
        return;
    }
    emit(n, a, NI_EV_SEND, n->tx_dest, n->nstaged, 0);
    n->nstaged = 0;
}

static bool ni_write(void *opaque, DevAccess *a, uint32_t v)
{
    NiDev *n = opaque;
    switch (a->reg) {
    case NP_NI_TX_DEST:
        if (v >= n->ncores) {
            g_autofree char *m = g_strdup_printf("TX_DEST %u out of range (cores 0 .. %u)", v, n->ncores - 1);
            misuse(a, m);
        } else {
            n->tx_dest = v;
        }
        return true;
    case NP_NI_TX_DATA:
        if (n->nstaged >= n->max_payload) {
            g_autofree char *m = g_strdup_printf("TX_DATA staging more than max_payload (%u) words",
                                                 n->max_payload);
            misuse(a, m);
        } else {
            n->staged[n->nstaged++] = v;
        }
        return true;
    case NP_NI_TX_SEND:
        ni_send(n, a);
        return true;
    case NP_NI_RX_DROP: {
        unsigned src, len, rem;
        uint64_t sent = 0, delivered;
        if (!noc_rx_head(n->noc, n->id, &src, &len, &rem)) {
            misuse(a, "RX_DROP with no packet waiting");
            return true;
        }
        noc_rx_head_times(n->noc, n->id, &sent, &delivered);
        noc_rx_drop(n->noc, n->id);
        emit_at(n, a, NI_EV_DROP, src, len, sent, delivered);
        return true;
    }
    case NP_NI_TX_STATUS: dev_wrong_direction(a, "NI", "TX_STATUS", true); return true;
    case NP_NI_RX_COUNT: dev_wrong_direction(a, "NI", "RX_COUNT", true); return true;
    case NP_NI_RX_SRC: dev_wrong_direction(a, "NI", "RX_SRC", true); return true;
    case NP_NI_RX_LEN: dev_wrong_direction(a, "NI", "RX_LEN", true); return true;
    case NP_NI_RX_DATA: dev_wrong_direction(a, "NI", "RX_DATA", true); return true;
    default:
        return false;
    }
}

const DevOps dev_ni_ops = { .read = ni_read, .write = ni_write, .free = ni_free, .sync = true };

void dev_ni_emit_polls(NiDev *n, bool tx, uint32_t pc, uint64_t first, uint64_t period, uint64_t count)
{
    NiEvent ev = { .kind = tx ? NI_EV_POLL_TX : NI_EV_POLL_RX, .core = n->id, .cycle = first, .pc = pc,
                   .count = count, .until = first + (count - 1) * period, .period = period };
    for (unsigned i = 0; i < n->nobs; i++)
        n->obs[i](n->obs_opaque[i], &ev);
}

bool dev_ni_poll_ready(const NiDev *n, bool tx)
{
    return tx ? tx_ready(n) : noc_rx_packets(n->noc, n->id) > 0;
}

/* dev_ni.c — NI: stage and send packets, receive them (SPEC section 1).
 * The only emu file that includes noc.h. Misuse (sending nothing, a full
 * injection queue, reading with nothing waiting, ...) rejects the access
 * with an "ni-misuse" fault. */
#include "dev_ni.h"
#include "dev.h"
#include "noc.h"

#include "nocprof/platform.h"

struct NiDev {
    Noc *noc;
    unsigned id, ncores, max_payload;
    unsigned tx_dest, nstaged;
    uint32_t *staged;
};

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
    switch (a->reg) {
    case NP_NI_TX_STATUS: *v = tx_ready(n) ? 1 : 0; return true;
    case NP_NI_RX_COUNT: *v = noc_rx_packets(n->noc, n->id); return true;
    case NP_NI_RX_SRC:
        *v = noc_rx_head(n->noc, n->id, &src, &len, &rem) ? src : 0;
        return true;
    case NP_NI_RX_LEN:
        *v = noc_rx_head(n->noc, n->id, &src, &len, &rem) ? len : 0;
        return true;
    case NP_NI_RX_DATA:
        *v = 0;
        if (!noc_rx_pop(n->noc, n->id, v)) {
            misuse(a, "RX_DATA read with no packet waiting");
            return true;
        }
        a->changed = true;
        return true;
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
    case NP_NI_RX_DROP:
        if (!noc_rx_drop(n->noc, n->id))
            misuse(a, "RX_DROP with no packet waiting");
        return true;
    default:
        return false;
    }
}

const DevOps dev_ni_ops = { .read = ni_read, .write = ni_write, .free = ni_free, .sync = true };

/* comm_text.c — OUT/comm.txt: the communication profile for people. */
#include <inttypes.h>

#include "comm_report.h"

#define TOP_FUNCS 10
#define TOP_PARTNERS 5

static uint64_t bsum(const uint64_t *b)
{
    return b[COMM_POLL_RX] + b[COMM_WAIT_TX] + b[COMM_WAIT_IRQ];
}

static void core_funcs(GString *o, const CommCoreReport *cr)
{
    g_string_append_printf(o, "  %-22s %10s %10s %10s %10s %10s %10s %13s %13s\n", "function", "self", "blocked",
                           "poll_rx", "wait_tx", "wait_irq", "busy", "sent pk/fl", "recv pk/fl");
    for (unsigned j = 0; j < cr->nfuncs && j < TOP_FUNCS; j++) {
        const CommFunc *f = &cr->funcs[j];
        uint64_t in_self = f->blocked[COMM_POLL_RX] + f->blocked[COMM_WAIT_TX];
        g_autofree char *sent = g_strdup_printf("%" PRIu64 "/%" PRIu64, f->sent_packets, f->sent_flits);
        g_autofree char *recv = g_strdup_printf("%" PRIu64 "/%" PRIu64, f->recv_packets, f->recv_flits);
        g_string_append_printf(o, "  %-22s %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
                               " %10" PRIu64 " %13s %13s\n", f->name, f->self_cycles, bsum(f->blocked),
                               f->blocked[COMM_POLL_RX], f->blocked[COMM_WAIT_TX], f->blocked[COMM_WAIT_IRQ],
                               f->self_cycles > in_self ? f->self_cycles - in_self : 0, sent, recv);
    }
    if (cr->nfuncs > TOP_FUNCS)
        g_string_append_printf(o, "  (%u more functions in summary.json)\n", cr->nfuncs - TOP_FUNCS);
}

static void core_partners(GString *o, const CommCoreReport *cr)
{
    if (!cr->npartners)
        return;
    g_string_append(o, "  waited for (receiving function <- sender core, sending function):\n");
    for (unsigned j = 0; j < cr->npartners && j < TOP_PARTNERS; j++) {
        const CommPartner *p = &cr->partners[j];
        g_string_append_printf(o, "    %s <- core %u %s: %" PRIu64 " packets (%" PRIu64 " waited for), late sender %"
                               PRIu64 ", network %" PRIu64 ", late receiver %" PRIu64 " cycles\n", p->recv_func,
                               p->src, p->send_func, p->w.packets, p->w.waited, p->w.late_sender, p->w.network,
                               p->w.late_receiver);
    }
    if (cr->npartners > TOP_PARTNERS)
        g_string_append_printf(o, "    (%u more in summary.json)\n", cr->npartners - TOP_PARTNERS);
}

static void matrix(GString *o, const CommReport *r)
{
    g_string_append(o, "Late-sender cycles (row: receiving core, column: sending core)\n");
    g_string_append_printf(o, "  %8s", "");
    for (unsigned s = 0; s < r->ncores; s++) {
        g_autofree char *h = g_strdup_printf("core%u", s);
        g_string_append_printf(o, " %10s", h);
    }
    g_string_append_c(o, '\n');
    for (unsigned d = 0; d < r->ncores; d++) {
        g_string_append_printf(o, "  core%-4u", d);
        for (unsigned s = 0; s < r->ncores; s++)
            g_string_append_printf(o, " %10" PRIu64, r->pairs[(size_t)s * r->ncores + d].late_sender);
        g_string_append_c(o, '\n');
    }
    g_string_append(o, "\nPairs (sender -> receiver): packets, late sender, network, late receiver cycles\n");
    for (unsigned s = 0; s < r->ncores; s++)
        for (unsigned d = 0; d < r->ncores; d++) {
            const CommWait *w = &r->pairs[(size_t)s * r->ncores + d];
            if (w->packets)
                g_string_append_printf(o, "  core%u -> core%u: %" PRIu64 " packets, late sender %" PRIu64
                                       ", network %" PRIu64 ", late receiver %" PRIu64 "\n", s, d, w->packets,
                                       w->late_sender, w->network, w->late_receiver);
        }
}

static void chain(GString *o, const CommReport *r)
{
    uint64_t end = r->ncores ? r->cores[r->last_core].finish : 0;
    g_string_append_printf(o, "\nCritical chain: the waits that set the finish of core %u (last to finish, cycle %"
                           PRIu64 ")\n", r->last_core, end);
    if (!r->nchain)
        g_string_append_printf(o, "  core %u never waited for a packet: its own work sets the finish\n",
                               r->last_core);
    for (unsigned i = 0; i < r->nchain; i++) {
        const CommStep *s = &r->chain[i];
        g_string_append_printf(o, "  %u. core %u waited from cycle %" PRIu64 " in %s\n"
                               "     for core %u's packet sent at %" PRIu64 " by %s,\n"
                               "     delivered %" PRIu64 ", consumed %" PRIu64 ": late sender %" PRIu64
                               ", network %" PRIu64 ", late receiver %" PRIu64 "\n", i + 1, s->core, s->tw,
                               s->recv_path, s->src, s->ts, s->send_path, s->td, s->tc,
                               s->ts > s->tw ? s->ts - s->tw : 0, s->td - s->ts, s->tc - s->td);
    }
    if (r->nchain) {
        const CommStep *first = &r->chain[0], *last = &r->chain[r->nchain - 1];
        g_string_append_printf(o, "  The chain starts with core %u's work up to cycle %" PRIu64 " (in %s).\n"
                               "  Core %u then ran %" PRIu64 " cycles after its last wait (%.1f%% of its %" PRIu64
                               " cycles) in %s:\n  %s.\n", first->src, first->ts, first->send_path, last->core,
                               end - last->tc, end ? 100.0 * (double)(end - last->tc) / (double)end : 0.0, end,
                               last->recv_path, end - last->tc >= last->tc - last->tw
                                   ? "its own work after the last wait, not the network, sets the finish time"
                                   : "the waits of the chain set the finish time");
    }
    if (r->chain_truncated)
        g_string_append(o, "  (packet records were limited by --trace-limit: the chain may be incomplete)\n");
}

GString *comm_text(const CommReport *r)
{
    GString *o = g_string_new("Communication profile: the NoC charged to the code (nocprof)\n"
                              "Exact core cycles. blocked = poll_rx + wait_tx + wait_irq; poll_rx and wait_tx are part "
                              "of self, busy = self - poll_rx - wait_tx;\nwait_irq is `wait` with NoC interrupts "
                              "enabled (counted in <idle>). Definitions: docs/reports.md.\n\n");
    for (unsigned i = 0; i < r->ncores; i++) {
        const CommCoreReport *cr = &r->cores[i];
        g_string_append_printf(o, "Core %u (finished at cycle %" PRIu64 "): blocked %" PRIu64 " cycles (poll_rx %"
                               PRIu64 ", wait_tx %" PRIu64 ", wait_irq %" PRIu64 "); %" PRIu64 " failed RX polls, %"
                               PRIu64 " failed TX polls\n", cr->id, cr->finish, bsum(cr->blocked),
                               cr->blocked[COMM_POLL_RX], cr->blocked[COMM_WAIT_TX],
                               cr->blocked[COMM_WAIT_IRQ], cr->polls_rx, cr->polls_tx);
        if (cr->nfuncs)
            core_funcs(o, cr);
        core_partners(o, cr);
        g_string_append_c(o, '\n');
    }
    matrix(o, r);
    chain(o, r);
    if (r->unmatched)
        g_string_append_printf(o, "\n%" PRIu64 " packets consumed without a recorded send (internal error)\n",
                               r->unmatched);
    return o;
}

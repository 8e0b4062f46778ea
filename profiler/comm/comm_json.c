// SPDX-License-Identifier: GPL-2.0-or-later
/* comm_json.c — the "communication" member of summary.json (SPEC 6). */
#include "base/json.h"
#include "profiler/comm/comm_report.h"

static void blocked(NpJson *b, const uint64_t *k)
{
    npjson_member_object(b, "blocked_cycles");
    npjson_member_u64(b, "total", k[COMM_POLL_RX] + k[COMM_WAIT_TX] + k[COMM_WAIT_IRQ]);
    npjson_member_u64(b, "poll_rx", k[COMM_POLL_RX]);
    npjson_member_u64(b, "wait_tx", k[COMM_WAIT_TX]);
    npjson_member_u64(b, "wait_irq", k[COMM_WAIT_IRQ]);
    npjson_end_object(b);
}

static void figures(NpJson *b, uint64_t self, const uint64_t *k, uint64_t sp, uint64_t sf, uint64_t rp,
                    uint64_t rf)
{
    uint64_t in_self = k[COMM_POLL_RX] + k[COMM_WAIT_TX];
    npjson_member_u64(b, "self_cycles", self);
    npjson_member_u64(b, "busy_cycles", self > in_self ? self - in_self : 0);
    npjson_member_u64(b, "sent_packets", sp);
    npjson_member_u64(b, "sent_flits", sf);
    npjson_member_u64(b, "received_packets", rp);
    npjson_member_u64(b, "received_flits", rf);
    blocked(b, k);
}

static void waits(NpJson *b, const CommWait *w)
{
    npjson_member_u64(b, "packets", w->packets);
    npjson_member_u64(b, "waited_packets", w->waited);
    npjson_member_u64(b, "late_sender_cycles", w->late_sender);
    npjson_member_u64(b, "network_cycles", w->network);
    npjson_member_u64(b, "late_receiver_cycles", w->late_receiver);
}

static void core_full(NpJson *b, const CommCoreReport *cr);

static void core(NpJson *b, const CommCoreReport *cr, bool full)
{
    npjson_begin_object(b);
    npjson_member_u64(b, "id", cr->id);
    npjson_member_u64(b, "finish_cycle", cr->finish);
    blocked(b, cr->blocked);
    npjson_member_u64(b, "failed_polls_rx", cr->polls_rx);
    npjson_member_u64(b, "failed_polls_tx", cr->polls_tx);
    npjson_member_array(b, "functions");
    for (unsigned j = 0; j < cr->nfuncs; j++) {
        const CommFunc *f = &cr->funcs[j];
        npjson_begin_object(b);
        npjson_member_string(b, "name", f->name);
        figures(b, f->self_cycles, f->blocked, f->sent_packets, f->sent_flits, f->recv_packets, f->recv_flits);
        npjson_end_object(b);
    }
    npjson_end_array(b);
    npjson_member_array(b, "paths");
    for (unsigned j = 0; j < cr->npaths; j++) {
        const CommPath *p = &cr->paths[j];
        npjson_begin_object(b);
        npjson_member_string(b, "path", p->path);
        figures(b, p->self_cycles, p->blocked, p->sent_packets, p->sent_flits, p->recv_packets, p->recv_flits);
        npjson_end_object(b);
    }
    npjson_end_array(b);
    npjson_member_array(b, "partners");
    for (unsigned j = 0; j < cr->npartners; j++) {
        const CommPartner *p = &cr->partners[j];
        npjson_begin_object(b);
        npjson_member_string(b, "function", p->recv_func);
        npjson_member_u64(b, "src", p->src);
        npjson_member_string(b, "src_function", p->send_func);
        waits(b, &p->w);
        npjson_end_object(b);
    }
    npjson_end_array(b);
    if (full)
        core_full(b, cr);
    npjson_end_object(b);
}

/* What profile.data keeps besides: per-line figures, and how many
 * packets have no trace flow (the flows themselves are saved apart:
 * profiler/data/profile_data_comm.c). */
static void core_full(NpJson *b, const CommCoreReport *cr)
{
    npjson_member_array(b, "lines");
    for (unsigned j = 0; j < cr->nlines; j++) {
        npjson_begin_object(b);
        npjson_member_u64(b, "pc", cr->lines[j].pc);
        npjson_member_u64(b, "blocked", cr->lines[j].blocked);
        npjson_member_u64(b, "sent", cr->lines[j].sent);
        npjson_member_u64(b, "received", cr->lines[j].recv);
        npjson_end_object(b);
    }
    npjson_end_array(b);
    npjson_member_u64(b, "flows_dropped", cr->flows_dropped);
}

static void chain(NpJson *b, const CommReport *r)
{
    npjson_member_object(b, "critical_chain");
    npjson_member_u64(b, "last_core", r->last_core);
    npjson_member_u64(b, "finish_cycle", r->ncores ? r->cores[r->last_core].finish : 0);
    npjson_member_bool(b, "truncated", r->chain_truncated);
    npjson_member_array(b, "steps");
    for (unsigned i = 0; i < r->nchain; i++) {
        const CommStep *s = &r->chain[i];
        npjson_begin_object(b);
        npjson_member_u64(b, "core", s->core);
        npjson_member_string(b, "function", s->recv_func);
        npjson_member_string(b, "path", s->recv_path);
        npjson_member_u64(b, "src", s->src);
        npjson_member_string(b, "src_function", s->send_func);
        npjson_member_string(b, "src_path", s->send_path);
        npjson_member_u64(b, "wait_cycle", s->tw);
        npjson_member_u64(b, "sent_cycle", s->ts);
        npjson_member_u64(b, "delivered_cycle", s->td);
        npjson_member_u64(b, "consumed_cycle", s->tc);
        npjson_end_object(b);
    }
    npjson_end_array(b);
    npjson_end_object(b);
}

void comm_json(NpJson *b, const CommReport *r, bool full)
{
    npjson_begin_object(b);
    npjson_member_string(b, "definitions", "docs/reports.md#commtxt");
    npjson_member_array(b, "cores");
    for (unsigned i = 0; i < r->ncores; i++)
        core(b, &r->cores[i], full);
    npjson_end_array(b);
    npjson_member_array(b, "pairs");
    for (unsigned s = 0; s < r->ncores; s++)
        for (unsigned d = 0; d < r->ncores; d++) {
            const CommWait *w = &r->pairs[(size_t)s * r->ncores + d];
            if (!w->packets)
                continue;
            npjson_begin_object(b);
            npjson_member_u64(b, "src", s);
            npjson_member_u64(b, "dst", d);
            waits(b, w);
            npjson_end_object(b);
        }
    npjson_end_array(b);
    chain(b, r);
    if (full)
        npjson_member_u64(b, "unmatched", r->unmatched);
    npjson_end_object(b);
}

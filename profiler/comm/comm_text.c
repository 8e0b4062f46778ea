// SPDX-License-Identifier: GPL-2.0-or-later
/* comm_text.c — OUT/comm.txt: the communication profile for people. */
#include <inttypes.h>
#include <string.h>

#include "profiler/comm/comm_report.h"

#define TOP_FUNCS 10
#define TOP_PARTNERS 5
#define TOP_BUSY 3

typedef struct BusyPath {
    char *path;
    uint64_t busy;
} BusyPath;

static gint busy_desc(gconstpointer a, gconstpointer b)
{
    const BusyPath *x = a, *y = b;
    if (x->busy != y->busy)
        return x->busy > y->busy ? -1 : 1;
    return strcmp(x->path, y->path);
}

/* "_start;main;f": the functions from the root to context i. */
static char *prof_ctx_path(const Profile *p, size_t i)
{
    GPtrArray *names = g_ptr_array_new();
    for (unsigned depth = 0; depth < 4096; depth++) {
        g_ptr_array_add(names, (gpointer)(p->ctxs[i].func < p->nfuncs ? p->funcs[p->ctxs[i].func].name : "??"));
        if (i == 0 || p->ctxs[i].parent >= i)
            break;
        i = p->ctxs[i].parent;
    }
    GString *s = g_string_new(NULL);
    for (guint j = names->len; j-- > 0;) {   /* no printf per frame (issue 24) */
        g_string_append(s, (const char *)g_ptr_array_index(names, j));
        if (j)
            g_string_append_c(s, ';');
    }
    g_ptr_array_free(names, TRUE);
    return g_string_free(s, FALSE);
}

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

/* The paths of the last core's own work: self cycles not blocked
 * (poll_rx and wait_tx are in self; idle is not), whole run, the largest
 * first. The recorder keeps no per-path time line, so the stretch after
 * the last wait is not split out of the run: with a long stretch (the
 * case the sentence above flags) these are where it went. */
/* Into top[0..k): the k contexts of p of most self cycles among cand
 * (context indices, ascending), the largest first, ties in context order:
 * the first k of the stable sort of all of them (which sorted deep
 * recursion's 16,500 contexts per core to keep 48: issue 24). Returns how
 * many. */
static guint top_by_self(const Profile *p, const GArray *cand, size_t *top, guint k)
{
    guint n = 0;
    for (guint j = 0; j < cand->len; j++) {
        size_t i = g_array_index(cand, size_t, j);
        uint64_t self = p->ctxs[i].self;
        if (n == k && self <= p->ctxs[top[k - 1]].self)
            continue;
        guint at = n < k ? n++ : k - 1;
        for (; at > 0 && p->ctxs[top[at - 1]].self < self; at--)
            top[at] = top[at - 1];
        top[at] = i;
    }
    return n;
}

static void busiest(GString *o, const CommReport *r, const Profile *p)
{
    GHashTable *blocked = g_hash_table_new(g_str_hash, g_str_equal);
    const CommCoreReport *cr = &r->cores[r->last_core];
    uint64_t total = 0, in_blocked = 0;
    for (unsigned j = 0; j < cr->npaths; j++) {
        g_hash_table_insert(blocked, (gpointer)cr->paths[j].path, (gpointer)&cr->paths[j]);
        in_blocked += cr->paths[j].blocked[COMM_POLL_RX] + cr->paths[j].blocked[COMM_WAIT_TX];
    }
    /* a context's path costs its depth: only the contexts of most self
     * cycles get one (a runaway recursion has thousands, each thousands of
     * frames deep); busy <= self, so these hold the top ones */
    GArray *cand = g_array_sized_new(FALSE, FALSE, sizeof(size_t), (guint)p->nctxs);
    g_array_set_size(cand, (guint)p->nctxs);   /* filled in place: no call per context */
    guint ncand = 0;
    for (size_t i = 0; i < p->nctxs; i++) {
        const ProfCtx *c = &p->ctxs[i];
        if (!c->self || c->func >= p->nfuncs || p->funcs[c->func].pseudo)
            continue;
        total += c->self;
        g_array_index(cand, size_t, ncand++) = i;
    }
    g_array_set_size(cand, ncand);
    total = total > in_blocked ? total - in_blocked : 0;
    size_t most[16 * TOP_BUSY];
    guint nmost = top_by_self(p, cand, most, G_N_ELEMENTS(most));
    GArray *top = g_array_new(FALSE, FALSE, sizeof(BusyPath));
    for (guint k = 0; k < nmost; k++) {
        const ProfCtx *c = &p->ctxs[most[k]];
        char *path = prof_ctx_path(p, most[k]);
        const CommPath *cp = g_hash_table_lookup(blocked, path);
        uint64_t in_self = cp ? cp->blocked[COMM_POLL_RX] + cp->blocked[COMM_WAIT_TX] : 0;
        BusyPath b = { path, c->self > in_self ? c->self - in_self : 0 };
        g_array_append_val(top, b);
    }
    g_array_sort(top, busy_desc);
    g_string_append_printf(o, "  Core %u's own work (self cycles not blocked, whole run) went to:", r->last_core);
    for (guint j = 0; j < top->len && j < TOP_BUSY && g_array_index(top, BusyPath, j).busy; j++) {
        const BusyPath *b = &g_array_index(top, BusyPath, j);
        g_string_append_printf(o, "%s %s %" PRIu64 " (%.1f%%)", j ? "," : "", b->path, b->busy,
                               total ? 100.0 * (double)b->busy / (double)total : 0.0);
    }
    g_string_append(o, "\n");
    for (guint j = 0; j < top->len; j++)
        g_free(g_array_index(top, BusyPath, j).path);
    g_array_free(top, TRUE);
    g_array_free(cand, TRUE);
    g_hash_table_unref(blocked);
}

static void chain(GString *o, const CommReport *r, const Profile *last_prof)
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
                               "  Core %u's last wait (in %s) ended at cycle %" PRIu64 "; it then ran %" PRIu64
                               " more cycles (%.1f%% of its %" PRIu64 " cycles):\n  %s.\n", first->src, first->ts,
                               first->send_path, last->core, last->recv_path, last->tc, end - last->tc,
                               end ? 100.0 * (double)(end - last->tc) / (double)end : 0.0, end,
                               end - last->tc >= last->tc - last->tw
                                   ? "its own work after the last wait, not the network, sets the finish time"
                                   : "the waits of the chain set the finish time");
    }
    if (last_prof)
        busiest(o, r, last_prof);
    if (r->chain_truncated)
        g_string_append(o, "  (packet records were limited by --trace-limit: the chain may be incomplete)\n");
}

GString *comm_text(const CommReport *r, const Profile *const *profs, unsigned nprofs)
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
    chain(o, r, profs && r->last_core < nprofs ? profs[r->last_core] : NULL);
    if (r->unmatched)
        g_string_append_printf(o, "\n%" PRIu64 " packets consumed without a recorded send (internal error)\n",
                               r->unmatched);
    return o;
}

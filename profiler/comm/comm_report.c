// SPDX-License-Identifier: GPL-2.0-or-later
/* comm_report.c — the CommReport: freeing, and reading back the full JSON
 * form that profile.data keeps (comm_json(r, true)). */
#include "profiler/comm/comm_report.h"

#include <json-glib/json-glib.h>

#include "base/error.h"

void comm_report_free(CommReport *r)
{
    if (!r)
        return;
    for (unsigned i = 0; i < r->ncores; i++) {
        CommCoreReport *cr = &r->cores[i];
        g_free(cr->funcs);
        g_free(cr->paths);
        g_free(cr->partners);
        g_free(cr->lines);
        g_free(cr->flows);
    }
    g_free(r->cores);
    g_free(r->pairs);
    g_free(r->chain);
    if (r->strings)
        g_string_chunk_free(r->strings);
    g_free(r);
}

/* Reading: a missing or mistyped member sets bad (first name kept). */
typedef struct Rd {
    CommReport *r;
    const char *bad;
} Rd;

static uint64_t u64(Rd *d, JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;
    if (!n || json_node_get_value_type(n) != G_TYPE_INT64 || json_node_get_int(n) < 0) {
        if (!d->bad)
            d->bad = name;
        return 0;
    }
    return (uint64_t)json_node_get_int(n);
}

static const char *str(Rd *d, JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;
    if (!n || json_node_get_value_type(n) != G_TYPE_STRING) {
        if (!d->bad)
            d->bad = name;
        return "??";
    }
    return g_string_chunk_insert_const(d->r->strings, json_node_get_string(n));
}

static JsonArray *arr(Rd *d, JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;
    if (!n || !JSON_NODE_HOLDS_ARRAY(n)) {
        if (!d->bad)
            d->bad = name;
        return NULL;
    }
    return json_node_get_array(n);
}

static JsonObject *obj(Rd *d, JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;
    if (!n || !JSON_NODE_HOLDS_OBJECT(n)) {
        if (!d->bad)
            d->bad = name;
        return NULL;
    }
    return json_node_get_object(n);
}

static unsigned len(JsonArray *a)
{
    return a ? json_array_get_length(a) : 0;
}

static JsonObject *at(JsonArray *a, unsigned i)
{
    JsonNode *n = json_array_get_element(a, i);
    return JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static void blocked(Rd *d, JsonObject *o, uint64_t *k)
{
    JsonObject *b = obj(d, o, "blocked_cycles");
    k[COMM_POLL_RX] = u64(d, b, "poll_rx");
    k[COMM_WAIT_TX] = u64(d, b, "wait_tx");
    k[COMM_WAIT_IRQ] = u64(d, b, "wait_irq");
}

static void waits(Rd *d, JsonObject *o, CommWait *w)
{
    w->packets = u64(d, o, "packets");
    w->waited = u64(d, o, "waited_packets");
    w->late_sender = u64(d, o, "late_sender_cycles");
    w->network = u64(d, o, "network_cycles");
    w->late_receiver = u64(d, o, "late_receiver_cycles");
}

#define FIGURES(d, o, x)                                                                                      \
    do {                                                                                                      \
        (x)->self_cycles = u64(d, o, "self_cycles");                                                          \
        (x)->sent_packets = u64(d, o, "sent_packets");                                                        \
        (x)->sent_flits = u64(d, o, "sent_flits");                                                            \
        (x)->recv_packets = u64(d, o, "received_packets");                                                    \
        (x)->recv_flits = u64(d, o, "received_flits");                                                        \
        blocked(d, o, (x)->blocked);                                                                          \
    } while (0)

static void read_lists(Rd *d, JsonObject *o, CommCoreReport *cr)
{
    JsonArray *a = arr(d, o, "functions");
    cr->nfuncs = len(a);
    cr->funcs = g_new0(CommFunc, cr->nfuncs + 1);
    for (unsigned j = 0; j < cr->nfuncs; j++) {
        cr->funcs[j].name = str(d, at(a, j), "name");
        FIGURES(d, at(a, j), &cr->funcs[j]);
    }
    a = arr(d, o, "paths");
    cr->npaths = len(a);
    cr->paths = g_new0(CommPath, cr->npaths + 1);
    for (unsigned j = 0; j < cr->npaths; j++) {
        cr->paths[j].path = str(d, at(a, j), "path");
        FIGURES(d, at(a, j), &cr->paths[j]);
    }
    a = arr(d, o, "partners");
    cr->npartners = len(a);
    cr->partners = g_new0(CommPartner, cr->npartners + 1);
    for (unsigned j = 0; j < cr->npartners; j++) {
        CommPartner *p = &cr->partners[j];
        p->recv_func = str(d, at(a, j), "function");
        p->src = (unsigned)u64(d, at(a, j), "src");
        p->send_func = str(d, at(a, j), "src_function");
        waits(d, at(a, j), &p->w);
        if (p->src >= d->r->ncores && !d->bad)
            d->bad = "partners.src";
    }
    a = arr(d, o, "lines");
    cr->nlines = len(a);
    cr->lines = g_new0(CommLine, cr->nlines + 1);
    for (unsigned j = 0; j < cr->nlines; j++) {
        CommLine *l = &cr->lines[j];
        l->pc = (uint32_t)u64(d, at(a, j), "pc");
        l->blocked = u64(d, at(a, j), "blocked");
        l->sent = u64(d, at(a, j), "sent");
        l->recv = u64(d, at(a, j), "received");
    }
}

static void read_core(Rd *d, JsonObject *o, CommCoreReport *cr, unsigned i)
{
    cr->id = i;
    if (u64(d, o, "id") != i && !d->bad)
        d->bad = "cores.id";
    cr->finish = u64(d, o, "finish_cycle");
    blocked(d, o, cr->blocked);
    cr->polls_rx = u64(d, o, "failed_polls_rx");
    cr->polls_tx = u64(d, o, "failed_polls_tx");
    read_lists(d, o, cr);
    cr->flows = g_new0(CommFlow, 1); /* saved apart (profile_data_comm.c) */
    cr->flows_dropped = u64(d, o, "flows_dropped");
}

static void read_chain(Rd *d, JsonObject *o)
{
    CommReport *r = d->r;
    JsonObject *c = obj(d, o, "critical_chain");
    r->last_core = (unsigned)u64(d, c, "last_core");
    JsonNode *t = c ? json_object_get_member(c, "truncated") : NULL;
    r->chain_truncated = t && json_node_get_value_type(t) == G_TYPE_BOOLEAN && json_node_get_boolean(t);
    JsonArray *a = arr(d, c, "steps");
    r->nchain = len(a);
    r->chain = g_new0(CommStep, r->nchain + 1);
    for (unsigned j = 0; j < r->nchain; j++) {
        CommStep *s = &r->chain[j];
        JsonObject *e = at(a, j);
        s->core = (unsigned)u64(d, e, "core");
        s->recv_func = str(d, e, "function");
        s->recv_path = str(d, e, "path");
        s->src = (unsigned)u64(d, e, "src");
        s->send_func = str(d, e, "src_function");
        s->send_path = str(d, e, "src_path");
        s->tw = u64(d, e, "wait_cycle");
        s->ts = u64(d, e, "sent_cycle");
        s->td = u64(d, e, "delivered_cycle");
        s->tc = u64(d, e, "consumed_cycle");
        if ((s->core >= r->ncores || s->src >= r->ncores) && !d->bad)
            d->bad = "critical_chain.steps";
    }
    if (r->ncores && r->last_core >= r->ncores && !d->bad)
        d->bad = "critical_chain.last_core";
}

CommReport *comm_from_json(const char *text, GError **error)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    if (!json_parser_load_from_data(parser, text, -1, error))
        return NULL;
    JsonNode *root = json_parser_get_root(parser);
    CommReport *r = g_new0(CommReport, 1);
    r->strings = g_string_chunk_new(4096);
    Rd d = { .r = r, .bad = root && JSON_NODE_HOLDS_OBJECT(root) ? NULL : "communication" };
    JsonObject *o = d.bad ? NULL : json_node_get_object(root);
    JsonArray *cores = arr(&d, o, "cores");
    r->ncores = len(cores);
    r->cores = g_new0(CommCoreReport, r->ncores + 1);
    r->pairs = g_new0(CommWait, (size_t)r->ncores * r->ncores + 1);
    for (unsigned i = 0; i < r->ncores; i++)
        read_core(&d, at(cores, i), &r->cores[i], i);
    JsonArray *pairs = arr(&d, o, "pairs");
    for (unsigned j = 0; j < len(pairs); j++) {
        unsigned s = (unsigned)u64(&d, at(pairs, j), "src"), t = (unsigned)u64(&d, at(pairs, j), "dst");
        if (s >= r->ncores || t >= r->ncores) {
            d.bad = d.bad ? d.bad : "pairs";
            break;
        }
        waits(&d, at(pairs, j), &r->pairs[(size_t)s * r->ncores + t]);
    }
    read_chain(&d, o);
    r->unmatched = u64(&d, o, "unmatched");
    if (d.bad) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_DATA, "communication: bad or missing %s", d.bad);
        comm_report_free(r);
        return NULL;
    }
    return r;
}

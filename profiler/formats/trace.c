/* trace.c — Chrome Trace Event JSON of waits, interrupts and packets. */
#include "trace.h"

#include "base/json.h"

/* Strings quoted once each (npjson_quote: json-glib's escaping); the same
 * few names recur on every span. */
typedef struct Quoter {
    GHashTable *done;          /* name -> quoted literal */
} Quoter;

static void put_str(GString *o, Quoter *q, const char *s)
{
    const char *lit = g_hash_table_lookup(q->done, s);
    if (!lit) {
        lit = npjson_quote(s);
        g_hash_table_insert(q->done, g_strdup(s), (gpointer)lit);
    }
    g_string_append(o, lit);
}

/* Microseconds at the clock, as JSON (locale independent). */
static void put_us(GString *o, uint64_t cycles, double hz)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    g_string_append(o, g_ascii_formatd(buf, sizeof buf, "%.4f", (double)cycles / hz * 1e6));
}

static void meta(GString *o, Quoter *q, const char *what, unsigned pid, unsigned tid, const char *name)
{
    g_string_append_printf(o, ",\n{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":", what,
                           pid, tid);
    put_str(o, q, name);
    g_string_append(o, "}}");
}

static void span(GString *o, Quoter *q, const char *name, const char *cat, unsigned pid, unsigned tid, uint64_t start,
                 uint64_t end, double hz)
{
    g_string_append(o, ",\n{\"name\":");
    put_str(o, q, name);
    g_string_append_printf(o, ",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":", cat, pid, tid);
    put_us(o, start, hz);
    g_string_append(o, ",\"dur\":");
    put_us(o, end - start, hz);
    g_string_append_printf(o, ",\"args\":{\"start_cycle\":%" G_GUINT64_FORMAT ",\"cycles\":%" G_GUINT64_FORMAT,
                           start, end - start);
}

/* Streaming: with a FILE, the text is written out whenever 64 KiB are
 * pending, so a long timeline never sits in memory as one string. */
typedef struct Sink {
    GString *o;
    FILE *f;
    bool ok;
    Quoter q;
} Sink;

static void sink_flush(Sink *k, gsize at_least)
{
    if (!k->f || k->o->len < at_least)
        return;
    if (fwrite(k->o->str, 1, k->o->len, k->f) != k->o->len)
        k->ok = false;
    g_string_truncate(k->o, 0);
}

/* One message: a 1-cycle "send" slice on the sender's messages thread at
 * TX_SEND, a 1-cycle "recv" slice on the receiver's at consumption, and the
 * flow arrow from the first to the second. */
static void flow(Sink *k, const TraceCore *c, const TraceFlow *fl, uint64_t id, double hz)
{
    GString *o = k->o;
    g_autofree char *sname = g_strdup_printf("send %s", fl->send_func ? fl->send_func : "??");
    g_autofree char *rname = g_strdup_printf("recv %s", fl->recv_func ? fl->recv_func : "??");
    span(o, &k->q, sname, "message", fl->src, 1, fl->sent, fl->sent + 1, hz);
    g_string_append_printf(o, ",\"dst\":%u}}", c->id);
    span(o, &k->q, rname, "message", c->id, 1, fl->consumed, fl->consumed + 1, hz);
    g_string_append_printf(o, ",\"src\":%u,\"sent_cycle\":%" G_GUINT64_FORMAT ",\"delivered_cycle\":%"
                           G_GUINT64_FORMAT "}}", fl->src, fl->sent, fl->delivered);
    g_string_append_printf(o, ",\n{\"name\":\"packet\",\"cat\":\"message\",\"ph\":\"s\",\"id\":%" G_GUINT64_FORMAT
                           ",\"pid\":%u,\"tid\":1,\"ts\":", id, fl->src);
    put_us(o, fl->sent, hz);
    g_string_append_printf(o, "},\n{\"name\":\"packet\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":%"
                           G_GUINT64_FORMAT ",\"pid\":%u,\"tid\":1,\"ts\":", id, c->id);
    put_us(o, fl->consumed, hz);
    g_string_append(o, "}");
}

static void core_events(Sink *k, const TraceCore *c, double hz)
{
    GString *o = k->o;
    Quoter *q = &k->q;
    g_autofree char *pname = g_strdup_printf("core %u", c->id);
    meta(o, q, "process_name", c->id, 0, pname);
    meta(o, q, "thread_name", c->id, 0, "cpu");
    if (c->nflows)
        meta(o, q, "thread_name", c->id, 1, "messages");
    for (size_t j = 0; j < c->nflows; j++) {
        flow(k, c, &c->flows[j], ((uint64_t)c->id << 40) | j, hz);
        sink_flush(k, 1 << 16);
    }
    if (c->prof) {
        size_t n = c->prof->nevents;
        uint64_t dropped = c->prof->events_dropped;
        const ProfEvent *ev = c->prof->events;
        for (size_t j = 0; j < n; j++) {
            const char *name = ev[j].idle ? "wait" : c->prof->funcs[ev[j].func].name;
            span(o, q, name, ev[j].idle ? "idle" : "interrupt", c->id, 0, ev[j].start, ev[j].end, hz);
            g_string_append(o, "}}");
            sink_flush(k, 1 << 16);
        }
        if (dropped)
            g_string_append_printf(o, ",\n{\"name\":\"%" G_GUINT64_FORMAT " more spans not recorded\","
                                   "\"ph\":\"i\",\"s\":\"p\",\"pid\":%u,\"tid\":0,\"ts\":0}", dropped, c->id);
    }
    g_string_append(o, ",\n{\"name\":");
    put_str(o, q, c->end_what);
    g_string_append_printf(o, ",\"cat\":\"end\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%u,\"tid\":0,\"ts\":", c->id);
    put_us(o, c->end_cycle, hz);
    g_string_append(o, "}");
}

static void trace_emit(Sink *k, const TraceCore *cores, unsigned ncores, const TracePackets *pkts, double hz)
{
    GString *o = k->o;
    g_string_append(o, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    /* the first event, so that every later one starts with a comma */
    g_string_append_printf(o, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,"
                           "\"args\":{\"name\":\"NoC\"}}", ncores);
    for (unsigned i = 0; i < ncores; i++)
        core_events(k, &cores[i], hz);
    for (unsigned r = 0; r < pkts->nodes; r++) {
        g_autofree char *tname = g_strdup_printf("from node %u", r);
        meta(o, &k->q, "thread_name", ncores, r, tname);
    }
    size_t n = pkts->n;
    uint64_t dropped = pkts->dropped;
    const NocPacketRecord *pk = pkts->recs;
    for (size_t j = 0; j < n; j++) {
        g_autofree char *name = g_strdup_printf("%u->%u", pk[j].src, pk[j].dst);
        span(o, &k->q, name, "packet", ncores, pk[j].src, pk[j].sent, pk[j].delivered, hz);
        g_string_append_printf(o, ",\"dst\":%u,\"words\":%u}}", pk[j].dst, pk[j].nwords);
        sink_flush(k, 1 << 16);
    }
    if (dropped)
        g_string_append_printf(o, ",\n{\"name\":\"%" G_GUINT64_FORMAT " more packets not recorded\","
                               "\"ph\":\"i\",\"s\":\"p\",\"pid\":%u,\"tid\":0,\"ts\":0}", dropped, ncores);
    g_string_append(o, "\n]}\n");
    sink_flush(k, 0);
}

static Sink sink_new(FILE *f)
{
    return (Sink){ .o = g_string_sized_new(f ? 1 << 17 : 1024), .f = f, .ok = true,
                   .q = { g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free) } };
}

GString *trace_build(const TraceCore *cores, unsigned ncores, const TracePackets *pk, double hz)
{
    Sink k = sink_new(NULL);
    trace_emit(&k, cores, ncores, pk, hz);
    g_hash_table_destroy(k.q.done);
    return k.o;
}

bool trace_write(FILE *f, const TraceCore *cores, unsigned ncores, const TracePackets *pk, double hz)
{
    Sink k = sink_new(f);
    trace_emit(&k, cores, ncores, pk, hz);
    g_hash_table_destroy(k.q.done);
    g_string_free(k.o, TRUE);
    return k.ok;
}

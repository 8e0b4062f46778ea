/* trace.c — Chrome Trace Event JSON of waits, interrupts and packets. */
#include "trace.h"

#include "base/json.h"

/* Strings quoted once each (npjson_quote: json-glib's escaping); the same
 * few names recur on every span. */
typedef struct Quoter {
    GHashTable *done;          /* name -> quoted literal */
    GHashTable *msg[2];        /* function name (by address) -> quoted
                                  "send NAME" [0] / "recv NAME" [1] */
} Quoter;

static const char *quoted(Quoter *q, const char *s);

static void put_str(GString *o, Quoter *q, const char *s)
{
    g_string_append(o, quoted(q, s));
}

/* A decimal number (printf's %llu without its cost: a long timeline
 * prints millions of them). */
static void put_u64(GString *o, uint64_t v)
{
    char buf[24];
    char *p = buf + sizeof buf;
    do
        *--p = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    g_string_append_len(o, p, buf + sizeof buf - p);
}

#define TEN_TO_10 UINT64_C(10000000000)

/* Microseconds at the clock with four decimals, as JSON (locale
 * independent). When hz divides 10^10 (the default 100 MHz does) the
 * ten-thousandths are an integer: printed exactly, without floating
 * point; otherwise "%.4f" of cycles / hz * 1e6. */
static void put_us(GString *o, uint64_t cycles, double hz)
{
    uint64_t q = hz >= 1 && hz <= (double)TEN_TO_10 ? (uint64_t)hz : 0;
    if (q && (double)q == hz && TEN_TO_10 % q == 0 && cycles <= UINT64_MAX / (TEN_TO_10 / q)) {
        uint64_t t = cycles * (TEN_TO_10 / q);
        put_u64(o, t / 10000);
        char frac[5] = { '.' };
        for (int i = 4, r = (int)(t % 10000); i > 0; i--, r /= 10)
            frac[i] = (char)('0' + r % 10);
        g_string_append_len(o, frac, sizeof frac);
        return;
    }
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

/* A complete event up to its args' start_cycle and cycles; name_lit is
 * the name already quoted. */
static void span_lit(GString *o, const char *name_lit, const char *cat, unsigned pid, unsigned tid, uint64_t start,
                     uint64_t end, double hz)
{
    g_string_append(o, ",\n{\"name\":");
    g_string_append(o, name_lit);
    g_string_append(o, ",\"cat\":\"");
    g_string_append(o, cat);
    g_string_append(o, "\",\"ph\":\"X\",\"pid\":");
    put_u64(o, pid);
    g_string_append(o, ",\"tid\":");
    put_u64(o, tid);
    g_string_append(o, ",\"ts\":");
    put_us(o, start, hz);
    g_string_append(o, ",\"dur\":");
    put_us(o, end - start, hz);
    g_string_append(o, ",\"args\":{\"start_cycle\":");
    put_u64(o, start);
    g_string_append(o, ",\"cycles\":");
    put_u64(o, end - start);
}

static const char *quoted(Quoter *q, const char *s)
{
    const char *lit = g_hash_table_lookup(q->done, s);
    if (!lit) {
        lit = npjson_quote(s);
        g_hash_table_insert(q->done, g_strdup(s), (gpointer)lit);
    }
    return lit;
}

static void span(GString *o, Quoter *q, const char *name, const char *cat, unsigned pid, unsigned tid, uint64_t start,
                 uint64_t end, double hz)
{
    span_lit(o, quoted(q, name), cat, pid, tid, start, end, hz);
}

/* Streaming: with a FILE, the text is written out whenever 64 KiB are
 * pending, so a long timeline never sits in memory as one string. */
typedef struct Sink {
    GString *o;
    FILE *f;
    bool ok;
    Quoter q;
    GString *page;             /* the text without messages (may be NULL) */
    bool messages;             /* o holds message events only */
} Sink;

static void sink_flush(Sink *k, gsize at_least)
{
    if (!k->f || k->o->len < at_least)
        return;
    if (fwrite(k->o->str, 1, k->o->len, k->f) != k->o->len)
        k->ok = false;
    if (k->page && !k->messages)
        g_string_append_len(k->page, k->o->str, (gssize)k->o->len);
    g_string_truncate(k->o, 0);
}

/* The quoted name of a message slice: "send FUNC" (which 0) or "recv
 * FUNC" (1), made once per function (flows name interned strings). */
static const char *msg_name(Quoter *q, unsigned which, const char *func)
{
    const char *lit = g_hash_table_lookup(q->msg[which], func);
    if (!lit) {
        g_autofree char *name = g_strdup_printf("%s %s", which ? "recv" : "send", func ? func : "??");
        lit = quoted(q, name);
        g_hash_table_insert(q->msg[which], (gpointer)func, (gpointer)lit);
    }
    return lit;
}

/* One message: a 1-cycle "send" slice on the sender's messages thread at
 * TX_SEND, a 1-cycle "recv" slice on the receiver's at consumption, and the
 * flow arrow from the first to the second. */
static void flow(Sink *k, const TraceCore *c, const TraceFlow *fl, uint64_t id, double hz)
{
    GString *o = k->o;
    const char *sname = msg_name(&k->q, 0, fl->send_func), *rname = msg_name(&k->q, 1, fl->recv_func);
    span_lit(o, sname, "message", fl->src, 1, fl->sent, fl->sent + 1, hz);
    g_string_append(o, ",\"dst\":");
    put_u64(o, c->id);
    g_string_append(o, "}}");
    span_lit(o, rname, "message", c->id, 1, fl->consumed, fl->consumed + 1, hz);
    g_string_append(o, ",\"src\":");
    put_u64(o, fl->src);
    g_string_append(o, ",\"sent_cycle\":");
    put_u64(o, fl->sent);
    g_string_append(o, ",\"delivered_cycle\":");
    put_u64(o, fl->delivered);
    g_string_append(o, "}},\n{\"name\":\"packet\",\"cat\":\"message\",\"ph\":\"s\",\"id\":");
    put_u64(o, id);
    g_string_append(o, ",\"pid\":");
    put_u64(o, fl->src);
    g_string_append(o, ",\"tid\":1,\"ts\":");
    put_us(o, fl->sent, hz);
    g_string_append(o, "},\n{\"name\":\"packet\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":");
    put_u64(o, id);
    g_string_append(o, ",\"pid\":");
    put_u64(o, c->id);
    g_string_append(o, ",\"tid\":1,\"ts\":");
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
    sink_flush(k, 0);
    k->messages = true;
    for (size_t j = 0; j < c->nflows; j++) {
        flow(k, c, &c->flows[j], ((uint64_t)c->id << 40) | j, hz);
        sink_flush(k, 1 << 16);
    }
    sink_flush(k, 0);
    k->messages = false;
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
                   .q = { g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free),
                          { g_hash_table_new(g_direct_hash, g_direct_equal),
                            g_hash_table_new(g_direct_hash, g_direct_equal) } } };
}

static void sink_free_names(Sink *k)
{
    g_hash_table_destroy(k->q.done);
    g_hash_table_destroy(k->q.msg[0]);
    g_hash_table_destroy(k->q.msg[1]);
}

GString *trace_build(const TraceCore *cores, unsigned ncores, const TracePackets *pk, double hz)
{
    Sink k = sink_new(NULL);
    trace_emit(&k, cores, ncores, pk, hz);
    sink_free_names(&k);
    return k.o;
}

bool trace_write(FILE *f, const TraceCore *cores, unsigned ncores, const TracePackets *pk, double hz, GString *page)
{
    Sink k = sink_new(f);
    k.page = page;
    trace_emit(&k, cores, ncores, pk, hz);
    sink_free_names(&k);
    g_string_free(k.o, TRUE);
    return k.ok;
}

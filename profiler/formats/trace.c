// SPDX-License-Identifier: GPL-2.0-or-later
/* trace.c — Chrome Trace Event JSON of waits, interrupts and packets. */
#include "profiler/formats/trace.h"

#include "base/json.h"

#include <string.h>

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
 * prints millions of them) ending at end; returns its first character. */
static char *fmt_u64(char *end, uint64_t v)
{
    do
        *--end = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    return end;
}

static void put_u64(GString *o, uint64_t v)
{
    char buf[24];
    char *p = fmt_u64(buf + sizeof buf, v);
    g_string_append_len(o, p, buf + sizeof buf - p);
}

#define TEN_TO_10 UINT64_C(10000000000)
#define US_MAX 64              /* room for fmt_us */

/* Microseconds at the clock with four decimals, as JSON (locale
 * independent), into buf (US_MAX bytes); returns the length. When hz
 * divides 10^10 (the default 100 MHz does) the ten-thousandths are an
 * integer: printed exactly, without floating point; otherwise "%.4f" of
 * cycles / hz * 1e6. */
static size_t fmt_us(char *buf, uint64_t cycles, double hz)
{
    uint64_t q = hz >= 1 && hz <= (double)TEN_TO_10 ? (uint64_t)hz : 0;
    if (q && (double)q == hz && TEN_TO_10 % q == 0 && cycles <= UINT64_MAX / (TEN_TO_10 / q)) {
        uint64_t t = cycles * (TEN_TO_10 / q);
        char tmp[24];
        char *p = fmt_u64(tmp + sizeof tmp, t / 10000);
        size_t n = (size_t)(tmp + sizeof tmp - p);
        memcpy(buf, p, n);
        buf[n] = '.';
        for (int i = 4, r = (int)(t % 10000); i > 0; i--, r /= 10)
            buf[n + (size_t)i] = (char)('0' + r % 10);
        return n + 5;
    }
    G_STATIC_ASSERT(US_MAX >= G_ASCII_DTOSTR_BUF_SIZE);
    g_ascii_formatd(buf, US_MAX, "%.4f", (double)cycles / hz * 1e6);
    return strlen(buf);
}

static void put_us(GString *o, uint64_t cycles, double hz)
{
    char buf[US_MAX];
    g_string_append_len(o, buf, (gssize)fmt_us(buf, cycles, hz));
}

/* Text made in a local buffer and appended to o when full or done: a
 * message is four events of a dozen pieces each, and thousands of small
 * GString appends cost more than making the numbers. */
typedef struct Buf {
    GString *o;
    size_t n;
    char b[1024];
} Buf;

static void buf_flush(Buf *b)
{
    g_string_append_len(b->o, b->b, (gssize)b->n);
    b->n = 0;
}

static void buf_put(Buf *b, const char *s, size_t n)
{
    if (n > sizeof b->b - b->n)
        buf_flush(b);
    if (n > sizeof b->b) {
        g_string_append_len(b->o, s, (gssize)n);
        return;
    }
    memcpy(b->b + b->n, s, n);
    b->n += n;
}

#define BUF_LIT(b, s) buf_put(b, s, sizeof s - 1)

static void buf_u64(Buf *b, uint64_t v)
{
    char tmp[24];
    char *p = fmt_u64(tmp + sizeof tmp, v);
    buf_put(b, p, (size_t)(tmp + sizeof tmp - p));
}

static void buf_us(Buf *b, uint64_t cycles, double hz)
{
    char tmp[US_MAX];
    buf_put(b, tmp, fmt_us(tmp, cycles, hz));
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
/* A 1-cycle message slice up to its args' last member. */
static void msg_slice(Buf *b, const char *name_lit, unsigned pid, uint64_t at, double hz)
{
    BUF_LIT(b, ",\n{\"name\":");
    buf_put(b, name_lit, strlen(name_lit));
    BUF_LIT(b, ",\"cat\":\"message\",\"ph\":\"X\",\"pid\":");
    buf_u64(b, pid);
    BUF_LIT(b, ",\"tid\":1,\"ts\":");
    buf_us(b, at, hz);
    BUF_LIT(b, ",\"dur\":");
    buf_us(b, 1, hz);
    BUF_LIT(b, ",\"args\":{\"start_cycle\":");
    buf_u64(b, at);
    BUF_LIT(b, ",\"cycles\":1");
}

static void flow(Sink *k, const TraceCore *c, const TraceFlow *fl, uint64_t id, double hz)
{
    Buf b = { .o = k->o };
    msg_slice(&b, msg_name(&k->q, 0, fl->send_func), fl->src, fl->sent, hz);
    BUF_LIT(&b, ",\"dst\":");
    buf_u64(&b, c->id);
    BUF_LIT(&b, "}}");
    msg_slice(&b, msg_name(&k->q, 1, fl->recv_func), c->id, fl->consumed, hz);
    BUF_LIT(&b, ",\"src\":");
    buf_u64(&b, fl->src);
    BUF_LIT(&b, ",\"sent_cycle\":");
    buf_u64(&b, fl->sent);
    BUF_LIT(&b, ",\"delivered_cycle\":");
    buf_u64(&b, fl->delivered);
    BUF_LIT(&b, "}},\n{\"name\":\"packet\",\"cat\":\"message\",\"ph\":\"s\",\"id\":");
    buf_u64(&b, id);
    BUF_LIT(&b, ",\"pid\":");
    buf_u64(&b, fl->src);
    BUF_LIT(&b, ",\"tid\":1,\"ts\":");
    buf_us(&b, fl->sent, hz);
    BUF_LIT(&b, "},\n{\"name\":\"packet\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":");
    buf_u64(&b, id);
    BUF_LIT(&b, ",\"pid\":");
    buf_u64(&b, c->id);
    BUF_LIT(&b, ",\"tid\":1,\"ts\":");
    buf_us(&b, fl->consumed, hz);
    BUF_LIT(&b, "}");
    buf_flush(&b);
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

/* Packets of one source overlap in time (one is in flight while the next
 * is sent), but the complete events of one thread must nest (Chrome
 * Trace Event format; Perfetto drops those that do not). So each packet
 * goes to the first lane of its source that is free at its send cycle
 * (first fit in send order: lanes never overlap). Lane L of node r is
 * thread L * nodes + r (lane 0 is thread r). lanes[j] is packet j's lane,
 * nlanes[r] the lanes of node r. */
static gint by_src_sent(gconstpointer a, gconstpointer b, gpointer data)
{
    const NocPacketRecord *pk = data, *x = &pk[*(const size_t *)a], *y = &pk[*(const size_t *)b];
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->sent != y->sent)
        return x->sent < y->sent ? -1 : 1;
    if (x->delivered != y->delivered)
        return x->delivered < y->delivered ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static unsigned *packet_lanes(const TracePackets *pkts, unsigned *nlanes)
{
    size_t n = pkts->n;
    unsigned *lanes = g_new0(unsigned, n ? n : 1);
    size_t *order = g_new(size_t, n ? n : 1);
    for (size_t j = 0; j < n; j++)
        order[j] = j;
    g_qsort_with_data(order, (gint)n, sizeof *order, by_src_sent, (gpointer)pkts->recs);
    GArray *ends = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    for (size_t j = 0; j < n; j++) {
        const NocPacketRecord *r = &pkts->recs[order[j]];
        if (j == 0 || r->src != pkts->recs[order[j - 1]].src)
            g_array_set_size(ends, 0);
        guint lane = 0;
        while (lane < ends->len && g_array_index(ends, uint64_t, lane) > r->sent)
            lane++;
        if (lane == ends->len)
            g_array_append_val(ends, r->delivered);
        g_array_index(ends, uint64_t, lane) = r->delivered;
        lanes[order[j]] = lane;
        if (r->src < pkts->nodes)
            nlanes[r->src] = MAX(nlanes[r->src], lane + 1);
    }
    g_array_free(ends, TRUE);
    g_free(order);
    return lanes;
}

static void packet_events(Sink *k, unsigned ncores, const TracePackets *pkts, double hz)
{
    GString *o = k->o;
    unsigned nodes = MAX(pkts->nodes, 1);
    unsigned *nlanes = g_new0(unsigned, nodes);
    unsigned *lanes = packet_lanes(pkts, nlanes);
    for (unsigned r = 0; r < pkts->nodes; r++) {
        for (unsigned l = 0; l < MAX(nlanes[r], 1); l++) {
            g_autofree char *tname = l ? g_strdup_printf("from node %u (lane %u)", r, l + 1)
                                       : g_strdup_printf("from node %u", r);
            meta(o, &k->q, "thread_name", ncores, l * nodes + r, tname);
        }
    }
    const NocPacketRecord *pk = pkts->recs;
    for (size_t j = 0; j < pkts->n; j++) {
        g_autofree char *name = g_strdup_printf("%u->%u", pk[j].src, pk[j].dst);
        span(o, &k->q, name, "packet", ncores, lanes[j] * nodes + pk[j].src, pk[j].sent, pk[j].delivered, hz);
        g_string_append_printf(o, ",\"src\":%u,\"dst\":%u,\"words\":%u}}", pk[j].src, pk[j].dst, pk[j].nwords);
        sink_flush(k, 1 << 16);
    }
    g_free(lanes);
    g_free(nlanes);
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
    packet_events(k, ncores, pkts, hz);
    uint64_t dropped = pkts->dropped;
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

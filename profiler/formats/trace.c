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

GString *trace_build(const TraceCore *cores, unsigned ncores, const Noc *noc, double hz)
{
    Quoter q = { g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free) };
    GString *o = g_string_new("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    /* the first event, so that every later one starts with a comma */
    g_string_append_printf(o, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,"
                           "\"args\":{\"name\":\"NoC\"}}", ncores);
    for (unsigned i = 0; i < ncores; i++) {
        const TraceCore *c = &cores[i];
        g_autofree char *pname = g_strdup_printf("core %u", c->id);
        meta(o, &q, "process_name", c->id, 0, pname);
        meta(o, &q, "thread_name", c->id, 0, "cpu");
        if (c->col) {
            size_t n;
            uint64_t dropped;
            const CollectorEvent *ev = collector_events(c->col, &n, &dropped);
            for (size_t k = 0; k < n; k++) {
                const char *name = ev[k].idle ? "wait" : collector_func_name(c->col, ev[k].func);
                span(o, &q, name, ev[k].idle ? "idle" : "interrupt", c->id, 0, ev[k].start, ev[k].end, hz);
                g_string_append(o, "}}");
            }
            if (dropped)
                g_string_append_printf(o, ",\n{\"name\":\"%" G_GUINT64_FORMAT " more spans not recorded\","
                                       "\"ph\":\"i\",\"s\":\"p\",\"pid\":%u,\"tid\":0,\"ts\":0}", dropped, c->id);
        }
        g_string_append(o, ",\n{\"name\":");
        put_str(o, &q, c->end_what);
        g_string_append_printf(o, ",\"cat\":\"end\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%u,\"tid\":0,\"ts\":", c->id);
        put_us(o, c->end_cycle, hz);
        g_string_append(o, "}");
    }
    for (unsigned r = 0; r < noc_nodes(noc); r++) {
        g_autofree char *tname = g_strdup_printf("from node %u", r);
        meta(o, &q, "thread_name", ncores, r, tname);
    }
    size_t n;
    uint64_t dropped;
    const NocPacketRecord *pk = noc_packet_log(noc, &n, &dropped);
    for (size_t k = 0; k < n; k++) {
        g_autofree char *name = g_strdup_printf("%u->%u", pk[k].src, pk[k].dst);
        span(o, &q, name, "packet", ncores, pk[k].src, pk[k].sent, pk[k].delivered, hz);
        g_string_append_printf(o, ",\"dst\":%u,\"words\":%u}}", pk[k].dst, pk[k].nwords);
    }
    if (dropped)
        g_string_append_printf(o, ",\n{\"name\":\"%" G_GUINT64_FORMAT " more packets not recorded\","
                               "\"ph\":\"i\",\"s\":\"p\",\"pid\":%u,\"tid\":0,\"ts\":0}", dropped, ncores);
    g_string_append(o, "\n]}\n");
    g_hash_table_destroy(q.done);
    return o;
}

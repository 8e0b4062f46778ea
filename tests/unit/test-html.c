// SPDX-License-Identifier: GPL-2.0-or-later
/* test-html.c — report.html's C side (web/html_report.c): the data element
 * survives hostile strings, and a long trace.json is trimmed to a time
 * prefix that still parses. JSON is checked by parsing it back with
 * json-glib; the trace comes from the real trace.json writer. */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "base/json.h"
#include "web/html_report.h"
#include "profiler/model/profile.h"
#include "profiler/analysis/profile_diff.h"
#include "noc/noc.h"
#include "profiler/formats/trace.h"

static unsigned count(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static JsonNode *parse(const char *text)
{
    g_autoptr(JsonParser) p = json_parser_new();
    GError *e = NULL;
    g_assert_true(json_parser_load_from_data(p, text, -1, &e));
    g_assert_no_error(e);
    return json_node_copy(json_parser_get_root(p));
}

/* The data element ends only where the page ends it, and reads back. */
static void test_page_data(void)
{
    const char *summary = "{\"x\":\"</script><script>alert(1)</script><!--\"}";
    GString *page = html_report_build(summary, "core0;<idle> 5\n", NULL, NULL);
    /* one for the data element, one for the bundle's script */
    g_assert_cmpuint(count(page->str, "</script>"), ==, 2);
    g_assert_cmpuint(count(page->str, "<!--"), ==, 0);
    const char *tag = "<script type=\"application/json\" id=\"nocprof-data\">";
    const char *start = strstr(page->str, tag);
    g_assert_nonnull(start);
    start += strlen(tag);
    const char *end = strstr(start, "</script>");
    g_autofree char *json = g_strndup(start, (gsize)(end - start));
    g_autoptr(JsonNode) root = parse(json);
    JsonObject *o = json_node_get_object(root);
    g_assert_cmpstr(json_object_get_string_member(json_object_get_object_member(o, "summary"), "x"), ==,
                    "</script><script>alert(1)</script><!--");
    JsonObject *fl = json_object_get_object_member(o, "flame");
    JsonArray *names = json_object_get_array_member(fl, "names"), *nodes = json_object_get_array_member(fl, "nodes");
    g_assert_cmpuint(json_array_get_length(names), ==, 2);
    g_assert_cmpstr(json_array_get_string_element(names, 1), ==, "<idle>");
    g_assert_cmpuint(json_array_get_length(nodes), ==, 6);
    g_assert_cmpint(json_array_get_int_element(nodes, 3), ==, 1);   /* <idle>: parent core0, one node before */
    g_assert_cmpint(json_array_get_int_element(nodes, 5), ==, 5);
    g_assert_true(json_object_get_null_member(o, "trace"));
    g_assert_cmpint(json_object_get_int_member(o, "trace_dropped"), ==, 0);
    g_assert_nonnull(strstr(page->str, "</html>"));
    g_string_free(page, TRUE);
}

/* report.html's flame data (issue 24): the tree of stacks.folded's paths,
 * frames matched by name, nodes in order of first appearance, counts of a
 * repeated path summed, \x3b and \x20 undone (as the page did with the
 * text), a frame with other bytes quoted as JSON (invalid UTF-8 as U+FFFD, as json-glib), a line without a count
 * left out. Hand-made from the lines below. */
static void test_flame_tree(void)
{
    const char *folded = "core0;main;f\\x3bg 12\n"     /* nodes 0 1 2 */
                         "core0;main 3\n"
                         "core1;main;\"q\"<\xff 4\n"     /* 3 4 5 */
                         "core0;main;f\\x3bg 1\n"
                         "core0;h\\x20i;;main 7\n"        /* 6 7 8 */
                         "no count here\n"
                         "core1 9";
    GString *j = html_flame_json(folded);
    g_assert_cmpstr(j->str, ==,
                    "{\"names\":[\"core0\",\"main\",\"f;g\",\"core1\",\"\\\"q\\\"<\xef\xbf\xbd\",\"h i\",\"\"],"
                    "\"nodes\":[0,0,0,1,1,3,1,2,13,0,3,9,1,1,0,1,4,4,6,5,0,1,6,0,1,1,7]}");
    g_autoptr(JsonNode) root = parse(j->str);
    g_assert_true(JSON_NODE_HOLDS_OBJECT(root));
    g_string_free(j, TRUE);
    j = html_flame_json(NULL);
    g_assert_cmpstr(j->str, ==, "{\"names\":[],\"nodes\":[]}");
    g_string_free(j, TRUE);
}

/* diff.html: profile_diff_json's rows (a hostile and a non-UTF-8 name
 * among them) in the {"diff":...} data element, read back exactly. */
static void test_diff_page(void)
{
    DiffRow rows[2] = {
        { .name = "f</script><!--", .in_a = true, .in_b = false, .calls_a = 3, .self_a = 70, .incl_a = 90 },
        { .name = "g\xff", .in_a = true, .in_b = true, .calls_a = 1, .calls_b = 2, .self_a = 5, .self_b = 9,
          .incl_a = UINT64_C(9007199254740993), .incl_b = 12 },
    };
    ProfDiff d = { .cycles_a = 100, .cycles_b = 21, .nrows = 2, .rows = rows };
    NpJson *b = npjson_new();
    npjson_begin_object(b);
    npjson_member_string(b, "view", "chip");
    profile_diff_json(b, &d);
    npjson_end_object(b);
    GString *data = npjson_finish(b);
    GString *page = html_diff_build(data->str);
    g_assert_cmpuint(count(page->str, "</script>"), ==, 2);
    g_assert_cmpuint(count(page->str, "<!--"), ==, 0);
    g_assert_nonnull(strstr(page->str, "<title>nocprof diff</title>"));
    const char *tag = "<script type=\"application/json\" id=\"nocprof-data\">";
    const char *start = strstr(page->str, tag) + strlen(tag);
    g_autofree char *json = g_strndup(start, (gsize)(strstr(start, "</script>") - start));
    g_autoptr(JsonNode) root = parse(json);
    JsonObject *o = json_object_get_object_member(json_node_get_object(root), "diff");
    g_assert_cmpint(json_object_get_int_member(o, "cycles_a"), ==, 100);
    g_assert_cmpint(json_object_get_int_member(o, "cycles_b"), ==, 21);
    JsonArray *r = json_object_get_array_member(o, "rows");
    g_assert_cmpuint(json_array_get_length(r), ==, 2);
    JsonObject *r0 = json_array_get_object_element(r, 0), *r1 = json_array_get_object_element(r, 1);
    g_assert_cmpstr(json_object_get_string_member(r0, "name"), ==, "f</script><!--");
    g_assert_true(json_object_get_boolean_member(r0, "in_a"));
    g_assert_false(json_object_get_boolean_member(r0, "in_b"));
    g_assert_cmpint(json_object_get_int_member(r0, "calls_a"), ==, 3);
    g_assert_cmpint(json_object_get_int_member(r0, "self_a"), ==, 70);
    g_assert_cmpint(json_object_get_int_member(r0, "incl_b"), ==, 0);
    g_assert_cmpstr(json_object_get_string_member(r1, "name"), ==, "g\xef\xbf\xbd"); /* U+FFFD */
    g_assert_cmpint(json_object_get_int_member(r1, "incl_a"), ==, INT64_C(9007199254740993));
    g_assert_cmpint(json_object_get_int_member(r1, "calls_b"), ==, 2);
    g_string_free(page, TRUE);
    g_string_free(data, TRUE);
}

static unsigned spans(JsonNode *root, uint64_t *max_start)
{
    JsonArray *ev = json_object_get_array_member(json_node_get_object(root), "traceEvents");
    unsigned n = 0;
    *max_start = 0;
    for (unsigned i = 0; i < json_array_get_length(ev); i++) {
        JsonObject *e = json_array_get_object_element(ev, i);
        if (strcmp(json_object_get_string_member(e, "ph"), "X") != 0)
            continue;
        n++;
        uint64_t s = (uint64_t)json_object_get_int_member(json_object_get_object_member(e, "args"), "start_cycle");
        *max_start = MAX(*max_start, s);
    }
    return n;
}

/* Five waits (starting at 100, 300, 500, 700, 900) and one packet sent at
 * cycle 0: a budget of 4 complete events keeps those starting before 700. */
static void test_trim_trace(void)
{
    NocConfig nc = { .width = 2, .height = 1, .router_latency = 1, .link_latency = 1, .buffer_depth = 4,
                     .max_payload = 16, .tx_queue_flits = 34, .rx_queue_flits = 68 };
    Noc *noc = noc_new(&nc);
    noc_log_packets(noc, 10);
    uint32_t words[2] = { 1, 2 };
    g_assert_true(noc_send(noc, 0, 1, words, 2, 0));
    noc_run_until(noc, 1000);
    ProfEvent waits[5];
    for (unsigned k = 0; k < 5; k++)
        waits[k] = (ProfEvent){ .start = 100 + 200 * k, .end = 150 + 200 * k, .idle = true };
    Profile p0 = { .nevents = 5, .events = waits };
    TraceCore tc[1] = { { .id = 0, .prof = &p0, .end_cycle = 1000, .end_what = "exit 0" } };
    size_t np;
    uint64_t ndropped;
    const NocPacketRecord *rec = noc_packet_log(noc, &np, &ndropped);
    TracePackets pk = { .nodes = noc_nodes(noc), .recs = rec, .n = np, .dropped = ndropped };
    GString *trace = trace_build(tc, 1, &pk, 1e6);
    uint64_t cut = 1, dropped = 1, max_start;
    g_assert_null(html_trim_trace(trace->str, 6, &cut, &dropped));
    g_assert_cmpuint(cut, ==, 0);
    g_assert_cmpuint(dropped, ==, 0);

    g_autoptr(JsonNode) all = parse(trace->str);
    g_assert_cmpuint(spans(all, &max_start), ==, 6);
    unsigned all_events = json_array_get_length(json_object_get_array_member(json_node_get_object(all), "traceEvents"));
    g_autofree char *trimmed = html_trim_trace(trace->str, 4, &cut, &dropped);
    g_assert_nonnull(trimmed);
    g_assert_cmpuint(cut, ==, 700);
    g_assert_cmpuint(dropped, ==, 2);
    g_autoptr(JsonNode) some = parse(trimmed);
    g_assert_cmpuint(spans(some, &max_start), ==, 4);
    g_assert_cmpuint(max_start, ==, 500);
    /* metadata and the end instant stay */
    g_assert_cmpuint(json_array_get_length(json_object_get_array_member(json_node_get_object(some), "traceEvents")), ==,
                     all_events - 2);
    g_string_free(trace, TRUE);
    noc_free(noc);
}

/* The same waits and a core that consumed three packets (trace flows: a
 * send and a receive slice and two flow events each, cat "message"): the
 * page gets no message event, and the cut counts only the other spans. */
static void test_trim_messages(void)
{
    ProfEvent waits[5];
    for (unsigned k = 0; k < 5; k++)
        waits[k] = (ProfEvent){ .start = 100 + 200 * k, .end = 150 + 200 * k, .idle = true };
    Profile p0 = { .nevents = 5, .events = waits };
    TraceFlow fl[3];
    for (unsigned k = 0; k < 3; k++)
        fl[k] = (TraceFlow){ .src = 1, .sent = 10 + k, .delivered = 20 + k, .consumed = 30 + k,
                             .send_func = "produce", .recv_func = "consume" };
    TraceCore tc[2] = { { .id = 0, .prof = &p0, .flows = fl, .nflows = 3, .end_cycle = 1000, .end_what = "exit 0" },
                        { .id = 1, .end_cycle = 1000, .end_what = "exit 0" } };
    TracePackets pk = { .nodes = 2 };
    GString *trace = trace_build(tc, 2, &pk, 1e6);
    g_assert_cmpuint(count(trace->str, "\"cat\":\"message\""), ==, 3 * 4);
    uint64_t cut = 1, dropped = 1, max_start;
    g_autofree char *kept = html_trim_trace(trace->str, 100, &cut, &dropped);
    g_assert_nonnull(kept);
    g_assert_cmpuint(cut, ==, 0);
    g_assert_cmpuint(dropped, ==, 0);
    g_assert_cmpuint(count(kept, "\"message\""), ==, 0);
    g_autoptr(JsonNode) all = parse(kept);
    g_assert_cmpuint(spans(all, &max_start), ==, 5);
    g_autofree char *trimmed = html_trim_trace(trace->str, 4, &cut, &dropped);
    g_assert_cmpuint(cut, ==, 900);
    g_assert_cmpuint(dropped, ==, 1);
    g_autoptr(JsonNode) some = parse(trimmed);
    g_assert_cmpuint(spans(some, &max_start), ==, 4);
    g_assert_cmpuint(max_start, ==, 700);
    g_string_free(trace, TRUE);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/html/page-data", test_page_data);
    g_test_add_func("/html/flame-tree", test_flame_tree);
    g_test_add_func("/html/trim-trace", test_trim_trace);
    g_test_add_func("/html/trim-messages", test_trim_messages);
    g_test_add_func("/html/diff-page", test_diff_page);
    return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* summary_json.c — summary.json (SPEC section 6), built with json-glib. */
#include "profiler/formats/summary_json.h"

#include <string.h>

#include "base/json.h"

/* "config": the effective values, by group; numbers, sample_period a list. */
static void json_config(JsonBuilder *b, const Config *cfg)
{
    json_builder_begin_object(b);
    const char *group, *key, *cur = NULL;
    for (unsigned i = 0; config_key(i, &group, &key); i++) {
        if (strcmp(group, "sched") == 0)
            continue; /* speed knobs: the same results whatever they are */
        if (!cur || strcmp(cur, group) != 0) {
            if (cur)
                json_builder_end_object(b);
            npjson_member_object(b, group);
            cur = group;
        }
        g_autofree char *v = config_value_string(cfg, group, key);
        if (strcmp(key, "sample_period") == 0) {
            npjson_member_array(b, key);
            g_auto(GStrv) parts = g_strsplit(v, ",", -1);
            for (char **p = parts; *p; p++)
                json_builder_add_int_value(b, (gint64)g_ascii_strtoull(*p, NULL, 10));
            json_builder_end_array(b);
        } else if (strcmp(group, "timing") == 0 && strcmp(key, "model") == 0) {
            npjson_member_string(b, key, v); /* "24k" or "flat" */
        } else {
            npjson_member_u64(b, key, g_ascii_strtoull(v, NULL, 10));
        }
    }
    if (cur)
        json_builder_end_object(b);
    json_builder_end_object(b);
}

/* "never_called": the ELF's functions that never ran (gprof -z). */
static void json_never_called(JsonBuilder *b, const Profile *p)
{
    npjson_member_array(b, "never_called");
    unsigned n = 0;
    g_autofree unsigned *idx = p ? profile_never_called(p, &n) : NULL;
    for (unsigned j = 0; j < n; j++)
        npjson_string(b, p->funcs[idx[j]].name);
    json_builder_end_array(b);
}

/* {"<period>": n, ...} of one function (or of the core's totals). */
static void json_samples(JsonBuilder *b, const Profile *p, const uint64_t *per_hist)
{
    npjson_member_object(b, "samples");
    for (unsigned h = 0; p && h < p->nperiods; h++) {
        char key[16];
        g_snprintf(key, sizeof key, "%u", p->hists[h].period);
        npjson_member_u64(b, key, per_hist ? per_hist[h] : p->hists[h].total);
    }
    json_builder_end_object(b);
}

/* The arcs into each function, in arc order, as one index built once
 * (a counting sort on the callee): arcs of callee i are
 * order[start[i] .. start[i + 1]). Scanning every arc per function was
 * quadratic in the size of the firmware (issue 24). */
typedef struct {
    unsigned *start;
    unsigned *order;
} ArcsByCallee;

static ArcsByCallee arcs_by_callee(const Profile *p)
{
    ArcsByCallee ix = { g_new0(unsigned, p->nfuncs + 2), g_new(unsigned, p->narcs + 1) };
    for (unsigned a = 0; a < p->narcs; a++)
        if (p->arcs[a].callee < p->nfuncs)
            ix.start[p->arcs[a].callee + 2]++;
    for (unsigned i = 2; i < p->nfuncs + 2; i++)
        ix.start[i] += ix.start[i - 1];
    for (unsigned a = 0; a < p->narcs; a++)
        if (p->arcs[a].callee < p->nfuncs)
            ix.order[ix.start[p->arcs[a].callee + 1]++] = a;
    return ix;
}

static void json_callers(JsonBuilder *b, const Profile *p, const ArcsByCallee *ix, unsigned callee)
{
    npjson_member_array(b, "callers");
    for (unsigned k = ix->start[callee]; k < ix->start[callee + 1]; k++) {
        const ProfArc *arc = &p->arcs[ix->order[k]];
        json_builder_begin_object(b);
        npjson_member_string(b, "caller", p->funcs[arc->caller].name);
        npjson_member_u64(b, "call_site", arc->call_site);
        npjson_member_u64(b, "count", arc->count);
        npjson_member_u64(b, "inclusive_cycles", arc->inclusive_cycles);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

/* One function's object, built alone and rendered by json-glib. */
static char *function_text(JsonBuilder *b, const Profile *p, const ArcsByCallee *ix, unsigned i)
{
    const ProfFunc *f = &p->funcs[i];
    json_builder_reset(b);
    json_builder_begin_object(b);
    npjson_member_string(b, "name", f->name);
    npjson_member_u64(b, "address", f->addr);
    npjson_member_u64(b, "size", f->size);
    npjson_member_u64(b, "calls", f->calls);
    npjson_member_u64(b, "recursive_calls", f->recursive_calls);
    npjson_member_u64(b, "self_cycles", f->self_cycles);
    npjson_member_u64(b, "inclusive_cycles", f->inclusive_cycles);
    npjson_member_u64(b, "instructions", f->instructions);
    npjson_member_u64(b, "loads", f->loads);
    npjson_member_u64(b, "stores", f->stores);
    npjson_member_u64(b, "branches", f->branches);
    npjson_member_u64(b, "cond_branches", f->cond_branches);
    npjson_member_u64(b, "indirect_branches", f->indirect_branches);
    npjson_member_object(b, "stall_cycles"); /* 24k: waits inside blocks */
    static const char *const causes[] = { "load_use", "agen", "mdu", "fpu" };
    for (unsigned k = 0; k < G_N_ELEMENTS(causes); k++)
        npjson_member_u64(b, causes[k], f->waits[k]);
    json_builder_end_object(b);
    json_samples(b, p, f->samples);
    json_callers(b, p, ix, i);
    json_builder_end_object(b);
    g_autoptr(JsonNode) node = json_builder_get_root(b);
    return json_to_string(node, FALSE);
}

/* The "functions" array of a core. Its text is made one function at a time
 * straight into the document, in place of a marker string (the k-th marker
 * is core splices[k]'s array, summary_json below): the document's tree held
 * every function at once, about 2 KB each (issue 24: 120,000 functions
 * made most of a 1 GB peak), and the arrays made apart and then copied
 * into the document were a second copy of most of it (30,000 functions on
 * four cores: 44 MB). The bytes are those json-glib wrote before. */
#define SPLICE_MARK "\001nocprof-splice-%u\001"
#define SPLICE_MARK_JSON "\"\\u0001nocprof-splice-%u\\u0001\""

static void functions_append(GString *t, const Profile *p, FILE *out)
{
    bool first = true;
    g_string_append_c(t, '[');
    ArcsByCallee ix = { NULL, NULL };
    if (p)
        ix = arcs_by_callee(p);
    JsonBuilder *fb = json_builder_new();
    for (unsigned i = 0; p && i < p->nfuncs; i++) {
        const ProfFunc *f = &p->funcs[i];
        bool any_sample = false;
        for (unsigned h = 0; h < p->nperiods; h++)
            any_sample |= f->samples[h] != 0;
        bool always = i == profile_pseudo(p, PROF_IDLE) || i == profile_pseudo(p, PROF_INTERRUPT);
        if (f->hidden)
            continue;
        if (!always && !f->calls && !f->self_cycles && !f->inclusive_cycles && !any_sample)
            continue;
        g_autofree char *one = function_text(fb, p, &ix, i);
        if (!first)
            g_string_append_c(t, ',');
        first = false;
        g_string_append(t, one);
        if (out && t->len >= (1u << 20)) {   /* summary_json_write: out a MiB at a time */
            fwrite(t->str, 1, t->len, out);
            g_string_truncate(t, 0);
        }
    }
    g_object_unref(fb);
    g_free(ix.start);
    g_free(ix.order);
    g_string_append_c(t, ']');
}

static void json_functions(JsonBuilder *b, const Profile *p, GPtrArray *splices)
{
    char mark[48];
    g_snprintf(mark, sizeof mark, SPLICE_MARK, splices->len);
    npjson_member_string(b, "functions", mark);
    g_ptr_array_add(splices, (gpointer)p);
}

/* out with the k-th marker string replaced by the functions of splices[k],
 * into r, or with f into f (r a buffer). */
static void splice(GString *out, GPtrArray *splices, GString *r, FILE *f)
{
    const char *p = out->str;
    for (unsigned k = 0; k < splices->len; k++) {
        char mark[48];
        g_snprintf(mark, sizeof mark, SPLICE_MARK_JSON, k);
        const char *at = strstr(p, mark);
        g_assert(at);   /* json-glib writes \x01 as \u0001 */
        g_string_append_len(r, p, at - p);
        functions_append(r, splices->pdata[k], f);
        p = at + strlen(mark);
    }
    g_string_append(r, p);
    if (f)
        fwrite(r->str, 1, r->len, f);
    g_string_free(out, TRUE);
}

static void json_noc_lists(JsonBuilder *b, const NocStats *st)
{
    npjson_member_array(b, "links");
    for (unsigned i = 0; i < st->nlinks; i++) {
        json_builder_begin_object(b);
        npjson_member_u64(b, "from", st->links[i].from);
        npjson_member_u64(b, "to", st->links[i].to);
        npjson_member_u64(b, "flits", st->links[i].flits);
        npjson_member_double(b, "utilization", st->links[i].utilization);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    npjson_member_array(b, "pairs");
    for (unsigned s = 0; s < st->nodes; s++)
        for (unsigned d = 0; d < st->nodes; d++) {
            uint64_t pk = st->pair_packets[s * st->nodes + d];
            if (!pk)
                continue;
            json_builder_begin_object(b);
            npjson_member_u64(b, "src", s);
            npjson_member_u64(b, "dst", d);
            npjson_member_u64(b, "packets", pk);
            npjson_member_u64(b, "flits", st->pair_flits[s * st->nodes + d]);
            json_builder_end_object(b);
        }
    json_builder_end_array(b);
}

static void json_noc(JsonBuilder *b, const NocStats *st)
{
    npjson_member_object(b, "noc");
    json_noc_lists(b, st);
    npjson_member_object(b, "latency");
    npjson_member_u64(b, "min", st->lat_min);
    npjson_member_double(b, "mean", st->lat_mean);
    npjson_member_u64(b, "p50", st->lat_p50);
    npjson_member_u64(b, "p95", st->lat_p95);
    npjson_member_u64(b, "p99", st->lat_p99);
    npjson_member_u64(b, "max", st->lat_max);
    json_builder_end_object(b);
    npjson_member_u64(b, "packets", st->packets);
    npjson_member_u64(b, "flits", st->flits);
    npjson_member_u64(b, "cycles", st->cycles);
    npjson_member_u64(b, "stall_cycles", st->stall_cycles);
    npjson_member_u64(b, "inject_stall_cycles", st->inject_stall_total);
    npjson_member_array(b, "routers");
    for (unsigned r = 0; r < st->nodes; r++) {
        json_builder_begin_object(b);
        npjson_member_u64(b, "node", r);
        npjson_member_double(b, "occupancy_mean", st->router_occupancy_mean[r]);
        npjson_member_u64(b, "occupancy_max", st->router_occupancy_max[r]);
        npjson_member_u64(b, "stall_cycles", st->router_stall_cycles[r]);
        npjson_member_u64(b, "inject_stall_cycles", st->inject_stall_cycles[r]);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
}

static void json_fault(JsonBuilder *b, const CoreResult *c)
{
    json_builder_set_member_name(b, "fault");
    if (!c->faulted) {
        json_builder_add_null_value(b);
        return;
    }
    json_builder_begin_object(b);
    npjson_member_string(b, "kind", c->fault_kind);
    npjson_member_u64(b, "pc", c->fault_pc);
    npjson_member_string(b, "function", c->fault_function);
    npjson_member_string(b, "file", c->fault_file);
    npjson_member_u64(b, "line", c->fault_line);
    npjson_member_string(b, "message", c->fault_message);
    npjson_member_array(b, "stack");
    for (unsigned k = 0; c->fault_stack && c->fault_stack[k]; k++)
        npjson_string(b, c->fault_stack[k]);
    json_builder_end_array(b);
    json_builder_end_object(b);
}

/* "collection": the region of interest (null: the whole run), the cycles
 * collected and those that ran outside it. */
static void json_collection(JsonBuilder *b, const Profile *p)
{
    npjson_member_object(b, "collection");
    npjson_member_string(b, "region", p ? p->collection : NULL);
    npjson_member_u64(b, "collected_cycles", p ? p->cycles : 0);
    npjson_member_u64(b, "excluded_cycles", p ? p->excluded_cycles : 0);
    npjson_member_string(b, "filter", p ? p->filter : NULL);
    json_builder_end_object(b);
}

/* "wait": what a core stuck in a deadlock or livelock waited for, and
 * where in the firmware (SPEC 1, hang rule); null otherwise. */
static void json_wait(JsonBuilder *b, const CoreResult *c)
{
    json_builder_set_member_name(b, "wait");
    if (!c->wait_for) {
        json_builder_add_null_value(b);
        return;
    }
    json_builder_begin_object(b);
    npjson_member_string(b, "for", c->wait_for);
    json_builder_set_member_name(b, "peer");
    if (c->wait_peer >= 0)
        json_builder_add_int_value(b, c->wait_peer);
    else
        json_builder_add_null_value(b);
    npjson_member_u64(b, "pc", c->wait_pc);
    npjson_member_string(b, "function", c->wait_function);
    npjson_member_string(b, "file", c->wait_file);
    npjson_member_u64(b, "line", c->wait_line);
    json_builder_end_object(b);
}

static void json_core(JsonBuilder *b, const CoreResult *c, GPtrArray *splices)
{
    json_builder_begin_object(b);
    npjson_member_u64(b, "id", c->id);
    npjson_member_string(b, "elf", c->elf);
    npjson_member_string(b, "status", c->status);
    npjson_member_i64(b, "exit_code", c->exit_code);
    json_fault(b, c);
    npjson_member_u64(b, "instructions", c->instructions);
    npjson_member_u64(b, "cycles", c->cycles);
    npjson_member_u64(b, "busy_cycles", c->busy_cycles);
    npjson_member_u64(b, "idle_cycles", c->idle_cycles);
    npjson_member_u64(b, "irq_cycles", c->irq_cycles);
    npjson_member_u64(b, "interrupts", c->interrupts);
    npjson_member_u64(b, "waits", c->waits);
    json_wait(b, c);
    npjson_member_object(b, "stack");
    npjson_member_u64(b, "lowest_sp", c->stack_lowest);
    npjson_member_u64(b, "bytes_used", c->stack_used);
    json_builder_end_object(b);
    json_samples(b, c->prof, NULL);
    json_functions(b, c->prof, splices);
    json_never_called(b, c->prof);
    json_collection(b, c->prof);
    json_builder_end_object(b);
}

/* "merge": {"runs": [{"folder", "firmware_sha256": [per core]}],
 * "forced": ["[timing] load: ..."]} */
static void json_merge(JsonBuilder *b, const RunInfo *run)
{
    npjson_member_object(b, "merge");
    npjson_member_array(b, "runs");
    for (const char *const *r = run->merge_runs; *r; r++) {
        const char *tab = strchr(*r, '\t');
        g_autofree char *folder = tab ? g_strndup(*r, (gsize)(tab - *r)) : g_strdup(*r);
        g_auto(GStrv) hashes = g_strsplit(tab ? tab + 1 : "", ",", -1);
        json_builder_begin_object(b);
        npjson_member_string(b, "folder", folder);
        npjson_member_array(b, "firmware_sha256");
        for (char **h = hashes; *h; h++)
            if (**h)
                npjson_string(b, *h);
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    npjson_member_array(b, "forced");
    for (const char *const *f = run->merge_forced; f && *f; f++)
        npjson_string(b, *f);
    json_builder_end_array(b);
    json_builder_end_object(b);
}

/* The document with a marker for each core's functions (splices). */
static GString *skeleton(const RunInfo *run, GPtrArray *splices)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    npjson_member_string(b, "nocprof", NOCPROF_VERSION_STRING);
    npjson_member_string(b, "config_file", run->config_path);
    json_builder_set_member_name(b, "config");
    json_config(b, run->cfg);
    npjson_member_u64(b, "exit_status", (uint64_t)run->exit_status);
    npjson_member_bool(b, "deadlock", run->deadlock);
    if (run->warnings && run->warnings[0]) {   /* only when a limit truncated something */
        npjson_member_array(b, "warnings");
        for (unsigned i = 0; run->warnings[i]; i++)
            npjson_string(b, run->warnings[i]);
        json_builder_end_array(b);
    }
    npjson_member_bool(b, "livelock", run->livelock);
    if (run->deadlock) {
        npjson_member_u64(b, "end_cycle", run->end_cycle);
        g_autofree unsigned *cycle = g_new(unsigned, run->ncores + 1);
        unsigned n = run_wait_cycle(run, cycle);
        npjson_member_array(b, "wait_cycle"); /* [] when there is none */
        for (unsigned k = 0; k < n; k++)
            json_builder_add_int_value(b, cycle[k]);
        json_builder_end_array(b);
    }
    if (run->merge_runs)                        /* only for `nocprof merge` */
        json_merge(b, run);
    npjson_member_array(b, "cores");
    for (unsigned i = 0; i < run->ncores; i++)
        json_core(b, &run->cores[i], splices);
    json_builder_end_array(b);
    json_noc(b, run->noc);
    if (run->aliasing)
        npjson_member_node(b, "aliasing", json_node_copy(run->aliasing));
    if (run->communication)
        npjson_member_node(b, "communication", json_node_copy(run->communication));
    json_builder_end_object(b);
    return npjson_finish(b);
}

GString *summary_json(const RunInfo *run)
{
    g_autoptr(GPtrArray) splices = g_ptr_array_new();   /* const Profile * (NULL: none) */
    GString *r = g_string_new(NULL);
    splice(skeleton(run, splices), splices, r, NULL);
    return r;
}

bool summary_json_write(const RunInfo *run, FILE *f)
{
    g_autoptr(GPtrArray) splices = g_ptr_array_new();
    GString *r = g_string_new(NULL);
    splice(skeleton(run, splices), splices, r, f);
    g_string_free(r, TRUE);
    return !ferror(f);
}

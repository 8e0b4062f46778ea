// SPDX-License-Identifier: GPL-2.0-or-later
/* summary_json.c — summary.json (SPEC section 6), streamed (base/json.h). */
#include "profiler/formats/summary_json.h"

#include <string.h>

#include "base/json.h"

/* "config": the effective values, by group; numbers, sample_period a list. */
static void json_config(NpJson *b, const Config *cfg)
{
    npjson_begin_object(b);
    const char *group, *key, *cur = NULL;
    for (unsigned i = 0; config_key(i, &group, &key); i++) {
        if (strcmp(group, "sched") == 0)
            continue; /* speed knobs: the same results whatever they are */
        if (!cur || strcmp(cur, group) != 0) {
            if (cur)
                npjson_end_object(b);
            npjson_member_object(b, group);
            cur = group;
        }
        g_autofree char *v = config_value_string(cfg, group, key);
        if (strcmp(key, "sample_period") == 0) {
            npjson_member_array(b, key);
            g_auto(GStrv) parts = g_strsplit(v, ",", -1);
            for (char **p = parts; *p; p++)
                npjson_u64(b, g_ascii_strtoull(*p, NULL, 10));
            npjson_end_array(b);
        } else if ((strcmp(group, "timing") == 0 && strcmp(key, "model") == 0)
                   || (strcmp(group, "cache") == 0 && strcmp(key, "d_model") == 0)) {
            npjson_member_string(b, key, v); /* "24k"/"flat", "predict"/"hook": names, as set */
        } else {
            npjson_member_u64(b, key, g_ascii_strtoull(v, NULL, 10));
        }
    }
    if (cur)
        npjson_end_object(b);
    npjson_end_object(b);
}

/* "never_called": the ELF's functions that never ran (gprof -z). */
static void json_never_called(NpJson *b, const Profile *p)
{
    npjson_member_array(b, "never_called");
    unsigned n = 0;
    g_autofree unsigned *idx = p ? profile_never_called(p, &n) : NULL;
    for (unsigned j = 0; j < n; j++)
        npjson_string(b, p->funcs[idx[j]].name);
    npjson_end_array(b);
}

/* {"<period>": n, ...} of one function (or of the core's totals). */
static void json_samples(NpJson *b, const Profile *p, const uint64_t *per_hist)
{
    npjson_member_object(b, "samples");
    for (unsigned h = 0; p && h < p->nperiods; h++) {
        char key[16];
        g_snprintf(key, sizeof key, "%u", p->hists[h].period);
        npjson_member_u64(b, key, per_hist ? per_hist[h] : p->hists[h].total);
    }
    npjson_end_object(b);
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

static void json_callers(NpJson *b, const Profile *p, const ArcsByCallee *ix, unsigned callee)
{
    npjson_member_array(b, "callers");
    for (unsigned k = ix->start[callee]; k < ix->start[callee + 1]; k++) {
        const ProfArc *arc = &p->arcs[ix->order[k]];
        npjson_begin_object(b);
        npjson_member_string(b, "caller", p->funcs[arc->caller].name);
        npjson_member_u64(b, "call_site", arc->call_site);
        npjson_member_u64(b, "count", arc->count);
        npjson_member_u64(b, "inclusive_cycles", arc->inclusive_cycles);
        npjson_end_object(b);
    }
    npjson_end_array(b);
}

/* One function's object. */
static void json_function(NpJson *b, const Profile *p, const ArcsByCallee *ix, unsigned i, bool cache)
{
    const ProfFunc *f = &p->funcs[i];
    npjson_begin_object(b);
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
    npjson_end_object(b);
    if (cache) { /* [cache] enabled: its L1 misses */
        npjson_member_object(b, "cache_misses");
        npjson_member_u64(b, "i1", f->i1_misses);
        npjson_member_u64(b, "d1_read", f->d1r_misses);
        npjson_member_u64(b, "d1_write", f->d1w_misses);
        npjson_end_object(b);
    }
    json_samples(b, p, f->samples);
    json_callers(b, p, ix, i);
    npjson_end_object(b);
}

/* The "functions" array of a core, streamed into the document like the
 * rest (a json-glib tree of every function, about 2 KB each, made most of
 * a 1 GB peak with 120,000 functions: issue 24). */
static void json_functions(NpJson *b, const Profile *p, bool cache)
{
    ArcsByCallee ix = { NULL, NULL };
    if (p)
        ix = arcs_by_callee(p);
    npjson_member_array(b, "functions");
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
        json_function(b, p, &ix, i, cache);
    }
    npjson_end_array(b);
    g_free(ix.start);
    g_free(ix.order);
}

static void json_noc_lists(NpJson *b, const NocStats *st)
{
    npjson_member_array(b, "links");
    for (unsigned i = 0; i < st->nlinks; i++) {
        npjson_begin_object(b);
        npjson_member_u64(b, "from", st->links[i].from);
        npjson_member_u64(b, "to", st->links[i].to);
        npjson_member_u64(b, "flits", st->links[i].flits);
        npjson_member_double(b, "utilization", st->links[i].utilization);
        npjson_end_object(b);
    }
    npjson_end_array(b);
    npjson_member_array(b, "pairs");
    for (unsigned s = 0; s < st->nodes; s++)
        for (unsigned d = 0; d < st->nodes; d++) {
            uint64_t pk = st->pair_packets[s * st->nodes + d];
            if (!pk)
                continue;
            npjson_begin_object(b);
            npjson_member_u64(b, "src", s);
            npjson_member_u64(b, "dst", d);
            npjson_member_u64(b, "packets", pk);
            npjson_member_u64(b, "flits", st->pair_flits[s * st->nodes + d]);
            npjson_end_object(b);
        }
    npjson_end_array(b);
}

static void json_noc(NpJson *b, const NocStats *st)
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
    npjson_end_object(b);
    npjson_member_u64(b, "packets", st->packets);
    npjson_member_u64(b, "flits", st->flits);
    npjson_member_u64(b, "cycles", st->cycles);
    npjson_member_u64(b, "stall_cycles", st->stall_cycles);
    npjson_member_u64(b, "inject_stall_cycles", st->inject_stall_total);
    npjson_member_array(b, "routers");
    for (unsigned r = 0; r < st->nodes; r++) {
        npjson_begin_object(b);
        npjson_member_u64(b, "node", r);
        npjson_member_double(b, "occupancy_mean", st->router_occupancy_mean[r]);
        npjson_member_u64(b, "occupancy_max", st->router_occupancy_max[r]);
        npjson_member_u64(b, "stall_cycles", st->router_stall_cycles[r]);
        npjson_member_u64(b, "inject_stall_cycles", st->inject_stall_cycles[r]);
        npjson_end_object(b);
    }
    npjson_end_array(b);
    npjson_end_object(b);
}

/* "frames": a fault's or a stuck core's call stack (run.h FaultFrame) */
static void json_frames(NpJson *b, const FaultFrame *frames, unsigned n)
{
    npjson_member_array(b, "frames");
    for (unsigned k = 0; k < n; k++) {
        const FaultFrame *f = &frames[k];
        npjson_begin_object(b);
        npjson_member_string(b, "function", f->function);
        npjson_member_u64(b, "pc", f->pc);
        npjson_member_string(b, "file", f->file);
        npjson_member_u64(b, "line", f->line);
        npjson_member_u64(b, "repeat", f->repeat);
        npjson_member_bool(b, "inlined", f->inlined);
        npjson_end_object(b);
    }
    npjson_end_array(b);
}

/* "pc", "function", "file", "line": a place in the firmware */
static void json_where(NpJson *b, uint32_t pc, const char *function, const char *file, unsigned line)
{
    npjson_member_u64(b, "pc", pc);
    npjson_member_string(b, "function", function);
    npjson_member_string(b, "file", file);
    npjson_member_u64(b, "line", line);
}

static void json_fault(NpJson *b, const CoreResult *c)
{
    if (!c->faulted) {
        npjson_member_null(b, "fault");
        return;
    }
    npjson_member_object(b, "fault");
    npjson_member_string(b, "kind", c->fault_kind);
    json_where(b, c->fault_pc, c->fault_function, c->fault_file, c->fault_line);
    npjson_member_string(b, "message", c->fault_message);
    npjson_member_array(b, "stack");
    for (unsigned k = 0; c->fault_stack && c->fault_stack[k]; k++)
        npjson_string(b, c->fault_stack[k]);
    npjson_end_array(b);
    static const char *const regs[34] = {
        "zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7",
        "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "t8", "t9", "k0", "k1", "gp", "sp", "fp", "ra", "hi", "lo",
    };
    if (c->fault_has_regs) {
        npjson_member_object(b, "registers");
        for (unsigned k = 0; k < G_N_ELEMENTS(regs); k++)
            npjson_member_u64(b, regs[k], c->fault_regs[k]);
        npjson_end_object(b);
    } else {
        npjson_member_null(b, "registers");
    }
    json_frames(b, c->fault_frames, c->nfault_frames);
    npjson_end_object(b);
}

/* "collection": the region of interest (null: the whole run), the cycles
 * collected and those that ran outside it. */
static void json_collection(NpJson *b, const Profile *p)
{
    npjson_member_object(b, "collection");
    npjson_member_string(b, "region", p ? p->collection : NULL);
    npjson_member_u64(b, "collected_cycles", p ? p->cycles : 0);
    npjson_member_u64(b, "excluded_cycles", p ? p->excluded_cycles : 0);
    npjson_member_string(b, "filter", p ? p->filter : NULL);
    npjson_end_object(b);
}

/* "wait": what a core stuck in a deadlock or livelock waited for, and
 * where in the firmware (SPEC 1, hang rule); null otherwise. */
static void json_wait(NpJson *b, const CoreResult *c)
{
    if (!c->wait_for) {
        npjson_member_null(b, "wait");
        return;
    }
    npjson_member_object(b, "wait");
    npjson_member_string(b, "for", c->wait_for);
    if (c->wait_peer >= 0)
        npjson_member_i64(b, "peer", c->wait_peer);
    else
        npjson_member_null(b, "peer");
    json_where(b, c->wait_pc, c->wait_function, c->wait_file, c->wait_line);
    npjson_member_string(b, "why", c->wait_why);
    npjson_member_bool(b, "asleep", c->wait_asleep);
    npjson_end_object(b);
}

/* [cache] enabled: the core's L1 counts over the whole run; hits are the
 * accesses that did not miss */
static void json_cache(NpJson *b, const CoreResult *c)
{
    uint64_t dm = c->d1_read_misses + c->d1_write_misses;
    npjson_member_object(b, "cache");
    npjson_member_object(b, "i1");
    npjson_member_u64(b, "accesses", c->i1_accesses);
    npjson_member_u64(b, "hits", c->i1_accesses - MIN(c->i1_accesses, c->i1_misses));
    npjson_member_u64(b, "misses", c->i1_misses);
    npjson_end_object(b);
    npjson_member_object(b, "d1");
    npjson_member_u64(b, "accesses", c->d1_accesses);
    npjson_member_u64(b, "hits", c->d1_accesses - MIN(c->d1_accesses, dm));
    npjson_member_u64(b, "misses", dm);
    npjson_member_u64(b, "read_misses", c->d1_read_misses);
    npjson_member_u64(b, "write_misses", c->d1_write_misses);
    npjson_member_u64(b, "writebacks", c->d1_writebacks);
    npjson_end_object(b);
    npjson_member_u64(b, "miss_cycles", c->cache_cycles);
    npjson_end_object(b);
}

/* "stop": where a core stopped while live (deadlock, livelock, the cycle
 * limit, an interruption) and its call stack there; null otherwise. */
static void json_stop(NpJson *b, const CoreResult *c)
{
    if (strcmp(c->status, "deadlock") != 0 && strcmp(c->status, "limit") != 0
        && strcmp(c->status, "interrupted") != 0) {
        npjson_member_null(b, "stop");
        return;
    }
    npjson_member_object(b, "stop");
    json_where(b, c->stop_pc, c->stop_function, c->stop_file, c->stop_line);
    json_frames(b, c->stop_frames, c->nstop_frames);
    npjson_end_object(b);
}

static void json_core(NpJson *b, const CoreResult *c, bool cache)
{
    npjson_begin_object(b);
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
    json_stop(b, c);
    npjson_member_object(b, "stack");
    npjson_member_u64(b, "lowest_sp", c->stack_lowest);
    npjson_member_u64(b, "bytes_used", c->stack_used);
    npjson_end_object(b);
    if (cache)
        json_cache(b, c);
    json_samples(b, c->prof, NULL);
    json_functions(b, c->prof, cache);
    json_never_called(b, c->prof);
    json_collection(b, c->prof);
    npjson_end_object(b);
}

/* "merge": {"runs": [{"folder", "firmware_sha256": [per core]}],
 * "forced": ["[timing] load: ..."]} */
static void json_merge(NpJson *b, const RunInfo *run)
{
    npjson_member_object(b, "merge");
    npjson_member_array(b, "runs");
    for (const char *const *r = run->merge_runs; *r; r++) {
        const char *tab = strchr(*r, '\t');
        g_autofree char *folder = tab ? g_strndup(*r, (gsize)(tab - *r)) : g_strdup(*r);
        g_auto(GStrv) hashes = g_strsplit(tab ? tab + 1 : "", ",", -1);
        npjson_begin_object(b);
        npjson_member_string(b, "folder", folder);
        npjson_member_array(b, "firmware_sha256");
        for (char **h = hashes; *h; h++)
            if (**h)
                npjson_string(b, *h);
        npjson_end_array(b);
        npjson_end_object(b);
    }
    npjson_end_array(b);
    npjson_member_array(b, "forced");
    for (const char *const *f = run->merge_forced; f && *f; f++)
        npjson_string(b, *f);
    npjson_end_array(b);
    npjson_end_object(b);
}

/* The document into b (a string or a file writer). */
static void summary_doc(NpJson *b, const RunInfo *run)
{
    npjson_begin_object(b);
    npjson_member_string(b, "nocprof", NOCPROF_VERSION_STRING);
    npjson_member_string(b, "config_file", run->config_path);
    npjson_member(b, "config");
    json_config(b, run->cfg);
    npjson_member_u64(b, "exit_status", (uint64_t)run->exit_status);
    npjson_member_bool(b, "deadlock", run->deadlock);
    if (run->warnings && run->warnings[0]) {   /* only when a limit truncated something */
        npjson_member_array(b, "warnings");
        for (unsigned i = 0; run->warnings[i]; i++)
            npjson_string(b, run->warnings[i]);
        npjson_end_array(b);
    }
    npjson_member_bool(b, "livelock", run->livelock);
    if (run->deadlock) {
        npjson_member_u64(b, "end_cycle", run->end_cycle);
        g_autofree unsigned *cycle = g_new(unsigned, run->ncores + 1);
        unsigned n = run_wait_cycle(run, cycle);
        npjson_member_array(b, "wait_cycle"); /* [] when there is none */
        for (unsigned k = 0; k < n; k++)
            npjson_u64(b, cycle[k]);
        npjson_end_array(b);
    }
    if (run->merge_runs)                        /* only for `nocprof merge` */
        json_merge(b, run);
    npjson_member_array(b, "cores");
    for (unsigned i = 0; i < run->ncores; i++)
        json_core(b, &run->cores[i], run->cfg && run->cfg->cache.enabled);
    npjson_end_array(b);
    json_noc(b, run->noc);
    if (run->aliasing)              /* written by aliasing_json */
        npjson_member_raw(b, "aliasing", run->aliasing);
    if (run->communication)         /* written by comm_json */
        npjson_member_raw(b, "communication", run->communication);
    npjson_end_object(b);
}

GString *summary_json(const RunInfo *run)
{
    NpJson *b = npjson_new();
    summary_doc(b, run);
    return npjson_finish(b);
}

bool summary_json_write(const RunInfo *run, FILE *f)
{
    NpJson *b = npjson_new_file(f);
    summary_doc(b, run);
    return npjson_finish_file(b);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_data_merge.c — summing saved runs of the same firmware
 * (`nocprof merge`, like `gprof -s`). See profile_data.h. */
#include "profiler/data/profile_data.h"

#include <stdlib.h>
#include <string.h>

/* Arcs: union by (callee, caller, site), counts and cycles summed. */
static void sum_arcs(Profile *acc, const Profile *p)
{
    ProfArc *all = g_new(ProfArc, acc->narcs + p->narcs + 1);
    if (acc->narcs)
        memcpy(all, acc->arcs, sizeof *all * acc->narcs);
    if (p->narcs)
        memcpy(all + acc->narcs, p->arcs, sizeof *all * p->narcs);
    unsigned n = acc->narcs + p->narcs, out = 0;
    qsort(all, n, sizeof *all, profile_arc_cmp);
    for (unsigned i = 0; i < n; i++) {
        if (out && profile_arc_cmp(&all[out - 1], &all[i]) == 0) {
            all[out - 1].count += all[i].count;
            all[out - 1].inclusive_cycles += all[i].inclusive_cycles;
        } else {
            all[out++] = all[i];
        }
    }
    g_free(acc->arcs);
    acc->arcs = all;
    acc->narcs = out;
}

/* Blocks: union by (addr, instructions), counts and cycles summed. */
static void sum_blocks(Profile *acc, const Profile *p)
{
    ProfBlock *all = g_new(ProfBlock, acc->nblocks + p->nblocks + 1);
    if (acc->nblocks)
        memcpy(all, acc->blocks, sizeof *all * acc->nblocks);
    if (p->nblocks)
        memcpy(all + acc->nblocks, p->blocks, sizeof *all * p->nblocks);
    for (unsigned i = 0; i < p->nblocks; i++) {   /* acc owns them */
        all[acc->nblocks + i].icycles = g_memdup2(p->blocks[i].icycles, sizeof(uint64_t) * p->blocks[i].ninsns);
        all[acc->nblocks + i].cut = g_memdup2(p->blocks[i].cut, sizeof(uint64_t) * p->blocks[i].ninsns);
    }
    unsigned n = acc->nblocks + p->nblocks, out = 0;
    qsort(all, n, sizeof *all, profile_block_cmp);
    for (unsigned i = 0; i < n; i++) {
        if (out && profile_block_cmp(&all[out - 1], &all[i]) == 0) {
            ProfBlock *o = &all[out - 1];
            if (o->icycles || all[i].icycles) {   /* per instruction, summed */
                uint64_t *s = g_new(uint64_t, o->ninsns);
                for (uint32_t k = 0; k < o->ninsns; k++)
                    s[k] = prof_block_insn_cycles(o, k) + prof_block_insn_cycles(&all[i], k);
                g_free(o->icycles);
                o->icycles = s;
            }
            if (o->cut || all[i].cut) {   /* cut runs per instruction, summed */
                uint64_t *c = g_new0(uint64_t, o->ninsns);
                for (uint32_t k = 0; k < o->ninsns; k++)
                    c[k] = (o->cut ? o->cut[k] : 0) + (all[i].cut ? all[i].cut[k] : 0);
                g_free(o->cut);
                o->cut = c;
            }
            g_free(all[i].icycles);
            g_free(all[i].cut);
            o->count += all[i].count;
            o->cycles += all[i].cycles;
        } else {
            all[out++] = all[i];
        }
    }
    g_free(acc->blocks);
    acc->blocks = all;
    acc->nblocks = out;
    acc->max_block_insns = MAX(acc->max_block_insns, p->max_block_insns);
}

/* Cache misses: union by pc, summed (both sorted by pc). */
static void sum_misses(Profile *acc, const Profile *p)
{
    ProfMiss *all = g_new(ProfMiss, acc->nmisses + p->nmisses + 1);
    size_t i = 0, j = 0, out = 0;
    while (i < acc->nmisses || j < p->nmisses) {
        if (j == p->nmisses || (i < acc->nmisses && acc->misses[i].pc < p->misses[j].pc)) {
            all[out++] = acc->misses[i++];
        } else if (i == acc->nmisses || p->misses[j].pc < acc->misses[i].pc) {
            all[out++] = p->misses[j++];
        } else {
            all[out] = acc->misses[i++];
            all[out].i1 += p->misses[j].i1;
            all[out].d1r += p->misses[j].d1r;
            all[out++].d1w += p->misses[j++].d1w;
        }
    }
    g_free(acc->misses);
    acc->misses = all;
    acc->nmisses = out;
}

/* A context's key, (parent << 32) | func, mixed (Fibonacci hashing):
 * g_int64_hash is parent ^ func, which for a tree numbered in order
 * fills a dense run of values and GLib's open addressing then probes
 * along it (merging a run of 66,000 contexts took 1.2 s of CPU). */
static guint ctx_key_hash(gconstpointer k)
{
    return (guint)((*(const guint64 *)k * UINT64_C(0x9E3779B97F4A7C15)) >> 32);
}

/* Calling contexts: p's tree grafted onto acc's, path by path. */
static void sum_contexts(Profile *acc, const Profile *p)
{
    if (!p->nctxs)
        return;
    GArray *ctx = g_array_new(FALSE, FALSE, sizeof(ProfCtx));
    g_array_append_vals(ctx, acc->ctxs, acc->nctxs);
    GHashTable *index = g_hash_table_new_full(ctx_key_hash, g_int64_equal, g_free, NULL);
    for (unsigned i = 1; i < ctx->len; i++) {
        gint64 *k = g_new(gint64, 1);
        *k = ((gint64)g_array_index(ctx, ProfCtx, i).parent << 32) | g_array_index(ctx, ProfCtx, i).func;
        g_hash_table_insert(index, k, GUINT_TO_POINTER(i));
    }
    unsigned *map = g_new(unsigned, p->nctxs);
    if (!ctx->len) {
        ProfCtx root = { .parent = 0, .func = p->ctxs[0].func };
        g_array_append_val(ctx, root);
    }
    map[0] = 0;
    g_array_index(ctx, ProfCtx, 0).self += p->ctxs[0].self;
    for (size_t n = 1; n < p->nctxs; n++) {
        gint64 key = ((gint64)map[p->ctxs[n].parent] << 32) | p->ctxs[n].func;
        gpointer v;
        if (g_hash_table_lookup_extended(index, &key, NULL, &v)) {
            map[n] = GPOINTER_TO_UINT(v);
        } else {
            ProfCtx c = { .parent = map[p->ctxs[n].parent], .func = p->ctxs[n].func };
            g_array_append_val(ctx, c);
            map[n] = ctx->len - 1;
            g_hash_table_insert(index, g_memdup2(&key, sizeof key), GUINT_TO_POINTER(map[n]));
        }
        g_array_index(ctx, ProfCtx, map[n]).self += p->ctxs[n].self;
    }
    g_free(map);
    g_hash_table_destroy(index);
    g_free(acc->ctxs);
    acc->nctxs = ctx->len;
    acc->ctxs = (ProfCtx *)(void *)g_array_free(ctx, FALSE);
}

/* Timeline spans: p's appended (each run's timeline starts at cycle 0). */
static void sum_events(Profile *acc, const Profile *p)
{
    acc->events = g_renew(ProfEvent, acc->events, acc->nevents + p->nevents + 1);
    if (p->nevents)
        memcpy(acc->events + acc->nevents, p->events, sizeof *p->events * p->nevents);
    acc->nevents += p->nevents;
    acc->events_dropped += p->events_dropped;
    acc->contexts_dropped += p->contexts_dropped;
    acc->blocks_full |= p->blocks_full;
}

bool profile_sum(Profile *acc, const Profile *p, GError **error)
{
    bool same = acc->nfuncs == p->nfuncs && acc->nperiods == p->nperiods;
    for (unsigned h = 0; same && h < p->nperiods; h++)
        same = acc->hists[h].period == p->hists[h].period && acc->hists[h].nranges == p->hists[h].nranges
            && acc->hists[h].nbins == p->hists[h].nbins
            && (!p->hists[h].nranges || memcmp(acc->hists[h].ranges, p->hists[h].ranges,
                                               sizeof(ProfRange) * p->hists[h].nranges) == 0);
    if (!same) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_DATA,
                    "core %u: the profiles have different functions or sampling periods", p->core);
        return false;
    }
    acc->cycles += p->cycles;
    acc->instructions += p->instructions;
    acc->idle_cycles += p->idle_cycles;
    acc->irq_cycles += p->irq_cycles;
    acc->busy_cycles += p->busy_cycles;
    acc->excluded_cycles += p->excluded_cycles;
    for (unsigned i = 0; i < p->nfuncs; i++) {
        ProfFunc *a = &acc->funcs[i];
        const ProfFunc *f = &p->funcs[i];
        a->calls += f->calls;
        a->recursive_calls += f->recursive_calls;
        a->self_cycles += f->self_cycles;
        a->inclusive_cycles += f->inclusive_cycles;
        a->instructions += f->instructions;
        for (unsigned e = 0; e < PROF_NEVENTS; e++)
            a->events[e] += f->events[e];
        for (unsigned h = 0; h < p->nperiods; h++)
            a->samples[h] += f->samples[h];
    }
    for (unsigned h = 0; h < p->nperiods; h++) {
        ProfHist *a = &acc->hists[h];
        const ProfHist *x = &p->hists[h];
        for (uint32_t k = 0; k < x->nbins; k++)
            a->bins[k] += x->bins[k];
        a->idle += x->idle;
        a->outside += x->outside;
        a->total += x->total;
    }
    sum_arcs(acc, p);
    sum_blocks(acc, p);
    sum_misses(acc, p);
    profile_stalls_add(acc, p->stalls, p->nstalls);
    sum_contexts(acc, p);
    sum_events(acc, p);
    return true;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Nearest rank, as noc_stats: the smallest latency with at least
 * ceil(pct * n / 100) latencies <= it. */
static uint64_t percentile(const uint64_t *sorted, size_t n, unsigned pct)
{
    size_t rank = (pct * n + 99) / 100;
    return sorted[rank ? rank - 1 : 0];
}

/* Latency percentiles of the merged packet log, exact when no run's log
 * dropped a packet; otherwise the larger of the two runs' (an upper bound). */
static void sum_latency(ProfileData *acc, const ProfileData *d, NocStats *a, const NocStats *s)
{
    uint64_t pa = a->packets, pb = s->packets;
    if (pb)
        a->lat_mean = pa ? (a->lat_mean * (double)pa + s->lat_mean * (double)pb) / (double)(pa + pb) : s->lat_mean;
    if (pb && (!pa || s->lat_min < a->lat_min))
        a->lat_min = s->lat_min;
    a->lat_max = MAX(a->lat_max, s->lat_max);
    if (!acc->packets_dropped && !d->packets_dropped && acc->npackets + d->npackets == pa + pb && pa + pb) {
        size_t n = acc->npackets + d->npackets;
        uint64_t *lat = g_new(uint64_t, n);
        for (size_t i = 0; i < n; i++) {
            const NocPacketRecord *r = i < acc->npackets ? &acc->packets[i] : &d->packets[i - acc->npackets];
            lat[i] = r->delivered - r->sent;
        }
        qsort(lat, n, sizeof *lat, cmp_u64);
        a->lat_p50 = percentile(lat, n, 50);
        a->lat_p95 = percentile(lat, n, 95);
        a->lat_p99 = percentile(lat, n, 99);
        g_free(lat);
    } else {
        a->lat_p50 = MAX(a->lat_p50, s->lat_p50);
        a->lat_p95 = MAX(a->lat_p95, s->lat_p95);
        a->lat_p99 = MAX(a->lat_p99, s->lat_p99);
    }
}

static void sum_noc(ProfileData *acc, const ProfileData *d)
{
    NocStats *a = acc->noc;
    const NocStats *s = d->noc;
    unsigned n = a->nodes;
    sum_latency(acc, d, a, s);
    uint64_t ca = a->cycles, cb = s->cycles;
    a->cycles += s->cycles;
    for (unsigned i = 0; i < a->nlinks; i++) {
        for (unsigned k = 0; k < s->nlinks; k++)
            if (s->links[k].from == a->links[i].from && s->links[k].to == a->links[i].to)
                a->links[i].flits += s->links[k].flits;
        a->links[i].utilization = a->cycles ? (double)a->links[i].flits / (double)a->cycles : 0;
    }
    for (unsigned i = 0; i < n * n; i++) {
        a->pair_packets[i] += s->pair_packets[i];
        a->pair_flits[i] += s->pair_flits[i];
    }
    a->packets += s->packets;
    a->flits += s->flits;
    for (unsigned r = 0; r < n; r++) {
        a->router_occupancy_mean[r] = a->cycles ? (a->router_occupancy_mean[r] * (double)ca
                                                   + s->router_occupancy_mean[r] * (double)cb) / (double)a->cycles
                                                : 0;
        a->router_occupancy_max[r] = MAX(a->router_occupancy_max[r], s->router_occupancy_max[r]);
        a->router_stall_cycles[r] += s->router_stall_cycles[r];
        a->inject_stall_cycles[r] += s->inject_stall_cycles[r];
    }
    a->stall_cycles += s->stall_cycles;
    a->inject_stall_total += s->inject_stall_total;
    acc->packets = g_renew(NocPacketRecord, acc->packets, acc->npackets + d->npackets + 1);
    if (d->npackets)
        memcpy(acc->packets + acc->npackets, d->packets, sizeof *d->packets * d->npackets);
    acc->npackets += d->npackets;
    acc->packets_dropped += d->packets_dropped;
}

static void strv_add(char ***v, char *s)
{
    guint n = *v ? g_strv_length(*v) : 0;
    *v = g_renew(char *, *v, n + 2);
    (*v)[n] = s;
    (*v)[n + 1] = NULL;
}

/* "FOLDER\tSHA256,SHA256..." of a run that is not itself a merge. */
static char *run_entry(const ProfileData *d, const char *name)
{
    g_autofree char *hashes = g_strjoinv(",", d->elf_sha256);
    return g_strdup_printf("%s\t%s", name, hashes);
}

void profile_data_merge_begin(ProfileData *acc, const char *name)
{
    if (!acc->merge_runs)
        strv_add(&acc->merge_runs, run_entry(acc, name));
}

/* The groups that make the platform: results of runs that differ in any
 * of their keys cannot be summed (merge --force records the difference). */
static const char *const platform_groups[] = { "mesh", "memory", "clock", "timing", "cache", "noc", NULL };

static bool same_platform(ProfileData *acc, const ProfileData *d, const char *name, bool force, GError **error)
{
    const char *group, *key;
    for (unsigned k = 0; config_key(k, &group, &key); k++) {
        if (!g_strv_contains(platform_groups, group))
            continue;
        g_autofree char *a = config_value_string(&acc->cfg, group, key);
        g_autofree char *b = config_value_string(&d->cfg, group, key);
        if (strcmp(a, b) == 0)
            continue;
        g_autofree char *what = g_strdup_printf("[%s] %s: %s in %s, %s in the first run", group, key, b, name, a);
        if (!force) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_DATA, "%s: runs of different platforms are not merged "
                        "(--force merges them anyway and records it)", what);
            return false;
        }
        strv_add(&acc->merge_forced, g_steal_pointer(&what));
    }
    return true;
}

/* Same firmware (content hash), same number of cores, same sampling
 * periods. */
static bool same_run_kind(const ProfileData *acc, const ProfileData *d, const char *name, GError **error)
{
    if (d->ncores != acc->ncores) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_DATA, "%s: %u cores, the first run has %u", name,
                    d->ncores, acc->ncores);
        return false;
    }
    for (unsigned i = 0; i < d->ncores; i++)
        if (strcmp(d->elf_sha256[i], acc->elf_sha256[i]) != 0) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_DATA,
                        "%s: core %u ran %s (SHA-256 %.16s...), the first run %s (SHA-256 %.16s...): "
                        "only runs of the same firmware can be merged", name, i, d->cores[i].elf,
                        d->elf_sha256[i], acc->cores[i].elf, acc->elf_sha256[i]);
            return false;
        }
    bool same = d->cfg.nperiods == acc->cfg.nperiods
             && memcmp(d->cfg.periods, acc->cfg.periods, sizeof(uint32_t) * d->cfg.nperiods) == 0;
    for (unsigned i = 0; same && i < d->ncores; i++)
        same = !d->profs[i] == !acc->profs[i];
    if (!same)
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_DATA,
                    "%s: other sampling periods or profiling than the first run (merge needs the same)", name);
    return same;
}

/* Every count of a run that profile.data's reader accepted is bounded by
 * its cores' cycles (docs/reports.md): the sum's cycles stay within what
 * one run can have, [run] max_cycles' bound of 2^62, so no sum wraps (two
 * forged runs of 2^63 cycles made a merged run of 0). */
#define MERGE_MAX_CYCLES (UINT64_C(1) << 62)

static bool sum_fits(const ProfileData *acc, const ProfileData *d, const char *name, GError **error)
{
    for (unsigned i = 0; i < d->ncores; i++) {
        uint64_t a = acc->cores[i].cycles, b = d->cores[i].cycles;
        if (a > MERGE_MAX_CYCLES || b > MERGE_MAX_CYCLES - a) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_DATA,
                        "%s: core %u: the runs' cycles add up past %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT
                        " + %" G_GUINT64_FORMAT "), the most one run can have: merge fewer runs",
                        name, i, MERGE_MAX_CYCLES, a, b);
            return false;
        }
    }
    return true;
}

bool profile_data_sum(ProfileData *acc, const ProfileData *d, const char *name, bool force, GError **error)
{
    if (!same_platform(acc, d, name, force, error) || !same_run_kind(acc, d, name, error)
        || !sum_fits(acc, d, name, error))
        return false;
    if (d->merge_runs)
        for (char **r = d->merge_runs; *r; r++)
            strv_add(&acc->merge_runs, g_strdup(*r));
    else
        strv_add(&acc->merge_runs, run_entry(d, name));
    for (char **f = d->merge_forced; f && *f; f++)
        strv_add(&acc->merge_forced, g_strdup(*f));
    /* communication profiles are per run (waits, critical chain): a sum
     * has none (no comm.txt, no "communication" in summary.json) */
    comm_report_free(acc->comm);
    acc->comm = NULL;
    for (unsigned i = 0; i < d->ncores; i++) {
        CoreResult *a = &acc->cores[i];
        const CoreResult *c = &d->cores[i];
        a->instructions += c->instructions;
        a->cycles += c->cycles;
        a->busy_cycles += c->busy_cycles;
        a->idle_cycles += c->idle_cycles;
        a->irq_cycles += c->irq_cycles;
        a->interrupts += c->interrupts;
        a->waits += c->waits;
        a->i1_accesses += c->i1_accesses;
        a->i1_misses += c->i1_misses;
        a->d1_accesses += c->d1_accesses;
        a->d1_read_misses += c->d1_read_misses;
        a->d1_write_misses += c->d1_write_misses;
        a->d1_writebacks += c->d1_writebacks;
        a->cache_cycles += c->cache_cycles;
        gsize la, lb;
        const char *ta = g_bytes_get_data(acc->console[i], &la), *tb = g_bytes_get_data(d->console[i], &lb);
        char *both = g_malloc(la + lb + 1);
        memcpy(both, ta ? ta : "", la);
        memcpy(both + la, tb ? tb : "", lb);
        g_bytes_unref(acc->console[i]);
        acc->console[i] = g_bytes_new_take(both, la + lb);
        if (acc->profs[i] && !profile_sum(acc->profs[i], d->profs[i], error))
            return false;
    }
    sum_noc(acc, d);
    acc->deadlock |= d->deadlock;
    acc->livelock |= d->livelock;
    return true;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_data.c — lifetime of a ProfileData and its saved form (the
 * writer; profile_data_read.c reads and validates, profile_data_elf.c finds
 * the ELFs). See profile_data.h for the file layout. */
#include "profiler/data/profile_data.h"

#include <stddef.h>
#include <string.h>

#include "base/json.h"
#include "profiler/data/profile_data_comm.h"
#include "profiler/data/profile_data_types.h"
#include "profiler/model/symbols.h"

void profile_data_init(ProfileData *d, unsigned ncores)
{
    memset(d, 0, sizeof *d);
    d->ncores = ncores;
    d->cores = g_new0(CoreResult, ncores ? ncores : 1);
    d->elf_abs = g_new0(char *, ncores + 1);
    d->elf_sha256 = g_new0(char *, ncores + 1);
    d->console = g_new0(GBytes *, ncores ? ncores : 1);
    d->profs = g_new0(Profile *, ncores ? ncores : 1);
    d->strings = g_string_chunk_new(4096);
    d->symbols = g_ptr_array_new_with_free_func((GDestroyNotify)symbols_free);
    d->owned = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
}

void profile_data_clear(ProfileData *d)
{
    if (!d->cores)
        return;
    for (unsigned i = 0; i < d->ncores; i++) {
        profile_free(d->profs[i]);
        g_strfreev(d->cores[i].fault_stack);
        g_free(d->cores[i].fault_frames);
        g_free(d->cores[i].stop_frames);
        if (d->console[i])
            g_bytes_unref(d->console[i]);
    }
    g_free(d->cores);
    g_free(d->profs);
    g_free(d->console);
    g_strfreev(d->elf_abs);
    g_strfreev(d->elf_sha256);
    g_free(d->config_path);
    if (d->noc)
        noc_stats_free(d->noc);
    comm_report_free(d->comm);
    g_free(d->packets);
    g_string_chunk_free(d->strings);
    g_ptr_array_unref(d->symbols);
    g_ptr_array_unref(d->owned);
    g_strfreev(d->merge_runs);
    g_strfreev(d->merge_forced);
    memset(d, 0, sizeof *d);
}

const char *profile_data_intern(ProfileData *d, const char *s)
{
    return s ? g_string_chunk_insert_const(d->strings, s) : NULL;
}

RunInfo profile_data_run_info(const ProfileData *d)
{
    return (RunInfo){ .cfg = &d->cfg, .config_path = d->config_path, .ncores = d->ncores, .cores = d->cores,
                      .noc = d->noc, .deadlock = d->deadlock, .livelock = d->livelock,
                      .livelock_cycles = d->cfg.livelock_cycles, .end_cycle = d->end_cycle,
                      .exit_status = d->exit_status, .merge_runs = (const char *const *)d->merge_runs,
                      .merge_forced = (const char *const *)d->merge_forced };
}

/* ---- writer ----------------------------------------------------------- */

/* An array of v's n numbers, not copied: v must outlive the variant's
 * serialisation (the Profile's own arrays do: profile_data_encode
 * serialises before it returns). */
static GVariant *fixed_u64(const uint64_t *v, size_t n)
{
    static const uint64_t none;
    return g_variant_new_from_data(G_VARIANT_TYPE("at"), n ? v : &none, n * sizeof *v, TRUE, NULL, NULL);
}

static GVariant *enc_funcs(const Profile *p)
{
    GVariantBuilder b;
    g_variant_builder_init(&b, G_VARIANT_TYPE("a" PD_FUNC));
    for (unsigned i = 0; i < p->nfuncs; i++) {
        const ProfFunc *f = &p->funcs[i];
        /* "(suubttttt@at@at)" from its items: g_variant_new's format
         * parse and builder were 20,000 host instructions a function */
        GVariant *item[] = { g_variant_new_string(f->name), g_variant_new_uint32(f->addr),
                             g_variant_new_uint32(f->size), g_variant_new_boolean(f->pseudo),
                             g_variant_new_uint64(f->calls), g_variant_new_uint64(f->recursive_calls),
                             g_variant_new_uint64(f->self_cycles), g_variant_new_uint64(f->inclusive_cycles),
                             g_variant_new_uint64(f->instructions), fixed_u64(f->samples, p->nperiods),
                             fixed_u64(f->events, PROF_NEVENTS) };
        GVariant *t = g_variant_new_tuple(item, G_N_ELEMENTS(item));
        g_variant_get_data(t);   /* serialised now: its children freed (issue 24) */
        g_variant_builder_add_value(&b, t);
    }
    return g_variant_builder_end(&b);
}

/* Arrays of fixed-size tuples are serialised as one block of C structs laid
 * out as GVariant lays out the tuple (natural alignment, zeroed padding):
 * the same bytes as a GVariantBuilder, without a GVariant per element
 * (issue 24: the builder was a quarter of the report time of big firmware). */
typedef struct {
    uint32_t u0, u1, u2;
    uint64_t t0, t1;
} PdUuutt;
G_STATIC_ASSERT(sizeof(PdUuutt) == 32);
typedef struct {
    uint32_t u0, u1;
    uint64_t t0;
} PdUut;
G_STATIC_ASSERT(sizeof(PdUut) == 16);
typedef struct {
    uint64_t t0, t1;
    uint32_t u0;
    uint8_t b0;
} PdTtub;
G_STATIC_ASSERT(sizeof(PdTtub) == 24);

static GVariant *fixed_tuples(const char *type, void *v, size_t n, size_t size)
{
    GVariant *r = g_variant_new_fixed_array(G_VARIANT_TYPE(type), v, n, size);
    g_free(v);
    return r;
}

static GVariant *enc_arcs(const Profile *p)
{
    PdUuutt *v = g_new0(PdUuutt, p->narcs + 1);
    for (unsigned i = 0; i < p->narcs; i++) {
        const ProfArc *a = &p->arcs[i];
        v[i] = (PdUuutt){ a->caller, a->callee, a->call_site, a->count, a->inclusive_cycles };
    }
    return fixed_tuples(PD_ARC, v, p->narcs, sizeof *v);
}

static GVariant *enc_blocks(const Profile *p)
{
    PdUuutt *v = g_new0(PdUuutt, p->nblocks + 1);
    for (unsigned i = 0; i < p->nblocks; i++) {
        const ProfBlock *k = &p->blocks[i];
        v[i] = (PdUuutt){ k->addr, k->ninsns, k->func, k->count, k->cycles };
    }
    return fixed_tuples(PD_BLOCK, v, p->nblocks, sizeof *v);
}

/* format 11: every block's cycles per instruction, block after block */
static GVariant *enc_icycles(const Profile *p)
{
    size_t n = 0;
    for (unsigned i = 0; i < p->nblocks; i++)
        n += p->blocks[i].ninsns;
    uint64_t *v = g_new(uint64_t, n + 1);
    for (unsigned i = 0, j = 0; i < p->nblocks; i++)
        for (uint32_t k = 0; k < p->blocks[i].ninsns; k++)
            v[j++] = prof_block_insn_cycles(&p->blocks[i], k);
    GVariant *a = g_variant_new_fixed_array(G_VARIANT_TYPE_UINT64, v, n, sizeof(uint64_t));
    g_free(v);
    return a;
}

/* format 14: the runs cut short before an instruction of a block, only
 * where there are some: (block index, instruction, runs), in order */
static GVariant *enc_cuts(const Profile *p)
{
    size_t n = 0;
    for (unsigned i = 0; i < p->nblocks; i++)
        for (uint32_t k = 0; p->blocks[i].cut && k < p->blocks[i].ninsns; k++)
            n += p->blocks[i].cut[k] != 0;
    PdUut *v = g_new0(PdUut, n + 1);
    for (unsigned i = 0, j = 0; i < p->nblocks; i++)
        for (uint32_t k = 0; p->blocks[i].cut && k < p->blocks[i].ninsns; k++)
            if (p->blocks[i].cut[k])
                v[j++] = (PdUut){ i, k, p->blocks[i].cut[k] };
    return fixed_tuples(PD_CUT, v, n, sizeof *v);
}

static GVariant *enc_hists(const Profile *p)
{
    GVariantBuilder b;
    g_variant_builder_init(&b, G_VARIANT_TYPE("a" PD_HIST));
    for (unsigned h = 0; h < p->nperiods; h++) {
        const ProfHist *x = &p->hists[h];
        uint32_t *flat = g_new(uint32_t, 2 * x->nranges + 1);
        for (unsigned k = 0; k < x->nranges; k++) {
            flat[2 * k] = x->ranges[k].lo;
            flat[2 * k + 1] = x->ranges[k].hi;
        }
        GVariant *ranges = g_variant_new_fixed_array(G_VARIANT_TYPE_UINT32, flat, 2 * x->nranges, sizeof(uint32_t));
        g_free(flat);
        /* format 10: only the bins that have samples (an idle core's
         * histogram is all zeros), by index */
        uint32_t nz = 0;
        for (uint32_t k = 0; k < x->nbins; k++)
            nz += x->bins[k] != 0;
        uint32_t *at = g_new(uint32_t, nz + 1);
        uint64_t *count = g_new(uint64_t, nz + 1);
        for (uint32_t k = 0, j = 0; k < x->nbins; k++)
            if (x->bins[k]) {
                at[j] = k;
                count[j++] = x->bins[k];
            }
        GVariant *idx = g_variant_new_fixed_array(G_VARIANT_TYPE_UINT32, at, nz, sizeof(uint32_t));
        GVariant *bins = g_variant_new_fixed_array(G_VARIANT_TYPE_UINT64, count, nz, sizeof(uint64_t));
        g_free(at);
        g_free(count);
        g_variant_builder_add(&b, "(u@au@au@atttt)", x->period, ranges, idx, bins, x->idle, x->outside, x->total);
    }
    return g_variant_builder_end(&b);
}

static GVariant *enc_misses(const Profile *p)
{
    G_STATIC_ASSERT(sizeof(ProfMiss) == 32);
    ProfMiss *v = g_new0(ProfMiss, p->nmisses + 1);
    for (size_t i = 0; i < p->nmisses; i++)
        v[i] = (ProfMiss){ p->misses[i].pc, 0, p->misses[i].i1, p->misses[i].d1r, p->misses[i].d1w };
    return fixed_tuples(PD_MISS, v, p->nmisses, sizeof *v);
}

static GVariant *enc_profile(const Profile *p)
{
    /* a ProfCtx is laid out as its tuple (no padding): no copy first */
    G_STATIC_ASSERT(sizeof(ProfCtx) == sizeof(PdUut) && offsetof(ProfCtx, self) == offsetof(PdUut, t0));
    static const ProfCtx none;
    GVariant *ctxs = g_variant_new_from_data(G_VARIANT_TYPE("a" PD_CTX), p->nctxs ? p->ctxs : &none,
                                             p->nctxs * sizeof(ProfCtx), TRUE, NULL, NULL);
    PdTtub *e = g_new0(PdTtub, p->nevents + 1);
    for (size_t i = 0; i < p->nevents; i++)
        e[i] = (PdTtub){ p->events[i].start, p->events[i].end, p->events[i].func, p->events[i].idle ? 1 : 0 };
    GVariant *events = fixed_tuples(PD_EVENT, e, p->nevents, sizeof *e);
    PdUut *s = g_new0(PdUut, p->nstalls + 1);
    for (size_t i = 0; i < p->nstalls; i++)
        s[i] = (PdUut){ p->stalls[i].pc, p->stalls[i].cause, p->stalls[i].cycles };
    GVariant *stalls = fixed_tuples(PD_STALL, s, p->nstalls, sizeof *s);
    return g_variant_new("(tttttd@a" PD_FUNC "@a" PD_ARC "@a" PD_BLOCK "@a" PD_HIST "@a" PD_CTX "@a" PD_EVENT
                         "ttmstb@a" PD_MISS "@a" PD_STALL "@at@a" PD_CUT ")", p->cycles, p->instructions, p->idle_cycles,
                         p->irq_cycles, p->busy_cycles, p->clock_hz, enc_funcs(p), enc_arcs(p), enc_blocks(p),
                         enc_hists(p), ctxs, events, p->events_dropped, p->excluded_cycles, p->collection,
                         p->contexts_dropped, (gboolean)p->blocks_full, enc_misses(p), stalls,
                         enc_icycles(p), enc_cuts(p));
}

#define PD_FRAME "(msmsuuub)" /* function, file, pc, line, repeat, inlined (PD_CORE) */

static GVariant *enc_frames(const FaultFrame *frames, unsigned n)
{
    GVariantBuilder b;
    g_variant_builder_init(&b, G_VARIANT_TYPE("a" PD_FRAME));
    for (unsigned k = 0; k < n; k++) {
        const FaultFrame *f = &frames[k];
        g_variant_builder_add(&b, PD_FRAME, f->function, f->file, f->pc, f->line, f->repeat, (gboolean)f->inlined);
    }
    return g_variant_builder_end(&b);
}

static GVariant *enc_core(const ProfileData *d, unsigned i)
{
    const CoreResult *c = &d->cores[i];
    const char *const empty[] = { NULL };
    const char *const *stack = c->fault_stack ? (const char *const *)c->fault_stack : empty;
    gsize clen = 0;
    const void *cdata = d->console[i] ? g_bytes_get_data(d->console[i], &clen) : NULL;
    GVariant *console = g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, cdata ? cdata : "", clen, 1);
    GVariant *prof = g_variant_new_maybe(G_VARIANT_TYPE(PD_PROF), d->profs[i] ? enc_profile(d->profs[i]) : NULL);
    return g_variant_new("(u" "ssss" "i" "b" "msmsmsms" "uu" "^as" "ttttttt" "umsmsu" "@ay" "@m" PD_PROF
                         "msiumsmsu" "ut" "ttttttt" "@a" PD_FRAME "ms" "@au" "@a" PD_FRAME "b)", c->id,
                         c->elf, d->elf_abs[i], d->elf_sha256[i], c->status, c->exit_code, (gboolean)c->faulted,
                         c->fault_kind, c->fault_message, c->fault_function, c->fault_file, c->fault_pc,
                         c->fault_line, stack, c->instructions, c->cycles, c->busy_cycles, c->idle_cycles,
                         c->irq_cycles, c->interrupts, c->waits, c->stop_pc, c->stop_function, c->stop_file,
                         c->stop_line, console, prof, c->wait_for, c->wait_peer, c->wait_pc, c->wait_function,
                         c->wait_file, c->wait_line, c->stack_lowest, c->stack_used, c->i1_accesses, c->i1_misses,
                         c->d1_accesses, c->d1_read_misses, c->d1_write_misses, c->d1_writebacks, c->cache_cycles,
                         enc_frames(c->fault_frames, c->nfault_frames), c->wait_why,
                         g_variant_new_fixed_array(G_VARIANT_TYPE_UINT32, c->fault_regs,
                                                   c->fault_has_regs ? G_N_ELEMENTS(c->fault_regs) : 0,
                                                   sizeof(uint32_t)),
                         enc_frames(c->stop_frames, c->nstop_frames), (gboolean)c->wait_asleep);
}

static GVariant *enc_noc(const NocStats *s)
{
    GVariantBuilder b;
    g_variant_builder_init(&b, G_VARIANT_TYPE("a" PD_LINK));
    for (unsigned i = 0; i < s->nlinks; i++)
        g_variant_builder_add(&b, PD_LINK, s->links[i].from, s->links[i].to, s->links[i].flits,
                              s->links[i].utilization);
    size_t n = s->nodes;
    return g_variant_new("(tu@a" PD_LINK "@at" "@at" "ttttttt" "d" "@ad" "@au" "@at" "t" "@at" "t)", s->cycles, s->nodes,
                         g_variant_builder_end(&b), fixed_u64(s->pair_packets, n * n),
                         fixed_u64(s->pair_flits, n * n), s->packets, s->flits, s->lat_min, s->lat_max,
                         s->lat_p50, s->lat_p95, s->lat_p99, s->lat_mean,
                         g_variant_new_fixed_array(G_VARIANT_TYPE_DOUBLE, s->router_occupancy_mean, n,
                                                   sizeof(double)),
                         g_variant_new_fixed_array(G_VARIANT_TYPE_UINT32, s->router_occupancy_max, n,
                                                   sizeof(unsigned)),
                         fixed_u64(s->router_stall_cycles, n), s->stall_cycles, fixed_u64(s->inject_stall_cycles, n),
                         s->inject_stall_total);
}

static GVariant *enc_top(const ProfileData *d)
{
    GVariantBuilder cfg, cores;
    g_variant_builder_init(&cfg, G_VARIANT_TYPE("a(sss)"));
    const char *group, *key;
    for (unsigned k = 0; config_key(k, &group, &key); k++) {
        if (strcmp(group, "sched") == 0)
            continue; /* speed knobs, not results (as in summary.json) */
        g_autofree char *v = config_value_string(&d->cfg, group, key);
        g_variant_builder_add(&cfg, "(sss)", group, key, v);
    }
    g_autofree PdPacket *pk = g_new0(PdPacket, d->npackets + 1);
    for (size_t i = 0; i < d->npackets; i++) {
        const NocPacketRecord *r = &d->packets[i];
        pk[i] = (PdPacket){ .src = r->src, .dst = r->dst, .nwords = r->nwords, .sent = r->sent,
                            .delivered = r->delivered };
    }
    g_variant_builder_init(&cores, G_VARIANT_TYPE("a" PD_CORE));
    for (unsigned i = 0; i < d->ncores; i++)
        g_variant_builder_add_value(&cores, enc_core(d, i));
    GVariantBuilder set;
    g_variant_builder_init(&set, G_VARIANT_TYPE("a{ss}"));
    g_autofree char *fold = g_strdup_printf("%u", d->fold_recursion);
    if (d->fold_recursion)
        g_variant_builder_add(&set, "{ss}", "fold-recursion", fold);
    if (d->no_trace)
        g_variant_builder_add(&set, "{ss}", "no-trace", "1");
    if (d->events)
        g_variant_builder_add(&set, "{ss}", "events", "1");
    g_autofree char *focus = d->focus ? g_strjoinv("\n", d->focus) : NULL;
    g_autofree char *exclude = d->exclude ? g_strjoinv("\n", d->exclude) : NULL;
    if (focus)
        g_variant_builder_add(&set, "{ss}", "focus", focus);
    if (exclude)
        g_variant_builder_add(&set, "{ss}", "exclude", exclude);
    if (d->annotate)
        g_variant_builder_add(&set, "{ss}", "annotate", d->annotate);
    g_autofree char *dirs = d->source_dirs ? g_strjoinv("\n", d->source_dirs) : NULL;
    g_autofree char *maps = d->source_maps ? g_strjoinv("\n", d->source_maps) : NULL;
    if (dirs)
        g_variant_builder_add(&set, "{ss}", "source-dir", dirs);
    if (maps)
        g_variant_builder_add(&set, "{ss}", "source-map", maps);
    g_autofree char *runs = d->merge_runs ? g_strjoinv("\n", d->merge_runs) : NULL;
    g_autofree char *forced = d->merge_forced && d->merge_forced[0] ? g_strjoinv("\n", d->merge_forced) : NULL;
    if (runs)
        g_variant_builder_add(&set, "{ss}", "merge-runs", runs);
    if (forced)
        g_variant_builder_add(&set, "{ss}", "merge-forced", forced);
    g_autofree char *comm = NULL;
    if (d->comm) {
        NpJson *b = npjson_new();
        comm_json(b, d->comm, true);
        comm = npjson_take(b);
    }
    GVariant *names, *flows = pd_enc_flows(d->comm, &names);
    return g_variant_new("(@a(sss)msbbti@" PD_NOC "@a" PD_PACKET "t@a" PD_CORE "@a{ss}ms@as@a" PD_FLOW ")",
                         g_variant_builder_end(&cfg), d->config_path, (gboolean)d->deadlock, (gboolean)d->livelock,
                         d->end_cycle, d->exit_status, enc_noc(d->noc),
                         g_variant_new_fixed_array(G_VARIANT_TYPE(PD_PACKET), pk, d->npackets, sizeof(PdPacket)),
                         d->packets_dropped, g_variant_builder_end(&cores), g_variant_builder_end(&set), comm, names,
                         flows);
}

GBytes *profile_data_encode(const ProfileData *d)
{
    GVariant *v = g_variant_ref_sink(enc_top(d));
    if (G_BYTE_ORDER != G_LITTLE_ENDIAN) {
        GVariant *sw = g_variant_byteswap(v);
        g_variant_unref(v);
        v = sw;
    }
    gsize len = g_variant_get_size(v);
    guint8 *buf = g_malloc(PD_HEADER + len);
    memcpy(buf, PD_MAGIC, 8);
    guint32 ver = GUINT32_TO_LE(PROFILE_DATA_VERSION), zero = 0;
    guint64 len64 = GUINT64_TO_LE((guint64)len);
    memcpy(buf + 8, &ver, 4);
    memcpy(buf + 12, &zero, 4);
    memcpy(buf + 16, &len64, 8);
    g_variant_store(v, buf + PD_HEADER);
    g_variant_unref(v);
    return g_bytes_new_take(buf, PD_HEADER + len);
}

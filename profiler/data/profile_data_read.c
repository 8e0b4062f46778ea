// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_data_read.c — reading and validating saved profile data (see
 * profile_data.h). The payload is untrusted: GVariant checks the shape
 * (normal form of PD_TOP), this file checks every count, index, order and
 * size that a report or merge will rely on, and names the field that is
 * wrong. */
#include "profiler/data/profile_data.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "base/file.h"
#include "base/json.h"
#include "profiler/data/profile_data_check.h"
#include "base/name.h"
#include "profiler/data/profile_data_comm.h"
#include "profiler/data/profile_data_types.h"

typedef struct Rd {
    const char *name;          /* the file, for messages */
    GError **error;
    ProfileData *d;
    uint64_t bins_left;        /* histogram bins the file may still make */
} Rd;

/* Format 10 stores only the bins that have samples; the ranges alone say
 * how many bins a histogram has in memory. All histograms of a file make
 * at most as many bins as format 9's largest file could hold (every bin
 * stored): a small file cannot ask for gigabytes. */
#define PD_MAX_BINS (PROFILE_DATA_MAX_SIZE / sizeof(uint64_t))

/* PD_TOP with format 5's histogram type. The g_variant_get formats below
 * take what holds a histogram as "*" (any type: the payload's type was
 * checked when it was loaded), so they read both formats. */
static bool G_GNUC_PRINTF(3, 4) fail(Rd *r, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(r->error, NOCPROF_ERROR, NOCPROF_ERROR_DATA, "%s: %s: %s", r->name, field, msg);
    return false;
}

/* fail() for element i of the list `list` of `at`, the field's name only
 * made when it fails (not once per element read). */
static bool G_GNUC_PRINTF(5, 6) fail_at(Rd *r, const char *at, const char *list, gsize i, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(r->error, NOCPROF_ERROR, NOCPROF_ERROR_DATA, "%s: %s.%s[%" G_GSIZE_FORMAT "]: %s", r->name, at, list,
                i, msg);
    return false;
}

static const void *fixed(GVariant *parent, gsize idx, gsize elem, gsize *n)
{
    g_autoptr(GVariant) v = g_variant_get_child_value(parent, idx);
    /* the data lives as long as parent (a child shares its buffer) */
    return g_variant_get_fixed_array(v, n, elem);
}

/* ---- profile ------------------------------------------------------------ */

static bool dec_funcs(Rd *r, const char *at, GVariant *prof, Profile *p)
{
    g_autoptr(GVariant) v = g_variant_get_child_value(prof, 6);
    gsize n = g_variant_n_children(v);
    if (n < PROF_NPSEUDO || n > G_MAXINT)
        return fail(r, at, "functions: %" G_GSIZE_FORMAT " entries (at least %d: the pseudo-functions)", n,
                    PROF_NPSEUDO);
    p->nfuncs = (unsigned)n;
    p->funcs = g_new0(ProfFunc, n);
    for (unsigned i = 0; i < p->nfuncs; i++) {
        ProfFunc *f = &p->funcs[i];
        g_autoptr(GVariant) fv = g_variant_get_child_value(v, i);
        const char *name;
        gboolean pseudo;
        g_variant_get(fv, "(&suubttttt@at@at)", &name, &f->addr, &f->size, &pseudo, &f->calls, &f->recursive_calls,
                      &f->self_cycles, &f->inclusive_cycles, &f->instructions, NULL, NULL);
        g_autofree char *safe = NULL; /* a name is never a control byte (base/name.h) */
        f->name = profile_data_intern(r->d, name_safe(name, NAME_ESC_TEXT, &safe));
        f->pseudo = pseudo;
        gsize ns;
        const uint64_t *s = fixed(fv, 9, sizeof(uint64_t), &ns);
        if (ns != p->nperiods)
            return fail_at(r, at, "functions", i, "%" G_GSIZE_FORMAT " sample counts for %u sampling periods", ns,
                           p->nperiods);
        f->samples = g_new0(uint64_t, p->nperiods ? p->nperiods : 1);
        if (ns)
            memcpy(f->samples, s, ns * sizeof *s);
        gsize ne;
        const uint64_t *e = fixed(fv, 10, sizeof(uint64_t), &ne);
        if (ne != PROF_NEVENTS)
            return fail_at(r, at, "functions", i, "%" G_GSIZE_FORMAT " event counts, not %d", ne, PROF_NEVENTS);
        memcpy(f->events, e, sizeof f->events);
        if (f->pseudo != (i >= p->nfuncs - PROF_NPSEUDO))
            return fail_at(r, at, "functions", i, "pseudo-functions must be the last %d entries", PROF_NPSEUDO);
        if (!f->pseudo && (uint64_t)f->addr + f->size > G_MAXUINT32 + 1ull)
            return fail_at(r, at, "functions", i, "address 0x%08x + size %u is past 2^32", f->addr, f->size);
    }
    return true;
}

static int arc_key_cmp(const ProfArc *a, const ProfArc *b)
{
    if (a->callee != b->callee) return a->callee < b->callee ? -1 : 1;
    if (a->caller != b->caller) return a->caller < b->caller ? -1 : 1;
    return a->call_site < b->call_site ? -1 : a->call_site > b->call_site;
}

static bool dec_arcs(Rd *r, const char *at, GVariant *prof, Profile *p)
{
    g_autoptr(GVariant) v = g_variant_get_child_value(prof, 7);
    gsize n = g_variant_n_children(v);
    p->narcs = (unsigned)n;
    p->arcs = g_new0(ProfArc, n ? n : 1);
    for (unsigned i = 0; i < n; i++) {
        ProfArc *a = &p->arcs[i];
        g_variant_get_child(v, i, PD_ARC, &a->caller, &a->callee, &a->call_site, &a->count, &a->inclusive_cycles);
        if (a->caller >= p->nfuncs || a->callee >= p->nfuncs)
            return fail_at(r, at, "arcs", i, "caller %u / callee %u: functions are 0 .. %u", a->caller, a->callee,
                        p->nfuncs - 1);
        if (i && arc_key_cmp(&p->arcs[i - 1], a) >= 0)
            return fail_at(r, at, "arcs", i, "not sorted by (callee, caller, call site) or repeated");
    }
    return true;
}

static bool dec_blocks(Rd *r, const char *at, GVariant *prof, Profile *p)
{
    g_autoptr(GVariant) v = g_variant_get_child_value(prof, 8);
    gsize n = g_variant_n_children(v);
    p->nblocks = (unsigned)n;
    p->blocks = g_new0(ProfBlock, n ? n : 1);
    for (unsigned i = 0; i < n; i++) {
        ProfBlock *b = &p->blocks[i];
        g_variant_get_child(v, i, PD_BLOCK, &b->addr, &b->ninsns, &b->func, &b->count, &b->cycles);
        if (b->func >= p->nfuncs)
            return fail_at(r, at, "blocks", i, "function %u: functions are 0 .. %u", b->func, p->nfuncs - 1);
        if (b->addr % 4 || b->ninsns == 0 || b->ninsns > 4096 || (uint64_t)b->addr + 4ull * b->ninsns > 1ull << 32)
            return fail_at(r, at, "blocks", i, "address 0x%08x with %u instructions is not a block", b->addr,
                           b->ninsns);
        if (i && p->blocks[i - 1].addr > b->addr)
            return fail_at(r, at, "blocks", i, "blocks not sorted by address");
        p->max_block_insns = MAX(p->max_block_insns, b->ninsns);   /* range lookups search */
    }
    return true;
}

/* A histogram's ranges: word-aligned, non-empty, sorted and disjoint,
 * at most PROF_MAX_RANGES; their bins add up to x->nbins. */
static bool dec_ranges(Rd *r, const char *field, GVariant *hv, ProfHist *x)
{
    gsize n;
    const uint32_t *v = fixed(hv, 1, sizeof(uint32_t), &n);
    if (n % 2 || n / 2 > PROF_MAX_RANGES)
        return fail(r, field, "%" G_GSIZE_FORMAT " range bounds (pairs, at most %u ranges)", n, PROF_MAX_RANGES);
    x->nranges = (unsigned)(n / 2);
    x->ranges = g_new0(ProfRange, x->nranges + 1);
    uint64_t nbins = 0;
    for (unsigned k = 0; k < x->nranges; k++) {
        uint32_t lo = v[2 * k], hi = v[2 * k + 1];
        if (lo % 4 || hi % 4 || lo >= hi || (k && lo < v[2 * k - 1]))
            return fail(r, field, "range %u: 0x%08x .. 0x%08x", k, lo, hi);
        x->ranges[k] = (ProfRange){ lo, hi, (uint32_t)nbins };
        nbins += (hi - lo) / 4;
    }
    if (nbins > UINT32_MAX || nbins > r->bins_left)
        return fail(r, field, "ranges of %" G_GUINT64_FORMAT " instructions (the file's histograms may have %"
                    G_GUINT64_FORMAT " bins in all)", nbins, (uint64_t)PD_MAX_BINS);
    r->bins_left -= nbins;
    x->nbins = (uint32_t)nbins;
    return true;
}

/* A histogram's bins that have samples (format 10): as many indexes as
 * counts, the indexes strictly increasing and below x->nbins, no count 0
 * (one normal form). Their sums are checked by pd_check_hist. */
static bool dec_bins(Rd *r, const char *field, GVariant *hv, ProfHist *x)
{
    gsize ni, nc;
    const uint32_t *at = fixed(hv, 2, sizeof(uint32_t), &ni);
    const uint64_t *count = fixed(hv, 3, sizeof(uint64_t), &nc);
    if (ni != nc)
        return fail(r, field, "%" G_GSIZE_FORMAT " bin indexes for %" G_GSIZE_FORMAT " counts", ni, nc);
    x->bins = g_new0(uint64_t, x->nbins ? x->nbins : 1);
    for (gsize j = 0; j < ni; j++) {
        if (at[j] >= x->nbins || (j && at[j] <= at[j - 1]))
            return fail(r, field, "bin %" G_GSIZE_FORMAT ": index %u (bins are 0 .. %u, strictly increasing)", j,
                        at[j], x->nbins ? x->nbins - 1 : 0);
        if (!count[j])
            return fail(r, field, "bin %" G_GSIZE_FORMAT " (index %u): 0 samples (only bins with samples are "
                        "stored)", j, at[j]);
        x->bins[at[j]] = count[j];
    }
    return true;
}

static bool dec_hists(Rd *r, const char *at, GVariant *prof, Profile *p)
{
    g_autoptr(GVariant) v = g_variant_get_child_value(prof, 9);
    if (g_variant_n_children(v) != p->nperiods)
        return fail(r, at, "%" G_GSIZE_FORMAT " histograms for %u sampling periods", g_variant_n_children(v),
                    p->nperiods);
    p->hists = g_new0(ProfHist, p->nperiods ? p->nperiods : 1);
    for (unsigned h = 0; h < p->nperiods; h++) {
        ProfHist *x = &p->hists[h];
        g_autoptr(GVariant) hv = g_variant_get_child_value(v, h);
        g_variant_get(hv, "(u@au**ttt)", &x->period, NULL, NULL, NULL, &x->idle, &x->outside, &x->total);
        g_autofree char *field = g_strdup_printf("%s.histograms[%u]", at, h);
        if (x->period != r->d->cfg.periods[h])
            return fail(r, field, "period %u, but the configuration's period %u is %u", x->period, h + 1,
                        r->d->cfg.periods[h]);
        if (!dec_ranges(r, field, hv, x))
            return false;
        if (!dec_bins(r, field, hv, x))
            return false;
    }
    return true;
}

static bool dec_contexts(Rd *r, const char *at, GVariant *prof, Profile *p)
{
    g_autoptr(GVariant) cv = g_variant_get_child_value(prof, 10);
    p->nctxs = g_variant_n_children(cv);
    p->ctxs = p->nctxs ? g_new0(ProfCtx, p->nctxs) : NULL;
    for (size_t i = 0; i < p->nctxs; i++) {
        ProfCtx *c = &p->ctxs[i];
        g_variant_get_child(cv, i, PD_CTX, &c->parent, &c->func, &c->self);
        if ((i && c->parent >= i) || c->func >= p->nfuncs) {
            g_autofree char *field = g_strdup_printf("%s.contexts[%" G_GSIZE_FORMAT "]", at, i);
            return fail(r, field, "parent %u / function %u out of range", c->parent, c->func);
        }
    }
    g_autoptr(GVariant) ev = g_variant_get_child_value(prof, 11);
    p->nevents = g_variant_n_children(ev);
    p->events = p->nevents ? g_new0(ProfEvent, p->nevents) : NULL;
    for (size_t i = 0; i < p->nevents; i++) {
        ProfEvent *e = &p->events[i];
        gboolean idle;
        g_variant_get_child(ev, i, PD_EVENT, &e->start, &e->end, &e->func, &idle);
        e->idle = idle;
        if (e->start > e->end || e->func >= p->nfuncs) {
            g_autofree char *field = g_strdup_printf("%s.events[%" G_GSIZE_FORMAT "]", at, i);
            return fail(r, field, "span %" G_GUINT64_FORMAT " .. %" G_GUINT64_FORMAT " of function %u", e->start,
                        e->end, e->func);
        }
    }
    g_variant_get_child(prof, 12, "t", &p->events_dropped);
    gboolean full;
    g_variant_get_child(prof, 15, "t", &p->contexts_dropped);
    g_variant_get_child(prof, 16, "b", &full);
    p->blocks_full = full != FALSE;
    return true;
}

/* The instructions' cache misses: word-aligned pcs, strictly increasing. */
static bool dec_misses(Rd *r, const char *at, GVariant *prof, Profile *p)
{
    gsize n;
    const ProfMiss *v = fixed(prof, 17, sizeof(ProfMiss), &n);
    for (gsize i = 0; i < n; i++)
        if (v[i].pc % 4 || v[i].zero || (i && v[i - 1].pc >= v[i].pc))
            return fail_at(r, at, "misses", (unsigned)i, "pc 0x%08x: not word-aligned, or not after the one before",
                           v[i].pc);
    p->nmisses = n;
    p->misses = g_memdup2(v, sizeof *v * (n ? n : 1));
    return true;
}

/* The stalls per instruction: sorted by (pc, cause), each once, a cause
 * of the four. */
static bool dec_stalls(Rd *r, const char *at, GVariant *prof, Profile *p)
{
    g_autoptr(GVariant) sv = g_variant_get_child_value(prof, 18);
    p->nstalls = g_variant_n_children(sv);
    p->stalls = p->nstalls ? g_new0(ProfStall, p->nstalls) : NULL;
    for (size_t i = 0; i < p->nstalls; i++) {
        ProfStall *s = &p->stalls[i];
        g_variant_get_child(sv, i, PD_STALL, &s->pc, &s->cause, &s->cycles);
        const ProfStall *prev = i ? &p->stalls[i - 1] : NULL;
        if (s->pc % 4 || s->cause >= 4
            || (prev && (prev->pc > s->pc || (prev->pc == s->pc && prev->cause >= s->cause)))) {
            g_autofree char *field = g_strdup_printf("%s.stalls[%" G_GSIZE_FORMAT "]", at, i);
            return fail(r, field, "pc 0x%08x cause %u: misaligned, unknown or out of order", s->pc, s->cause);
        }
    }
    return true;
}

/* format 11: each block's cycles per instruction, block after block;
 * a block's add up to its cycles. */
static bool dec_icycles(Rd *r, const char *at, GVariant *prof, Profile *p)
{
    gsize n, want = 0, j = 0;
    const uint64_t *v = fixed(prof, 19, sizeof(uint64_t), &n);
    for (unsigned i = 0; i < p->nblocks; i++)
        want += p->blocks[i].ninsns;
    if (n != want) {
        g_autofree char *field = g_strdup_printf("%s.icycles", at);
        return fail(r, field, "%" G_GSIZE_FORMAT " instructions' cycles, but the blocks have %" G_GSIZE_FORMAT, n,
                    want);
    }
    for (unsigned i = 0; i < p->nblocks; i++) {
        ProfBlock *b = &p->blocks[i];
        uint64_t sum = 0;
        bool over = false;
        for (uint32_t k = 0; k < b->ninsns; k++)
            over |= __builtin_add_overflow(sum, v[j + k], &sum);
        if (over || sum != b->cycles)
            return fail_at(r, at, "blocks", i, "its instructions' cycles (icycles) do not add up to its %"
                           G_GUINT64_FORMAT " cycles", b->cycles);
        b->icycles = g_memdup2(v + j, sizeof(uint64_t) * b->ninsns);
        j += b->ninsns;
    }
    return true;
}

/* format 14: the runs cut short before an instruction of a block, only
 * where not 0, in (block, instruction) order; none more than the block's
 * runs (they need not decrease along a block: a fault cuts a run before
 * one instruction and the rest, an annulled delay slot skips one alone) */
static bool dec_cuts(Rd *r, const char *at, GVariant *prof, Profile *p)
{
    typedef struct { uint32_t block, insn; uint64_t runs; } Cut;
    G_STATIC_ASSERT(sizeof(Cut) == 16);
    gsize n;
    const Cut *v = fixed(prof, 20, sizeof(Cut), &n);
    for (gsize i = 0; i < n; i++) {
        const Cut *c = &v[i];
        bool order = !i || v[i - 1].block < c->block || (v[i - 1].block == c->block && v[i - 1].insn < c->insn);
        if (c->block >= p->nblocks || c->insn >= p->blocks[c->block].ninsns || !c->runs || !order) {
            g_autofree char *field = g_strdup_printf("%s.cuts[%" G_GSIZE_FORMAT "]", at, i);
            return fail(r, field, "block %u instruction %u: out of range, 0 or out of order", c->block, c->insn);
        }
        ProfBlock *b = &p->blocks[c->block];
        if (c->runs > b->count)
            return fail_at(r, at, "blocks", c->block, "%" G_GUINT64_FORMAT " runs cut short before its instruction "
                           "%u, more than its %" G_GUINT64_FORMAT " runs (cuts)", c->runs, c->insn, b->count);
        if (!b->cut)
            b->cut = g_new0(uint64_t, b->ninsns);
        b->cut[c->insn] = c->runs;
    }
    return true;
}

static Profile *dec_profile(Rd *r, unsigned core, const char *elf, GVariant *v)
{
    g_autofree char *at = g_strdup_printf("cores[%u].profile", core);
    Profile *p = g_new0(Profile, 1);
    p->core = core;
    p->elf_path = g_strdup(elf);
    p->nperiods = r->d->cfg.nperiods;
    g_variant_get(v, "(tttttd@a" PD_FUNC "@a" PD_ARC "@a" PD_BLOCK "*" "@a" PD_CTX "@a" PD_EVENT "tt"
                  "mstb****)", &p->cycles, &p->instructions, &p->idle_cycles, &p->irq_cycles, &p->busy_cycles,
                  &p->clock_hz, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &p->excluded_cycles, &p->collection, NULL,
                  NULL, NULL, NULL, NULL, NULL);
    bool ok = true;
    if (p->clock_hz != (double)r->d->cfg.clock_hz)
        ok = fail(r, at, "clock %g Hz, but the configuration's clock.hz is %" G_GUINT64_FORMAT, p->clock_hz,
                  r->d->cfg.clock_hz);
    else if (p->idle_cycles > p->cycles || p->busy_cycles != p->cycles - p->idle_cycles)
        ok = fail(r, at, "idle %" G_GUINT64_FORMAT " + busy %" G_GUINT64_FORMAT " cycles are not the %"
                  G_GUINT64_FORMAT " cycles", p->idle_cycles, p->busy_cycles, p->cycles);
    ok = ok && dec_funcs(r, at, v, p) && dec_arcs(r, at, v, p) && dec_blocks(r, at, v, p)
         && dec_hists(r, at, v, p) && dec_contexts(r, at, v, p) && dec_misses(r, at, v, p)
         && dec_stalls(r, at, v, p) && dec_icycles(r, at, v, p) && dec_cuts(r, at, v, p);
    if (!ok) {
        if (!p->hists)
            p->nperiods = 0;
        profile_free(p);
        return NULL;
    }
    return p;
}

/* ---- cores -------------------------------------------------------------- */

static const char *const statuses[] = { "exited", "fault", "limit", "deadlock", "interrupted", "running", NULL };

static const char *known_status(const char *s)
{
    for (unsigned i = 0; statuses[i]; i++)
        if (strcmp(s, statuses[i]) == 0)
            return statuses[i];
    return NULL;
}

/* A fault's frames (run.h FaultFrame): at most FAULT_FRAMES_MAX, each
 * standing for at least one frame. */
static bool dec_frames(Rd *r, GVariant *v, FaultFrame **out, unsigned *count, bool allowed, const char *at)
{
    gsize n = g_variant_n_children(v);
    if (n > FAULT_FRAMES_MAX || (n && !allowed))
        return fail(r, at, "%" G_GSIZE_FORMAT " frames (at most %u, only for a fault or a stuck core)", n,
                    FAULT_FRAMES_MAX);
    *count = (unsigned)n;
    *out = n ? g_new0(FaultFrame, n) : NULL;
    for (gsize k = 0; k < n; k++) {
        FaultFrame *f = &(*out)[k];
        const char *func, *file;
        gboolean inl;
        g_variant_get_child(v, k, "(m&sm&suuub)", &func, &file, &f->pc, &f->line, &f->repeat, &inl);
        f->inlined = inl;
        f->function = profile_data_intern(r->d, func);
        f->file = profile_data_intern(r->d, file);
        if (!f->repeat)
            return fail(r, at, "fault frame %" G_GSIZE_FORMAT " repeated 0 times", k);
    }
    return true;
}

static bool dec_core(Rd *r, GVariant *cores, unsigned i)
{
    ProfileData *d = r->d;
    CoreResult *c = &d->cores[i];
    g_autoptr(GVariant) v = g_variant_get_child_value(cores, i);
    const char *elf, *abs, *sha, *status, *kind, *msg, *func, *file, *sfunc, *sfile, *wfor, *wfunc, *wfile, *why;
    gboolean faulted, asleep;
    g_autoptr(GVariant) console = NULL, prof = NULL, frames = NULL, regs = NULL, wframes = NULL;
    g_variant_get(v, "(u&s&s&s&sib" "m&sm&sm&sm&s" "uu" "^as" "ttttttt" "um&sm&su" "@ay*" "m&sium&sm&su" "ut" "ttttttt" "@a(msmsuuub)" "m&s" "@au" "@a(msmsuuub)b)", &c->id,
                  &elf, &abs, &sha, &status, &c->exit_code, &faulted, &kind, &msg, &func, &file, &c->fault_pc,
                  &c->fault_line, &c->fault_stack, &c->instructions, &c->cycles, &c->busy_cycles, &c->idle_cycles,
                  &c->irq_cycles, &c->interrupts, &c->waits, &c->stop_pc, &sfunc, &sfile, &c->stop_line, &console,
                  &prof, &wfor, &c->wait_peer, &c->wait_pc, &wfunc, &wfile, &c->wait_line, &c->stack_lowest,
                  &c->stack_used, &c->i1_accesses, &c->i1_misses, &c->d1_accesses, &c->d1_read_misses,
                  &c->d1_write_misses, &c->d1_writebacks, &c->cache_cycles, &frames, &why, &regs, &wframes, &asleep);
    c->wait_asleep = asleep;
    c->wait_for = profile_data_intern(d, wfor);
    c->wait_function = profile_data_intern(d, wfunc);
    c->wait_file = profile_data_intern(d, wfile);
    c->wait_why = profile_data_intern(d, why);
    g_autofree char *at = g_strdup_printf("cores[%u]", i);
    c->elf = profile_data_intern(d, elf);
    d->elf_abs[i] = g_strdup(abs);
    d->elf_sha256[i] = g_strdup(sha);
    c->faulted = faulted;
    c->fault_kind = profile_data_intern(d, kind);
    c->fault_message = profile_data_intern(d, msg);
    c->fault_function = profile_data_intern(d, func);
    c->fault_file = profile_data_intern(d, file);
    c->stop_function = profile_data_intern(d, sfunc);
    c->stop_file = profile_data_intern(d, sfile);
    d->console[i] = g_variant_get_data_as_bytes(console);
    if (c->fault_stack && !c->fault_stack[0])
        g_clear_pointer(&c->fault_stack, g_strfreev);
    if (c->id != i)
        return fail(r, at, "id %u at position %u", c->id, i);
    if (!(c->status = known_status(status)))
        return fail(r, at, "unknown status '%s'", status);
    if (c->wait_peer < -1 || (c->wait_peer >= 0 && (unsigned)c->wait_peer >= d->ncores))
        return fail(r, at, "wait peer %d outside the %u cores", c->wait_peer, d->ncores);
    if (c->wait_asleep && (!c->wait_for || !strcmp(c->wait_for, "memory")))
        return fail(r, at, "asleep in wait without a wait kind that sleeps");
    if (c->faulted && (!kind || !msg))
        return fail(r, at, "a fault without kind or message");
    if (!dec_frames(r, frames, &c->fault_frames, &c->nfault_frames, c->faulted, at)
        || !dec_frames(r, wframes, &c->stop_frames, &c->nstop_frames,
                       !strcmp(c->status, "deadlock") || !strcmp(c->status, "limit") || !strcmp(c->status, "interrupted"),
                       at))
        return false;
    gsize nregs;
    const uint32_t *rv = g_variant_get_fixed_array(regs, &nregs, sizeof(uint32_t));
    if (nregs && (nregs != G_N_ELEMENTS(c->fault_regs) || !c->faulted))
        return fail(r, at, "%" G_GSIZE_FORMAT " fault registers (%u, only for a fault)", nregs,
                    (unsigned)G_N_ELEMENTS(c->fault_regs));
    c->fault_has_regs = nregs != 0;
    if (nregs)
        memcpy(c->fault_regs, rv, sizeof c->fault_regs);
    if (c->idle_cycles > c->cycles || c->busy_cycles != c->cycles - c->idle_cycles)
        return fail(r, at, "busy and idle cycles do not add up to the cycles");
    if (strlen(sha) != 64 || strspn(sha, "0123456789abcdef") != 64)
        return fail(r, at, "elf_sha256 '%s' is not a SHA-256", sha);
    g_autoptr(GVariant) pv = g_variant_get_maybe(prof);
    if (pv && !(d->profs[i] = dec_profile(r, i, c->elf, pv)))
        return false;
    c->prof = d->profs[i];
    if (c->prof && c->prof->cycles > c->cycles)
        return fail(r, at, "profile of %" G_GUINT64_FORMAT " cycles for a core of %" G_GUINT64_FORMAT,
                    c->prof->cycles, c->cycles);
    if (c->instructions > c->cycles || c->irq_cycles > c->cycles)
        return fail(r, at, "%" G_GUINT64_FORMAT " instructions, %" G_GUINT64_FORMAT " interrupt cycles in %"
                    G_GUINT64_FORMAT " cycles", c->instructions, c->irq_cycles, c->cycles);
    return true;   /* its profile's counts: checked once the settings are read */
}

/* Every core's profile counts against its totals (pd_check_profile). A
 * merge's runs each stopped its cores once: a run of a block cut before
 * its first instruction (a fault, a halt) each. */
static bool check_profiles(Rd *r)
{
    ProfileData *d = r->d;
    unsigned stops = d->merge_runs ? MAX(1u, g_strv_length(d->merge_runs)) : 1u;
    for (unsigned i = 0; i < d->ncores; i++) {
        const CoreResult *c = &d->cores[i];
        g_autofree char *bad = c->prof ? pd_check_profile(c->prof, c->cycles, stops) : NULL;
        if (bad) {
            g_autofree char *at = g_strdup_printf("cores[%u]", i);
            return fail(r, at, "profile.%s", bad);
        }
    }
    return true;
}

/* ---- NoC ------------------------------------------------------------------ */

static bool noc_arrays(Rd *r, GVariant *v, NocStats *s)
{
    size_t n = s->nodes, sizes[] = { n * n, n * n, n, n, n, n };
    const unsigned idx[] = { 3, 4, 13, 14, 15, 17 };
    const char *names[] = { "pair_packets", "pair_flits", "router_occupancy_mean", "router_occupancy_max",
                            "router_stall_cycles", "inject_stall_cycles" };
    const gsize elem[] = { 8, 8, 8, 4, 8, 8 };
    void **dst[] = { (void **)&s->pair_packets, (void **)&s->pair_flits, (void **)&s->router_occupancy_mean,
                     (void **)&s->router_occupancy_max, (void **)&s->router_stall_cycles,
                     (void **)&s->inject_stall_cycles };
    for (unsigned k = 0; k < G_N_ELEMENTS(idx); k++) {
        gsize got;
        const void *a = fixed(v, idx[k], elem[k], &got);
        if (got != sizes[k]) {
            g_autofree char *field = g_strdup_printf("noc.%s", names[k]);
            return fail(r, field, "%" G_GSIZE_FORMAT " entries for %u nodes (%zu expected)", got, s->nodes,
                        sizes[k]);
        }
        *dst[k] = g_memdup2(a, (gsize)got * elem[k]);
    }
    return true;
}

static bool dec_noc(Rd *r, GVariant *v)
{
    NocStats *s = r->d->noc = g_new0(NocStats, 1);
    g_variant_get(v, "(tu@a" PD_LINK "@at" "@at" "ttttttt" "d" "@ad" "@au" "@at" "t" "@at" "t)", &s->cycles, &s->nodes, NULL, NULL, NULL,
                  &s->packets, &s->flits, &s->lat_min, &s->lat_max, &s->lat_p50, &s->lat_p95, &s->lat_p99,
                  &s->lat_mean, NULL, NULL, NULL, &s->stall_cycles, NULL, &s->inject_stall_total);
    if (s->nodes != r->d->ncores)
        return fail(r, "noc.nodes", "%u nodes for %u cores", s->nodes, r->d->ncores);
    if (!noc_arrays(r, v, s))
        return false;
    g_autoptr(GVariant) links = g_variant_get_child_value(v, 2);
    s->nlinks = (unsigned)g_variant_n_children(links);
    if (s->nlinks > 4 * s->nodes)
        return fail(r, "noc.links", "%u links for %u nodes", s->nlinks, s->nodes);
    s->links = g_new0(NocLinkStat, s->nlinks ? s->nlinks : 1);
    for (unsigned i = 0; i < s->nlinks; i++) {
        NocLinkStat *l = &s->links[i];
        g_variant_get_child(links, i, PD_LINK, &l->from, &l->to, &l->flits, &l->utilization);
        if (l->from >= s->nodes || l->to >= s->nodes) {
            g_autofree char *field = g_strdup_printf("noc.links[%u]", i);
            return fail(r, field, "link %u -> %u: nodes are 0 .. %u", l->from, l->to, s->nodes - 1);
        }
    }
    return true;
}

static bool dec_packets(Rd *r, GVariant *top)
{
    ProfileData *d = r->d;
    g_autoptr(GVariant) v = g_variant_get_child_value(top, 7);
    const PdPacket *a = g_variant_get_fixed_array(v, &d->npackets, sizeof(PdPacket));
    d->packets = g_new0(NocPacketRecord, d->npackets ? d->npackets : 1);
    for (size_t i = 0; i < d->npackets; i++) {
        NocPacketRecord *p = &d->packets[i];
        *p = (NocPacketRecord){ .src = a[i].src, .dst = a[i].dst, .nwords = a[i].nwords, .sent = a[i].sent,
                                .delivered = a[i].delivered };
        if (p->src >= d->ncores || p->dst >= d->ncores || p->sent > p->delivered) {
            g_autofree char *field = g_strdup_printf("packets[%" G_GSIZE_FORMAT "]", i);
            return fail(r, field, "%u -> %u sent %" G_GUINT64_FORMAT " delivered %" G_GUINT64_FORMAT, p->src,
                        p->dst, p->sent, p->delivered);
        }
    }
    g_variant_get_child(top, 8, "t", &d->packets_dropped);
    return true;
}

/* ---- top -------------------------------------------------------------- */

static bool dec_config(Rd *r, GVariant *top, Config *cfg)
{
    config_defaults(cfg);
    g_autoptr(GVariant) v = g_variant_get_child_value(top, 0);
    for (gsize i = 0; i < g_variant_n_children(v); i++) {
        const char *group, *key, *value;
        g_variant_get_child(v, i, "(&s&s&s)", &group, &key, &value);
        g_autofree char *set = g_strdup_printf("%s.%s=%s", group, key, value);
        GError *err = NULL;
        if (!config_set(cfg, set, &err)) {
            g_autofree char *field = g_strdup_printf("config.%s.%s", group, key);
            bool ok = fail(r, field, "%s", err->message);
            g_error_free(err);
            return ok;
        }
    }
    GError *err = NULL;
    if (!config_validate(cfg, "config", &err)) {
        bool ok = fail(r, "config", "%s", err->message);
        g_error_free(err);
        return ok;
    }
    return true;
}

static bool dec_settings(Rd *r, GVariant *top)
{
    g_autoptr(GVariant) v = g_variant_get_child_value(top, 10);
    for (gsize i = 0; i < g_variant_n_children(v); i++) {
        const char *name, *value;
        g_variant_get_child(v, i, "{&s&s}", &name, &value);
        g_autofree char *field = g_strdup_printf("settings.%s", name);
        char *end;
        guint64 n = g_ascii_strtoull(value, &end, 10);
        if (strcmp(name, "fold-recursion") == 0 && *value && !*end && n <= G_MAXINT)
            r->d->fold_recursion = (unsigned)n;
        else if (strcmp(name, "no-trace") == 0 && strcmp(value, "1") == 0)
            r->d->no_trace = true;
        else if (strcmp(name, "events") == 0 && strcmp(value, "1") == 0)
            r->d->events = true;
        else if ((strcmp(name, "focus") == 0 || strcmp(name, "exclude") == 0 || strcmp(name, "source-dir") == 0
                  || strcmp(name, "source-map") == 0) && *value) {
            char **names = g_strsplit(value, "\n", -1);
            g_ptr_array_add(r->d->owned, names);
            *(strcmp(name, "focus") == 0     ? &r->d->focus
              : strcmp(name, "exclude") == 0 ? &r->d->exclude
              : strcmp(name, "source-dir") == 0 ? &r->d->source_dirs
                                               : &r->d->source_maps) = names;
        } else if ((strcmp(name, "merge-runs") == 0 || strcmp(name, "merge-forced") == 0) && *value) {
            char ***v = strcmp(name, "merge-runs") == 0 ? &r->d->merge_runs : &r->d->merge_forced;
            g_strfreev(*v);
            *v = g_strsplit(value, "\n", -1);
        } else if (strcmp(name, "annotate") == 0
                   && (strcmp(value, "source") == 0 || strcmp(value, "asm") == 0 || strcmp(value, "both") == 0))
            r->d->annotate = profile_data_intern(r->d, value);
        else
            return fail(r, field, "unknown setting or bad value '%s'", value);
    }
    return true;
}

static bool dec_top(Rd *r, GVariant *top)
{
    Config cfg;
    if (!dec_config(r, top, &cfg))
        return false;
    g_autoptr(GVariant) cores = g_variant_get_child_value(top, 9);
    unsigned n = config_cores(&cfg);
    if (g_variant_n_children(cores) != n)
        return fail(r, "cores", "%" G_GSIZE_FORMAT " cores, the configuration's mesh has %u",
                    g_variant_n_children(cores), n);
    ProfileData *d = r->d;
    profile_data_init(d, n);
    d->cfg = cfg;
    gboolean deadlock, livelock;
    const char *cpath;
    const char *comm;
    g_variant_get(top, "(@a(sss)m&sbbti@" PD_NOC "@a" PD_PACKET "t*@a{ss}m&s@as@a" PD_FLOW ")", NULL,
                  &cpath, &deadlock, &livelock, &d->end_cycle, &d->exit_status, NULL, NULL, NULL, NULL, NULL, &comm,
                  NULL, NULL);
    d->config_path = g_strdup(cpath);
    d->deadlock = deadlock;
    d->livelock = livelock;
    g_autoptr(GVariant) noc = g_variant_get_child_value(top, 6);
    if (!dec_noc(r, noc) || !dec_packets(r, top))
        return false;
    for (unsigned i = 0; i < n; i++)
        if (!dec_core(r, cores, i))
            return false;
    if (comm) {
        GError *e = NULL;
        if (!npjson_depth_ok(comm, PD_COMM_MAX_DEPTH))
            return fail(r, "communication", "JSON nested deeper than %d levels", PD_COMM_MAX_DEPTH);
        d->comm = comm_from_json(comm, &e);
        if (!d->comm) {
            fail(r, "communication", "%s", e->message);
            g_error_free(e);
            return false;
        }
        if (d->comm->ncores != n)
            return fail(r, "communication", "%u cores, the run has %u", d->comm->ncores, n);
    }
    g_autoptr(GVariant) names = g_variant_get_child_value(top, 12);
    g_autoptr(GVariant) flows = g_variant_get_child_value(top, 13);
    g_autofree char *bad = pd_dec_flows(d->comm, names, flows);
    if (bad)
        return fail(r, "flows", "%s", bad);
    return dec_settings(r, top) && check_profiles(r);
}

bool profile_data_decode(GBytes *bytes, const char *name, ProfileData *d, GError **error)
{
    Rd r = { .name = name, .error = error, .d = d, .bins_left = PD_MAX_BINS };
    memset(d, 0, sizeof *d);
    gsize size;
    const guint8 *buf = g_bytes_get_data(bytes, &size);
    if (size < PD_HEADER || memcmp(buf, PD_MAGIC, 8) != 0)
        return fail(&r, "header", "not nocprof profile data (no \"" PD_MAGIC "\" header)");
    guint32 ver;
    guint64 len;
    memcpy(&ver, buf + 8, 4);
    memcpy(&len, buf + 16, 8);
    ver = GUINT32_FROM_LE(ver);
    len = GUINT64_FROM_LE(len);
    if (ver != PROFILE_DATA_VERSION)
        return fail(&r, "version", "format version %u; this nocprof reads version %u", ver, PROFILE_DATA_VERSION);
    const char *type = PD_TOP;
    if (len != size - PD_HEADER)
        return fail(&r, "length", "header says %" G_GUINT64_FORMAT " bytes of payload, the file has %"
                    G_GSIZE_FORMAT, len, size - PD_HEADER);
    g_autoptr(GBytes) payload = g_bytes_new_from_bytes(bytes, PD_HEADER, size - PD_HEADER);
    g_autoptr(GVariant) top = g_variant_ref_sink(g_variant_new_from_bytes(G_VARIANT_TYPE(type), payload, FALSE));
    if (G_BYTE_ORDER != G_LITTLE_ENDIAN) {
        GVariant *sw = g_variant_byteswap(top);
        g_variant_unref(top);
        top = sw;
    }
    if (!g_variant_is_normal_form(top))
        return fail(&r, "payload", "corrupt (not the serialised form of this version's data)");
    if (!dec_top(&r, top)) {
        profile_data_clear(d);
        return false;
    }
    return true;
}

bool profile_data_load(const char *path, ProfileData *d, GError **error)
{
    char *text;
    gsize len;
    memset(d, 0, sizeof *d);
    /* a regular file only (a FIFO would block, /dev/zero never end), and
     * at most PROFILE_DATA_MAX_SIZE bytes */
    if (!base_read_regular(path, PROFILE_DATA_MAX_SIZE, &text, &len, NOCPROF_ERROR_DATA, error))
        return false;
    g_autoptr(GBytes) bytes = g_bytes_new_take(text, len);
    return profile_data_decode(bytes, path, d, error);
}

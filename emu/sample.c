// SPDX-License-Identifier: GPL-2.0-or-later
/* sample.c — PC sampling in simulated time: one histogram per [profile]
 * period, each sample landing on the instruction that occupies its cycle
 * (pc 0 = idle). */
#include "emu/core_priv.h"

#include <stdlib.h>

static gint seg_cmp(gconstpointer a, gconstpointer b)
{
    const uint64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The executable segments' [vaddr, vaddr + memsz) rounded to words,
 * sorted and merged: the histograms' ranges. */
static void hist_ranges(Core *c)
{
    const ElfImage *img = c->img;
    uint64_t (*r)[2] = g_malloc0(sizeof *r * (img->nsegs + 1));
    unsigned n = 0;
    for (unsigned i = 0; i < img->nsegs; i++) {
        const ElfSegment *s = &img->segs[i];
        if (!s->exec || !s->memsz)
            continue;
        r[n][0] = s->vaddr & ~3u;
        r[n][1] = MIN(((uint64_t)s->vaddr + s->memsz + 3) & ~3ull, 0xFFFFFFFCull);
        n++;
    }
    qsort(r, n, sizeof *r, seg_cmp);
    c->ranges = g_new0(CoreRange, MIN(n, CORE_MAX_RANGES) + 1);
    c->nranges = 0;
    c->nbins = 0;
    for (unsigned i = 0; i < n; i++) {
        CoreRange *last = c->nranges ? &c->ranges[c->nranges - 1] : NULL;
        if (last && r[i][0] <= last->hi) {
            if (r[i][1] > last->hi) {
                c->nbins += (uint32_t)((r[i][1] - last->hi) / 4);
                last->hi = (uint32_t)r[i][1];
            }
            continue;
        }
        if (c->nranges == CORE_MAX_RANGES)
            break; /* samples there count as outside */
        c->ranges[c->nranges++] = (CoreRange){ (uint32_t)r[i][0], (uint32_t)r[i][1], c->nbins };
        c->nbins += (uint32_t)((r[i][1] - r[i][0]) / 4);
    }
    g_free(r);
}

void sample_init(Core *c)
{
    hist_ranges(c);
    c->nhists = c->cfg->nperiods;
    c->hists = g_new0(Histogram, c->nhists);
    for (unsigned i = 0; i < c->nhists; i++) {
        c->hists[i].period = c->cfg->periods[i];
        c->hists[i].next = c->cfg->periods[i] - 1;
        c->hists[i].bins = g_new0(uint64_t, c->nbins + 1);
    }
    sample_update_next(c);
}

void sample_clear(Core *c)
{
    /* every sample taken is in exactly one place, and none is missing */
    for (unsigned i = 0; i < c->nhists; i++) {
        const Histogram *h = &c->hists[i];
        uint64_t n = h->idle + h->outside;
        for (uint32_t k = 0; k < c->nbins; k++)
            n += h->bins[k];
        g_assert_cmpuint(n, ==, h->total);
        g_assert_cmpuint(h->total, ==, h->next / h->period);
    }
    for (unsigned i = 0; i < c->nhists; i++)
        g_free(c->hists[i].bins);
    g_free(c->hists);
    g_free(c->ranges);
}

unsigned core_nhists(const Core *c)
{
    return c->nhists;
}

CoreHist core_hist(const Core *c, unsigned i)
{
    const Histogram *h = &c->hists[i];
    return (CoreHist){ .period = h->period, .nranges = c->nranges, .ranges = c->ranges, .nbins = c->nbins,
                       .bins = h->bins, .idle = h->idle, .outside = h->outside, .total = h->total };
}

/* The bin of pc, or -1 outside every range. The range of the last hit
 * is tried first (samples mostly land in one). */
static int64_t bin_of(Core *c, uint32_t pc)
{
    if (c->range_hint < c->nranges) {
        const CoreRange *r = &c->ranges[c->range_hint];
        if (pc >= r->lo && pc < r->hi)
            return (int64_t)r->first + (pc - r->lo) / 4;
    }
    unsigned a = 0, b = c->nranges;
    while (a < b) {
        unsigned m = a + (b - a) / 2;
        if (pc < c->ranges[m].lo)
            b = m;
        else if (pc >= c->ranges[m].hi)
            a = m + 1;
        else {
            c->range_hint = m;
            return (int64_t)c->ranges[m].first + (pc - c->ranges[m].lo) / 4;
        }
    }
    return -1;
}

/* The bin of pc or, outside every range, of its kseg0/kseg1 alias (code
 * linked in kseg0 and run through kseg1, uncached: the same code). */
static int64_t bin_code(Core *c, uint32_t pc)
{
    int64_t k = bin_of(c, pc);
    if (k < 0 && pc - 0x80000000u < 0x40000000u)
        k = bin_of(c, pc ^ 0x20000000u);
    return k;
}

static inline void hist_add(Core *c, Histogram *h, uint32_t pc)
{
    h->total++;
    int64_t k;
    if (pc == 0)
        h->idle++;
    else if ((k = bin_code(c, pc)) >= 0)
        h->bins[k]++;
    else
        h->outside++;
}

void sample_update_next(Core *c)
{
    uint64_t next = UINT64_MAX, next2 = UINT64_MAX;
    unsigned at = 0;
    for (unsigned i = 0; i < c->nhists; i++) {
        uint64_t n = c->hists[i].next;
        next2 = MIN(next2, MAX(next, n));
        at = n < next ? i : at;
        next = MIN(next, n);
    }
    c->next_sample = next;
    c->next_hist = at;
    c->next_sample2 = next2;
    core_set_deadline(c, MIN(c->next_event, next));
}

/* Samples in [from, to) all land on pc (0 = idle). */
void sample_range(Core *c, uint64_t to, uint32_t pc)
{
    for (unsigned i = 0; i < c->nhists; i++) {
        Histogram *h = &c->hists[i];
        if (pc == 0 && h->next < to) {
            uint64_t n = (to - 1 - h->next) / h->period + 1;
            h->idle += n;
            h->total += n;
            h->next += n * h->period;
        }
        while (h->next < to) {
            hist_add(c, h, pc);
            h->next += h->period;
        }
    }
    sample_update_next(c);
}

/* Samples inside block b that started at `start`: each lands on the
 * instruction occupying that cycle; cycles before `start` (a taken branch
 * charged at this boundary) land on `before_pc`. */
G_GNUC_NO_INLINE void sample_block(Core *c, const Block *b, uint32_t before_pc, uint64_t start, uint64_t end)
{
    /* usually one period is due: the one sample_update_next found */
    unsigned i0 = c->next_sample2 >= end ? c->next_hist : 0;
    unsigned i1 = c->next_sample2 >= end ? c->next_hist + 1 : c->nhists;
    for (unsigned i = i0; i < i1; i++) {
        Histogram *h = &c->hists[i];
        if (h->next >= end)
            continue; /* only the periods that are due */
        while (h->next < start) {
            hist_add(c, h, before_pc ? before_pc : b->addr);
            h->next += h->period;
        }
        uint64_t acc = start;
        uint32_t k = 0;
        while (h->next < end) { /* samples come in cycle order: walk on */
            while (k + 1 < b->ninsns && acc + b->icost[k] <= h->next)
                acc += b->icost[k++];
            hist_add(c, h, b->addr + 4 * k);
            h->next += h->period;
        }
    }
    sample_update_next(c);
}

/* The instruction of b occupying cycle s >= at, walking from instruction
 * `from`, which starts at `at`; instruction xi costs `extra` more than its
 * static cost (a device access, mmio.c), the others their static cost. */
static uint32_t insn_at(const Block *b, uint32_t from, uint64_t at, uint32_t xi, int64_t extra, uint64_t s)
{
    uint32_t k = from;
    for (;;) {
        uint64_t cost = (uint64_t)((int64_t)b->icost[k] + (k == xi ? extra : 0));
        if (k + 1 >= b->ninsns || at + cost > s)
            return k;
        at += cost;
        k++;
    }
}

/* Take back a sample taken on pc. Exact by construction: the caller finds
 * pc with insn_at, the walk that placed the sample (sample_block,
 * sample_retime), over the same costs (the static ones, and from the last
 * device access with an extra cost on, that extra: c->acc), so the sample
 * is there. A miss is a bug in that bookkeeping: it asserts (it used to
 * take the sample from `outside` instead, hiding it). */
static void hist_remove(Core *c, Histogram *h, uint32_t pc)
{
    int64_t bin = bin_code(c, pc);
    uint64_t *from = bin >= 0 ? &h->bins[bin] : &h->outside;
    g_assert(*from > 0 && h->total > 0);
    (*from)--;
    h->total--;
}

void sample_untake(Core *c, const Block *b, uint64_t start, uint64_t cut)
{
    /* this execution's last device access with an extra cost: the
     * instructions from it on run at their static costs after it */
    const CoreAccess *a = &c->acc;
    bool dev = CORE_ACC_OF(c, b) && a->extra != 0;
    /* a cache miss charged later than it (cache.c: in program order too,
     * never after the cut) is where the walk starts; before, the samples
     * past an I-cache miss were looked for at static offsets, in bins
     * that had none (an assertion, with [cache] enabled: the run aborted) */
    bool miss = CORE_ACC_OF(c, b) && a->miss_extra != 0 && (!dev || a->miss_at > a->at) && cut >= a->miss_at;
    /* accesses come in program order and the cut is never before the last
     * one: the samples to take back are all past it (or none had an extra
     * cost), where the two walks below are the ones that placed them */
    g_assert(!dev || cut >= a->at);
    for (unsigned h = 0; h < c->nhists; h++) {
        Histogram *hi = &c->hists[h];
        while (hi->next >= hi->period && hi->next - hi->period >= cut && hi->next - hi->period < c->cycles) {
            uint64_t s = hi->next - hi->period;
            uint32_t i = miss && s >= a->miss_at ? insn_at(b, a->miss_insn, a->miss_at, a->miss_insn, a->miss_extra, s)
                       : dev && s >= a->at ? insn_at(b, a->insn, a->at, a->insn, a->extra, s)
                                           : insn_at(b, 0, start, 0, 0, s);
            hist_remove(c, hi, b->addr + 4 * i);
            hi->next = s;
        }
    }
    sample_update_next(c);
}

/* Instruction i of the current block b, starting at `at`, is a device
 * access that costs `delta` cycles more than its static cost (c->cycles
 * is still the block's end without it). The samples taken at the block's
 * entry past `at` were placed with the static cost: take them back and
 * place them (and those the new end brings, or without those it drops)
 * on the instructions that really occupy their cycles. */
void sample_retime(Core *c, const Block *b, uint32_t i, uint64_t at, int64_t delta)
{
    uint64_t end = (uint64_t)((int64_t)c->cycles + delta);
    bool moved = false;
    for (unsigned h = 0; h < c->nhists; h++) {
        Histogram *hi = &c->hists[h];
        if (hi->next >= end && (hi->next < hi->period || hi->next - hi->period < at))
            continue; /* none of its samples is past `at` (the usual case) */
        moved = true;
        while (hi->next >= hi->period && hi->next - hi->period >= at && hi->next - hi->period < c->cycles) {
            uint64_t s = hi->next - hi->period;
            hist_remove(c, hi, b->addr + 4 * insn_at(b, i, at, i, 0, s));
            hi->next = s;
        }
        while (hi->next < end) {
            hist_add(c, hi, b->addr + 4 * insn_at(b, i, at, i, delta, hi->next));
            hi->next += hi->period;
        }
    }
    if (moved)
        sample_update_next(c);
}

void sample_loop(Core *c, const Block *b, uint64_t start, uint64_t period, uint64_t k, uint32_t poll_pc)
{
    uint64_t end = start + k * period;
    /* one iteration: the block, its poll (a device access) `extra` cycles
     * over its static cost, then the taken branch's cycles */
    int64_t extra = (int64_t)period - (int64_t)b->cost - (int64_t)b->bt;
    uint32_t pi = (poll_pc - b->addr) / 4;
    /* an iteration is exactly that (poll_skip: the one iteration that ran
     * measured the period; the loop's taken branch has a static successor,
     * so no entry stall): the poll's extra leaves it at least a cycle */
    g_assert(pi < b->ninsns && (int64_t)b->icost[pi] + extra >= 1);
    uint64_t run = (uint64_t)((int64_t)b->cost + extra);
    for (unsigned i = 0; i < c->nhists; i++) {
        Histogram *h = &c->hists[i];
        while (h->next < end) {
            uint64_t off = h->next >= start ? (h->next - start) % period : 0;
            uint32_t pc = off < run ? b->addr + 4 * insn_at(b, 0, 0, pi, extra, off) : b->branch_pc;
            hist_add(c, h, pc);
            h->next += h->period;
        }
    }
    sample_update_next(c);
}

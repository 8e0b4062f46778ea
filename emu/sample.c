/* sample.c — PC sampling in simulated time: one histogram per [profile]
 * period, each sample landing on the instruction that occupies its cycle
 * (pc 0 = idle). */
#include "core_priv.h"

void sample_init(Core *c)
{
    c->hist_lo = c->img->text_lo & ~3u;
    c->hist_hi = (c->img->text_hi + 3) & ~3u;
    c->nhists = c->cfg->nperiods;
    c->hists = g_new0(Histogram, c->nhists);
    for (unsigned i = 0; i < c->nhists; i++) {
        c->hists[i].period = c->cfg->periods[i];
        c->hists[i].next = c->cfg->periods[i] - 1;
        c->hists[i].bins = g_new0(uint32_t, (c->hist_hi - c->hist_lo) / 4 + 1);
    }
    sample_update_next(c);
}

void sample_clear(Core *c)
{
    for (unsigned i = 0; i < c->nhists; i++)
        g_free(c->hists[i].bins);
    g_free(c->hists);
}

unsigned core_nhists(const Core *c)
{
    return c->nhists;
}

CoreHist core_hist(const Core *c, unsigned i)
{
    const Histogram *h = &c->hists[i];
    return (CoreHist){ .period = h->period, .low_pc = c->hist_lo, .high_pc = c->hist_hi,
                       .bins = h->bins, .idle = h->idle, .outside = h->outside, .total = h->total };
}

static inline void hist_add(Core *c, Histogram *h, uint32_t pc)
{
    h->total++;
    if (pc == 0)
        h->idle++;
    else if (pc >= c->hist_lo && pc < c->hist_hi)
        h->bins[(pc - c->hist_lo) >> 2]++;
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

void sample_untake(Core *c, const Block *b, uint64_t start, uint64_t cut)
{
    for (unsigned h = 0; h < c->nhists; h++) {
        Histogram *hi = &c->hists[h];
        while (hi->next >= hi->period && hi->next - hi->period >= cut && hi->next - hi->period < c->cycles) {
            uint64_t s = hi->next - hi->period, acc = start;
            uint32_t i = 0;
            while (i + 1 < b->ninsns && acc + b->icost[i] <= s)
                acc += b->icost[i++];
            uint32_t pc = b->addr + 4 * i;
            if (pc >= c->hist_lo && pc < c->hist_hi && hi->bins[(pc - c->hist_lo) >> 2])
                hi->bins[(pc - c->hist_lo) >> 2]--;
            else if (hi->outside)
                hi->outside--;
            hi->total--;
            hi->next = s;
        }
    }
    sample_update_next(c);
}

void sample_loop(Core *c, const Block *b, uint64_t start, uint64_t period, uint64_t k, uint32_t poll_pc)
{
    uint64_t end = start + k * period;
    uint64_t tail = b->bt <= period - b->cost ? period - b->bt : b->cost; /* where the taken branch begins */
    for (unsigned i = 0; i < c->nhists; i++) {
        Histogram *h = &c->hists[i];
        while (h->next < end) {
            uint64_t off = h->next >= start ? (h->next - start) % period : 0;
            uint32_t pc;
            if (off < b->cost) {
                uint64_t acc = 0;
                uint32_t n = 0;
                while (n + 1 < b->ninsns && acc + b->icost[n] <= off)
                    acc += b->icost[n++];
                pc = b->addr + 4 * n;
            } else {
                pc = off < tail ? poll_pc : b->branch_pc;
            }
            hist_add(c, h, pc);
            h->next += h->period;
        }
    }
    sample_update_next(c);
}

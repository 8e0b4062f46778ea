// SPDX-License-Identifier: GPL-2.0-or-later
/* profile.c — lifetime and small queries of a Profile (see profile.h). */
#include "profiler/model/profile.h"

#include <string.h>

void profile_free(Profile *p)
{
    if (!p)
        return;
    for (unsigned i = 0; i < p->nfuncs; i++)
        g_free(p->funcs[i].samples);
    for (unsigned i = 0; i < p->nperiods; i++)
        prof_hist_clear(&p->hists[i]);
    g_free(p->funcs);
    g_free(p->arcs);
    for (unsigned i = 0; i < p->nblocks; i++) {
        g_free(p->blocks[i].icycles);
        g_free(p->blocks[i].cut);
    }
    g_free(p->blocks);
    g_free(p->stalls);
    g_free(p->hists);
    g_free(p->ctxs);
    g_free(p->events);
    g_free(p->elf_path);
    g_free(p->collection);
    g_free(p->filter);
    g_free(p->misses);
    g_free(p);
}

int64_t prof_hist_index(const ProfHist *h, uint32_t pc)
{
    unsigned a = 0, b = h->nranges;
    while (a < b) {
        unsigned m = a + (b - a) / 2;
        if (pc < h->ranges[m].lo)
            b = m;
        else if (pc >= h->ranges[m].hi)
            a = m + 1;
        else
            return h->bins ? (int64_t)h->ranges[m].first + (pc - h->ranges[m].lo) / 4 : -1;
    }
    return -1;
}

uint64_t prof_hist_at(const ProfHist *h, uint32_t pc)
{
    int64_t k = prof_hist_index(h, pc);
    return k < 0 ? 0 : h->bins[k];
}

uint32_t prof_hist_pc(const ProfHist *h, uint32_t k)
{
    unsigned a = 0, b = h->nranges;
    while (b - a > 1) { /* the last range whose first bin is <= k */
        unsigned m = a + (b - a) / 2;
        if (h->ranges[m].first <= k)
            a = m;
        else
            b = m;
    }
    return h->nranges ? h->ranges[a].lo + 4 * (k - h->ranges[a].first) : 0;
}

uint32_t prof_hist_low(const ProfHist *h)
{
    return h->nranges ? h->ranges[0].lo : 0;
}

uint32_t prof_hist_high(const ProfHist *h)
{
    return h->nranges ? h->ranges[h->nranges - 1].hi : 0;
}

void prof_hist_copy(ProfHist *dst, const ProfHist *src)
{
    *dst = *src;
    dst->ranges = src->nranges ? g_memdup2(src->ranges, sizeof(ProfRange) * src->nranges) : NULL;
    dst->bins = src->bins ? g_memdup2(src->bins, sizeof(uint64_t) * (src->nbins ? src->nbins : 1)) : NULL;
}

void prof_hist_clear(ProfHist *h)
{
    g_free(h->ranges);
    g_free(h->bins);
    h->ranges = NULL;
    h->bins = NULL;
    h->nranges = h->nbins = 0;
}

static bool never_ran(const Profile *p, unsigned i)
{
    const ProfFunc *f = &p->funcs[i];
    if (f->pseudo || f->hidden || f->calls || f->self_cycles || f->inclusive_cycles)
        return false;
    for (unsigned h = 0; h < p->nperiods; h++)
        if (f->samples && f->samples[h])
            return false;
    return true;
}

/* Functions are in symbols order, which is address order. */
unsigned *profile_never_called(const Profile *p, unsigned *n)
{
    unsigned *out = g_new(unsigned, p->nfuncs ? p->nfuncs : 1);
    *n = 0;
    for (unsigned i = 0; i < p->nfuncs; i++)
        if (never_ran(p, i))
            out[(*n)++] = i;
    return out;
}

/* Blocks are sorted by start address. Every block that can contain addr
 * starts at or below it, so binary-search the last such block and walk down;
 * overlapping blocks (a branch into the middle of an earlier block starts a
 * new one) are all summed. The walk is linear in the worst case, which is
 * fine for a query; reports that need every instruction use
 * profile_insn_counts() instead. */
uint64_t profile_insn_count(const Profile *p, uint32_t addr)
{
    unsigned lo = 0, hi = p->nblocks;   /* first block with start > addr */
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (p->blocks[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint64_t n = 0;
    for (unsigned i = lo; i-- > 0;) {
        const ProfBlock *b = &p->blocks[i];
        if ((uint64_t)addr - b->addr < (uint64_t)b->ninsns * 4)
            n += prof_block_insn_runs(b, (addr - b->addr) / 4);
    }
    return n;
}

unsigned profile_first_block(const Profile *p, uint32_t addr)
{
    if (!p->max_block_insns)
        return 0;
    uint64_t reach = (uint64_t)p->max_block_insns * 4;
    uint32_t from = addr > reach ? (uint32_t)(addr - reach) : 0;
    unsigned lo = 0, hi = p->nblocks;   /* first block with start >= from */
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (p->blocks[mid].addr < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void profile_insn_counts(const Profile *p, uint32_t start, unsigned n, uint64_t *counts)
{
    memset(counts, 0, sizeof *counts * n);
    uint64_t end = (uint64_t)start + (uint64_t)n * 4;
    for (unsigned i = profile_first_block(p, start); i < p->nblocks; i++) {
        const ProfBlock *b = &p->blocks[i];
        uint64_t bend = (uint64_t)b->addr + (uint64_t)b->ninsns * 4;
        if (b->addr >= end)
            break;
        if (bend <= start)
            continue;
        uint64_t a = b->addr < start ? start : b->addr;
        for (; a < bend && a < end; a += 4)
            counts[(a - start) / 4] += prof_block_insn_runs(b, (uint32_t)((a - b->addr) / 4));
    }
}

int profile_arc_cmp(const void *x, const void *y)
{
    const ProfArc *a = x, *b = y;
    if (a->callee != b->callee) return a->callee < b->callee ? -1 : 1;
    if (a->caller != b->caller) return a->caller < b->caller ? -1 : 1;
    return a->call_site < b->call_site ? -1 : a->call_site > b->call_site;
}

int profile_block_cmp(const void *x, const void *y)
{
    const ProfBlock *a = x, *b = y;
    if (a->addr != b->addr) return a->addr < b->addr ? -1 : 1;
    return a->ninsns < b->ninsns ? -1 : a->ninsns > b->ninsns;
}

const ProfMiss *profile_misses_at(const Profile *p, uint32_t pc)
{
    size_t a = 0, b = p->nmisses;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (p->misses[m].pc < pc)
            a = m + 1;
        else
            b = m;
    }
    return a < p->nmisses && p->misses[a].pc == pc ? &p->misses[a] : NULL;
}

static int stall_cmp(const void *a, const void *b)
{
    const ProfStall *x = a, *y = b;
    if (x->pc != y->pc)
        return x->pc < y->pc ? -1 : 1;
    return x->cause < y->cause ? -1 : x->cause > y->cause;
}

void profile_stalls_add(Profile *acc, const ProfStall *s, size_t n)
{
    ProfStall *all = g_new(ProfStall, acc->nstalls + n + 1);
    if (acc->nstalls)
        memcpy(all, acc->stalls, sizeof *all * acc->nstalls);
    if (n)
        memcpy(all + acc->nstalls, s, sizeof *all * n);
    size_t total = acc->nstalls + n, out = 0;
    qsort(all, total, sizeof *all, stall_cmp);
    for (size_t i = 0; i < total; i++) {
        if (out && stall_cmp(&all[out - 1], &all[i]) == 0)
            all[out - 1].cycles += all[i].cycles;
        else
            all[out++] = all[i];
    }
    g_free(acc->stalls);
    acc->stalls = all;
    acc->nstalls = out;
}

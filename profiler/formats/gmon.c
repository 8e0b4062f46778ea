// SPDX-License-Identifier: GPL-2.0-or-later
/* gmon.c — gmon.out writer; the record layout is documented in gmon.h. */
#include "profiler/formats/gmon.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK(nocprof-gmon-error-quark, gmon_error)

enum { TAG_HIST = 0, TAG_ARC = 1, TAG_BB = 2 };
#define BIN_MAX 65535u

static void put8(GByteArray *out, guint8 v)
{
    g_byte_array_append(out, &v, 1);
}

static void put16(GByteArray *out, uint16_t v, bool big)
{
    guint8 b[2] = { big ? v >> 8 : v & 0xff, big ? v & 0xff : v >> 8 };
    g_byte_array_append(out, b, 2);
}

static void put32(GByteArray *out, uint32_t v, bool big)
{
    guint8 b[4];
    for (int i = 0; i < 4; i++)
        b[big ? 3 - i : i] = (guint8)(v >> (8 * i));
    g_byte_array_append(out, b, 4);
}

/* Bytes of one histogram record of n bins: tag, low, high, size, rate,
 * dimension (15), abbreviation, then n u16 counts. */
#define REC_HEAD (1u + 4 * 4 + 15 + 1)

/* Bin b as written with scale s: rounded to the nearest multiple of s. */
static uint64_t scaled(uint64_t b, uint64_t s)
{
    return b / s + (b % s >= (s + 1) / 2);
}

/* Records range r needs at scale s: every written count split over
 * records of at most 65535 each (at least one record). */
static uint64_t range_records(const ProfHist *h, const ProfRange *r, uint64_t s, uint64_t *maxw)
{
    uint64_t m = 0;
    for (uint32_t i = 0, n = (r->hi - r->lo) / 4; i < n; i++)
        m = MAX(m, h->bins[r->first + i]);
    *maxw = scaled(m, s);
    return MAX(1, (*maxw + BIN_MAX - 1) / BIN_MAX);
}

/* The scale of h's records: 1 (exact) unless the histogram part would
 * pass GMON_HIST_BUDGET bytes or a written bin gprof's int accumulator
 * (GMON_BIN_LIMIT); then the smallest power of two that fits (each count
 * rounded to the nearest multiple, the rate divided by the same factor,
 * so gprof's seconds and percentages stay right within half a scale per
 * bin). Never past the point where every range fits in one record. */
static uint64_t hist_scale(const ProfHist *h)
{
    for (uint64_t s = 1;; s *= 2) {
        uint64_t bytes = 0, maxw = 0, all_one = 1;
        for (unsigned i = 0; i < h->nranges; i++) {
            uint64_t w, n = range_records(h, &h->ranges[i], s, &w);
            bytes += n * (REC_HEAD + 2ull * ((h->ranges[i].hi - h->ranges[i].lo) / 4));
            maxw = MAX(maxw, w);
            all_one &= n == 1;
        }
        if ((bytes <= GMON_HIST_BUDGET && maxw <= GMON_BIN_LIMIT) || all_one || s >> 63)
            return s;
    }
}

/* The records of range r of h at scale s: the counts split over records
 * with the same range (gprof sums them). */
static void write_hist_range(GByteArray *out, const ProfHist *h, const ProfRange *r, uint32_t prof_rate,
                             uint64_t s, bool big)
{
    uint32_t lo = r->lo, hi = r->hi, nbins = (hi - lo) / 4, first = r->first;
    if (nbins == 0)
        return;
    uint64_t maxw;
    uint64_t nrec = range_records(h, r, s, &maxw);
    char dimen[15] = "seconds";
    for (uint64_t k = 0; k < nrec; k++) {
        put8(out, TAG_HIST);
        put32(out, lo, big);
        put32(out, hi, big);
        put32(out, nbins, big);
        put32(out, prof_rate, big);
        g_byte_array_append(out, (const guint8 *)dimen, sizeof dimen);
        put8(out, 's');
        uint64_t base = k * BIN_MAX;
        for (uint32_t i = 0; i < nbins; i++) {
            uint64_t b = scaled(h->bins[first + i], s);
            uint64_t v = b > base ? b - base : 0;
            put16(out, (uint16_t)MIN(v, BIN_MAX), big);
        }
    }
}

/* One record range per executable range of the histogram (the ELF's
 * executable segments: the same ranges in every gmon file of one ELF, so
 * `gprof -s` sums them; binutils' gprof reads several records of
 * different, non-overlapping ranges), never the hull between them: a
 * 16-byte segment far from the rest costs one small record. */
static void write_hist(GByteArray *out, const Profile *p, const ProfHist *h, bool big)
{
    uint64_t s = hist_scale(h);
    double rate = h->period ? round(p->clock_hz / h->period / (double)s) : 0;
    uint32_t prof_rate = rate < 1 ? 1 : rate > UINT32_MAX ? UINT32_MAX : (uint32_t)rate;
    for (unsigned i = 0; i < h->nranges; i++)
        write_hist_range(out, h, &h->ranges[i], prof_rate, s, big);
}

uint64_t gmon_hist_scale(const Profile *p, unsigned hist_index)
{
    return hist_index < p->nperiods && p->hists[hist_index].bins ? hist_scale(&p->hists[hist_index]) : 1;
}

static void write_arcs(GByteArray *out, const Profile *p, bool big)
{
    for (unsigned i = 0; i < p->narcs; i++) {
        const ProfArc *a = &p->arcs[i];
        if (a->caller >= p->nfuncs || a->callee >= p->nfuncs)
            continue;
        const ProfFunc *from = &p->funcs[a->caller], *to = &p->funcs[a->callee];
        if (from->pseudo || to->pseudo || a->count == 0)
            continue;
        uint32_t from_pc = from->addr;
        if (a->call_site && a->call_site - from->addr < MAX(from->size, 1u))
            from_pc = a->call_site;
        for (uint64_t left = a->count; left;) {
            uint32_t c = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
            put8(out, TAG_ARC);
            put32(out, from_pc, big);
            put32(out, to->addr, big);
            put32(out, c, big);
            left -= c;
        }
    }
}

/* Block b's pairs of the bb record: one per stretch of its instructions
 * that ran as often (its first address, those runs; counts over 2^32 - 1
 * split), written to out unless NULL; returns how many. A block never cut
 * short is one pair, its executions; where runs were cut short a new
 * stretch starts, so gprof -l -A -x shows each line the times it ran
 * (docs/reports.md "Per-instruction counts"). */
static uint64_t block_pairs(GByteArray *out, const ProfBlock *b, bool big)
{
    uint64_t n = 0;
    uint32_t end = b->cut ? b->ninsns : 1;   /* cut: ninsns > 0 */
    for (uint32_t k = 0, j; k < end; k = j) {
        uint64_t runs = b->cut ? prof_block_insn_runs(b, k) : b->count;
        for (j = k + 1; j < end && prof_block_insn_runs(b, j) == runs; j++)
            ;
        for (uint64_t left = runs; left; n++) {
            uint32_t c = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
            if (out) {
                put32(out, b->addr + 4 * k, big);
                put32(out, c, big);
            }
            left -= c;
        }
    }
    return n;
}

static void write_blocks(GByteArray *out, const Profile *p, bool big)
{
    uint64_t npairs = 0;
    for (unsigned i = 0; i < p->nblocks; i++)
        npairs += block_pairs(NULL, &p->blocks[i], big);
    if (npairs == 0 || npairs > UINT32_MAX)
        return;
    put8(out, TAG_BB);
    /* binutils 2.40 reads nblocks in target order and then swaps it again
     * as if it were still raw bytes, which on a little-endian host (where
     * gprof runs) cancels out only when the value is stored little-endian:
     * target order for mipsel, the reverse for mips (see gmon.h). */
    put32(out, (uint32_t)npairs, false);
    for (unsigned i = 0; i < p->nblocks; i++)
        block_pairs(out, &p->blocks[i], big);
}

/* The size of the file gmon_build_flags would write, in bytes, as a double
 * (no overflow whatever the counts): each histogram range is repeated once
 * per 65535 samples of its fullest bin, each arc once per 2^32 - 1 calls,
 * each block once per 2^32 - 1 runs. */
static double gmon_size(const Profile *p, const ProfHist *h, GmonFlags flags)
{
    double size = 20;
    for (unsigned i = 0; h && i < h->nranges; i++) {
        const ProfRange *r = &h->ranges[i];
        uint64_t maxbin = 0;
        for (uint32_t k = 0; k < (r->hi - r->lo) / 4; k++)
            maxbin = MAX(maxbin, (uint64_t)h->bins[r->first + k]);
        size += (double)(maxbin / BIN_MAX + 1) * (38.0 + 2.0 * ((r->hi - r->lo) / 4));
    }
    for (unsigned i = 0; i < p->narcs; i++)
        size += 13.0 * (double)(p->arcs[i].count / UINT32_MAX + 1);
    for (unsigned i = 0; !(flags & GMON_NO_BLOCKS) && i < p->nblocks; i++)
        size += 8.0 * (double)(p->blocks[i].count / UINT32_MAX + 1) * (p->blocks[i].cut ? p->blocks[i].ninsns : 1);
    return size;
}

GByteArray *gmon_build(const Profile *p, unsigned hist_index, GError **error)
{
    return gmon_build_flags(p, hist_index, GMON_DEFAULT, error);
}

GByteArray *gmon_build_flags(const Profile *p, unsigned hist_index, GmonFlags flags,
                             GError **error)
{
    if (!p->syms) {
        g_set_error(error, GMON_ERROR, GMON_ERROR_INVALID,
                    "core %u: no symbols, byte order of the gmon.out unknown", p->core);
        return NULL;
    }
    const ProfHist *h = NULL;
    if (p->nperiods) {
        if (hist_index >= p->nperiods) {
            g_set_error(error, GMON_ERROR, GMON_ERROR_INVALID,
                        "core %u: no histogram %u (%u sampling periods)", p->core,
                        hist_index, p->nperiods);
            return NULL;
        }
        h = &p->hists[hist_index];
        for (unsigned i = 0; i < h->nranges; i++) {
            const ProfRange *r = &h->ranges[i];
            if (r->hi <= r->lo || ((r->hi - r->lo) & 3) || !h->bins || r->first > h->nbins
                || (r->hi - r->lo) / 4 > h->nbins - r->first || (i && r->lo < h->ranges[i - 1].hi)) {
                g_set_error(error, GMON_ERROR, GMON_ERROR_INVALID,
                            "core %u: malformed histogram range 0x%08x..0x%08x", p->core, r->lo, r->hi);
                return NULL;
            }
        }
    }
    double size = gmon_size(p, h, flags);
    if (size > GMON_MAX_BYTES) {
        g_set_error(error, GMON_ERROR, GMON_ERROR_INVALID,
                    "core %u: its gmon.out would take %.3g bytes (16-bit histogram bins repeated per 65535 "
                    "samples, 32-bit arc counts), more than the limit of %u: use a larger sampling period",
                    p->core, size, GMON_MAX_BYTES);
        return NULL;
    }
    bool big = symbols_big_endian(p->syms);
    GByteArray *out = g_byte_array_new();
    g_byte_array_append(out, (const guint8 *)"gmon", 4);
    put32(out, 1, big);
    for (int i = 0; i < 3; i++)
        put32(out, 0, big);
    if (h)
        write_hist(out, p, h, big);
    write_arcs(out, p, big);
    if (!(flags & GMON_NO_BLOCKS))
        write_blocks(out, p, big);
    return out;
}

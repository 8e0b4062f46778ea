// SPDX-License-Identifier: GPL-2.0-or-later
/* aliasing.c — sampled profiles judged against the exact cycle counts.
 *
 * The model (see aliasing.h and docs/aliasing.md): on one core, the n timer
 * ticks of a sampling period are n draws from the exact distribution of
 * cycles over functions. If the work has no period in common with the
 * ticks, the count s of function f behaves like Binomial(n, p) with p its
 * exact cycle share — in fact better than binomial, because the ticks are a
 * regular grid (a systematic sample), whose error is at most that of random
 * draws unless the grid resonates with the work. Resonance shows up as
 * counts far outside the binomial spread. So each function gets an exact
 * binomial test, Bonferroni-corrected over the functions of the period, and
 * the deviation must also be material (one percentage point) so that a huge
 * n does not turn a harmless 0.2% bias into an alarm.
 *
 * Stages: collect (p, s) per function -> per-function statistics and the
 * acceptance band -> distribution distance (TVD, chi-square) -> verdict ->
 * printers (aliasing_text.c, aliasing_json.c, aliasing_svg.c). The special
 * functions are in aliasing_stats.c.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "profiler/analysis/aliasing_private.h"

/* ---- neighbours --------------------------------------------------------- */

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static bool neighbour_ok(uint64_t c, uint32_t period, const uint32_t *out, unsigned n,
                         bool pairwise)
{
    if (c == 0 || c == period || c > UINT32_MAX || gcd64(c, period) != 1)
        return false;
    for (unsigned i = 0; i < n; i++)
        if (out[i] == c || (pairwise && gcd64(c, out[i]) != 1))
            return false;
    return true;
}

/* Search outward from target (target, +1, -1, +2, ...) within radius. */
static bool neighbour_near(int64_t target, int64_t radius, uint32_t period, uint32_t *out,
                           unsigned n, bool pairwise)
{
    for (int64_t d = 0; d <= radius; d++)
        for (int sgn = 1; sgn >= -1; sgn -= 2) {
            int64_t c = target + sgn * d;
            if (c > 0 && neighbour_ok((uint64_t)c, period, out, n, pairwise)) {
                out[n] = (uint32_t)c;
                return true;
            }
            if (d == 0)
                break;
        }
    return false;
}

unsigned aliasing_neighbours(uint32_t period, uint32_t *out, unsigned max)
{
    if (period == 0 || max == 0)
        return 0;
    /* Step u ~ 1.1% of the period: P +- u sweeps a program period of P in
     * about P/u ~ 90 ticks. Offsets -1u, +2u, -3u, ... so that no two
     * neighbours sit at the same distance from P. */
    int64_t u = (int64_t)llround(period * 0.011);
    if (u < 1)
        u = 1;
    unsigned n = 0;
    for (int pass = 0; pass < 2 && n < max; pass++) {
        bool pairwise = pass == 0;
        for (int64_t i = 1; n < max && i <= 4 * (int64_t)max + 8; i++) {
            int64_t off = (i & 1) ? -i * u : i * u;
            int64_t target = (int64_t)period + off;
            if (target < 1)
                target = (int64_t)period + i * u;   /* no room below */
            else if (target > (int64_t)UINT32_MAX)
                target = (int64_t)period - i * u;   /* no room above */
            if (neighbour_near(target, u / 2 + 2, period, out, n, pairwise))
                n++;
        }
    }
    /* Tiny periods: take whatever co-prime values are nearest. */
    for (int64_t d = 1; n < max && d < 4 * (int64_t)max + 64; d++)
        for (int sgn = -1; sgn <= 1 && n < max; sgn += 2) {
            int64_t c = (int64_t)period + sgn * d;
            if (c > 0 && neighbour_ok((uint64_t)c, period, out, n, false))
                out[n++] = (uint32_t)c;
        }
    return n;
}

/* ---- analysis ----------------------------------------------------------- */

static int func_cmp(const void *a, const void *b)
{
    const AliasFunc *x = a, *y = b;
    if (x->self_cycles != y->self_cycles)
        return x->self_cycles > y->self_cycles ? -1 : 1;
    if (x->samples != y->samples)
        return x->samples > y->samples ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Two-sided exact binomial p-value: twice the smaller tail, at most 1. */
static double two_sided(uint64_t n, double p, uint64_t s)
{
    double lo = aliasing_binom_tail(n, p, s, false);
    double hi = aliasing_binom_tail(n, p, s, true);
    return fmin(1.0, 2.0 * fmin(lo, hi));
}

/* Acceptance interval [klo, khi] of counts whose two-sided p-value is at
 * least thr: P(X <= k) >= thr/2 and P(X >= k) >= thr/2. Binary search, with
 * a normal-approximation bracket to keep it short (zc: the normal quantile
 * of thr/2, the period's z_crit, computed once: it is a bisection). */
static void acceptance(uint64_t n, double p, double thr, double zc, uint64_t *klo, uint64_t *khi)
{
    double mean = (double)n * p, sd = sqrt((double)n * p * (1.0 - p));
    double reach = (zc + 6.0) * sd + 50.0;
    uint64_t center = (uint64_t)fmin((double)n, floor(mean));
    /* smallest k with lower(k) >= thr/2; lower(n) = 1 */
    uint64_t lo = (uint64_t)fmax(0.0, mean - reach), hi = center;
    if (lo > 0 && aliasing_binom_tail(n, p, lo, false) >= thr / 2.0)
        lo = 0;
    if (aliasing_binom_tail(n, p, hi, false) < thr / 2.0)
        hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (aliasing_binom_tail(n, p, mid, false) >= thr / 2.0)
            hi = mid;
        else
            lo = mid + 1;
    }
    *klo = lo;
    /* largest k with upper(k) >= thr/2; upper(0) = 1 */
    lo = (uint64_t)fmin((double)n, ceil(mean));
    hi = (uint64_t)fmin((double)n, mean + reach);
    if (hi < n && aliasing_binom_tail(n, p, hi, true) >= thr / 2.0)
        hi = n;
    if (aliasing_binom_tail(n, p, lo, true) < thr / 2.0)
        lo = 0;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (aliasing_binom_tail(n, p, mid, true) >= thr / 2.0)
            lo = mid;
        else
            hi = mid - 1;
    }
    *khi = lo;
}

static void analyse_func(AliasFunc *f, uint64_t n, double thr, double zc)
{
    double p = f->exact, nd = (double)n;
    f->sampled = (double)f->samples / nd;
    f->expected = nd * p;
    f->se = sqrt(p * (1.0 - p) / nd);
    f->z = (f->sampled - p) / fmax(f->se, 0.5 / nd);
    f->p_value = two_sided(n, p, f->samples);
    uint64_t klo, khi;
    acceptance(n, p, thr, zc, &klo, &khi);
    f->band_lo = fmax(0.0, fmin((double)klo / nd, p - ALIASING_MIN_DEVIATION));
    f->band_hi = fmin(1.0, fmax((double)khi / nd, p + ALIASING_MIN_DEVIATION));
    f->deviates = f->p_value < thr && fabs(f->sampled - p) >= ALIASING_MIN_DEVIATION;
}

/* Pearson chi-square: bins with an expected count below 5 are pooled and
 * the pool joins the smallest regular bin when it is itself below 5. */
static void chi_square(AliasPeriod *ap)
{
    double chi2 = 0.0, pool_e = 0.0, pool_o = 0.0, small_e = 0.0, small_o = 0.0;
    unsigned bins = 0;
    int small = -1;
    for (unsigned i = 0; i < ap->nfuncs; i++) {
        const AliasFunc *f = &ap->funcs[i];
        if (f->expected >= 5.0) {
            bins++;
            if (small < 0 || f->expected < ap->funcs[small].expected)
                small = (int)i;
        } else {
            pool_e += f->expected;
            pool_o += (double)f->samples;
        }
    }
    if (pool_e > 0.0 || pool_o > 0.0) {
        if (pool_e < 5.0 && small >= 0) {
            small_e = pool_e;
            small_o = pool_o;
        } else {
            double e = fmax(pool_e, 1.0);
            chi2 += (pool_o - e) * (pool_o - e) / e;
            bins++;
        }
    }
    for (unsigned i = 0; i < ap->nfuncs; i++) {
        const AliasFunc *f = &ap->funcs[i];
        if (f->expected < 5.0)
            continue;
        double e = f->expected, o = (double)f->samples;
        if ((int)i == small) {
            e += small_e;
            o += small_o;
        }
        chi2 += (o - e) * (o - e) / e;
    }
    ap->chi2_dof = bins > 1 ? bins - 1 : 0;
    ap->chi2 = ap->chi2_dof ? chi2 : 0.0;
    ap->chi2_p = aliasing_chi2_q(ap->chi2, ap->chi2_dof);
}

/* Samples needed before "consistent" means anything: the widest band,
 * z_crit * sqrt(p(1-p)/n), must be within ALIASING_RESOLUTION; and the
 * period that gives that many samples over the core's cycles. */
static void samples_needed(AliasPeriod *ap, uint64_t cycles)
{
    double pq = 0.0;
    for (unsigned i = 0; i < ap->nfuncs; i++)
        pq = fmax(pq, ap->funcs[i].exact * (1.0 - ap->funcs[i].exact));
    double z = ap->z_crit;
    ap->samples_needed = (uint64_t)ceil(z * z * pq / (ALIASING_RESOLUTION * ALIASING_RESOLUTION));
    if (ap->samples_needed < 2)
        ap->samples_needed = 2;
    ap->period_needed = cycles / ap->samples_needed;
}

static void analyse_period(AliasPeriod *ap, const Profile *prof, unsigned h, uint64_t cycles)
{
    ap->period = prof->hists[h].period;
    ap->hist = h;
    ap->funcs = g_new0(AliasFunc, prof->nfuncs ? prof->nfuncs : 1);
    uint64_t n = 0;
    for (unsigned i = 0; i < prof->nfuncs; i++) {
        const ProfFunc *pf = &prof->funcs[i];
        uint64_t s = pf->samples ? pf->samples[h] : 0;
        n += s;
        if (pf->self_cycles == 0 && s == 0)
            continue;
        AliasFunc *f = &ap->funcs[ap->nfuncs++];
        f->name = g_strdup(pf->name ? pf->name : "??");
        f->func = i;
        f->pseudo = pf->pseudo;
        f->self_cycles = pf->self_cycles;
        f->samples = s;
        f->exact = cycles ? (double)pf->self_cycles / (double)cycles : 0.0;
    }
    qsort(ap->funcs, ap->nfuncs, sizeof *ap->funcs, func_cmp);
    ap->samples = n;
    unsigned m = ap->nfuncs ? ap->nfuncs : 1;
    ap->threshold = ALIASING_ALPHA / m;
    ap->z_crit = alias_normal_quantile(ap->threshold / 2.0);
    if (n == 0) {
        ap->verdict = ALIAS_NO_SAMPLES;
        ap->chi2_p = 1.0;
        for (unsigned i = 0; i < ap->nfuncs; i++) {
            ap->funcs[i].p_value = 1.0;
            ap->funcs[i].band_hi = 1.0;
        }
        return;
    }
    bool any = false;
    for (unsigned i = 0; i < ap->nfuncs; i++) {
        AliasFunc *f = &ap->funcs[i];
        analyse_func(f, n, ap->threshold, ap->z_crit);
        ap->tvd += 0.5 * fabs(f->sampled - f->exact);
        any |= f->deviates;
    }
    chi_square(ap);
    ap->diffuse = !any && ap->chi2_p < ALIASING_ALPHA && ap->tvd >= ALIASING_MIN_DISTANCE;
    ap->verdict = any || ap->diffuse ? ALIAS_ALIASED : ALIAS_CONSISTENT;
    samples_needed(ap, cycles);
    if (ap->verdict == ALIAS_CONSISTENT && (ap->samples < ap->samples_needed || ap->chi2_dof == 0))
        ap->verdict = ALIAS_INCONCLUSIVE;
}

static uint64_t core_cycles(const Profile *p)
{
    uint64_t sum = 0;
    for (unsigned i = 0; i < p->nfuncs; i++)
        sum += p->funcs[i].self_cycles;
    return sum ? sum : p->cycles;
}

AliasAnalysis *aliasing_analyse(const Profile *const *cores, unsigned ncores)
{
    AliasAnalysis *a = g_new0(AliasAnalysis, 1);
    a->ncores = ncores;
    a->cores = g_new0(AliasCore, ncores ? ncores : 1);
    for (unsigned c = 0; c < ncores; c++) {
        AliasCore *ac = &a->cores[c];
        const Profile *p = cores[c];
        ac->recommended = -1;
        if (!p)
            continue;
        ac->id = p->core;
        ac->elf = g_strdup(p->elf_path ? p->elf_path : "");
        ac->cycles = core_cycles(p);
        ac->nperiods = p->nperiods;
        ac->periods = g_new0(AliasPeriod, p->nperiods ? p->nperiods : 1);
        for (unsigned h = 0; h < p->nperiods; h++) {
            AliasPeriod *ap = &ac->periods[h];
            analyse_period(ap, p, h, ac->cycles);
            if (ap->verdict != ALIAS_CONSISTENT)
                continue;
            const AliasPeriod *best = ac->recommended >= 0 ? &ac->periods[ac->recommended] : NULL;
            if (!best || ap->tvd < best->tvd ||
                (ap->tvd == best->tvd && ap->samples > best->samples))
                ac->recommended = (int)h;
        }
    }
    return a;
}

void aliasing_free(AliasAnalysis *a)
{
    if (!a)
        return;
    for (unsigned c = 0; c < a->ncores; c++) {
        AliasCore *ac = &a->cores[c];
        for (unsigned h = 0; h < ac->nperiods; h++) {
            for (unsigned i = 0; i < ac->periods[h].nfuncs; i++)
                g_free(ac->periods[h].funcs[i].name);
            g_free(ac->periods[h].funcs);
        }
        g_free(ac->periods);
        g_free(ac->elf);
    }
    g_free(a->cores);
    g_free(a);
}

const AliasPeriod *aliasing_period(const AliasAnalysis *a, unsigned core, unsigned hist)
{
    if (!a || core >= a->ncores || hist >= a->cores[core].nperiods)
        return NULL;
    return &a->cores[core].periods[hist];
}

bool aliasing_flagged(const AliasAnalysis *a, unsigned core, unsigned hist)
{
    const AliasPeriod *ap = aliasing_period(a, core, hist);
    return ap && ap->verdict == ALIAS_ALIASED;
}

int aliasing_recommended(const AliasAnalysis *a, unsigned core)
{
    return a && core < a->ncores ? a->cores[core].recommended : -1;
}

bool aliasing_any_flagged(const AliasAnalysis *a)
{
    for (unsigned c = 0; a && c < a->ncores; c++)
        for (unsigned h = 0; h < a->cores[c].nperiods; h++)
            if (a->cores[c].periods[h].verdict == ALIAS_ALIASED)
                return true;
    return false;
}

/* ---- shared helpers for the printers ------------------------------------ */

const AliasFunc *alias_period_func(const AliasPeriod *ap, unsigned func)
{
    for (unsigned i = 0; i < ap->nfuncs; i++)
        if (ap->funcs[i].func == func)
            return &ap->funcs[i];
    return NULL;
}

const char *alias_verdict_name(AliasVerdict v)
{
    switch (v) {
    case ALIAS_CONSISTENT: return "consistent";
    case ALIAS_ALIASED: return "aliased";
    case ALIAS_INCONCLUSIVE: return "inconclusive";
    default: return "no_samples";
    }
}

static int dev_cmp(const void *a, const void *b)
{
    const AliasFunc *x = *(const AliasFunc *const *)a, *y = *(const AliasFunc *const *)b;
    double dx = fabs(x->sampled - x->exact), dy = fabs(y->sampled - y->exact);
    return dx > dy ? -1 : dx < dy ? 1 : strcmp(x->name, y->name);
}

/* Deviating functions of a period, largest deviation first; *n set. */
const AliasFunc **alias_deviating(const AliasPeriod *ap, unsigned *n)
{
    const AliasFunc **v = g_new(const AliasFunc *, ap->nfuncs ? ap->nfuncs : 1);
    *n = 0;
    for (unsigned i = 0; i < ap->nfuncs; i++)
        if (ap->funcs[i].deviates)
            v[(*n)++] = &ap->funcs[i];
    qsort(v, *n, sizeof *v, dev_cmp);
    return v;
}

/* Functions shown for a core: the top `top` by exact share (order of the
 * first period, which is by exact share), then every function that deviates
 * somewhere, up to `cap`. Returns Profile function indices. */
GArray *alias_core_rows(const AliasCore *ac, unsigned top, unsigned cap)
{
    GArray *rows = g_array_new(FALSE, FALSE, sizeof(unsigned));
    if (!ac->nperiods)
        return rows;
    const AliasPeriod *first = &ac->periods[0];
    for (unsigned i = 0; i < first->nfuncs && rows->len < top; i++)
        if (first->funcs[i].self_cycles)
            g_array_append_val(rows, first->funcs[i].func);
    for (unsigned h = 0; h < ac->nperiods; h++) {
        unsigned nd;
        const AliasFunc **dv = alias_deviating(&ac->periods[h], &nd);
        for (unsigned j = 0; j < nd && rows->len < cap; j++) {
            bool seen = false;
            for (unsigned r = 0; r < rows->len; r++)
                seen |= g_array_index(rows, unsigned, r) == dv[j]->func;
            if (!seen)
                g_array_append_val(rows, dv[j]->func);
        }
        g_free(dv);
    }
    return rows;
}

const char *alias_func_name(const AliasCore *ac, unsigned func)
{
    for (unsigned h = 0; h < ac->nperiods; h++) {
        const AliasFunc *f = alias_period_func(&ac->periods[h], func);
        if (f)
            return f->name;
    }
    return "??";
}

const char *alias_basename(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void alias_append_pvalue(GString *out, double pv)
{
    if (pv < 1e-300)
        g_string_append(out, "< 1e-300");
    else if (pv < 1e-3)
        g_string_append_printf(out, "%.1e", pv);
    else
        g_string_append_printf(out, "%.3f", pv);
}


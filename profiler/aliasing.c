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
 * printers (text, JSON, SVG). The special functions (regularised incomplete
 * beta and gamma) are the continued fractions of Numerical Recipes 6.2/6.4
 * evaluated with the modified Lentz method.
 */
#include "aliasing.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

typedef struct AliasCore {
    unsigned id;               /* Profile.core */
    char *elf;                 /* NULL: no profile for this core (skipped) */
    uint64_t cycles;           /* the exact 100% */
    unsigned nperiods;
    AliasPeriod *periods;
    int recommended;
} AliasCore;

struct AliasAnalysis {
    unsigned ncores;
    AliasCore *cores;
};

/* ---- special functions -------------------------------------------------- */

#define AL_TINY 1e-300
#define AL_EPS  1e-15

static double lentz_fix(double v)
{
    return fabs(v) < AL_TINY ? AL_TINY : v;
}

/* Continued fraction of the incomplete beta (NR betacf). It converges in
 * O(sqrt(max(a, b))) steps in the worst case (x near the mean), much faster
 * in the tails that matter here. */
static double betacf(double a, double b, double x)
{
    double qab = a + b, qap = a + 1.0, qam = a - 1.0;
    double c = 1.0, d = 1.0 / lentz_fix(1.0 - qab * x / qap), h = d;
    double maxit = 200.0 + 20.0 * sqrt(fmax(a, b));
    for (double m = 1.0; m <= maxit; m += 1.0) {
        double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 / lentz_fix(1.0 + aa * d);
        c = lentz_fix(1.0 + aa / c);
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 / lentz_fix(1.0 + aa * d);
        c = lentz_fix(1.0 + aa / c);
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < AL_EPS)
            break;
    }
    return h;
}

/* Regularised incomplete beta I_x(a, b); y = 1 - x given separately so a
 * share close to 0 or 1 loses no precision. The branch that evaluates the
 * continued fraction directly is the one whose result is the small tail. */
static double betai(double a, double b, double x, double y)
{
    if (x <= 0.0)
        return 0.0;
    if (y <= 0.0)
        return 1.0;
    double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(y);
    if (x < (a + 1.0) / (a + b + 2.0))
        return exp(lbt + log(betacf(a, b, x) / a));
    return 1.0 - exp(lbt + log(betacf(b, a, y) / b));
}

double aliasing_binom_tail(uint64_t n, double p, uint64_t k, bool upper)
{
    if (upper) {                          /* P(X >= k) = I_p(k, n-k+1) */
        if (k == 0)
            return 1.0;
        if (k > n || p <= 0.0)
            return 0.0;
        if (p >= 1.0)
            return 1.0;
        return betai((double)k, (double)(n - k) + 1.0, p, 1.0 - p);
    }
    if (k >= n || p <= 0.0)               /* P(X <= k) = I_{1-p}(n-k, k+1) */
        return 1.0;
    if (p >= 1.0)
        return 0.0;
    return betai((double)(n - k), (double)k + 1.0, 1.0 - p, p);
}

/* Regularised upper incomplete gamma Q(a, x) (NR gammq: series below
 * a + 1, continued fraction above, where Q is the small tail). */
static double gammq(double a, double x)
{
    if (x <= 0.0)
        return 1.0;
    double lpre = -x + a * log(x) - lgamma(a);
    double maxit = 200.0 + 20.0 * sqrt(a + x);
    if (x < a + 1.0) {
        double ap = a, del = 1.0 / a, sum = del;
        for (double i = 0; i < maxit; i += 1.0) {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if (fabs(del) < fabs(sum) * AL_EPS)
                break;
        }
        return fmax(0.0, 1.0 - exp(lpre + log(sum)));
    }
    double b = x + 1.0 - a, c = 1.0 / AL_TINY, d = 1.0 / b, h = d;
    for (double i = 1.0; i <= maxit; i += 1.0) {
        double an = -i * (i - a);
        b += 2.0;
        d = 1.0 / lentz_fix(an * d + b);
        c = lentz_fix(b + an / c);
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < AL_EPS)
            break;
    }
    return exp(lpre + log(h));
}

double aliasing_chi2_q(double x, unsigned dof)
{
    if (dof == 0)
        return 1.0;
    return gammq(dof / 2.0, x / 2.0);
}

/* z with P(Z > z) = tail for a standard normal (bisection on erfc). */
static double normal_upper_quantile(double tail)
{
    double lo = 0.0, hi = 40.0;
    for (int i = 0; i < 100; i++) {
        double mid = 0.5 * (lo + hi);
        if (0.5 * erfc(mid / M_SQRT2) > tail)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

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
 * a normal-approximation bracket to keep it short. */
static void acceptance(uint64_t n, double p, double thr, uint64_t *klo, uint64_t *khi)
{
    double mean = (double)n * p, sd = sqrt((double)n * p * (1.0 - p));
    double zc = normal_upper_quantile(thr / 2.0);
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

static void analyse_func(AliasFunc *f, uint64_t n, double thr)
{
    double p = f->exact, nd = (double)n;
    f->sampled = (double)f->samples / nd;
    f->expected = nd * p;
    f->se = sqrt(p * (1.0 - p) / nd);
    f->z = (f->sampled - p) / fmax(f->se, 0.5 / nd);
    f->p_value = two_sided(n, p, f->samples);
    uint64_t klo, khi;
    acceptance(n, p, thr, &klo, &khi);
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
    ap->z_crit = normal_upper_quantile(ap->threshold / 2.0);
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
        analyse_func(f, n, ap->threshold);
        ap->tvd += 0.5 * fabs(f->sampled - f->exact);
        any |= f->deviates;
    }
    chi_square(ap);
    ap->diffuse = !any && ap->chi2_p < ALIASING_ALPHA && ap->tvd >= ALIASING_MIN_DISTANCE;
    ap->verdict = any || ap->diffuse ? ALIAS_ALIASED : ALIAS_CONSISTENT;
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

static const AliasFunc *period_func(const AliasPeriod *ap, unsigned func)
{
    for (unsigned i = 0; i < ap->nfuncs; i++)
        if (ap->funcs[i].func == func)
            return &ap->funcs[i];
    return NULL;
}

static const char *verdict_name(AliasVerdict v)
{
    switch (v) {
    case ALIAS_CONSISTENT: return "consistent";
    case ALIAS_ALIASED: return "aliased";
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
static const AliasFunc **deviating(const AliasPeriod *ap, unsigned *n)
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
static GArray *core_rows(const AliasCore *ac, unsigned top, unsigned cap)
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
        const AliasFunc **dv = deviating(&ac->periods[h], &nd);
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

static const char *func_name(const AliasCore *ac, unsigned func)
{
    for (unsigned h = 0; h < ac->nperiods; h++) {
        const AliasFunc *f = period_func(&ac->periods[h], func);
        if (f)
            return f->name;
    }
    return "??";
}

static const char *basename_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void append_pvalue(GString *out, double pv)
{
    if (pv < 1e-300)
        g_string_append(out, "< 1e-300");
    else if (pv < 1e-3)
        g_string_append_printf(out, "%.1e", pv);
    else
        g_string_append_printf(out, "%.3f", pv);
}

/* ---- text report -------------------------------------------------------- */

#define REPORT_MIN_SHARE 0.005   /* rows below 0.5% are summarised */
#define REPORT_MAX_ROWS  15

static void verdict_line(GString *out, const AliasPeriod *ap)
{
    g_string_append_printf(out, "  => period %" PRIu32 ": ", ap->period);
    if (ap->verdict == ALIAS_NO_SAMPLES) {
        g_string_append(out, "no samples (the core ran fewer cycles than one period)\n");
        return;
    }
    if (ap->verdict == ALIAS_CONSISTENT) {
        double zmax = 0.0;
        for (unsigned i = 0; i < ap->nfuncs; i++)
            zmax = fmax(zmax, fabs(ap->funcs[i].z));
        g_string_append_printf(out,
            "consistent — every function within its band (largest |z| = %.1f, distance %.1f%%)\n",
            zmax, 100.0 * ap->tvd);
        return;
    }
    if (ap->diffuse) {
        g_string_append_printf(out,
            "ALIASED — no single function is off by %.0f pp, but the distribution is "
            "(distance %.1f%%, chi-square p = ", 100.0 * ALIASING_MIN_DEVIATION, 100.0 * ap->tvd);
        append_pvalue(out, ap->chi2_p);
        g_string_append(out, ")\n");
        return;
    }
    unsigned nd;
    const AliasFunc **dv = deviating(ap, &nd);
    g_string_append(out, "ALIASED — ");
    for (unsigned j = 0; j < nd && j < 3; j++)
        g_string_append_printf(out, "%s%s sampled %.1f%% vs exact %.1f%% (z = %.1f)",
                               j ? "; " : "", dv[j]->name, 100.0 * dv[j]->sampled,
                               100.0 * dv[j]->exact, dv[j]->z);
    if (nd > 3)
        g_string_append_printf(out, "; and %u more", nd - 3);
    g_string_append_c(out, '\n');
    g_free(dv);
}

static void period_table(GString *out, const AliasPeriod *ap)
{
    g_string_append_printf(out,
        "period %" PRIu32 ": %" PRIu64 " samples, %u functions tested, distance %.2f%%, "
        "chi-square %.1f (%u dof, p ",
        ap->period, ap->samples, ap->nfuncs, 100.0 * ap->tvd, ap->chi2, ap->chi2_dof);
    append_pvalue(out, ap->chi2_p);
    g_string_append_printf(out, "), deviation needs p < %.1e (|z| > %.2f) and >= %.0f pp\n",
                           ap->threshold, ap->z_crit, 100.0 * ALIASING_MIN_DEVIATION);
    if (ap->verdict == ALIAS_NO_SAMPLES) {
        verdict_line(out, ap);
        return;
    }
    g_string_append(out,
        "    exact%  sampled%   samples  expected    +-se%        z   p-value    band%         function\n");
    unsigned shown = 0, hidden = 0;
    for (unsigned i = 0; i < ap->nfuncs; i++) {
        const AliasFunc *f = &ap->funcs[i];
        bool big = f->exact >= REPORT_MIN_SHARE || f->sampled >= REPORT_MIN_SHARE;
        if (!f->deviates && (!big || shown >= REPORT_MAX_ROWS)) {
            hidden++;
            continue;
        }
        shown++;
        GString *pv = g_string_new(NULL);
        append_pvalue(pv, f->p_value);
        g_string_append_printf(out,
            "  %8.2f  %8.2f  %8" PRIu64 "  %8.1f  %7.2f  %7.1f  %8s  %6.2f-%-6.2f %s %s\n",
            100.0 * f->exact, 100.0 * f->sampled, f->samples, f->expected, 100.0 * f->se,
            f->z, pv->str, 100.0 * f->band_lo, 100.0 * f->band_hi, f->deviates ? "!!" : "  ",
            f->name);
        g_string_free(pv, TRUE);
    }
    if (hidden)
        g_string_append_printf(out, "  (%u more function%s below %.1f%%, none deviating)\n",
                               hidden, hidden == 1 ? "" : "s", 100.0 * REPORT_MIN_SHARE);
    verdict_line(out, ap);
}

static void cross_period(GString *out, const AliasCore *ac)
{
    GArray *rows = core_rows(ac, 10, 16);
    g_string_append(out,
        "\nCross-period comparison: sampled share (%) at each period; * = deviates from the exact share\n");
    g_string_append(out, "     exact");
    for (unsigned h = 0; h < ac->nperiods; h++)
        g_string_append_printf(out, " %9" PRIu32, ac->periods[h].period);
    g_string_append(out, "    spread  agree  function\n");
    for (unsigned r = 0; r < rows->len; r++) {
        unsigned func = g_array_index(rows, unsigned, r);
        double exact = 0.0, qmin = INFINITY, qmax = -INFINITY;
        unsigned agree = 0, judged = 0;
        GString *cells = g_string_new(NULL);
        for (unsigned h = 0; h < ac->nperiods; h++) {
            const AliasPeriod *ap = &ac->periods[h];
            const AliasFunc *f = period_func(ap, func);
            if (ap->verdict == ALIAS_NO_SAMPLES) {
                g_string_append_printf(cells, " %9s", "-");
                continue;
            }
            double q = f ? f->sampled : 0.0;
            if (f)
                exact = f->exact;
            qmin = fmin(qmin, q);
            qmax = fmax(qmax, q);
            judged++;
            agree += !(f && f->deviates);
            g_string_append_printf(cells, " %8.2f%c", 100.0 * q, f && f->deviates ? '*' : ' ');
        }
        g_string_append_printf(out, "  %8.2f%s  %8.2f  %2u/%-2u  %s\n", 100.0 * exact, cells->str,
                               judged ? 100.0 * (qmax - qmin) : 0.0, agree, judged,
                               func_name(ac, func));
        g_string_free(cells, TRUE);
    }
    g_string_append(out, "  verdict  ");
    for (unsigned h = 0; h < ac->nperiods; h++) {
        AliasVerdict v = ac->periods[h].verdict;
        g_string_append_printf(out, " %9s",
                               v == ALIAS_ALIASED ? "ALIASED" : v == ALIAS_CONSISTENT ? "ok" : "-");
    }
    g_string_append_c(out, '\n');
    g_array_free(rows, TRUE);
}

static void append_period_list(GString *out, const AliasCore *ac, AliasVerdict v, int skip)
{
    bool first = true;
    for (unsigned h = 0; h < ac->nperiods; h++)
        if (ac->periods[h].verdict == v && (int)h != skip) {
            g_string_append_printf(out, "%s%" PRIu32, first ? "" : ", ", ac->periods[h].period);
            first = false;
        }
}

static void recommendation(GString *out, const AliasCore *ac)
{
    unsigned naliased = 0, nok = 0;
    for (unsigned h = 0; h < ac->nperiods; h++) {
        naliased += ac->periods[h].verdict == ALIAS_ALIASED;
        nok += ac->periods[h].verdict == ALIAS_CONSISTENT;
    }
    g_string_append(out, "\nRecommendation: ");
    if (ac->recommended >= 0) {
        const AliasPeriod *best = &ac->periods[ac->recommended];
        g_string_append_printf(out, "trust period %" PRIu32 " (distance %.2f%% from the exact profile)",
                               best->period, 100.0 * best->tvd);
        if (nok > 1) {
            g_string_append(out, "; also consistent: ");
            append_period_list(out, ac, ALIAS_CONSISTENT, ac->recommended);
        }
        g_string_append(out, ".\n");
    } else {
        g_string_append(out,
            "no sampled profile agrees with the exact counts: read the exact profile (flat.txt),\n"
            "or rerun with --alias-check to add periods co-prime with the program's rhythm.\n");
    }
    if (!naliased)
        return;
    g_string_append(out, naliased > 1 ? "Do not trust periods " : "Do not trust period ");
    append_period_list(out, ac, ALIAS_ALIASED, -1);
    /* Explain with the shortest aliased period P: the others are near
     * multiples of it when the same rhythm of the work causes them. */
    uint32_t base = 0;
    for (unsigned h = 0; h < ac->nperiods; h++)
        if (ac->periods[h].verdict == ALIAS_ALIASED && (!base || ac->periods[h].period < base))
            base = ac->periods[h].period;
    g_string_append_printf(out,
        ": %s ticks keep landing at the same phase of work that repeats about every %" PRIu32
        " cycles\nor a divisor of that (a periodic timer, a polling loop)",
        naliased > 1 ? "their" : "its", base);
    for (unsigned h = 0; h < ac->nperiods; h++) {
        const AliasPeriod *ap = &ac->periods[h];
        if (ap->verdict != ALIAS_ALIASED || ap->period == base)
            continue;
        /* q = k * base + d drifts |d| cycles of the base rhythm per tick:
         * n ticks sweep n * |d| cycles of it, too few to average it out. */
        int64_t k = ((int64_t)ap->period + base / 2) / base;
        int64_t d = (int64_t)ap->period - k * (int64_t)base, ad = d < 0 ? -d : d;
        uint64_t swept = (uint64_t)ad * ap->samples;
        if (d == 0)
            g_string_append_printf(out, ";\n  %" PRIu32 " = %" PRId64 " x %" PRIu32
                                   " lands on the same phase every tick", ap->period, k, base);
        else if (swept < base)
            g_string_append_printf(out, ";\n  %" PRIu32 " = %" PRId64 " x %" PRIu32 " %c %" PRId64
                                   " drifts %" PRId64 " cycle%s per tick: its %" PRIu64
                                   " ticks sweep only %" PRIu64 " of those %" PRIu32 " cycles",
                                   ap->period, k, base, d < 0 ? '-' : '+', ad, ad,
                                   ad == 1 ? "" : "s", ap->samples, swept, base);
        else
            g_string_append_printf(out, ";\n  %" PRIu32 " resonates with another rhythm of the work",
                                   ap->period);
    }
    g_string_append(out, ".\n");
}

GString *aliasing_report(const AliasAnalysis *a)
{
    GString *out = g_string_new(NULL);
    g_string_append_printf(out,
        "Aliasing check: each sampled profile against the exact cycle counts\n"
        "\n"
        "A function's sampled share q = s/n (s of the core's n timer ticks) estimates its exact\n"
        "share p = self cycles / core cycles with standard error se = sqrt(p(1-p)/n); z = (q-p)/se.\n"
        "A function DEVIATES (!!) when its exact binomial tail probability is below %g/m\n"
        "(m = functions tested, Bonferroni) and it is off by at least %.0f percentage point.\n"
        "A period is ALIASED when a function deviates, or when the whole distribution does\n"
        "(chi-square p < %g and distance >= %.0f%%). Distance = 0.5 * sum |q - p| (share of\n"
        "samples that would have to move). band = the range of q that does not deviate.\n"
        "See docs/aliasing.md for how to read this report.\n",
        ALIASING_ALPHA, 100.0 * ALIASING_MIN_DEVIATION, ALIASING_ALPHA,
        100.0 * ALIASING_MIN_DISTANCE);
    for (unsigned c = 0; c < a->ncores; c++) {
        const AliasCore *ac = &a->cores[c];
        if (!ac->elf)
            continue;
        g_string_append_printf(out, "\n==== core %u (%s): %" PRIu64 " cycles, %u sampling period%s ====\n\n",
                               ac->id, basename_of(ac->elf), ac->cycles, ac->nperiods,
                               ac->nperiods == 1 ? "" : "s");
        for (unsigned h = 0; h < ac->nperiods; h++) {
            period_table(out, &ac->periods[h]);
            g_string_append_c(out, '\n');
        }
        if (ac->nperiods)
            cross_period(out, ac);
        recommendation(out, ac);
    }
    /* Chip-wide: which periods are safe on every core. */
    unsigned ncores = 0;
    for (unsigned c = 0; c < a->ncores; c++)
        ncores += a->cores[c].elf != NULL;
    if (ncores > 1 && a->cores[0].elf) {
        const AliasCore *c0 = &a->cores[0];
        g_string_append(out, "\n==== all cores ====\n");
        for (unsigned h = 0; h < c0->nperiods; h++) {
            uint32_t per = c0->periods[h].period;
            GString *bad = g_string_new(NULL);
            for (unsigned c = 0; c < a->ncores; c++)
                for (unsigned k = 0; k < a->cores[c].nperiods; k++)
                    if (a->cores[c].periods[k].period == per &&
                        a->cores[c].periods[k].verdict == ALIAS_ALIASED)
                        g_string_append_printf(bad, " %u", a->cores[c].id);
            g_string_append_printf(out, "period %9" PRIu32 ": %s%s\n", per,
                                   bad->len ? "ALIASED on core" : "consistent on every core",
                                   bad->str);
            g_string_free(bad, TRUE);
        }
    }
    return out;
}

/* ---- JSON --------------------------------------------------------------- */

static void json_str(GString *out, const char *s)
{
    g_string_append_c(out, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            g_string_append_printf(out, "\\%c", *p);
        else if (*p < 0x20)
            g_string_append_printf(out, "\\u%04x", *p);
        else
            g_string_append_c(out, (char)*p);
    }
    g_string_append_c(out, '"');
}

static void json_num(GString *out, double v)
{
    if (!isfinite(v)) {
        g_string_append(out, "null");
        return;
    }
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    g_string_append(out, g_ascii_formatd(buf, sizeof buf, "%.6g", v));
}

static void json_periods_with(GString *out, const AliasCore *ac, AliasVerdict v)
{
    bool first = true;
    g_string_append_c(out, '[');
    for (unsigned h = 0; h < ac->nperiods; h++)
        if (ac->periods[h].verdict == v) {
            g_string_append_printf(out, "%s%" PRIu32, first ? "" : ", ", ac->periods[h].period);
            first = false;
        }
    g_string_append_c(out, ']');
}

static void json_period(GString *out, const AliasPeriod *ap)
{
    g_string_append_printf(out, "{\"period\": %" PRIu32 ", \"samples\": %" PRIu64
                           ", \"verdict\": \"%s\", \"aliased\": %s, \"diffuse\": %s, \"tvd\": ",
                           ap->period, ap->samples, verdict_name(ap->verdict),
                           ap->verdict == ALIAS_ALIASED ? "true" : "false",
                           ap->diffuse ? "true" : "false");
    json_num(out, ap->tvd);
    g_string_append(out, ", \"chi2\": ");
    json_num(out, ap->chi2);
    g_string_append_printf(out, ", \"chi2_dof\": %u, \"chi2_p\": ", ap->chi2_dof);
    json_num(out, ap->chi2_p);
    g_string_append_printf(out, ", \"functions_tested\": %u, \"threshold\": ", ap->nfuncs);
    json_num(out, ap->threshold);
    g_string_append(out, ", \"z_crit\": ");
    json_num(out, ap->z_crit);
    g_string_append(out, ", \"deviating\": [");
    unsigned nd;
    const AliasFunc **dv = deviating(ap, &nd);
    for (unsigned j = 0; j < nd; j++) {
        g_string_append(out, j ? ", " : "");
        json_str(out, dv[j]->name);
    }
    g_free(dv);
    g_string_append(out, "],\n          \"functions\": [");
    for (unsigned i = 0; i < ap->nfuncs; i++) {
        const AliasFunc *f = &ap->funcs[i];
        g_string_append(out, i ? ",\n            {\"name\": " : "\n            {\"name\": ");
        json_str(out, f->name);
        const struct { const char *k; double v; } nums[] = {
            { "exact", f->exact }, { "sampled", f->sampled }, { "expected", f->expected },
            { "se", f->se }, { "z", f->z }, { "p_value", f->p_value },
        };
        g_string_append_printf(out, ", \"samples\": %" PRIu64 ", \"self_cycles\": %" PRIu64,
                               f->samples, f->self_cycles);
        for (unsigned k = 0; k < G_N_ELEMENTS(nums); k++) {
            g_string_append_printf(out, ", \"%s\": ", nums[k].k);
            json_num(out, nums[k].v);
        }
        g_string_append(out, ", \"band\": [");
        json_num(out, f->band_lo);
        g_string_append(out, ", ");
        json_num(out, f->band_hi);
        g_string_append_printf(out, "], \"deviates\": %s}", f->deviates ? "true" : "false");
    }
    g_string_append(out, "]}");
}

GString *aliasing_json(const AliasAnalysis *a)
{
    GString *out = g_string_new("{\"method\": \"exact binomial test per function (Bonferroni over "
                                "functions) and minimum deviation; chi-square for the whole\", "
                                "\"alpha\": ");
    json_num(out, ALIASING_ALPHA);
    g_string_append(out, ", \"min_deviation\": ");
    json_num(out, ALIASING_MIN_DEVIATION);
    g_string_append(out, ", \"min_distance\": ");
    json_num(out, ALIASING_MIN_DISTANCE);
    g_string_append_printf(out, ", \"any_aliased\": %s,\n  \"cores\": [",
                           aliasing_any_flagged(a) ? "true" : "false");
    bool firstc = true;
    for (unsigned c = 0; c < a->ncores; c++) {
        const AliasCore *ac = &a->cores[c];
        if (!ac->elf)
            continue;
        g_string_append_printf(out, "%s\n    {\"id\": %u, \"index\": %u, \"cycles\": %" PRIu64
                               ", \"recommended\": ", firstc ? "" : ",", ac->id, c, ac->cycles);
        firstc = false;
        if (ac->recommended >= 0)
            g_string_append_printf(out, "%" PRIu32, ac->periods[ac->recommended].period);
        else
            g_string_append(out, "null");
        g_string_append(out, ", \"trusted\": ");
        json_periods_with(out, ac, ALIAS_CONSISTENT);
        g_string_append(out, ", \"aliased\": ");
        json_periods_with(out, ac, ALIAS_ALIASED);
        g_string_append(out, ",\n      \"periods\": [");
        for (unsigned h = 0; h < ac->nperiods; h++) {
            g_string_append(out, h ? ",\n        " : "\n        ");
            json_period(out, &ac->periods[h]);
        }
        g_string_append(out, "]}");
    }
    g_string_append(out, "]}");
    return out;
}

/* ---- SVG ---------------------------------------------------------------- */

#define SVG_TOP_ROWS   8     /* functions by exact share */
#define SVG_MAX_ROWS   10    /* plus deviating ones */
#define SVG_NAME_W     120
#define SVG_BAR_W      170
#define SVG_PANEL_W    (SVG_NAME_W + SVG_BAR_W + 60)
#define SVG_ROW_H      22
#define SVG_COLS       4
#define SVG_MARGIN     16
#define SVG_EXACT      "#9e9e9e"
#define SVG_OK         "#3b75af"
#define SVG_BAD        "#c62828"

static void svg_text(GString *out, double x, double y, const char *attrs, const char *text)
{
    char *esc = g_markup_escape_text(text, -1);
    g_string_append_printf(out, "<text x=\"%.1f\" y=\"%.1f\" %s>%s</text>\n", x, y, attrs, esc);
    g_free(esc);
}

/* One panel: the rows' exact and sampled bars at scale xmax. */
static void svg_panel(GString *out, const AliasCore *ac, const AliasPeriod *ap, GArray *rows,
                      double xmax, double x0, double y0)
{
    char buf[160], attrs[64];
    const char *state = ap->verdict == ALIAS_ALIASED ? "ALIASED"
                        : ap->verdict == ALIAS_CONSISTENT ? "consistent" : "no samples";
    g_snprintf(buf, sizeof buf, "period %" PRIu32 ": %s (%" PRIu64 " samples)", ap->period, state,
               ap->samples);
    g_snprintf(attrs, sizeof attrs, "font-weight=\"bold\" fill=\"%s\"",
               ap->verdict == ALIAS_ALIASED ? SVG_BAD : "#2e7d32");
    svg_text(out, x0, y0 + 14, attrs, buf);
    double bx = x0 + SVG_NAME_W, by = y0 + 24, h = rows->len * SVG_ROW_H;
    for (int t = 0; t <= 4; t++) {
        double gx = bx + SVG_BAR_W * t / 4.0;
        g_string_append_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                               "stroke=\"#e0e0e0\"/>\n", gx, by, gx, by + h);
        g_snprintf(buf, sizeof buf, "%.0f%%", 100.0 * xmax * t / 4.0);
        svg_text(out, gx, by + h + 12, "text-anchor=\"middle\" font-size=\"9\" fill=\"#616161\"", buf);
    }
    for (unsigned r = 0; r < rows->len; r++) {
        unsigned func = g_array_index(rows, unsigned, r);
        const AliasFunc *f = period_func(ap, func);
        double ry = by + r * SVG_ROW_H;
        double p = 0.0, q = 0.0;
        const AliasPeriod *any = NULL;
        for (unsigned k = 0; k < ac->nperiods && !any; k++)
            if (period_func(&ac->periods[k], func))
                any = &ac->periods[k];
        if (any)
            p = period_func(any, func)->exact;
        if (f)
            q = f->sampled;
        char *name = g_strdup(func_name(ac, func));
        if (strlen(name) > 18)
            strcpy(name + 15, "...");
        svg_text(out, bx - 4, ry + 14, "text-anchor=\"end\"", name);
        g_free(name);
        double we = SVG_BAR_W * p / xmax, ws = SVG_BAR_W * q / xmax;
        g_string_append_printf(out, "<rect class=\"bar exact\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                               "height=\"8\" fill=\"" SVG_EXACT "\"/>\n", bx, ry + 2, we);
        g_string_append_printf(out, "<rect class=\"bar sampled\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                               "height=\"8\" fill=\"%s\"/>\n", bx, ry + 11, ws,
                               f && f->deviates ? SVG_BAD : SVG_OK);
        if (f && ap->verdict != ALIAS_NO_SAMPLES) {   /* the band as a whisker */
            double l = bx + SVG_BAR_W * f->band_lo / xmax, rr = bx + SVG_BAR_W * fmin(f->band_hi, xmax) / xmax;
            g_string_append_printf(out, "<path d=\"M%.1f %.1fv6M%.1f %.1fH%.1fM%.1f %.1fv6\" "
                                   "stroke=\"#212121\" stroke-width=\"1\" fill=\"none\"/>\n",
                                   l, ry + 12, l, ry + 15, rr, rr, ry + 12);
        }
        g_snprintf(buf, sizeof buf, "%.1f / %.1f", 100.0 * q, 100.0 * p);
        svg_text(out, bx + SVG_BAR_W + 4, ry + 14, "font-size=\"9\" fill=\"#424242\"", buf);
    }
}

GString *aliasing_svg(const AliasAnalysis *a)
{
    GString *body = g_string_new(NULL);
    double y = SVG_MARGIN, width = 2 * SVG_MARGIN + 3 * SVG_PANEL_W / 2.0;
    char buf[200];
    svg_text(body, SVG_MARGIN, y + 14, "font-size=\"15\" font-weight=\"bold\"",
             "nocprof aliasing check: sampled vs exact share of the top functions");
    y += 26;
    /* legend */
    const struct { const char *color, *label; } keys[] = {
        { SVG_EXACT, "exact share (cycles)" },
        { SVG_OK, "sampled share, consistent" },
        { SVG_BAD, "sampled share, deviates" },
    };
    double lx = SVG_MARGIN;
    for (unsigned k = 0; k < G_N_ELEMENTS(keys); k++) {
        g_string_append_printf(body, "<rect class=\"key\" x=\"%.1f\" y=\"%.1f\" width=\"12\" "
                               "height=\"10\" fill=\"%s\"/>\n", lx, y, keys[k].color);
        svg_text(body, lx + 16, y + 9, "", keys[k].label);
        lx += 190;
    }
    g_string_append_printf(body, "<path d=\"M%.1f %.1fv6M%.1f %.1fh24M%.1f %.1fv6\" stroke=\"#212121\" "
                           "fill=\"none\"/>\n", lx, y + 2, lx, y + 5, lx + 24, y + 2);
    svg_text(body, lx + 30, y + 9, "", "band: sampled share that would not deviate");
    width = fmax(width, lx + 320);
    y += 22;
    svg_text(body, SVG_MARGIN, y + 4, "font-size=\"10\" fill=\"#616161\"",
             "labels: sampled % / exact %");
    y += 14;

    for (unsigned c = 0; c < a->ncores; c++) {
        const AliasCore *ac = &a->cores[c];
        if (!ac->elf || !ac->nperiods)
            continue;
        GArray *rows = core_rows(ac, SVG_TOP_ROWS, SVG_MAX_ROWS);
        double xmax = 0.0;
        for (unsigned h = 0; h < ac->nperiods; h++)
            for (unsigned r = 0; r < rows->len; r++) {
                const AliasFunc *f = period_func(&ac->periods[h], g_array_index(rows, unsigned, r));
                if (f)
                    xmax = fmax(xmax, fmax(f->exact, f->sampled));
            }
        xmax = fmin(1.0, fmax(0.1, ceil(xmax * 10.0 - 1e-9) / 10.0));
        y += 12;
        g_snprintf(buf, sizeof buf, "core %u (%s)", ac->id, basename_of(ac->elf));
        svg_text(body, SVG_MARGIN, y + 14, "font-size=\"13\" font-weight=\"bold\"", buf);
        y += 22;
        double panel_h = 24 + rows->len * SVG_ROW_H + 22;
        unsigned cols = MIN(ac->nperiods, SVG_COLS);
        width = fmax(width, 2 * SVG_MARGIN + cols * SVG_PANEL_W);
        for (unsigned h = 0; h < ac->nperiods; h++) {
            unsigned col = h % SVG_COLS;
            if (h && col == 0)
                y += panel_h;
            svg_panel(body, ac, &ac->periods[h], rows, xmax, SVG_MARGIN + col * SVG_PANEL_W, y);
        }
        y += panel_h;
        g_array_free(rows, TRUE);
    }
    y += SVG_MARGIN;
    GString *out = g_string_new(NULL);
    g_string_append_printf(out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
        "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n"
        "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n",
        width, y, width, y, width, y);
    g_string_append_len(out, body->str, (gssize)body->len);
    g_string_append(out, "</svg>\n");
    g_string_free(body, TRUE);
    return out;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* aliasing_stats.c — the special functions of the aliasing statistics:
 * binomial tails (regularised incomplete beta), the chi-square upper tail
 * (regularised incomplete gamma) and the normal quantile. The continued
 * fractions of Numerical Recipes 6.2/6.4, evaluated with the modified Lentz
 * method. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "profiler/analysis/aliasing_private.h"

/* ---- special functions -------------------------------------------------- */

#define AL_TINY 1e-300
#define AL_EPS  1e-15
/* At most this many steps per continued fraction or series, whatever the
 * counts (a saved profile is untrusted input: a total of 2^64 - 1 samples
 * once asked for 20 * 2^32 steps). It is reached only with about 2.5e7
 * samples or more near the mean, where the normal approximation the
 * callers then fall back on is exact to far more digits than reported. */
#define AL_MAXIT 100000.0

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
    double maxit = fmin(AL_MAXIT, 200.0 + 20.0 * sqrt(fmax(a, b)));
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
            return h;
    }
    return NAN;                           /* did not converge */
}

/* Regularised incomplete beta I_x(a, b); y = 1 - x given separately so a
 * share close to 0 or 1 loses no precision. The branch that evaluates the
 * continued fraction directly is the one whose result is the small tail.
 * NAN when the continued fraction did not converge within AL_MAXIT. */
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

/* The binomial tails by the normal approximation with continuity
 * correction: what aliasing_binom_tail falls back on when the exact form
 * would take more than AL_MAXIT steps (n p (1 - p) of the order of 1e7 or
 * more). */
static double binom_normal(uint64_t n, double p, uint64_t k, bool upper)
{
    double mean = (double)n * p, sd = sqrt((double)n * p * (1.0 - p));
    double z = upper ? ((double)k - 0.5 - mean) / sd : (mean - (double)k - 0.5) / sd;
    return 0.5 * erfc(z / M_SQRT2);
}

static double binom_tail_exact(uint64_t n, double p, uint64_t k, bool upper);

/* Above this many samples the exact form loses its digits (lgamma of 2^40
 * is ~3e13, its rounding error ~4e-3; of 2^59, garbage: infinite "tails")
 * and the normal approximation is used: n p (1 - p) is then huge unless p
 * is below ~1e-7. 2^32 samples is a run of 4.3e9 cycles at period 1. */
#define AL_EXACT_MAX ((uint64_t)1 << 32)

double aliasing_binom_tail(uint64_t n, double p, uint64_t k, bool upper)
{
    if (n > AL_EXACT_MAX && p > 0.0 && p < 1.0 && (upper ? k > 0 && k <= n : k < n))
        return binom_normal(n, p, k, upper);
    double v = binom_tail_exact(n, p, k, upper);
    return isnan(v) ? binom_normal(n, p, k, upper) : v;
}

static double binom_tail_exact(uint64_t n, double p, uint64_t k, bool upper)
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
    double maxit = fmin(AL_MAXIT, 200.0 + 20.0 * sqrt(a + x));
    if (x < a + 1.0) {
        double ap = a, del = 1.0 / a, sum = del;
        for (double i = 0; i < maxit; i += 1.0) {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if (fabs(del) < fabs(sum) * AL_EPS)
                return fmax(0.0, 1.0 - exp(lpre + log(sum)));
        }
        return NAN;
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
            return exp(lpre + log(h));
    }
    return NAN;
}

double aliasing_chi2_q(double x, unsigned dof)
{
    if (dof == 0)
        return 1.0;
    double q = gammq(dof / 2.0, x / 2.0);
    if (!isnan(q))
        return q;
    /* not converged within AL_MAXIT (dof or x of the order of 1e7):
     * Wilson-Hilferty's normal approximation */
    double v = 2.0 / (9.0 * dof), z = (cbrt(x / dof) - (1.0 - v)) / sqrt(v);
    return 0.5 * erfc(z / M_SQRT2);
}

/* z with P(Z > z) = tail for a standard normal (bisection on erfc). */
double alias_normal_quantile(double tail)
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


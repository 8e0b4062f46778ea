/* aliasing_stats.c — the special functions of the aliasing statistics:
 * binomial tails (regularised incomplete beta), the chi-square upper tail
 * (regularised incomplete gamma) and the normal quantile. The continued
 * fractions of Numerical Recipes 6.2/6.4, evaluated with the modified Lentz
 * method. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "aliasing_private.h"

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


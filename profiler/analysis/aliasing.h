// SPDX-License-Identifier: GPL-2.0-or-later
/* aliasing.h — judge each sampled profile against the exact cycle counts.
 *
 * A timer-tick profile is a systematic sample: every P cycles the running
 * function is counted. When the program's work repeats with a period that P
 * is (close to) a multiple of, every tick lands at the same phase of the
 * work and a function that takes 10% of the time can show 0% or 100%
 * (aliasing). nocprof also knows each function's exact self cycles, so for
 * every core and every recorded period this module compares the two:
 *
 *   p   exact share   = self cycles of f / sum of self cycles on the core
 *                       (<idle>, <interrupt>, <unknown> included)
 *   q   sampled share = s / n, s = ticks that hit f, n = ticks on the core
 *   se  = sqrt(p(1-p)/n), the binomial standard error of q
 *   z   = (q - p) / max(se, 1/(2n))
 *
 * plus, per period, the total variation distance 0.5 * sum |q - p| and a
 * chi-square goodness-of-fit statistic with its p-value.
 *
 * Verdict of one period (thresholds below, justified in docs/aliasing.md):
 * a function DEVIATES when its exact two-sided binomial tail probability is
 * below ALIASING_ALPHA / m (Bonferroni over the m functions tested: those
 * with p > 0 or s > 0) AND |q - p| >= ALIASING_MIN_DEVIATION. The period is
 * ALIASED when a function deviates, or when the distribution as a whole is
 * off (chi-square p-value < ALIASING_ALPHA and distance >=
 * ALIASING_MIN_DISTANCE) although no single function is. Otherwise it is
 * consistent, and then every function's q lies inside its stated band
 * [band_lo, band_hi] (the binomial acceptance interval, widened to
 * p +- ALIASING_MIN_DEVIATION).
 *
 * The analysis copies what it needs: the profiles may be freed after
 * aliasing_analyse() returns. "core" arguments are indices into the array
 * given to aliasing_analyse (NULL entries are allowed and are skipped).
 */
#ifndef NOCPROF_ALIASING_H
#define NOCPROF_ALIASING_H

#include <glib.h>
#include "base/json.h"
#include <stdbool.h>
#include <stdint.h>

#include "profiler/model/profile.h"

/* Family-wise false-alarm rate of one (core, period) verdict under the
 * binomial model; grid sampling of non-periodic work is tighter still. */
#define ALIASING_ALPHA          1e-4
/* A deviation smaller than one percentage point is never called aliasing. */
#define ALIASING_MIN_DEVIATION  0.01
/* Distance needed for a whole-distribution (chi-square) verdict. */
#define ALIASING_MIN_DISTANCE   0.05

/* A consistent verdict is only given when the test could have seen aliasing
 * of this size: the widest acceptance band (the function whose share is
 * nearest 50%) must be within +- ALIASING_RESOLUTION of its exact share,
 * i.e. n >= z_crit^2 p(1-p) / ALIASING_RESOLUTION^2 samples (with too few
 * samples every band spans 0-100% and nothing can ever deviate). */
#define ALIASING_RESOLUTION     0.10

/* summary.json lists, per period, the deviating functions and the first
 * ALIASING_JSON_FUNCS by exact share (report.html charts the first 12):
 * every tested function of every period was ~210 bytes each, 137 MB of
 * JSON for 20,000 functions on 4 cores at 8 periods */
#define ALIASING_JSON_FUNCS     100u

typedef enum {
    ALIAS_CONSISTENT,   /* agrees with the exact profile within its band */
    ALIAS_ALIASED,      /* some function (or the whole) is significantly off */
    ALIAS_NO_SAMPLES,   /* n = 0: nothing to judge */
    ALIAS_INCONCLUSIVE  /* nothing is off, but too few samples to tell */
} AliasVerdict;

typedef struct AliasFunc {
    char *name;                /* owned copy */
    unsigned func;             /* index in the Profile's funcs */
    bool pseudo;
    uint64_t self_cycles, samples;
    double exact, sampled;     /* p and q, fractions */
    double expected;           /* n * p */
    double se, z;
    double p_value;            /* exact two-sided binomial tail */
    double band_lo, band_hi;   /* q outside this band => deviates */
    bool deviates;
} AliasFunc;

typedef struct AliasPeriod {
    uint32_t period;
    unsigned hist;             /* index in the Profile's hists */
    uint64_t samples;          /* n: sum of the functions' samples */
    unsigned nfuncs;           /* functions with p > 0 or s > 0 = m */
    AliasFunc *funcs;          /* by exact share, largest first */
    double threshold;          /* ALIASING_ALPHA / m */
    double z_crit;             /* |z| equivalent of threshold (normal) */
    double tvd;                /* 0.5 * sum |q - p| */
    double chi2, chi2_p;
    unsigned chi2_dof;
    AliasVerdict verdict;
    bool diffuse;              /* aliased by the chi-square rule only */
    uint64_t samples_needed;   /* for a verdict (ALIASING_RESOLUTION) */
    uint64_t period_needed;    /* the longest period giving that many on
                                  this core's cycles (0: none can) */
} AliasPeriod;

typedef struct AliasAnalysis AliasAnalysis;

/* Periods near `period` for --alias-check, written to out (at most max):
 * each co-prime with period, pairwise co-prime as far as possible, distinct,
 * never 0 or period. They are about 1.1%, 2.2%, 3.3%, ... of the period
 * away, alternating below and above: far enough that the ticks sweep the
 * whole of a program period P within ~100 ticks (a neighbour at P +- 1
 * drifts by one cycle per tick and stays aliased for P ticks), close enough
 * that the sampling density is the same. Returns how many were written. */
unsigned aliasing_neighbours(uint32_t period, uint32_t *out, unsigned max);

/* Analyse every core and period (cores[i]->nperiods periods each). */
AliasAnalysis *aliasing_analyse(const Profile *const *cores, unsigned ncores);
void aliasing_free(AliasAnalysis *a);

/* Verdict for core index c, period index h: true when aliased. False for
 * out-of-range indices and NULL cores. */
bool aliasing_flagged(const AliasAnalysis *a, unsigned core, unsigned hist);

/* Full result of one (core, period); NULL when out of range. */
const AliasPeriod *aliasing_period(const AliasAnalysis *a, unsigned core, unsigned hist);

/* Index of the period to trust on core c (consistent, smallest distance),
 * or -1 when none is. */
int aliasing_recommended(const AliasAnalysis *a, unsigned core);

/* Whether any (core, period) is aliased. */
bool aliasing_any_flagged(const AliasAnalysis *a);

GString *aliasing_report(const AliasAnalysis *a);   /* OUT/aliasing.txt */
/* summary.json "aliasing": one object value added to b (base/json.h) */
void aliasing_json(NpJson *b, const AliasAnalysis *a);
GString *aliasing_svg(const AliasAnalysis *a);      /* OUT/aliasing.svg */

/* Statistics, exposed for the tests.
 * P(X >= k) (upper) or P(X <= k) for X ~ Binomial(n, p). */
double aliasing_binom_tail(uint64_t n, double p, uint64_t k, bool upper);
/* Upper tail P(X >= x) of a chi-square with dof degrees of freedom. */
double aliasing_chi2_q(double x, unsigned dof);

#endif

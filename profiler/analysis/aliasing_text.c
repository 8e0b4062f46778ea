// SPDX-License-Identifier: GPL-2.0-or-later
/* aliasing_text.c — OUT/aliasing.txt. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "profiler/analysis/aliasing_private.h"

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
    if (ap->verdict == ALIAS_INCONCLUSIVE) {
        g_string_append_printf(out,
            "inconclusive — no function is off, but %" PRIu64 " samples cannot show aliasing of "
            "%.0f pp: a verdict needs >= %" PRIu64 " samples (period <= %" PRIu64 " cycles here)\n",
            ap->samples, 100.0 * ALIASING_RESOLUTION, ap->samples_needed, ap->period_needed);
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
        alias_append_pvalue(out, ap->chi2_p);
        g_string_append(out, ")\n");
        return;
    }
    unsigned nd;
    const AliasFunc **dv = alias_deviating(ap, &nd);
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
    alias_append_pvalue(out, ap->chi2_p);
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
        alias_append_pvalue(pv, f->p_value);
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
    GArray *rows = alias_core_rows(ac, 10, 16);
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
            const AliasFunc *f = alias_period_func(ap, func);
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
                               alias_func_name(ac, func));
        g_string_free(cells, TRUE);
    }
    g_string_append(out, "  verdict  ");
    for (unsigned h = 0; h < ac->nperiods; h++) {
        AliasVerdict v = ac->periods[h].verdict;
        g_string_append_printf(out, " %9s",
                               v == ALIAS_ALIASED ? "ALIASED" : v == ALIAS_CONSISTENT ? "ok"
                               : v == ALIAS_INCONCLUSIVE ? "?" : "-");
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
    unsigned naliased = 0, nok = 0, ninc = 0;
    uint64_t need = 0, need_period = 0;
    for (unsigned h = 0; h < ac->nperiods; h++) {
        const AliasPeriod *ap = &ac->periods[h];
        naliased += ap->verdict == ALIAS_ALIASED;
        nok += ap->verdict == ALIAS_CONSISTENT;
        if (ap->verdict == ALIAS_INCONCLUSIVE) {
            ninc++;
            if (ap->samples_needed > need) {
                need = ap->samples_needed;
                need_period = ap->period_needed;
            }
        }
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
    } else if (ninc) {
        g_string_append_printf(out,
            "inconclusive: too few samples to judge %s ",
            ninc > 1 ? "periods" : "period");
        append_period_list(out, ac, ALIAS_INCONCLUSIVE, -1);
        g_string_append_printf(out, ".\nA verdict needs >= %" PRIu64 " samples per period: rerun with "
                               "--sample-period %" PRIu64 " or less\n(or a longer run); until then "
                               "read the exact profile (flat.txt).\n", need, need_period);
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
                               ac->id, alias_basename(ac->elf), ac->cycles, ac->nperiods,
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
            GString *bad = g_string_new(NULL), *unsure = g_string_new(NULL);
            for (unsigned c = 0; c < a->ncores; c++)
                for (unsigned k = 0; k < a->cores[c].nperiods; k++)
                    if (a->cores[c].periods[k].period == per) {
                        AliasVerdict v = a->cores[c].periods[k].verdict;
                        if (v == ALIAS_ALIASED)
                            g_string_append_printf(bad, " %u", a->cores[c].id);
                        else if (v == ALIAS_INCONCLUSIVE || v == ALIAS_NO_SAMPLES)
                            g_string_append_printf(unsure, " %u", a->cores[c].id);
                    }
            if (bad->len)
                g_string_append_printf(out, "period %9" PRIu32 ": ALIASED on core%s\n", per, bad->str);
            else if (unsure->len)
                g_string_append_printf(out, "period %9" PRIu32 ": inconclusive (too few samples) on core%s\n",
                                       per, unsure->str);
            else
                g_string_append_printf(out, "period %9" PRIu32 ": consistent on every core\n", per);
            g_string_free(bad, TRUE);
            g_string_free(unsure, TRUE);
        }
    }
    return out;
}


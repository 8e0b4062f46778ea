// SPDX-License-Identifier: GPL-2.0-or-later
/* aliasing_json.c — the "aliasing" member of summary.json. */
#include <inttypes.h>

#include "profiler/analysis/aliasing_private.h"
#include "base/json.h"

static void json_periods_with(NpJson *b, const char *name, const AliasCore *ac, AliasVerdict v)
{
    npjson_member_array(b, name);
    for (unsigned h = 0; h < ac->nperiods; h++)
        if (ac->periods[h].verdict == v)
            npjson_u64(b, ac->periods[h].period);
    npjson_end_array(b);
}

static void json_func(NpJson *b, const AliasFunc *f)
{
    npjson_begin_object(b);
    npjson_member_string(b, "name", f->name);
    npjson_member_u64(b, "samples", f->samples);
    npjson_member_u64(b, "self_cycles", f->self_cycles);
    npjson_member_double(b, "exact", f->exact);
    npjson_member_double(b, "sampled", f->sampled);
    npjson_member_double(b, "expected", f->expected);
    npjson_member_double(b, "se", f->se);
    npjson_member_double(b, "z", f->z);
    npjson_member_double(b, "p_value", f->p_value);
    npjson_member_array(b, "band");
    npjson_double(b, f->band_lo);
    npjson_double(b, f->band_hi);
    npjson_end_array(b);
    npjson_member_bool(b, "deviates", f->deviates);
    npjson_end_object(b);
}

static void json_period(NpJson *b, const AliasPeriod *ap)
{
    npjson_begin_object(b);
    npjson_member_u64(b, "period", ap->period);
    npjson_member_u64(b, "samples", ap->samples);
    npjson_member_string(b, "verdict", alias_verdict_name(ap->verdict));
    npjson_member_bool(b, "aliased", ap->verdict == ALIAS_ALIASED);
    npjson_member_bool(b, "diffuse", ap->diffuse);
    npjson_member_double(b, "tvd", ap->tvd);
    npjson_member_double(b, "chi2", ap->chi2);
    npjson_member_u64(b, "samples_needed", ap->samples_needed);
    npjson_member_u64(b, "period_needed", ap->period_needed);
    npjson_member_u64(b, "chi2_dof", ap->chi2_dof);
    npjson_member_double(b, "chi2_p", ap->chi2_p);
    npjson_member_u64(b, "functions_tested", ap->nfuncs);
    npjson_member_double(b, "threshold", ap->threshold);
    npjson_member_double(b, "z_crit", ap->z_crit);
    npjson_member_array(b, "deviating");
    unsigned nd;
    const AliasFunc **dv = alias_deviating(ap, &nd);
    for (unsigned j = 0; j < nd; j++)
        npjson_string(b, dv[j]->name);
    g_free(dv);
    npjson_end_array(b);
    npjson_member_array(b, "functions");
    for (unsigned i = 0; i < ap->nfuncs; i++)   /* by exact share, largest first */
        if (i < ALIASING_JSON_FUNCS || ap->funcs[i].deviates)
            json_func(b, &ap->funcs[i]);
    npjson_end_array(b);
    npjson_end_object(b);
}

static void json_core(NpJson *b, const AliasCore *ac, unsigned index)
{
    npjson_begin_object(b);
    npjson_member_u64(b, "id", ac->id);
    npjson_member_u64(b, "index", index);
    npjson_member_u64(b, "cycles", ac->cycles);
    if (ac->recommended >= 0)
        npjson_member_u64(b, "recommended", ac->periods[ac->recommended].period);
    else
        npjson_member_null(b, "recommended");
    json_periods_with(b, "trusted", ac, ALIAS_CONSISTENT);
    json_periods_with(b, "aliased", ac, ALIAS_ALIASED);
    npjson_member_array(b, "periods");
    for (unsigned h = 0; h < ac->nperiods; h++)
        json_period(b, &ac->periods[h]);
    npjson_end_array(b);
    npjson_end_object(b);
}

void aliasing_json(NpJson *b, const AliasAnalysis *a)
{
    npjson_begin_object(b);
    npjson_member_string(b, "method", "exact binomial test per function (Bonferroni over "
                                      "functions) and minimum deviation; chi-square for the whole");
    npjson_member_double(b, "alpha", ALIASING_ALPHA);
    npjson_member_double(b, "min_deviation", ALIASING_MIN_DEVIATION);
    npjson_member_double(b, "min_distance", ALIASING_MIN_DISTANCE);
    npjson_member_bool(b, "any_aliased", aliasing_any_flagged(a));
    npjson_member_array(b, "cores");
    for (unsigned c = 0; c < a->ncores; c++)
        if (a->cores[c].elf)
            json_core(b, &a->cores[c], c);
    npjson_end_array(b);
    npjson_end_object(b);
}

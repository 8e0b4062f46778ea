/* aliasing_json.c — the "aliasing" member of summary.json. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "aliasing_private.h"

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
                           ap->period, ap->samples, alias_verdict_name(ap->verdict),
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
    const AliasFunc **dv = alias_deviating(ap, &nd);
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


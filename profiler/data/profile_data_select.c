// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_data_select.c — views of saved profile data for the reports:
 * a selection of its recorded sampling periods. */
#include "profiler/data/profile_data.h"

#include <string.h>

static void select_profile(Profile *p, const unsigned *idx, unsigned n)
{
    ProfHist *hists = g_new0(ProfHist, n ? n : 1);
    for (unsigned k = 0; k < n; k++) {
        hists[k] = p->hists[idx[k]];
        p->hists[idx[k]].bins = NULL;
        p->hists[idx[k]].ranges = NULL;
    }
    for (unsigned h = 0; h < p->nperiods; h++)
        prof_hist_clear(&p->hists[h]);
    g_free(p->hists);
    p->hists = hists;
    for (unsigned f = 0; f < p->nfuncs; f++) {
        uint64_t *s = g_new0(uint64_t, n ? n : 1);
        for (unsigned k = 0; k < n; k++)
            s[k] = p->funcs[f].samples[idx[k]];
        g_free(p->funcs[f].samples);
        p->funcs[f].samples = s;
    }
    p->nperiods = n;
}

bool profile_data_select_periods(ProfileData *d, const uint32_t *periods, unsigned n, GError **error)
{
    unsigned idx[CONFIG_MAX_PERIODS];
    if (n == 0 || n > CONFIG_MAX_PERIODS) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "select 1 .. %d sampling periods",
                    CONFIG_MAX_PERIODS);
        return false;
    }
    for (unsigned k = 0; k < n; k++) {
        unsigned h = 0;
        while (h < d->cfg.nperiods && d->cfg.periods[h] != periods[k])
            h++;
        bool repeated = false;
        for (unsigned j = 0; j < k; j++)
            repeated |= periods[j] == periods[k];
        if (h == d->cfg.nperiods || repeated) {
            GString *rec = g_string_new(NULL);
            for (unsigned j = 0; j < d->cfg.nperiods; j++)
                g_string_append_printf(rec, "%s%u", j ? ", " : "", d->cfg.periods[j]);
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "period %u %s (recorded: %s)", periods[k],
                        repeated ? "given twice" : "was not recorded", rec->str);
            g_string_free(rec, TRUE);
            return false;
        }
        idx[k] = h;
    }
    for (unsigned i = 0; i < d->ncores; i++)
        if (d->profs[i])
            select_profile(d->profs[i], idx, n);
    for (unsigned k = 0; k < n; k++)
        d->cfg.periods[k] = periods[k];
    d->cfg.nperiods = n;
    return true;
}

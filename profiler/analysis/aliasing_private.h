// SPDX-License-Identifier: GPL-2.0-or-later
/* aliasing_private.h — what the aliasing analysis (aliasing.c) shares with
 * its printers (aliasing_text.c, aliasing_json.c, aliasing_svg.c) and its
 * special functions (aliasing_stats.c). Not installed, not for other stages. */
#ifndef NOCPROF_ALIASING_PRIVATE_H
#define NOCPROF_ALIASING_PRIVATE_H

#include "profiler/analysis/aliasing.h"

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


/* z with P(Z > z) = tail for a standard normal. */
double alias_normal_quantile(double tail);

/* The entry of func in a period, or NULL. */
const AliasFunc *alias_period_func(const AliasPeriod *ap, unsigned func);
/* "consistent", "aliased", "no_samples". */
const char *alias_verdict_name(AliasVerdict v);
/* Deviating functions of a period, largest deviation first; *n set. Free
 * the array (not the entries) with g_free. */
const AliasFunc **alias_deviating(const AliasPeriod *ap, unsigned *n);
/* Functions shown for a core: the top `top` by exact share, then every
 * function that deviates somewhere, up to `cap` (Profile indices). */
GArray *alias_core_rows(const AliasCore *ac, unsigned top, unsigned cap);
/* Name of Profile function func on a core, "??" when unknown. */
const char *alias_func_name(const AliasCore *ac, unsigned func);
/* Last path component. */
const char *alias_basename(const char *path);
/* A p-value the way the reports print it. */
void alias_append_pvalue(GString *out, double pv);

#endif

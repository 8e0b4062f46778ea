// SPDX-License-Identifier: GPL-2.0-or-later
/* merge.c — chip-wide profile: per-core profiles summed by function
 * name (contract in profile.h). */
#include "profiler/model/profile.h"

#include <stdlib.h>
#include <string.h>

typedef struct ArcKey {
    unsigned caller, callee;
    uint32_t call_site;
} ArcKey;

static guint arc_hash(gconstpointer k)
{
    const ArcKey *a = k;
    return (a->caller * 2654435761u) ^ (a->callee * 40503u) ^ a->call_site;
}

static gboolean arc_equal(gconstpointer x, gconstpointer y)
{
    const ArcKey *a = x, *b = y;
    return a->caller == b->caller && a->callee == b->callee && a->call_site == b->call_site;
}

static int arc_cmp(const void *x, const void *y)
{
    const ProfArc *a = x, *b = y;
    if (a->callee != b->callee)
        return a->callee < b->callee ? -1 : 1;
    if (a->caller != b->caller)
        return a->caller < b->caller ? -1 : 1;
    return a->call_site < b->call_site ? -1 : a->call_site > b->call_site;
}

/* ELF list for the title: distinct paths in core order. */
static char *merged_paths(const Profile *const *cores, unsigned n)
{
    GString *paths = g_string_new(NULL);
    for (unsigned c = 0; c < n; c++) {
        const char *e = cores[c]->elf_path ? cores[c]->elf_path : "?";
        bool seen = false;
        for (unsigned d = 0; d < c; d++)
            seen |= g_strcmp0(cores[d]->elf_path, cores[c]->elf_path) == 0;
        if (!seen)
            g_string_append_printf(paths, "%s%s", paths->len ? ", " : "", e);
    }
    return g_string_free(paths, FALSE);
}

/* Function table: real functions by first appearance (byname: name ->
 * merged index), pseudo-functions last. */
static void merged_funcs(Profile *m, const Profile *const *cores, unsigned n, GHashTable *byname)
{
    GArray *funcs = g_array_new(FALSE, TRUE, sizeof(ProfFunc));
    for (unsigned c = 0; c < n; c++) {
        const Profile *p = cores[c];
        for (unsigned i = 0; i < p->nfuncs; i++) {
            const ProfFunc *f = &p->funcs[i];
            if (f->pseudo || f->hidden || g_hash_table_contains(byname, f->name))
                continue;   /* hidden (--focus, --exclude) on every core: left out */
            ProfFunc x = { .name = f->name, .addr = f->addr, .size = f->size };
            g_hash_table_insert(byname, (gpointer)f->name, GUINT_TO_POINTER(funcs->len));
            g_array_append_val(funcs, x);
        }
    }
    static const char *const pseudo[PROF_NPSEUDO] = { "<idle>", "<interrupt>", "<unknown>" };
    for (unsigned k = 0; k < PROF_NPSEUDO; k++) {
        ProfFunc x = { .name = pseudo[k], .pseudo = true };
        g_array_append_val(funcs, x);
    }
    m->nfuncs = funcs->len;
    m->funcs = (ProfFunc *)g_array_free(funcs, FALSE);
    for (unsigned i = 0; i < m->nfuncs; i++)
        m->funcs[i].samples = g_new0(uint64_t, MAX(m->nperiods, 1u));
}

/* Add core p's functions and histogram totals into m; map[i] = merged
 * index of p's function i. */
static void merge_core_funcs(Profile *m, const Profile *p, GHashTable *byname, unsigned *map)
{
    for (unsigned i = 0; i < p->nfuncs; i++) {
        const ProfFunc *f = &p->funcs[i];
        if (f->pseudo) {
            unsigned k = i >= p->nfuncs - PROF_NPSEUDO ? i - (p->nfuncs - PROF_NPSEUDO)
                                                       : PROF_UNKNOWN;
            map[i] = profile_pseudo(m, (ProfPseudo)k);
        } else {
            gpointer v;
            map[i] = g_hash_table_lookup_extended(byname, f->name, NULL, &v) ? GPOINTER_TO_UINT(v)
                                                                             : profile_pseudo(m, PROF_UNKNOWN);
        }
        if (f->hidden)
            continue;   /* a filtered core's hidden function adds nothing (its arcs are gone) */
        ProfFunc *t = &m->funcs[map[i]];
        t->calls += f->calls;
        t->recursive_calls += f->recursive_calls;
        t->self_cycles += f->self_cycles;
        t->inclusive_cycles += f->inclusive_cycles;
        t->instructions += f->instructions;
        for (unsigned e = 0; e < PROF_NEVENTS; e++)
            t->events[e] += f->events[e];
        for (unsigned k = 0; k < m->nperiods; k++)
            for (unsigned q = 0; q < p->nperiods; q++)
                if (p->hists[q].period == m->hists[k].period && f->samples)
                    t->samples[k] += f->samples[q];
    }
    for (unsigned k = 0; k < m->nperiods; k++)
        for (unsigned q = 0; q < p->nperiods; q++)
            if (p->hists[q].period == m->hists[k].period) {
                m->hists[k].idle += p->hists[q].idle;
                m->hists[k].outside += p->hists[q].outside;
                m->hists[k].total += p->hists[q].total;
            }
}

/* Add core p's arcs (function indices through map) into arcv. */
static void merge_core_arcs(const Profile *p, const unsigned *map, GHashTable *arcs, GArray *arcv)
{
    for (unsigned i = 0; i < p->narcs; i++) {
        const ProfArc *a = &p->arcs[i];
        if (a->caller >= p->nfuncs || a->callee >= p->nfuncs)
            continue;
        ArcKey key = { map[a->caller], map[a->callee], a->call_site };
        gpointer slot;
        if (g_hash_table_lookup_extended(arcs, &key, NULL, &slot)) {
            ProfArc *t = &g_array_index(arcv, ProfArc, GPOINTER_TO_UINT(slot));
            t->count += a->count;
            t->inclusive_cycles += a->inclusive_cycles;
        } else {
            ProfArc t = { key.caller, key.callee, key.call_site, a->count,
                          a->inclusive_cycles };
            g_hash_table_insert(arcs, g_memdup2(&key, sizeof key),
                                GUINT_TO_POINTER(arcv->len));
            g_array_append_val(arcv, t);
        }
    }
}

Profile *profile_merge(const Profile *const *cores, unsigned n)
{
    g_return_val_if_fail(n > 0 && cores && cores[0], NULL);
    const Profile *c0 = cores[0];
    Profile *m = g_new0(Profile, 1);
    m->core = G_MAXUINT;
    m->syms = c0->syms;
    m->clock_hz = c0->clock_hz;
    m->nperiods = c0->nperiods;
    m->hists = g_new0(ProfHist, MAX(m->nperiods, 1u));
    for (unsigned k = 0; k < m->nperiods; k++)
        m->hists[k].period = c0->hists[k].period;
    m->elf_path = merged_paths(cores, n);
    m->filter = g_strdup(c0->filter);   /* --focus/--exclude: the same on every core */
    GHashTable *byname = g_hash_table_new(g_str_hash, g_str_equal);
    merged_funcs(m, cores, n, byname);

    GHashTable *arcs = g_hash_table_new_full(arc_hash, arc_equal, g_free, NULL);
    GArray *arcv = g_array_new(FALSE, FALSE, sizeof(ProfArc));
    for (unsigned c = 0; c < n; c++) {
        const Profile *p = cores[c];
        m->cycles += p->cycles;
        m->instructions += p->instructions;
        m->idle_cycles += p->idle_cycles;
        m->irq_cycles += p->irq_cycles;
        m->busy_cycles += p->busy_cycles;
        unsigned *map = g_new(unsigned, MAX(p->nfuncs, 1u));
        merge_core_funcs(m, p, byname, map);
        merge_core_arcs(p, map, arcs, arcv);
        g_free(map);
    }
    g_array_sort(arcv, arc_cmp);
    m->narcs = arcv->len;
    m->arcs = (ProfArc *)g_array_free(arcv, FALSE);
    g_hash_table_unref(arcs);
    g_hash_table_unref(byname);
    return m;
}

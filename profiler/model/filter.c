/* filter.c — gprof's -f/-F and -e/-E on a Profile (see profile.h). */
#include "profile.h"

#include <string.h>

/* Deep copy (names and symbols stay borrowed). */
static Profile *profile_copy(const Profile *p)
{
    Profile *q = g_memdup2(p, sizeof *p);
    q->elf_path = g_strdup(p->elf_path);
    q->collection = g_strdup(p->collection);
    q->filter = g_strdup(p->filter);
    q->funcs = g_memdup2(p->funcs, sizeof *p->funcs * (p->nfuncs ? p->nfuncs : 1));
    for (unsigned i = 0; i < p->nfuncs; i++)
        q->funcs[i].samples = g_memdup2(p->funcs[i].samples, sizeof(uint64_t) * (p->nperiods ? p->nperiods : 1));
    q->arcs = g_memdup2(p->arcs, sizeof *p->arcs * (p->narcs ? p->narcs : 1));
    q->blocks = g_memdup2(p->blocks, sizeof *p->blocks * (p->nblocks ? p->nblocks : 1));
    q->ctxs = g_memdup2(p->ctxs, sizeof *p->ctxs * (p->nctxs ? p->nctxs : 1));
    q->events = g_memdup2(p->events, sizeof *p->events * (p->nevents ? p->nevents : 1));
    q->hists = g_memdup2(p->hists, sizeof *p->hists * (p->nperiods ? p->nperiods : 1));
    for (unsigned h = 0; h < p->nperiods; h++)
        prof_hist_copy(&q->hists[h], &p->hists[h]);
    return q;
}

static int find_func(const Profile *p, const char *name)
{
    for (unsigned i = 0; i < p->nfuncs; i++)
        if (!p->funcs[i].pseudo && strcmp(p->funcs[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* Remove a function's time from the totals: self cycles, samples and its
 * histogram bins (gprof -E, -F). */
static void drop_time(Profile *q, unsigned f)
{
    ProfFunc *x = &q->funcs[f];
    for (unsigned h = 0; h < q->nperiods; h++) {
        ProfHist *hs = &q->hists[h];
        uint64_t removed = 0;
        for (uint32_t a = x->addr; hs->bins && a < x->addr + x->size; a += 4) {
            int64_t k = prof_hist_index(hs, a);
            if (k >= 0) {
                removed += hs->bins[k];
                hs->bins[k] = 0;
            }
        }
        uint64_t s = x->pseudo ? x->samples[h] : removed;
        hs->total -= MIN(hs->total, s);
        if (f == profile_pseudo(q, PROF_IDLE))
            hs->idle = 0;
        else if (f == profile_pseudo(q, PROF_UNKNOWN))
            hs->outside = 0;
        x->samples[h] = 0;
    }
    x->self_cycles = 0;
    x->inclusive_cycles = 0;
    x->instructions = 0;
}

/* Drop the arcs touching hidden functions and the blocks of hidden ones. */
static void prune(Profile *q)
{
    unsigned na = 0, nb = 0;
    for (unsigned i = 0; i < q->narcs; i++)
        if (!q->funcs[q->arcs[i].caller].hidden && !q->funcs[q->arcs[i].callee].hidden)
            q->arcs[na++] = q->arcs[i];
    q->narcs = na;
    for (unsigned i = 0; i < q->nblocks; i++)
        if (!q->funcs[q->blocks[i].func].hidden)
            q->blocks[nb++] = q->blocks[i];
    q->nblocks = nb;
}

/* Functions reachable from the focus functions by arcs. */
static bool *reachable(const Profile *p, const int *roots, unsigned nroots)
{
    bool *seen = g_new0(bool, p->nfuncs ? p->nfuncs : 1);
    GArray *todo = g_array_new(FALSE, FALSE, sizeof(unsigned));
    for (unsigned r = 0; r < nroots; r++) {
        seen[roots[r]] = true;
        g_array_append_val(todo, roots[r]);
    }
    while (todo->len) {
        unsigned f = g_array_index(todo, unsigned, todo->len - 1);
        g_array_set_size(todo, todo->len - 1);
        for (unsigned i = 0; i < p->narcs; i++)
            if (p->arcs[i].caller == f && !seen[p->arcs[i].callee]) {
                seen[p->arcs[i].callee] = true;
                g_array_append_val(todo, p->arcs[i].callee);
            }
    }
    g_array_free(todo, TRUE);
    return seen;
}

Profile *profile_filter(const Profile *p, char **focus, char **exclude, GError **error)
{
    unsigned nf = focus ? g_strv_length(focus) : 0;
    g_autofree int *roots = g_new(int, nf ? nf : 1);
    for (unsigned i = 0; i < nf; i++)
        if ((roots[i] = find_func(p, focus[i])) < 0) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--focus %s: no such function", focus[i]);
            return NULL;
        }
    Profile *q = profile_copy(p);
    GString *note = g_string_new(NULL);
    if (nf) {
        g_autofree bool *keep = reachable(p, roots, nf);
        for (unsigned f = 0; f < q->nfuncs; f++)
            if (!keep[f]) {
                drop_time(q, f);
                q->funcs[f].hidden = true;
            }
        g_autofree char *names = g_strjoinv(", ", focus);
        g_string_append_printf(note, "focus on %s and what %s calls (gprof -F: only their time counts)", names,
                               nf > 1 ? "they" : "it");
    }
    for (char **e = exclude; e && *e; e++) {
        const char *slash = strrchr(*e, '/');
        bool drop = slash && strcmp(slash, "/time") == 0;
        g_autofree char *name = drop ? g_strndup(*e, (gsize)(slash - *e)) : g_strdup(*e);
        int f = find_func(p, name);
        if (f < 0) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--exclude %s: no such function", name);
            g_string_free(note, TRUE);
            profile_free(q);
            return NULL;
        }
        if (drop)
            drop_time(q, (unsigned)f);
        q->funcs[f].hidden = true;
        g_string_append_printf(note, "%s%s excluded (%s)", note->len ? "; " : "", name,
                               drop ? "gprof -E: its time removed from the totals"
                                    : "gprof -e: its time stays in the totals");
    }
    prune(q);
    g_free(q->filter);
    q->filter = note->len ? g_string_free(note, FALSE) : (g_string_free(note, TRUE), NULL);
    return q;
}

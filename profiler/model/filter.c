// SPDX-License-Identifier: GPL-2.0-or-later
/* filter.c — gprof's -f/-F and -e/-E on a Profile (see profile.h). */
#include "profiler/model/profile.h"

#include <string.h>

#include "profiler/model/fname.h"

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
    for (unsigned i = 0; i < p->nblocks; i++) {
        q->blocks[i].icycles = g_memdup2(p->blocks[i].icycles, sizeof(uint64_t) * p->blocks[i].ninsns);
        q->blocks[i].cut = g_memdup2(p->blocks[i].cut, sizeof(uint64_t) * p->blocks[i].ninsns);
    }
    q->misses = g_memdup2(p->misses, sizeof *p->misses * (p->nmisses ? p->nmisses : 1));
    q->stalls = g_memdup2(p->stalls, sizeof *p->stalls * (p->nstalls ? p->nstalls : 1));
    q->ctxs = g_memdup2(p->ctxs, sizeof *p->ctxs * (p->nctxs ? p->nctxs : 1));
    q->events = g_memdup2(p->events, sizeof *p->events * (p->nevents ? p->nevents : 1));
    q->hists = g_memdup2(p->hists, sizeof *p->hists * (p->nperiods ? p->nperiods : 1));
    for (unsigned h = 0; h < p->nperiods; h++)
        prof_hist_copy(&q->hists[h], &p->hists[h]);
    return q;
}

/* The functions `name` means (itself and its GCC clones: fname.h) into
 * out; a note on the clones matched is appended to note. Error
 * (NOCPROF_ERROR_USAGE) naming the option, with close names, when none. */
static bool find_funcs(const Profile *p, const char *opt, const char *name, GArray *out, GString *note,
                       GError **error)
{
    guint before = out->len;
    GString *clones = g_string_new(NULL);
    for (unsigned i = 0; i < p->nfuncs; i++) {
        bool clone;
        if (!p->funcs[i].pseudo && fname_match(p->funcs[i].name, name, &clone)) {
            g_array_append_val(out, i);
            if (clone)
                g_string_append_printf(clones, "%s%s", clones->len ? ", " : "", p->funcs[i].name);
        }
    }
    if (clones->len)
        g_string_append_printf(note, "%s--%s %s matched its GCC clone%s %s", note->len ? "; " : "", opt, name,
                               strchr(clones->str, ',') ? "s" : "", clones->str);
    g_string_free(clones, TRUE);
    if (out->len > before)
        return true;
    g_autofree const char **names = g_new(const char *, p->nfuncs + 1);
    for (unsigned i = 0; i < p->nfuncs; i++)
        names[i] = p->funcs[i].pseudo ? NULL : p->funcs[i].name;
    g_autofree char *hint = fname_suggest(name, names, p->nfuncs);
    g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--%s %s: no such function%s", opt, name, hint);
    return false;
}

/* With --focus, the totals are those of what is kept (gprof -F): a core
 * that never ran the focus functions has 0 cycles, not its whole run. */
static void focus_totals(Profile *q)
{
    uint64_t cycles = 0, insns = 0;
    for (unsigned f = 0; f < q->nfuncs; f++)
        if (!q->funcs[f].hidden) {
            cycles += q->funcs[f].self_cycles;
            insns += q->funcs[f].instructions;
        }
    const ProfFunc *idle = &q->funcs[profile_pseudo(q, PROF_IDLE)];
    const ProfFunc *irq = &q->funcs[profile_pseudo(q, PROF_INTERRUPT)];
    q->cycles = cycles;
    q->instructions = insns;
    q->idle_cycles = idle->hidden ? 0 : idle->self_cycles;
    q->irq_cycles = irq->hidden ? 0 : irq->self_cycles;
    q->busy_cycles = cycles - MIN(cycles, q->idle_cycles + q->irq_cycles);
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
        else {
            g_free(q->blocks[i].icycles);
            g_free(q->blocks[i].cut);
        }
    q->nblocks = nb;
    size_t ns = 0;   /* and their instructions' stalls */
    for (size_t i = 0; i < q->nstalls; i++) {
        int f = q->syms ? symbols_lookup(q->syms, q->stalls[i].pc) : -1;
        if (f < 0 || !q->funcs[f].hidden)
            q->stalls[ns++] = q->stalls[i];
    }
    q->nstalls = ns;
}

/* Functions reachable from the focus functions by arcs. */
static bool *reachable(const Profile *p, const unsigned *roots, unsigned nroots)
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

/* gprof -F: everything not reachable from the focus functions hidden,
 * its time removed. */
static void apply_focus(Profile *q, const GArray *roots, char **focus, GString *note)
{
    g_autofree bool *keep = reachable(q, (const unsigned *)(const void *)roots->data, roots->len);
    for (unsigned f = 0; f < q->nfuncs; f++)
        if (!keep[f]) {
            drop_time(q, f);
            q->funcs[f].hidden = true;
        }
    g_autofree char *names = g_strjoinv(", ", focus);
    g_string_append_printf(note, "%sfocus on %s and what %s calls (gprof -F: only their time counts)",
                           note->len ? "; " : "", names, g_strv_length(focus) > 1 ? "they" : "it");
}

Profile *profile_filter(const Profile *p, char **focus, char **exclude, GError **error)
{
    g_autoptr(GArray) roots = g_array_new(FALSE, FALSE, sizeof(unsigned));
    g_autoptr(GString) clones = g_string_new(NULL);
    for (char **f = focus; f && *f; f++)
        if (!find_funcs(p, "focus", *f, roots, clones, error))
            return NULL;
    Profile *q = profile_copy(p);
    GString *note = g_string_new(NULL);
    if (focus && *focus)
        apply_focus(q, roots, focus, note);
    for (char **e = exclude; e && *e; e++) {
        const char *slash = strrchr(*e, '/');
        bool drop = slash && strcmp(slash, "/time") == 0;
        g_autofree char *name = drop ? g_strndup(*e, (gsize)(slash - *e)) : g_strdup(*e);
        g_autoptr(GArray) fs = g_array_new(FALSE, FALSE, sizeof(unsigned));
        if (!find_funcs(p, "exclude", name, fs, clones, error)) {
            g_string_free(note, TRUE);
            profile_free(q);
            return NULL;
        }
        for (guint k = 0; k < fs->len; k++) {
            unsigned f = g_array_index(fs, unsigned, k);
            if (drop)
                drop_time(q, f);
            q->funcs[f].hidden = true;
        }
        g_string_append_printf(note, "%s%s excluded (%s)", note->len ? "; " : "", name,
                               drop ? "gprof -E: its time removed from the totals"
                                    : "gprof -e: its time stays in the totals");
    }
    if (clones->len)
        g_string_append_printf(note, "%s%s", note->len ? "; " : "", clones->str);
    if (focus && *focus)
        focus_totals(q);
    prune(q);
    g_free(q->filter);
    q->filter = note->len ? g_string_free(note, FALSE) : (g_string_free(note, TRUE), NULL);
    return q;
}

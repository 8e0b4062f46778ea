// SPDX-License-Identifier: GPL-2.0-or-later
/* report_util.c — helpers shared by the printers. */
#include "profiler/report/report_util.h"

#include "base/name.h"

#include <inttypes.h>

double report_seconds(const Profile *p, uint64_t cycles)
{
    return p->clock_hz > 0 ? (double)cycles / p->clock_hz : 0.0;
}

uint64_t report_total_cycles(const Profile *p)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < p->nfuncs; i++)
        t += p->funcs[i].self_cycles;
    return t ? t : p->cycles;
}

uint64_t report_total_samples(const Profile *p, unsigned k)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < p->nfuncs; i++)
        t += p->funcs[i].samples ? p->funcs[i].samples[k] : 0;
    return t ? t : p->hists[k].total;
}

char *report_ran_nothing(const Profile *p)
{
    if (p->instructions || p->filter)   /* --focus/--exclude: the tables say what the filter kept */
        return NULL;
    return g_strdup_printf("Nothing ran: 0 instructions in %" PRIu64 " cycles (idle %" PRIu64 ", interrupt %"
                           PRIu64 "): no table to show.\n", p->cycles, p->idle_cycles, p->irq_cycles);
}

char *report_title(const Profile *p)
{
    g_autofree char *elf = name_escaped(p->elf_path ? p->elf_path : "?", NAME_ESC_TEXT);
    if (p->core == G_MAXUINT)
        return g_strdup_printf("chip (all cores): %s", elf);
    return g_strdup_printf("core %u: %s", p->core, elf);
}

bool report_func_active(const Profile *p, unsigned f)
{
    const ProfFunc *x = &p->funcs[f];
    if (x->hidden)
        return false;
    if (x->calls || x->self_cycles || x->inclusive_cycles)
        return true;
    for (unsigned k = 0; k < p->nperiods; k++)
        if (x->samples && x->samples[k])
            return true;
    return false;
}

static int func_addr_cmp(const void *a, const void *b, void *data)
{
    const Profile *p = data;
    uint32_t x = p->funcs[*(const unsigned *)a].addr, y = p->funcs[*(const unsigned *)b].addr;
    return x < y ? -1 : x > y;
}

bool *report_funcs_ran(const Profile *p)
{
    bool *ran = g_new0(bool, p->nfuncs ? p->nfuncs : 1);
    g_autoptr(GArray) ix = g_array_new(FALSE, FALSE, sizeof(unsigned));
    for (unsigned i = 0; i < p->nfuncs; i++)
        if (!p->funcs[i].pseudo && p->funcs[i].size)
            g_array_append_val(ix, i);
    g_qsort_with_data(ix->data, (gint)ix->len, sizeof(unsigned), func_addr_cmp, (void *)p);
    const unsigned *f = (const unsigned *)(void *)ix->data;
    for (unsigned i = 0; i < p->nblocks; i++) {
        const ProfBlock *b = &p->blocks[i];
        if (!b->count)
            continue;
        if (b->func < p->nfuncs && prof_block_insn_runs(b, 0))
            ran[b->func] = true;
        /* functions the block ran into (a label reached by falling
         * through, hand-written assembly's): the first after its start */
        unsigned lo = 0, hi = ix->len;
        while (lo < hi) {
            unsigned mid = lo + (hi - lo) / 2;
            if (p->funcs[f[mid]].addr <= b->addr)
                lo = mid + 1;
            else
                hi = mid;
        }
        uint64_t end = (uint64_t)b->addr + 4 * (uint64_t)b->ninsns;
        for (unsigned k = lo; k < ix->len && p->funcs[f[k]].addr < end; k++)
            if (prof_block_insn_runs(b, (p->funcs[f[k]].addr - b->addr) / 4))
                ran[f[k]] = true;
    }
    return ran;
}

EvCols report_event_columns(const Profile *p, bool events)
{
    EvCols c = { 0 };
    bool cache = events && prof_events_cache(p);
    for (unsigned e = 0; events && e < PEV_COUNT; e++)
        if (!prof_events[e].cache || cache)
            c.e[c.n++] = (ProfEv)e;
    return c;
}

void report_event_header(GString *o, const EvCols *c)
{
    for (unsigned k = 0; k < c->n; k++)
        g_string_append_printf(o, " %9s", prof_events[c->e[k]].column);
}

void report_event_cells(GString *o, const EvCols *c, const uint64_t *v)
{
    for (unsigned k = 0; k < c->n; k++) {
        if (v)
            g_string_append_printf(o, " %9" PRIu64, v[c->e[k]]);
        else
            g_string_append_printf(o, " %9s", "");
    }
}

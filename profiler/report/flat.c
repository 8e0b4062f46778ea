// SPDX-License-Identifier: GPL-2.0-or-later
/* report_flat.c — gprof -p style flat profile, exact then sampled.
 *
 * The exact table ranks functions by self cycles (the emulator's count);
 * seconds are cycles / clock_hz. Then, for each sampling period, the table
 * gprof would print from that period's timer ticks (seconds = samples x
 * period / clock_hz), side by side with the exact share of each function so
 * the sampling error is visible. gprof's rule of thumb for that error: a
 * count of n samples is off by about sqrt(n), i.e. 1/sqrt(n) relative.
 */
#include "profiler/model/events.h"
#include "profiler/report/report.h"
#include "profiler/report/report_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct FlatCtx {
    const Profile *p;
    int period;   /* -1: sort by exact cycles; else by samples of period */
} FlatCtx;

static int flat_cmp(const void *a, const void *b, void *data)
{
    const FlatCtx *c = data;
    const ProfFunc *x = &c->p->funcs[*(const unsigned *)a];
    const ProfFunc *y = &c->p->funcs[*(const unsigned *)b];
    if (c->period >= 0 && x->samples[c->period] != y->samples[c->period])
        return x->samples[c->period] > y->samples[c->period] ? -1 : 1;
    if (x->self_cycles != y->self_cycles)
        return x->self_cycles > y->self_cycles ? -1 : 1;
    if (x->calls != y->calls)
        return x->calls > y->calls ? -1 : 1;
    return strcmp(x->name, y->name);
}

static unsigned *flat_order(const Profile *p, int period, unsigned *n)
{
    unsigned *idx = g_new(unsigned, p->nfuncs ? p->nfuncs : 1);
    *n = 0;
    for (unsigned i = 0; i < p->nfuncs; i++)
        if (report_func_active(p, i))
            idx[(*n)++] = i;
    FlatCtx c = { p, period };
    g_qsort_with_data(idx, (gint)*n, sizeof *idx, flat_cmp, &c);
    return idx;
}

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* --events: the event table's columns (misses only when some function
 * has one), each header right-aligned over its counts. */
static bool event_shown(unsigned e, bool cache)
{
    return !prof_events[e].cache || cache;
}

static void event_header(GString *out, bool events, bool cache)
{
    for (unsigned e = 0; events && e < PEV_COUNT; e++)
        if (event_shown(e, cache))
            g_string_append_printf(out, " %10s", prof_events[e].column);
}

static void event_cells(GString *out, const ProfFunc *f, bool events, bool cache)
{
    for (unsigned e = 0; events && e < PEV_COUNT; e++)
        if (event_shown(e, cache))
            g_string_append_printf(out, " %10" PRIu64, prof_event(f, (ProfEv)e));
}

static void print_exact(GString *out, const Profile *p, bool events)
{
    uint64_t total = report_total_cycles(p);
    g_string_append_printf(out,
        "Exact profile: %" PRIu64 " cycles counted by the emulator = %.9f seconds at %.0f Hz\n"
        "(busy %" PRIu64 ", idle %" PRIu64 ", interrupt %" PRIu64 " cycles; %" PRIu64
        " instructions).\n\n",
        total, report_seconds(p, total), p->clock_hz, p->busy_cycles, p->idle_cycles,
        p->irq_cycles, p->instructions);
    g_string_append(out, "  %        cumulative                   self                     self        total\n"
                         " time     cycles       seconds       cycles       seconds     calls  cyc/call    cyc/call");
    bool cache = events && prof_events_cache(p);   /* once: it scans every function */
    event_header(out, events, cache);
    g_string_append(out, "  name\n");
    unsigned n;
    unsigned *idx = flat_order(p, -1, &n);
    uint64_t cum = 0;
    for (unsigned j = 0; j < n; j++) {
        const ProfFunc *f = &p->funcs[idx[j]];
        cum += f->self_cycles;
        g_string_append_printf(out, "%6.2f %10" PRIu64 " %13.9f %12" PRIu64 " %13.9f ",
                               pct(f->self_cycles, total), cum, report_seconds(p, cum),
                               f->self_cycles, report_seconds(p, f->self_cycles));
        if (f->calls && !f->pseudo)
            g_string_append_printf(out, "%9" PRIu64 " %9.2f %11.2f", f->calls,
                                   (double)f->self_cycles / (double)f->calls,
                                   (double)f->inclusive_cycles / (double)f->calls);
        else
            g_string_append_printf(out, "%9s %9s %11s", "", "", "");
        event_cells(out, f, events, cache);
        g_string_append_printf(out, "  %s\n", f->name);
    }
    g_free(idx);
}

static void print_sampled(GString *out, const Profile *p, unsigned k)
{
    const ProfHist *h = &p->hists[k];
    if (!h->total) {
        /* a table of zeros under a page of headers said less (issue 24:
         * the idle cores of a big mesh) */
        g_string_append_printf(out, "\nSampled profile: sampling period %" PRIu32 " cycles: no samples in the "
                               "profile's %" PRIu64 " cycles.\n", h->period, p->cycles);
        return;
    }
    uint64_t total = report_total_cycles(p);
    uint64_t ns = report_total_samples(p, k);
    double per = report_seconds(p, h->period);
    double sd = sqrt((double)ns);
    g_string_append_printf(out,
        "\nSampled profile: sampling period %" PRIu32 " cycles (each sample counts as %"
        PRIu32 " cycles = %.9g seconds)\n"
        "%" PRIu64 " samples: %" PRIu64 " in the histogram, %" PRIu64 " idle, %" PRIu64
        " outside [0x%08" PRIx32 ", 0x%08" PRIx32 ").\n"
        "Expected sampling error (gprof): a count of n samples is off by about sqrt(n)\n"
        "samples, a relative error of 1/sqrt(n); the whole run, %" PRIu64 " samples, is +-%.1f"
        " (%.1f%%).\n"
        "'!' marks a function whose samples differ from its exact share by more than\n"
        "2 sqrt(expected) samples (aliasing with the sampling period, or too few samples).\n\n",
        h->period, h->period, per, h->total, h->total - MIN(h->total, h->idle + h->outside),
        h->idle, h->outside, prof_hist_low(h), prof_hist_high(h), ns, sd, ns ? 100.0 / sd : 0.0);
    g_string_append(out,
        " sampled    cumulative          self              +-sqrt(n)   exact    diff\n"
        "   %time       seconds       seconds    samples    samples   %time   %time     calls  name\n");
    unsigned n;
    unsigned *idx = flat_order(p, (int)k, &n);
    double cum = 0;
    for (unsigned j = 0; j < n; j++) {
        const ProfFunc *f = &p->funcs[idx[j]];
        uint64_t s = f->samples ? f->samples[k] : 0;
        double sp = pct(s, ns), ep = pct(f->self_cycles, total);
        double expected = total ? (double)f->self_cycles * (double)ns / (double)total : 0;
        bool off = fabs((double)s - expected) > 2 * sqrt(MAX(expected, 1.0));
        cum += (double)s * per;
        g_string_append_printf(out, "%8.2f %13.9f %13.9f %10" PRIu64 " %10.1f %7.2f %+7.2f%c",
                               sp, cum, (double)s * per, s, sqrt((double)s), ep, sp - ep,
                               off ? '!' : ' ');
        if (f->calls && !f->pseudo)
            g_string_append_printf(out, "%9" PRIu64 "  ", f->calls);
        else
            g_string_append_printf(out, "%9s  ", "");
        g_string_append_printf(out, "%s\n", f->name);
    }
    g_free(idx);
}

/* gprof -z: the ELF's functions that never ran, in address order. */
static void print_never_called(GString *out, const Profile *p)
{
    unsigned n;
    g_autofree unsigned *idx = profile_never_called(p, &n);
    g_string_append_printf(out, "\nNever called (gprof -z): %u function%s of the ELF with no calls, "
                           "no cycles and no samples%s\n", n, n == 1 ? "" : "s", n ? ":" : ".");
    for (unsigned j = 0; j < n; j++) {
        const ProfFunc *f = &p->funcs[idx[j]];
        g_string_append_printf(out, "  0x%08" PRIx32 " %6" PRIu32 " bytes  %s\n", f->addr, f->size, f->name);
    }
}

static const char flat_blurb[] =
    "\n"
    " %time      the share of the run's cycles (exact) or samples (sampled) spent in\n"
    "            the function's own instructions. <idle> is time in `wait`,\n"
    "            <interrupt> the interrupt entry, <unknown> code outside every symbol.\n"
    " cumulative running sum of the self column, in cycles and seconds.\n"
    " self       cycles (and seconds at the clock rate) of the function's own\n"
    "            instructions; sampled: samples x period / clock rate. This is\n"
    "            the major sort key of each table.\n"
    " calls      times the function was entered, recursive entries included;\n"
    "            blank for functions never called (entry points, interrupt\n"
    "            handlers reached from <interrupt> are counted).\n"
    " cyc/call   self cycles per call.\n"
    " cyc/call   (total) inclusive cycles per call: self plus callees, measured\n"
    "            with a shadow call stack (not estimated as gprof does).\n"
    " samples    timer ticks that hit the function; +-sqrt(n) is the expected\n"
    "            sampling error; exact %time and diff (sampled - exact, in\n"
    "            percentage points) compare against the exact profile.\n"
    " name       the function; the tables are sorted by self time, then calls,\n"
    "            then name.\n";

static const char events_blurb[] =
    " --events   columns of the function's own instructions (exact counts):\n"
    "            instr executed; loads, stores; branch every control transfer, of\n"
    "            them condbr conditional and indbr jr/jalr; st.* the cycles they\n"
    "            waited under the 24k model for a load's result (load), an address\n"
    "            base (agen), the MDU, the FPU (0 under flat); I1mr D1mr D1mw the\n"
    "            L1 misses when the cache model is on.\n";

GString *report_flat(const Profile *p)
{
    return report_flat_events(p, false);
}

GString *report_flat_events(const Profile *p, bool events)
{
    GString *out = g_string_new(NULL);
    char *title = report_title(p);
    g_string_append_printf(out, "Flat profile, %s\n\n", title);
    g_free(title);
    if (p->filter)
        g_string_append_printf(out, "Filter: %s.\n\n", p->filter);
    if (p->collection) {
        uint64_t all = p->cycles + p->excluded_cycles;
        g_string_append_printf(out, "Collected %s: %" PRIu64 " of the core's %" PRIu64 " cycles; "
                               "%" PRIu64 " cycles (%.2f%%) ran outside and are excluded from every "
                               "number below.\n\n", p->collection, p->cycles, all, p->excluded_cycles,
                               pct(p->excluded_cycles, all));
    }
    g_autofree char *nothing = report_ran_nothing(p);
    if (nothing) {
        g_string_append(out, nothing);
        return out;
    }
    print_exact(out, p, events);
    for (unsigned k = 0; k < p->nperiods; k++)
        print_sampled(out, p, k);
    if (!p->nperiods)
        g_string_append(out, "\nNo sampling period was recorded: no sampled profile.\n");
    g_string_append(out, flat_blurb);
    if (events)
        g_string_append(out, events_blurb);
    print_never_called(out, p);
    return out;
}

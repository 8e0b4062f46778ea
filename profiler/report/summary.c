// SPDX-License-Identifier: GPL-2.0-or-later
/* summary.c — summary.txt and noc.txt (SPEC section 4). */
#include "profiler/report/summary.h"

#include <string.h>

static double secs(uint64_t cycles, const Config *cfg)
{
    return (double)cycles / (double)cfg->clock_hz;
}

/* A merge (nocprof merge): the runs summed, each distinct firmware hash
 * once with its number of cores, and the keys merged with --force. */
static void merge_text(GString *o, const RunInfo *run)
{
    for (unsigned i = 0; run->merge_runs && run->merge_runs[i]; i++) {
        const char *tab = strchr(run->merge_runs[i], '\t');
        int len = tab ? (int)(tab - run->merge_runs[i]) : (int)strlen(run->merge_runs[i]);
        if (i == 0)
            g_string_append_printf(o, "merge:    the sum of %u runs (nocprof merge; firmware SHA-256 per core)\n",
                                   g_strv_length((char **)run->merge_runs));
        g_string_append_printf(o, "  run %u:  %.*s ", i + 1, len, run->merge_runs[i]);
        g_auto(GStrv) hashes = g_strsplit(tab ? tab + 1 : "", ",", -1);
        for (unsigned k = 0; hashes[k]; k++) {   /* each distinct hash once, with its number of cores */
            unsigned n = 0, first = k;
            for (unsigned j = 0; hashes[j]; j++)
                if (strcmp(hashes[j], hashes[k]) == 0) {
                    n++;
                    first = MIN(first, j);
                }
            if (first == k)
                g_string_append_printf(o, " %.16s... (%u core%s)", hashes[k], n, n == 1 ? "" : "s");
        }
        g_string_append_c(o, '\n');
    }
    for (unsigned i = 0; run->merge_forced && run->merge_forced[i]; i++)
        g_string_append_printf(o, "WARNING: merged with --force although %s\n", run->merge_forced[i]);
}

void summary_where(GString *o, const char *fn, const char *file, unsigned line, const FaultFrame *f, unsigned n)
{
    unsigned j = 0;
    if (!n || !f[0].inlined || !f[0].function) {
        g_string_append_printf(o, "%s (%s:%u)", fn ? fn : "??", file ? file : "??", line);
        return;
    }
    g_string_append_printf(o, "%s (%s:%u)", f[0].function, f[0].file ? f[0].file : "??", f[0].line);
    while (j < n && f[j].inlined)
        j++;
    if (j < n)
        g_string_append_printf(o, ", inlined into %s (%s:%u)", f[j].function ? f[j].function : "??",
                               f[j].file ? f[j].file : "??", f[j].line);
}

void summary_fault_where(GString *o, const CoreResult *c)
{
    summary_where(o, c->fault_function, c->fault_file, c->fault_line, c->fault_frames, c->nfault_frames);
}

static void stop_where(GString *o, const CoreResult *c)
{
    summary_where(o, c->stop_function, c->stop_file, c->stop_line, c->stop_frames, c->nstop_frames);
}

/* What a stuck core was doing: asleep in `wait` (for a packet or room
 * to send when only those lines could wake it), polling an NI, spinning
 * on RAM. */
static const char *doing(const CoreResult *c)
{
    if (!c->wait_for || strcmp(c->wait_for, "interrupt") == 0)
        return "waiting";
    if (strcmp(c->wait_for, "memory") == 0)
        return "spinning";
    if (c->wait_asleep)
        return strcmp(c->wait_for, "receive") == 0 ? "asleep in wait for a packet" : "asleep in wait for transmit room";
    return "polling";
}

void summary_endings(GString *o, const RunInfo *run, const char *indent)
{
    if (run->livelock)
        g_string_append_printf(o, "%slivelock: every live core only waited (polled an NI or spun on RAM in vain, "
                               "slept in wait, ran interrupt handlers) for %" G_GUINT64_FORMAT " cycles, nothing another core "
                               "could see changed and no flit moved (found at cycle %" G_GUINT64_FORMAT ")\n",
                               indent, run->livelock_cycles, run->end_cycle);
    else
        g_string_append_printf(o, "%sdeadlock: every live core waits and nothing can wake any of them\n", indent);
    for (unsigned i = 0; i < run->ncores; i++) {
        const CoreResult *c = &run->cores[i];
        if (strcmp(c->status, "deadlock") != 0)
            continue;
        g_string_append_printf(o, "%s  core %u %s at pc 0x%08x in ", indent, c->id, doing(c), c->stop_pc);
        stop_where(o, c);
        g_string_append_c(o, '\n');
        if (!c->wait_for)
            continue;
        g_string_append_printf(o, "%s    waits for ", indent);
        if (strcmp(c->wait_for, "receive") == 0)
            g_string_append(o, "a packet (receive from any core)");
        else if (strcmp(c->wait_for, "transmit") == 0 && c->wait_peer >= 0)
            g_string_append_printf(o, "transmit room toward core %d%s%s", c->wait_peer,
                                   (unsigned)c->wait_peer < run->ncores && !run->cores[c->wait_peer].wait_for
                                   ? ", which has stopped: " : "",
                                   (unsigned)c->wait_peer < run->ncores && !run->cores[c->wait_peer].wait_for
                                   ? run->cores[c->wait_peer].status : "");
        else if (strcmp(c->wait_for, "transmit") == 0)
            g_string_append(o, "transmit room");
        else if (strcmp(c->wait_for, "memory") == 0)
            g_string_append(o, "a word of RAM to change");
        else
            g_string_append(o, "an interrupt");
        g_string_append_printf(o, ", at 0x%08x in %s (%s:%u)\n", c->wait_pc,
                               c->wait_function ? c->wait_function : "??", c->wait_file ? c->wait_file : "??",
                               c->wait_line);
        if (c->wait_why)
            g_string_append_printf(o, "%s    %s\n", indent, c->wait_why);
        if (c->nstop_frames) {
            g_autofree char *in = g_strdup_printf("%s      ", indent);
            g_string_append_printf(o, "%s    call stack (innermost first):\n", indent);
            summary_frames(o, c->stop_frames, c->nstop_frames, in);
        }
    }
    g_autofree unsigned *cycle = g_new(unsigned, run->ncores + 1);
    unsigned n = run_wait_cycle(run, cycle);
    if (n) {
        g_string_append_printf(o, "%s  wait-for cycle:", indent);
        for (unsigned k = 0; k <= n; k++)
            g_string_append_printf(o, "%s core %u", k ? " ->" : "", cycle[k % n]);
        g_string_append_c(o, '\n');
    }
}

/* [cache] enabled: a core's L1 counts over the whole run (summary.json's
 * "cache"; its functions' misses sum to them when everything was collected). */
static void cache_totals(GString *o, const CoreResult *c, bool first)
{
    g_string_append_printf(o, "%scache: core %u I1 accesses %" G_GUINT64_FORMAT " misses %" G_GUINT64_FORMAT
                           "; D1 accesses %" G_GUINT64_FORMAT " read misses %" G_GUINT64_FORMAT
                           " write misses %" G_GUINT64_FORMAT " write-backs %" G_GUINT64_FORMAT
                           "; %" G_GUINT64_FORMAT " cycles\n",
                           first ? "\n" : "", c->id, c->i1_accesses, c->i1_misses, c->d1_accesses,
                           c->d1_read_misses, c->d1_write_misses, c->d1_writebacks, c->cache_cycles);
}

void summary_frames(GString *o, const FaultFrame *frames, unsigned n, const char *indent)
{
    /* text for people: the innermost 6 entries and the outermost 3 (all
     * of them in summary.json), so that a mutual recursion stays short */
    const unsigned inner = 6, outer = 3;
    unsigned depth = 0;
    for (unsigned k = 0; k < n; k++) {
        const FaultFrame *f = &frames[k];
        bool gap = f->function && strcmp(f->function, FAULT_FRAMES_ELIDED) == 0;
        if (n > inner + outer + 1 && k >= inner && k < n - outer) {
            unsigned hidden = 0, j = k;
            for (; j < n - outer; j++)
                hidden += frames[j].repeat;
            g_string_append_printf(o, "%s#%u-%u %s (%u frames not shown here: summary.json has more)\n", indent,
                                   depth, depth + hidden - 1, FAULT_FRAMES_ELIDED, hidden);
            depth += hidden;
            k = j - 1;
            continue;
        }
        char num[32], pc[16] = "?";
        if (f->repeat > 1)
            g_snprintf(num, sizeof num, "#%u-%u", depth, depth + f->repeat - 1);
        else
            g_snprintf(num, sizeof num, "#%u", depth);
        depth += f->repeat;
        if (gap) {
            g_string_append_printf(o, "%s%-11s %s (%u frames not shown)\n", indent, num, FAULT_FRAMES_ELIDED,
                                   f->repeat);
            continue;
        }
        if (f->function && g_str_has_prefix(f->function, FAULT_FRAMES_UNWIND_STOP)) { /* "<...>": "(...)" */
            g_string_append_printf(o, "%s%-11s (%.*s)\n", indent, num, (int)strlen(f->function) - 2, f->function + 1);
            continue;
        }
        if (f->pc)
            g_snprintf(pc, sizeof pc, "0x%08x", f->pc);
        g_string_append_printf(o, "%s%-11s %-10s in %s", indent, num, pc, f->function ? f->function : "??");
        if (f->file)
            g_string_append_printf(o, " at %s:%u", f->file, f->line);
        if (f->inlined)
            g_string_append_printf(o, " (inlined into %s)", k + 1 < n && frames[k + 1].function
                                   ? frames[k + 1].function : "??");
        if (f->repeat > 1)
            g_string_append_printf(o, " (%u frames)", f->repeat);
        g_string_append_c(o, '\n');
    }
}

/* One line per core stopped at the limit or when interrupted. */
static void stops_text(GString *o, const RunInfo *run)
{
    bool first_stop = true;
    for (unsigned i = 0; i < run->ncores; i++) {
        const CoreResult *c = &run->cores[i];
        bool limit = strcmp(c->status, "limit") == 0;
        if (!limit && strcmp(c->status, "interrupted") != 0)
            continue;
        /* one line each (a limit is often a chosen profiling window, on
         * many cores): the callers folded, summary.json has the frames */
        g_string_append_printf(o, "%score %u stopped %s at pc 0x%08x in ", first_stop ? "\n" : "", c->id,
                               limit ? "at the limit" : "when interrupted", c->stop_pc);
        stop_where(o, c);
        first_stop = false;
        unsigned shown = 0;
        for (unsigned k = 1; k < c->nstop_frames && shown < 6; k++) {
            const FaultFrame *f = &c->stop_frames[k];
            if (f->inlined || f->pc == c->stop_pc || !f->function || !strcmp(f->function, FAULT_FRAMES_ELIDED))
                continue; /* the callers only: not the stop's own function */
            if (g_str_has_prefix(f->function, FAULT_FRAMES_UNWIND_STOP)) { /* "<...>": "(...)" */
                g_string_append_printf(o, "%s(%.*s)", shown++ ? " <- " : ", called from ",
                                       (int)strlen(f->function) - 2, f->function + 1);
                continue;
            }
            g_string_append_printf(o, "%s%s (%s:%u)", shown++ ? " <- " : ", called from ", f->function,
                                   f->file ? f->file : "??", f->line);
        }
        g_string_append_c(o, '\n');
    }
}

/* idx a, b into p->funcs (g_qsort_with_data, a stable sort): most self cycles first */
static gint by_self_desc(gconstpointer a, gconstpointer b, gpointer data)
{
    const Profile *p = data;
    uint64_t x = p->funcs[*(const unsigned *)a].self_cycles, y = p->funcs[*(const unsigned *)b].self_cycles;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Per core with a profile: its ten functions with the most self cycles. */
static void top_functions_text(GString *o, const RunInfo *run)
{
    const Config *cfg = run->cfg;
    for (unsigned i = 0; i < run->ncores; i++) {
        const CoreResult *c = &run->cores[i];
        const Profile *p = c->prof;
        if (!p)
            continue;
        g_string_append_printf(o, "\ncore %u: %.6f s at the configured clock; top functions by self cycles:\n",
                               c->id, secs(c->cycles, cfg));
        g_string_append_printf(o, "  %-28s %10s %14s %14s %7s\n", "function", "calls", "self", "inclusive", "%self");
        unsigned *idx = g_new(unsigned, p->nfuncs);
        unsigned n = 0;
        for (unsigned k = 0; k < p->nfuncs; k++)
            if (p->funcs[k].self_cycles || p->funcs[k].calls)
                idx[n++] = k;
        /* by self cycles, most first; stable: ties keep the functions' order */
        g_qsort_with_data(idx, (gint)n, sizeof *idx, by_self_desc, (gpointer)p);
        for (unsigned k = 0; k < n && k < 10; k++) {
            const ProfFunc *f = &p->funcs[idx[k]];
            g_string_append_printf(o, "  %-28s %10" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %6.2f%%\n",
                                   f->name, f->calls, f->self_cycles, f->inclusive_cycles,
                                   p->cycles ? 100.0 * (double)f->self_cycles / (double)p->cycles : 0.0);
        }
        g_free(idx);
    }
}

/* Why the run ended so, what came first first: the earliest fault (by
 * the faulting core's cycles), else a core at the cycle limit or a
 * non-zero exit code; then the deadlock or livelock it left (a core
 * waiting for one that faulted). */
static void exit_reason(GString *o, const RunInfo *run)
{
    const CoreResult *fault = NULL, *limit = NULL, *code = NULL;
    unsigned nfault = 0;
    for (unsigned i = 0; i < run->ncores; i++) {
        const CoreResult *c = &run->cores[i];
        if (c->faulted) {
            nfault++;
            if (!fault || c->cycles < fault->cycles)
                fault = c;
        } else if (!limit && strcmp(c->status, "limit") == 0) {
            limit = c;
        } else if (!code && strcmp(c->status, "exited") == 0 && c->exit_code) {
            code = c;
        }
    }
    const char *hang = run->livelock ? "livelock: every live core only waited"
                       : run->deadlock ? "deadlock: every live core waits and nothing can wake it" : NULL;
    g_autoptr(GString) why = g_string_new(NULL);
    if (fault) {
        g_string_append_printf(why, "core %u faulted: %s in ", fault->id, fault->fault_kind);
        summary_fault_where(why, fault);
        if (nfault > 1)
            g_string_append_printf(why, ", %u more cores faulted", nfault - 1);
    } else if (limit && !hang) {
        g_string_append_printf(why, "core %u reached the cycle limit in ", limit->id);
        stop_where(why, limit);
    } else if (code && !hang) {
        g_string_append_printf(why, "core %u exited with %d", code->id, code->exit_code);
    }
    if (hang)
        g_string_append_printf(why, "%s%s", why->len ? "; then " : "", hang);
    if (run->exit_status == 5) /* it wins over 3 and 4 (SPEC 4) */
        g_string_prepend(why, why->len ? "a report could not be written; " : "a report could not be written");
    g_string_append_printf(o, "exit status: %d%s%s%s\n\n", run->exit_status, why->len ? " (" : "", why->str,
                           why->len ? ")" : "");
}

GString *summary_text(const RunInfo *run)
{
    const Config *cfg = run->cfg;
    GString *o = g_string_new(NULL);
    g_string_append_printf(o, "nocprof %s run summary\n\n", NOCPROF_VERSION_STRING);
    g_string_append_printf(o, "platform: %ux%u mesh, %u cores, %" G_GUINT64_FORMAT " KiB RAM per core, "
                           "clock %.3f MHz\n",
                           cfg->mesh_width, cfg->mesh_height, run->ncores, cfg->ram_size / 1024,
                           cfg->clock_hz / 1e6);
    g_string_append_printf(o, "config:   %s\n", run->config_path ? run->config_path : "(built-in defaults)");
    merge_text(o, run);
    exit_reason(o, run);
    for (unsigned i = 0; run->warnings && run->warnings[i]; i++)
        g_string_append_printf(o, "WARNING: %s\n%s", run->warnings[i], run->warnings[i + 1] ? "" : "\n");
    if (run->deadlock) {
        summary_endings(o, run, "");
        g_string_append_c(o, '\n');
    }
    g_string_append_printf(o, "%-5s %-11s %5s %14s %14s %14s %14s %14s  %s\n", "core", "status", "exit",
                           "instructions", "cycles", "busy", "idle", "irq", "firmware");
    for (unsigned i = 0; i < run->ncores; i++) {
        const CoreResult *c = &run->cores[i];
        /* only a core that exited has an exit code: `-` for the others */
        char code[16] = "-";
        if (strcmp(c->status, "exited") == 0)
            g_snprintf(code, sizeof code, "%d", c->exit_code);
        g_string_append_printf(o, "%-5u %-11s %5s %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT
                               " %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT "  %s\n",
                               c->id, c->status, code, c->instructions, c->cycles,
                               c->busy_cycles, c->idle_cycles, c->irq_cycles, c->elf);
    }
    for (unsigned i = 0; run->cfg && run->cfg->cache.enabled && i < run->ncores; i++)
        cache_totals(o, &run->cores[i], i == 0);
    for (unsigned i = 0; i < run->ncores; i++) {
        const CoreResult *c = &run->cores[i];
        if (c->stack_lowest)
            g_string_append_printf(o, "%sstack: core %u lowest $sp 0x%08x, %" G_GUINT64_FORMAT
                                   " bytes below the initial $sp\n", i ? "" : "\n", c->id, c->stack_lowest,
                                   c->stack_used);
    }
    for (unsigned i = 0; i < run->ncores; i++) {
        const CoreResult *c = &run->cores[i];
        if (c->faulted) {
            g_string_append_printf(o, "\ncore %u fault: %s at pc 0x%08x in ", c->id, c->fault_kind, c->fault_pc);
            summary_fault_where(o, c);
            g_string_append_printf(o, "\n  %s\n", c->fault_message);
            if (c->fault_stack && c->fault_stack[0]) {
                g_string_append(o, "  call stack (innermost first):");
                for (unsigned k = 0; c->fault_stack[k]; k++)
                    g_string_append_printf(o, " %s%s", k ? "<- " : "", c->fault_stack[k]);
                g_string_append_c(o, '\n');
            }
            summary_frames(o, c->fault_frames, c->nfault_frames, "    ");
        }
    }
    stops_text(o, run);
    top_functions_text(o, run);
    g_string_append(o, "\n");
    GString *noc = noc_report(run->noc, cfg);
    g_string_append_len(o, noc->str, (gssize)noc->len);
    g_string_free(noc, TRUE);
    return o;
}

GString *noc_report(const NocStats *st, const Config *cfg)
{
    GString *o = g_string_new(NULL);
    g_string_append_printf(o, "network on chip: %ux%u mesh, XY routing, wormhole, buffer %u flits/port, "
                           "router %u + link %u cycles/hop, max payload %u words\n",
                           cfg->mesh_width, cfg->mesh_height, cfg->buffer_depth, cfg->router_latency,
                           cfg->link_latency, cfg->max_payload);
    g_string_append_printf(o, "simulated %" G_GUINT64_FORMAT " cycles; delivered %" G_GUINT64_FORMAT
                           " packets, %" G_GUINT64_FORMAT " flits\n\n", st->cycles, st->packets, st->flits);
    g_string_append(o, "packets (flits) per source -> destination:\n  src\\dst");
    for (unsigned d = 0; d < st->nodes; d++)
        g_string_append_printf(o, " %14u", d);
    g_string_append_c(o, '\n');
    for (unsigned s = 0; s < st->nodes; s++) {
        g_string_append_printf(o, "  %7u", s);
        for (unsigned d = 0; d < st->nodes; d++) {
            g_autofree char *cell = g_strdup_printf("%" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT ")",
                                                    st->pair_packets[s * st->nodes + d],
                                                    st->pair_flits[s * st->nodes + d]);
            g_string_append_printf(o, " %14s", cell);
        }
        g_string_append_c(o, '\n');
    }
    g_string_append(o, "\nlinks (directed):\n  from -> to        flits  utilization\n");
    for (unsigned i = 0; i < st->nlinks; i++)
        g_string_append_printf(o, "  %4u -> %-4u %12" G_GUINT64_FORMAT "  %10.4f%%\n", st->links[i].from,
                               st->links[i].to, st->links[i].flits, 100.0 * st->links[i].utilization);
    g_string_append_printf(o, "\npacket latency (send to full delivery), cycles:\n"
                           "  min %" G_GUINT64_FORMAT "  mean %.2f  p50 %" G_GUINT64_FORMAT "  p95 %" G_GUINT64_FORMAT
                           "  p99 %" G_GUINT64_FORMAT "  max %" G_GUINT64_FORMAT "\n",
                           st->lat_min, st->lat_mean, st->lat_p50, st->lat_p95, st->lat_p99, st->lat_max);
    g_string_append(o, "\nrouters:\n  node  buffer occupancy mean/max (flits)  stall cycles  NI inject stalls\n");
    for (unsigned r = 0; r < st->nodes; r++)
        g_string_append_printf(o, "  %4u  %18.3f / %-12u  %12" G_GUINT64_FORMAT "  %16" G_GUINT64_FORMAT "\n", r,
                               st->router_occupancy_mean[r], st->router_occupancy_max[r],
                               st->router_stall_cycles[r], st->inject_stall_cycles[r]);
    g_string_append_printf(o, "  total stall cycles %" G_GUINT64_FORMAT ", NI inject stall cycles %" G_GUINT64_FORMAT "\n",
                           st->stall_cycles, st->inject_stall_total);
    return o;
}

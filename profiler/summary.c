/* summary.c — summary.txt, summary.json, noc.txt. */
#include "summary.h"

#include <string.h>

#define NOCPROF_VERSION_STRING "0.1.0"

void json_append_string(GString *out, const char *s)
{
    g_string_append_c(out, '"');
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': g_string_append(out, "\\\""); break;
        case '\\': g_string_append(out, "\\\\"); break;
        case '\n': g_string_append(out, "\\n"); break;
        case '\r': g_string_append(out, "\\r"); break;
        case '\t': g_string_append(out, "\\t"); break;
        default:
            if (*p < 0x20)
                g_string_append_printf(out, "\\u%04x", *p);
            else
                g_string_append_c(out, (char)*p);
        }
    }
    g_string_append_c(out, '"');
}

static void kv_str(GString *o, const char *k, const char *v, bool comma)
{
    json_append_string(o, k);
    g_string_append_c(o, ':');
    if (v)
        json_append_string(o, v);
    else
        g_string_append(o, "null");
    if (comma)
        g_string_append_c(o, ',');
}

static void kv_u64(GString *o, const char *k, uint64_t v, bool comma)
{
    json_append_string(o, k);
    g_string_append_printf(o, ":%" G_GUINT64_FORMAT "%s", v, comma ? "," : "");
}

static void kv_dbl(GString *o, const char *k, double v, bool comma)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    json_append_string(o, k);
    g_string_append_printf(o, ":%s%s", g_ascii_formatd(buf, sizeof buf, "%.6g", v), comma ? "," : "");
}

static void json_config(GString *o, const Config *cfg)
{
    g_string_append(o, "{");
    const char *group, *key, *cur = NULL;
    for (unsigned i = 0; config_key(i, &group, &key); i++) {
        if (!cur || strcmp(cur, group) != 0) {
            if (cur)
                g_string_append(o, "},");
            json_append_string(o, group);
            g_string_append(o, ":{");
            cur = group;
        } else {
            g_string_append_c(o, ',');
        }
        g_autofree char *v = config_value_string(cfg, group, key);
        json_append_string(o, key);
        g_string_append_c(o, ':');
        if (strcmp(key, "sample_period") == 0) {
            g_string_append_printf(o, "[%s]", v);
        } else {
            g_string_append(o, v);
        }
    }
    if (cur)
        g_string_append(o, "}");
    g_string_append(o, "}");
}

static void json_functions(GString *o, const Profile *p)
{
    g_string_append(o, "[");
    bool first = true;
    for (unsigned i = 0; i < p->nfuncs; i++) {
        const ProfFunc *f = &p->funcs[i];
        bool any_sample = false;
        for (unsigned h = 0; h < p->nperiods; h++)
            any_sample |= f->samples[h] != 0;
        bool always = i == profile_pseudo(p, PROF_IDLE) || i == profile_pseudo(p, PROF_INTERRUPT);
        if (!always && !f->calls && !f->self_cycles && !f->inclusive_cycles && !any_sample)
            continue;
        if (!first)
            g_string_append_c(o, ',');
        first = false;
        g_string_append(o, "{");
        kv_str(o, "name", f->name, true);
        kv_u64(o, "address", f->addr, true);
        kv_u64(o, "size", f->size, true);
        kv_u64(o, "calls", f->calls, true);
        kv_u64(o, "recursive_calls", f->recursive_calls, true);
        kv_u64(o, "self_cycles", f->self_cycles, true);
        kv_u64(o, "inclusive_cycles", f->inclusive_cycles, true);
        kv_u64(o, "instructions", f->instructions, true);
        g_string_append(o, "\"samples\":{");
        for (unsigned h = 0; h < p->nperiods; h++)
            g_string_append_printf(o, "%s\"%u\":%" G_GUINT64_FORMAT, h ? "," : "",
                                   p->hists[h].period, f->samples[h]);
        g_string_append(o, "},\"callers\":[");
        bool fa = true;
        for (unsigned a = 0; a < p->narcs; a++) {
            const ProfArc *arc = &p->arcs[a];
            if (arc->callee != i)
                continue;
            if (!fa)
                g_string_append_c(o, ',');
            fa = false;
            g_string_append(o, "{");
            kv_str(o, "caller", p->funcs[arc->caller].name, true);
            kv_u64(o, "call_site", arc->call_site, true);
            kv_u64(o, "count", arc->count, true);
            kv_u64(o, "inclusive_cycles", arc->inclusive_cycles, false);
            g_string_append(o, "}");
        }
        g_string_append(o, "]}");
    }
    g_string_append(o, "]");
}

static void json_noc(GString *o, const NocStats *st)
{
    g_string_append(o, "{\"links\":[");
    for (unsigned i = 0; i < st->nlinks; i++) {
        g_string_append_printf(o, "%s{", i ? "," : "");
        kv_u64(o, "from", st->links[i].from, true);
        kv_u64(o, "to", st->links[i].to, true);
        kv_u64(o, "flits", st->links[i].flits, true);
        kv_dbl(o, "utilization", st->links[i].utilization, false);
        g_string_append(o, "}");
    }
    g_string_append(o, "],\"pairs\":[");
    bool first = true;
    for (unsigned s = 0; s < st->nodes; s++)
        for (unsigned d = 0; d < st->nodes; d++) {
            uint64_t pk = st->pair_packets[s * st->nodes + d];
            if (!pk)
                continue;
            g_string_append_printf(o, "%s{", first ? "" : ",");
            first = false;
            kv_u64(o, "src", s, true);
            kv_u64(o, "dst", d, true);
            kv_u64(o, "packets", pk, true);
            kv_u64(o, "flits", st->pair_flits[s * st->nodes + d], false);
            g_string_append(o, "}");
        }
    g_string_append(o, "],\"latency\":{");
    kv_u64(o, "min", st->lat_min, true);
    kv_dbl(o, "mean", st->lat_mean, true);
    kv_u64(o, "p50", st->lat_p50, true);
    kv_u64(o, "p95", st->lat_p95, true);
    kv_u64(o, "p99", st->lat_p99, true);
    kv_u64(o, "max", st->lat_max, false);
    g_string_append(o, "},");
    kv_u64(o, "packets", st->packets, true);
    kv_u64(o, "flits", st->flits, true);
    kv_u64(o, "cycles", st->cycles, true);
    kv_u64(o, "stall_cycles", st->stall_cycles, true);
    kv_u64(o, "inject_stall_cycles", st->inject_stall_total, true);
    g_string_append(o, "\"routers\":[");
    for (unsigned r = 0; r < st->nodes; r++) {
        g_string_append_printf(o, "%s{", r ? "," : "");
        kv_u64(o, "node", r, true);
        kv_dbl(o, "occupancy_mean", st->router_occupancy_mean[r], true);
        kv_u64(o, "occupancy_max", st->router_occupancy_max[r], true);
        kv_u64(o, "stall_cycles", st->router_stall_cycles[r], true);
        kv_u64(o, "inject_stall_cycles", st->inject_stall_cycles[r], false);
        g_string_append(o, "}");
    }
    g_string_append(o, "]}");
}

GString *summary_json(const RunInfo *run)
{
    GString *o = g_string_new("{");
    kv_str(o, "nocprof", NOCPROF_VERSION_STRING, true);
    kv_str(o, "config_file", run->config_path, true);
    g_string_append(o, "\"config\":");
    json_config(o, run->cfg);
    g_string_append(o, ",");
    kv_u64(o, "exit_status", (uint64_t)run->exit_status, true);
    g_string_append(o, "\"deadlock\":");
    g_string_append(o, run->deadlock ? "true," : "false,");
    g_string_append(o, "\"cores\":[");
    for (unsigned i = 0; i < run->ncores; i++) {
        const CoreResult *c = &run->cores[i];
        g_string_append_printf(o, "%s{", i ? "," : "");
        kv_u64(o, "id", c->id, true);
        kv_str(o, "elf", c->elf, true);
        kv_str(o, "status", c->status, true);
        json_append_string(o, "exit_code");
        g_string_append_printf(o, ":%d,", c->exit_code);
        g_string_append(o, "\"fault\":");
        if (c->faulted) {
            g_string_append(o, "{");
            kv_str(o, "kind", c->fault_kind, true);
            kv_u64(o, "pc", c->fault_pc, true);
            kv_str(o, "function", c->fault_function, true);
            kv_str(o, "file", c->fault_file, true);
            kv_u64(o, "line", c->fault_line, true);
            kv_str(o, "message", c->fault_message, true);
            g_string_append(o, "\"stack\":[");
            for (unsigned k = 0; c->fault_stack && c->fault_stack[k]; k++) {
                if (k)
                    g_string_append_c(o, ',');
                json_append_string(o, c->fault_stack[k]);
            }
            g_string_append(o, "]},");
        } else {
            g_string_append(o, "null,");
        }
        kv_u64(o, "instructions", c->instructions, true);
        kv_u64(o, "cycles", c->cycles, true);
        kv_u64(o, "busy_cycles", c->busy_cycles, true);
        kv_u64(o, "idle_cycles", c->idle_cycles, true);
        kv_u64(o, "irq_cycles", c->irq_cycles, true);
        kv_u64(o, "interrupts", c->interrupts, true);
        kv_u64(o, "waits", c->waits, true);
        g_string_append(o, "\"samples\":{");
        if (c->prof)
            for (unsigned h = 0; h < c->prof->nperiods; h++)
                g_string_append_printf(o, "%s\"%u\":%" G_GUINT64_FORMAT, h ? "," : "",
                                       c->prof->hists[h].period, c->prof->hists[h].total);
        g_string_append(o, "},\"functions\":");
        if (c->prof)
            json_functions(o, c->prof);
        else
            g_string_append(o, "[]");
        g_string_append(o, "}");
    }
    g_string_append(o, "],\"noc\":");
    json_noc(o, run->noc);
    if (run->aliasing_json) {
        g_string_append(o, ",\"aliasing\":");
        g_string_append(o, run->aliasing_json);
    }
    g_string_append(o, "}\n");
    return o;
}

static double secs(uint64_t cycles, const Config *cfg)
{
    return (double)cycles / (double)cfg->clock_hz;
}

GString *summary_text(const RunInfo *run)
{
    const Config *cfg = run->cfg;
    GString *o = g_string_new(NULL);
    g_string_append_printf(o, "nocprof %s run summary\n\n", NOCPROF_VERSION_STRING);
    g_string_append_printf(o, "platform: %ux%u mesh, %u cores, %" G_GUINT64_FORMAT " KiB RAM per core, "
                           "clock %.3f MHz, quantum %" G_GUINT64_FORMAT " cycles\n",
                           cfg->mesh_width, cfg->mesh_height, run->ncores, cfg->ram_size / 1024,
                           cfg->clock_hz / 1e6, cfg->quantum);
    g_string_append_printf(o, "config:   %s\n", run->config_path ? run->config_path : "(built-in defaults)");
    g_string_append_printf(o, "exit status: %d%s\n\n", run->exit_status,
                           run->deadlock ? " (deadlock: every live core waits and nothing can wake it)" : "");
    g_string_append_printf(o, "%-5s %-11s %5s %14s %14s %14s %14s %14s  %s\n", "core", "status", "exit",
                           "instructions", "cycles", "busy", "idle", "irq", "firmware");
    for (unsigned i = 0; i < run->ncores; i++) {
        const CoreResult *c = &run->cores[i];
        g_string_append_printf(o, "%-5u %-11s %5d %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT
                               " %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT "  %s\n",
                               c->id, c->status, c->exit_code, c->instructions, c->cycles,
                               c->busy_cycles, c->idle_cycles, c->irq_cycles, c->elf);
    }
    for (unsigned i = 0; i < run->ncores; i++) {
        const CoreResult *c = &run->cores[i];
        if (c->faulted) {
            g_string_append_printf(o, "\ncore %u fault: %s at pc 0x%08x in %s (%s:%u)\n  %s\n", c->id,
                                   c->fault_kind, c->fault_pc, c->fault_function ? c->fault_function : "??",
                                   c->fault_file ? c->fault_file : "??", c->fault_line, c->fault_message);
            if (c->fault_stack && c->fault_stack[0]) {
                g_string_append(o, "  call stack (innermost first):");
                for (unsigned k = 0; c->fault_stack[k]; k++)
                    g_string_append_printf(o, " %s%s", k ? "<- " : "", c->fault_stack[k]);
                g_string_append_c(o, '\n');
            }
        }
    }
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
        for (unsigned a = 1; a < n; a++) /* insertion sort by self cycles desc */
            for (unsigned b = a; b > 0 && p->funcs[idx[b]].self_cycles > p->funcs[idx[b - 1]].self_cycles; b--) {
                unsigned t = idx[b]; idx[b] = idx[b - 1]; idx[b - 1] = t;
            }
        for (unsigned k = 0; k < n && k < 10; k++) {
            const ProfFunc *f = &p->funcs[idx[k]];
            g_string_append_printf(o, "  %-28s %10" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %6.2f%%\n",
                                   f->name, f->calls, f->self_cycles, f->inclusive_cycles,
                                   p->cycles ? 100.0 * (double)f->self_cycles / (double)p->cycles : 0.0);
        }
        g_free(idx);
    }
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

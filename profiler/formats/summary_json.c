/* summary_json.c — summary.json (SPEC section 6). */
#include "summary_json.h"

#include <string.h>

/* A JSON string: control characters escaped, and bytes that are not UTF-8
 * (ELF paths and symbol names can hold any byte) replaced by U+FFFD, so the
 * file is always valid UTF-8 JSON. */
void json_append_string(GString *out, const char *s)
{
    g_string_append_c(out, '"');
    const char *p = s ? s : "";
    while (*p) {
        unsigned char c = (unsigned char)*p;
        if (c >= 0x80) {
            gunichar u = g_utf8_get_char_validated(p, -1);
            if (u == (gunichar)-1 || u == (gunichar)-2) {
                g_string_append(out, "\\ufffd");
                p++;
            } else {
                const char *next = g_utf8_next_char(p);
                g_string_append_len(out, p, next - p);
                p = next;
            }
            continue;
        }
        switch (c) {
        case '"': g_string_append(out, "\\\""); break;
        case '\\': g_string_append(out, "\\\\"); break;
        case '\n': g_string_append(out, "\\n"); break;
        case '\r': g_string_append(out, "\\r"); break;
        case '\t': g_string_append(out, "\\t"); break;
        default:
            if (c < 0x20 || c == 0x7f)
                g_string_append_printf(out, "\\u%04x", c);
            else
                g_string_append_c(out, (char)c);
        }
        p++;
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
    g_string_append(o, "\"warnings\":[");
    for (unsigned i = 0; run->warnings && run->warnings[i]; i++) {
        if (i)
            g_string_append_c(o, ',');
        json_append_string(o, run->warnings[i]);
    }
    g_string_append(o, "],");
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

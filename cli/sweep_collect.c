// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep_collect.c — a sweep's results (sweep.h): each run's status file and
 * summary.json gathered into DIR/sweep.csv, DIR/sweep.json and
 * DIR/sweep.html. Everything written is a function of the runs' own files
 * (no host time, no host name), so every engine gives the same bytes. */
#include <string.h>

#include <json-glib/json-glib.h>

#include "base/file.h"
#include "base/json.h"
#include "cli/cli.h"
#include "web/html_report.h"
#include "cli/sweep.h"

/* summary.json of one run is read whole; past this it is not a sweep's */
#define SWEEP_SUMMARY_MAX ((gsize)512 << 20)
/* nor nested deeper than this (json-glib's parser recurses per level; a
 * real one is 9 deep) */
#define SWEEP_SUMMARY_MAX_DEPTH 64
/* and of at most 16 x 16 cores ([mesh] width and height): the columns */
#define SWEEP_MAX_CORES 256u

typedef struct RunCore {
    gint64 cycles, instructions, exit_code;
    bool has_exit;
    const char *status;        /* borrowed from the parser's tree */
} RunCore;

typedef struct RunRow {
    bool done;                 /* the run has a status */
    int status;
    JsonParser *parser;        /* summary.json, NULL when unreadable */
    RunCore *cores;
    unsigned ncores;
    gint64 *self;              /* [ntrack * ncores] self cycles, -1: none */
} RunRow;

static gint64 member_int(JsonObject *o, const char *name, gint64 dflt)
{
    JsonNode *n = o && json_object_has_member(o, name) ? json_object_get_member(o, name) : NULL;
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_INT64 ? json_node_get_int(n)
                                                                                         : dflt;
}

/* A run's summary.json is read back: each member is taken only when it
 * has the expected type (json-glib's typed getters warn otherwise). */
static JsonArray *member_array(JsonObject *o, const char *name)
{
    JsonNode *n = o && json_object_has_member(o, name) ? json_object_get_member(o, name) : NULL;
    return n && JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
}

static const char *member_string(JsonObject *o, const char *name)
{
    JsonNode *n = o && json_object_has_member(o, name) ? json_object_get_member(o, name) : NULL;
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING ? json_node_get_string(n)
                                                                                          : NULL;
}

static JsonObject *element_object(JsonArray *a, guint i)
{
    JsonNode *n = json_array_get_element(a, i);
    return JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static void track_self(RunRow *r, unsigned core, JsonObject *co, char **track, unsigned ntrack)
{
    JsonArray *fs = member_array(co, "functions");
    for (unsigned t = 0; t < ntrack; t++) {
        gint64 v = 0;          /* a function that did not run: 0 cycles */
        for (guint k = 0; fs && k < json_array_get_length(fs); k++) {
            JsonObject *f = element_object(fs, k);
            const char *name = member_string(f, "name");
            if (name && strcmp(name, track[t]) == 0)
                v += member_int(f, "self_cycles", 0);
        }
        r->self[t * r->ncores + core] = v;
    }
}

static void read_row(const SweepPlan *p, unsigned run, RunRow *r)
{
    r->done = sweep_run_done(p, run, &r->status);
    g_autofree char *dir = sweep_run_dir(p, run);
    g_autofree char *path = g_build_filename(dir, "summary.json", NULL);
    g_autofree char *text = NULL;
    gsize len;
    if (!base_read_regular(path, SWEEP_SUMMARY_MAX, &text, &len, NOCPROF_ERROR_IO, NULL)
        || !npjson_depth_ok(text, SWEEP_SUMMARY_MAX_DEPTH))
        return;
    r->parser = json_parser_new();
    JsonNode *root = json_parser_load_from_data(r->parser, text, (gssize)len, NULL) ? json_parser_get_root(r->parser)
                                                                                   : NULL;
    JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
    JsonArray *cores = member_array(o, "cores");
    r->ncores = cores ? MIN(json_array_get_length(cores), SWEEP_MAX_CORES) : 0;
    r->cores = g_new0(RunCore, r->ncores);
    unsigned ntrack = g_strv_length(p->track);
    r->self = g_new(gint64, (gsize)ntrack * r->ncores + 1);
    for (unsigned c = 0; c < r->ncores; c++) {
        JsonObject *co = element_object(cores, c);
        RunCore *rc = &r->cores[c];
        rc->cycles = member_int(co, "cycles", -1);
        rc->instructions = member_int(co, "instructions", -1);
        rc->exit_code = member_int(co, "exit_code", 0);
        rc->has_exit = member_int(co, "exit_code", -1) == rc->exit_code; /* an integer, not null */
        rc->status = member_string(co, "status");
        if (co)
            track_self(r, c, co, p->track, ntrack);
    }
}

static void row_clear(RunRow *r)
{
    if (r->parser)
        g_object_unref(r->parser);
    g_free(r->cores);
    g_free(r->self);
}

/* ---- sweep.csv (RFC 4180) ---------------------------------------------- */

static void csv_field(GString *s, const char *v)
{
    if (s->len && s->str[s->len - 1] != '\n')
        g_string_append_c(s, ',');
    if (!strpbrk(v, ",\"\r\n")) {
        g_string_append(s, v);
        return;
    }
    g_string_append_c(s, '"');
    for (const char *c = v; *c; c++) {
        if (*c == '"')
            g_string_append_c(s, '"');
        g_string_append_c(s, *c);
    }
    g_string_append_c(s, '"');
}

static void csv_int(GString *s, gint64 v, bool have)
{
    char buf[32];
    g_snprintf(buf, sizeof buf, "%" G_GINT64_FORMAT, v);
    csv_field(s, have ? buf : "");
}

static GString *csv(const SweepPlan *p, const RunRow *rows, unsigned ncores)
{
    GString *s = g_string_new("run,dir");
    for (guint a = 0; a < p->axes->len; a++)
        csv_field(s, ((SweepAxis *)g_ptr_array_index(p->axes, a))->key);
    csv_field(s, "status");
    for (unsigned c = 0; c < ncores; c++) {
        g_autofree char *cy = g_strdup_printf("core%u_cycles", c);
        g_autofree char *in = g_strdup_printf("core%u_instructions", c);
        csv_field(s, cy);
        csv_field(s, in);
    }
    for (char **t = p->track; *t; t++)
        for (unsigned c = 0; c < ncores; c++) {
            g_autofree char *h = g_strdup_printf("%s:core%u_self_cycles", *t, c);
            csv_field(s, h);
        }
    g_string_append_c(s, '\n');
    unsigned ntrack = g_strv_length(p->track);
    for (unsigned i = 0; i < p->nruns; i++) {
        const RunRow *r = &rows[i];
        g_autofree char *dir = sweep_run_name(i);
        g_string_append_printf(s, "%u,runs/%s", i, dir);
        for (guint a = 0; a < p->axes->len; a++) {
            SweepAxis *ax = g_ptr_array_index(p->axes, a);
            csv_field(s, ax->values[sweep_value_index(p, i, a)]);
        }
        csv_int(s, r->status, r->done);
        if (!r->done)
            g_string_append(s, "missing");
        for (unsigned c = 0; c < ncores; c++) {
            bool have = c < r->ncores;
            csv_int(s, have ? r->cores[c].cycles : 0, have && r->cores[c].cycles >= 0);
            csv_int(s, have ? r->cores[c].instructions : 0, have && r->cores[c].instructions >= 0);
        }
        for (unsigned t = 0; t < ntrack; t++)
            for (unsigned c = 0; c < ncores; c++)
                csv_int(s, c < r->ncores ? r->self[t * r->ncores + c] : 0, c < r->ncores);
        g_string_append_c(s, '\n');
    }
    return s;
}

/* ---- sweep.json (also sweep.html's data) ------------------------------- */

static void json_run(NpJson *b, const SweepPlan *p, unsigned i, const RunRow *r)
{
    npjson_begin_object(b);
    npjson_member_u64(b, "run", i);
    g_autofree char *name = sweep_run_name(i);
    g_autofree char *dir = g_strdup_printf("runs/%s", name);
    npjson_member_string(b, "dir", dir);
    npjson_member_array(b, "values");
    for (guint a = 0; a < p->axes->len; a++)
        npjson_string(b, ((SweepAxis *)g_ptr_array_index(p->axes, a))->values[sweep_value_index(p, i, a)]);
    npjson_end_array(b);
    if (r->done)
        npjson_member_i64(b, "status", r->status);
    else
        npjson_member_null(b, "status");
    npjson_member_array(b, "cores");
    for (unsigned c = 0; c < r->ncores; c++) {
        npjson_begin_object(b);
        npjson_member_u64(b, "id", c);
        npjson_member_string(b, "status", r->cores[c].status);
        npjson_member_i64(b, "cycles", r->cores[c].cycles);
        npjson_member_i64(b, "instructions", r->cores[c].instructions);
        if (r->cores[c].has_exit)
            npjson_member_i64(b, "exit_code", r->cores[c].exit_code);
        else
            npjson_member_null(b, "exit_code");
        npjson_end_object(b);
    }
    npjson_end_array(b);
    npjson_member_object(b, "track");
    unsigned t = 0;
    for (char **f = p->track; *f; f++, t++) {
        npjson_member_array(b, *f);
        for (unsigned c = 0; c < r->ncores; c++)
            npjson_i64(b, r->self[t * r->ncores + c]);
        npjson_end_array(b);
    }
    npjson_end_object(b);
    npjson_end_object(b);
}

static GString *json(const SweepPlan *p, const RunRow *rows, unsigned ncores)
{
    NpJson *b = npjson_new();
    npjson_begin_object(b);
    npjson_member_string(b, "nocprof", NOCPROF_VERSION_STRING);
    npjson_member_array(b, "axes");
    for (guint a = 0; a < p->axes->len; a++) {
        SweepAxis *ax = g_ptr_array_index(p->axes, a);
        npjson_begin_object(b);
        npjson_member_string(b, "key", ax->key);
        npjson_member_array(b, "values");
        for (char **v = ax->values; *v; v++)
            npjson_string(b, *v);
        npjson_end_array(b);
        npjson_end_object(b);
    }
    npjson_end_array(b);
    npjson_member_array(b, "track");
    for (char **t = p->track; *t; t++)
        npjson_string(b, *t);
    npjson_end_array(b);
    npjson_member_u64(b, "cores", ncores);
    npjson_member_array(b, "runs");
    for (unsigned i = 0; i < p->nruns; i++)
        json_run(b, p, i, &rows[i]);
    npjson_end_array(b);
    npjson_end_object(b);
    return npjson_finish(b);
}

bool sweep_collect(const SweepPlan *p, unsigned *failed, GError **error)
{
    RunRow *rows = g_new0(RunRow, p->nruns);
    unsigned ncores = 0;
    *failed = 0;
    for (unsigned i = 0; i < p->nruns; i++) {
        read_row(p, i, &rows[i]);
        ncores = MAX(ncores, rows[i].ncores);
        *failed += !rows[i].done || rows[i].status != 0;
    }
    GString *c = csv(p, rows, ncores), *j = json(p, rows, ncores);
    GString *html = html_sweep_build(j->str);
    bool ok = cli_write_file(p->dir, "sweep.csv", c->str, c->len, error)
           && cli_write_file(p->dir, "sweep.json", j->str, j->len, error)
           && cli_write_file(p->dir, "sweep.html", html->str, html->len, error);
    g_string_free(c, TRUE);
    g_string_free(j, TRUE);
    g_string_free(html, TRUE);
    for (unsigned i = 0; i < p->nruns; i++)
        row_clear(&rows[i]);
    g_free(rows);
    return ok;
}

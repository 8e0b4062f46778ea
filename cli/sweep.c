// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep.c — `nocprof sweep`: the command line, the plan and run-one
 * (sweep.h; docs/sweeps.md). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "base/file.h"
#include "base/json.h"
#include "cli/cli.h"
#include "cli/sweep.h"

static const char *const sweep_description =
    "Runs FIRMWARE.elf for every combination of the axes (their cross product;\n"
    "the last axis varies fastest). KEY is any configuration key (group.key, as\n"
    "for --set), 'firmware' (values: ELF files, each replacing the positional\n"
    "ones) or 'sample_period' (one period per value). Each run is a normal\n"
    "output folder DIR/runs/run-NNNN; a finished run is not run again, so an\n"
    "interrupted or partly failed sweep resumes where it stopped when the same\n"
    "command is given again. Then DIR/sweep.csv (one row per run: the axis\n"
    "values, the run's status, every core's cycles and instructions, and the\n"
    "self cycles of each --track function per core), DIR/sweep.json and\n"
    "DIR/sweep.html (plots of cycles against every axis, a sortable table,\n"
    "links to each run's report.html) are written.\n"
    "\n"
    "Engines (the same runs, the same results):\n"
    "  local     up to --jobs processes on this host (default: its CPUs), each\n"
    "            run given CPUs/jobs host threads\n"
    "  parallel  GNU parallel (--jobs, --sshloginfile FILE for other hosts,\n"
    "            which must see DIR, the ELFs and nocprof at the same paths)\n"
    "  slurm     DIR/sweep.sbatch, a job array (#SBATCH --array) submitted with\n"
    "            'sbatch --wait'; --dry-run writes the script only\n"
    "\n"
    "  nocprof sweep report DIR        writes sweep.csv, .json, .html again\n"
    "  nocprof sweep run-one DIR N     runs run N of DIR's plan (what every\n"
    "                                  engine executes)\n"
    "\n"
    "Exit status: 0 every run exited with status 0; 1 some run did not (its\n"
    "status is in sweep.csv); 2 usage error, or DIR holds another sweep;\n"
    "5 a sweep file could not be written; 130/143 interrupted (finished runs\n"
    "are kept: run the command again to resume).";

typedef struct SweepOptions {
    char *out, *engine, *config, *max_cycles, *sample_period, *threads, *sshlogins;
    char **axes, **track, **sets, **rest;
    gint jobs;
    gboolean dry_run, no_comm;
} SweepOptions;

static void sweep_options_clear(SweepOptions *o)
{
    g_free(o->out);
    g_free(o->engine);
    g_free(o->config);
    g_free(o->max_cycles);
    g_free(o->sample_period);
    g_free(o->threads);
    g_free(o->sshlogins);
    g_strfreev(o->axes);
    g_strfreev(o->track);
    g_strfreev(o->sets);
    g_strfreev(o->rest);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(SweepOptions, sweep_options_clear)

static void axis_free(gpointer data)
{
    SweepAxis *a = data;
    g_free(a->key);
    g_strfreev(a->values);
    g_free(a);
}

void sweep_plan_free(SweepPlan *p)
{
    if (!p)
        return;
    g_free(p->dir);
    g_free(p->nocprof);
    if (p->axes)
        g_ptr_array_free(p->axes, TRUE);
    g_strfreev(p->firmware);
    g_strfreev(p->run_args);
    g_strfreev(p->track);
    g_free(p);
}

static SweepPlan *plan_new(void)
{
    SweepPlan *p = g_new0(SweepPlan, 1);
    p->axes = g_ptr_array_new_with_free_func(axis_free);
    return p;
}

unsigned sweep_value_index(const SweepPlan *p, unsigned run, unsigned axis)
{
    for (unsigned a = p->axes->len; a-- > axis + 1;)
        run /= ((SweepAxis *)g_ptr_array_index(p->axes, a))->nvalues;
    return run % ((SweepAxis *)g_ptr_array_index(p->axes, axis))->nvalues;
}

char *sweep_run_name(unsigned run)
{
    return g_strdup_printf("run-%04u", run);
}

char *sweep_run_dir(const SweepPlan *p, unsigned run)
{
    g_autofree char *name = sweep_run_name(run);
    return g_build_filename(p->dir, "runs", name, NULL);
}

bool sweep_run_done(const SweepPlan *p, unsigned run, int *status)
{
    g_autofree char *dir = sweep_run_dir(p, run);
    g_autofree char *path = g_build_filename(dir, SWEEP_RUN_STATUS, NULL);
    g_autofree char *text = NULL;
    gsize len;
    if (!base_read_regular(path, 4096, &text, &len, NOCPROF_ERROR_IO, NULL))
        return false;
    const char *s = strstr(text, "\"status\":");
    if (!s)
        return false;
    *status = atoi(s + strlen("\"status\":"));
    return true;
}

/* path against the current folder. When that was deleted (getcwd fails),
 * GLib's answer is "/", which put a sweep into /NAME: the path is then
 * left relative, so that using it fails naming it, as `nocprof run -o
 * NAME` does there. */
static char *absolute(const char *path)
{
    if (g_path_is_absolute(path))
        return g_strdup(path);
    g_autofree char *cwd = getcwd(NULL, 0);
    return cwd ? g_canonicalize_filename(path, cwd) : g_strdup(path);
}

static char *sha256_of(const char *path, GError **error)
{
    g_autofree char *data = NULL;
    gsize len;
    if (!base_read_regular(path, (gsize)1 << 30, &data, &len, NOCPROF_ERROR_USAGE, error))
        return NULL;
    return g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, len);
}

/* ---- the plan as JSON ---------------------------------------------- */

static void member_strv(NpJson *b, const char *name, char **v)
{
    npjson_member_array(b, name);
    for (char **s = v; s && *s; s++)
        npjson_string(b, *s);
    npjson_end_array(b);
}

/* Every firmware file the runs use, with its SHA-256: a resumed sweep
 * whose ELF changed since is refused (its finished runs are of the old). */
static bool member_hashes(NpJson *b, const SweepPlan *p, GError **error)
{
    GPtrArray *files = g_ptr_array_new();
    for (char **f = p->firmware; f && *f; f++)
        g_ptr_array_add(files, *f);
    for (guint a = 0; a < p->axes->len; a++) {
        SweepAxis *ax = g_ptr_array_index(p->axes, a);
        if (strcmp(ax->key, "firmware") == 0)
            for (char **v = ax->values; *v; v++)
                g_ptr_array_add(files, *v);
    }
    npjson_member_object(b, "sha256");
    bool ok = true;
    for (guint i = 0; ok && i < files->len; i++) {
        g_autofree char *h = sha256_of(g_ptr_array_index(files, i), error);
        ok = h != NULL;
        if (ok)
            npjson_member_string(b, g_ptr_array_index(files, i), h);
    }
    npjson_end_object(b);
    g_ptr_array_free(files, TRUE);
    return ok;
}

static GString *plan_json(const SweepPlan *p, GError **error)
{
    NpJson *b = npjson_new();
    npjson_begin_object(b);
    npjson_member_u64(b, "version", 1);
    npjson_member_string(b, "nocprof", p->nocprof);
    npjson_member_array(b, "axes");
    for (guint a = 0; a < p->axes->len; a++) {
        SweepAxis *ax = g_ptr_array_index(p->axes, a);
        npjson_begin_object(b);
        npjson_member_string(b, "key", ax->key);
        member_strv(b, "values", ax->values);
        npjson_end_object(b);
    }
    npjson_end_array(b);
    member_strv(b, "firmware", p->firmware);
    member_strv(b, "run_args", p->run_args);
    member_strv(b, "track", p->track);
    npjson_member_u64(b, "runs", p->nruns);
    if (error && !member_hashes(b, p, error)) {
        npjson_free(b);
        return NULL;
    }
    npjson_end_object(b);
    return npjson_finish(b);
}

GString *sweep_plan_json(const SweepPlan *p)
{
    return plan_json(p, NULL);
}

/* The plan is read back from DIR: untrusted, like profile.data. */
#define SWEEP_PLAN_MAX_DEPTH 8 /* its real depth is 4 */

static bool plan_bad(const SweepPlan *p, GError **error, const char *field, const char *what)
{
    g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "%s/" SWEEP_PLAN_FILE ": %s: %s", p->dir, field, what);
    return false;
}

static bool is_string(JsonNode *n)
{
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING;
}

/* o's member name, an array of strings (absent: none) into *out. */
static bool read_strv(const SweepPlan *p, JsonObject *o, const char *name, const char *field, char ***out,
                      GError **error)
{
    JsonNode *n = json_object_has_member(o, name) ? json_object_get_member(o, name) : NULL;
    if (n && !JSON_NODE_HOLDS_ARRAY(n))
        return plan_bad(p, error, field, "not an array of strings");
    JsonArray *a = n ? json_node_get_array(n) : NULL;
    g_autoptr(GStrvBuilder) sb = g_strv_builder_new();
    for (guint i = 0; a && i < json_array_get_length(a); i++) {
        if (!is_string(json_array_get_element(a, i))) {
            g_autofree char *f = g_strdup_printf("%s[%u]", field, i);
            return plan_bad(p, error, f, "not a string");
        }
        g_strv_builder_add(sb, json_array_get_string_element(a, i));
    }
    *out = g_strv_builder_end(sb);
    return true;
}

static bool axis_from_json(SweepPlan *p, JsonArray *axes, guint a, GError **error)
{
    g_autofree char *field = g_strdup_printf("axes[%u]", a);
    JsonNode *n = json_array_get_element(axes, a);
    if (!JSON_NODE_HOLDS_OBJECT(n))
        return plan_bad(p, error, field, "not an object");
    JsonObject *ao = json_node_get_object(n);
    JsonNode *key = json_object_has_member(ao, "key") ? json_object_get_member(ao, "key") : NULL;
    if (!is_string(key))
        return plan_bad(p, error, field, "no key (a string)");
    SweepAxis *ax = g_new0(SweepAxis, 1);
    g_ptr_array_add(p->axes, ax);
    ax->key = g_strdup(json_node_get_string(key));
    g_autofree char *vfield = g_strconcat(field, ".values", NULL);
    if (!read_strv(p, ao, "values", vfield, &ax->values, error))
        return false;
    ax->nvalues = g_strv_length(ax->values);
    if (!*ax->key || !ax->nvalues || p->nruns > SWEEP_MAX_RUNS / ax->nvalues)
        return plan_bad(p, error, field, "not a valid axis (a key, 1 or more values, at most "
                                         G_STRINGIFY(SWEEP_MAX_RUNS) " runs in all)");
    p->nruns *= ax->nvalues;
    return true;
}

static bool plan_from_json(SweepPlan *p, JsonNode *root, GError **error)
{
    JsonObject *o = JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
    if (!o || !json_object_has_member(o, "axes") || !json_object_has_member(o, "nocprof")) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "%s/" SWEEP_PLAN_FILE ": not a sweep plan", p->dir);
        return false;
    }
    if (!is_string(json_object_get_member(o, "nocprof")))
        return plan_bad(p, error, "nocprof", "not a string");
    p->nocprof = g_strdup(json_object_get_string_member(o, "nocprof"));
    JsonNode *axes = json_object_get_member(o, "axes");
    if (!JSON_NODE_HOLDS_ARRAY(axes))
        return plan_bad(p, error, "axes", "not an array");
    p->nruns = 1;
    for (guint a = 0; a < json_array_get_length(json_node_get_array(axes)); a++)
        if (!axis_from_json(p, json_node_get_array(axes), a, error))
            return false;
    return read_strv(p, o, "firmware", "firmware", &p->firmware, error)
           && read_strv(p, o, "run_args", "run_args", &p->run_args, error)
           && read_strv(p, o, "track", "track", &p->track, error);
}

SweepPlan *sweep_plan_load(const char *dir, GError **error)
{
    g_autoptr(SweepPlan) p = plan_new();
    p->dir = absolute(dir);
    g_autofree char *path = g_build_filename(p->dir, SWEEP_PLAN_FILE, NULL);
    g_autofree char *text = NULL;
    gsize len;
    if (!base_read_regular(path, 16u << 20, &text, &len, NOCPROF_ERROR_USAGE, error))
        return NULL;
    if (!npjson_depth_ok(text, SWEEP_PLAN_MAX_DEPTH)) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "%s: JSON nested deeper than %d levels", path,
                    SWEEP_PLAN_MAX_DEPTH);
        return NULL;
    }
    JsonParser *parser = json_parser_new();
    bool ok = json_parser_load_from_data(parser, text, (gssize)len, error)
              && plan_from_json(p, json_parser_get_root(parser), error);
    g_object_unref(parser);
    if (!ok && error && *error && (*error)->domain != NOCPROF_ERROR) {
        GError *e = g_error_new(NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "%s: %s", path, (*error)->message);
        g_clear_error(error);
        g_propagate_error(error, e);
    }
    return ok ? g_steal_pointer(&p) : NULL;
}

/* ---- the plan from the command line ---------------------------------- */

/* KEY=V1,V2,...: a config key is checked with the config's own parser,
 * so a misspelt key or a value it cannot take is a usage error now, not
 * a failed run later. */
static bool parse_axis(SweepPlan *p, const char *spec, const SweepOptions *o, GError **error)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1]) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--axis %s: expected KEY=V1,V2,...", spec);
        return false;
    }
    SweepAxis *ax = g_new0(SweepAxis, 1);
    ax->key = g_strndup(spec, (gsize)(eq - spec));
    ax->values = g_strsplit(eq + 1, ",", -1);
    ax->nvalues = g_strv_length(ax->values);
    g_ptr_array_add(p->axes, ax);
    for (guint a = 0; a + 1 < p->axes->len; a++)
        if (strcmp(((SweepAxis *)g_ptr_array_index(p->axes, a))->key, ax->key) == 0) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--axis %s given twice", ax->key);
            return false;
        }
    for (char **v = ax->values; *v; v++) {
        if (!**v) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--axis %s: empty value", spec);
            return false;
        }
        if (strcmp(ax->key, "firmware") == 0) {
            char *abs = absolute(*v);
            g_free(*v);
            *v = abs;
            continue;
        }
        Config c;
        config_defaults(&c);
        g_autofree char *set = g_strdup_printf("%s=%s", ax->key, *v);
        bool ok = strcmp(ax->key, "sample_period") == 0 ? config_set_periods(&c, *v, "--axis sample_period", error)
                                                         : config_set(&c, set, error);
        if (!ok) {
            g_prefix_error(error, "--axis: ");
            return false;
        }
    }
    if (strcmp(ax->key, "sample_period") == 0 && o->sample_period) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--sample-period and --axis sample_period exclude each other");
        return false;
    }
    if (p->nruns > SWEEP_MAX_RUNS / ax->nvalues) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "more than %u runs", SWEEP_MAX_RUNS);
        return false;
    }
    p->nruns *= ax->nvalues;
    return true;
}

static char **run_args(const SweepOptions *o)
{
    GStrvBuilder *b = g_strv_builder_new();
    if (o->config) {
        g_autofree char *abs = absolute(o->config);
        g_strv_builder_add_many(b, "-c", abs, NULL);
    }
    for (char **s = o->sets; s && *s; s++)
        g_strv_builder_add_many(b, "--set", *s, NULL);
    if (o->max_cycles)
        g_strv_builder_add_many(b, "--max-cycles", o->max_cycles, NULL);
    if (o->sample_period)
        g_strv_builder_add_many(b, "--sample-period", o->sample_period, NULL);
    if (o->threads)
        g_strv_builder_add_many(b, "--threads", o->threads, NULL);
    if (o->no_comm)
        g_strv_builder_add(b, "--no-comm");
    char **v = g_strv_builder_end(b);
    g_strv_builder_unref(b);
    return v;
}

static SweepPlan *plan_from_options(const SweepOptions *o, GError **error)
{
    g_autoptr(SweepPlan) p = plan_new();
    p->dir = absolute(o->out);
    if (o->engine && strcmp(o->engine, "slurm") == 0 && !sweep_slurm_dir_ok(p->dir, error))
        return NULL;
    p->nocprof = g_file_read_link("/proc/self/exe", error);
    if (!p->nocprof)
        return NULL;
    p->nruns = 1;
    for (char **a = o->axes; a && *a; a++)
        if (!parse_axis(p, *a, o, error))
            return NULL;
    GStrvBuilder *fw = g_strv_builder_new();
    for (char **f = o->rest; f && *f; f++) {
        g_autofree char *abs = absolute(*f);
        g_strv_builder_add(fw, abs);
    }
    p->firmware = g_strv_builder_end(fw);
    g_strv_builder_unref(fw);
    p->run_args = run_args(o);
    p->track = g_strdupv(o->track ? o->track : (char *[]){ NULL });
    return g_steal_pointer(&p);
}

/* A new sweep saves its plan; an existing DIR must hold the same one
 * (then the sweep resumes). */
static bool plan_save_or_match(const SweepPlan *p, GError **error)
{
    GString *json = plan_json(p, error);
    if (!json)
        return false;
    g_autofree char *path = g_build_filename(p->dir, SWEEP_PLAN_FILE, NULL);
    bool ok = true;
    if (g_file_test(path, G_FILE_TEST_EXISTS)) {
        g_autoptr(SweepPlan) q = sweep_plan_load(p->dir, error);
        ok = q != NULL;
        if (ok) {
            g_free(q->nocprof);        /* another build of nocprof may resume it */
            q->nocprof = g_strdup(p->nocprof);
            GString *qj = plan_json(q, error);
            ok = qj != NULL;
            if (ok && !g_string_equal(qj, json))
                g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE,
                            "%s holds another sweep (other axes, options or firmware content: %s); "
                            "give another -o or remove it", p->dir, path);
            ok = ok && g_string_equal(qj, json);
            if (qj)
                g_string_free(qj, TRUE);
        }
    } else if (g_mkdir_with_parents(p->dir, 0755) != 0) {
        g_propagate_error(error, cli_no_output_folder(p->dir));
        ok = false;
    } else {
        ok = cli_write_file(p->dir, SWEEP_PLAN_FILE, json->str, json->len, error);
    }
    g_string_free(json, TRUE);
    return ok;
}

/* ---- run-one: what every engine executes -------------------------------- */

static char **run_argv(const SweepPlan *p, unsigned run, const char *dir)
{
    GStrvBuilder *b = g_strv_builder_new();
    g_strv_builder_add_many(b, p->nocprof, "run", "-q", "--no-progress", "-o", dir, NULL);
    g_strv_builder_addv(b, (const char **)p->run_args);
    const char *threads = g_getenv("NOCPROF_SWEEP_THREADS");
    if (threads && !g_strv_contains((const char *const *)p->run_args, "--threads"))
        g_strv_builder_add_many(b, "--threads", threads, NULL);
    const char *firmware = NULL;
    for (guint a = 0; a < p->axes->len; a++) {
        SweepAxis *ax = g_ptr_array_index(p->axes, a);
        const char *v = ax->values[sweep_value_index(p, run, a)];
        if (strcmp(ax->key, "firmware") == 0) {
            firmware = v;
        } else if (strcmp(ax->key, "sample_period") == 0) {
            g_strv_builder_add_many(b, "--sample-period", v, NULL);
        } else {
            g_autofree char *set = g_strdup_printf("%s=%s", ax->key, v);
            g_strv_builder_add_many(b, "--set", set, NULL);
        }
    }
    if (firmware)
        g_strv_builder_add(b, firmware);
    else
        g_strv_builder_addv(b, (const char **)p->firmware);
    char **v = g_strv_builder_end(b);
    g_strv_builder_unref(b);
    return v;
}

/* Run `run`'s command line as `nocprof run` parses and checks it (options,
 * -c file, --set, the firmware count against the cores), without loading
 * the ELFs: a usage error is the sweep's, before DIR is made, not every
 * run's status 2. */
static bool check_run(const SweepPlan *p, unsigned run, GError **error)
{
    g_auto(GStrv) argv = run_argv(p, run, "out");
    int argc = (int)g_strv_length(argv) - 1;
    g_autofree char **av = g_memdup2(argv + 1, sizeof(char *) * ((gsize)argc + 1)); /* GOption reorders */
    char **parse = av;
    g_auto(Options) o = { 0 };
    Config cfg;
    char demo[] = "demo.elf";
    bool ok = cli_parse_run(&argc, &parse, &o, error) && cli_config(&o, &cfg, error);
    if (ok) {
        unsigned n = config_cores(&cfg);
        g_autofree char **paths = g_new0(char *, n);
        ok = cli_core_paths(&o, n, demo, paths, error);
    }
    if (!ok) {
        g_autoptr(GString) what = g_string_new(NULL);
        for (guint a = 0; a < p->axes->len; a++) {
            SweepAxis *ax = g_ptr_array_index(p->axes, a);
            g_string_append_printf(what, "%s%s=%s", a ? ", " : "", ax->key, ax->values[sweep_value_index(p, run, a)]);
        }
        g_prefix_error(error, "run %u (%s): ", run, what->str);
    }
    return ok;
}

static bool check_runs(const SweepPlan *p, GError **error)
{
    for (unsigned run = 0; run < p->nruns; run++)
        if (!check_run(p, run, error))
            return false;
    return true;
}

/* The exit status of the run, as a shell would give it. */
static int spawn_run(char **argv, const char *log, GError **error)
{
    GSubprocessLauncher *l = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDERR_MERGE);
    g_subprocess_launcher_set_stdout_file_path(l, log);
    GSubprocess *sp = g_subprocess_launcher_spawnv(l, (const char *const *)argv, error);
    g_object_unref(l);
    if (!sp)
        return -1;
    int status = -1;
    if (g_subprocess_wait(sp, NULL, error))
        status = g_subprocess_get_if_exited(sp) ? g_subprocess_get_exit_status(sp)
                                                 : 128 + g_subprocess_get_term_sig(sp);
    g_object_unref(sp);
    return status;
}

static int run_one(const char *dir, const char *index)
{
    GError *err = NULL;
    g_autoptr(SweepPlan) p = sweep_plan_load(dir, &err);
    if (p) {                           /* this nocprof runs it, not whatever the plan names */
        g_free(p->nocprof);
        p->nocprof = g_file_read_link("/proc/self/exe", &err);
        if (!p->nocprof)
            g_clear_pointer(&p, sweep_plan_free);
    }
    char *end = NULL;
    guint64 run = index ? g_ascii_strtoull(index, &end, 10) : 0;
    if (p && (!index || !*index || *end || run >= p->nruns))
        g_set_error(&err, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "run-one: no run '%s' in %s (0 .. %u)",
                    index ? index : "", dir, p->nruns ? p->nruns - 1 : 0);
    g_autofree char *rdir = p && !err ? sweep_run_dir(p, (unsigned)run) : NULL;
    if (rdir && g_mkdir_with_parents(rdir, 0755) != 0)
        g_set_error(&err, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: cannot create: %s", rdir, g_strerror(errno));
    if (err) {
        fprintf(stderr, "nocprof sweep: %s\n", err->message);
        g_error_free(err);
        return EXIT_USAGE;
    }
    g_autofree char *stat_path = g_build_filename(rdir, SWEEP_RUN_STATUS, NULL);
    g_unlink(stat_path);
    g_autofree char *log = g_build_filename(rdir, SWEEP_RUN_LOG, NULL);
    g_auto(GStrv) argv = run_argv(p, (unsigned)run, rdir);
    int status = spawn_run(argv, log, &err);
    if (status < 0) {
        fprintf(stderr, "nocprof sweep: run %s: %s\n", index, err ? err->message : "failed");
        g_clear_error(&err);
        return EXIT_REPORTS;
    }
    if (cli_status_is_signal(status))
        return status;                 /* interrupted: run again on resume */
    g_autofree char *json = g_strdup_printf("{\"run\":%u,\"status\":%d}\n", (unsigned)run, status);
    if (!cli_write_file(rdir, SWEEP_RUN_STATUS, json, strlen(json), &err)) {
        fprintf(stderr, "nocprof sweep: %s\n", err->message);
        g_error_free(err);
        return EXIT_REPORTS;
    }
    return status;
}

/* ---- the command --------------------------------------------------------- */

static bool parse(int *argc, char ***argv, SweepOptions *o, GError **error)
{
    GOptionEntry entries[] = {
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, &o->out, "The sweep's folder (required)", "DIR" },
        { "axis", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->axes, "An axis: a config key (group.key), firmware or sample_period, and its values (repeatable)", "KEY=V1,V2,..." },
        { "engine", 0, 0, G_OPTION_ARG_STRING, &o->engine, "local (default), parallel or slurm", "ENGINE" },
        { "jobs", 'j', 0, G_OPTION_ARG_INT, &o->jobs, "At most N runs at once (default: the host's CPUs; slurm: no limit)", "N" },
        { "track", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->track, "Add FUNC's self cycles per core to sweep.csv (repeatable)", "FUNC" },
        { "sshloginfile", 0, 0, G_OPTION_ARG_FILENAME, &o->sshlogins, "parallel: GNU parallel's --sshloginfile (run on these hosts)", "FILE" },
        { "dry-run", 0, 0, G_OPTION_ARG_NONE, &o->dry_run, "slurm: write DIR/sweep.sbatch, submit nothing", NULL },
        { "config", 'c', 0, G_OPTION_ARG_FILENAME, &o->config, "Every run: this platform configuration", "FILE" },
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->sets, "Every run: override a config key", "SECTION.KEY=VALUE" },
        { "max-cycles", 0, 0, G_OPTION_ARG_STRING, &o->max_cycles, "Every run: cycle limit per core", "N" },
        { "sample-period", 0, 0, G_OPTION_ARG_STRING, &o->sample_period, "Every run: sampling period(s)", "P[,P...]" },
        { "threads", 0, 0, G_OPTION_ARG_STRING, &o->threads, "Every run: host threads (default: CPUs / jobs)", "N" },
        { "no-comm", 0, 0, G_OPTION_ARG_NONE, &o->no_comm, "Every run: no communication profile", NULL },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->rest, NULL, NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    GOptionContext *ctx = g_option_context_new("-o DIR --axis KEY=V1,V2,... [FIRMWARE.elf...] - run a sweep");
    g_option_context_set_description(ctx, sweep_description);
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_help_enabled(ctx, TRUE);
    bool ok = g_option_context_parse(ctx, argc, argv, error);
    g_option_context_free(ctx);
    if (!ok)
        return false;
    const char *why = !o->out ? "-o DIR is required"
                    : !o->axes ? "give at least one --axis KEY=V1,V2,..."
                    : o->jobs < 0 ? "--jobs must be 1 or more"
                    : o->engine && strcmp(o->engine, "local") && strcmp(o->engine, "parallel")
                              && strcmp(o->engine, "slurm") ? "--engine must be local, parallel or slurm"
                    : o->dry_run && (!o->engine || strcmp(o->engine, "slurm")) ? "--dry-run goes with --engine slurm"
                    : NULL;
    if (why)
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "%s (see nocprof sweep --help)", why);
    return why == NULL;
}

static int finish(int status, GError *err)
{
    if (err) {
        fprintf(stderr, "nocprof sweep: %s\n", err->message);
        g_error_free(err);
    }
    return status;
}

static int collect(const SweepPlan *p)
{
    GError *err = NULL;
    unsigned failed = 0;
    if (!sweep_collect(p, &failed, &err))
        return finish(EXIT_REPORTS, err);
    if (failed)
        fprintf(stderr, "nocprof sweep: %u of %u runs did not exit with status 0 (sweep.csv)\n", failed, p->nruns);
    return failed ? EXIT_NONZERO : EXIT_OK;
}

static volatile sig_atomic_t sweep_signal;

static void on_sweep_signal(int sig)
{
    sweep_signal = sig;
}

int cmd_sweep(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "run-one") == 0) {
        if (argc != 4)
            return finish(EXIT_USAGE, g_error_new(NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "usage: nocprof sweep run-one DIR INDEX"));
        return run_one(argv[2], argv[3]);
    }
    if (argc >= 2 && strcmp(argv[1], "report") == 0) {
        GError *err = NULL;
        if (argc != 3)
            return finish(EXIT_USAGE, g_error_new(NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "usage: nocprof sweep report DIR"));
        g_autoptr(SweepPlan) p = sweep_plan_load(argv[2], &err);
        return p ? collect(p) : finish(EXIT_USAGE, err);
    }
    g_auto(SweepOptions) o = { 0 };
    GError *err = NULL;
    if (!parse(&argc, &argv, &o, &err))
        return finish(EXIT_USAGE, err);
    g_autoptr(SweepPlan) p = plan_from_options(&o, &err);
    if (!p || !check_runs(p, &err) || !plan_save_or_match(p, &err))
        return finish(err && err->code == NOCPROF_ERROR_IO ? EXIT_REPORTS : EXIT_USAGE, err);
    struct sigaction sa = { .sa_handler = on_sweep_signal }, old_int, old_term, old_hup;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
    SweepEngineOpts eo = { o.engine ? o.engine : "local", (unsigned)o.jobs, o.sshlogins, o.dry_run };
    bool ok = sweep_engine_run(p, &eo, &err);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    if (!ok)
        return finish(err->code == NOCPROF_ERROR_USAGE ? EXIT_USAGE : EXIT_REPORTS, err);
    if (o.dry_run)
        return EXIT_OK;
    int status = collect(p);
    if (sweep_signal)
        return sweep_signal == SIGTERM ? EXIT_SIGTERM : sweep_signal == SIGHUP ? EXIT_SIGHUP : EXIT_SIGINT;
    return status;
}

bool sweep_interrupted(void)
{
    return sweep_signal != 0;
}

/* main.c — the nocprof command line (SPEC section 4). The only place that
 * prints and exits. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aliasing.h"
#include "callgrind.h"
#include "html_report.h"
#include "collect.h"
#include "config.h"
#include "gmon.h"
#include "machine.h"
#include "report.h"
#include "summary.h"
#include "symbols.h"
#include "trace.h"

extern const unsigned char nocprof_demo_elf[];
extern const unsigned long nocprof_demo_elf_len;

enum { EXIT_OK = 0, EXIT_NONZERO = 1, EXIT_USAGE = 2, EXIT_FAULT = 3, EXIT_LIMIT = 4, EXIT_SIGINT = 130 };

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct Options {
    char *config;
    char *out;
    char **periods;
    char **sets;
    char **core_maps;
    char **elfs;
    gint64 max_cycles;
    gboolean alias_check, quiet, no_profile;
} Options;

static void options_clear(Options *o)
{
    g_free(o->config);
    g_free(o->out);
    g_strfreev(o->periods);
    g_strfreev(o->sets);
    g_strfreev(o->core_maps);
    g_strfreev(o->elfs);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(Options, options_clear)

static void console_line(void *opaque, unsigned core, const char *line)
{
    if (!*(gboolean *)opaque) {
        printf("[core%u] %s\n", core, line);
        fflush(stdout);
    }
}

static const char *run_description =
    "Runs MIPS32 firmware ELF images on the emulated W x H mesh (default 2 x 2)\n"
    "and writes the reports to OUT (default nocprof-out):\n"
    "  summary.txt, summary.json   per-core status, cycles, functions, NoC statistics\n"
    "  noc.txt                     network report\n"
    "  flat.txt, callgraph.txt     chip-wide profiles (all cores summed by function name)\n"
    "  coreN/console.txt           what core N printed\n"
    "  coreN/flat.txt              gprof-style flat profile, exact and sampled\n"
    "  coreN/callgraph.txt         gprof-style call graph with exact children time\n"
    "  coreN/annotated.txt         annotated source listing\n"
    "  coreN/gmon.out              GNU gmon.out (first sampling period); gmon-P.out per further period P\n"
    "  coreN/callgrind.out         the exact profile for KCachegrind / callgrind_annotate\n"
    "  stacks.folded               exact folded stacks of every core (flamegraph.pl, speedscope)\n"
    "  trace.json                  timeline of waits, interrupts and NoC packets (Perfetto)\n"
    "  aliasing.txt, aliasing.svg  when several sampling periods were recorded\n"
    "\n"
    "One ELF runs on every core; N ELFs (N = number of cores) run one per core;\n"
    "--core N=FILE overrides core N. With no ELF the bundled 'pipeline' demo runs.\n"
    "\n"
    "Exit status: 0 every core exited with 0; 1 some core exited non-zero;\n"
    "2 usage, config or ELF error (nothing ran); 3 a core faulted (bus error,\n"
    "NI misuse, unmapped access, reserved instruction, ...); 4 cycle limit reached\n"
    "or deadlock; 130 interrupted (SIGINT). When several apply, the first of\n"
    "130, 3, 4, 1 wins.";

static bool parse_run_options(int *argc, char ***argv, Options *o, GError **error)
{
    GOptionEntry entries[] = {
        { "config", 'c', 0, G_OPTION_ARG_FILENAME, &o->config, "Platform configuration (GKeyFile INI); default: built-in configs/default.ini", "FILE" },
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, &o->out, "Output folder (default nocprof-out)", "DIR" },
        { "sample-period", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->periods, "Sampling period in cycles; repeat or give a comma list to record several periods in one run", "CYCLES" },
        { "alias-check", 0, 0, G_OPTION_ARG_NONE, &o->alias_check, "Also record co-prime neighbours of the (first) sampling period and judge aliasing", NULL },
        { "max-cycles", 0, 0, G_OPTION_ARG_INT64, &o->max_cycles, "Cycle limit per core (default [run] max_cycles = 10^10)", "N" },
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->sets, "Override a configuration key, e.g. --set noc.buffer_depth=2 (repeatable)", "SECTION.KEY=VALUE" },
        { "core", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->core_maps, "Run FILE on core N (repeatable)", "N=FILE" },
        { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "Do not copy console output to stdout", NULL },
        { "no-profile", 0, 0, G_OPTION_ARG_NONE, &o->no_profile, "Run without profiling hooks (only cycles and samples; for benchmarks)", NULL },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->elfs, NULL, "FIRMWARE.elf..." },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    g_set_prgname("nocprof run");
    g_autoptr(GOptionContext) ctx = g_option_context_new("- run firmware on the emulated NoC and profile it");
    g_option_context_set_summary(ctx, "nocprof run: full-system profiler for a multicore MIPS network on chip.");
    g_option_context_set_description(ctx, run_description);
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_strict_posix(ctx, FALSE);
    if (!g_option_context_parse(ctx, argc, argv, error))
        return false;
    return true;
}

static int usage_error(GError *err)
{
    fprintf(stderr, "nocprof: %s\n", err->message);
    g_error_free(err);
    return EXIT_USAGE;
}

/* Atomic for readers: a temporary name in the same folder, then rename.
 * (Not g_file_set_contents: it fsyncs every replaced file, which made
 * re-running into an existing folder up to 0.4 s slower; a report is not
 * worth a crash-durability guarantee.) */
static bool write_out(const char *dir, const char *name, const char *data, gsize len, GError **error)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autofree char *tmp = g_strdup_printf("%s.tmp-%d", path, (int)getpid());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    ok = (f && fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) == 0)
        return true;
    int e = errno;
    g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: %s", path, g_strerror(e));
    unlink(tmp);
    return false;
}

static bool write_gstring(const char *dir, const char *name, GString *s, GError **error)
{
    bool ok = write_out(dir, name, s->str, s->len, error);
    g_string_free(s, TRUE);
    return ok;
}

/* The bundled demo, written next to the reports so symbols can be read. */
static char *materialise_demo(const char *out, GError **error)
{
    g_autofree char *dir = g_build_filename(out, "firmware", NULL);
    if (g_mkdir_with_parents(dir, 0755) != 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: cannot create: %s", dir, g_strerror(errno));
        return NULL;
    }
    if (!write_out(dir, "pipeline.elf", (const char *)nocprof_demo_elf, nocprof_demo_elf_len, error))
        return NULL;
    return g_build_filename(dir, "pipeline.elf", NULL);
}

typedef struct Firmware {
    char *path;
    ElfImage *img;
    Symbols *syms;
} Firmware;

static int find_or_load(GPtrArray *fws, const char *path, const Config *cfg, GError **error)
{
    for (unsigned i = 0; i < fws->len; i++)
        if (strcmp(((Firmware *)g_ptr_array_index(fws, i))->path, path) == 0)
            return (int)i;
    Firmware *fw = g_new0(Firmware, 1);
    fw->path = g_strdup(path);
    fw->img = elf_image_load(path, cfg->ram_size, error);
    if (!fw->img) {
        g_free(fw->path);
        g_free(fw);
        return -1;
    }
    fw->syms = symbols_load(path, error);
    if (!fw->syms) {
        elf_image_free(fw->img);
        g_free(fw->path);
        g_free(fw);
        return -1;
    }
    g_ptr_array_add(fws, fw);
    return (int)fws->len - 1;
}

static void firmware_free(gpointer p)
{
    Firmware *fw = p;
    elf_image_free(fw->img);
    symbols_free(fw->syms);
    g_free(fw->path);
    g_free(fw);
}

static int cmd_run(int argc, char **argv)
{
    g_auto(Options) o = { 0 };
    GError *err = NULL;
    if (!parse_run_options(&argc, &argv, &o, &err))
        return usage_error(err);

    Config cfg;
    config_defaults(&cfg);
    if (o.config && !config_load_file(&cfg, o.config, &err))
        return usage_error(err);
    for (char **s = o.sets; s && *s; s++)
        if (!config_set(&cfg, *s, &err))
            return usage_error(err);
    if (o.max_cycles < 0) {
        fprintf(stderr, "nocprof: --max-cycles: must be positive\n");
        return EXIT_USAGE;
    }
    if (o.max_cycles > 0)
        cfg.max_cycles = (uint64_t)o.max_cycles;
    if (o.periods) {
        g_autofree char *joined = g_strjoinv(",", o.periods);
        if (!config_set_periods(&cfg, joined, "--sample-period", &err))
            return usage_error(err);
    }
    if (o.alias_check) {
        uint32_t extra[7];
        unsigned n = aliasing_neighbours(cfg.periods[0], extra, G_N_ELEMENTS(extra));
        for (unsigned i = 0; i < n; i++)
            if (!config_add_period(&cfg, extra[i], &err))
                return usage_error(err);
    }
    g_autofree char *where = o.sets ? g_strdup_printf("%s%s--set", o.config ? o.config : "",
                                                      o.config ? " with " : "")
                                    : g_strdup(o.config ? o.config : "configuration");
    if (!config_validate(&cfg, where, &err))
        return usage_error(err);
    const unsigned ncores = config_cores(&cfg);
    const char *out = o.out ? o.out : "nocprof-out";

    /* which ELF on which core */
    g_autofree char **paths = g_new0(char *, ncores);
    unsigned nelfs = o.elfs ? g_strv_length(o.elfs) : 0;
    g_autofree char *demo = NULL;
    if (nelfs == 0 && !o.core_maps) {
        demo = materialise_demo(out, &err);
        if (!demo)
            return usage_error(err);
        for (unsigned i = 0; i < ncores; i++)
            paths[i] = demo;
    } else if (nelfs == 1) {
        for (unsigned i = 0; i < ncores; i++)
            paths[i] = o.elfs[0];
    } else if (nelfs == ncores) {
        for (unsigned i = 0; i < ncores; i++)
            paths[i] = o.elfs[i];
    } else if (nelfs != 0) {
        fprintf(stderr, "nocprof: %u firmware files for %u cores: give one (for every core), %u (one per core), "
                "or use --core N=FILE\n", nelfs, ncores, ncores);
        return EXIT_USAGE;
    }
    for (char **m = o.core_maps; m && *m; m++) {
        char *eq = strchr(*m, '=');
        char *end = NULL;
        unsigned long n = eq ? strtoul(*m, &end, 10) : 0;
        if (!eq || end != eq || eq == *m || n >= ncores || !eq[1]) {
            fprintf(stderr, "nocprof: --core %s: expected N=FILE with N in 0 .. %u\n", *m, ncores - 1);
            return EXIT_USAGE;
        }
        paths[n] = eq + 1;
    }
    for (unsigned i = 0; i < ncores; i++)
        if (!paths[i]) {
            fprintf(stderr, "nocprof: core %u has no firmware (give a default ELF or --core %u=FILE)\n", i, i);
            return EXIT_USAGE;
        }

    g_autoptr(GPtrArray) fws = g_ptr_array_new_with_free_func(firmware_free);
    g_autofree int *fw_of = g_new(int, ncores);
    g_autofree ElfImage **imgs = g_new(ElfImage *, ncores);
    for (unsigned i = 0; i < ncores; i++) {
        fw_of[i] = find_or_load(fws, paths[i], &cfg, &err);
        if (fw_of[i] < 0)
            return usage_error(err);
        imgs[i] = ((Firmware *)g_ptr_array_index(fws, (unsigned)fw_of[i]))->img;
        if (imgs[i]->big_endian != imgs[0]->big_endian) {
            fprintf(stderr, "nocprof: %s is %s-endian but %s is %s-endian: all cores of a run share one byte order\n",
                    paths[i], imgs[i]->big_endian ? "big" : "little", paths[0],
                    imgs[0]->big_endian ? "big" : "little");
            return EXIT_USAGE;
        }
    }

    /* nothing is written before every input is known to be good (status 2
     * leaves no reports), except the bundled demo's ELF */
    if (g_mkdir_with_parents(out, 0755) != 0) {
        fprintf(stderr, "nocprof: %s: cannot create output folder: %s\n", out, g_strerror(errno));
        return EXIT_USAGE;
    }
    Machine *m = machine_new(&cfg, imgs, console_line, &o.quiet, &err);
    if (!m) {
        fprintf(stderr, "nocprof: %s\n", err->message);
        g_error_free(err);
        return EXIT_USAGE;
    }
    g_autofree Collector **cols = g_new0(Collector *, ncores);
    if (!o.no_profile)
        for (unsigned i = 0; i < ncores; i++) {
            cols[i] = collector_new(((Firmware *)g_ptr_array_index(fws, (unsigned)fw_of[i]))->syms);
            CoreHooks h = collector_hooks(cols[i]);
            core_set_hooks(m->cores[i], &h);
        }

    noc_log_packets(m->noc, 200000); /* for trace.json */
    struct sigaction sa = { .sa_handler = on_sigint };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    machine_run(m, &interrupted);
    signal(SIGINT, SIG_DFL);

    /* ---- results ---- */
    bool any_fault = false, any_limit = false, any_nonzero = false;
    CoreResult *res = g_new0(CoreResult, ncores);
    Profile **profs = g_new0(Profile *, ncores);
    GString *folded = g_string_new(NULL);      /* every core's stacks */
    for (unsigned i = 0; i < ncores; i++) {
        Core *c = m->cores[i];
        const Symbols *syms = ((Firmware *)g_ptr_array_index(fws, (unsigned)fw_of[i]))->syms;
        CoreResult *r = &res[i];
        r->id = i;
        r->elf = paths[i];
        r->status = core_state_name(c->state);
        r->exit_code = c->exit_code;
        r->instructions = core_instructions(c);
        r->cycles = c->cycles;
        r->busy_cycles = c->cycles - c->idle_cycles;
        r->idle_cycles = c->idle_cycles;
        r->irq_cycles = c->irq_cycles;
        r->interrupts = c->interrupts;
        r->waits = c->waits;
        if (c->state == CORE_FAULT) {
            any_fault = true;
            r->faulted = true;
            r->fault_kind = c->fault.kind;
            r->fault_message = c->fault.message;
            r->fault_pc = c->fault.pc;
            int fi = symbols_lookup(syms, c->fault.pc);
            r->fault_function = fi >= 0 ? symbols_func(syms, (unsigned)fi)->name : NULL;
            SymLine ln = symbols_line(syms, c->fault.pc);
            r->fault_file = ln.file;
            r->fault_line = ln.line;
            GPtrArray *stack = g_ptr_array_new();
            if (cols[i]) {
                unsigned n;
                g_autofree unsigned *fr = collector_stack(cols[i], &n);
                if (!n || (int)fr[0] != fi)
                    g_ptr_array_add(stack, g_strdup(r->fault_function ? r->fault_function : "??"));
                for (unsigned k = 0; k < n; k++)
                    g_ptr_array_add(stack, g_strdup(fr[k] < symbols_count(syms) ? symbols_func(syms, fr[k])->name : "??"));
            } else if (r->fault_function) {
                g_ptr_array_add(stack, g_strdup(r->fault_function));
            }
            g_ptr_array_add(stack, NULL);
            r->fault_stack = (char **)g_ptr_array_free(stack, FALSE);
        } else if (c->state == CORE_LIMIT || c->state == CORE_DEADLOCK) {
            any_limit = true;
        } else if (c->state == CORE_EXITED && c->exit_code != 0) {
            any_nonzero = true;
        }
        if (cols[i]) {
            collector_finish(cols[i], c->cycles);
            g_autofree char *prefix = g_strdup_printf("core%u", i);
            GString *f = collector_folded(cols[i], prefix);
            g_string_append_len(folded, f->str, (gssize)f->len);
            g_string_free(f, TRUE);
            profs[i] = collector_profile(cols[i], c, paths[i], (double)cfg.clock_hz);
            r->prof = profs[i];
        }
    }
    int status = interrupted ? EXIT_SIGINT : any_fault ? EXIT_FAULT : any_limit ? EXIT_LIMIT
               : any_nonzero ? EXIT_NONZERO : EXIT_OK;

    for (unsigned i = 0; i < ncores; i++)
        if (res[i].faulted)
            fprintf(stderr, "nocprof: core %u: %s fault at pc 0x%08x in %s (%s:%u): %s\n", i, res[i].fault_kind,
                    res[i].fault_pc, res[i].fault_function ? res[i].fault_function : "??",
                    res[i].fault_file ? res[i].fault_file : "??", res[i].fault_line, res[i].fault_message);
    if (m->deadlock)
        fprintf(stderr, "nocprof: deadlock: every live core waits and nothing can wake any of them\n");
    for (unsigned i = 0; i < ncores; i++)
        if (m->cores[i]->state == CORE_LIMIT)
            fprintf(stderr, "nocprof: core %u: cycle limit (%" G_GUINT64_FORMAT ") reached\n", i, cfg.max_cycles);

    /* ---- reports ---- */
    NocStats *ns = noc_stats(m->noc);
    AliasAnalysis *alias = NULL;
    g_autofree char *alias_json = NULL;
    bool have_profiles = !o.no_profile;
    if (have_profiles && cfg.nperiods > 1) {
        alias = aliasing_analyse((const Profile *const *)profs, ncores);
        GString *j = aliasing_json(alias);
        alias_json = g_string_free(j, FALSE);
    }
    RunInfo run = { .cfg = &cfg, .config_path = o.config, .ncores = ncores, .cores = res, .noc = ns,
                    .deadlock = m->deadlock, .exit_status = status, .aliasing_json = alias_json };
    bool ok = write_gstring(out, "summary.json", summary_json(&run), &err)
           && write_gstring(out, "summary.txt", summary_text(&run), &err)
           && write_gstring(out, "noc.txt", noc_report(ns, &cfg), &err);
    for (unsigned i = 0; ok && i < ncores; i++) {
        g_autofree char *name = g_strdup_printf("core%u", i);
        g_autofree char *dir = g_build_filename(out, name, NULL);
        if (g_mkdir_with_parents(dir, 0755) != 0) {
            g_set_error(&err, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: cannot create: %s", dir, g_strerror(errno));
            ok = false;
            break;
        }
        Core *c = m->cores[i];
        ok = write_out(dir, "console.txt", c->console->str, c->console->len, &err);
        if (!ok || !profs[i])
            continue;
        ok = write_gstring(dir, "flat.txt", report_flat(profs[i]), &err)
          && write_gstring(dir, "callgraph.txt", report_callgraph(profs[i]), &err)
          && write_gstring(dir, "annotated.txt", report_annotated(profs[i]), &err)
          && write_gstring(dir, "callgrind.out", callgrind_build(profs[i]), &err);
        for (unsigned h = 0; ok && h < profs[i]->nperiods; h++) {
            /* big-endian: no basic-block record, or binutils 2.40's
             * `mips-linux-gnu-gprof -s` writes a sum it cannot read back
             * (docs/reports.md); line counts are in annotated.txt */
            GByteArray *g = gmon_build_flags(profs[i], h,
                                             symbols_big_endian(profs[i]->syms) ? GMON_NO_BLOCKS : GMON_DEFAULT,
                                             &err);
            if (!g) {
                ok = false;
                break;
            }
            g_autofree char *gname = h == 0 ? g_strdup("gmon.out") : g_strdup_printf("gmon-%u.out", profs[i]->hists[h].period);
            ok = write_out(dir, gname, (const char *)g->data, g->len, &err);
            g_byte_array_unref(g);
        }
    }
    if (ok && have_profiles) {
        Profile *chip = profile_merge((const Profile *const *)profs, ncores);
        ok = write_gstring(out, "flat.txt", report_flat(chip), &err)
          && write_gstring(out, "callgraph.txt", report_callgraph(chip), &err);
        profile_free(chip);
    }
    if (ok) {
        TraceCore *tc = g_new0(TraceCore, ncores);
        g_autoptr(GPtrArray) whats = g_ptr_array_new_with_free_func(g_free);
        for (unsigned i = 0; i < ncores; i++) {
            char *what = res[i].faulted ? g_strdup_printf("fault: %s", res[i].fault_kind)
                       : m->cores[i]->state == CORE_EXITED ? g_strdup_printf("exit %d", res[i].exit_code)
                       : g_strdup(res[i].status);
            g_ptr_array_add(whats, what);
            tc[i] = (TraceCore){ .id = i, .col = cols[i], .end_cycle = res[i].cycles, .end_what = what };
        }
        ok = write_gstring(out, "trace.json", trace_build(tc, ncores, m->noc, (double)cfg.clock_hz), &err);
        g_free(tc);
    }
    if (ok && have_profiles)
        ok = write_gstring(out, "stacks.folded", folded, &err);
    else
        g_string_free(folded, TRUE);
    if (ok && alias)
        ok = write_gstring(out, "aliasing.txt", aliasing_report(alias), &err)
          && write_gstring(out, "aliasing.svg", aliasing_svg(alias), &err);
    if (ok) /* last: it embeds summary.json, stacks.folded and trace.json */
        ok = html_report_write(out, (const Profile *const *)profs, ncores, &err);
    if (!ok) {
        fprintf(stderr, "nocprof: writing reports: %s\n", err->message);
        g_error_free(err);
    }

    aliasing_free(alias);
    noc_stats_free(ns);
    for (unsigned i = 0; i < ncores; i++) {
        profile_free(profs[i]);
        collector_free(cols[i]);
        g_strfreev(res[i].fault_stack);
    }
    g_free(profs);
    g_free(res);
    machine_free(m);
    return status;
}

static const char *top_help =
    "Usage: nocprof COMMAND [OPTIONS]\n"
    "\n"
    "Full-system profiler for a multicore MIPS network on chip: runs firmware\n"
    "ELF images headless on emulated MIPS32 cores joined by a mesh NoC and\n"
    "reports, per core, where the cycles go.\n"
    "\n"
    "Commands:\n"
    "  run [OPTIONS] FIRMWARE.elf...   run and profile (see 'nocprof run --help')\n"
    "\n"
    "Options:\n"
    "  -h, --help      this help\n"
    "  --version       print the version\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(top_help, stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        fputs(top_help, stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("nocprof 0.1.0\n");
        return EXIT_OK;
    }
    if (strcmp(argv[1], "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    fprintf(stderr, "nocprof: unknown command '%s'\n%s", argv[1], top_help);
    return EXIT_USAGE;
}

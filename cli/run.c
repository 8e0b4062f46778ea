// SPDX-License-Identifier: GPL-2.0-or-later
/* run.c — `nocprof run`: load the firmware, run the machine with the
 * profiler's collectors, gather each core's outcome, write the reports. */
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "emu/debug.h"
#include "emu/engine.h"
#include "nocprof/platform.h"
#include "profiler/model/fname.h"
#include "profiler/model/srcpath.h"
#include "profiler/report/summary.h"
#include "cli/cli.h"
#include "gdb/gdbstub.h"

extern const unsigned char nocprof_demo_elf[];
extern const unsigned long nocprof_demo_elf_len;

static int usage_error(GError *err)
{
    fprintf(stderr, "nocprof: %s\n", err->message);
    g_error_free(err);
    return EXIT_USAGE;
}

/* The bundled demo: written to a private temporary folder to be loaded
 * from there (so a run that cannot start leaves nothing in OUT), and into
 * OUT/firmware/pipeline.elf once the machine stands, where the reports name
 * it. Returns the temporary file. */
static char *demo_tmp_pending;  /* removed at exit if the emulator exit()s */

static void demo_tmp_at_exit(void)
{
    if (demo_tmp_pending) {
        g_autofree char *dir = g_path_get_dirname(demo_tmp_pending);
        g_unlink(demo_tmp_pending);
        g_rmdir(dir);
    }
}

static char *demo_to_temp(GError **error)
{
    g_autofree char *dir = g_dir_make_tmp("nocprof-demo-XXXXXX", error);
    if (!dir)
        return NULL;
    if (!cli_write_file(dir, "pipeline.elf", (const char *)nocprof_demo_elf, nocprof_demo_elf_len, error)) {
        g_rmdir(dir);
        return NULL;
    }
    demo_tmp_pending = g_build_filename(dir, "pipeline.elf", NULL);
    atexit(demo_tmp_at_exit);
    return g_strdup(demo_tmp_pending);
}

static void demo_temp_remove(char *tmp)
{
    g_clear_pointer(&demo_tmp_pending, g_free);
    if (!tmp)
        return;
    g_autofree char *dir = g_path_get_dirname(tmp);
    g_unlink(tmp);
    g_rmdir(dir);
    g_free(tmp);
}

static bool demo_to_out(const char *demo, GError **error)
{
    g_autofree char *dir = g_path_get_dirname(demo);
    if (g_mkdir_with_parents(dir, 0755) != 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: cannot create: %s", dir, g_strerror(errno));
        return false;
    }
    return cli_write_file(dir, "pipeline.elf", (const char *)nocprof_demo_elf, nocprof_demo_elf_len, error);
}

static void firmware_free(gpointer p)
{
    Firmware *fw = p;
    elf_image_free(fw->img);
    symbols_free(fw->syms);
    g_free(fw->path);
    g_free(fw->sha256);
    g_free(fw);
}

static int find_or_load(GPtrArray *fws, const char *path, const Config *cfg, GError **error)
{
    for (unsigned i = 0; i < fws->len; i++)
        if (strcmp(((Firmware *)g_ptr_array_index(fws, i))->path, path) == 0)
            return (int)i;
    Firmware *fw = g_new0(Firmware, 1);
    fw->path = g_strdup(path);
    fw->img = elf_image_load(path, cfg->ram_size, error);
    if (fw->img)
        fw->syms = symbols_load_max(path, cfg->max_functions, error);
    if (fw->syms)
        fw->sha256 = profile_data_file_sha256(path, error);
    if (!fw->sha256) {
        firmware_free(fw);
        return -1;
    }
    g_ptr_array_add(fws, fw);
    return (int)fws->len - 1;
}

static const Firmware *firmware_of(const Run *r, unsigned core)
{
    return g_ptr_array_index(r->fws, (unsigned)r->fw_of[core]);
}

/* Load every core's ELF once; all must share one byte order. */
static bool load_firmware(Run *r, ElfImage **imgs, GError **error)
{
    for (unsigned i = 0; i < r->ncores; i++) {
        const char *from = r->demo_tmp && strcmp(r->paths[i], r->demo) == 0 ? r->demo_tmp : r->paths[i];
        r->fw_of[i] = find_or_load(r->fws, from, &r->cfg, error);
        if (r->fw_of[i] < 0)
            return false;
        imgs[i] = firmware_of(r, i)->img;
        if (imgs[i]->big_endian != imgs[0]->big_endian) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF,
                        "%s is %s-endian but %s is %s-endian: all cores of a run share one byte order",
                        r->paths[i], imgs[i]->big_endian ? "big" : "little", r->paths[0],
                        imgs[0]->big_endian ? "big" : "little");
            return false;
        }
    }
    return true;
}

/* "--OPT NAME: no such function in ELF; did you mean ...?" */
static void no_such_function(const Symbols *syms, const char *opt, const char *name, const char *elf,
                             GError **error)
{
    unsigned n = symbols_count(syms);
    g_autofree const char **names = g_new(const char *, n + 1);
    for (unsigned j = 0; j < n; j++)
        names[j] = symbols_func(syms, j)->name;
    g_autofree char *hint = fname_suggest(name, names, n);
    g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--%s %s: no such function in %s%s", opt, name, elf,
                hint);
}

/* --focus / --exclude name functions of core i's ELF, or GCC clones of
 * them (checked before the run: a typo is a usage error, not a lost run). */
static bool check_filter_names(Run *r, unsigned i, GError **error)
{
    const Symbols *syms = firmware_of(r, i)->syms;
    for (unsigned k = 0; k < 2; k++)
        for (char **f = k ? r->opts->exclude : r->opts->focus; f && *f; f++) {
            const char *slash = k ? strrchr(*f, '/') : NULL;
            g_autofree char *name = slash && strcmp(slash, "/time") == 0 ? g_strndup(*f, (gsize)(slash - *f))
                                                                        : g_strdup(*f);
            bool found = false;
            for (unsigned j = 0; j < symbols_count(syms) && !found; j++)
                found = fname_match(symbols_func(syms, j)->name, name, NULL);
            if (!found) {
                no_such_function(syms, k ? "exclude" : "focus", name, r->paths[i], error);
                return false;
            }
        }
    return true;
}

/* Core i's collector: trace limit, regions of interest (--collect-only,
 * --collect-initially), hooked on the core. */
static Collector *make_collector(Run *r, unsigned i, GError **error)
{
    const Options *o = r->opts;
    Collector *col = collector_new(firmware_of(r, i)->syms);
    collector_set_event_limit(col, cli_trace_limit(o));
    collector_set_context_limit(col, r->cfg.max_contexts);
    collector_bind_core(col, r->m->cores[i]);
    for (char **f = o->collect_only; f && *f; f++)
        if (!collector_collect_only(col, *f)) {
            no_such_function(firmware_of(r, i)->syms, "collect-only", *f, r->paths[i], error);
            collector_free(col);
            return NULL;
        }
    if (o->collect_initially)
        collector_collect_initially(col, strcmp(o->collect_initially, "yes") == 0);
    if (!check_filter_names(r, i, error)) {
        collector_free(col);
        return NULL;
    }
    CoreHooks h = collector_hooks(col);
    core_set_hooks(r->m->cores[i], &h);
    return col;
}

/* Build the machine and hang a collector on every core. The output folder
 * is made only once the machine stands: nothing is written before every
 * input is known to be good and the emulator has started (status 2 leaves
 * no output folder). */
static bool start_machine(Run *r, ElfImage **imgs, GError **error)
{
    r->echo.quiet = r->opts->quiet;
    r->m = machine_new(&r->cfg, imgs, cli_console_line, &r->echo, error);
    if (!r->m)
        return false;
    r->cols = g_new0(Collector *, r->ncores);
    if (!r->opts->no_profile)
        for (unsigned i = 0; i < r->ncores; i++)
            if (!(r->cols[i] = make_collector(r, i, error)))
                return false;
    if (!r->opts->no_profile && !r->opts->no_comm) { /* the communication profile */
        r->comm = comm_new(r->ncores, r->cols, cli_trace_limit(r->opts));
        for (unsigned i = 0; i < r->ncores; i++) {
            collector_attach_core(r->cols[i], r->m->cores[i]);
            machine_observe_ni(r->m, i, comm_observer, comm_core(r->comm, i));
        }
    }
    if (g_mkdir_with_parents(r->out, 0755) != 0) {
        g_propagate_error(error, cli_no_output_folder(r->out));
        return false;
    }
    cli_console_start(&r->echo, r->out, r->ncores);
    noc_log_packets(r->m->noc, cli_trace_limit(r->opts)); /* for trace.json */
    return true;
}

static void run_machine(Run *r)
{
    /* none under gdb: reverse execution forks the process (one thread) */
    Progress *pr = progress_start(r->m, r->cfg.max_cycles,
                                  r->opts->no_progress || r->opts->gdb ? -1 : r->opts->progress ? 1 : 0);
    machine_run(r->m, &cli_interrupted);
    progress_stop(pr);
    if (r->m->nthreads < r->m->threads_wanted)
        fprintf(stderr, "nocprof: warning: could start %u of %u host threads (the system refused more: "
                        "ulimit -v, -u?); the others ran their cores, the results are the same\n",
                r->m->nthreads, r->m->threads_wanted);
    cli_signals_writing();
}

/* Where core i faulted: function, line and the shadow call stack. */
static void fault_of(Run *r, unsigned i)
{
    Core *c = r->m->cores[i];
    const Symbols *syms = firmware_of(r, i)->syms;
    CoreResult *res = &r->res[i];
    res->faulted = true;
    const CoreFault *fault = core_fault(c);
    res->fault_kind = profile_data_intern(&r->data, fault->kind);
    res->fault_message = profile_data_intern(&r->data, fault->message);
    g_autofree char *described = fault->has_data ? cli_describe_fault(syms, c, fault->message, fault->data) : NULL;
    if (described)
        res->fault_message = profile_data_intern(&r->data, described);
    res->fault_pc = fault->pc;
    res->fault_has_regs = fault->has_regs;
    G_STATIC_ASSERT(sizeof res->fault_regs == sizeof fault->regs);
    memcpy(res->fault_regs, fault->regs, sizeof res->fault_regs);
    /* a fetch fault is located at the jump that went there: what is (or
     * is not) at the target says nothing about where the code went wrong;
     * kseg1 runs kseg0's code */
    uint32_t code = symbols_code_addr(syms, fault->site ? fault->site : fault->pc);
    int fi = symbols_lookup(syms, code);
    res->fault_function = profile_data_intern(&r->data, fi >= 0 ? symbols_func(syms, (unsigned)fi)->name : NULL);
    SymLine ln = symbols_line(syms, code);
    res->fault_file = profile_data_intern(&r->data, ln.file);
    res->fault_line = ln.line;
    GPtrArray *stack = g_ptr_array_new();
    if (r->cols[i]) {
        unsigned n, skip = 0;
        g_autofree unsigned *fr = collector_stack(r->cols[i], &n);
        /* a frame the jump's target opened (a call into the middle of a
         * function) is not where the core was: start at the jump's */
        while (fault->site && fi >= 0 && skip < n && (int)fr[skip] != fi)
            skip++;
        if (skip == n)
            skip = 0;
        if (n == skip || (int)fr[skip] != fi)
            g_ptr_array_add(stack, g_strdup(res->fault_function ? res->fault_function : "??"));
        for (unsigned k = skip; k < n;)
            k += cli_fold_frames(stack, syms, fr + k, n - k);
        unsigned nr;
        g_autofree uint32_t *ret = collector_stack_ret(r->cols[i], &nr);
        res->fault_frames = cli_frames_of(&r->data, &res->nfault_frames, syms, fi, code, core_read_cp0(c, NP_CP0_EPC), fr, ret,
                                      skip, n);
    } else { /* no shadow stack (--no-profile): the ELF's call frame information */
        res->fault_frames = cli_frames_unwound(&r->data, &res->nfault_frames, stack, syms, c, code,
                                               fault->site ? code : fault->regs_pc, fault->has_regs ? fault->regs : NULL);
    }
    g_ptr_array_add(stack, NULL);
    res->fault_stack = (char **)g_ptr_array_free(stack, FALSE);
}

/* The SDK runtime's functions (rt_*, and the functions of its own
 * nocprof.c): a stuck core is reported at its firmware's call into them.
 * The compilation unit decides, not the function's first line: a
 * firmware function whose loop starts with an inlined rt_mmio_read has
 * its first line in nocprof.h, and is the firmware's. */
static bool runtime_function(const Symbols *syms, int fi)
{
    if (fi < 0)
        return false;
    const SymFunc *f = symbols_func(syms, (unsigned)fi);
    if (f->name && g_str_has_prefix(f->name, "rt_"))
        return true;
    const char *unit = symbols_unit_file(syms, f->addr);
    g_autofree char *base = unit ? g_path_get_basename(unit) : NULL;
    return base && strcmp(base, "nocprof.c") == 0;
}

/* The source line of a waiting site: at a runtime function the compiler
 * inlined into the firmware's (rt_mmio_read in a poll loop of its own),
 * the line of that inline call, not the header's. */
static void wait_site_line(Run *r, const Symbols *syms, uint32_t site, CoreResult *res)
{
    SymLine ln = symbols_line(syms, site);
    res->wait_file = profile_data_intern(&r->data, ln.file);
    res->wait_line = ln.line;
    SymInlineCtx *x = symbols_inline_open(syms);
    if (!x)
        return;
    SymInline v[16];
    unsigned n = symbols_inline_at(x, site, v, G_N_ELEMENTS(v));
    for (unsigned j = 0; j < n && v[j].name && g_str_has_prefix(v[j].name, "rt_") && v[j].call_file; j++) {
        res->wait_file = profile_data_intern(&r->data, v[j].call_file);
        res->wait_line = v[j].call_line;
    }
    symbols_inline_clear(v, n);
    symbols_inline_close(x);
}

/* Why a spin on the word at addr waits: the word, by its variable's
 * name when the symbol table has one (symbols_data_at: "flag" or
 * "pair+4, in the 8-byte object pair"). */
static char *ram_why(const Symbols *syms, uint32_t addr)
{
    g_autofree char *obj = symbols_data_at(syms, addr);
    char *cut = obj ? strstr(obj, ", in the ") : NULL;
    if (cut && !strchr(obj, '+'))
        *cut = '\0'; /* the whole object: its name says it */
    return g_strdup_printf("it loads the word at 0x%08x in its own RAM%s%s%s, which nothing in the loop writes: "
                           "only an interrupt handler (or a debugger) could change it",
                           addr, obj ? " (" : "", obj ? obj : "", obj ? ")" : "");
}

/* A stuck core: what it waited for, and where in the firmware (the
 * shadow call stack walked out of the runtime's functions). */
static void wait_of(Run *r, unsigned i)
{
    static const char *const kinds[] = {
        [MACH_WAIT_RX] = "receive", [MACH_WAIT_TX] = "transmit", [MACH_WAIT_IRQ] = "interrupt",
        [MACH_WAIT_RAM] = "memory",
    };
    CoreResult *res = &r->res[i];
    const MachWait *w = r->m->waits ? &r->m->waits[i] : NULL;
    if (!w || w->kind == MACH_WAIT_NONE)
        return;
    res->wait_for = kinds[w->kind];
    res->wait_peer = w->kind == MACH_WAIT_TX ? w->peer : -1;
    res->wait_asleep = w->asleep;
    const Symbols *syms = firmware_of(r, i)->syms;
    /* without a shadow stack (--no-profile): from its last poll or `wait` */
    uint32_t site = !r->cols[i] ? w->pc : res->stop_pc;
    int fi = symbols_lookup(syms, site);
    if (w->kind == MACH_WAIT_RAM && symbols_lookup(syms, w->pc) == fi)
        site = w->pc; /* a spin: its load, not the loop's first line */
    if (r->cols[i]) {
        unsigned n, nr, k = 0;
        g_autofree unsigned *fr = collector_stack(r->cols[i], &n);
        g_autofree uint32_t *ret = collector_stack_ret(r->cols[i], &nr);
        for (unsigned j = 0; j < n; j++)
            if (ret[j] == 1)
                k = j + 1; /* stopped in an interrupt: where it polled or waited */
        if (k) {
            site = w->pc;
            fi = symbols_lookup(syms, site);
            /* interrupted after its `wait`, in another runtime function
             * (rt_interrupts_on of the race-free pattern): from there */
            if (k < n && (int)fr[k] != fi && runtime_function(syms, (int)fr[k]))
                fi = (int)fr[k];
        }
        for (; k < n && (int)fr[k] == fi && ret[k] >= 8 && runtime_function(syms, fi); k++) {
            site = ret[k] - 8; /* the call (jal and its delay slot) */
            fi = symbols_lookup(syms, site);
        }
    } else if (runtime_function(syms, fi)) { /* no shadow stack: the ELF's CFI, from where it stopped */
        unsigned n, k = 0, e = 0;
        g_autofree char *why = NULL;
        Core *c = r->m->cores[i];
        g_autofree uint32_t *pcs = cli_unwind(syms, c, res->stop_pc, res->stop_pc, NULL, &n, &why);
        uint32_t epc = symbols_code_addr(syms, core_read_cp0(c, NP_CP0_EPC));
        for (unsigned j = 1; j < n; j++)
            if (pcs[j] == epc)
                e = j; /* stopped in an interrupt: the frame it came at */
        for (k = e; k < n && symbols_lookup(syms, pcs[k]) != fi;)
            k++; /* the frame of the poll or `wait` */
        if (k == n && e && runtime_function(syms, symbols_lookup(syms, pcs[e])))
            fi = symbols_lookup(syms, pcs[k = e]); /* interrupted after its `wait`, in another runtime function */
        for (k++; k < n && runtime_function(syms, fi); k++) {
            site = pcs[k]; /* each caller's call */
            fi = symbols_lookup(syms, site);
        }
    }
    res->wait_pc = site;
    res->wait_function = profile_data_intern(&r->data, fi >= 0 ? symbols_func(syms, (unsigned)fi)->name : NULL);
    wait_site_line(r, syms, site, res);
    if (w->kind == MACH_WAIT_IRQ) {
        g_autofree char *why = core_irq_explain(r->m->cores[i]);
        res->wait_why = profile_data_intern(&r->data, why);
    } else if (w->kind == MACH_WAIT_RAM) {
        g_autofree char *why = ram_why(syms, w->addr);
        res->wait_why = profile_data_intern(&r->data, why);
    }
}

/* A core stopped while live (deadlock, livelock, the cycle limit, an
 * interruption): where, and its call stack there, as a fault's. */
static void stop_of(Run *r, unsigned i)
{
    Core *c = r->m->cores[i];
    CoreResult *res = &r->res[i];
    const Symbols *syms = firmware_of(r, i)->syms;
    res->stop_pc = core_pc(c);
    uint32_t code = symbols_code_addr(syms, res->stop_pc); /* kseg1 runs kseg0's code */
    int fi = symbols_lookup(syms, code);
    res->stop_function = profile_data_intern(&r->data, fi >= 0 ? symbols_func(syms, (unsigned)fi)->name : NULL);
    SymLine ln = symbols_line(syms, code);
    res->stop_file = profile_data_intern(&r->data, ln.file);
    res->stop_line = ln.line;
    if (!r->cols[i]) { /* no shadow stack (--no-profile): the ELF's call frame information */
        res->stop_frames = cli_frames_unwound(&r->data, &res->nstop_frames, NULL, syms, c, code, code, NULL);
        return;
    }
    unsigned n = 0, nr;
    g_autofree unsigned *fr = collector_stack(r->cols[i], &n);
    g_autofree uint32_t *ret = collector_stack_ret(r->cols[i], &nr);
    res->stop_frames = cli_frames_of(&r->data, &res->nstop_frames, syms, fi, code, core_read_cp0(c, NP_CP0_EPC), fr, ret,
                                 0, n);
}

/* Core i's outcome and profile; returns its contribution to the status. */
static int core_outcome(Run *r, unsigned i)
{
    Core *c = r->m->cores[i];
    CoreResult *res = &r->res[i];
    int status = EXIT_OK;
    res->id = i;
    res->elf = profile_data_intern(&r->data, r->paths[i]);
    r->data.elf_abs[i] = g_canonicalize_filename(r->paths[i], NULL);
    r->data.elf_sha256[i] = g_strdup(firmware_of(r, i)->sha256);
    size_t clen;
    const char *console = core_console(c, &clen);
    r->data.console[i] = cli_console_data(console, clen, core_console_total(c));
    CoreState st = core_state(c);
    res->status = profile_data_intern(&r->data, core_state_name(st));
    res->exit_code = core_exit_code(c);
    res->instructions = core_instructions(c);
    res->cycles = core_cycles(c);
    res->busy_cycles = core_cycles(c) - core_idle_cycles(c);
    res->idle_cycles = core_idle_cycles(c);
    res->irq_cycles = core_irq_cycles(c);
    res->interrupts = core_interrupts(c);
    res->waits = core_waits(c);
    res->stack_lowest = core_stack_lowest(c);
    res->stack_used = core_stack_top(c) - MIN(core_stack_top(c), core_stack_lowest(c));
    res->i1_accesses = cache_count(c, CACHE_I_ACCESS);
    res->i1_misses = cache_count(c, CACHE_I_MISS);
    res->d1_accesses = cache_count(c, CACHE_D_ACCESS);
    res->d1_read_misses = cache_count(c, CACHE_D_RMISS);
    res->d1_write_misses = cache_count(c, CACHE_D_WMISS);
    res->d1_writebacks = cache_count(c, CACHE_D_WBACK);
    res->cache_cycles = cache_count(c, CACHE_CYCLES);
    if (st == CORE_DEADLOCK || st == CORE_LIMIT || st == CORE_INTERRUPTED)
        stop_of(r, i);
    res->wait_peer = -1;
    if (st == CORE_DEADLOCK)
        wait_of(r, i);
    if (st == CORE_FAULT) {
        fault_of(r, i);
        status = EXIT_FAULT;
    } else if (st == CORE_LIMIT || st == CORE_DEADLOCK) {
        status = EXIT_LIMIT;
    } else if (st == CORE_EXITED && res->exit_code != 0) {
        status = EXIT_NONZERO;
    }
    if (r->cols[i]) {
        collector_finish(r->cols[i], core_cycles(c));
        r->profs[i] = collector_profile(r->cols[i], c, r->paths[i], (double)r->cfg.clock_hz);
        res->prof = r->profs[i];
    }
    return status;
}

/* Every core's outcome; the run's status (the first of 130, 3, 4, 1). */
static void gather(Run *r)
{
    bool seen[EXIT_LIMIT + 1] = { false };
    profile_data_init(&r->data, r->ncores);
    r->data.cfg = r->cfg;
    r->data.config_path = g_strdup(r->opts->config);
    r->data.fold_recursion = (unsigned)r->opts->fold_recursion;
    r->data.no_trace = r->opts->no_trace;
    r->data.events = r->opts->events;
    r->data.focus = r->opts->focus;       /* names checked before the run */
    r->data.exclude = r->opts->exclude;
    r->data.annotate = r->opts->annotate;
    r->data.source_dirs = r->opts->source_dirs;
    r->data.source_maps = r->opts->source_maps;
    r->res = r->data.cores;
    r->profs = r->data.profs;
    for (unsigned i = 0; i < r->ncores; i++)
        seen[core_outcome(r, i)] = true;
    r->status = cli_signal_status() ? cli_signal_status() : seen[EXIT_FAULT] ? EXIT_FAULT : seen[EXIT_LIMIT] ? EXIT_LIMIT
              : seen[EXIT_NONZERO] ? EXIT_NONZERO : EXIT_OK;
    r->data.noc = noc_stats(r->m->noc);
    const NocPacketRecord *pk = noc_packet_log(r->m->noc, &r->data.npackets, &r->data.packets_dropped);
    r->data.packets = r->data.npackets ? g_memdup2(pk, sizeof *pk * r->data.npackets) : NULL;
    r->data.deadlock = r->m->deadlock;
    r->data.livelock = r->m->livelock;
    r->data.end_cycle = r->m->end_cycle;
    if (r->echo.stopped && r->echo.error != EPIPE && r->status < EXIT_REPORTS)
        r->status = EXIT_REPORTS;   /* stdout failed (not closed by a reader) */
    r->data.exit_status = r->status;
    if (r->comm) {
        g_autofree uint64_t *finish = g_new(uint64_t, r->ncores);
        for (unsigned i = 0; i < r->ncores; i++)
            finish[i] = r->res[i].cycles;
        r->data.comm = comm_analyse(r->comm, finish);
    }
}

static void print_outcome(const Run *r)
{
    for (unsigned i = 0; i < r->ncores; i++) {
        const CoreResult *c = &r->res[i];
        if (c->faulted) {
            g_autoptr(GString) where = g_string_new(NULL);
            summary_fault_where(where, c);
            fprintf(stderr, "nocprof: core %u: %s fault at pc 0x%08x in %s: %s\n", i, c->fault_kind, c->fault_pc,
                    where->str, c->fault_message);
            g_autoptr(GString) bt = g_string_new(NULL);
            summary_frames(bt, c->fault_frames, c->nfault_frames, "  ");
            if (bt->len)
                fprintf(stderr, "  call stack (innermost first):\n%s", bt->str);
        }
    }
    if (r->m->deadlock) {
        RunInfo info = profile_data_run_info(&r->data);
        g_autoptr(GString) o = g_string_new(NULL);
        summary_endings(o, &info, "nocprof: ");
        fputs(o->str, stderr);
    }
    for (unsigned i = 0; i < r->ncores; i++)
        if (core_state(r->m->cores[i]) == CORE_LIMIT && core_block_limit_hit(r->m->cores[i]))
            fprintf(stderr, "nocprof: core %u: block limit ([limits] blocks = %u) reached\n", i, r->cfg.max_blocks);
        else if (core_state(r->m->cores[i]) == CORE_LIMIT) {
            const CoreResult *c = &r->res[i];
            g_autoptr(GString) where = g_string_new(NULL);
            summary_where(where, c->stop_function, c->stop_file, c->stop_line, c->stop_frames, c->nstop_frames);
            fprintf(stderr, "nocprof: core %u: cycle limit (%" G_GUINT64_FORMAT ") reached at pc 0x%08x in %s\n", i,
                    r->cfg.max_cycles, c->stop_pc, where->str);
        }
}

/* The cores (Unicorn, their blocks), the collectors and the raw
 * communication records: gather() copied what the reports need into
 * r->data (strings interned, symbols owned by r->fws), so they go before
 * the reports are written (issue 24: 30,000 functions on four cores held
 * about 70 MiB of blocks and collectors while the reports grew). */
static void run_release_machine(Run *r)
{
    for (unsigned i = 0; r->cols && i < r->ncores; i++)
        collector_free(r->cols[i]);
    g_clear_pointer(&r->cols, g_free);
    g_clear_pointer(&r->m, machine_free);
    g_clear_pointer(&r->comm, comm_free); /* after the machine: its NIs call into it */
#ifdef __GLIBC__
    /* Their many small blocks leave free pages across the heap that the
     * reports' big buffers (mmap'd) would not reuse: give them back. */
    malloc_trim(0);
#endif
}

static void run_clear(Run *r)
{
    profile_data_clear(&r->data);
    cli_console_clear(&r->echo);
    run_release_machine(r);
    g_free(r->fw_of);
    g_free(r->paths);
    if (r->fws)
        g_ptr_array_unref(r->fws);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(Run, run_clear)

/* Everything before the machine runs; false (and *error) means status 2. */
static bool prepare(Run *r, char **demo, GError **error)
{
    if (!cli_config(r->opts, &r->cfg, error))
        return false;
    r->ncores = config_cores(&r->cfg);
    r->out = r->opts->out ? r->opts->out : CLI_DEFAULT_OUT;
    r->paths = g_new0(char *, r->ncores);
    if (cli_wants_demo(r->opts)) {
        if (!(r->demo_tmp = demo_to_temp(error)))
            return false;
        *demo = g_build_filename(r->out, "firmware", "pipeline.elf", NULL);
        r->demo = *demo;
    }
    r->fws = g_ptr_array_new_with_free_func(firmware_free);
    r->fw_of = g_new(int, r->ncores);
    g_autofree ElfImage **imgs = g_new(ElfImage *, r->ncores);
    bool ok = cli_core_paths(r->opts, r->ncores, *demo, r->paths, error) && load_firmware(r, imgs, error)
              && start_machine(r, imgs, error) && (!r->demo || demo_to_out(r->demo, error));
    demo_temp_remove(r->demo_tmp);
    r->demo_tmp = NULL;
    return ok;
}

/* --gdb (docs/debugging.md): listen before anything runs, so that the
 * address is known; once the machine exists, wait for gdb and serve it
 * with every core halted at reset. */
static void gdb_log(const char *msg)
{
    fprintf(stderr, "nocprof: %s\n", msg);
}

static GdbStub *gdb_listen(const Options *o, GError **error)
{
    GdbStub *g = gdb_stub_listen(o->gdb, error);
    if (!g)
        return NULL;
    gdb_stub_set_log(g, gdb_log);
    fprintf(stderr, "nocprof: gdb: waiting for gdb on %s (target remote %s)\n", gdb_stub_address(g),
            gdb_stub_address(g));
    return g;
}

/* monitor bt: core i's frames where it stands now, as a fault's */
/* A fault's message with what its address is, for gdb's console */
static char *gdb_describe(void *opaque, unsigned i, const char *message, uint32_t addr)
{
    Run *r = opaque;
    return cli_describe_fault(firmware_of(r, i)->syms, r->m->cores[i], message, addr);
}

static void gdb_backtrace(void *opaque, unsigned i, GString *out)
{
    Run *r = opaque;
    Core *c = r->m->cores[i];
    const Symbols *syms = firmware_of(r, i)->syms;
    /* a jump to a bad address: from the jump, as the fault report */
    uint32_t site = core_state(c) == CORE_FAULT ? core_fault(c)->site : 0;
    uint32_t pc = symbols_code_addr(syms, site ? site : core_debug_pc(c)); /* kseg1 runs kseg0's code */
    int fi = symbols_lookup(syms, pc);
    unsigned n = 0, nr, nf, k = 0;
    g_autofree unsigned *fr = r->cols[i] ? collector_stack(r->cols[i], &n) : NULL;
    g_autofree uint32_t *ret = r->cols[i] ? collector_stack_ret(r->cols[i], &nr) : NULL;
    while (site && fi >= 0 && k < n && (int)fr[k] != fi)
        k++;
    ProfileData strings; /* the run's own is made at its end */
    profile_data_init(&strings, 1);
    g_autofree FaultFrame *frames
        = r->cols[i] ? cli_frames_of(&strings, &nf, syms, fi, pc, core_read_cp0(c, NP_CP0_EPC), fr, ret, k < n ? k : 0, n)
                     : cli_frames_unwound(&strings, &nf, NULL, syms, c, pc,
                                          core_state(c) == CORE_FAULT && !site ? core_fault(c)->regs_pc : pc,
                                          core_state(c) == CORE_FAULT && core_fault(c)->has_regs ? core_fault(c)->regs
                                                                                                 : NULL);
    g_string_append_printf(out, "core%u:\n", i);
    summary_frames(out, frames, nf, "  ");
    profile_data_clear(&strings);
}

static bool gdb_attach(GdbStub *g, Run *r, GError **error)
{
    uint64_t stop = UINT64_MAX;
    if (r->opts->gdb_stop_at) {
        char *end = NULL;
        stop = g_ascii_strtoull(r->opts->gdb_stop_at, &end, 0);
        if (!*r->opts->gdb_stop_at || *end) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--gdb-stop-at-cycle %s: not a number",
                        r->opts->gdb_stop_at);
            return false;
        }
    }
    GdbHistoryHooks hooks = { .opaque = &r->echo, .save = cli_console_checkpoint, .mark = cli_console_mark,
                              .resume = cli_console_resume };
    gdb_stub_set_history(g, r->opts->gdb_checkpoints < 0 ? 16 : (unsigned)r->opts->gdb_checkpoints,
                         r->opts->gdb_checkpoint_every > 0 ? (uint64_t)r->opts->gdb_checkpoint_every : 4000000u, &hooks);
    if (!gdb_stub_attach(g, r->m, &cli_interrupted, stop, error))
        return false;
    gdb_stub_set_describe(g, gdb_describe, r);
    gdb_stub_set_backtrace(g, gdb_backtrace, r); /* without a profile: from the ELF's CFI */
    gdb_stub_start(g);
    return true;
}

int cmd_run(int argc, char **argv)
{
    g_auto(Options) o = { 0 };
    GError *err = NULL;
    if (!cli_parse_run(&argc, &argv, &o, &err)
        || !srcpath_configure(o.source_dirs, o.source_maps, &err))
        return usage_error(err);
    g_autofree char *warning = NULL;
    if (!engine_check_unicorn(&warning, &err))
        return usage_error(err);
    if (warning)
        fprintf(stderr, "nocprof: WARNING: %s\n", warning);
    g_auto(Run) r = { .opts = &o };
    g_autofree char *demo = NULL;
    GdbStub *gdb = NULL;
    cli_signals_install(); /* before "waiting for gdb" is said */
    if (o.gdb && !(gdb = gdb_listen(&o, &err))) {
        cli_signals_restore();
        return usage_error(err);
    }
    bool ready = prepare(&r, &demo, &err);
    if (ready && gdb && !gdb_attach(gdb, &r, &err) && cli_signal_status()) {
        /* a signal while waiting for gdb: the run stops at reset as
         * interrupted, its reports written (before: status 2, "accept:
         * Interrupted system call") */
        fprintf(stderr, "nocprof: %s while waiting for gdb: every core stops at reset\n",
                cli_signal_name(cli_signal_status()));
        g_clear_error(&err);
        g_clear_pointer(&gdb, gdb_stub_free);
    }
    if (!ready || err) {
        cli_signals_restore();
        gdb_stub_free(gdb);
        return usage_error(err);
    }
    run_machine(&r);
    gather(&r);
    if (gdb && gdb_stub_killed(gdb))
        r.status = EXIT_SIGINT;   /* gdb's kill: interrupted, reports written */
    print_outcome(&r);
    /* a console.txt that could not be written costs no other report */
    bool ok = cli_console_finish(&r.echo, &err);
    run_release_machine(&r);
    if (!ok) {
        fprintf(stderr, "nocprof: reports could not be written: %s\n", err->message);
        g_clear_error(&err);
    }
    unsigned flags = CLI_WRITE_DATA | CLI_WRITE_SOURCES | CLI_WRITE_CONSOLE | (demo ? CLI_WRITE_DEMO : 0) |
                     (ok ? 0 : CLI_WRITE_FAILED);
    if (!cli_write_reports(&r.data, r.out, flags, &err)) {
        ok = false;
        if (err)   /* else only the console.txt told above */
            fprintf(stderr, "nocprof: reports could not be written: %s\n", err->message);
        g_clear_error(&err);
    }
    r.status = cli_final_status(r.status, ok);
    if (gdb) {
        gdb_stub_end(gdb, r.status);
        gdb_stub_free(gdb);
    }
    cli_signals_restore();
    return r.status;
}

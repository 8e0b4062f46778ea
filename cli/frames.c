// SPDX-License-Identifier: GPL-2.0-or-later
/* frames.c — the call stack of a stopped core as reports give it: the
 * function names folded (cli_fold_frames) and gdb's backtrace with a pc
 * and line per frame, inline frames included (cli_frames_of); used by
 * run.c for faults, stopped cores and gdb's `monitor bt`. */
#include <string.h>

#include "cli/cli.h"
#include "emu/debug.h"
#include "nocprof/platform.h"

/* Repeated frames folded (SPEC 1): the run of repetitions of a period of
 * 1 to 4 frames at fr[0] that covers most, as `runaway x11916` or `(even
 * <- odd) x500`. Adds one entry to stack; returns the frames it stands for. */
unsigned cli_fold_frames(GPtrArray *stack, const Symbols *syms, const unsigned *fr, unsigned n)
{
    unsigned best_p = 1, best_r = 1;
    for (unsigned p = 1; p <= 4 && 2 * p <= n; p++) {
        unsigned r = 1;
        while ((r + 1) * p <= n && memcmp(fr, fr + r * p, p * sizeof *fr) == 0)
            r++;
        if (r > 1 && r * p > best_r * best_p)
            best_p = p, best_r = r;
    }
    GString *e = g_string_new(best_p > 1 ? "(" : "");
    for (unsigned j = 0; j < best_p; j++)
        g_string_append_printf(e, "%s%s", j ? " <- " : "",
                               fr[j] < symbols_count(syms) ? symbols_func(syms, fr[j])->name : "??");
    if (best_r > 1)
        g_string_append_printf(e, "%s x%u", best_p > 1 ? ")" : "", best_r);
    g_ptr_array_add(stack, g_string_free(e, FALSE));
    return best_p * best_r;
}

typedef struct FrameSink {
    ProfileData *pd;      /* interns the frames' strings */
    GArray *frames;
    const Symbols *syms;
    SymInlineCtx *ix;     /* NULL: no DWARF, no inline frames */
    GHashTable *inl;      /* pc -> Inlines: a deep recursion repeats a few pcs */
} FrameSink;

typedef struct Inlines {
    unsigned n;
    SymInline v[8];
} Inlines;

static void inlines_free(gpointer p)
{
    Inlines *x = p;
    symbols_inline_clear(x->v, x->n);
    g_free(x);
}

static const Inlines *inlines_at(FrameSink *k, uint32_t pc)
{
    Inlines *x = g_hash_table_lookup(k->inl, GUINT_TO_POINTER(pc));
    if (!x) {
        x = g_new0(Inlines, 1);
        x->n = pc ? symbols_inline_at(k->ix, pc, x->v, G_N_ELEMENTS(x->v)) : 0;
        g_hash_table_insert(k->inl, GUINT_TO_POINTER(pc), x);
    }
    return x;
}

static void push_frame(FrameSink *k, const char *name, const char *file, unsigned line, uint32_t pc, bool inl)
{
    const char *fn = profile_data_intern(k->pd, name), *fl = profile_data_intern(k->pd, file);
    if (k->frames->len) {
        FaultFrame *last = &g_array_index(k->frames, FaultFrame, k->frames->len - 1);
        if (last->pc == pc && last->function == fn && last->file == fl && last->line == line
            && last->inlined == inl) {
            last->repeat++;
            return;
        }
    }
    FaultFrame fr = { .function = fn, .file = fl, .pc = pc, .line = line, .repeat = 1, .inlined = inl };
    g_array_append_val(k->frames, fr);
}

/* Appends the frame of function index f at pc (0: not known), preceded
 * by the functions the compiler inlined there (gdb's inline frames: each
 * at the line, in it, of the one inside), folded into the last frame
 * when it is the same. */
static void add_frame(FrameSink *k, int f, uint32_t pc)
{
    const char *name = f >= 0 && (unsigned)f < symbols_count(k->syms) ? symbols_func(k->syms, (unsigned)f)->name
                                                                        : NULL;
    SymLine ln = pc ? symbols_line(k->syms, pc) : (SymLine){ 0 };
    const char *file = ln.file;
    unsigned line = ln.line;
    const Inlines *in = inlines_at(k, pc);
    for (unsigned j = 0; j < in->n; j++) {
        push_frame(k, in->v[j].name, file, line, pc, true);
        file = in->v[j].call_file;
        line = in->v[j].call_line;
    }
    push_frame(k, name, file, line, pc, false);
}

/* The sink's frames, at most FAULT_FRAMES_MAX entries: the innermost 48
 * and outermost 15 around one "..." entry */
static FaultFrame *sink_end(FrameSink *k, unsigned *count)
{
    GArray *frames = k->frames;
    symbols_inline_close(k->ix);
    g_hash_table_destroy(k->inl);
    if (frames->len > FAULT_FRAMES_MAX) {
        unsigned keep_in = 48, keep_out = FAULT_FRAMES_MAX - keep_in - 1, cut = frames->len - keep_in - keep_out;
        FaultFrame gap = { .function = profile_data_intern(k->pd, FAULT_FRAMES_ELIDED), .repeat = 0 };
        for (unsigned j = keep_in; j < keep_in + cut; j++)
            gap.repeat += g_array_index(frames, FaultFrame, j).repeat;
        g_array_remove_range(frames, keep_in + 1, cut - 1);
        g_array_index(frames, FaultFrame, keep_in) = gap;
    }
    *count = frames->len;
    return (FaultFrame *)(void *)g_array_free(frames, FALSE);
}

static FrameSink sink_new(ProfileData *pd, const Symbols *syms)
{
    return (FrameSink){ pd, g_array_new(FALSE, FALSE, sizeof(FaultFrame)), syms, symbols_inline_open(syms),
                        g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, inlines_free) };
}

/* The fault's stack with a pc and line per frame (gdb's backtrace): frame
 * 0 at `at` in function fi, then fr[k..n) each at the call (jal or jalr
 * and its delay slot: its return address - 8) that the frame before
 * returns to, when that lies in it (a tail call's does not). */
FaultFrame *cli_frames_of(ProfileData *pd, unsigned *count, const Symbols *syms, int fi, uint32_t at, uint32_t epc,
                             const unsigned *fr, const uint32_t *ret, unsigned k, unsigned n)
{
    FrameSink sink = sink_new(pd, syms);
    add_frame(&sink, fi, at);
    bool known = k < n && (int)fr[k] == fi; /* frame 0 is the shadow stack's innermost */
    bool irq_seen = false;
    for (k += known; k < n; k++) {
        uint32_t pc = known && ret[k - 1] >= 8 && ret[k - 1] != 1 ? symbols_code_addr(syms, ret[k - 1] - 8) : 0;
        if (known && ret[k - 1] == 1 && !irq_seen) /* the innermost interrupt: it came at EPC */
            pc = symbols_code_addr(syms, epc);
        irq_seen |= known && ret[k - 1] == 1;
        if (pc && symbols_lookup(syms, pc) != (int)fr[k])
            pc = 0;
        add_frame(&sink, (int)fr[k], pc);
        known = true;
    }
    return sink_end(&sink, count);
}


static bool read_core(void *opaque, uint32_t addr, uint8_t *buf, uint32_t len)
{
    return core_debug_read_mem(opaque, addr, buf, len);
}

/* Without the shadow stack (--no-profile): the frames from the ELF's call
 * frame information (symbols_unwind), walked from `at` with the registers
 * regs at regs_at (NULL: the core's now) and the core's memory; where the walk
 * stopped short of the reset entry, a last entry says why. The names
 * folded go to stack (NULL: none). Only at a fault or a stop. */
uint32_t *cli_unwind(const Symbols *syms, Core *c, uint32_t at, uint32_t regs_at, const uint32_t *regs, unsigned *n,
                     char **why)
{
    uint32_t gpr[32];
    for (unsigned r = 0; r < 32; r++)
        gpr[r] = regs ? regs[r] : core_read_gpr(c, r);
    uint32_t *pcs = g_new(uint32_t, CLI_UNWIND_MAX);
    *n = symbols_unwind(syms, gpr, at, regs_at, core_read_cp0(c, NP_CP0_EPC), read_core, c, pcs, CLI_UNWIND_MAX, why);
    if (!*why && *n > 1)
        --*n; /* the reset entry's frame: the root the shadow stack starts from, not shown */
    for (unsigned k = 0; k < *n; k++)
        pcs[k] = symbols_code_addr(syms, pcs[k]); /* kseg1 runs kseg0's code */
    return pcs;
}

FaultFrame *cli_frames_unwound(ProfileData *pd, unsigned *count, GPtrArray *stack, const Symbols *syms, Core *c,
                               uint32_t at, uint32_t regs_at, const uint32_t *regs)
{
    char *why = NULL;
    unsigned n;
    g_autofree uint32_t *pcs = cli_unwind(syms, c, at, regs_at, regs, &n, &why);
    g_autofree unsigned *fr = g_new(unsigned, n);
    FrameSink sink = sink_new(pd, syms);
    for (unsigned k = 0; k < n; k++) {
        uint32_t pc = pcs[k];
        int f = symbols_lookup(syms, pc);
        fr[k] = f >= 0 ? (unsigned)f : G_MAXUINT;
        add_frame(&sink, f, pc);
    }
    if (why) {
        g_autofree char *end = g_strdup_printf("%s%s>", FAULT_FRAMES_UNWIND_STOP, why);
        push_frame(&sink, end, NULL, 0, 0, false);
        g_free(why);
    }
    for (unsigned k = 0; stack && k < n;)
        k += cli_fold_frames(stack, syms, fr + k, n - k);
    return sink_end(&sink, count);
}

/* A fault's message with what its address is (NULL: nothing known): a
 * global (symbols_data_at) or, from the stack unwound with the fault's
 * registers, a local of one of the innermost CLI_LOCALS_FRAMES frames or
 * the heap (symbols_stack_at). */
#define CLI_LOCALS_FRAMES 64u
char *cli_describe_fault(const Symbols *syms, Core *c, const char *message, uint32_t addr)
{
    const CoreFault *f = core_state(c) == CORE_FAULT ? core_fault(c) : NULL;
    if (!f || !f->has_regs || f->regs_pc != f->pc)
        return symbols_describe_fault(syms, message, addr);
    uint32_t gpr[32], pcs[CLI_LOCALS_FRAMES], cfas[CLI_LOCALS_FRAMES];
    memcpy(gpr, f->regs, sizeof gpr);
    char *why = NULL;
    SymStack st = { .pcs = pcs, .cfas = cfas, .sp = gpr[29], .read = read_core, .opaque = c };
    st.n = symbols_unwind_cfa(syms, gpr, f->pc, core_read_cp0(c, NP_CP0_EPC), read_core, c, pcs, cfas,
                              CLI_LOCALS_FRAMES, &why);
    g_free(why);
    for (unsigned k = 0; k < st.n; k++)
        pcs[k] = symbols_code_addr(syms, pcs[k]); /* kseg1 runs kseg0's code */
    return symbols_describe_fault_at(syms, message, addr, &st);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* callgrind.c — Callgrind profile format writer (see callgrind.h). */
#include "profiler/formats/callgrind.h"

#include <string.h>

#include "base/name.h"
#include "base/num.h"
#include "profiler/model/events.h"
#include "profiler/model/srcpath.h"

/* The events, in the order of the `events:` line: Cycles, then the rows
 * of the event table (profiler/model/events.h) that have a callgrind name
 * (Ir Dr Dw Bc Bi; I1mr D1mr D1mw only when some function has a miss, on
 * the instructions that missed: Profile.misses),
 * then the communication ones when the core used its NI. Self costs are
 * written per instruction; calls= lines carry Cycles only (inclusive). */
enum { CG_MAXEV = 1 + PEV_COUNT + 3 };
typedef enum { CGK_CYCLES, CGK_EVENT, CGK_BLOCKED, CGK_SENT, CGK_RECV } CgKind;

typedef struct CgCol {
    const char *name, *desc;
    CgKind kind;
    ProfEv ev;                 /* CGK_EVENT */
} CgCol;

typedef struct CgOut {
    GString *o;
    unsigned ncols;
    CgCol cols[CG_MAXEV];
    int col_of[PEV_COUNT];     /* column of an event, -1: not written */
    int blocked;               /* column of Blocked (Sent, Received follow), -1: none */
    uint64_t total[CG_MAXEV];  /* sum of the self cost lines: summary: */
    GHashTable *paths;         /* DWARF file name -> absolute path (owned) */
} CgOut;

static void add_col(CgOut *w, const char *name, const char *desc, CgKind kind, ProfEv ev)
{
    w->cols[w->ncols++] = (CgCol){ name, desc, kind, ev };
}

static void columns(CgOut *w, const Profile *p, bool comm)
{
    add_col(w, "Cycles", "Cycles (exact)", CGK_CYCLES, 0);
    for (unsigned e = 0; e < PEV_COUNT; e++) {
        w->col_of[e] = -1;
        bool any = prof_events[e].insn;   /* the others only when some count is not 0 */
        for (unsigned i = 0; i < p->nfuncs && !any; i++)
            any = prof_event(&p->funcs[i], (ProfEv)e) != 0;
        if (prof_events[e].cg && any) {
            w->col_of[e] = (int)w->ncols;
            add_col(w, prof_events[e].cg, prof_events[e].desc, CGK_EVENT, (ProfEv)e);
        }
    }
    w->blocked = -1;
    if (comm) {
        w->blocked = (int)w->ncols;
        add_col(w, "Blocked", "Blocked cycles (NoC poll loops)", CGK_BLOCKED, 0);
        add_col(w, "Sent", "Packets sent", CGK_SENT, 0);
        add_col(w, "Received", "Packets received", CGK_RECV, 0);
    }
}

/* One cost line: position, then the declared events' values (trailing
 * zeros left out, as callgrind allows). Self costs add to the summary. */
static void put_cost(CgOut *w, const char *pos, const uint64_t v[CG_MAXEV], bool inclusive)
{
    unsigned last = 0;
    for (unsigned k = 0; k < w->ncols; k++) {
        if (v[k])
            last = k + 1;
        if (!inclusive)
            w->total[k] += v[k];
    }
    g_string_append(w->o, pos);
    if (!last) {
        g_string_append(w->o, " 0\n");
        return;
    }
    for (unsigned k = 0; k < last; k++) {   /* no printf per number (issue 24) */
        g_string_append_c(w->o, ' ');
        num_append_u64(w->o, v[k]);
    }
    g_string_append_c(w->o, '\n');
}

/* Name compression: "(id) name" the first time, "(id)" afterwards. */
typedef struct Names {
    GHashTable *ids; /* name -> id */
    unsigned next;
} Names;

static void put_name(GString *o, const char *key, Names *n, const char *name)
{
    gpointer id = g_hash_table_lookup(n->ids, name);
    if (id) {
        g_string_append_printf(o, "%s=(%u)\n", key, GPOINTER_TO_UINT(id));
        return;
    }
    g_hash_table_insert(n->ids, (gpointer)name, GUINT_TO_POINTER(++n->next));
    g_string_append_printf(o, "%s=(%u) ", key, n->next);
    name_append(o, name, NAME_ESC_TEXT); /* a newline would forge a record */
    g_string_append_c(o, '\n');
}

/* Source file names are absolute (FORMATS.md): the file the reports read
 * (--source-map, --source-dir), canonical against the current directory,
 * so fl= resolves whatever folder callgrind_annotate or KCachegrind run
 * from. They are written "/./dir/file": callgrind_annotate strips its
 * current directory from fl=/fi=/fe= names but not from cfi= ones, so a
 * plain absolute name split a function called from another file in two
 * when it ran from the sources' folder; no current directory is a prefix
 * of "/./...", which names the same file. "???" when the address has no
 * line. */
static const char *abs_path(CgOut *w, const char *file)
{
    if (!file)
        return "???";
    const char *abs = g_hash_table_lookup(w->paths, file);
    if (!abs) {
        g_autofree char *found = srcpath_find(file);
        abs = g_strconcat("/.", found, NULL);
        g_hash_table_insert(w->paths, (gpointer)file, (gpointer)abs);
    }
    return abs;
}

static const char *file_of(CgOut *w, const Profile *p, uint32_t addr, unsigned *line)
{
    SymLine l = p->syms && addr ? symbols_line(p->syms, addr) : (SymLine){ 0 };
    *line = l.line;
    return abs_path(w, l.file);
}

/* A function's fl=: the source file of the compilation unit holding it
 * (not a header inlined at its entry), else its first line's file. Its
 * first line in *line. */
static const char *func_file(CgOut *w, const Profile *p, const ProfFunc *f, unsigned *line)
{
    const char *lf = file_of(w, p, f->addr, line);
    const char *unit = p->syms && f->addr ? symbols_unit_file(p->syms, f->addr) : NULL;
    return unit ? abs_path(w, unit) : lf;
}

/* Costs at one instruction, on its own source line (fi=/fe= around it when
 * that line is in another file than the function's, e.g. an inline
 * helper's). */
static void put_insn(CgOut *w, const Profile *p, Names *files, const char *file, uint32_t pc,
                     const uint64_t v[CG_MAXEV])
{
    unsigned line;
    const char *f = file_of(w, p, pc, &line);
    bool other = strcmp(f, file) != 0;
    if (other)
        put_name(w->o, "fi", files, f);
    char pos[32];
    g_snprintf(pos, sizeof pos, "0x%08x %u", pc, line);
    put_cost(w, pos, v, false);
    if (other)
        put_name(w->o, "fe", files, file);
}

/* A block's self costs, instruction by instruction: each instruction's
 * own cycles (ProfBlock.icycles, exact per block, the split of
 * annotated.txt), and each per-instruction event (Ir Dr Dw Bc Bi) the
 * times it really ran (prof_block_insn_runs) times the instruction's class, read from the ELF (an
 * instruction outside the ELF's image counts as Ir only). */
static void block_lines(CgOut *w, const Profile *p, Names *files, const char *file, const ProfBlock *b)
{
    for (uint32_t k = 0; k < b->ninsns; k++) {
        uint64_t v[CG_MAXEV] = { 0 };
        uint32_t pc = b->addr + 4 * k, word;
        v[0] = prof_block_insn_cycles(b, k);
        unsigned ev = p->syms && symbols_read_word(p->syms, pc, &word) ? prof_word_events(word)
                                                                       : 1u << PEV_INSTRUCTIONS;
        for (unsigned e = 0; e < PEV_COUNT; e++)
            if (w->col_of[e] >= 0 && prof_events[e].insn && (ev >> e & 1))
                v[w->col_of[e]] = prof_block_insn_runs(b, k);
        put_insn(w, p, files, file, pc, v);
    }
}

/* The stall cycles of the instructions of function fi (p->stalls[idx[k]]
 * for k in [k0, k1)), each on its own line. */
static void stall_lines(CgOut *w, const Profile *p, Names *files, const char *file, const unsigned *idx,
                        unsigned k0, unsigned k1)
{
    for (unsigned k = k0; k < k1; k++) {
        const ProfStall *s = &p->stalls[idx[k]];
        int col = -1;
        for (unsigned e = 0; e < PEV_COUNT; e++)
            if (prof_events[e].stall == (int)s->cause)
                col = w->col_of[e];
        if (col < 0)
            continue;
        uint64_t v[CG_MAXEV] = { 0 };
        v[col] = s->cycles;
        put_insn(w, p, files, file, s->pc, v);
    }
}

/* The cache's misses of f, per instruction: Profile.misses within f's
 * address range on their own lines; whatever of f's totals is not placed
 * so (a function without a size, a block of f outside its range) on its
 * first instruction, so the lines still add up to the function's counts. */
static void func_events(CgOut *w, const Profile *p, Names *files, const char *file, const ProfFunc *f)
{
    static const ProfEv miss_ev[3] = { PEV_I1_MISS, PEV_D1R_MISS, PEV_D1W_MISS };
    uint64_t placed[3] = { 0 };
    size_t a = 0, b = p->nmisses;
    while (a < b) {                                  /* first miss at or after f->addr */
        size_t m = a + (b - a) / 2;
        if (p->misses[m].pc < f->addr)
            a = m + 1;
        else
            b = m;
    }
    for (size_t i = a; f->size && i < p->nmisses && p->misses[i].pc - f->addr < f->size; i++) {
        const ProfMiss *x = &p->misses[i];
        uint64_t v[CG_MAXEV] = { 0 }, n[3] = { x->i1, x->d1r, x->d1w };
        bool any = false;
        for (unsigned k = 0; k < 3; k++)
            if (w->col_of[miss_ev[k]] >= 0 && n[k] && placed[k] + n[k] <= prof_event(f, miss_ev[k])) {
                v[w->col_of[miss_ev[k]]] = n[k];
                placed[k] += n[k];
                any = true;
            }
        if (any)
            put_insn(w, p, files, file, x->pc, v);
    }
    uint64_t v[CG_MAXEV] = { 0 };
    bool any = false;
    for (unsigned e = 0; e < PEV_COUNT; e++) {
        if (w->col_of[e] < 0 || prof_events[e].insn || prof_events[e].stall >= 0)
            continue;
        uint64_t done = 0;
        for (unsigned k = 0; k < 3; k++)
            if (miss_ev[k] == (ProfEv)e)
                done = placed[k];
        if (prof_event(f, (ProfEv)e) > done) {
            v[w->col_of[e]] = prof_event(f, (ProfEv)e) - done;
            any = true;
        }
    }
    if (any)
        put_insn(w, p, files, file, f->addr, v);
}

/* The communication costs (Blocked, Sent, Received) of the instructions
 * of function fi, on the lines of those instructions. */
static void comm_lines(CgOut *w, const Profile *p, const ProfCommLine *comm, unsigned ncomm, unsigned fi,
                       const char *file, Names *files)
{
    for (unsigned i = 0; i < ncomm; i++) {
        const ProfCommLine *c = &comm[i];
        int f = p->syms ? symbols_lookup(p->syms, c->pc) : -1;
        unsigned owner = f >= 0 ? (unsigned)f : profile_pseudo(p, PROF_UNKNOWN);
        if (owner != fi)
            continue;
        uint64_t v[CG_MAXEV] = { 0 };
        v[w->blocked] = c->blocked;
        v[w->blocked + 1] = c->sent;
        v[w->blocked + 2] = c->recv;
        put_insn(w, p, files, file, c->pc, v);
    }
}

/* The header, before the body: its summary: line is the sum of the self
 * cost lines (callgrind.h), so it is written last. */
static void header(CgOut *w, const Profile *p, const char *elf)
{
    GString *o = g_string_new(NULL);
    g_string_append_printf(o, "# callgrind format\nversion: 1\ncreator: nocprof\ncmd: %s\n", elf);
    g_string_append_printf(o, "pid: %u\nthread: 1\npart: 1\npositions: instr line\n", p->core);
    for (unsigned k = 0; k < w->ncols; k++)
        g_string_append_printf(o, "event: %s : %s\n", w->cols[k].name, w->cols[k].desc);
    g_string_append(o, "events:");
    for (unsigned k = 0; k < w->ncols; k++)
        g_string_append_printf(o, " %s", w->cols[k].name);
    g_string_append(o, "\nsummary:");
    for (unsigned k = 0; k < w->ncols; k++)
        g_string_append_printf(o, " %" G_GUINT64_FORMAT, w->total[k]);
    g_string_append_printf(o, "\n\nob=(1) %s\n", elf);
    g_string_prepend(w->o, o->str);
    g_string_free(o, TRUE);
}

GString *callgrind_build(const Profile *p)
{
    return callgrind_build_comm(p, NULL, 0);
}

/* Index arrays grouping blocks and arcs by function: start[f]..start[f+1]
 * in idx (blocks stay in address order, arcs in callee order). */
static void group(unsigned nfuncs, unsigned n, const void *items, size_t size, size_t func_off, unsigned **start,
                  unsigned **idx)
{
    *start = g_new0(unsigned, nfuncs + 1);
    *idx = g_new(unsigned, n + 1);
    for (unsigned i = 0; i < n; i++)
        (*start)[*(const unsigned *)((const char *)items + i * size + func_off) + 1]++;
    for (unsigned f = 0; f < nfuncs; f++)
        (*start)[f + 1] += (*start)[f];
    g_autofree unsigned *fill = g_memdup2(*start, sizeof(unsigned) * (nfuncs + 1));
    for (unsigned i = 0; i < n; i++)
        (*idx)[fill[*(const unsigned *)((const char *)items + i * size + func_off)]++] = i;
}

/* A call of the current function: cfi= only when the callee's file
 * differs from the caller's fl=; the call site's line carries the
 * inclusive events (Cycles). */
static void call_lines(CgOut *w, const Profile *p, const ProfArc *arc, const char *file, Names *files, Names *fns)
{
    const ProfFunc *callee = &p->funcs[arc->callee];
    unsigned cline, sline;
    const char *cfile = func_file(w, p, callee, &cline);
    if (strcmp(cfile, file) != 0)
        put_name(w->o, "cfi", files, cfile);
    put_name(w->o, "cfn", fns, callee->name);
    g_string_append_printf(w->o, "calls=%" G_GUINT64_FORMAT " 0x%08x %u\n", arc->count, callee->addr, cline);
    file_of(w, p, arc->call_site, &sline);
    char pos[32];
    g_snprintf(pos, sizeof pos, "0x%08x %u", arc->call_site, sline);
    uint64_t v[CG_MAXEV] = { arc->inclusive_cycles };
    put_cost(w, pos, v, true);
}

/* Function fi's records: fl=/fn=, its self costs, its calls. */
typedef struct Groups {
    unsigned *bstart, *bidx, *astart, *aidx, *sstart, *sidx;
} Groups;

static void func_lines(CgOut *w, const Profile *p, unsigned fi, const Groups *g, const ProfCommLine *comm,
                       unsigned ncomm, Names *files, Names *fns)
{
    const ProfFunc *f = &p->funcs[fi];
    const unsigned *bidx = g->bidx, *aidx = g->aidx;
    unsigned b0 = g->bstart[fi], b1 = g->bstart[fi + 1], a0 = g->astart[fi], a1 = g->astart[fi + 1];
    bool pseudo_cost = f->pseudo && f->self_cycles && b0 == b1;
    if (b0 == b1 && a0 == a1 && !pseudo_cost)
        return;
    unsigned line;
    const char *file = func_file(w, p, f, &line);
    put_name(w->o, "fl", files, file);
    put_name(w->o, "fn", fns, f->name);
    if (pseudo_cost) {
        uint64_t v[CG_MAXEV] = { f->self_cycles };
        put_cost(w, "0 0", v, false);
    }
    for (unsigned k = b0; k < b1; k++)
        if (p->blocks[bidx[k]].ninsns)
            block_lines(w, p, files, file, &p->blocks[bidx[k]]);
    stall_lines(w, p, files, file, g->sidx, g->sstart[fi], g->sstart[fi + 1]);
    if (!f->pseudo)
        func_events(w, p, files, file, f);
    if (ncomm)
        comm_lines(w, p, comm, ncomm, fi, file, files);
    for (unsigned k = a0; k < a1; k++)
        call_lines(w, p, &p->arcs[aidx[k]], file, files, fns);
    g_string_append_c(w->o, '\n');
}

GString *callgrind_build_comm(const Profile *p, const ProfCommLine *comm, unsigned ncomm)
{
    CgOut w = { .o = g_string_new(NULL), .paths = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free) };
    columns(&w, p, ncomm > 0);
    g_autofree char *elf = name_escaped(p->elf_path ? p->elf_path : "?", NAME_ESC_TEXT);
    Names files = { g_hash_table_new(g_str_hash, g_str_equal), 0 };
    Names fns = { g_hash_table_new(g_str_hash, g_str_equal), 0 };
    Groups g;
    group(p->nfuncs, p->nblocks, p->blocks, sizeof *p->blocks, G_STRUCT_OFFSET(ProfBlock, func), &g.bstart, &g.bidx);
    group(p->nfuncs, p->narcs, p->arcs, sizeof *p->arcs, G_STRUCT_OFFSET(ProfArc, caller), &g.astart, &g.aidx);
    /* stalls by the function holding their pc (<unknown> outside every symbol) */
    unsigned *owner = g_new(unsigned, p->nstalls + 1);
    for (size_t i = 0; i < p->nstalls; i++) {
        int f = p->syms ? symbols_lookup(p->syms, p->stalls[i].pc) : -1;
        owner[i] = f >= 0 ? (unsigned)f : profile_pseudo(p, PROF_UNKNOWN);
    }
    group(p->nfuncs, (unsigned)p->nstalls, owner, sizeof *owner, 0, &g.sstart, &g.sidx);
    g_free(owner);
    for (unsigned fi = 0; fi < p->nfuncs; fi++)
        func_lines(&w, p, fi, &g, comm, ncomm, &files, &fns);
    /* the cycles outside every cost line (none: <idle> and <interrupt>
     * are functions) stay in the summary as before */
    w.total[0] = p->cycles;
    header(&w, p, elf);
    g_free(g.bstart);
    g_free(g.astart);
    g_free(g.bidx);
    g_free(g.aidx);
    g_free(g.sstart);
    g_free(g.sidx);
    g_hash_table_destroy(files.ids);
    g_hash_table_destroy(fns.ids);
    g_hash_table_destroy(w.paths);
    return w.o;
}

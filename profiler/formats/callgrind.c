// SPDX-License-Identifier: GPL-2.0-or-later
/* callgrind.c — Callgrind profile format writer (see callgrind.h). */
#include "profiler/formats/callgrind.h"

#include <string.h>

#include "base/name.h"
#include "profiler/model/srcpath.h"

/* The events, in the order of the `events:` line. `comm` ones are declared
 * only when the core used its NI. Self costs of every event are written per
 * instruction; calls= lines carry the events with `inclusive` set. Adding
 * an event (Dr, Dw, Bc, Bi, ...) is a row here and its value in CgCost. */
typedef enum { CG_CYCLES, CG_IR, CG_BLOCKED, CG_SENT, CG_RECV, CG_NEVENTS } CgEvent;

static const struct {
    const char *name, *desc;
    bool comm, inclusive;
} cg_events[CG_NEVENTS] = {
    [CG_CYCLES] = { "Cycles", "Cycles (exact)", false, true },
    [CG_IR] = { "Ir", "Instructions executed (self only: calls carry no inclusive Ir)", false, false },
    [CG_BLOCKED] = { "Blocked", "Blocked cycles (NoC poll loops)", true, false },
    [CG_SENT] = { "Sent", "Packets sent", true, false },
    [CG_RECV] = { "Received", "Packets received", true, false },
};

typedef struct CgOut {
    GString *o;
    bool comm;                 /* comm events declared */
    GHashTable *paths;         /* DWARF file name -> absolute path (owned) */
} CgOut;

static bool event_on(const CgOut *w, unsigned e)
{
    return !cg_events[e].comm || w->comm;
}

/* One cost line: position, then the declared events' values (trailing
 * zeros left out, as callgrind allows). */
static void put_cost(CgOut *w, const char *pos, const uint64_t v[CG_NEVENTS], bool inclusive_only)
{
    unsigned last = 0, k = 0;
    for (unsigned e = 0; e < CG_NEVENTS; e++)
        if (event_on(w, e)) {
            k++;
            if (v[e] && (!inclusive_only || cg_events[e].inclusive))
                last = k;
        }
    g_string_append(w->o, pos);
    if (!last) {
        g_string_append(w->o, " 0\n");
        return;
    }
    k = 0;
    for (unsigned e = 0; e < CG_NEVENTS && k < last; e++)
        if (event_on(w, e)) {
            k++;
            uint64_t x = inclusive_only && !cg_events[e].inclusive ? 0 : v[e];
            g_string_append_printf(w->o, " %" G_GUINT64_FORMAT, x);
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
                     const uint64_t v[CG_NEVENTS])
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

/* A block's self costs, instruction by instruction: its executions as Ir
 * and its cycles spread evenly over its instructions (exact per block, the
 * split of annotated.txt). */
static void block_lines(CgOut *w, const Profile *p, Names *files, const char *file, const ProfBlock *b)
{
    for (uint32_t k = 0; k < b->ninsns; k++) {
        uint64_t v[CG_NEVENTS] = { 0 };
        v[CG_CYCLES] = b->cycles / b->ninsns + (k < b->cycles % b->ninsns);
        v[CG_IR] = b->count;
        put_insn(w, p, files, file, b->addr + 4 * k, v);
    }
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
        uint64_t v[CG_NEVENTS] = { [CG_BLOCKED] = c->blocked, [CG_SENT] = c->sent, [CG_RECV] = c->recv };
        put_insn(w, p, files, file, c->pc, v);
    }
}

static void header(CgOut *w, const Profile *p, const ProfCommLine *comm, unsigned ncomm, const char *elf)
{
    GString *o = w->o;
    g_string_append_printf(o, "# callgrind format\nversion: 1\ncreator: nocprof\ncmd: %s\n", elf);
    g_string_append_printf(o, "pid: %u\nthread: 1\npart: 1\npositions: instr line\n", p->core);
    /* Ir counts each executed block whole, so the summary is the sum of the
     * cost lines (see callgrind.h), not p->instructions */
    uint64_t total[CG_NEVENTS] = { [CG_CYCLES] = p->cycles };
    for (unsigned b = 0; b < p->nblocks; b++)
        total[CG_IR] += p->blocks[b].count * p->blocks[b].ninsns;
    for (unsigned i = 0; i < ncomm; i++) {
        total[CG_BLOCKED] += comm[i].blocked;
        total[CG_SENT] += comm[i].sent;
        total[CG_RECV] += comm[i].recv;
    }
    for (unsigned e = 0; e < CG_NEVENTS; e++)
        if (event_on(w, e))
            g_string_append_printf(o, "event: %s : %s\n", cg_events[e].name, cg_events[e].desc);
    g_string_append(o, "events:");
    for (unsigned e = 0; e < CG_NEVENTS; e++)
        if (event_on(w, e))
            g_string_append_printf(o, " %s", cg_events[e].name);
    g_string_append(o, "\nsummary:");
    for (unsigned e = 0; e < CG_NEVENTS; e++)
        if (event_on(w, e))
            g_string_append_printf(o, " %" G_GUINT64_FORMAT, total[e]);
    g_string_append_printf(o, "\n\nob=(1) %s\n", elf);
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
    uint64_t v[CG_NEVENTS] = { [CG_CYCLES] = arc->inclusive_cycles };
    put_cost(w, pos, v, true);
}

GString *callgrind_build_comm(const Profile *p, const ProfCommLine *comm, unsigned ncomm)
{
    CgOut w = { g_string_new(NULL), ncomm > 0, g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free) };
    g_autofree char *elf = name_escaped(p->elf_path ? p->elf_path : "?", NAME_ESC_TEXT);
    header(&w, p, comm, ncomm, elf);
    Names files = { g_hash_table_new(g_str_hash, g_str_equal), 0 };
    Names fns = { g_hash_table_new(g_str_hash, g_str_equal), 0 };
    unsigned *bstart, *bidx, *astart, *aidx;
    group(p->nfuncs, p->nblocks, p->blocks, sizeof *p->blocks, G_STRUCT_OFFSET(ProfBlock, func), &bstart, &bidx);
    group(p->nfuncs, p->narcs, p->arcs, sizeof *p->arcs, G_STRUCT_OFFSET(ProfArc, caller), &astart, &aidx);
    for (unsigned fi = 0; fi < p->nfuncs; fi++) {
        const ProfFunc *f = &p->funcs[fi];
        bool has_blocks = bstart[fi + 1] > bstart[fi], has_calls = astart[fi + 1] > astart[fi];
        bool pseudo_cost = f->pseudo && f->self_cycles && !has_blocks;
        if (!has_blocks && !has_calls && !pseudo_cost)
            continue;
        unsigned line;
        const char *file = func_file(&w, p, f, &line);
        put_name(w.o, "fl", &files, file);
        put_name(w.o, "fn", &fns, f->name);
        if (pseudo_cost) {
            uint64_t v[CG_NEVENTS] = { [CG_CYCLES] = f->self_cycles };
            put_cost(&w, "0 0", v, false);
        }
        for (unsigned k = bstart[fi]; k < bstart[fi + 1]; k++)
            if (p->blocks[bidx[k]].ninsns)
                block_lines(&w, p, &files, file, &p->blocks[bidx[k]]);
        comm_lines(&w, p, comm, ncomm, fi, file, &files);
        for (unsigned k = astart[fi]; k < astart[fi + 1]; k++)
            call_lines(&w, p, &p->arcs[aidx[k]], file, &files, &fns);
        g_string_append_c(w.o, '\n');
    }
    g_free(bstart);
    g_free(astart);
    g_free(bidx);
    g_free(aidx);
    g_hash_table_destroy(files.ids);
    g_hash_table_destroy(fns.ids);
    g_hash_table_destroy(w.paths);
    return w.o;
}

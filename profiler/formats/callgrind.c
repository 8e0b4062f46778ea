/* callgrind.c — Callgrind profile format writer (see callgrind.h). */
#include "callgrind.h"

#include <string.h>

#include "base/name.h"

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

/* Source file names are written relative to the folder that holds all of
 * them (their longest common directory), in fl=, fi=, fe= and cfi= alike:
 * callgrind_annotate strips the current directory from fl/fi/fe names but
 * not from cfi names, so absolute names listed every function twice when it
 * ran from the sources' folder. root_len = length of "ROOT/" to skip. */
typedef struct Files {
    const char *root; /* the first absolute name; its first root_len bytes */
    size_t root_len;
} Files;

static const char *file_of(const Profile *p, uint32_t addr, unsigned *line, const Files *fs)
{
    SymLine l = p->syms && addr ? symbols_line(p->syms, addr) : (SymLine){ 0 };
    *line = l.line;
    if (!l.file)
        return "???";
    return l.file[0] == '/' && fs ? l.file + fs->root_len : l.file;
}

/* Longest common directory of two absolute paths, as a length (with '/'). */
static size_t common_dir(const char *a, size_t alen, const char *b)
{
    size_t n = 0, last = 0;
    while (n < alen && a[n] && a[n] == b[n]) {
        if (a[n] == '/')
            last = n + 1;
        n++;
    }
    return last;
}

/* The common folder of every absolute source file the profile names. */
static Files files_root(const Profile *p)
{
    const char *first = NULL;
    size_t len = 0;
    unsigned line;
    for (unsigned i = 0; i < p->nfuncs + p->nblocks + p->narcs; i++) {
        uint32_t addr = i < p->nfuncs ? p->funcs[i].addr
                      : i < p->nfuncs + p->nblocks ? p->blocks[i - p->nfuncs].addr
                      : p->arcs[i - p->nfuncs - p->nblocks].call_site;
        const char *f = file_of(p, addr, &line, NULL);
        if (f[0] != '/')
            continue;
        if (!first) {
            first = f;
            len = strrchr(f, '/') - f + 1;
        } else {
            len = common_dir(first, len, f);
        }
    }
    return (Files){ .root = first, .root_len = first && len > 1 ? len : 0 };
}

/* The communication costs (Blocked, Sent, Received) of the instructions
 * of function fi, on the lines of those instructions. */
static void comm_lines(GString *o, const Profile *p, const ProfCommLine *comm, unsigned ncomm, unsigned fi,
                       const char *file, Names *files, const Files *fs)
{
    for (unsigned i = 0; i < ncomm; i++) {
        const ProfCommLine *c = &comm[i];
        int f = p->syms ? symbols_lookup(p->syms, c->pc) : -1;
        unsigned owner = f >= 0 ? (unsigned)f : profile_pseudo(p, PROF_UNKNOWN);
        if (owner != fi)
            continue;
        unsigned line;
        const char *cf = file_of(p, c->pc, &line, fs);
        bool other = strcmp(cf, file) != 0;
        if (other)
            put_name(o, "fi", files, cf);
        g_string_append_printf(o, "0x%08x %u 0 %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
                               c->pc, line, c->blocked, c->sent, c->recv);
        if (other)
            put_name(o, "fe", files, file);
    }
}

GString *callgrind_build(const Profile *p)
{
    return callgrind_build_comm(p, NULL, 0);
}

GString *callgrind_build_comm(const Profile *p, const ProfCommLine *comm, unsigned ncomm)
{
    GString *o = g_string_new("# callgrind format\nversion: 1\ncreator: nocprof\ncmd: ");
    g_autofree char *elf = name_escaped(p->elf_path ? p->elf_path : "?", NAME_ESC_TEXT);
    g_string_append_printf(o, "%s\npid: %u\nthread: 1\npart: 1\n", elf, p->core);
    g_string_append(o, "positions: instr line\n");
    if (ncomm) {
        uint64_t tb = 0, ts = 0, tr = 0;
        for (unsigned i = 0; i < ncomm; i++) {
            tb += comm[i].blocked;
            ts += comm[i].sent;
            tr += comm[i].recv;
        }
        g_string_append(o, "event: Blocked : Blocked cycles (NoC poll loops)\nevent: Sent : Packets sent\n"
                           "event: Received : Packets received\nevents: Cycles Blocked Sent Received\n");
        g_string_append_printf(o, "summary: %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                               " %" G_GUINT64_FORMAT "\n\n", p->cycles, tb, ts, tr);
    } else {
        g_string_append(o, "events: Cycles\n");
        g_string_append_printf(o, "summary: %" G_GUINT64_FORMAT "\n\n", p->cycles);
    }
    Files fs = files_root(p);
    if (fs.root_len)
        g_string_append_printf(o, "# source files are relative to %.*s\n", (int)fs.root_len, fs.root);

    Names files = { g_hash_table_new(g_str_hash, g_str_equal), 0 };
    Names fns = { g_hash_table_new(g_str_hash, g_str_equal), 0 };
    g_string_append_printf(o, "ob=(1) %s\n", elf);

    /* blocks and arcs grouped by function (blocks stay in address order,
     * arcs in callee order: both sorts are stable on those keys) */
    unsigned *bstart = g_new0(unsigned, p->nfuncs + 1), *astart = g_new0(unsigned, p->nfuncs + 1);
    unsigned *bidx = g_new(unsigned, p->nblocks + 1), *aidx = g_new(unsigned, p->narcs + 1);
    for (unsigned b = 0; b < p->nblocks; b++)
        bstart[p->blocks[b].func + 1]++;
    for (unsigned a = 0; a < p->narcs; a++)
        astart[p->arcs[a].caller + 1]++;
    for (unsigned f = 0; f < p->nfuncs; f++) {
        bstart[f + 1] += bstart[f];
        astart[f + 1] += astart[f];
    }
    {
        g_autofree unsigned *bfill = g_memdup2(bstart, sizeof(unsigned) * (p->nfuncs + 1));
        g_autofree unsigned *afill = g_memdup2(astart, sizeof(unsigned) * (p->nfuncs + 1));
        for (unsigned b = 0; b < p->nblocks; b++)
            bidx[bfill[p->blocks[b].func]++] = b;
        for (unsigned a = 0; a < p->narcs; a++)
            aidx[afill[p->arcs[a].caller]++] = a;
    }

    for (unsigned fi = 0; fi < p->nfuncs; fi++) {
        const ProfFunc *f = &p->funcs[fi];
        bool has_blocks = bstart[fi + 1] > bstart[fi], has_calls = astart[fi + 1] > astart[fi];
        bool pseudo_cost = f->pseudo && f->self_cycles && !has_blocks;
        if (!has_blocks && !has_calls && !pseudo_cost)
            continue;
        unsigned line;
        const char *file = file_of(p, f->addr, &line, &fs);
        put_name(o, "fl", &files, file);
        put_name(o, "fn", &fns, f->name);
        if (pseudo_cost)
            g_string_append_printf(o, "0 0 %" G_GUINT64_FORMAT "\n", f->self_cycles);
        for (unsigned k = bstart[fi]; k < bstart[fi + 1]; k++) {
            const ProfBlock *blk = &p->blocks[bidx[k]];
            const char *bf = file_of(p, blk->addr, &line, &fs);
            bool other = strcmp(bf, file) != 0;
            if (other)
                put_name(o, "fi", &files, bf);
            g_string_append_printf(o, "0x%08x %u %" G_GUINT64_FORMAT "\n", blk->addr, line, blk->cycles);
            if (other)
                put_name(o, "fe", &files, file);
        }
        comm_lines(o, p, comm, ncomm, fi, file, &files, &fs);
        for (unsigned k = astart[fi]; k < astart[fi + 1]; k++) {
            const ProfArc *arc = &p->arcs[aidx[k]];
            const ProfFunc *callee = &p->funcs[arc->callee];
            unsigned cline, sline;
            const char *cfile = file_of(p, callee->addr, &cline, &fs);
            put_name(o, "cfi", &files, cfile);
            put_name(o, "cfn", &fns, callee->name);
            g_string_append_printf(o, "calls=%" G_GUINT64_FORMAT " 0x%08x %u\n", arc->count, callee->addr, cline);
            file_of(p, arc->call_site, &sline, &fs);
            g_string_append_printf(o, "0x%08x %u %" G_GUINT64_FORMAT "\n", arc->call_site, sline,
                                   arc->inclusive_cycles);
        }
        g_string_append_c(o, '\n');
    }
    g_free(bstart);
    g_free(astart);
    g_free(bidx);
    g_free(aidx);
    g_hash_table_destroy(files.ids);
    g_hash_table_destroy(fns.ids);
    return o;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* coverage.c — OUT/coverage.info, the lcov tracefile (coverage.h). */
#include "profiler/formats/coverage.h"

#include <inttypes.h>
#include <string.h>

#include "base/num.h"
#include "platform/mips.h"
#include "profiler/model/srcpath.h"

/* At most this many instructions of one function are looked at (as
 * annotated.c's listing). */
#define COV_MAX_INSNS (1u << 22)
#define COV_UNKNOWN INT64_MIN

typedef struct CovFunc {
    unsigned line;
    uint64_t count;
} CovFunc;

typedef struct CovBranch {
    unsigned line, block;
    bool ran;
    uint64_t taken, not_taken;
} CovBranch;

typedef struct CovFile {
    char *path;                /* absolute path of the file read */
    char *sha256;              /* of its content (hex) */
    unsigned nlines;           /* lines in it */
    uint64_t *hits, *cur;      /* [nlines + 1]: run total, this function */
    bool *code;                /* [nlines + 1]: a line with instructions */
    bool any;                  /* some line has */
    GArray *dirty;             /* lines whose cur is not 0 */
    GHashTable *funcs;         /* name -> CovFunc */
    GHashTable *branches;      /* key(line, block) -> CovBranch */
    unsigned id;               /* its number, in the order met */
} CovFile;

typedef struct Cov {
    GHashTable *by_name;       /* DWARF file name -> CovFile (NULL: unreadable) */
    GHashTable *by_path;       /* absolute path -> CovFile (owns them) */
    const char *last_name;     /* the name asked last (the Symbols' string, */
    CovFile *last;             /* the same as the line before's, mostly) */
    unsigned nfiles;
} Cov;

/* Two numbers as one hash key (no string printed per branch: issue 24),
 * hashed on all 64 bits (Fibonacci hashing, as the context trees). */
G_STATIC_ASSERT(sizeof(gpointer) >= sizeof(guint64));
static gpointer key2(unsigned hi, unsigned lo)
{
    return GSIZE_TO_POINTER(((guint64)hi << 32) | lo);
}

static guint key2_hash(gconstpointer key)
{
    guint64 k = (guint64)GPOINTER_TO_SIZE(key);
    return (guint)((k * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15)) >> 32);
}

static void cov_file_free(gpointer data)
{
    CovFile *f = data;
    g_free(f->path);
    g_free(f->sha256);
    g_free(f->hits);
    g_free(f->cur);
    g_free(f->code);
    g_hash_table_unref(f->funcs);
    g_hash_table_unref(f->branches);
    g_array_free(f->dirty, TRUE);
    g_free(f);
}

/* The record of a DWARF file name: read once through the reports' source
 * rules; NULL when it cannot be read. */
static CovFile *cov_file(Cov *cv, const char *name)
{
    CovFile *f;
    if (name == cv->last_name)   /* not hashed again (issue 24) */
        return cv->last;
    if (g_hash_table_lookup_extended(cv->by_name, name, NULL, (gpointer *)&f)) {
        cv->last_name = name;
        cv->last = f;
        return f;
    }
    gsize len = 0;
    g_autofree char *used = NULL;
    g_autofree char *text = srcpath_read(name, &len, &used, NULL);
    f = NULL;
    if (text && used) {
        g_autofree char *abs = g_canonicalize_filename(used, NULL);
        bool clean = true;   /* a path that would split the record */
        for (const char *c = abs; *c; c++)
            clean &= (unsigned char)*c >= 0x20 && *c != 0x7f;
        f = clean ? g_hash_table_lookup(cv->by_path, abs) : NULL;
        if (clean && !f) {
            f = g_new0(CovFile, 1);
            f->path = g_steal_pointer(&abs);
            f->sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
            for (gsize i = 0; i < len; i++)
                f->nlines += text[i] == '\n';
            if (len && text[len - 1] != '\n')
                f->nlines++;
            f->hits = g_new0(uint64_t, f->nlines + 1);
            f->cur = g_new0(uint64_t, f->nlines + 1);
            f->code = g_new0(bool, f->nlines + 1);
            f->dirty = g_array_new(FALSE, FALSE, sizeof(unsigned));
            f->funcs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
            f->branches = g_hash_table_new_full(key2_hash, g_direct_equal, NULL, g_free);
            f->id = cv->nfiles++;
            g_hash_table_insert(cv->by_path, f->path, f);
        }
    }
    g_hash_table_insert(cv->by_name, g_strdup(name), f);
    return f;
}

/* One function's instructions: words, executions, source positions. */
typedef struct Fn {
    const Profile *p;
    uint32_t lo;
    unsigned n;
    uint32_t *words;
    uint64_t *count;
    SymLine *where;
    GHashTable *targets;       /* static branch/jump target -> how many */
    bool indirect;             /* a jr other than a return: a jump table */
} Fn;

static void fn_load(Fn *d, const Profile *p, const ProfFunc *f)
{
    *d = (Fn){ .p = p, .lo = f->addr };
    uint64_t n = MIN((uint64_t)f->size, ((uint64_t)1 << 32) - f->addr) / 4;
    d->n = (unsigned)MIN(n, (uint64_t)COV_MAX_INSNS);
    d->words = g_new0(uint32_t, d->n + 1);
    d->count = g_new0(uint64_t, d->n + 1);
    d->where = g_new0(SymLine, d->n + 1);
    d->targets = g_hash_table_new(g_direct_hash, g_direct_equal);
    profile_insn_counts(p, d->lo, d->n, d->count);
    for (unsigned i = 0; i < d->n; i++) {
        uint32_t a = d->lo + 4 * i, t;
        d->where[i] = symbols_line(p->syms, a);
        if (!d->where[i].file || !d->where[i].line)
            d->where[i] = (SymLine){ NULL, 0 };
        if (!symbols_read_word(p->syms, a, &d->words[i]))
            continue;
        unsigned cls = mips_classify(d->words[i]);
        if (mips_branch_target(d->words[i], a, &t)) {
            gpointer k = GUINT_TO_POINTER(t);
            g_hash_table_insert(d->targets, k, GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(d->targets, k)) + 1));
        }
        if ((cls & MIPS_JREG) && !(cls & (MIPS_RETURN | MIPS_LINK)))
            d->indirect = true;
    }
}

static void fn_free(Fn *d)
{
    g_free(d->words);
    g_free(d->count);
    g_free(d->where);
    g_hash_table_unref(d->targets);
}

/* Whether instruction k (an address inside the function) can be reached
 * other than by the edge of the branch at index b: from a branch or jump
 * of the function, as its entry, or by falling through from k - 1. */
static bool fn_other_way_in(const Fn *d, unsigned k, unsigned b, bool fall_in)
{
    uint32_t a = d->lo + 4 * k, t;
    if (k == 0 || k >= d->n)
        return true;
    unsigned in = GPOINTER_TO_UINT(g_hash_table_lookup(d->targets, GUINT_TO_POINTER(a)));
    if (mips_branch_target(d->words[b], d->lo + 4 * b, &t) && t == a)
        in--;
    if (in)
        return true;
    if (!fall_in || k < 2)
        return false;
    /* k - 1 is a delay slot when k - 2 is a control transfer: only an
     * unconditional one that does not return there ends the flow */
    unsigned cls = mips_classify(d->words[k - 2]);
    if (!(cls & MIPS_BRANCH))
        return true;
    return (cls & MIPS_LINK) || !mips_branch_unconditional(d->words[k - 2]);
}

/* Taken / not taken of the conditional branch at index i; false when the
 * block graph does not tell. */
static bool branch_outcomes(const Fn *d, unsigned i, uint64_t *taken, uint64_t *not_taken)
{
    uint64_t n = d->count[i];
    uint32_t a = d->lo + 4 * i, t;
    if (i + 2 > d->n || !mips_branch_target(d->words[i], a, &t))
        return false;
    if (mips_classify(d->words[i]) & MIPS_LIKELY) {
        *taken = d->count[i + 1];   /* the delay slot runs only when taken */
    } else if (t != a + 8 && !d->indirect && !fn_other_way_in(d, i + 2, i, false)) {
        *taken = n - MIN(n, d->count[i + 2]);
    } else if (t != a + 8 && !d->indirect && t >= d->lo && (t - d->lo) / 4 < d->n && t % 4 == 0
               && !fn_other_way_in(d, (t - d->lo) / 4, i, true)) {
        *taken = d->count[(t - d->lo) / 4];
    } else {
        return false;
    }
    if (*taken > n)
        return false;   /* a run cut short inside the block */
    *not_taken = n - *taken;
    return true;
}

static void add_branch(CovFile *f, unsigned line, unsigned block, bool ran, uint64_t taken, uint64_t not_taken)
{
    CovBranch *b = g_hash_table_lookup(f->branches, key2(line, block));
    if (!b) {
        b = g_new0(CovBranch, 1);
        *b = (CovBranch){ .line = line, .block = block };
        g_hash_table_insert(f->branches, key2(line, block), b);
    }
    b->ran |= ran;
    b->taken += taken;
    b->not_taken += not_taken;
}

/* Lines (max executions per line within the function) and branches. */
static void fn_lines(Cov *cv, const Fn *d, GPtrArray *touched)
{
    GHashTable *blocks = g_hash_table_new(key2_hash, g_direct_equal);   /* key2(file, line) */
    for (unsigned i = 0; i < d->n; i++) {
        const SymLine *w = &d->where[i];
        CovFile *f = w->file ? cov_file(cv, w->file) : NULL;
        if (!f || w->line > f->nlines)
            continue;
        if (!g_ptr_array_find(touched, f, NULL))
            g_ptr_array_add(touched, f);
        f->code[w->line] = f->any = true;
        if (!f->cur[w->line] && d->count[i])
            g_array_append_val(f->dirty, w->line);
        f->cur[w->line] = MAX(f->cur[w->line], d->count[i]);
        unsigned cls = mips_classify(d->words[i]);
        if (!(cls & MIPS_BRANCH) || (cls & (MIPS_LINK | MIPS_JREG)) || mips_branch_unconditional(d->words[i]))
            continue;
        uint64_t taken = 0, not_taken = 0;
        if (d->count[i] && !branch_outcomes(d, i, &taken, &not_taken))
            continue;
        /* the branches of a line numbered in address order (lcov's block) */
        unsigned block = GPOINTER_TO_UINT(g_hash_table_lookup(blocks, key2(f->id, w->line)));
        g_hash_table_insert(blocks, key2(f->id, w->line), GUINT_TO_POINTER(block + 1));
        add_branch(f, w->line, block, d->count[i] != 0, taken, not_taken);
    }
    g_hash_table_unref(blocks);
}

static void cov_function(Cov *cv, const Profile *p, const ProfFunc *pf)
{
    Fn d;
    fn_load(&d, p, pf);
    g_autoptr(GPtrArray) touched = g_ptr_array_new();
    fn_lines(cv, &d, touched);
    for (guint k = 0; k < touched->len; k++) {   /* this function's lines into the totals */
        CovFile *f = g_ptr_array_index(touched, k);
        for (guint k2 = 0; k2 < f->dirty->len; k2++) {
            unsigned l = g_array_index(f->dirty, unsigned, k2);
            f->hits[l] += f->cur[l];
            f->cur[l] = 0;
        }
        g_array_set_size(f->dirty, 0);
    }
    /* the function record: at the line of its name (DW_AT_decl_line,
     * where gcov and lcov put it) in a file with code; else at its first
     * instruction's line (assembly, no DWARF for it) */
    SymLine at = symbols_decl(p->syms, pf->addr);
    CovFile *f = at.file && at.line ? cov_file(cv, at.file) : NULL;
    if (!f || !f->any || at.line > f->nlines) {
        unsigned first = 0;
        while (first < d.n && !d.where[first].file)
            first++;
        at = first < d.n ? d.where[first] : (SymLine){ NULL, 0 };
        f = at.file ? cov_file(cv, at.file) : NULL;
    }
    if (f && at.line <= f->nlines) {
        CovFunc *cf = g_hash_table_lookup(f->funcs, pf->name);
        if (!cf) {
            cf = g_new0(CovFunc, 1);
            cf->line = at.line;
            g_hash_table_insert(f->funcs, g_strdup(pf->name), cf);
        }
        cf->count += pf->calls ? pf->calls : d.n ? d.count[0] : 0;
    }
    fn_free(&d);
}

/* A function name as lcov reads it: no comma, no control byte. */
static char *lcov_name(const char *name)
{
    g_autofree char *e = g_strescape(name, NULL);
    g_auto(GStrv) parts = g_strsplit(e, ",", -1);
    return g_strjoinv("\\x2c", parts);
}

static gint cmp_func(gconstpointer a, gconstpointer b, gpointer data)
{
    GHashTable *h = data;
    const CovFunc *x = g_hash_table_lookup(h, *(char *const *)a), *y = g_hash_table_lookup(h, *(char *const *)b);
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static gint cmp_branch(gconstpointer a, gconstpointer b, gpointer data)
{
    const CovBranch *x = *(CovBranch *const *)a, *y = *(CovBranch *const *)b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->block < y->block ? -1 : x->block > y->block;
}

static void emit_funcs(GString *o, const CovFile *f)
{
    guint n = 0;
    g_autofree gpointer *names = g_hash_table_get_keys_as_array(f->funcs, &n);
    g_qsort_with_data(names, (gint)n, sizeof *names, cmp_func, f->funcs);
    unsigned hit = 0;
    for (guint i = 0; i < n; i++) {
        g_autofree char *e = lcov_name(names[i]);
        g_string_append_printf(o, "FN:%u,%s\n", ((CovFunc *)g_hash_table_lookup(f->funcs, names[i]))->line, e);
    }
    for (guint i = 0; i < n; i++) {
        g_autofree char *e = lcov_name(names[i]);
        uint64_t c = ((CovFunc *)g_hash_table_lookup(f->funcs, names[i]))->count;
        g_string_append_printf(o, "FNDA:%" PRIu64 ",%s\n", c, e);
        hit += c != 0;
    }
    g_string_append_printf(o, "FNF:%u\nFNH:%u\n", n, hit);
}

static void emit_branches(GString *o, const CovFile *f)
{
    g_autoptr(GPtrArray) all = g_ptr_array_new();
    GHashTableIter it;
    gpointer v;
    g_hash_table_iter_init(&it, f->branches);
    while (g_hash_table_iter_next(&it, NULL, &v))
        g_ptr_array_add(all, v);
    guint n = all->len;
    gpointer *br = all->pdata;
    g_qsort_with_data(br, (gint)n, sizeof *br, cmp_branch, NULL);
    unsigned hit = 0;
    for (guint i = 0; i < n; i++) {
        const CovBranch *b = br[i];
        if (!b->ran) {
            g_string_append_printf(o, "BRDA:%u,%u,0,-\nBRDA:%u,%u,1,-\n", b->line, b->block, b->line, b->block);
            continue;
        }
        g_string_append_printf(o, "BRDA:%u,%u,0,%" PRIu64 "\nBRDA:%u,%u,1,%" PRIu64 "\n", b->line, b->block,
                               b->taken, b->line, b->block, b->not_taken);
        hit += (b->taken != 0) + (b->not_taken != 0);
    }
    g_string_append_printf(o, "BRF:%u\nBRH:%u\n", 2 * n, hit);
}

static void emit_file(GString *o, const CovFile *f)
{
    g_string_append_printf(o, "TN:\nSF:%s\n", f->path);
    emit_funcs(o, f);
    emit_branches(o, f);
    unsigned lf = 0, lh = 0;
    for (unsigned l = 1; l <= f->nlines; l++)
        if (f->code[l]) {
            g_string_append(o, "DA:");   /* "DA:%u,%" PRIu64 without a printf */
            num_append_u64(o, l);
            g_string_append_c(o, ',');
            num_append_u64(o, f->hits[l]);
            g_string_append_c(o, '\n');
            lf++;
            lh += f->hits[l] != 0;
        }
    g_string_append_printf(o, "LF:%u\nLH:%u\nend_of_record\n", lf, lh);
}

static gint cmp_path(gconstpointer a, gconstpointer b, gpointer data)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

GString *coverage_lcov(const Profile *const *profs, unsigned n, GString *sums)
{
    Cov cv = { .by_name = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
               .by_path = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, cov_file_free) };
    for (unsigned c = 0; c < n; c++) {
        const Profile *p = profs[c];
        for (unsigned i = 0; p && p->syms && i < p->nfuncs; i++) {
            const ProfFunc *f = &p->funcs[i];
            if (!f->pseudo && !f->hidden && f->size)
                cov_function(&cv, p, f);
        }
    }
    GString *o = g_string_new(NULL);
    guint nf = 0;
    g_autofree gpointer *paths = g_hash_table_get_keys_as_array(cv.by_path, &nf);
    g_qsort_with_data(paths, (gint)nf, sizeof *paths, cmp_path, NULL);
    for (guint i = 0; i < nf; i++) {
        const CovFile *f = g_hash_table_lookup(cv.by_path, paths[i]);
        if (!f->any)
            continue;
        emit_file(o, f);
        if (sums)
            g_string_append_printf(sums, "%s  %s\n", f->sha256, f->path);
    }
    g_hash_table_unref(cv.by_name);
    g_hash_table_unref(cv.by_path);
    return o;
}

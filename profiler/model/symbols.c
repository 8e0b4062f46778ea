// SPDX-License-Identifier: GPL-2.0-or-later
/* symbols.c — functions, source lines and disassembly of one firmware ELF.
 *
 * Everything is read once in symbols_load() and kept in plain sorted arrays
 * so that the per-block and per-instruction lookups the reports make are
 * binary searches:
 *
 *   funcs  .symtab functions sorted by address (gprof sym_lookup). STT_FUNC
 *          symbols, plus STT_NOTYPE symbols that look like assembly entry
 *          labels (`_start`): in an executable section, 4-byte aligned, not
 *          `$`-mapping symbols or `.L` local labels, and not strictly inside
 *          an STT_FUNC. A zero size extends to the next function or the end
 *          of the section. One function per address (STT_FUNC wins, then a
 *          global binding, then the first seen).
 *   lines  every row of every CU's .debug_line, sorted by address; a lookup
 *          takes the last row at or below the address, so several rows at
 *          one address resolve to the last one (as gdb does) and an
 *          end_sequence row ends a range ("??:0" after it).
 *   segs   copies of the PT_LOAD file bytes, so the ELF can be closed.
 *
 * Missing symbols or DWARF degrade to empty tables, never to errors.
 */
#include "profiler/model/symbols.h"

#include <capstone/capstone.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <string.h>

#include "base/bytes.h"
#include "base/name.h"
#include "elf/elf_file.h"

typedef struct LineRow {
    uint32_t addr;
    unsigned line;
    const char *file;   /* interned in Symbols.strings; NULL ends a range */
    unsigned order;     /* position in DWARF, to keep the sort stable */
} LineRow;

typedef struct Segment {
    uint32_t vaddr, filesz;
    bool exec;
    guint8 *bytes;      /* filesz bytes, ELF byte order */
} Segment;

struct Symbols {
    char *path;
    bool big_endian;
    GArray *funcs;      /* SymFunc, sorted by addr */
    GArray *lines;      /* LineRow, sorted by (addr, end rows first, order) */
    GArray *segs;       /* Segment */
    GArray *units;      /* UnitRange, sorted by lo */
    GHashTable *decls;  /* a subprogram's low_pc -> SymLine * (DW_AT_decl_file/line) */
    GStringChunk *strings;
    unsigned dropped_funcs;    /* over max_funcs */
    unsigned max_funcs;        /* SYMBOLS_MAX_FUNCS or [limits] functions */
    unsigned dropped_lines;    /* over SYMBOLS_MAX_LINES */
    csh cs;
    bool cs_ok;
    /* symbols_disasm's texts by address: the reports ask for every
     * instruction of every function once per core and per report (issue
     * 24: 8 capstone calls per instruction for 4 cores) */
    GHashTable *disasm;
    GMutex disasm_lock;
};


/* ---- functions ------------------------------------------------------ */

typedef struct Cand {
    SymFunc f;
    bool is_func;       /* STT_FUNC */
    bool global;
    uint32_t sec_end;   /* end of the section holding it */
    unsigned order;
} Cand;

static gint cand_cmp(gconstpointer a, gconstpointer b)
{
    const Cand *x = a, *y = b;
    if (x->f.addr != y->f.addr)
        return x->f.addr < y->f.addr ? -1 : 1;
    /* preferred first: STT_FUNC, then global, then symtab order */
    if (x->is_func != y->is_func)
        return x->is_func ? -1 : 1;
    if (x->global != y->global)
        return x->global ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Linker-defined boundary symbols that share an address with real code. */
static const char *const linker_names[] = {
    "_ftext", "_etext", "__etext", "_fdata", "_edata", "_fbss", "_end", "__bss_start",
    "_gp", "__gnu_local_gp", NULL,
};

static bool label_name_ok(const char *name)
{
    if (!name || !name[0] || name[0] == '$' || g_str_has_prefix(name, ".L"))
        return false;
    return !g_strv_contains(linker_names, name);
}

/* A function's size as far as it can matter: an ELF may claim any size
 * (1 GiB, 0xff000010), but code only exists in the loaded bytes, so the
 * size stops at the end of the executable segment holding the function's
 * start, and at the next function (`next`, 0 when none). Outside every
 * loaded segment it is capped at SYMBOLS_MAX_UNLOADED bytes. This keeps
 * everything sized by symbol size linear in the ELF file. */
static uint32_t bounded_size(const Symbols *s, uint32_t addr, uint32_t size, uint32_t next)
{
    uint64_t end = (uint64_t)addr + size, cap = (uint64_t)addr + SYMBOLS_MAX_UNLOADED;
    for (guint i = 0; i < s->segs->len; i++) {
        const Segment *seg = &g_array_index(s->segs, Segment, i);
        if (seg->exec && addr >= seg->vaddr && addr - seg->vaddr < seg->filesz)
            cap = (uint64_t)seg->vaddr + seg->filesz;
    }
    end = MIN(end, cap);
    if (next > addr)
        end = MIN(end, next);
    return (uint32_t)(end - addr);
}

static void read_functions(Symbols *s, const ElfFile *elf)
{
    GArray *cands = g_array_new(FALSE, FALSE, sizeof(Cand));
    for (unsigned i = 0; i < elf_file_nsymbols(elf); i++) {
        const ElfSymbol *sym = elf_file_symbol(elf, i);
        if (!label_name_ok(sym->name))
            continue;
        if (sym->value < sym->sec_lo || sym->value >= sym->sec_hi)
            continue;   /* e.g. _etext at the end of .text */
        if (!sym->func && (sym->value & 3))
            continue;
        Cand c = {
            .f = { .name = (char *)sym->name, .addr = sym->value, .size = sym->size },
            .is_func = sym->func,
            .global = sym->global,
            .sec_end = sym->sec_hi,
            .order = cands->len,
        };
        if (!c.is_func)
            c.f.size = 0;   /* labels are sized up to the next symbol */
        g_array_append_val(cands, c);
    }
    g_array_sort(cands, cand_cmp);

    /* Drop labels strictly inside a sized STT_FUNC, and duplicates. */
    GArray *kept = g_array_new(FALSE, FALSE, sizeof(Cand));
    uint32_t func_end = 0;
    bool have_func = false;
    for (guint i = 0; i < cands->len; i++) {
        Cand *c = &g_array_index(cands, Cand, i);
        if (kept->len && g_array_index(kept, Cand, kept->len - 1).f.addr == c->f.addr)
            continue;
        if (!c->is_func && have_func && c->f.addr < func_end)
            continue;
        if (c->is_func && c->f.size) {
            uint32_t end = c->f.addr + c->f.size;
            if (!have_func || c->f.addr >= func_end || end > func_end)
                func_end = end;
            have_func = true;
        }
        g_array_append_val(kept, *c);
    }

    unsigned n = MIN(kept->len, (guint)s->max_funcs);
    s->dropped_funcs = kept->len - n;
    for (guint i = 0; i < n; i++) {
        Cand *c = &g_array_index(kept, Cand, i);
        SymFunc f = c->f;
        uint32_t next = i + 1 < kept->len ? g_array_index(kept, Cand, i + 1).f.addr : 0;
        if (f.size == 0) {
            uint32_t end = c->sec_end;
            if (next > f.addr && next < end)
                end = next;
            f.size = end - f.addr;
        }
        f.size = bounded_size(s, f.addr, f.size, next);
        f.name = name_escaped(f.name, NAME_ESC_TEXT); /* never a control byte (base/name.h) */
        g_array_append_val(s->funcs, f);
    }
    g_array_free(kept, TRUE);
    g_array_free(cands, TRUE);
}

/* ---- lines ---------------------------------------------------------- */

static gint line_cmp(gconstpointer a, gconstpointer b)
{
    const LineRow *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    /* an end_sequence row sorts before a new sequence at the same address */
    if ((x->file == NULL) != (y->file == NULL))
        return x->file == NULL ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* An address range of a compilation unit and its primary source file. */
typedef struct UnitRange {
    uint32_t lo, hi;
    const char *file;
} UnitRange;

static gint unit_cmp(gconstpointer a, gconstpointer b)
{
    const UnitRange *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* A line row's file as binutils/gdb name it: a relative name is joined to
 * DW_AT_comp_dir (itself possibly relative: then the result is relative to
 * the current directory). libdw gives the line table's directory + name
 * but leaves the comp dir out. */
static const char *line_file(Symbols *s, const char *comp_dir, const char *file)
{
    if (!file || g_path_is_absolute(file) || !comp_dir || !*comp_dir)
        return file ? g_string_chunk_insert_const(s->strings, file) : NULL;
    char *joined = g_build_filename(comp_dir, file, NULL);
    const char *r = g_string_chunk_insert_const(s->strings, joined);
    g_free(joined);
    return r;
}

/* The unit's address ranges with its DW_AT_name (its primary source
 * file, as opposed to the headers whose code was inlined into it). */
static void read_unit_ranges(Symbols *s, Dwarf_Die *cu, const char *comp_dir)
{
    const char *name = dwarf_diename(cu);
    if (!name)
        return;
    Dwarf_Addr base, lo, hi;
    ptrdiff_t r = 0;
    while (s->units->len < SYMBOLS_MAX_LINES && (r = dwarf_ranges(cu, r, &base, &lo, &hi)) > 0)
        if (hi > lo && lo <= UINT32_MAX) {
            UnitRange u = { (uint32_t)lo, (uint32_t)MIN(hi, (Dwarf_Addr)UINT32_MAX), line_file(s, comp_dir, name) };
            g_array_append_val(s->units, u);
        }
}

/* The declaration position (DW_AT_decl_file, DW_AT_decl_line: the line
 * with the function's name, where gcov and lcov put a function) of each
 * subprogram of the unit that has code, by its low_pc. */
typedef struct {
    Symbols *s;
    const char *comp_dir;
} DeclCtx;

static int read_decl(Dwarf_Die *func, void *arg)
{
    DeclCtx *x = arg;
    Dwarf_Addr lo;
    int line = 0;
    if (g_hash_table_size(x->s->decls) >= SYMBOLS_MAX_FUNCS)
        return DWARF_CB_ABORT;
    if (dwarf_lowpc(func, &lo) != 0 || lo > UINT32_MAX || dwarf_decl_line(func, &line) != 0 || line <= 0)
        return DWARF_CB_OK;
    const char *file = dwarf_decl_file(func);
    if (!file)
        return DWARF_CB_OK;
    SymLine *d = g_new(SymLine, 1);
    *d = (SymLine){ line_file(x->s, x->comp_dir, file), (unsigned)line };
    g_hash_table_insert(x->s->decls, GUINT_TO_POINTER((uint32_t)lo), d);
    return DWARF_CB_OK;
}

static void read_lines(Symbols *s, Elf *elf)
{
    Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
    if (!dw)
        return;
    Dwarf_Off off = 0, next;
    size_t hsize;
    while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        Dwarf_Die cudie;
        Dwarf_Lines *lines;
        size_t nlines;
        Dwarf_Attribute cda;
        const char *comp_dir = NULL;
        if (dwarf_offdie(dw, off + hsize, &cudie)) {
            comp_dir = dwarf_formstring(dwarf_attr(&cudie, DW_AT_comp_dir, &cda));
            read_unit_ranges(s, &cudie, comp_dir);
            DeclCtx x = { s, comp_dir };
            dwarf_getfuncs(&cudie, read_decl, &x, 0);
        }
        if (dwarf_offdie(dw, off + hsize, &cudie) &&
            dwarf_getsrclines(&cudie, &lines, &nlines) == 0) {
            for (size_t i = 0; i < nlines; i++) {
                if (s->lines->len >= SYMBOLS_MAX_LINES) {
                    s->dropped_lines += (unsigned)MIN(nlines - i, (size_t)(G_MAXUINT - s->dropped_lines));
                    break;
                }
                Dwarf_Line *l = dwarf_onesrcline(lines, i);
                Dwarf_Addr addr;
                int lineno = 0;
                bool end = false;
                if (!l || dwarf_lineaddr(l, &addr) != 0)
                    continue;
                dwarf_lineno(l, &lineno);
                dwarf_lineendsequence(l, &end);
                const char *file = end ? NULL : dwarf_linesrc(l, NULL, NULL);
                LineRow r = {
                    .addr = (uint32_t)addr,
                    .line = end || lineno < 0 ? 0 : (unsigned)lineno,
                    .file = line_file(s, comp_dir, file),
                    .order = s->lines->len,
                };
                if (!end && !file)
                    r.file = g_string_chunk_insert_const(s->strings, "??");
                g_array_append_val(s->lines, r);
            }
        }
        off = next;
    }
    dwarf_end(dw);
    g_array_sort(s->lines, line_cmp);
    g_array_sort(s->units, unit_cmp);
}

/* ---- image ---------------------------------------------------------- */

static void read_segments(Symbols *s, const ElfFile *elf)
{
    for (unsigned i = 0; i < elf_file_nloads(elf); i++) {
        const ElfLoad *l = elf_file_load(elf, i);
        if (l->filesz == 0 || !l->bytes)
            continue;
        Segment seg = {
            .vaddr = l->vaddr,
            .filesz = l->filesz,
            .exec = l->exec,
            .bytes = g_memdup2(l->bytes, l->filesz),
        };
        g_array_append_val(s->segs, seg);
    }
}

/* Pointer to the 4 ELF-order bytes at addr in an executable segment. kseg1
 * addresses alias the kseg0 image. */
static const guint8 *image_at(const Symbols *s, uint32_t addr)
{
    for (int pass = 0; pass < 2; pass++) {
        for (guint i = 0; i < s->segs->len; i++) {
            const Segment *seg = &g_array_index(s->segs, Segment, i);
            if (seg->exec && addr >= seg->vaddr && seg->filesz >= 4 &&
                addr - seg->vaddr <= seg->filesz - 4)
                return seg->bytes + (addr - seg->vaddr);
        }
        if (addr >= 0xA0000000u && addr < 0xC0000000u)
            addr -= 0x20000000u;
        else
            break;
    }
    return NULL;
}

/* ---- stripped images ------------------------------------------------ */

static gint u32_cmp(gconstpointer a, gconstpointer b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* With no function symbol at all (a stripped ELF), name the code by
 * address: a function "fn_XXXXXXXX" starts at the entry point, the
 * interrupt vector, the start of each executable segment, and every
 * static call target (jal, bal) inside an executable segment. Each runs up
 * to the next start or the end of its segment. Calls, call graphs and
 * listings then still work, by address. */
static void synthesize_functions(Symbols *s, uint32_t entry)
{
    GArray *starts = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    uint32_t vector = 0x80000180u;
    g_array_append_val(starts, entry);
    g_array_append_val(starts, vector);
    for (guint i = 0; i < s->segs->len; i++) {
        const Segment *seg = &g_array_index(s->segs, Segment, i);
        if (!seg->exec)
            continue;
        g_array_append_val(starts, seg->vaddr);
        for (uint32_t off = 0; off + 4 <= seg->filesz; off += 4) {
            const guint8 *p = seg->bytes + off;
            uint32_t w = bytes_get32(p, s->big_endian);
            uint32_t pc = seg->vaddr + off, target;
            if ((w >> 26) == 3)                                   /* jal */
                target = ((pc + 4) & 0xF0000000u) | ((w & 0x03FFFFFFu) << 2);
            else if ((w & 0xFFFF0000u) == 0x04110000u)            /* bal */
                target = pc + 4 + ((uint32_t)(int32_t)(int16_t)(w & 0xFFFF) << 2);
            else
                continue;
            g_array_append_val(starts, target);
        }
    }
    g_array_sort(starts, u32_cmp);
    for (guint i = 0; i < starts->len; i++) {
        uint32_t a = g_array_index(starts, uint32_t, i);
        if (i && a == g_array_index(starts, uint32_t, i - 1))
            continue;
        const Segment *home = NULL;
        for (guint k = 0; k < s->segs->len && !home; k++) {
            const Segment *seg = &g_array_index(s->segs, Segment, k);
            if (seg->exec && a >= seg->vaddr && a - seg->vaddr < seg->filesz && !(a & 3))
                home = seg;
        }
        if (!home)
            continue;
        uint32_t end = home->vaddr + home->filesz;
        for (guint k = i + 1; k < starts->len; k++) {
            uint32_t n = g_array_index(starts, uint32_t, k);
            if (n > a) {
                if (n < end)
                    end = n;
                break;
            }
        }
        SymFunc f = { .name = g_strdup_printf("fn_%08x", a), .addr = a, .size = end - a };
        g_array_append_val(s->funcs, f);
    }
    g_array_free(starts, TRUE);
}

/* ---- load / free ---------------------------------------------------- */

Symbols *symbols_load(const char *elf_path, GError **error)
{
    return symbols_load_max(elf_path, SYMBOLS_MAX_FUNCS, error);
}

Symbols *symbols_load_max(const char *elf_path, unsigned max_funcs, GError **error)
{
    g_return_val_if_fail(elf_path != NULL, NULL);
    ElfFile *elf = elf_file_open(elf_path, error);
    if (!elf)
        return NULL;
    Symbols *s = g_new0(Symbols, 1);
    s->path = g_strdup(elf_path);
    s->max_funcs = max_funcs ? max_funcs : 1;
    s->big_endian = elf_file_big_endian(elf);
    s->funcs = g_array_new(FALSE, FALSE, sizeof(SymFunc));
    s->lines = g_array_new(FALSE, FALSE, sizeof(LineRow));
    s->segs = g_array_new(FALSE, FALSE, sizeof(Segment));
    s->units = g_array_new(FALSE, FALSE, sizeof(UnitRange));
    s->decls = g_hash_table_new_full(NULL, NULL, NULL, g_free);
    s->strings = g_string_chunk_new(1024);
    read_segments(s, elf);   /* first: function sizes are bounded by them */
    read_functions(s, elf);
    read_lines(s, elf_file_libelf(elf));
    if (s->funcs->len == 0)
        synthesize_functions(s, elf_file_entry(elf));
    elf_file_close(elf);

    cs_mode mode = CS_MODE_MIPS32 | (s->big_endian ? CS_MODE_BIG_ENDIAN : CS_MODE_LITTLE_ENDIAN);
    s->cs_ok = cs_open(CS_ARCH_MIPS, mode, &s->cs) == CS_ERR_OK;
    s->disasm = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    g_mutex_init(&s->disasm_lock);
    return s;
}

void symbols_free(Symbols *s)
{
    if (!s)
        return;
    for (guint i = 0; i < s->funcs->len; i++)
        g_free(g_array_index(s->funcs, SymFunc, i).name);
    for (guint i = 0; i < s->segs->len; i++)
        g_free(g_array_index(s->segs, Segment, i).bytes);
    g_array_free(s->funcs, TRUE);
    g_array_free(s->lines, TRUE);
    g_array_free(s->segs, TRUE);
    g_array_free(s->units, TRUE);
    g_hash_table_destroy(s->decls);
    g_string_chunk_free(s->strings);
    if (s->cs_ok)
        cs_close(&s->cs);
    g_hash_table_destroy(s->disasm);
    g_mutex_clear(&s->disasm_lock);
    g_free(s->path);
    g_free(s);
}

/* ---- queries -------------------------------------------------------- */

unsigned symbols_exec_ranges(const Symbols *s, uint32_t *lo, uint32_t *hi, unsigned max)
{
    GArray *r = g_array_new(FALSE, FALSE, sizeof(uint64_t) * 2);
    for (guint i = 0; i < s->segs->len; i++) {
        const Segment *seg = &g_array_index(s->segs, Segment, i);
        if (!seg->exec || !seg->filesz)
            continue;
        uint64_t v[2] = { seg->vaddr, MIN((uint64_t)seg->vaddr + seg->filesz, (uint64_t)UINT32_MAX) & ~3ull };
        g_array_append_val(r, v);
    }
    /* sort by start (few segments: insertion sort) and merge */
    uint64_t (*a)[2] = (void *)r->data;
    for (guint i = 1; i < r->len; i++)
        for (guint j = i; j > 0 && a[j - 1][0] > a[j][0]; j--) {
            uint64_t t0 = a[j][0], t1 = a[j][1];
            a[j][0] = a[j - 1][0], a[j][1] = a[j - 1][1];
            a[j - 1][0] = t0, a[j - 1][1] = t1;
        }
    unsigned n = 0;
    for (guint i = 0; i < r->len; i++) {
        if (n && a[i][0] <= a[n - 1][1]) {
            a[n - 1][1] = MAX(a[n - 1][1], a[i][1]);
            continue;
        }
        a[n][0] = a[i][0], a[n][1] = a[i][1];
        n++;
    }
    for (unsigned i = 0; i < n && i < max; i++) {
        lo[i] = (uint32_t)a[i][0];
        hi[i] = (uint32_t)a[i][1];
    }
    g_array_free(r, TRUE);
    return n;
}

unsigned symbols_dropped_funcs(const Symbols *s)
{
    return s->dropped_funcs;
}

unsigned symbols_dropped_lines(const Symbols *s)
{
    return s->dropped_lines;
}

unsigned symbols_line_rows(const Symbols *s) { return s->lines->len; }

bool symbols_big_endian(const Symbols *s)
{
    return s->big_endian;
}

unsigned symbols_count(const Symbols *s)
{
    return s ? s->funcs->len : 0;
}

const SymFunc *symbols_func(const Symbols *s, unsigned index)
{
    g_return_val_if_fail(index < s->funcs->len, NULL);
    return &g_array_index(s->funcs, SymFunc, index);
}

/* Index of the last function with addr <= a, or -1. */
static int func_floor(const Symbols *s, uint32_t a)
{
    int lo = 0, hi = (int)s->funcs->len - 1, best = -1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (g_array_index(s->funcs, SymFunc, mid).addr <= a) {
            best = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return best;
}

int symbols_lookup(const Symbols *s, uint32_t addr)
{
    int i = func_floor(s, addr);
    /* An earlier function may be sized over a later one's start (nested
     * labels); step back over functions that do not cover addr. */
    for (int j = i; j >= 0 && j > i - 4; j--) {
        const SymFunc *f = &g_array_index(s->funcs, SymFunc, j);
        if (addr - f->addr < f->size)
            return j;
    }
    return -1;
}

int symbols_at(const Symbols *s, uint32_t addr)
{
    int i = func_floor(s, addr);
    return i >= 0 && g_array_index(s->funcs, SymFunc, i).addr == addr ? i : -1;
}

uint32_t symbols_code_addr(const Symbols *s, uint32_t addr)
{
    if (!s || addr < 0x80000000u || addr >= 0xC0000000u || symbols_lookup(s, addr) >= 0)
        return addr;
    uint32_t alias = addr ^ 0x20000000u;
    return symbols_lookup(s, alias) >= 0 ? alias : addr;
}

const char *symbols_unit_file(const Symbols *s, uint32_t addr)
{
    guint lo = 0, hi = s->units->len;   /* first unit with lo > addr */
    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        if (g_array_index(s->units, UnitRange, mid).lo <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (guint i = lo; i-- > 0;) {  /* ranges may nest: the innermost first */
        const UnitRange *u = &g_array_index(s->units, UnitRange, i);
        if (addr < u->hi)
            return u->file;
        if (lo - i > 16)
            break;
    }
    return NULL;
}

SymLine symbols_decl(const Symbols *s, uint32_t addr)
{
    const SymLine *d = g_hash_table_lookup(s->decls, GUINT_TO_POINTER(addr));
    return d ? *d : (SymLine){ NULL, 0 };
}

SymLine symbols_line(const Symbols *s, uint32_t addr)
{
    SymLine none = { NULL, 0 };
    int lo = 0, hi = (int)s->lines->len - 1, best = -1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (g_array_index(s->lines, LineRow, mid).addr <= addr) {
            best = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    if (best < 0)
        return none;
    const LineRow *r = &g_array_index(s->lines, LineRow, best);
    if (!r->file)
        return none;
    return (SymLine){ r->file, r->line };
}

bool symbols_read_word(const Symbols *s, uint32_t addr, uint32_t *word)
{
    const guint8 *b = image_at(s, addr);
    if (!b)
        return false;
    *word = bytes_get32(b, s->big_endian);
    return true;
}

static char *disasm_one(const Symbols *s, uint32_t addr)
{
    const guint8 *b = image_at(s, addr);
    if (!b)
        return g_strdup("<unreadable>");
    uint32_t w = 0;
    symbols_read_word(s, addr, &w);
    if (!s->cs_ok)
        return g_strdup_printf(".word 0x%08x", w);
    cs_insn *insn = NULL;
    size_t n = cs_disasm(s->cs, b, 4, addr, 1, &insn);
    char *out;
    if (n == 1)
        out = insn[0].op_str[0] ? g_strconcat(insn[0].mnemonic, " ", insn[0].op_str, NULL)
                                : g_strdup(insn[0].mnemonic);
    else
        out = g_strdup_printf(".word 0x%08x", w);
    if (n)
        cs_free(insn, n);
    return out;
}

char *symbols_disasm(const Symbols *s, uint32_t addr)
{
    Symbols *m = (Symbols *)s;   /* the cache only: the answer never changes */
    g_mutex_lock(&m->disasm_lock);
    const char *t = g_hash_table_lookup(m->disasm, GUINT_TO_POINTER(addr));
    if (!t) {
        char *d = disasm_one(s, addr);
        g_hash_table_insert(m->disasm, GUINT_TO_POINTER(addr), d);
        t = d;
    }
    char *out = g_strdup(t);
    g_mutex_unlock(&m->disasm_lock);
    return out;
}

char *symbols_where(const Symbols *s, uint32_t addr)
{
    SymLine l = symbols_line(s, addr);
    if (!l.file)
        return g_strdup("??:0");
    return g_strdup_printf("%s:%u", l.file, l.line);
}

const char *symbols_path(const Symbols *s)
{
    return s->path;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* symbols_unwind.c — a stopped core's call stack from the ELF's call
 * frame information (DWARF CFI: .debug_frame, which GCC writes with -g,
 * and .eh_frame), reading the core's registers and memory: the backtrace
 * of a fault or a stop when the profiler's shadow call stack is not there
 * (--no-profile). Only run at a fault or a stop; the ELF is opened again
 * for it, as symbols_inline.c.
 *
 * libdw parses the sections' entries (dwarf_next_cfi). Its frame
 * interpreter (dwarf_cfi_addrframe) cannot be used: before elfutils 0.191
 * it has no MIPS ABI defaults (no abi_cfi hook) and fails every lookup
 * with "unknown error". The CFA program is therefore run here: the
 * opcodes of DWARF 2-5 section 6.4.2 but the expression ones, which stop
 * the walk with a reason.
 *
 * Frame by frame: the CFA is the rule's register plus offset, every
 * register the CFI saved (o32: $s0-$s8, $ra; the interrupt vector all it
 * saves) is read back from memory, $sp becomes the CFA and the pc the
 * return address column (MIPS: $31), less 8 to name the call (jal/jalr
 * and its delay slot). A signal frame (the runtime's interrupt vector,
 * start.S: `.cfi_signal_frame`, return column SYM_UNWIND_EPC_COLUMN)
 * returns to CP0 EPC, exactly. Where the information ends or makes no
 * sense the walk stops and says why. */
#include "profiler/model/symbols.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <string.h>

#include "base/bytes.h"
#include "elf/elf_file.h"

#define NCOLS (SYM_UNWIND_EPC_COLUMN + 1)
#define STATE_DEPTH 8

enum { RULE_SAME, RULE_UNDEF, RULE_OFFSET, RULE_VAL_OFFSET, RULE_REG, RULE_EXPR };

typedef struct Rule {
    uint8_t kind;
    int32_t arg; /* the CFA offset, or the register */
} Rule;

typedef struct Row {
    unsigned cfa_reg;
    int32_t cfa_off;
    bool cfa_expr; /* DW_CFA_def_cfa_expression: not followed */
    Rule r[NCOLS];
} Row;

typedef struct Cie {
    const uint8_t *ins, *ins_end;
    uint32_t caf;
    int32_t daf;
    unsigned ra;
    bool signal;
    uint8_t enc;   /* .eh_frame: the FDE pointer encoding ('R') */
    bool aug_z;    /* .eh_frame: FDEs carry augmentation data */
} Cie;

typedef struct Fde {
    uint32_t lo, hi;
    const uint8_t *ins, *ins_end;
    const Cie *cie;
} Fde;

typedef struct Unwinder {
    const Symbols *s;
    bool be;
    GArray *fdes;      /* Fde sorted by lo */
    GPtrArray *cies;   /* owned Cie */
    SymUnwindRead read;
    void *opaque;
    uint32_t reg[32], epc;
    bool epc_used;
    uint32_t cfa;      /* the last frame's, 0: not known */
} Unwinder;

static uint64_t uleb(const uint8_t **p, const uint8_t *end)
{
    uint64_t v = 0;
    unsigned sh = 0;
    while (*p < end) {
        uint8_t b = *(*p)++;
        if (sh < 64)
            v |= (uint64_t)(b & 0x7f) << sh;
        sh += 7;
        if (!(b & 0x80))
            break;
    }
    return v;
}

static int64_t sleb(const uint8_t **p, const uint8_t *end)
{
    uint64_t v = 0;
    unsigned sh = 0;
    uint8_t b = 0;
    while (*p < end) {
        b = *(*p)++;
        if (sh < 64)
            v |= (uint64_t)(b & 0x7f) << sh;
        sh += 7;
        if (!(b & 0x80))
            break;
    }
    if (sh < 64 && (b & 0x40))
        v |= ~(uint64_t)0 << sh;
    return (int64_t)v;
}

static uint32_t get_u(const uint8_t **p, const uint8_t *end, unsigned n, bool be)
{
    uint32_t v = 0;
    if (end - *p < (ptrdiff_t)n) {
        *p = end;
        return 0;
    }
    for (unsigned k = 0; k < n; k++)
        v |= (uint32_t)(*p)[be ? k : n - 1 - k] << (8 * (n - 1 - k));
    *p += n;
    return v;
}

static void set_rule(Row *row, uint64_t reg, uint8_t kind, int64_t arg)
{
    if (reg < NCOLS)
        row->r[reg] = (Rule){ kind, (int32_t)arg };
}

/* An opcode that sets a rule (of a register or the CFA) in row; false
 * when op is none of them. */
static bool rule_op(const Cie *c, uint8_t op, const uint8_t **pp, const uint8_t *end, Row *row, const Row *init)
{
    const uint8_t **p = pp;
    uint64_t reg = op == DW_CFA_def_cfa_offset || op == DW_CFA_def_cfa_offset_sf || op == DW_CFA_def_cfa_expression
                       ? 0 : uleb(p, end);
    switch (op) {
    case DW_CFA_offset_extended:
        set_rule(row, reg, RULE_OFFSET, (int64_t)uleb(p, end) * c->daf);
        return true;
    case DW_CFA_offset_extended_sf:
        set_rule(row, reg, RULE_OFFSET, sleb(p, end) * c->daf);
        return true;
    case DW_CFA_val_offset:
        set_rule(row, reg, RULE_VAL_OFFSET, (int64_t)uleb(p, end) * c->daf);
        return true;
    case DW_CFA_val_offset_sf:
        set_rule(row, reg, RULE_VAL_OFFSET, sleb(p, end) * c->daf);
        return true;
    case DW_CFA_GNU_negative_offset_extended:
        set_rule(row, reg, RULE_OFFSET, -(int64_t)uleb(p, end) * c->daf);
        return true;
    case DW_CFA_restore_extended:
        if (init && reg < NCOLS)
            row->r[reg] = init->r[reg];
        return true;
    case DW_CFA_undefined:
    case DW_CFA_same_value:
        set_rule(row, reg, op == DW_CFA_undefined ? RULE_UNDEF : RULE_SAME, 0);
        return true;
    case DW_CFA_register:
        set_rule(row, reg, RULE_REG, (int64_t)uleb(p, end));
        return true;
    case DW_CFA_def_cfa:
    case DW_CFA_def_cfa_sf:
        row->cfa_reg = (unsigned)reg;
        row->cfa_off = op == DW_CFA_def_cfa ? (int32_t)uleb(p, end) : (int32_t)(sleb(p, end) * c->daf);
        row->cfa_expr = false;
        return true;
    case DW_CFA_def_cfa_register:
        row->cfa_reg = (unsigned)reg;
        return true;
    case DW_CFA_def_cfa_offset:
        row->cfa_off = (int32_t)uleb(p, end);
        return true;
    case DW_CFA_def_cfa_offset_sf:
        row->cfa_off = (int32_t)(sleb(p, end) * c->daf);
        return true;
    case DW_CFA_def_cfa_expression:
        row->cfa_expr = true;
        *p += MIN(uleb(p, end), (uint64_t)(end - *p));
        return true;
    case DW_CFA_expression:
    case DW_CFA_val_expression:
        set_rule(row, reg, RULE_EXPR, 0);
        *p += MIN(uleb(p, end), (uint64_t)(end - *p));
        return true;
    case DW_CFA_GNU_args_size:
        return true;
    default:
        return false;
    }
}

/* Runs the CFA program [p, end) from *row until the location passes pc
 * (end of the program: the row at its last location). init: the CIE's
 * row (DW_CFA_restore), NULL while running the CIE's program. False: an
 * opcode this does not know. */
static bool run_cfa(Unwinder *u, const Cie *c, const uint8_t *p, const uint8_t *end, uint32_t loc, uint32_t pc,
                    Row *row, const Row *init)
{
    Row saved[STATE_DEPTH];
    unsigned depth = 0;
    while (p < end) {
        uint8_t op = *p++, low = op & 0x3f;
        uint64_t delta;
        if ((op & 0xc0) == DW_CFA_offset) {
            set_rule(row, low, RULE_OFFSET, (int64_t)uleb(&p, end) * c->daf);
            continue;
        }
        if ((op & 0xc0) == DW_CFA_restore) {
            if (init && low < NCOLS)
                row->r[low] = init->r[low];
            continue;
        }
        if ((op & 0xc0) == DW_CFA_advance_loc)
            delta = low;
        else if (op == DW_CFA_advance_loc1 || op == DW_CFA_advance_loc2 || op == DW_CFA_advance_loc4)
            delta = get_u(&p, end, op == DW_CFA_advance_loc1 ? 1 : op == DW_CFA_advance_loc2 ? 2 : 4, u->be);
        else if (op == DW_CFA_set_loc) {
            loc = get_u(&p, end, 4, u->be);
            if (loc > pc)
                return true;
            continue;
        } else if (op == DW_CFA_remember_state || op == DW_CFA_restore_state) {
            if (op == DW_CFA_remember_state ? depth == STATE_DEPTH : depth == 0)
                return false;
            if (op == DW_CFA_remember_state)
                saved[depth++] = *row;
            else
                *row = saved[--depth];
            continue;
        } else if (op == DW_CFA_nop || rule_op(c, op, &p, end, row, init))
            continue;
        else
            return false;
        loc += (uint32_t)(delta * c->caf);
        if (loc > pc)
            return true;
    }
    return true;
}

/* An .eh_frame pointer (absolute or pc-relative, 4 bytes or the address
 * size); false for another encoding. */
static bool eh_pointer(Unwinder *u, const uint8_t **p, const uint8_t *end, uint8_t enc, uint32_t sec_addr,
                       const uint8_t *sec_base, uint32_t *out)
{
    uint32_t at = sec_addr + (uint32_t)(*p - sec_base);
    if ((enc & 0x0f) > 0x0b || ((enc & 0x0f) != 0 && (enc & 0x07) != 0x03) || (enc & 0x70) > 0x10)
        return false;
    *out = get_u(p, end, 4, u->be) + ((enc & 0x70) == 0x10 ? at : 0);
    return true;
}

static Cie *cie_new(const Dwarf_CIE *e, bool eh)
{
    Cie *c = g_new0(Cie, 1);
    c->ins = e->initial_instructions;
    c->ins_end = e->initial_instructions_end;
    c->caf = (uint32_t)e->code_alignment_factor;
    c->daf = (int32_t)e->data_alignment_factor;
    c->ra = (unsigned)e->return_address_register;
    c->signal = strchr(e->augmentation, 'S') != NULL;
    c->aug_z = eh && e->augmentation[0] == 'z';
    const uint8_t *a = e->augmentation_data, *end = a ? a + e->augmentation_data_size : NULL;
    for (const char *s = e->augmentation + (c->aug_z ? 1 : 0); eh && a && *s && a < end; s++) {
        if (*s == 'R')
            c->enc = *a++;
        else if (*s == 'L')
            a++;
        else if (*s == 'P') /* the personality routine: its encoding, a 4-byte pointer */
            a += MIN(5, end - a);
        else
            break;
    }
    return c;
}

/* Reads the FDEs of one CFI section (.debug_frame or .eh_frame). */
static void load_section(Unwinder *u, Elf *elf, const char *name)
{
    size_t shstrndx;
    Elf_Scn *scn = NULL;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return;
    GElf_Shdr sh;
    while ((scn = elf_nextscn(elf, scn)))
        if (gelf_getshdr(scn, &sh) && !g_strcmp0(elf_strptr(elf, shstrndx, sh.sh_name), name))
            break;
    Elf_Data *d = scn && sh.sh_type != SHT_NOBITS ? elf_getdata(scn, NULL) : NULL;
    if (!d || !d->d_buf)
        return;
    bool eh = strcmp(name, ".eh_frame") == 0;
    g_autoptr(GHashTable) cies = g_hash_table_new(g_direct_hash, g_direct_equal);
    Dwarf_Off off = 0, next;
    Dwarf_CFI_Entry e;
    const unsigned char *ident = (const unsigned char *)elf_getident(elf, NULL);
    for (; dwarf_next_cfi(ident, d, eh, off, &next, &e) == 0; off = next) {
        if (dwarf_cfi_cie_p(&e)) {
            Cie *c = cie_new(&e.cie, eh);
            g_ptr_array_add(u->cies, c);
            g_hash_table_insert(cies, GSIZE_TO_POINTER(off), c);
            continue;
        }
        const Cie *c = g_hash_table_lookup(cies, GSIZE_TO_POINTER(e.fde.CIE_pointer));
        const uint8_t *p = e.fde.start, *end = e.fde.end;
        Fde f = { .cie = c };
        if (!c)
            continue;
        if (eh) {
            uint32_t range;
            if (!eh_pointer(u, &p, end, c->enc, (uint32_t)sh.sh_addr, d->d_buf, &f.lo)
                || !eh_pointer(u, &p, end, c->enc & 0x0f, 0, d->d_buf, &range))
                continue;
            f.hi = f.lo + range;
            if (c->aug_z)
                p += uleb(&p, end);
        } else {
            f.lo = get_u(&p, end, 4, u->be);
            f.hi = f.lo + get_u(&p, end, 4, u->be);
        }
        f.ins = p;
        f.ins_end = end;
        if (f.hi > f.lo && p <= end)
            g_array_append_val(u->fdes, f);
    }
}

static gint fde_cmp(gconstpointer a, gconstpointer b)
{
    const Fde *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static const Fde *fde_at(const Unwinder *u, uint32_t pc)
{
    const Fde *v = (const Fde *)(void *)u->fdes->data;
    unsigned lo = 0, hi = u->fdes->len;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (v[mid].hi <= pc)
            lo = mid + 1;
        else if (v[mid].lo > pc)
            hi = mid;
        else
            return &v[mid];
    }
    return NULL;
}

static bool read_word(Unwinder *u, uint32_t addr, uint32_t *v)
{
    uint8_t b[4];
    if ((addr & 3) || !u->read(u->opaque, addr, b, 4))
        return false;
    *v = bytes_get32(b, u->be);
    return true;
}

/* The caller's value of register r under rule x: false when undefined
 * or unreadable; RULE_SAME keeps this frame's. */
static bool caller_reg(Unwinder *u, const Rule *x, unsigned r, uint32_t cfa, uint32_t *v)
{
    switch (x->kind) {
    case RULE_SAME:
        if (r >= 32)
            return false;
        *v = u->reg[r];
        return true;
    case RULE_OFFSET:
        return read_word(u, cfa + (uint32_t)x->arg, v);
    case RULE_VAL_OFFSET:
        *v = cfa + (uint32_t)x->arg;
        return true;
    case RULE_REG:
        if ((unsigned)x->arg >= 32)
            return false;
        *v = u->reg[x->arg];
        return true;
    default:
        return false;
    }
}

static char *where(const Unwinder *u, uint32_t pc)
{
    int fi = symbols_lookup(u->s, symbols_code_addr(u->s, pc));
    return g_strdup_printf("0x%08x (%s)", pc, fi >= 0 ? symbols_func(u->s, (unsigned)fi)->name : "no symbol");
}

/* The row of pc's FDE at pc; a reason (g_free it) when there is none. */
static char *row_at(Unwinder *u, uint32_t pc, Row *row, const Fde **fde)
{
    const Fde *f = fde_at(u, symbols_code_addr(u->s, pc));
    *fde = f;
    g_autofree char *at = where(u, pc);
    if (!f)
        return g_strdup_printf("no call frame information for %s", at);
    Row init = { .cfa_reg = 29 };
    if (!run_cfa(u, f->cie, f->cie->ins, f->cie->ins_end, f->lo, UINT32_MAX, &init, NULL))
        return g_strdup_printf("call frame information for %s has an opcode not known", at);
    *row = init;
    if (!run_cfa(u, f->cie, f->ins, f->ins_end, f->lo, symbols_code_addr(u->s, pc), row, &init))
        return g_strdup_printf("call frame information for %s has an opcode not known", at);
    if (row->cfa_expr || row->cfa_reg >= 32)
        return g_strdup_printf("the frame address at %s is a DWARF expression", at);
    return NULL;
}

/* One step: from the frame at *pc (the call site in it, or the faulting
 * instruction) to its caller; false with *why when it cannot, *why NULL
 * when this was the outermost frame (return address undefined: _start). */
static bool step(Unwinder *u, uint32_t *pc, char **why)
{
    Row row;
    const Fde *f;
    if ((*why = row_at(u, *pc, &row, &f)))
        return false;
    g_autofree char *at = where(u, *pc);
    uint32_t cfa = u->reg[row.cfa_reg] + (uint32_t)row.cfa_off, next = 0, regs[32];
    u->cfa = cfa;
    unsigned ra = f->cie->ra;
    bool signal = f->cie->signal;
    if (signal && ra == SYM_UNWIND_EPC_COLUMN) { /* the interrupt vector: back to EPC */
        if (u->epc_used) {
            *why = g_strdup_printf("a second interrupt frame at %s (CP0 EPC holds the innermost's)", at);
            return false;
        }
        next = u->epc;
        u->epc_used = true;
    } else if (ra >= NCOLS || row.r[ra].kind == RULE_UNDEF) {
        return false; /* the outermost frame (the reset entry) */
    } else if (!caller_reg(u, &row.r[ra], ra, cfa, &next)) {
        *why = g_strdup_printf("return address not readable at %s", at);
        return false;
    }
    for (unsigned r = 0; r < 32; r++)
        if (!caller_reg(u, &row.r[r], r, cfa, &regs[r]))
            regs[r] = 0;
    regs[0] = 0;
    regs[29] = cfa;
    uint32_t call = signal ? next : next - 8; /* the call: jal/jalr and its delay slot */
    if (next < 8 || (next & 3) || cfa < u->reg[29] || (cfa == u->reg[29] && call == *pc)) {
        *why = g_strdup_printf("return address 0x%08x from %s is not a call's (frame 0x%08x, $sp 0x%08x)", next, at,
                               cfa, u->reg[29]);
        return false;
    }
    if (symbols_lookup(u->s, symbols_code_addr(u->s, call)) < 0) {
        *why = g_strdup_printf("return address 0x%08x read for %s is in no function (a stack overwritten?)", next,
                               at);
        return false;
    }
    memcpy(u->reg, regs, sizeof regs);
    *pc = call;
    return true;
}

/* Registers read at the block's end (regs_pc) for a fault at pc before
 * it: the frames from regs_pc start at pc's function (frames of a callee
 * the block called dropped, pc in place of the block's end); a block that
 * returned has left it: pc goes in front. */
static unsigned start_at(const Symbols *s, uint32_t pc, uint32_t *pcs, unsigned n, unsigned max)
{
    int fi = symbols_lookup(s, symbols_code_addr(s, pc));
    unsigned k = 0;
    while (k < n && symbols_lookup(s, symbols_code_addr(s, pcs[k])) != fi)
        k++;
    if (k < n) {
        memmove(pcs, pcs + k, (n - k) * sizeof *pcs);
        pcs[0] = pc;
        return n - k;
    }
    n -= n == max;
    memmove(pcs + 1, pcs, n * sizeof *pcs);
    pcs[0] = pc;
    return n + 1;
}

static unsigned unwind(const Symbols *s, const uint32_t gpr[32], uint32_t pc, uint32_t epc, SymUnwindRead read,
                       void *opaque, uint32_t *pcs, uint32_t *cfas, unsigned max, char **why);

unsigned symbols_unwind(const Symbols *s, const uint32_t gpr[32], uint32_t pc, uint32_t regs_pc, uint32_t epc,
                        SymUnwindRead read, void *opaque, uint32_t *pcs, unsigned max, char **why)
{
    if (regs_pc != pc && max > 1) {
        unsigned n = symbols_unwind(s, gpr, regs_pc, regs_pc, epc, read, opaque, pcs, max, why);
        return start_at(s, pc, pcs, n, max);
    }
    return unwind(s, gpr, pc, epc, read, opaque, pcs, NULL, max, why);
}

unsigned symbols_unwind_cfa(const Symbols *s, const uint32_t gpr[32], uint32_t pc, uint32_t epc, SymUnwindRead read,
                            void *opaque, uint32_t *pcs, uint32_t *cfas, unsigned max, char **why)
{
    return unwind(s, gpr, pc, epc, read, opaque, pcs, cfas, max, why);
}

static unsigned unwind(const Symbols *s, const uint32_t gpr[32], uint32_t pc, uint32_t epc, SymUnwindRead read,
                       void *opaque, uint32_t *pcs, uint32_t *cfas, unsigned max, char **why)
{
    *why = NULL;
    if (!max)
        return 0;
    g_autoptr(GError) err = NULL;
    ElfFile *elf = elf_file_open(symbols_path(s), &err);
    Unwinder u = { .s = s, .be = symbols_big_endian(s), .read = read, .opaque = opaque, .epc = epc,
                   .fdes = g_array_new(FALSE, FALSE, sizeof(Fde)), .cies = g_ptr_array_new_with_free_func(g_free) };
    memcpy(u.reg, gpr, sizeof u.reg);
    if (elf) {
        load_section(&u, elf_file_libelf(elf), ".debug_frame");
        load_section(&u, elf_file_libelf(elf), ".eh_frame");
        g_array_sort(u.fdes, fde_cmp);
    }
    unsigned k = 0;
    pcs[k++] = pc;
    if (cfas)
        cfas[0] = 0;
    if (!u.fdes->len)
        *why = g_strdup_printf("%s has no call frame information (no .debug_frame: built without -g)",
                               symbols_path(s));
    for (bool more = !*why; more && k < max;) {
        u.cfa = 0;
        more = step(&u, &pc, why);
        if (cfas)
            cfas[k - 1] = u.cfa;
        if (more)
            pcs[k++] = pc;
    }
    if (cfas && k == max && !*why)
        cfas[k - 1] = 0;   /* the step past the last was not taken */
    if (!*why && k == max)
        *why = g_strdup_printf("more than %u frames", max);
    g_array_free(u.fdes, TRUE);
    g_ptr_array_free(u.cies, TRUE);
    if (elf)
        elf_file_close(elf);
    return k;
}

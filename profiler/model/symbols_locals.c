// SPDX-License-Identifier: GPL-2.0-or-later
/* symbols_locals.c — what a stack or heap address is, for a fault's
 * message (symbols_data.c names globals and statics): the local variable
 * or argument whose DWARF location (libdw, at the frame's pc: DW_OP_fbreg
 * from DW_AT_frame_base DW_OP_call_frame_cfa, or DW_OP_breg29 from the
 * frame's $sp) holds it, else the one it lies past (an overflow), else the
 * frame; an address between _end and the stack: the heap. The frames and
 * their frame addresses come from the unwinder (symbols_unwind_cfa). */
#include "profiler/model/symbols.h"
#include "profiler/model/symbols_dw.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "elf/elf_file.h"

/* kseg0 and kseg1 are one RAM: compare physical addresses */
#define PHYS(a) ((uint32_t)(a) & 0x1FFFFFFFu)
#define DW_REG_SP 29

typedef struct Local {
    char *name, *func;
    uint32_t at, size;
    bool arg;
    unsigned frame;
} Local;

/* The frame's stack as libdw sees it at pc. */
typedef struct FrameCtx {
    Dwarf_Addr pc;
    uint32_t cfa, sp;
    bool have_fb;
    uint32_t fb;
    unsigned frame;
} FrameCtx;

/* A one-operation location at pc: DW_OP_call_frame_cfa, DW_OP_fbreg or
 * DW_OP_breg29 (the only forms a MIPS GCC puts stack objects at). */
static bool one_op(Dwarf_Die *d, unsigned attr, Dwarf_Addr pc, Dwarf_Op *op)
{
    Dwarf_Attribute a;
    Dwarf_Op *ops;
    size_t n;
    if (!dwarf_attr_integrate(d, attr, &a) || dwarf_getlocation_addr(&a, pc, &ops, &n, 1) != 1 || n != 1)
        return false;
    *op = ops[0];
    return true;
}

static bool var_at(Dwarf_Die *v, const FrameCtx *f, uint32_t *at)
{
    Dwarf_Op op;
    if (!one_op(v, DW_AT_location, f->pc, &op))
        return false;
    if (op.atom == DW_OP_fbreg && f->have_fb)
        *at = f->fb + (uint32_t)(int32_t)op.number;
    else if (op.atom == DW_OP_breg0 + DW_REG_SP && f->sp)
        *at = f->sp + (uint32_t)(int32_t)op.number;
    else
        return false;
    return true;
}

static const char *name_of(Dwarf_Die *d)
{
    Dwarf_Attribute a;
    const char *n = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &a));
    return n ? n : "??";
}

/* The variables and arguments declared in scope, with their addresses. */
static void scope_locals(Dwarf_Die *scope, const char *func, const FrameCtx *f, GArray *out)
{
    Dwarf_Die v;
    if (dwarf_child(scope, &v) != 0)
        return;
    do {
        int tag = dwarf_tag(&v);
        if (tag != DW_TAG_variable && tag != DW_TAG_formal_parameter)
            continue;
        Dwarf_Attribute a;
        Dwarf_Die type;
        Dwarf_Word size;
        uint32_t at;
        if (!var_at(&v, f, &at) || !dwarf_formref_die(dwarf_attr_integrate(&v, DW_AT_type, &a), &type)
            || dwarf_aggregate_size(&type, &size) != 0 || !size || size > UINT32_MAX)
            continue;
        Local l = { .name = g_strdup(name_of(&v)), .func = g_strdup(func), .at = at, .size = (uint32_t)size,
                    .arg = tag == DW_TAG_formal_parameter, .frame = f->frame };
        g_array_append_val(out, l);
    } while (dwarf_siblingof(&v, &v) == 0);
}

/* Every local of the frame at f->pc, innermost scope first, each named
 * with the function (inlined or not) that declares it. */
static void frame_locals(Dwarf *dw, FrameCtx *f, GArray *out)
{
    Dwarf_Die cu, *scopes = NULL;
    if (!symbols_dw_unit_at(dw, (uint32_t)f->pc, &cu))
        return;
    int n = dwarf_getscopes(&cu, f->pc, &scopes);
    int fn = 0;
    while (fn < n && dwarf_tag(&scopes[fn]) != DW_TAG_subprogram)
        fn++;
    Dwarf_Op op;
    if (fn < n && one_op(&scopes[fn], DW_AT_frame_base, f->pc, &op)) {
        f->have_fb = (op.atom == DW_OP_call_frame_cfa && f->cfa) || (op.atom == DW_OP_breg0 + DW_REG_SP && f->sp);
        f->fb = op.atom == DW_OP_call_frame_cfa ? f->cfa : f->sp + (uint32_t)(int32_t)op.number;
    }
    for (int i = 0; i <= fn && i < n; i++) {
        int owner = i;
        while (owner < fn && dwarf_tag(&scopes[owner]) != DW_TAG_inlined_subroutine)
            owner++;
        scope_locals(&scopes[i], name_of(&scopes[owner]), f, out);
    }
    free(scopes);
}

static void locals_clear(gpointer p)
{
    Local *l = p;
    g_free(l->name);
    g_free(l->func);
}

/* The local that holds addr, in the innermost frame that has one; else
 * the one addr lies past in the frame whose stack holds it; else that
 * frame. */
static char *local_at(const Symbols *s, Dwarf *dw, uint32_t addr, const SymStack *st)
{
    g_autoptr(GArray) all = g_array_new(FALSE, TRUE, sizeof(Local));
    g_array_set_clear_func(all, locals_clear);
    int home = -1;   /* the frame whose stack holds addr */
    for (unsigned k = 0; k < st->n; k++) {
        uint32_t sp = k ? st->cfas[k - 1] : st->sp;
        FrameCtx f = { .pc = st->pcs[k], .cfa = st->cfas[k], .sp = sp, .frame = k };
        frame_locals(dw, &f, all);
        if (home < 0 && sp && f.cfa && PHYS(addr) >= PHYS(sp) && PHYS(addr) < PHYS(f.cfa))
            home = (int)k;
    }
    const Local *past = NULL;
    for (guint i = 0; i < all->len; i++) {
        const Local *l = &g_array_index(all, Local, i);
        uint32_t off = PHYS(addr) - PHYS(l->at);
        if (PHYS(addr) >= PHYS(l->at) && off < l->size) {
            GString *o = g_string_new(l->name);
            if (off)
                g_string_append_printf(o, "+%u", off);
            g_string_append_printf(o, ", in the %u-byte %s %s of %s (frame %u)", l->size, l->arg ? "argument" : "local",
                                   l->name, l->func, l->frame);
            return g_string_free(o, FALSE);
        }
        if ((int)l->frame == home && PHYS(addr) >= PHYS(l->at) + l->size && (!past || PHYS(l->at) > PHYS(past->at)))
            past = l;
    }
    if (past)
        return g_strdup_printf("%u bytes past the %u-byte %s %s of %s (frame %u)",
                               PHYS(addr) - PHYS(past->at) - past->size, past->size, past->arg ? "argument" : "local",
                               past->name, past->func, past->frame);
    if (home < 0)
        return NULL;
    int fi = symbols_lookup(s, symbols_code_addr(s, st->pcs[home]));
    return g_strdup_printf("in the stack frame of %s (frame %d), %u bytes below its frame address",
                           fi >= 0 ? symbols_func(s, (unsigned)fi)->name : "??", home,
                           PHYS(st->cfas[home]) - PHYS(addr));
}

/* The value of the named symbol of .symtab. */
static bool symbol_value(Elf *e, const char *name, uint32_t *v)
{
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Sym sym;
            const char *n = gelf_getsym(d, (int)i, &sym) ? elf_strptr(e, sh.sh_link, sym.st_name) : NULL;
            if (n && strcmp(n, name) == 0) {
                *v = (uint32_t)sym.st_value;
                return true;
            }
        }
    }
    return false;
}

/* Between _end (the heap's start) and the runtime's break (heap_brk,
 * firmware/libc/np_glue.c; 0 before the first sbrk): the heap; from the
 * break to the innermost $sp: memory no frame uses (a local of a function
 * that returned). */
static char *heap_at(Elf *e, uint32_t addr, const SymStack *st)
{
    uint32_t end, at, brk = 0;
    uint8_t b[4];
    if (!st->sp || PHYS(addr) >= PHYS(st->sp) || !symbol_value(e, "_end", &end) || PHYS(addr) < PHYS(end)
        || !symbol_value(e, "heap_brk", &at) || !st->read || !st->read(st->opaque, at, b, 4))
        return NULL;
    GElf_Ehdr eh;
    bool be = gelf_getehdr(e, &eh) && eh.e_ident[EI_DATA] == ELFDATA2MSB;
    brk = be ? (uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : (uint32_t)b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0];
    if (brk && PHYS(addr) < PHYS(brk))
        return g_strdup_printf("in the heap, %u bytes past _end", PHYS(addr) - PHYS(end));
    return g_strdup_printf("%u bytes below the stack pointer, in no frame", PHYS(st->sp) - PHYS(addr));
}

char *symbols_stack_at(const Symbols *s, uint32_t addr, const SymStack *st)
{
    g_autoptr(GError) err = NULL;
    ElfFile *f = elf_file_open(symbols_path(s), &err);
    if (!f)
        return NULL;
    char *what = NULL;
    Dwarf *dw = dwarf_begin_elf(elf_file_libelf(f), DWARF_C_READ, NULL);
    if (dw) {
        what = local_at(s, dw, addr, st);
        dwarf_end(dw);
    }
    if (!what)
        what = heap_at(elf_file_libelf(f), addr, st);
    elf_file_close(f);
    return what;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* symbols_inline.c — the functions the compiler inlined at an address
 * (DWARF DW_TAG_inlined_subroutine scopes, libdw's dwarf_getscopes), for
 * a fault's backtrace: what gdb shows as inline frames. The ELF is opened
 * again for it (a fault is rare; the loaded Symbols keep no DWARF). */
#include "profiler/model/symbols.h"
#include "profiler/model/symbols_dw.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <string.h>

#include "elf/elf_file.h"

struct SymInlineCtx {
    ElfFile *elf;
    Dwarf *dw;
};

SymInlineCtx *symbols_inline_open(const Symbols *s)
{
    g_autoptr(GError) err = NULL;
    ElfFile *elf = elf_file_open(symbols_path(s), &err);
    if (!elf)
        return NULL;
    Dwarf *dw = dwarf_begin_elf(elf_file_libelf(elf), DWARF_C_READ, NULL);
    if (!dw) {
        elf_file_close(elf);
        return NULL;
    }
    SymInlineCtx *x = g_new0(SymInlineCtx, 1);
    x->elf = elf;
    x->dw = dw;
    return x;
}

void symbols_inline_close(SymInlineCtx *x)
{
    if (!x)
        return;
    dwarf_end(x->dw);
    elf_file_close(x->elf);
    g_free(x);
}

/* The file of a DW_AT_call_file index, joined to the unit's directory */
static char *call_file(Dwarf_Die *cu, Dwarf_Word idx)
{
    Dwarf_Files *files;
    size_t n;
    if (dwarf_getsrcfiles(cu, &files, &n) != 0 || idx >= n)
        return NULL;
    const char *f = dwarf_filesrc(files, idx, NULL, NULL);
    if (!f)
        return NULL;
    Dwarf_Attribute a;
    const char *dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
    return g_path_is_absolute(f) || !dir ? g_strdup(f) : g_build_filename(dir, f, NULL);
}

bool symbols_dw_unit_at(Dwarf *dw, uint32_t addr, Dwarf_Die *cu)
{
    if (dwarf_addrdie(dw, addr, cu))
        return true;
    Dwarf_Off off = 0, next;
    size_t hsize;
    while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        if (dwarf_offdie(dw, off + hsize, cu) && dwarf_haspc(cu, addr) == 1)
            return true;
        off = next;
    }
    return false;
}

unsigned symbols_inline_at(SymInlineCtx *x, uint32_t addr, SymInline *out, unsigned max)
{
    Dwarf_Die cu, *scopes = NULL;
    if (!x || !symbols_dw_unit_at(x->dw, addr, &cu))
        return 0;
    int n = dwarf_getscopes(&cu, addr, &scopes);
    unsigned k = 0;
    for (int i = 0; i < n && k < max; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if (tag == DW_TAG_subprogram)
            break; /* the out-of-line function: the symbol's */
        if (tag != DW_TAG_inlined_subroutine)
            continue;
        Dwarf_Attribute a;
        Dwarf_Word line = 0, file = 0;
        const char *name = dwarf_formstring(dwarf_attr_integrate(&scopes[i], DW_AT_name, &a));
        bool has_file = dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &a), &file) == 0;
        dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &a), &line);
        out[k++] = (SymInline){ .name = g_strdup(name ? name : "??"),
                                .call_file = has_file ? call_file(&cu, file) : NULL,
                                .call_line = line <= G_MAXUINT ? (unsigned)line : 0 };
    }
    free(scopes);
    return k;
}

void symbols_inline_clear(SymInline *v, unsigned n)
{
    for (unsigned k = 0; k < n; k++) {
        g_free(v[k].name);
        g_free(v[k].call_file);
    }
}

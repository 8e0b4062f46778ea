// SPDX-License-Identifier: GPL-2.0-or-later
/* symbols_data.c — the data object at an address (an STT_OBJECT symbol
 * of .symtab: a global or static variable), for a fault's message: an
 * unaligned or unmapped access names what it went to. The ELF is opened
 * again (a fault is rare; the loaded Symbols keep functions only). */
#include "profiler/model/symbols.h"

#include <gelf.h>
#include <string.h>

#include "elf/elf_file.h"

/* kseg0 and kseg1 are one RAM: compare physical addresses */
#define PHYS(a) ((uint32_t)(a) & 0x1FFFFFFFu)

/* The object holding addr in one symbol table; its name and offset. */
static bool object_in(Elf_Scn *scn, const GElf_Shdr *sh, Elf *e, uint32_t addr, GString *out)
{
    Elf_Data *d = elf_getdata(scn, NULL);
    size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
    for (size_t i = 0; d && i < n; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_OBJECT)
            continue;
        uint32_t lo = PHYS(sym.st_value), off = PHYS(addr) - lo;
        if (PHYS(addr) < lo || (sym.st_size ? off >= sym.st_size : off != 0))
            continue;
        const char *name = elf_strptr(e, sh->sh_link, sym.st_name);
        if (!name || !*name)
            continue;
        g_string_append(out, name);
        if (off)
            g_string_append_printf(out, "+%u", off);
        g_string_append_printf(out, ", in the %" G_GUINT64_FORMAT "-byte object %s", (guint64)sym.st_size, name);
        return true;
    }
    return false;
}

char *symbols_data_at(const Symbols *s, uint32_t addr)
{
    if (addr < 0x1000u)        /* kuseg's first page: what a NULL pointer's member is */
        return g_strdup_printf("NULL+%u (through a NULL pointer)", addr);
    g_autoptr(GError) err = NULL;
    ElfFile *f = elf_file_open(symbols_path(s), &err);
    if (!f)
        return NULL;
    Elf *e = elf_file_libelf(f);
    GString *out = g_string_new(NULL);
    bool found = false;
    for (Elf_Scn *scn = NULL; !found && (scn = elf_nextscn(e, scn)) != NULL;) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
            found = object_in(scn, &sh, e, addr, out);
    }
    elf_file_close(f);
    return g_string_free(out, !found);
}

char *symbols_describe_fault(const Symbols *s, const char *message, uint32_t addr)
{
    return symbols_describe_fault_at(s, message, addr, NULL);
}

char *symbols_describe_fault_at(const Symbols *s, const char *message, uint32_t addr, const SymStack *st)
{
    g_autofree char *object = symbols_data_at(s, addr);
    if (!object && st)
        object = symbols_stack_at(s, addr, st);
    if (!object || !message)
        return NULL;
    const char *nl = strchr(message, '\n');
    int len = nl ? (int)(nl - message) : (int)strlen(message);
    return g_strdup_printf("%.*s: the address is %s%s", len, message, object, nl ? nl : "");
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* elf_file.c — the one ELF reader: header checks, PT_LOAD segments and
 * function-like symbols with libelf (gelf). */
#include "elf/elf_file.h"
#include "base/file.h"

#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "base/error.h"

struct ElfFile {
    char *path;
    int fd;
    Elf *elf;
    GElf_Ehdr eh;
    GArray *loads;             /* ElfLoad */
    GArray *syms;              /* ElfSymbol */
};

/* The usual wrong ELFs by name: a host binary, another target's build */
static const char *machine_name(unsigned m)
{
    switch (m) {
    case EM_386: return "an x86 ";
    case EM_X86_64: return "an x86-64 ";
    case EM_ARM: return "an ARM ";
    case EM_AARCH64: return "an AArch64 ";
    case EM_RISCV: return "a RISC-V ";
    case EM_PPC: case EM_PPC64: return "a PowerPC ";
    case EM_MIPS: return "a MIPS ";
    default: return "an ";
    }
}

static bool check_header(ElfFile *f, GError **error)
{
    const char *p = f->path;
    if (elf_kind(f->elf) != ELF_K_ELF || !gelf_getehdr(f->elf, &f->eh)) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF, "%s: not an ELF file", p);
        return false;
    }
    bool is32 = gelf_getclass(f->elf) == ELFCLASS32;
    if (!is32 || f->eh.e_machine != EM_MIPS) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF,
                    "%s: %s%s-bit ELF file (e_machine %u), not MIPS32 firmware (build it with nocprof-cc, "
                    "docs/firmware.md)", p, machine_name(f->eh.e_machine), is32 ? "32" : "64", f->eh.e_machine);
        return false;
    }
    if (f->eh.e_ident[EI_DATA] != ELFDATA2LSB && f->eh.e_ident[EI_DATA] != ELFDATA2MSB) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF, "%s: unknown byte order in EI_DATA", p);
        return false;
    }
    return true;
}

static bool read_loads(ElfFile *f, GError **error)
{
    size_t n = 0, size = 0;
    if (elf_getphdrnum(f->elf, &n) != 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF, "%s: unreadable program headers: %s",
                    f->path, elf_errmsg(-1));
        return false;
    }
    const char *raw = elf_rawfile(f->elf, &size);
    /* libelf counts only the headers inside a truncated file (none: "no
     * PT_LOAD segment" said before) and ignores e_phentsize */
    size_t want = f->eh.e_phnum == PN_XNUM ? n : f->eh.e_phnum;
    if (want && (f->eh.e_phentsize != sizeof(Elf32_Phdr) || f->eh.e_phoff > size
                 || want > (size - f->eh.e_phoff) / sizeof(Elf32_Phdr))) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF,
                    "%s: program headers (e_phoff %" G_GUINT64_FORMAT ", %zu of e_phentsize %u bytes) do not "
                    "fit in the file (%zu bytes; %zu-byte entries expected)", f->path, (guint64)f->eh.e_phoff,
                    want, f->eh.e_phentsize, size, sizeof(Elf32_Phdr));
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(f->elf, (int)i, &ph)) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF, "%s: unreadable program header %zu",
                        f->path, i);
            return false;
        }
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        bool in_file = raw && ph.p_offset <= size && ph.p_filesz <= size - ph.p_offset;
        ElfLoad l = {
            .index = (unsigned)i, .vaddr = (uint32_t)ph.p_vaddr, .filesz = (uint32_t)ph.p_filesz,
            .memsz = (uint32_t)ph.p_memsz, .exec = (ph.p_flags & PF_X) != 0,
            .bytes = in_file ? (const uint8_t *)raw + ph.p_offset : NULL,
        };
        g_array_append_val(f->loads, l);
    }
    return true;
}

/* One symbol table's function-like symbols (see ElfSymbol). */
static void read_symtab(ElfFile *f, Elf_Scn *scn, const GElf_Shdr *sh, size_t shnum)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data)
        return;
    size_t n = sh->sh_size / sh->sh_entsize;
    for (size_t i = 0; i < n; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym))
            continue;
        int type = GELF_ST_TYPE(sym.st_info), bind = GELF_ST_BIND(sym.st_info);
        if ((type != STT_FUNC && type != STT_NOTYPE) || sym.st_shndx == SHN_UNDEF
            || sym.st_shndx >= SHN_LORESERVE || sym.st_shndx >= shnum)
            continue;
        if (bind != STB_GLOBAL && bind != STB_LOCAL && bind != STB_WEAK)
            continue;
        GElf_Shdr tsh;
        Elf_Scn *tscn = elf_getscn(f->elf, sym.st_shndx);
        if (!tscn || !gelf_getshdr(tscn, &tsh) || !(tsh.sh_flags & SHF_EXECINSTR))
            continue;
        const char *name = elf_strptr(f->elf, sh->sh_link, sym.st_name);
        ElfSymbol s = {
            .name = name ? name : "", .value = (uint32_t)sym.st_value & ~1u, /* ISA-mode bit */
            .size = (uint32_t)sym.st_size, .func = type == STT_FUNC, .global = bind != STB_LOCAL,
            .sec_lo = (uint32_t)tsh.sh_addr, .sec_hi = (uint32_t)(tsh.sh_addr + tsh.sh_size),
        };
        g_array_append_val(f->syms, s);
    }
}

bool elf_file_symbol_value(const ElfFile *f, const char *name, uint32_t *value)
{
    size_t shnum = 0;
    if (elf_getshdrnum(f->elf, &shnum) != 0)
        return false;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(f->elf, scn)) != NULL) {
        GElf_Shdr sh;
        Elf_Data *data;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0
            || !(data = elf_getdata(scn, NULL)))
            continue;
        for (size_t i = 0, n = sh.sh_size / sh.sh_entsize; i < n; i++) {
            GElf_Sym sym;
            const char *s;
            if (gelf_getsym(data, (int)i, &sym) && sym.st_shndx != SHN_UNDEF
                && (s = elf_strptr(f->elf, sh.sh_link, sym.st_name)) && strcmp(s, name) == 0) {
                *value = (uint32_t)sym.st_value;
                return true;
            }
        }
    }
    return false;
}

static void read_symbols(ElfFile *f)
{
    size_t shnum = 0;
    if (elf_getshdrnum(f->elf, &shnum) != 0)
        return;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(f->elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB && sh.sh_entsize != 0)
            read_symtab(f, scn, &sh, shnum);
    }
}

ElfFile *elf_file_open(const char *path, GError **error)
{
    ElfFile *f = g_new0(ElfFile, 1);
    f->path = g_strdup(path);
    f->loads = g_array_new(FALSE, FALSE, sizeof(ElfLoad));
    f->syms = g_array_new(FALSE, FALSE, sizeof(ElfSymbol));
    f->fd = base_open_regular(path, NOCPROF_ERROR_ELF, error);   /* no FIFO, device, folder */
    if (f->fd < 0) {
        elf_file_close(f);
        return NULL;
    }
    elf_version(EV_CURRENT);
    f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
    if (!f->elf) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF, "%s: not an ELF file (%s)", path,
                    elf_errmsg(-1));
        elf_file_close(f);
        return NULL;
    }
    if (!check_header(f, error) || !read_loads(f, error)) {
        elf_file_close(f);
        return NULL;
    }
    read_symbols(f);
    return f;
}

void elf_file_close(ElfFile *f)
{
    if (!f)
        return;
    if (f->elf)
        elf_end(f->elf);
    if (f->fd >= 0)
        close(f->fd);
    g_array_free(f->loads, TRUE);
    g_array_free(f->syms, TRUE);
    g_free(f->path);
    g_free(f);
}

const char *elf_file_path(const ElfFile *f) { return f->path; }
bool elf_file_big_endian(const ElfFile *f) { return f->eh.e_ident[EI_DATA] == ELFDATA2MSB; }
uint32_t elf_file_entry(const ElfFile *f) { return (uint32_t)f->eh.e_entry; }
unsigned elf_file_type(const ElfFile *f) { return f->eh.e_type; }
unsigned elf_file_nloads(const ElfFile *f) { return f->loads->len; }
const ElfLoad *elf_file_load(const ElfFile *f, unsigned i) { return &g_array_index(f->loads, ElfLoad, i); }
unsigned elf_file_nsymbols(const ElfFile *f) { return f->syms->len; }
const ElfSymbol *elf_file_symbol(const ElfFile *f, unsigned i) { return &g_array_index(f->syms, ElfSymbol, i); }
Elf *elf_file_libelf(const ElfFile *f) { return f->elf; }

// SPDX-License-Identifier: GPL-2.0-or-later
/* elf/elf_file.h — the one ELF reader (libelf): a MIPS32 ELF's header,
 * PT_LOAD segments and function-like symbols, read once at open.
 *
 * Used by the emulator's loader (emu/elfload.c), the profiler's symbols
 * (profiler/model/symbols.c, which also reads DWARF through
 * elf_file_libelf) and the bench runner (bench/bare.c). Errors are
 * NOCPROF_ERROR / NOCPROF_ERROR_ELF and name the file.
 */
#ifndef NOCPROF_ELF_FILE_H
#define NOCPROF_ELF_FILE_H

#include <gelf.h>
#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct ElfFile ElfFile;

/* A PT_LOAD program header with memsz > 0. */
typedef struct ElfLoad {
    unsigned index;            /* its program header number */
    uint32_t vaddr, filesz, memsz;
    bool exec;                 /* PF_X */
    const uint8_t *bytes;      /* filesz bytes of the file; NULL when the
                                  file is shorter than the segment says */
} ElfLoad;

/* A defined STT_FUNC or STT_NOTYPE symbol in an executable (SHF_EXECINSTR)
 * section; `value` without the ISA-mode bit. */
typedef struct ElfSymbol {
    const char *name;          /* valid while the file is open */
    uint32_t value, size;
    bool func;                 /* STT_FUNC (else STT_NOTYPE) */
    bool global;               /* not STB_LOCAL */
    uint32_t sec_lo, sec_hi;   /* its section's [start, end) */
} ElfSymbol;

/* Open and check: an ELF file, 32-bit, machine MIPS, a known byte order. */
ElfFile *elf_file_open(const char *path, GError **error);
void elf_file_close(ElfFile *f);

const char *elf_file_path(const ElfFile *f);
bool elf_file_big_endian(const ElfFile *f);
uint32_t elf_file_entry(const ElfFile *f);
/* e_type (ET_EXEC, ET_REL, ...). */
unsigned elf_file_type(const ElfFile *f);

unsigned elf_file_nloads(const ElfFile *f);
const ElfLoad *elf_file_load(const ElfFile *f, unsigned i);

/* Symbols in .symtab order (every symbol table of the file). */
unsigned elf_file_nsymbols(const ElfFile *f);
const ElfSymbol *elf_file_symbol(const ElfFile *f, unsigned i);

/* The value of the defined symbol `name` of any type (linker-script
 * symbols included): false when there is none. */
bool elf_file_symbol_value(const ElfFile *f, const char *name, uint32_t *value);

/* The libelf handle, for DWARF (dwarf_begin_elf); owned by f. */
Elf *elf_file_libelf(const ElfFile *f);

#endif

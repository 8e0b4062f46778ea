// SPDX-License-Identifier: GPL-2.0-or-later
/* elfload.h — a firmware ELF as the loader sees it: PT_LOAD segments,
 * entry point, byte order. (Symbols and lines: profiler/symbols.h.) */
#ifndef NOCPROF_ELFLOAD_H
#define NOCPROF_ELFLOAD_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct ElfSegment {
    uint32_t vaddr;      /* guest virtual (kseg0/kseg1) */
    uint32_t paddr;      /* physical RAM offset */
    uint32_t filesz, memsz;
    bool exec;
    uint8_t *data;       /* filesz bytes */
} ElfSegment;

typedef struct ElfImage {
    char *path;
    bool big_endian;
    uint32_t entry;
    unsigned nsegs;
    ElfSegment *segs;
    uint32_t text_lo, text_hi; /* span of executable segments (vaddr) */
    uint32_t stack_limit;      /* __nocprof_stack_limit (the SDK's link.ld:
                                  $sp below it overflows), 0: none */
} ElfImage;

/* Load and check against a RAM of ram_size bytes; errors name the file
 * and, for a segment outside RAM, the segment. */
ElfImage *elf_image_load(const char *path, uint64_t ram_size, GError **error);
void elf_image_free(ElfImage *img);

/* Guest virtual address -> physical (kseg0/kseg1 fold onto 0..512 MiB). */
static inline uint32_t mips_phys(uint32_t vaddr)
{
    return (vaddr >= 0x80000000u && vaddr < 0xC0000000u) ? (vaddr & 0x1FFFFFFFu) : vaddr;
}

#endif

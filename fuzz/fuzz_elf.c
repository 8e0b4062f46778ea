// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_elf.c — libFuzzer target: the ELF loader (emu/elfload.c) and the
 * symbols/DWARF reader (profiler/model/symbols.c) on arbitrary bytes, then
 * the queries the reports make. Input goes through a memfd (both readers
 * take a path). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu/elfload.h"
#include "profiler/model/symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz.elf", MFD_CLOEXEC);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ElfImage *img = elf_image_load(path, 1u << 20, NULL);
    elf_image_free(img);
    Symbols *s = symbols_load(path, NULL);
    if (s) {
        unsigned n = symbols_count(s);
        for (unsigned i = 0; i < n && i < 64; i++) {
            const SymFunc *f = symbols_func(s, i);
            symbols_lookup(s, f->addr);
            symbols_at(s, f->addr + f->size / 2);
            g_free(symbols_where(s, f->addr));
            g_free(symbols_disasm(s, f->addr));
        }
        symbols_line(s, 0x80000000u);
        symbols_free(s);
    }
    close(fd);
    return 0;
}

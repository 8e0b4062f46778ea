/* elfload.c — PT_LOAD segments with libelf (gelf). */
#include "elfload.h"
#include "config.h"
#include "base/file.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

void elf_image_free(ElfImage *img)
{
    if (!img)
        return;
    for (unsigned i = 0; i < img->nsegs; i++)
        g_free(img->segs[i].data);
    g_free(img->segs);
    g_free(img->path);
    g_free(img);
}

#define ELF_FAIL(...) do { g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF, __VA_ARGS__); goto fail; } while (0)

ElfImage *elf_image_load(const char *path, uint64_t ram_size, GError **error)
{
    ElfImage *img = g_new0(ElfImage, 1);
    img->path = g_strdup(path);
    img->text_lo = UINT32_MAX;
    Elf *elf = NULL;
    int fd = base_open_regular(path, NOCPROF_ERROR_ELF, error);
    if (fd < 0)
        goto fail;
    elf_version(EV_CURRENT);
    elf = elf_begin(fd, ELF_C_READ, NULL);
    if (!elf || elf_kind(elf) != ELF_K_ELF)
        ELF_FAIL("%s: not an ELF file", path);
    if (gelf_getclass(elf) != ELFCLASS32)
        ELF_FAIL("%s: not a 32-bit ELF (MIPS32 firmware expected)", path);
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh))
        ELF_FAIL("%s: unreadable ELF header: %s", path, elf_errmsg(-1));
    if (eh.e_machine != EM_MIPS)
        ELF_FAIL("%s: ELF machine %u is not MIPS", path, eh.e_machine);
    if (eh.e_ident[EI_DATA] != ELFDATA2LSB && eh.e_ident[EI_DATA] != ELFDATA2MSB)
        ELF_FAIL("%s: unknown byte order in EI_DATA", path);
    if (eh.e_type != ET_EXEC)
        ELF_FAIL("%s: not an executable (ET_EXEC) ELF", path);
    img->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
    img->entry = (uint32_t)eh.e_entry;

    size_t nph;
    if (elf_getphdrnum(elf, &nph) != 0)
        ELF_FAIL("%s: unreadable program headers: %s", path, elf_errmsg(-1));
    img->segs = g_new0(ElfSegment, nph ? nph : 1);
    for (size_t i = 0; i < nph; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph))
            ELF_FAIL("%s: unreadable program header %zu", path, i);
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        uint32_t va = (uint32_t)ph.p_vaddr;
        uint32_t pa = mips_phys(va);
        if (ph.p_filesz > ph.p_memsz)
            ELF_FAIL("%s: PT_LOAD segment %zu: filesz 0x%" G_GINT64_MODIFIER "x > memsz 0x%"
                     G_GINT64_MODIFIER "x", path, i, (guint64)ph.p_filesz, (guint64)ph.p_memsz);
        if (va < 0x80000000u || va >= 0xC0000000u || (uint64_t)pa + ph.p_memsz > ram_size)
            ELF_FAIL("%s: PT_LOAD segment %zu (vaddr 0x%08x, memsz 0x%x) lies outside RAM "
                     "(kseg0 0x80000000 .. 0x%08" G_GINT64_MODIFIER "x)",
                     path, i, va, (unsigned)ph.p_memsz, 0x80000000u + ram_size);
        ElfSegment *s = &img->segs[img->nsegs++];
        s->vaddr = va;
        s->paddr = pa;
        s->filesz = (uint32_t)ph.p_filesz;
        s->memsz = (uint32_t)ph.p_memsz;
        s->exec = (ph.p_flags & PF_X) != 0;
        s->data = g_malloc(s->filesz ? s->filesz : 1);
        if (s->filesz && pread(fd, s->data, s->filesz, (off_t)ph.p_offset) != (ssize_t)s->filesz)
            ELF_FAIL("%s: PT_LOAD segment %zu: truncated file", path, i);
        if (s->exec) {
            img->text_lo = MIN(img->text_lo, va);
            img->text_hi = MAX(img->text_hi, va + s->memsz);
        }
    }
    if (img->nsegs == 0)
        ELF_FAIL("%s: no PT_LOAD segment", path);
    if (img->text_lo == UINT32_MAX)
        ELF_FAIL("%s: no executable PT_LOAD segment", path);
    if (mips_phys(img->entry) >= ram_size || img->entry < 0x80000000u || img->entry >= 0xC0000000u)
        ELF_FAIL("%s: entry point 0x%08x is outside RAM", path, img->entry);
    elf_end(elf);
    close(fd);
    return img;
fail:
    if (elf)
        elf_end(elf);
    if (fd >= 0)
        close(fd);
    elf_image_free(img);
    return NULL;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* elfload.c — the loader's view of a firmware ELF (elf/elf_file.h): its
 * PT_LOAD segments checked against RAM and copied. */
#include "emu/elfload.h"
#include "platform/config.h"
#include "elf/elf_file.h"

#include "nocprof/platform.h"

#include <stdlib.h>
#include <string.h>

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

static bool in_kseg(uint32_t va)
{
    return va >= NP_KSEG0 && va < 0xC0000000u;
}

/* Segment l of f into img, or false (error set) when it does not fit RAM. */
static bool add_segment(ElfImage *img, const ElfLoad *l, uint64_t ram_size, GError **error)
{
    uint32_t pa = mips_phys(l->vaddr);
    if (l->filesz > l->memsz) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF, "%s: PT_LOAD segment %u: filesz 0x%x > memsz 0x%x",
                    img->path, l->index, l->filesz, l->memsz);
        return false;
    }
    if (!in_kseg(l->vaddr) || (uint64_t)pa + l->memsz > ram_size) {
        /* the usual cause: a Linux link (0x00400000) or a bigger image than [memory] ram_size */
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF,
                    "%s: PT_LOAD segment %u (vaddr 0x%08x, memsz 0x%x) lies outside RAM "
                    "(kseg0 0x80000000 .. 0x%08" G_GINT64_MODIFIER "x)%s",
                    img->path, l->index, l->vaddr, l->memsz, NP_KSEG0 + ram_size,
                    !in_kseg(l->vaddr) ? ": firmware is linked at 0x80000000 (build it with nocprof-cc or the "
                                         "SDK's link.ld, docs/firmware.md)"
                                       : ": the image is larger than [memory] ram_size");
        return false;
    }
    if (l->filesz && !l->bytes) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF, "%s: PT_LOAD segment %u: truncated file",
                    img->path, l->index);
        return false;
    }
    ElfSegment *s = &img->segs[img->nsegs++];
    s->vaddr = l->vaddr;
    s->paddr = pa;
    s->filesz = l->filesz;
    s->memsz = l->memsz;
    s->exec = l->exec;
    s->data = g_malloc(s->filesz ? s->filesz : 1);
    if (s->filesz)
        memcpy(s->data, l->bytes, s->filesz);
    if (s->exec) {
        img->text_lo = MIN(img->text_lo, s->vaddr);
        img->text_hi = MAX(img->text_hi, s->vaddr + s->memsz);
    }
    return true;
}

static int by_paddr(const void *a, const void *b)
{
    const ElfSegment *x = *(const ElfSegment *const *)a, *y = *(const ElfSegment *const *)b;
    return x->paddr < y->paddr ? -1 : x->paddr > y->paddr;
}

/* Two PT_LOAD segments loaded over the same RAM (kseg0 and kseg1 are one
 * RAM): a corrupt or hostile ELF, whose later segment would silently win. */
static bool check_overlap(const ElfImage *img, GError **error)
{
    if (img->nsegs < 2)        /* nothing to sort: no qsort(NULL, 0, ...) */
        return true;
    g_autofree const ElfSegment **v = g_new(const ElfSegment *, img->nsegs);
    for (unsigned i = 0; i < img->nsegs; i++)
        v[i] = &img->segs[i];
    qsort(v, img->nsegs, sizeof *v, by_paddr);
    for (unsigned i = 1; i < img->nsegs; i++) {
        const ElfSegment *a = v[i - 1], *b = v[i];
        if ((uint64_t)a->paddr + a->memsz > b->paddr) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF,
                        "%s: PT_LOAD segments at vaddr 0x%08x (memsz 0x%x) and 0x%08x (memsz 0x%x) overlap in RAM "
                        "at physical 0x%08x", img->path, a->vaddr, a->memsz, b->vaddr, b->memsz, b->paddr);
            return false;
        }
    }
    return true;
}

static bool check_image(const ElfImage *img, uint64_t ram_size, GError **error)
{
    if (!check_overlap(img, error))
        return false;
    const char *why = img->nsegs == 0 ? "no PT_LOAD segment"
                    : img->text_lo == UINT32_MAX ? "no executable PT_LOAD segment" : NULL;
    if (why) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF, "%s: %s", img->path, why);
        return false;
    }
    if (mips_phys(img->entry) >= ram_size || !in_kseg(img->entry)) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF, "%s: entry point 0x%08x is outside RAM",
                    img->path, img->entry);
        return false;
    }
    if (img->entry & 3) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF,
                    "%s: entry point 0x%08x is not a multiple of 4 (MIPS32 code; MIPS16e and microMIPS, "
                    "entered at odd addresses, are not supported)", img->path, img->entry);
        return false;
    }
    return true;
}

ElfImage *elf_image_load(const char *path, uint64_t ram_size, GError **error)
{
    ElfFile *f = elf_file_open(path, error);
    if (!f)
        return NULL;
    ElfImage *img = g_new0(ElfImage, 1);
    img->path = g_strdup(path);
    img->text_lo = UINT32_MAX;
    img->big_endian = elf_file_big_endian(f);
    img->entry = elf_file_entry(f);
    img->segs = g_new0(ElfSegment, elf_file_nloads(f) + 1);
    bool ok = true;
    if (elf_file_type(f) != ET_EXEC) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_ELF, "%s: not an executable (ET_EXEC) ELF", path);
        ok = false;
    }
    for (unsigned i = 0; ok && i < elf_file_nloads(f); i++)
        ok = add_segment(img, elf_file_load(f, i), ram_size, error);
    if (!elf_file_symbol_value(f, "__nocprof_stack_limit", &img->stack_limit))
        img->stack_limit = 0;
    elf_file_close(f);
    if (!ok || !check_image(img, ram_size, error)) {
        elf_image_free(img);
        return NULL;
    }
    return img;
}

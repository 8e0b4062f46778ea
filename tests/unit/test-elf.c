// SPDX-License-Identifier: GPL-2.0-or-later
/* test-elf.c — the one ELF reader and the emulator's loader on the
 * assembly fixtures. Expected values come from mipsel-linux-gnu-readelf
 * -lsW and objdump -d of the fixtures (quoted below). */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "base/bytes.h"
#include "base/error.h"
#include "elf/elf_file.h"
#include "emu/elfload.h"

static char *fixture(const char *name, const char *endian)
{
    return g_strdup_printf("%s/%s-%s.elf", FIXTURES, name, endian);
}

/* t_div: "LOAD 0x000060 0x80000000 0x80000000 0x00050 0x00050 RWE",
 * entry 0x80000000, "_start NOTYPE GLOBAL" at 0x80000000, first word
 * 3c10bf00 (lui s0,0xbf00), word 4 is 018d001a (div zero,t4,t5). */
static void test_segments_and_symbols(void)
{
    static const char *const endians[] = { "el", "eb" };
    for (unsigned e = 0; e < 2; e++) {
        g_autofree char *path = fixture("t_div", endians[e]);
        GError *err = NULL;
        ElfFile *f = elf_file_open(path, &err);
        g_assert_no_error(err);
        g_assert_cmpint(elf_file_big_endian(f), ==, e == 1);
        g_assert_cmphex(elf_file_entry(f), ==, 0x80000000u);
        g_assert_cmpuint(elf_file_type(f), ==, ET_EXEC);
        g_assert_cmpuint(elf_file_nloads(f), ==, 1);
        const ElfLoad *l = elf_file_load(f, 0);
        g_assert_cmphex(l->vaddr, ==, 0x80000000u);
        g_assert_cmpuint(l->filesz, ==, 0x50);
        g_assert_cmpuint(l->memsz, ==, 0x50);
        g_assert_true(l->exec);
        g_assert_cmphex(bytes_get32(l->bytes, e == 1), ==, 0x3c10bf00u);
        g_assert_cmphex(bytes_get32(l->bytes + 16, e == 1), ==, 0x018d001au);
        const ElfSymbol *start = NULL;
        for (unsigned i = 0; i < elf_file_nsymbols(f); i++)
            if (!strcmp(elf_file_symbol(f, i)->name, "_start"))
                start = elf_file_symbol(f, i);
        g_assert_nonnull(start);
        g_assert_cmphex(start->value, ==, 0x80000000u);
        g_assert_false(start->func);
        g_assert_true(start->global);
        g_assert_cmphex(start->sec_lo, ==, 0x80000000u);
        g_assert_cmphex(start->sec_hi, ==, 0x80000050u);
        elf_file_close(f);

        ElfImage *img = elf_image_load(path, 1u << 20, &err);
        g_assert_no_error(err);
        g_assert_cmpuint(img->nsegs, ==, 1);
        g_assert_cmphex(img->segs[0].paddr, ==, 0);
        g_assert_cmphex(img->text_lo, ==, 0x80000000u);
        g_assert_cmphex(img->text_hi, ==, 0x80000050u);
        g_assert_cmphex(bytes_get32(img->segs[0].data, img->big_endian), ==, 0x3c10bf00u);
        elf_image_free(img);
    }
}

static void expect_load_error(const char *path, uint64_t ram, const char *what)
{
    GError *err = NULL;
    ElfImage *img = elf_image_load(path, ram, &err);
    g_assert_null(img);
    g_assert_error(err, NOCPROF_ERROR, NOCPROF_ERROR_ELF);
    g_assert_nonnull(strstr(err->message, path));
    g_assert_nonnull(strstr(err->message, what));
    g_error_free(err);
}

/* big_image: "LOAD 0x000060 0x80000000 0x80000000 0x186b0 0x186b0": fits
 * 0x186b0 bytes of RAM, not 0x186af; outside_ram is linked at 0x90000000
 * (physical 0x10000000). */
static void test_loader_errors(void)
{
    g_autofree char *big = fixture("big_image", "el");
    GError *err = NULL;
    ElfImage *img = elf_image_load(big, 0x186b0, &err);
    g_assert_no_error(err);
    elf_image_free(img);
    expect_load_error(big, 0x186af, "segment 0");
    g_autofree char *outside = fixture("outside_ram", "el");
    expect_load_error(outside, 1u << 20, "outside RAM");
    expect_load_error("/nonexistent/fw.elf", 1u << 20, "cannot open");

    g_autofree char *dir = g_dir_make_tmp("nocprof-elf-XXXXXX", NULL);
    g_autofree char *text = g_build_filename(dir, "text.elf", NULL);
    g_assert_true(g_file_set_contents(text, "this is not an ELF file\n", -1, NULL));
    expect_load_error(text, 1u << 20, "not an ELF");
    g_unlink(text);
    g_rmdir(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/elf/segments-and-symbols", test_segments_and_symbols);
    g_test_add_func("/elf/loader-errors", test_loader_errors);
    return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* test-symbols.c — profiler/symbols.c against cross-compiled fixtures
 * (tests/fixtures/profiler/fixture.c) and binutils' own answers. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "profiler/model/profile.h"
#include "profiler/report/report.h"
#include "profiler/model/srcpath.h"
#include "profiler/model/symbols.h"

#define OK(expr)                                                             \
    do {                                                                     \
        GError *err_ = NULL;                                                 \
        gboolean ok_ = (expr);                                               \
        g_assert_no_error(err_);                                             \
        g_assert_true(ok_);                                                  \
    } while (0)

static Symbols *load_or_skip(const char *path)
{
    if (!path) {
        g_test_skip("cross compiler not found: no fixture");
        return NULL;
    }
    GError *err = NULL;
    Symbols *s = symbols_load(path, &err);
    g_assert_no_error(err);
    g_assert_nonnull(s);
    return s;
}

#ifdef FIXTURE_EL
static const char *fixture_el = FIXTURE_EL;
static const char *fixture_eb = FIXTURE_EB;
static const char *fixture_stripped = FIXTURE_STRIPPED;
#else
static const char *fixture_el = NULL;
static const char *fixture_eb = NULL;
static const char *fixture_stripped = NULL;
#endif

static int find(const Symbols *s, const char *name)
{
    for (unsigned i = 0; i < symbols_count(s); i++)
        if (strcmp(symbols_func(s, i)->name, name) == 0)
            return (int)i;
    return -1;
}

static void check_functions(const Symbols *s)
{
    /* sorted, non-overlapping, no linker or inner labels */
    for (unsigned i = 1; i < symbols_count(s); i++)
        g_assert_cmpuint(symbols_func(s, i - 1)->addr + symbols_func(s, i - 1)->size, <=,
                         symbols_func(s, i)->addr);
    g_assert_cmpint(find(s, "_ftext"), ==, -1);
    g_assert_cmpint(find(s, "asm_inner"), ==, -1);

    int start = find(s, "_start"), asmf = find(s, "asmfunc"), leaf = find(s, "leaf");
    g_assert_cmpint(start, >=, 0);
    g_assert_cmpint(asmf, >=, 0);
    g_assert_cmpint(leaf, >=, 0);
    const SymFunc *fs = symbols_func(s, start), *fa = symbols_func(s, asmf);
    g_assert_cmphex(fs->addr, ==, 0x80000000);
    g_assert_cmpuint(fs->size, ==, 8);          /* up to asmfunc */
    g_assert_cmphex(fa->addr, ==, 0x80000008);
    g_assert_cmpuint(fa->size, ==, 12);
    const char *names[] = { "leaf", "fact", "ping", "pong", "handler", "main", "fixture_end" };
    for (unsigned i = 0; i < G_N_ELEMENTS(names); i++)
        g_assert_cmpint(find(s, names[i]), >=, 0);
    g_assert_cmpuint(symbols_count(s), ==, 9);   /* + fixture_end */

    const SymFunc *fl = symbols_func(s, leaf);
    g_assert_cmpuint(fl->size, ==, 16);
    g_assert_cmpint(symbols_at(s, fl->addr), ==, leaf);
    g_assert_cmpint(symbols_at(s, fl->addr + 4), ==, -1);
    g_assert_cmpint(symbols_lookup(s, fl->addr + 12), ==, leaf);
    g_assert_cmpint(symbols_lookup(s, 0x8000000c), ==, asmf);   /* asm_inner */
    g_assert_cmpint(symbols_lookup(s, 0x7ffffffc), ==, -1);
    g_assert_cmpint(symbols_lookup(s, 0x90000000), ==, -1);
}

static void test_functions_el(void)
{
    Symbols *s = load_or_skip(fixture_el);
    if (!s)
        return;
    g_assert_false(symbols_big_endian(s));
    check_functions(s);
    symbols_free(s);
}

static void test_functions_eb(void)
{
    Symbols *s = load_or_skip(fixture_eb);
    if (!s)
        return;
    g_assert_true(symbols_big_endian(s));
    check_functions(s);
    symbols_free(s);
}

/* symbols_line must agree with addr2line on every instruction of .text. */
static void check_lines_vs_addr2line(const char *elf, const char *addr2line)
{
    Symbols *s = load_or_skip(elf);
    if (!s)
        return;
    int m = find(s, "main"), l = find(s, "leaf");
    uint32_t lo = symbols_func(s, l)->addr;
    uint32_t hi = symbols_func(s, m)->addr + symbols_func(s, m)->size;
    GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(argv, g_strdup(addr2line));
    g_ptr_array_add(argv, g_strdup("-e"));
    g_ptr_array_add(argv, g_strdup(elf));
    for (uint32_t a = lo; a < hi; a += 4)
        g_ptr_array_add(argv, g_strdup_printf("0x%08x", a));
    g_ptr_array_add(argv, NULL);
    char *out = NULL;
    int status = 0;
    GError *err = NULL;
    if (!g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                      &out, NULL, &status, &err)) {
        g_test_skip(err->message);
        g_error_free(err);
        g_ptr_array_free(argv, TRUE);
        symbols_free(s);
        return;
    }
    char **lines = g_strsplit(out, "\n", -1);
    unsigned i = 0;
    for (uint32_t a = lo; a < hi; a += 4, i++) {
        g_assert_nonnull(lines[i]);
        char *where = symbols_where(s, a);
        /* addr2line appends " (discriminator N)" */
        char *expect = g_strdup(lines[i]);
        char *sp = strchr(expect, ' ');
        if (sp)
            *sp = '\0';
        if (strcmp(where, expect) != 0)
            g_error("0x%08x: symbols_where %s, addr2line %s", a, where, expect);
        SymLine sl = symbols_line(s, a);
        g_assert_true(g_str_has_suffix(sl.file, "fixture.c"));
        g_free(expect);
        g_free(where);
    }
    g_strfreev(lines);
    g_free(out);
    g_ptr_array_free(argv, TRUE);

    /* known lines of fixture.c: leaf's body is line 9, main's loop call 44 */
    SymLine sl = symbols_line(s, symbols_func(s, l)->addr);
    g_assert_cmpuint(sl.line, ==, 9);
    /* before the first line row (the assembly) and after the end row */
    char *w = symbols_where(s, 0x80000000);
    g_assert_cmpstr(w, ==, "??:0");
    g_free(w);
    const SymFunc *last = symbols_func(s, symbols_count(s) - 1);
    sl = symbols_line(s, last->addr + last->size);
    g_assert_null(sl.file);
    g_assert_cmpuint(sl.line, ==, 0);
    symbols_free(s);
}

static void test_lines_el(void)
{
    check_lines_vs_addr2line(fixture_el, "mipsel-linux-gnu-addr2line");
}

static void test_lines_eb(void)
{
    check_lines_vs_addr2line(fixture_eb, "mips-linux-gnu-addr2line");
}

static void check_image(const char *elf)
{
    Symbols *s = load_or_skip(elf);
    if (!s)
        return;
    uint32_t leaf = symbols_func(s, find(s, "leaf"))->addr, w = 0;
    /* leaf: sll v0,a0,1 ; addu v0,v0,a0 ; jr ra ; addiu v0,v0,1 */
    OK(symbols_read_word(s, leaf, &w));
    g_assert_cmphex(w, ==, 0x00041040);
    OK(symbols_read_word(s, leaf + 8, &w));
    g_assert_cmphex(w, ==, 0x03e00008);
    OK(symbols_read_word(s, leaf + 0x20000000, &w));    /* kseg1 alias */
    g_assert_cmphex(w, ==, 0x00041040);
    g_assert_false(symbols_read_word(s, 0x80100000, &w));
    g_assert_false(symbols_read_word(s, 0x00400000, &w)); /* not executable */

    char *d = symbols_disasm(s, leaf);
    g_assert_cmpstr(d, ==, "sll $v0, $a0, 1");
    g_free(d);
    d = symbols_disasm(s, leaf + 8);
    g_assert_cmpstr(d, ==, "jr $ra");
    g_free(d);
    d = symbols_disasm(s, 0x80100000);
    g_assert_cmpstr(d, ==, "<unreadable>");
    g_free(d);
    symbols_free(s);
}

static void test_image_el(void)
{
    check_image(fixture_el);
}

static void test_image_eb(void)
{
    check_image(fixture_eb);
}

static void test_stripped(void)
{
    Symbols *s = load_or_skip(fixture_stripped);
    if (!s)
        return;
    /* no symbols: functions are synthesized by address (entry, segment
     * start, call targets), named fn_XXXXXXXX and tiling the code */
    g_assert_cmpuint(symbols_count(s), >, 0);
    for (unsigned i = 0; i < symbols_count(s); i++) {
        const SymFunc *f = symbols_func(s, i);
        char *want = g_strdup_printf("fn_%08x", f->addr);
        g_assert_cmpstr(f->name, ==, want);
        g_free(want);
        g_assert_cmpuint(f->size, >, 0);
        if (i + 1 < symbols_count(s))
            g_assert_cmpuint(f->addr + f->size, <=, symbols_func(s, i + 1)->addr);
    }
    g_assert_cmpuint(symbols_func(s, 0)->addr, ==, 0x80000000u); /* segment start */
    int in = symbols_lookup(s, 0x80000014);
    g_assert_cmpint(in, >=, 0);
    g_assert_cmpuint(symbols_func(s, (unsigned)in)->addr, <=, 0x80000014u);
    SymLine l = symbols_line(s, 0x80000014);
    g_assert_null(l.file);
    g_assert_cmpuint(l.line, ==, 0);
    char *w = symbols_where(s, 0x80000014);
    g_assert_cmpstr(w, ==, "??:0");
    g_free(w);
    char *d = symbols_disasm(s, 0x80000014);   /* the image is still there */
    g_assert_cmpstr(d, ==, "sll $v0, $a0, 1");
    g_free(d);
    symbols_free(s);
}

static void expect_error(const char *path, const char *what)
{
    GError *err = NULL;
    Symbols *s = symbols_load(path, &err);
    g_assert_null(s);
    g_assert_error(err, NOCPROF_ERROR, NOCPROF_ERROR_ELF);
    g_assert_nonnull(strstr(err->message, path));
    if (what)
        g_assert_nonnull(strstr(err->message, what));
    g_error_free(err);
}

static void test_errors(void)
{
    char *dir = g_dir_make_tmp("nocprof-symbols-XXXXXX", NULL);
    g_assert_nonnull(dir);

    char *missing = g_build_filename(dir, "missing.elf", NULL);
    expect_error(missing, "No such file");

    char *text = g_build_filename(dir, "text.elf", NULL);
    OK(g_file_set_contents(text, "this is not an ELF file\n", -1, &err_));
    expect_error(text, "not an ELF");

    /* a 64-bit ELF: this test program itself */
    char *self = g_file_read_link("/proc/self/exe", NULL);
    if (self)
        expect_error(self, "64-bit ELF file (e_machine ");

    /* a minimal ELF32 header for i386 */
    guint8 hdr[52] = { 0x7f, 'E', 'L', 'F', 1 /* 32 */, 1 /* LE */, 1 /* version */ };
    hdr[16] = 2;      /* ET_EXEC */
    hdr[18] = 3;      /* EM_386 */
    hdr[20] = 1;      /* EV_CURRENT */
    hdr[40] = 52;     /* e_ehsize */
    char *x86 = g_build_filename(dir, "x86.elf", NULL);
    OK(g_file_set_contents(x86, (const char *)hdr, sizeof hdr, &err_));
    expect_error(x86, "an x86 32-bit ELF file (e_machine 3), not MIPS32 firmware");

    g_unlink(text);
    g_unlink(x86);
    g_rmdir(dir);
    g_free(self);
    g_free(x86);
    g_free(text);
    g_free(missing);
    g_free(dir);
}

/* srcpath: the lookup order of --source-map and --source-dir, on files
 * made here; every path tried is reported in order. */
static void test_srcpath(void)
{
    g_autofree char *top = g_dir_make_tmp("srcpath-XXXXXX", NULL);
    g_autofree char *sub = g_build_filename(top, "src", "lib", NULL);
    g_assert_cmpint(g_mkdir_with_parents(sub, 0700), ==, 0);
    g_autofree char *file = g_build_filename(sub, "a.c", NULL);
    g_assert_true(g_file_set_contents(file, "int a;\n", -1, NULL));
    g_autofree char *srcdir = g_build_filename(top, "src", NULL);
    g_autofree char *map = g_strconcat("/build/proj=", srcdir, NULL);
    char *maps[] = { map, NULL };
    char *dirs[] = { sub, NULL };
    GError *err = NULL;

    /* map: /build/proj/lib/a.c -> TOP/src/lib/a.c, found first */
    g_assert_true(srcpath_configure(NULL, maps, &err));
    char *used = NULL;
    GPtrArray *tried = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *text = srcpath_read("/build/proj/lib/a.c", NULL, &used, tried);
    g_assert_cmpstr(text, ==, "int a;\n");
    g_assert_cmpstr(used, ==, file);
    g_assert_cmpuint(tried->len, ==, 1);
    g_free(used);
    /* whole components only: /build/project/... is not rewritten */
    g_ptr_array_set_size(tried, 0);
    g_assert_null(srcpath_read("/build/projectx/lib/a.c", NULL, NULL, tried));
    g_assert_cmpuint(tried->len, ==, 1);
    g_assert_cmpstr(tried->pdata[0], ==, "/build/projectx/lib/a.c");

    /* dir: a relative name tries DIR/name, then DIR/basename */
    g_assert_true(srcpath_configure(dirs, NULL, &err));
    g_ptr_array_set_size(tried, 0);
    g_autofree char *t2 = srcpath_read("gone/a.c", NULL, &used, tried);
    g_assert_cmpstr(t2, ==, "int a;\n");
    g_assert_cmpstr(used, ==, file);
    g_assert_cmpuint(tried->len, ==, 3);
    g_assert_cmpstr(tried->pdata[0], ==, "gone/a.c");
    g_autofree char *t1 = g_build_filename(sub, "gone", "a.c", NULL);
    g_assert_cmpstr(tried->pdata[1], ==, t1);
    g_assert_cmpstr(tried->pdata[2], ==, file);
    g_free(used);

    /* a map without '=' or with an empty OLD is a usage error */
    char *bad[] = { "nothing", NULL };
    g_assert_false(srcpath_configure(NULL, bad, &err));
    g_assert_error(err, NOCPROF_ERROR, NOCPROF_ERROR_USAGE);
    g_clear_error(&err);
    srcpath_reset();
    g_ptr_array_free(tried, TRUE);
    g_remove(file);
    g_rmdir(sub);
    g_rmdir(srcdir);
    g_rmdir(top);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/symbols/functions/little-endian", test_functions_el);
    g_test_add_func("/symbols/functions/big-endian", test_functions_eb);
    g_test_add_func("/symbols/lines/little-endian", test_lines_el);
    g_test_add_func("/symbols/lines/big-endian", test_lines_eb);
    g_test_add_func("/symbols/image/little-endian", test_image_el);
    g_test_add_func("/symbols/image/big-endian", test_image_eb);
    g_test_add_func("/symbols/stripped", test_stripped);
    g_test_add_func("/symbols/errors", test_errors);
    g_test_add_func("/symbols/srcpath", test_srcpath);
    return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* test-engine.c — the assumptions nocprof makes about the installed
 * libunicorn (docs/design.md "Coroutines"), re-checked on the library that
 * is really loaded, and the coroutine stacks' guard page:
 *   /engine/version       the loaded release is the validated one
 *   /engine/cross-thread  engine runs suspended inside an MMIO callback and
 *                         resumed on another host thread each time, two
 *                         engines interleaved: exact results
 *   /engine/tls           libunicorn's only thread-local storage is one
 *                         8-byte variable (QEMU's guest random state), and
 *                         (with objdump) every %fs access but one place is
 *                         the stack-protector canary
 *   /engine/guard         a write just below a coroutine's stack faults */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <glib.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <unicorn/unicorn.h>

#include "emu/coro.h"
#include "emu/engine.h"

static void test_version(void)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *v = engine_unicorn_version();
    g_unsetenv("NOCPROF_ALLOW_UNICORN");
    if (!engine_check_unicorn(NULL, &err))
        g_test_message("%s", err->message);
    g_assert_no_error(err);
    g_assert_cmpstr(v, ==, "2.1.1");
}

/* ---- cross-thread resume ------------------------------------------------ */

#define CODE 0x10000u
#define MMIO 0x20000u
#define LOOPS 500u

/* loop: lw t0,0(a0); addu v0,v0,t0; addiu a1,a1,-1; bnez a1,loop; nop */
static const uint32_t prog[] = { 0x8C880000u, 0x00481021u, 0x24A5FFFFu, 0x14A0FFFCu, 0x00000000u };

typedef struct Eng {
    uc_engine *uc;
    Coro *co;
    unsigned id, reads;
    GThread *last;             /* the thread that ran the last read */
    unsigned moves;            /* reads that ran on another thread than the one before */
    uc_err err;
} Eng;

/* Each read suspends the engine run in the middle of the lw; the value
 * depends on the read's index only. */
static uint64_t mmio_read(uc_engine *uc, uint64_t offset, unsigned size, void *opaque)
{
    (void)uc; (void)offset; (void)size;
    Eng *e = opaque;
    e->reads++;
    coro_yield(e->co);
    GThread *self = g_thread_self();
    e->moves += e->last && e->last != self;
    e->last = self;
    return e->reads * 3u + e->id;
}

static void eng_main(void *opaque)
{
    Eng *e = opaque;
    e->err = uc_emu_start(e->uc, CODE, CODE + sizeof prog, 0, 0);
}

static gpointer resume_once(gpointer opaque)
{
    coro_resume(opaque);
    return NULL;
}

static void eng_open(Eng *e, unsigned id)
{
    e->id = id;
    g_assert_cmpint(uc_open(UC_ARCH_MIPS, UC_MODE_MIPS32 | UC_MODE_LITTLE_ENDIAN, &e->uc), ==, UC_ERR_OK);
    g_assert_cmpint(uc_mem_map(e->uc, CODE, 0x1000, UC_PROT_ALL), ==, UC_ERR_OK);
    uint8_t code[sizeof prog];
    for (unsigned i = 0; i < G_N_ELEMENTS(prog); i++)
        for (unsigned b = 0; b < 4; b++)
            code[4 * i + b] = (uint8_t)(prog[i] >> (8 * b));
    g_assert_cmpint(uc_mem_write(e->uc, CODE, code, sizeof code), ==, UC_ERR_OK);
    g_assert_cmpint(uc_mmio_map(e->uc, MMIO, 0x1000, mmio_read, e, NULL, NULL), ==, UC_ERR_OK);
    uint32_t a0 = MMIO, a1 = LOOPS, v0 = 0;
    uc_reg_write(e->uc, UC_MIPS_REG_A0, &a0);
    uc_reg_write(e->uc, UC_MIPS_REG_A1, &a1);
    uc_reg_write(e->uc, UC_MIPS_REG_V0, &v0);
    e->co = coro_new(eng_main, e, 1u << 20);
    g_assert_nonnull(e->co);
}

static void test_cross_thread(void)
{
    Eng e[2] = { 0 };
    eng_open(&e[0], 1);
    eng_open(&e[1], 2);
    /* resume the two runs alternately, each resume on a new host thread:
     * every suspended run continues on another thread than it stopped on */
    for (unsigned step = 0; !coro_done(e[0].co) || !coro_done(e[1].co); step++) {
        Eng *x = &e[step % 2];
        if (coro_done(x->co))
            continue;
        GThread *t = g_thread_new("resume", resume_once, x->co);
        g_thread_join(t);
    }
    for (unsigned i = 0; i < 2; i++) {
        uint32_t v0 = 0, a1 = 1, pc = 0;
        uc_reg_read(e[i].uc, UC_MIPS_REG_V0, &v0);
        uc_reg_read(e[i].uc, UC_MIPS_REG_A1, &a1);
        uc_reg_read(e[i].uc, UC_MIPS_REG_PC, &pc);
        g_assert_cmpint(e[i].err, ==, UC_ERR_OK);
        g_assert_cmpuint(e[i].reads, ==, LOOPS);
        /* sum of k * 3 + id for k = 1..LOOPS */
        g_assert_cmpuint(v0, ==, 3u * LOOPS * (LOOPS + 1) / 2 + e[i].id * LOOPS);
        g_assert_cmpuint(a1, ==, 0);
        g_assert_cmpuint(pc, ==, CODE + sizeof prog);
        g_assert_cmpuint(e[i].moves, ==, LOOPS - 1);
        coro_free(e[i].co);
        uc_close(e[i].uc);
    }
}

/* ---- thread-local storage ----------------------------------------------- */

static char *unicorn_path(void)
{
    Dl_info info;
    g_assert_true(dladdr((void *)uc_open, &info) && info.dli_fname);
    return g_strdup(info.dli_fname);
}

static void test_tls(void)
{
    g_autofree char *path = unicorn_path();
    g_test_message("libunicorn: %s", path);
    g_assert_cmpuint(elf_version(EV_CURRENT), !=, EV_NONE);
    int fd = open(path, O_RDONLY);
    g_assert_cmpint(fd, >=, 0);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    g_assert_nonnull(elf);
    size_t n = 0;
    g_assert_cmpint(elf_getphdrnum(elf, &n), ==, 0);
    uint64_t tls = 0;
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        g_assert_nonnull(gelf_getphdr(elf, (int)i, &ph));
        if (ph.p_type == PT_TLS)
            tls += ph.p_memsz;
    }
    elf_end(elf);
    close(fd);
    /* one 8-byte variable: QEMU's guest random state (2.1.1) */
    g_assert_cmpuint(tls, <=, 8);
}

/* objdump -d: every %fs access but the ones next to __tls_get_addr's
 * callers is the stack canary (%fs:0x28); the __tls_get_addr calls all
 * sit in one function (the random state's). */
static void test_tls_code(void)
{
    g_autofree char *objdump = g_find_program_in_path("objdump");
    if (!objdump) {
        g_test_skip("objdump not installed: libunicorn's code not checked");
        return;
    }
    g_autofree char *path = unicorn_path();
    const char *argv[] = { objdump, "-d", "--no-show-raw-insn", path, NULL };
    g_autofree char *out = NULL;
    g_autoptr(GError) err = NULL;
    int status = 0;
    g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                               &status, &err));
    g_assert_no_error(err);
    g_autoptr(GHashTable) callers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autofree char *fn = g_strdup("");
    unsigned fs_other = 0, tls_calls = 0;
    for (char *line = out, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        size_t len = strlen(line);
        if (len > 2 && line[0] != ' ' && line[len - 1] == ':' && strchr(line, '<')) {
            g_free(fn);
            fn = g_strdup(strchr(line, '<'));
            continue;
        }
        if (strstr(line, "call") && strstr(line, "<__tls_get_addr")) {
            tls_calls++;
            g_hash_table_add(callers, g_strdup(fn));
        }
        if (strstr(line, "%fs:") && !strstr(line, "%fs:0x28"))
            fs_other++;
    }
    g_test_message("%u __tls_get_addr calls in %u function(s), %u other %%fs accesses", tls_calls,
                   g_hash_table_size(callers), fs_other);
    g_assert_cmpuint(g_hash_table_size(callers), <=, 1);
    g_assert_cmpuint(fs_other, ==, 0);
}

/* ---- guard page ---------------------------------------------------------- */

static Coro *guard_co;

static void poke_guard(void *opaque)
{
    (void)opaque;
    volatile char *p = (volatile char *)coro_stack_low(guard_co) - 1;
    *p = 1; /* the guard page: SIGSEGV */
}

static void test_guard_child(void)
{
    if (!g_test_subprocess())
        return;
    guard_co = coro_new(poke_guard, NULL, 64u << 10);
    g_assert_nonnull(guard_co);
    coro_resume(guard_co);
    /* not reached with a guard page */
    printf("wrote below the stack without a fault\n");
    exit(0);
}

static void test_guard_parent(void)
{
    g_test_trap_subprocess("/engine/guard-child", 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stdout_unmatched("*without a fault*");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/engine/version", test_version);
    g_test_add_func("/engine/cross-thread", test_cross_thread);
    g_test_add_func("/engine/tls", test_tls);
    g_test_add_func("/engine/tls-code", test_tls_code);
    g_test_add_func("/engine/guard", test_guard_parent);
    g_test_add_func("/engine/guard-child", test_guard_child);
    return g_test_run();
}

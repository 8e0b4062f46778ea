// SPDX-License-Identifier: GPL-2.0-or-later
/* test-mips.c — unit tests of the instruction classifier (emu/mips.h).
 *
 * The instruction words below were produced by
 *   mipsel-linux-gnu-as -march=mips32r2 (objdump -d shows the same words),
 * so the classification is checked against real encodings. */
#include "platform/mips.h"

#include <glib.h>

typedef struct {
    uint32_t word;
    const char *text;
    unsigned flags;
} Case;

#define BR MIPS_BRANCH
static const Case cases[] = {
    { 0x03e00008u, "jr ra", BR | MIPS_JREG | MIPS_RETURN },
    /* FPU (mipsel-linux-gnu-as -march=mips32r2, .set hardfloat) */
    { 0x46241000u, "add.d $f0,$f2,$f4", MIPS_FPU_ADD },
    { 0x46020032u, "c.eq.s $f0,$f2", MIPS_FPU_ADD },
    { 0x4620100du, "trunc.w.d $f0,$f2", MIPS_FPU_ADD },
    { 0x46801020u, "cvt.s.w $f0,$f2", MIPS_FPU_ADD },
    { 0x46281013u, "movn.d $f0,$f2,t0", MIPS_FPU_ADD },
    { 0x46041002u, "mul.s $f0,$f2,$f4", MIPS_FPU_MUL },
    { 0x4c462028u, "msub.s $f0,$f2,$f4,$f6", MIPS_FPU_MUL },
    { 0x4c462031u, "nmadd.d $f0,$f2,$f4,$f6", MIPS_FPU_MUL },
    { 0x46241003u, "div.d $f0,$f2,$f4", MIPS_FPU_DIV },
    { 0x46001015u, "recip.s $f0,$f2", MIPS_FPU_DIV },
    { 0x46001004u, "sqrt.s $f0,$f2", MIPS_FPU_SQRT },
    { 0x46201016u, "rsqrt.d $f0,$f2", MIPS_FPU_SQRT },
    { 0x44080000u, "mfc1 t0,$f0", 0 },
    { 0x44880000u, "mtc1 t0,$f0", 0 },
    { 0x4448f800u, "cfc1 t0,c1_fcsr", 0 },
    { 0xc5000004u, "lwc1 $f0,4(t0)", MIPS_LOAD },
    { 0xf5000008u, "sdc1 $f0,8(t0)", MIPS_STORE },
    { 0x45010005u, "bc1t", BR },
    { 0x45020002u, "bc1fl", BR | MIPS_LIKELY },
    { 0x4d280000u, "lwxc1 $f0,t0(t1)", MIPS_LOAD },
    { 0x4d280001u, "ldxc1 $f0,t0(t1)", MIPS_LOAD },
    { 0x4d280005u, "luxc1 $f0,t0(t1)", MIPS_LOAD },
    { 0x4d280008u, "swxc1 $f0,t0(t1)", MIPS_STORE },
    { 0x4d280009u, "sdxc1 $f0,t0(t1)", MIPS_STORE },
    { 0x4d28000du, "suxc1 $f0,t0(t1)", MIPS_STORE },
    { 0x4d28000fu, "prefx 0,t0(t1)", 0 },
    { 0x0c000040u, "jal 0x100", BR | MIPS_LINK },
    { 0x0c000000u | (0x80001234u >> 2 & 0x03ffffffu), "jal 0x80001234", BR | MIPS_LINK },
    { 0x08000040u, "j 0x100", BR },
    { 0x0320f809u, "jalr t9", BR | MIPS_JREG | MIPS_LINK },
    { 0x03200008u, "jr t9", BR | MIPS_JREG },
    { 0x42000018u, "eret", MIPS_ERET },
    { 0x42000020u, "wait", MIPS_WAIT },
    { 0x8d090010u, "lw t1,16(t0)", MIPS_LOAD },
    { 0x8fa9fffcu, "lw t1,-4(sp)", MIPS_LOAD },
    { 0xad090010u, "sw t1,16(t0)", MIPS_STORE },
    { 0x91090001u, "lbu t1,1(t0)", MIPS_LOAD },
    { 0x85090002u, "lh t1,2(t0)", MIPS_LOAD },
    { 0xa5090002u, "sh t1,2(t0)", MIPS_STORE },
    { 0xa1090003u, "sb t1,3(t0)", MIPS_STORE },
    { 0x89090003u, "lwl t1,3(t0)", MIPS_LOAD },
    { 0xb9090000u, "swr t1,0(t0)", MIPS_STORE },
    { 0xc1090008u, "ll t1,8(t0)", MIPS_LOAD },
    { 0xe1090008u, "sc t1,8(t0)", MIPS_STORE },
    { 0x10000003u, "b .+16", BR },
    { 0x11090001u, "beq t0,t1", BR },
    { 0x05000001u, "bltz t0", BR },
    { 0x04110001u, "bal", BR | MIPS_LINK },
    { 0x05110001u, "bgezal t0", BR | MIPS_LINK },
    { 0x51000001u, "beqzl t0", BR | MIPS_LIKELY },
    { 0x01090018u, "mult t0,t1", MIPS_MUL },
    { 0x01090019u, "multu t0,t1", MIPS_MUL },
    { 0x71095002u, "mul t2,t0,t1", MIPS_MUL },
    { 0x71090000u, "madd t0,t1", MIPS_MUL },
    { 0x0109001au, "div zero,t0,t1", MIPS_DIV },
    { 0x0109001bu, "divu zero,t0,t1", MIPS_DIV },
    { 0x0000000du, "break", MIPS_BREAK },
    { 0x7000003fu, "sdbbp", MIPS_BREAK },
    { 0x0000000cu, "syscall", MIPS_SYSCALL },
    { 0x01090034u, "teq t0,t1", MIPS_TRAP },
    { 0x05080005u, "tgei t0,5", MIPS_TRAP },
    { 0x01095020u, "add t2,t0,t1", MIPS_OVERFLOW },
    { 0x210a0001u, "addi t2,t0,1", MIPS_OVERFLOW },
    { 0x01095021u, "addu t2,t0,t1", 0 },
    { 0x250a0001u, "addiu t2,t0,1", 0 },
    { 0x00000000u, "nop", 0 },
    { 0x0000000fu, "sync", 0 },
    { 0x40086000u, "mfc0 t0,Status", 0 },
};
#undef BR

static void test_classify(void)
{
    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        unsigned got = mips_classify(cases[i].word);
        if (got != cases[i].flags)
            g_error("mips_classify(0x%08x = %s) = 0x%x, expected 0x%x", cases[i].word, cases[i].text, got,
                    cases[i].flags);
    }
}

/* The flags a cycle model charges never overlap in nonsense ways: every
 * memory access is a load or a store, not both; a branch is never a load. */
static void test_classify_exclusive(void)
{
    for (uint32_t op = 0; op < 64; op++) {
        for (uint32_t funct = 0; funct < 64; funct++) {
            uint32_t w = op << 26 | 9u << 21 | 10u << 16 | funct;
            unsigned f = mips_classify(w);
            g_assert_false((f & MIPS_LOAD) && (f & MIPS_STORE));
            g_assert_false((f & MIPS_BRANCH) && (f & (MIPS_LOAD | MIPS_STORE)));
            g_assert_false((f & MIPS_MUL) && (f & MIPS_DIV));
            if (f & (MIPS_LINK | MIPS_RETURN | MIPS_LIKELY | MIPS_JREG))
                g_assert_true(f & MIPS_BRANCH);
        }
    }
}

typedef struct {
    uint32_t word;
    const char *text;
    unsigned size, base;
    int32_t offset;
} MemCase;

static const MemCase mem_cases[] = {
    { 0x8d090010u, "lw t1,16(t0)", 4, 8, 16 },
    { 0x8fa9fffcu, "lw t1,-4(sp)", 4, 29, -4 },
    { 0xad090010u, "sw t1,16(t0)", 4, 8, 16 },
    { 0x91090001u, "lbu t1,1(t0)", 1, 8, 1 },
    { 0x85090002u, "lh t1,2(t0)", 2, 8, 2 },
    { 0xa5090002u, "sh t1,2(t0)", 2, 8, 2 },
    { 0xa1090003u, "sb t1,3(t0)", 1, 8, 3 },
    { 0x89090003u, "lwl t1,3(t0) (never faults on alignment)", 1, 8, 3 },
    { 0xb9090000u, "swr t1,0(t0)", 1, 8, 0 },
    { 0xc1090008u, "ll t1,8(t0)", 4, 8, 8 },
    { 0xe1090008u, "sc t1,8(t0)", 4, 8, 8 },
    { 0x8e110010u, "lw s1,16(s0) (SYS CYCLE_LO)", 4, 16, 16 },
    { 0xae00201cu | 0u, "sw zero,0x201c(s0)", 4, 16, 0x201c },
    { 0x8c088000u, "lw t0,-32768(zero)", 4, 0, -32768 },
};

static void test_mem_operand(void)
{
    for (gsize i = 0; i < G_N_ELEMENTS(mem_cases); i++) {
        unsigned size = 99, base = 99;
        int32_t offset = 12345;
        const MemCase *c = &mem_cases[i];
        if (!mips_mem_operand(c->word, &size, &base, &offset))
            g_error("mips_mem_operand(0x%08x = %s) returned false", c->word, c->text);
        if (size != c->size || base != c->base || offset != c->offset)
            g_error("mips_mem_operand(0x%08x = %s) = size %u base %u offset %d, expected %u %u %d", c->word,
                    c->text, size, base, offset, c->size, c->base, c->offset);
    }
}

static void test_mem_operand_not_memory(void)
{
    const uint32_t words[] = { 0x03e00008u, 0x0c000040u, 0x01095021u, 0x250a0001u, 0x00000000u,
                               0x42000018u, 0x42000020u, 0x0000000du, 0x10000003u, 0x71095002u };
    for (gsize i = 0; i < G_N_ELEMENTS(words); i++) {
        unsigned size = 0, base = 0;
        int32_t offset = 0;
        if (mips_mem_operand(words[i], &size, &base, &offset))
            g_error("mips_mem_operand(0x%08x) claims a memory access", words[i]);
    }
}

/* Every load/store that mips_classify reports has an operand, and vice
 * versa, over all opcodes. */
static void test_mem_operand_agrees_with_classify(void)
{
    for (uint32_t op = 0; op < 64; op++) {
        uint32_t w = op << 26 | 8u << 21 | 9u << 16 | 0x10u;
        unsigned size, base;
        int32_t offset;
        bool mem = mips_mem_operand(w, &size, &base, &offset);
        unsigned f = mips_classify(w);
        if (mem != ((f & (MIPS_LOAD | MIPS_STORE)) != 0))
            g_error("opcode 0x%02x: mips_mem_operand %d but classify 0x%x", op, mem, f);
        if (mem) {
            g_assert_cmpuint(base, ==, 8);
            g_assert_cmpint(offset, ==, 0x10);
            g_assert_true(size == 1 || size == 2 || size == 4 || size == 8);
        }
    }
}

static void test_wait_mask(void)
{
    /* wait with an implementation-defined code field is still wait */
    g_assert_cmpuint(mips_classify(0x42000020u | (0x1234u << 6)), ==, MIPS_WAIT);
    g_assert_cmpuint(0x42000020u & MIPS_WAIT_MASK, ==, MIPS_WAIT_BITS);
    /* eret is not wait, and tlbwi (0x42000006) is neither */
    g_assert_cmpuint(mips_classify(0x42000006u) & (MIPS_WAIT | MIPS_ERET), ==, 0);
}

/* mips_gpr_writes (the odd-jump check's "may the delay slot write the
 * jump register"): encodings from mipsel-linux-gnu-as -march=mips32r2;
 * anything not decoded must answer "any register". */
static void test_gpr_writes(void)
{
    static const struct { uint32_t w; uint32_t regs; const char *as; } cases[] = {
        { 0x25290001, 1u << 9, "addiu t1,t1,1" },
        { 0x8fa90000, 1u << 9, "lw t1,0(sp)" },
        { 0xafa90000, 0, "sw t1,0(sp)" },
        { 0x0c000000, 1u << 31, "jal 0" },
        { 0x01200008, 0, "jr t1" },
        { 0x0120f809, 1u << 31, "jalr t1" },
        { 0x712a4002, 1u << 8, "mul t0,t1,t2" },
        { 0x712a0000, 0, "madd t1,t2" },
        { 0x0530ffff, 1u << 31, "bltzal t1,." },
        { 0x0109001a, 0, "div zero,t0,t1" },
        { 0x3c010001, 1u << 1, "lui at,0x1" },
        { 0x00000000, 0, "nop (sll zero,zero,0: $0 is never written)" },
        { 0x400b6000, ~1u, "mfc0 t3,c0_status (not decoded: any)" },
        { 0x7d281800, ~1u, "ext t0,t1,0,4 (not decoded: any)" },
    };
    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        if (mips_gpr_writes(cases[i].w) != cases[i].regs)
            g_error("%s: 0x%08x, expected 0x%08x", cases[i].as, mips_gpr_writes(cases[i].w), cases[i].regs);
    }
}

/* mips_wait_loop on loops GCC made of hang_loop.c (objdump of
 * hang_loop0..2-el.elf, -O1) and on hand-assembled ones that are not
 * waits: which loads decide the branch. */
static void test_wait_loop(void)
{
    static const uint32_t counter[] = { 0x24420001, 0x8c8310a8, 0x1060fffd, 0 }; /* addiu v0; lw v1,flag; beqz v1 */
    static const uint32_t mem[] = { 0x8c6210b0, 0x24420001, 0xac6210b0, 0x8c8210b8, 0x1040fffb, 0x3c028000 };
    static const uint32_t two[] = { 0x8ca21098, 0x8c831094, 0x00431025, 0x1040fffc, 0x00001025 };
    /* `for (volatile unsigned i ...; i < s0; i++)`: decided by a load the
     * loop stores to (through the same base: spin_loop refuses it) */
    static const uint32_t vol[] = { 0x8fa20050, 0x24420001, 0xafa20050, 0x8fa20050, 0x0050102b, 0x1440fffa, 0 };
    static const uint32_t carried[] = { 0x24420001, 0x2c430064, 0x1460fffd, 0 }; /* n++ < 100 */
    static const uint32_t moving[] = { 0x8c830000, 0x24840004, 0x1060fffd, 0 };   /* lw v1,0(a0); a0 += 4 */
    static const uint32_t call[] = { 0x8c8310a8, 0x0c000400, 0x1060fffd, 0 };     /* jal in it */
    static const uint32_t noload[] = { 0x24420001, 0x1060fffe, 0 };                /* beqz v1: no load */
    /* hang_loop5: `while (flag == 0 && flag2 == 0)`, two blocks, two exits */
    static const uint32_t pair[] = { 0x8c6210bc, 0x14400004, 0, 0x8c8210b8, 0x1040fffb, 0 };
    uint64_t cond = 0;
    g_assert_true(mips_wait_loop(counter, G_N_ELEMENTS(counter), &cond));
    g_assert_cmphex(cond, ==, 1u << 1);
    g_assert_true(mips_wait_loop(mem, G_N_ELEMENTS(mem), &cond));
    g_assert_cmphex(cond, ==, 1u << 3);
    g_assert_true(mips_wait_loop(two, G_N_ELEMENTS(two), &cond));
    g_assert_cmphex(cond, ==, 3u);
    g_assert_true(mips_wait_loop(vol, G_N_ELEMENTS(vol), &cond));
    g_assert_cmphex(cond, ==, 1u << 3);
    g_assert_false(mips_wait_loop(carried, G_N_ELEMENTS(carried), &cond));
    g_assert_false(mips_wait_loop(moving, G_N_ELEMENTS(moving), &cond));
    g_assert_false(mips_wait_loop(call, G_N_ELEMENTS(call), &cond));
    g_assert_false(mips_wait_loop(noload, G_N_ELEMENTS(noload), &cond));
    g_assert_true(mips_wait_loop(pair, G_N_ELEMENTS(pair), &cond));
    g_assert_cmphex(cond, ==, 1u << 0 | 1u << 3);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/mips/classify", test_classify);
    g_test_add_func("/mips/classify-exclusive", test_classify_exclusive);
    g_test_add_func("/mips/mem-operand", test_mem_operand);
    g_test_add_func("/mips/mem-operand-not-memory", test_mem_operand_not_memory);
    g_test_add_func("/mips/mem-operand-agrees-with-classify", test_mem_operand_agrees_with_classify);
    g_test_add_func("/mips/wait-mask", test_wait_mask);
    g_test_add_func("/mips/gpr-writes", test_gpr_writes);
    g_test_add_func("/mips/wait-loop", test_wait_loop);
    return g_test_run();
}

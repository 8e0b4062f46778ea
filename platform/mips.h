// SPDX-License-Identifier: GPL-2.0-or-later
/* mips.h — the little a cycle model needs to know about a MIPS32 word.
 *
 * Classifies instructions for timing (load, store, mul, div), control
 * transfer (branch, jump, call, return, eret) and device/fault location
 * (effective address of loads and stores). Not a disassembler: listings
 * use capstone (profiler/symbols.c).
 */
#ifndef NOCPROF_MIPS_H
#define NOCPROF_MIPS_H

#include <stdbool.h>
#include <stdint.h>

enum {
    MIPS_LOAD = 1u << 0,
    MIPS_STORE = 1u << 1,
    MIPS_MUL = 1u << 2,
    MIPS_DIV = 1u << 3,
    MIPS_BRANCH = 1u << 4,  /* any control transfer with a delay slot */
    MIPS_LINK = 1u << 5,    /* writes a return address: a call */
    MIPS_RETURN = 1u << 6,  /* jr $ra */
    MIPS_ERET = 1u << 7,
    MIPS_WAIT = 1u << 8,
    MIPS_TRAP = 1u << 9,    /* conditional trap (teq, tgei, ...) */
    MIPS_BREAK = 1u << 10,  /* break, sdbbp */
    MIPS_SYSCALL = 1u << 11,
    MIPS_OVERFLOW = 1u << 12, /* add, addi, sub: trap on overflow */
    MIPS_LIKELY = 1u << 13, /* branch-likely: delay slot annulled if not taken */
    MIPS_JREG = 1u << 14,   /* jr, jalr: target from a register */
    /* FPU arithmetic (single, double, and word/long conversions):
     * add-class = add sub abs neg mov movz movn movf movt round trunc ceil
     * floor cvt c.cond; mul-class = mul madd msub nmadd nmsub; div-class =
     * div recip; sqrt-class = sqrt rsqrt. Moves to/from the FPU (mfc1,
     * mtc1, ...), its loads/stores and bc1 branches are not in any. */
    MIPS_FPU_ADD = 1u << 15,
    MIPS_FPU_MUL = 1u << 16,
    MIPS_FPU_DIV = 1u << 17,
    MIPS_FPU_SQRT = 1u << 18,
};

unsigned mips_classify(uint32_t insn);
/* jalx: a jump that switches to MIPS16e code (the platform has none). */
#define MIPS_IS_JALX(insn) (((insn) >> 26) == 0x1du)

/* For a branch or jump: true when it always transfers (j, jal, jr, jalr,
 * b = beq $0,$0, bal); false for a conditional branch. */
bool mips_branch_unconditional(uint32_t insn);
/* A conditional branch that can never be taken (bne x,x, bgtz and bltz
 * of $0, their likely forms, bltzall $0): QEMU translates it as no
 * branch, the block goes on after it (the likely forms skip their delay
 * slot, bltzall $0 links) */
bool mips_branch_never(uint32_t i);

/* The events one execution of instruction w counts, bit MIPS_EV_x: a
 * load, a store, a control transfer, of which conditional or a register
 * jump (the emulator's per-block counts and the profiler's per-line ones
 * both come from here). */
enum { MIPS_EV_LOAD, MIPS_EV_STORE, MIPS_EV_BRANCH, MIPS_EV_COND, MIPS_EV_INDIRECT, MIPS_NEV };
unsigned mips_word_events(uint32_t w);
/* Branch target of a PC-relative branch or a j/jal at pc; false for
 * register jumps and non-branches. */
bool mips_branch_target(uint32_t insn, uint32_t pc, uint32_t *target);
/* Whether a conditional branch is taken given its rs and rt values. */
bool mips_branch_taken(uint32_t insn, uint32_t rs_val, uint32_t rt_val);

/* The general registers an instruction may write (bit n: $n; $0 never);
 * all of them for an instruction not known here. */
uint32_t mips_gpr_writes(uint32_t insn);
/* An instruction that writes a general register names $0 as it (a nop,
 * ssnop, ehb: `sll $0, ...`; the 24K's "no-op" event). */
bool mips_writes_zero(uint32_t insn);

/* For a load or store: access size in bytes (lwl/lwr/swl/swr report 1:
 * they never fault on alignment), base register and signed offset. */
bool mips_mem_operand(uint32_t insn, unsigned *size, unsigned *base, int32_t *offset);

/* A block of n instructions repeated as a loop computes the same thing
 * every iteration: only whitelisted ALU ops, branches and one lw (at
 * load_index), no stores, and no register carried between iterations
 * (every register the block writes is written before it is read). */
bool mips_idempotent_loop(const uint32_t *words, unsigned n, unsigned load_index);

/* n instructions ending in a conditional branch and its delay slot (and
 * maybe one more conditional branch and delay slot before, the loop's
 * other exit), repeated as a loop, whose branches decide only on words it loads
 * at addresses that are the same every iteration and on registers the loop
 * does not write: whitelisted ALU ops, branches, aligned integer loads
 * and stores (at addresses that never move), any other state it carries
 * (a counter) not reaching a branch. *cond_loads: the loads the branches
 * depend on (bit i: words[i]). Whether a store hits one of them is for
 * the caller to see, from the addresses (it then changes its own exit). */
bool mips_wait_loop(const uint32_t *words, unsigned n, uint64_t *cond_loads);

#define MIPS_WAIT_MASK 0xFE00003Fu
#define MIPS_WAIT_BITS 0x42000020u

#endif

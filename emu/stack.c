// SPDX-License-Identifier: GPL-2.0-or-later
/* stack.c — each core's lowest $sp and the stack limit (SPEC 1, Stack).
 *
 * A block that may write $sp is marked when it is first seen
 * (stack_scan_block: only those, typically prologues and epilogues); the
 * boundary after it reads $sp once (stack_check). Values inside the block
 * are found backwards from that one: each `addiu $sp, $sp, imm` before
 * the end undoes its immediate, so the lowest $sp and the instruction that
 * first took it below the limit are exact for the usual code; a write of
 * another kind (move, load) ends the walk (what it set is the value the
 * later writes started from). Nothing runs for blocks that leave $sp
 * alone. */
#include "emu/core_priv.h"

#define SP 29u

/* Whether instruction w may write $sp (over-approximated where
 * mips_gpr_writes does not know the instruction). */
static bool writes_sp(uint32_t w)
{
    unsigned op = w >> 26, rs = (w >> 21) & 31, rt = (w >> 16) & 31, rd = (w >> 11) & 31;
    switch (op) {
    case 0x10: /* COP0: mfc0, di/ei write rt */
        return (rs == 0x00 || rs == 0x0b) && rt == SP;
    case 0x11: /* COP1: mfc1, cfc1, mfhc1 write rt; the rest none */
        return (rs == 0x00 || rs == 0x02 || rs == 0x03) && rt == SP;
    case 0x1f: /* SPECIAL3: ext/ins, rdhwr (rt), seb/seh/wsbh (rd) */
        return rt == SP || rd == SP;
    default:
        return (mips_gpr_writes(w) >> SP) & 1u;
    }
}

/* `addiu $sp, $sp, imm`: its immediate. */
static bool sp_addiu(uint32_t w, int32_t *imm)
{
    if ((w >> 16) != ((0x09u << 10) | (SP << 5) | SP))
        return false;
    *imm = (int16_t)(w & 0xFFFFu);
    return true;
}

/* Marks b when it may lower $sp: a block whose only writes are `addiu
 * $sp, $sp, imm >= 0` (an epilogue) can set no new low and costs nothing.
 * Up to 4 writes are listed for stack_check; more (sp_n 5) are found by
 * scanning the block. */
void stack_scan_block(Block *b)
{
    bool lowers = false;
    b->sp_n = 0;
    for (uint32_t i = 0; i < b->ninsns; i++) {
        uint32_t w = b->words[i];
        int32_t imm;
        if (!writes_sp(w))
            continue;
        if (b->sp_n < 4)
            b->sp_at[b->sp_n] = (uint16_t)i;
        b->sp_n = (uint8_t)MIN(b->sp_n + 1u, 5u);
        lowers |= !sp_addiu(w, &imm) || imm < 0;
    }
    b->sp_write = lowers;
    /* the hook's quick check (BLOCK_CHK_SP): every value the walk of
     * stack_check looks at is the final $sp minus the immediates of the
     * addius after it; when none of those sums is negative (no value above
     * the final one, so none wraps), the lowest is $sp - sp_dip */
    int32_t after = 0;
    bool quick = lowers && b->sp_n <= 4;
    b->sp_dip = 0;
    for (int k = b->sp_n - 1; quick && k >= 0; k--) {
        int32_t imm;
        if (after < 0)
            quick = false;
        else
            b->sp_dip = MAX(b->sp_dip, (uint32_t)after);
        if (!sp_addiu(b->words[b->sp_at[k]], &imm))
            break;
        after += imm;
    }
    b->chk = (uint8_t)((b->chk & ~(BLOCK_CHK_SP | BLOCK_CHK_SLOW))
                       | (quick ? BLOCK_CHK_SP : lowers ? BLOCK_CHK_SLOW : 0u));
}

bool stack_check(Core *c, Block *p, uint32_t next)
{
    uint32_t sp = core_gpr(c, SP);
    if (c->state != CORE_RUNNING)
        return true;
    /* walk back from the end: v = $sp after instruction i */
    uint32_t v = sp, low = sp;
    int first_over = -1;
    bool known = true;
    int n = p->sp_n <= 4 ? p->sp_n : (int)p->ninsns;
    for (int k = n - 1; k >= 0 && known; k--) {
        int i = p->sp_n <= 4 ? p->sp_at[k] : k;
        uint32_t w = p->words[i];
        if (p->sp_n > 4 && !writes_sp(w))
            continue;
        if (v < low)
            low = v;
        if (c->sp_limit && v < c->sp_limit)
            first_over = i; /* the earliest one wins */
        int32_t imm;
        if (sp_addiu(w, &imm))
            v -= (uint32_t)imm; /* $sp before it */
        else
            known = false;
    }
    if (low < c->sp_low) {
        c->sp_low = low;
        c->sp_floor = MAX(c->sp_low, c->sp_limit);
    }
    if (first_over < 0)
        return false;
    uint32_t pc = p->addr + 4u * (uint32_t)first_over;
    c->pc = pc;
    core_raise(c, "stack-overflow", pc,
               "stack overflow: $sp 0x%08x below the stack limit 0x%08x (__nocprof_stack_limit, the end of "
               ".bss) at pc 0x%08x, %u bytes below the initial $sp", sp, c->sp_limit, pc,
               c->sp_top - MIN(sp, c->sp_top));
    c->fault.regs_pc = next; /* the registers are those after p: at the next block */
    return true;
}

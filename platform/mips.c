// SPDX-License-Identifier: GPL-2.0-or-later
/* mips.c — instruction classes for the cycle model (see mips.h). */
#include "platform/mips.h"

#define OP(i) ((i) >> 26)
#define RS(i) (((i) >> 21) & 31)
#define RT(i) (((i) >> 16) & 31)
#define RD(i) (((i) >> 11) & 31)
#define FUNCT(i) ((i) & 63)

static unsigned classify_special(uint32_t i)
{
    switch (FUNCT(i)) {
    case 0x08: return MIPS_BRANCH | MIPS_JREG | (RS(i) == 31 ? MIPS_RETURN : 0); /* jr */
    case 0x09: return MIPS_BRANCH | MIPS_JREG | MIPS_LINK;           /* jalr */
    case 0x0c: return MIPS_SYSCALL;
    case 0x0d: return MIPS_BREAK;
    case 0x18: case 0x19: return MIPS_MUL;                            /* mult[u] */
    case 0x1a: case 0x1b: return MIPS_DIV;                            /* div[u] */
    case 0x20: case 0x22: return MIPS_OVERFLOW;                       /* add, sub */
    case 0x30: case 0x31: case 0x32: case 0x33: case 0x34: case 0x36:
        return MIPS_TRAP;                                             /* tge .. tne */
    default: return 0;
    }
}

static unsigned classify_regimm(uint32_t i)
{
    switch (RT(i)) {
    case 0x00: case 0x01: return MIPS_BRANCH;                  /* bltz, bgez */
    case 0x02: case 0x03: return MIPS_BRANCH | MIPS_LIKELY;
    case 0x10: case 0x11: return MIPS_BRANCH | MIPS_LINK;      /* bltzal, bgezal (bal) */
    case 0x12: case 0x13: return MIPS_BRANCH | MIPS_LINK | MIPS_LIKELY;
    case 0x08: case 0x09: case 0x0a: case 0x0b: case 0x0c: case 0x0e:
        return MIPS_TRAP;                                      /* tgei .. tnei */
    default: return 0;
    }
}

/* COP1 with a format in rs: S, D, W, L (PS is not on the 24Kf). */
static unsigned classify_cop1(uint32_t i)
{
    unsigned fmt = RS(i), f = FUNCT(i);
    if (fmt == 0x08)
        return MIPS_BRANCH | ((RT(i) & 2) ? MIPS_LIKELY : 0);  /* bc1f/t(l) */
    if (fmt != 0x10 && fmt != 0x11 && fmt != 0x14 && fmt != 0x15)
        return 0;                                              /* mfc1, mtc1, ... */
    switch (f) {
    case 0x02: return MIPS_FPU_MUL;
    case 0x03: case 0x15: return MIPS_FPU_DIV;                 /* div, recip */
    case 0x04: case 0x16: return MIPS_FPU_SQRT;                /* sqrt, rsqrt */
    case 0x00: case 0x01: case 0x05: case 0x06: case 0x07:     /* add sub abs mov neg */
    case 0x11: case 0x12: case 0x13:                           /* movf/t, movz, movn */
        return MIPS_FPU_ADD;
    default:
        if ((f >= 0x08 && f <= 0x0f) || (f >= 0x20 && f <= 0x26) || f >= 0x30)
            return MIPS_FPU_ADD;                               /* round.., cvt, c.cond */
        return 0;
    }
}

unsigned mips_classify(uint32_t i)
{
    switch (OP(i)) {
    case 0x00: return classify_special(i);
    case 0x01: return classify_regimm(i);
    case 0x02: return MIPS_BRANCH;                             /* j */
    case 0x03: return MIPS_BRANCH | MIPS_LINK;                 /* jal */
    case 0x1d: return MIPS_BRANCH | MIPS_LINK;                 /* jalx (MIPS16e: faults) */
    case 0x04: case 0x05: case 0x06: case 0x07: return MIPS_BRANCH;
    case 0x08: return MIPS_OVERFLOW;                           /* addi */
    case 0x10:                                                 /* COP0 */
        if (i == 0x42000018u) return MIPS_ERET;
        if ((i & MIPS_WAIT_MASK) == MIPS_WAIT_BITS) return MIPS_WAIT;
        return 0;
    case 0x11: return classify_cop1(i);
    case 0x13:                                                 /* COP1X */
        switch (FUNCT(i)) {
        case 0x00: case 0x01: case 0x05: return MIPS_LOAD;     /* lwxc1 ldxc1 luxc1 */
        case 0x08: case 0x09: case 0x0d: return MIPS_STORE;    /* swxc1 sdxc1 suxc1 */
        default: break;
        }
        return (FUNCT(i) & 0x30) >= 0x20 && (FUNCT(i) & 6) == 0 ? MIPS_FPU_MUL : 0; /* [n]madd/msub.s/d */
    case 0x14: case 0x15: case 0x16: case 0x17: return MIPS_BRANCH | MIPS_LIKELY;
    case 0x1c:                                                 /* SPECIAL2 */
        switch (FUNCT(i)) {
        case 0x00: case 0x01: case 0x02: case 0x04: case 0x05: return MIPS_MUL;
        case 0x3f: return MIPS_BREAK;                          /* sdbbp */
        default: return 0;
        }
    case 0x20: case 0x21: case 0x22: case 0x23: case 0x24: case 0x25: case 0x26:
    case 0x30: case 0x31: case 0x35:
        return MIPS_LOAD;
    case 0x28: case 0x29: case 0x2a: case 0x2b: case 0x2e:
    case 0x38: case 0x39: case 0x3d:
        return MIPS_STORE;
    default: return 0;
    }
}

bool mips_mem_operand(uint32_t i, unsigned *size, unsigned *base, int32_t *offset)
{
    unsigned sz;
    switch (OP(i)) {
    case 0x20: case 0x24: case 0x28: sz = 1; break;           /* lb lbu sb */
    case 0x21: case 0x25: case 0x29: sz = 2; break;           /* lh lhu sh */
    case 0x22: case 0x26: case 0x2a: case 0x2e: sz = 1; break; /* lwl lwr swl swr */
    case 0x23: case 0x2b: case 0x30: case 0x38: case 0x31: case 0x39: sz = 4; break;
    case 0x35: case 0x3d: sz = 8; break;                      /* ldc1 sdc1 */
    default: return false;
    }
    *size = sz;
    *base = RS(i);
    *offset = (int16_t)(i & 0xffff);
    return true;
}

static uint32_t writes_special(uint32_t i)
{
    switch (FUNCT(i)) {
    case 0x08: case 0x0c: case 0x0d: case 0x0f: case 0x11: case 0x13: /* jr syscall break sync mthi mtlo */
    case 0x18: case 0x19: case 0x1a: case 0x1b:                       /* mult[u] div[u] */
    case 0x30: case 0x31: case 0x32: case 0x33: case 0x34: case 0x36: /* traps */
        return 0;
    default:
        return 1u << RD(i);
    }
}

static uint32_t gpr_writes(uint32_t i)
{
    uint32_t w;
    switch (OP(i)) {
    case 0x00: w = writes_special(i); break;
    case 0x01: w = (RT(i) & 0x10) ? 1u << 31 : 0; break;       /* ..al: $ra */
    case 0x02: case 0x04: case 0x05: case 0x06: case 0x07:     /* j, branches */
    case 0x14: case 0x15: case 0x16: case 0x17:
    case 0x28: case 0x29: case 0x2a: case 0x2b: case 0x2e:     /* stores */
    case 0x2f: case 0x33: case 0x39: case 0x3d:                /* cache pref swc1 sdc1 */
    case 0x31: case 0x35:                                      /* lwc1 ldc1 */
        w = 0;
        break;
    case 0x03: case 0x1d: w = 1u << 31; break;                /* jal, jalx */
    case 0x08: case 0x09: case 0x0a: case 0x0b: case 0x0c: case 0x0d: case 0x0e: case 0x0f:
    case 0x20: case 0x21: case 0x22: case 0x23: case 0x24: case 0x25: case 0x26:
    case 0x30: case 0x38:                                      /* ALU imm, loads, ll, sc */
        w = 1u << RT(i);
        break;
    case 0x1c:                                                 /* SPECIAL2 */
        switch (FUNCT(i)) {
        case 0x02: case 0x20: case 0x21: w = 1u << RD(i); break;    /* mul clz clo */
        case 0x00: case 0x01: case 0x04: case 0x05: case 0x3f: w = 0; break; /* madd.. sdbbp */
        default: w = ~0u; break;
        }
        break;
    default:
        w = ~0u; /* not known here: any */
        break;
    }
    return w;
}

uint32_t mips_gpr_writes(uint32_t i)
{
    return gpr_writes(i) & ~1u;
}

bool mips_writes_zero(uint32_t i)
{
    uint32_t w = gpr_writes(i);
    return w != ~0u && (w & 1u);
}

bool mips_branch_unconditional(uint32_t i)
{
    switch (OP(i)) {
    case 0x00: return FUNCT(i) == 0x08 || FUNCT(i) == 0x09;   /* jr, jalr */
    case 0x02: case 0x03: case 0x1d: return true;            /* j, jal, jalx */
    case 0x04: case 0x14: return RS(i) == RT(i);              /* beq(l) x,x */
    case 0x01: return RS(i) == 0 && (RT(i) == 0x01 || RT(i) == 0x11); /* bgez(al) $0 */
    default: return false;
    }
}

bool mips_branch_never(uint32_t i)
{
    switch (OP(i)) {
    case 0x05: case 0x15: return RS(i) == RT(i);              /* bne(l) x,x */
    case 0x07: case 0x17: return RS(i) == 0;                  /* bgtz(l) $0 */
    case 0x01: return RS(i) == 0 && (RT(i) == 0x00 || RT(i) == 0x02 || RT(i) == 0x12); /* bltz(l), bltzall $0 */
    default: return false;
    }
}

bool mips_branch_target(uint32_t i, uint32_t pc, uint32_t *target)
{
    if (OP(i) == 0x02 || OP(i) == 0x03 || OP(i) == 0x1d) {
        *target = ((pc + 4) & 0xF0000000u) | ((i & 0x03FFFFFFu) << 2);
        return true;
    }
    unsigned cls = mips_classify(i);
    if (!(cls & MIPS_BRANCH) || (cls & MIPS_JREG))
        return false;
    *target = pc + 4 + (uint32_t)((int32_t)(int16_t)(i & 0xFFFF) * 4);
    return true;
}

bool mips_branch_taken(uint32_t i, uint32_t rs_val, uint32_t rt_val)
{
    int32_t rs = (int32_t)rs_val;
    switch (OP(i)) {
    case 0x04: case 0x14: return rs_val == rt_val;            /* beq(l) */
    case 0x05: case 0x15: return rs_val != rt_val;            /* bne(l) */
    case 0x06: case 0x16: return rs <= 0;                     /* blez(l) */
    case 0x07: case 0x17: return rs > 0;                      /* bgtz(l) */
    case 0x01:
        switch (RT(i)) {
        case 0x00: case 0x02: case 0x10: case 0x12: return rs < 0;   /* bltz... */
        case 0x01: case 0x03: case 0x11: case 0x13: return rs >= 0;  /* bgez... */
        default: return false;
        }
    default: return mips_branch_unconditional(i);
    }
}

/* The registers an instruction of the poll-loop whitelist reads and
 * writes (bit masks of GPRs); false for anything else. */
static bool regs_of(uint32_t w, uint32_t *reads, uint32_t *writes)
{
    unsigned op = w >> 26, rs = (w >> 21) & 31, rt = (w >> 16) & 31, rd = (w >> 11) & 31, fn = w & 63;
    *reads = *writes = 0;
    switch (op) {
    case 0x00: /* SPECIAL: shifts by constant and three-register ALU ops */
        if (fn == 0x00 || fn == 0x02 || fn == 0x03) { /* sll, srl, sra (sll $0 = nop) */
            *reads = 1u << rt;
            *writes = 1u << rd;
            return true;
        }
        if (fn == 0x21 || fn == 0x23 || (fn >= 0x24 && fn <= 0x27) || fn == 0x2a || fn == 0x2b) {
            *reads = 1u << rs | 1u << rt; /* addu subu and or xor nor slt sltu */
            *writes = 1u << rd;
            return true;
        }
        return false;
    case 0x01: /* REGIMM: bltz bgez (no link) */
        if (rt == 0 || rt == 1) {
            *reads = 1u << rs;
            return true;
        }
        return false;
    case 0x04: case 0x05: /* beq bne */
        *reads = 1u << rs | 1u << rt;
        return true;
    case 0x06: case 0x07: /* blez bgtz */
        *reads = 1u << rs;
        return true;
    case 0x09: case 0x0a: case 0x0b: case 0x0c: case 0x0d: case 0x0e: /* addiu slti sltiu andi ori xori */
        *reads = 1u << rs;
        *writes = 1u << rt;
        return true;
    case 0x0f: /* lui */
        *writes = 1u << rt;
        return true;
    case 0x23: /* lw */
        *reads = 1u << rs;
        *writes = 1u << rt;
        return true;
    default:
        return false;
    }
}

bool mips_idempotent_loop(const uint32_t *words, unsigned n, unsigned load_index)
{
    uint32_t all_writes = 0, written = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t r, w;
        if (!regs_of(words[i], &r, &w))
            return false;
        if ((words[i] >> 26) == 0x23 && i != load_index)
            return false;           /* one load: the poll */
        all_writes |= w;
    }
    all_writes &= ~1u;              /* $0 */
    for (unsigned i = 0; i < n; i++) {
        uint32_t r, w;
        regs_of(words[i], &r, &w);
        /* read before this iteration wrote it, but written by the loop:
         * state carried from one iteration to the next */
        if (r & ~written & all_writes)
            return false;
        written |= w;
    }
    return true;
}

/* A load or store a wait loop may hold (mips_wait_loop): the aligned
 * integer ones (lb lbu lh lhu lw, sb sh sw). */
static bool plain_access(uint32_t w, bool *store)
{
    unsigned op = w >> 26;
    *store = op == 0x28 || op == 0x29 || op == 0x2b;
    return *store || op == 0x20 || op == 0x21 || op == 0x23 || op == 0x24 || op == 0x25;
}

#define VARIES (1ull << 63) /* carried from the last iteration */

bool mips_wait_loop(const uint32_t *words, unsigned n, uint64_t *cond_loads)
{
    uint32_t all_writes = 0;
    if (n < 2 || n > 63)
        return false;
    for (unsigned i = 0; i < n; i++) {
        uint32_t r, w;
        bool store;
        if (plain_access(words[i], &store))
            w = store ? 0 : 1u << ((words[i] >> 16) & 31);
        else if (!regs_of(words[i], &r, &w))
            return false;
        all_writes |= w;
    }
    /* per register, what its value depends on: the loads of this
     * iteration (bit i: words[i]), or VARIES: state carried from the last
     * iteration (a register the loop writes, read before it does) */
    uint64_t dep[32];
    for (unsigned k = 0; k < 32; k++)
        dep[k] = k && (all_writes >> k & 1) ? VARIES : 0;
    uint64_t cond = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t w = words[i], r, wr;
        unsigned rs = (w >> 21) & 31, rt = (w >> 16) & 31;
        bool store;
        if (plain_access(w, &store)) {
            if (dep[rs] & VARIES)
                return false; /* an address that moves */
            if (!store && rt)
                dep[rt] = dep[rs] | 1ull << i;
            continue;
        }
        regs_of(w, &r, &wr);
        uint64_t d = 0;
        for (unsigned k = 1; k < 32; k++)
            if (r >> k & 1)
                d |= dep[k];
        if (mips_classify(w) & MIPS_BRANCH)
            cond |= d; /* a branch: what decides whether it loops */
        for (unsigned k = 1; k < 32; k++)
            if (wr >> k & 1)
                dep[k] = d;
    }
    *cond_loads = cond;
    return cond && !(cond & VARIES);
}

unsigned mips_word_events(uint32_t w)
{
    unsigned cls = mips_classify(w), e = 0;
    if (cls & MIPS_LOAD) e |= 1u << MIPS_EV_LOAD;
    if (cls & MIPS_STORE) e |= 1u << MIPS_EV_STORE;
    if (cls & MIPS_BRANCH) {
        e |= 1u << MIPS_EV_BRANCH;
        if (cls & MIPS_JREG) e |= 1u << MIPS_EV_INDIRECT;
        else if (!mips_branch_unconditional(w)) e |= 1u << MIPS_EV_COND;
    }
    return e;
}

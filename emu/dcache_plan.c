// SPDX-License-Identifier: GPL-2.0-or-later
/* dcache_plan.c — a block's plan for `[cache] d_model = predict`
 * (emu/dcache.c has the design): its loads and stores, whether it is
 * quiet, and the program that computes their addresses at its entry. */
#include "emu/dcache.h"

/* The access w makes, if any: kind, size, a store */
bool dcache_access_of(uint32_t w, DAcc *a)
{
    unsigned size, base;
    int32_t off;
    unsigned f = FUNCT(w);
    if (OP(w) == 0x13u && (f == 0x00 || f == 0x01 || f == 0x05 || f == 0x08 || f == 0x09 || f == 0x0D)) {
        /* COP1X lwxc1 ldxc1 luxc1 swxc1 sdxc1 suxc1: base + index
         * (luxc1/suxc1: the doubleword holding it, never misaligned) */
        a->kind = (f & 7u) == 5u ? DK_FPUXD : DK_FPUX;
        a->write = f >= 8u;
        a->size = (f & 7u) ? 8 : 4;
        a->base = (uint8_t)RS(w);
        a->index = (uint8_t)RT(w);
        a->off = 0;
        return true;
    }
    if (!mips_mem_operand(w, &size, &base, &off))
        return false;
    unsigned op = OP(w);
    a->size = (uint8_t)size;
    a->write = op == 0x28u || op == 0x29u || op == 0x2Bu || op == 0x2Au || op == 0x2Eu || op == 0x38u
               || op == 0x39u || op == 0x3Du;
    a->kind = op == 0x22u || op == 0x26u ? DK_LWLR : op == 0x2Au ? DK_SWL : op == 0x2Eu ? DK_SWR
              : op == 0x31u || op == 0x39u || op == 0x35u || op == 0x3Du ? DK_FPU
              : op == 0x38u ? DK_SC : DK_PLAIN;
    a->off = (uint32_t)off;
    a->base = (uint8_t)base;
    a->index = 0;
    return true;
}

/* The SPECIAL3 (op 0x1F) instruction w as a step: DOP_*, or -1 */
static int special3_op(uint32_t w)
{
    if (FUNCT(w) == 0x00)
        return DOP_EXT;
    if (FUNCT(w) == 0x04)
        return DOP_INS;
    if (FUNCT(w) == 0x20 && RS(w) == 0)
        return SA(w) == 0x02 ? DOP_WSBH : SA(w) == 0x10 ? DOP_SEB : SA(w) == 0x18 ? DOP_SEH : -1;
    return -1;
}

/* COP1 instruction w raises no exception while the FPU is usable and FPU
 * exceptions are not enabled (QEMU's checks: a valid format and function
 * for the 24Kf, even registers for doubles with Status.FR = 0) */
static bool fpu_quiet(uint32_t w)
{
    unsigned fmt = RS(w), f = FUNCT(w);
    uint32_t regs = (RT(w) | RD(w) | SA(w)) & 1u; /* ft fs fd */
    bool common = f <= 0x07 || (f >= 0x0C && f <= 0x0F) || (f >= 0x11 && f <= 0x13) || f == 0x24 || f >= 0x30;
    switch (fmt) {
    case 0x00: case 0x02: case 0x04: case 0x08: /* mfc1 cfc1 mtc1 bc1 */
        return true;
    case 0x03: case 0x07: /* mfhc1 mthc1 (an odd fs: hooked) */
        return !(RD(w) & 1u);
    case 0x10: /* S */
        return common || f == 0x21;
    case 0x11: /* D */
        return (common || f == 0x20) && !regs;
    case 0x14: /* W */
        return f == 0x20 || (f == 0x21 && !(SA(w) & 1u));
    default:
        return false;
    }
}

/* w raises no exception and reads nothing that depends on cycles (an
 * access's own faults are found from its address): 1; 2: so does the FPU
 * instruction w, while the FPU is usable and its exceptions not enabled;
 * 0: not quiet */
static int quiet(uint32_t w)
{
    unsigned op = OP(w), f = FUNCT(w);
    switch (op) {
    case 0x00: /* with add sub and the traps: checked by the program */
        return f == 0x00 || f == 0x02 || f == 0x03 || f == 0x04 || f == 0x06 || f == 0x07 || f == 0x08
            || f == 0x09 || f == 0x0A || f == 0x0B || (f >= 0x10 && f <= 0x13) || (f >= 0x18 && f <= 0x1B)
            || (f >= 0x20 && f <= 0x27) || f == 0x2A || f == 0x2B || (f >= 0x30 && f <= 0x34) || f == 0x36;
    case 0x01: /* bltz bgez [likely] [and link]; the immediate traps */
        return RT(w) <= 3u || (RT(w) >= 0x10u && RT(w) <= 0x13u) || (RT(w) >= 8u && RT(w) <= 0x0Eu && RT(w) != 0x0Du);
    case 0x02: case 0x03: case 0x04: case 0x05: case 0x06: case 0x07:
    case 0x08: case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x0E: case 0x0F:
    case 0x14: case 0x15: case 0x16: case 0x17:
    case 0x20: case 0x21: case 0x22: case 0x23: case 0x24: case 0x25: case 0x26:
    case 0x28: case 0x29: case 0x2A: case 0x2B: case 0x2E:
        return 1;
    case 0x11:
        return fpu_quiet(w) ? 2 : 0;
    case 0x31: case 0x35: case 0x39: case 0x3D: /* lwc1 ldc1 swc1 sdc1 */
        return 2;
    case 0x1C: /* mul madd maddu msub msubu clz clo */
        return f == 0x00 || f == 0x01 || f == 0x02 || f == 0x04 || f == 0x05 || f == 0x20 || f == 0x21;
    case 0x1F: /* ext ins, wsbh seb seh */
        return special3_op(w) >= 0;
    default:
        return 0;
    }
}

/* The SPECIAL (op 0) instruction w as a step: DOP_*, or -1 */
static int special_op(uint32_t w)
{
    switch (FUNCT(w)) {
    case 0x00: return DOP_SLL;
    case 0x02: return RS(w) == 1 ? DOP_ROTR : RS(w) == 0 ? DOP_SRL : -1;
    case 0x03: return DOP_SRA;
    case 0x04: return DOP_SLLV;
    case 0x06: return SA(w) == 1 ? DOP_ROTRV : SA(w) == 0 ? DOP_SRLV : -1;
    case 0x07: return DOP_SRAV;
    case 0x09: return DOP_CONST; /* jalr: rd = the return address */
    case 0x0A: return DOP_MOVZ;
    case 0x0B: return DOP_MOVN;
    case 0x21: return DOP_ADDU;
    case 0x23: return DOP_SUBU;
    case 0x24: return DOP_AND;
    case 0x25: return DOP_OR;
    case 0x26: return DOP_XOR;
    case 0x27: return DOP_NOR;
    case 0x2A: return DOP_SLT;
    case 0x2B: return DOP_SLTU;
    default: return -1;
    }
}

/* HI and LO as w writes them (bits DR_HI, DR_LO) */
static uint64_t hilo_writes(uint32_t w)
{
    unsigned f = FUNCT(w);
    if (OP(w) == 0x00)
        return f == 0x11 ? UINT64_C(1) << DR_HI : f == 0x13 ? UINT64_C(1) << DR_LO
               : f >= 0x18 && f <= 0x1B ? UINT64_C(3) << DR_HI : 0;
    if (OP(w) == 0x1C && (f == 0x00 || f == 0x01 || f == 0x04 || f == 0x05))
        return UINT64_C(3) << DR_HI; /* madd maddu msub msubu */
    return 0;
}

/* The HI/LO instruction w (SPECIAL) as a step: a move (mfhi mflo mthi
 * mtlo, as an or with $0) or mult multu div divu; -1: none */
static int hilo_op(uint32_t w, DOp *o, uint64_t *src)
{
    unsigned f = FUNCT(w);
    if (f < 0x10 || f > 0x1B || (f > 0x13 && f < 0x18))
        return -1;
    *src = (UINT64_C(1) << RS(w)) | (UINT64_C(1) << RT(w));
    o->t = 0;
    switch (f) {
    case 0x10: case 0x12: /* mfhi mflo */
        o->s = (uint8_t)(f == 0x10 ? DR_HI : DR_LO);
        o->d = (uint8_t)RD(w);
        *src = UINT64_C(1) << o->s;
        return DOP_OR;
    case 0x11: case 0x13: /* mthi mtlo */
        o->d = (uint8_t)(f == 0x11 ? DR_HI : DR_LO);
        *src = UINT64_C(1) << RS(w);
        return DOP_OR;
    case 0x18: case 0x19: case 0x1A: case 0x1B:
        o->t = (uint8_t)RT(w);
        return DOP_MULT + (int)(f - 0x18); /* DOP_MULT DOP_MULTU DOP_DIV DOP_DIVU */
    default:
        return -1;
    }
}

/* w (at pc) as a step computing its result (a GPR, or HI and LO) from
 * registers, with the registers it reads (*src, HI/LO: bits 32, 33);
 * false when it is none (loads, FPU moves) */
static bool step_of(uint32_t w, uint32_t pc, DOp *o, uint64_t *src)
{
    int k = -1;
    *o = (DOp){ .d = (uint8_t)RT(w), .s = (uint8_t)RS(w), .t = (uint8_t)RT(w),
                .imm = (uint32_t)(int16_t)(w & 0xFFFFu) };
    *src = UINT64_C(1) << RS(w);
    switch (OP(w)) {
    case 0x00:
        if ((k = hilo_op(w, o, src)) >= 0)
            break;
        k = special_op(w);
        o->d = (uint8_t)RD(w);
        o->imm = SA(w);
        *src = k == DOP_SLL || k == DOP_SRL || k == DOP_SRA || k == DOP_ROTR ? UINT64_C(1) << RT(w)
               : (UINT64_C(1) << RS(w)) | (UINT64_C(1) << RT(w))
                 | (k == DOP_MOVZ || k == DOP_MOVN ? UINT64_C(1) << RD(w) : 0);
        if (k == DOP_CONST)
            o->imm = pc + 8;
        break;
    case 0x01: case 0x03: /* bltzal bgezal jal: $ra = the return address */
        k = DOP_CONST;
        o->d = 31;
        o->imm = pc + 8;
        break;
    case 0x09: k = DOP_ADDIU; break;
    case 0x0A: k = DOP_SLTI; break;
    case 0x0B: k = DOP_SLTIU; break;
    case 0x0C: k = DOP_ANDI; o->imm &= 0xFFFFu; break;
    case 0x0D: k = DOP_ORI; o->imm &= 0xFFFFu; break;
    case 0x0E: k = DOP_XORI; o->imm &= 0xFFFFu; break;
    case 0x0F: k = DOP_CONST; o->imm = (w & 0xFFFFu) << 16; break; /* lui */
    case 0x1F: /* rt = f(rs) (ins: and rt): imm = lsb | msb(d) << 8 */
        k = special3_op(w);
        o->imm = SA(w) | RD(w) << 8;
        o->s = k == DOP_EXT || k == DOP_INS ? (uint8_t)RS(w) : (uint8_t)RT(w);
        *src = (UINT64_C(1) << RS(w)) | (UINT64_C(1) << RT(w));
        if (k == DOP_WSBH || k == DOP_SEB || k == DOP_SEH)
            o->d = (uint8_t)RD(w);
        break;
    case 0x1C:
        k = FUNCT(w) == 0x02 ? DOP_MUL : FUNCT(w) == 0x20 ? DOP_CLZ : FUNCT(w) == 0x21 ? DOP_CLO
            : FUNCT(w) == 0x00 ? DOP_MADD : FUNCT(w) == 0x01 ? DOP_MADDU : FUNCT(w) == 0x04 ? DOP_MSUB
            : FUNCT(w) == 0x05 ? DOP_MSUBU : -1;
        o->d = (uint8_t)RD(w);
        *src = (UINT64_C(1) << RS(w)) | (UINT64_C(1) << RT(w)) | (k >= DOP_MADD ? UINT64_C(3) << DR_HI : 0);
        break;
    default:
        break;
    }
    if (k == DOP_CONST)
        *src = 0;
    o->op = (uint8_t)k;
    return k >= 0;
}

/* What step o writes (a GPR, or HI and LO) */
static uint64_t step_dst(const DOp *o)
{
    return o->op >= DOP_MULT && o->op <= DOP_MSUBU ? UINT64_C(3) << DR_HI : UINT64_C(1) << o->d;
}

/* The general registers w writes (mips_gpr_writes, with SPECIAL3 and
 * the COP1 moves) */
static uint32_t gpr_writes(uint32_t w)
{
    if (OP(w) == 0x1Fu && special3_op(w) >= 0)
        return (1u << (FUNCT(w) == 0x20 ? RD(w) : RT(w))) & ~1u;
    if (OP(w) == 0x11u)
        return RS(w) == 0 || RS(w) == 2 || RS(w) == 3 ? (1u << RT(w)) & ~1u : 0;
    return mips_gpr_writes(w);
}

/* w as a check: a trap (d = its condition, | 8: against imm) or add, sub,
 * addi (which raise Overflow), with the registers it reads; false: none */
static bool check_of(uint32_t w, DOp *o, uint32_t *src)
{
    unsigned f = FUNCT(w);
    *o = (DOp){ .s = (uint8_t)RS(w), .t = (uint8_t)RT(w), .imm = (uint32_t)(int16_t)(w & 0xFFFFu) };
    *src = (1u << RS(w)) | (1u << RT(w));
    if (OP(w) == 0x00 && ((f >= 0x30 && f <= 0x34) || f == 0x36)) {
        o->op = DOP_TRAP;
        o->d = (uint8_t)(f - 0x30);
    } else if (OP(w) == 0x01 && RT(w) >= 8u && RT(w) <= 0x0Eu) {
        o->op = DOP_TRAP;
        o->d = (uint8_t)((RT(w) - 8u) | 8u);
        *src = 1u << RS(w);
    } else if (OP(w) == 0x00 && (f == 0x20 || f == 0x22)) {
        o->op = f == 0x20 ? DOP_ADDO : DOP_SUBO;
        o->d = (uint8_t)RD(w);
    } else if (OP(w) == 0x08) {
        o->op = DOP_ADDIO;
        o->d = (uint8_t)RT(w);
        *src = 1u << RS(w);
    } else {
        return false;
    }
    return true;
}

/* The program of quiet block b, whose accesses are p->a: the steps its
 * addresses need (found backwards from the last access), with the loads
 * whose values they need and the stores those loads may read back; false
 * when an address needs anything else (HI/LO, lwl/lwr, swl/swr) */
static bool program(const Block *b, DPlan *p)
{
    uint64_t need = 0;
    uint32_t k = p->n;
    bool vload = false; /* a load after i gives a needed value */
    uint8_t *keep = g_new0(uint8_t, b->ninsns);
    bool ok = true;
    for (uint32_t i = b->ninsns; i-- > 0 && ok;) {
        uint32_t w = b->words[i], csrc;
        uint64_t wr = gpr_writes(w) | hilo_writes(w), src;
        DOp o;
        const DAcc *a = k > 0 && p->a[k - 1].i == i ? &p->a[--k] : NULL;
        if (check_of(w, &o, &csrc)) { /* always run: it may end the block */
            keep[i] = 3;
            need = (need & ~wr) | csrc;
        } else if (wr & need) {
            if (a && !a->write && a->kind == DK_PLAIN) {
                keep[i] = 2; /* its value is needed */
                need &= ~wr;
            } else if (!a && step_of(w, b->addr + 4 * i, &o, &src) && wr == step_dst(&o)) {
                keep[i] = 1;
                need = (need & ~wr) | src;
            } else {
                ok = false;
            }
        }
        if (a) {
            need |= UINT64_C(1) << a->base;
            if (a->write && vload) {
                ok &= a->kind == DK_PLAIN;
                keep[i] = 2; /* a later needed load may read it back */
                need |= UINT64_C(1) << RT(w);
            }
            vload |= keep[i] == 2 && !a->write;
        }
        need &= ~UINT64_C(1);
    }
    if (ok) {
        p->live = need;
        p->ops = g_new0(DOp, b->ninsns);
        for (uint32_t i = 0, j = 0; i < b->ninsns; i++) {
            uint32_t csrc;
            uint64_t src;
            if (j < p->n && p->a[j].i == i) {
                const DAcc *a = &p->a[j];
                unsigned f = (keep[i] == 2 ? DF_VALUE : 0) | (a->kind == DK_PLAIN || a->kind == DK_FPU ? DF_PLAIN : 0)
                             | (a->write ? DF_WRITE : 0);
                p->ops[p->nops++] = (DOp){ .i = (uint16_t)i, .op = DOP_ACCESS, .s = a->base, .d = a->size,
                                           .t = (uint8_t)RT(b->words[i]), .flags = (uint8_t)f,
                                           .k = (uint8_t)j, .imm = a->off };
                j++;
            } else if (keep[i]) {
                if (keep[i] == 3)
                    check_of(b->words[i], &p->ops[p->nops], &csrc);
                else
                    step_of(b->words[i], b->addr + 4 * i, &p->ops[p->nops], &src);
                p->ops[p->nops++].i = (uint16_t)i;
            }
        }
    }
    g_free(keep);
    return ok;
}

/* b's plan (NULL: no loads or stores) */
DPlan *dcache_plan(const Core *c, const Block *b)
{
    DPlan *p = g_malloc0(sizeof(DPlan) + sizeof(DAcc) * (b->ninsns ? b->ninsns : 1));
    /* a branch-likely's delay slot runs only when it is taken */
    p->predict = !c->dbg && !(b->flags & MIPS_LIKELY) && b->ninsns < 256;
    p->fpu_first = (uint16_t)b->ninsns;
    for (uint32_t i = 0; i < b->ninsns; i++) {
        uint32_t w = b->words[i];
        DAcc a = { .i = (uint16_t)i };
        int q = quiet(w);
        p->predict &= q != 0;
        if (q == 2 && p->fpu_first == b->ninsns)
            p->fpu_first = (uint16_t)i;
        p->fpe |= (mips_classify(w) & (MIPS_FPU_ADD | MIPS_FPU_MUL | MIPS_FPU_DIV | MIPS_FPU_SQRT)) != 0;
        if (dcache_access_of(w, &a))
            p->a[p->n++] = a;
    }
    if (!p->n) {
        g_free(p);
        return NULL;
    }
    p->predict = p->predict && !(p->fpe && c->fpe_armed) && program(b, p);
    return p;
}


// SPDX-License-Identifier: GPL-2.0-or-later
/* dcache.h — the plan of a block's loads and stores for the D-cache's
 * `predict` model, shared by emu/dcache.c (which runs it) and
 * emu/dcache_plan.c (which makes it). Nothing else includes it. */
#ifndef NOCPROF_DCACHE_H
#define NOCPROF_DCACHE_H

#include "emu/core_priv.h"

#define OP(w) ((w) >> 26)
#define RS(w) (((w) >> 21) & 31u)
#define RT(w) (((w) >> 16) & 31u)
#define RD(w) (((w) >> 11) & 31u)
#define SA(w) (((w) >> 6) & 31u)
#define FUNCT(w) ((w) & 63u)

enum { DK_PLAIN, DK_LWLR, DK_SWL, DK_SWR, DK_FPU, DK_SC, DK_FPUX, DK_FPUXD };

typedef struct DAcc {
    uint16_t i;                /* its instruction */
    uint8_t kind, write, size; /* DK_*, a store, bytes */
    uint8_t base, index;       /* its base register (COP1X: + index) */
    uint32_t off;              /* and offset */
} DAcc;

/* One step of a predicted block's program: an access, or an instruction
 * computing a value that a later address needs */
enum {
    DOP_ACCESS, DOP_CONST, DOP_ADDU, DOP_SUBU, DOP_AND, DOP_OR, DOP_XOR, DOP_NOR, DOP_SLT, DOP_SLTU,
    DOP_SLL, DOP_SRL, DOP_SRA, DOP_ROTR, DOP_SLLV, DOP_SRLV, DOP_SRAV, DOP_ROTRV, DOP_MOVZ, DOP_MOVN,
    DOP_MUL, DOP_CLZ, DOP_CLO, DOP_ADDIU, DOP_SLTI, DOP_SLTIU, DOP_ANDI, DOP_ORI, DOP_XORI,
    DOP_EXT, DOP_INS, DOP_WSBH, DOP_SEB, DOP_SEH,
    DOP_MULT, DOP_MULTU, DOP_DIV, DOP_DIVU, DOP_MADD, DOP_MADDU, DOP_MSUB, DOP_MSUBU, /* HI, LO */
    DOP_TRAP, DOP_ADDO, DOP_SUBO, DOP_ADDIO /* may raise an exception: the block ends there */
};

#define DR_HI 32u              /* HI and LO as the program's registers 32, 33 */
#define DR_LO 33u

#define DF_VALUE 1u            /* a load whose value a later address needs,
                                  a store such a load may read back */
#define DF_PLAIN 2u            /* a plain load or store (DK_PLAIN) */
#define DF_WRITE 4u            /* a store */

typedef struct DOp {
    uint16_t i;                /* its instruction */
    uint8_t op, d, s, t;       /* DOP_*, registers (access: t = rt, d = size) */
    uint8_t flags;             /* DF_* */
    uint8_t k;                 /* DOP_ACCESS: its DAcc */
    uint32_t imm;              /* immediate (shift amount, offset, constant) */
} DOp;

struct DPlan {
    bool predict;
    bool fpe;                  /* FPU arithmetic (may trap once enabled) */
    uint16_t fpu_first;        /* its first FPU instruction (ninsns: none):
                                  with Status.CU1 off the block ends there */
    uint32_t n, nops;
    uint64_t live;             /* predicted: registers read at entry (HI, LO: bits 32, 33) */
    DOp *ops;                  /* [nops] predicted: its program */
    DAcc a[];                  /* [n] its loads and stores, in order */
};

/* The access w makes, if any (kind, size, registers): true */
bool dcache_access_of(uint32_t w, DAcc *a);
/* b's plan (NULL: no loads or stores), made when b is first seen */
DPlan *dcache_plan(const Core *c, const Block *b);

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/* locate.c — which instruction of the running block raised an event (a
 * device access, an unmapped access, a trap, an overflow, an unaligned
 * access, an FPU exception), exactly.
 *
 * Unicorn tells neither: an MMIO callback gets the physical address only
 * (its PC is not synchronised), and at UC_HOOK_INTR Unicorn 2.1.1 has
 * already overwritten PC with its `next_pc` (cpu-exec.c; only a syscall
 * sets it). What is exact at both is every general register: QEMU writes
 * them back to the CPU state before each guest memory access and before a
 * helper that may raise an exception, so they hold what the raising
 * instruction read. The instruction is then the first candidate of the
 * block, from a lower bound on, whose condition holds on those registers
 * (the address it accesses; the trap condition; the overflow; the
 * misalignment).
 *
 * That is exact unless an earlier candidate m, which did not raise the
 * event, reads a register that an instruction from m on (m included)
 * rewrites before a later candidate: m's condition is then evaluated on
 * values it never saw. So, when a block is first seen, loc_scan_block
 * finds each such m and puts a marker (a UC_HOOK_CODE hook that records
 * "this execution of the block reached instruction i") on the instruction
 * after the first rewrite, and the block is translated again, as for the
 * CP0 hooks (cp0.c): when the event comes from a later candidate, the
 * marker has run and the lower bound is past m. Memory candidates whose
 * base register is a constant built in the block (lui/ori/addiu) have an
 * exact address and need no marker; two accesses through the same base
 * register more than 8 bytes apart can never both match one address. A
 * block with no such m carries no hook: only the few blocks that cannot be
 * proved carry one call per execution of their marked instruction.
 */
#include "core_priv.h"


#define OP(w) ((w) >> 26)
#define RS(w) (((w) >> 21) & 31u)
#define RT(w) (((w) >> 16) & 31u)
#define FUNCT(w) ((w) & 63u)

/* The general registers w writes, as mips_gpr_writes, but exact for the
 * coprocessor moves (COP0/COP1 write rt only for mf*, cf*) */
static uint32_t writes(uint32_t w)
{
    if (OP(w) == 0x10u || OP(w) == 0x11u) {
        unsigned rs = RS(w);
        bool to_gpr = rs == 0 || rs == 2 || rs == 3 || (OP(w) == 0x10u && rs == 0x0Bu);
        return to_gpr && RT(w) ? 1u << RT(w) : 0;
    }
    if (OP(w) == 0x13u) /* COP1X: FPU only */
        return 0;
    return mips_gpr_writes(w);
}

/* ---- event classes ---------------------------------------------------------- */

static bool is_trap(uint32_t w)
{
    if (OP(w) == 0)
        return FUNCT(w) >= 0x30u && FUNCT(w) <= 0x36u && FUNCT(w) != 0x35u;
    return OP(w) == 1 && RT(w) >= 0x08u && RT(w) <= 0x0Eu && RT(w) != 0x0Du;
}

static bool is_overflow(uint32_t w)
{
    return OP(w) == 0x08u || (OP(w) == 0 && (FUNCT(w) == 0x20u || FUNCT(w) == 0x22u));
}

static bool is_fpu_arith(uint32_t w)
{
    return (mips_classify(w) & (MIPS_FPU_ADD | MIPS_FPU_MUL | MIPS_FPU_DIV | MIPS_FPU_SQRT)) != 0;
}

/* Whether w is a candidate of class k; *ops: the registers its condition
 * reads (~0: a condition not evaluated on registers) */
static bool candidate(uint32_t w, LocClass k, uint32_t *ops)
{
    unsigned size, base;
    int32_t off;
    switch (k) {
    case LOC_MEM:
        if (!mips_mem_operand(w, &size, &base, &off))
            return false;
        *ops = 1u << base;
        return true;
    case LOC_ALIGN_LD: case LOC_ALIGN_ST:
        if (!mips_mem_operand(w, &size, &base, &off) || size == 1
            || !(mips_classify(w) & (k == LOC_ALIGN_LD ? MIPS_LOAD : MIPS_STORE)))
            return false;
        *ops = 1u << base;
        return true;
    case LOC_TRAP:
        *ops = (1u << RS(w)) | (OP(w) == 0 ? 1u << RT(w) : 0);
        return is_trap(w);
    case LOC_OVERFLOW:
        *ops = (1u << RS(w)) | (OP(w) == 0 ? 1u << RT(w) : 0);
        return is_overflow(w);
    case LOC_FPE:
        *ops = ~0u;
        return is_fpu_arith(w);
    }
    return false;
}

/* ---- constants built in the block ------------------------------------------ */

typedef struct Consts {
    uint32_t known;            /* bit n: $n holds val[n] */
    uint32_t val[32];
} Consts;

static void consts_init(Consts *s)
{
    s->known = 1u;
    s->val[0] = 0;
}

static bool known(const Consts *s, unsigned r)
{
    return (s->known >> r) & 1u;
}

/* The registers after w, given them before */
static void consts_step(Consts *s, uint32_t w)
{
    unsigned rs = RS(w), rt = RT(w), rd = (w >> 11) & 31u;
    uint32_t imm = w & 0xFFFFu, v = 0, dst = 0;
    bool ok = false;
    switch (OP(w)) {
    case 0x0F: dst = rt; v = imm << 16; ok = true; break;                                   /* lui */
    case 0x09: dst = rt; ok = known(s, rs); v = s->val[rs] + (uint32_t)(int16_t)imm; break; /* addiu */
    case 0x0D: dst = rt; ok = known(s, rs); v = s->val[rs] | imm; break;                    /* ori */
    case 0x00:
        if (FUNCT(w) == 0x21u || FUNCT(w) == 0x25u) { /* addu, or (move) */
            dst = rd;
            ok = known(s, rs) && known(s, rt);
            v = FUNCT(w) == 0x21u ? s->val[rs] + s->val[rt] : s->val[rs] | s->val[rt];
        }
        break;
    default:
        break;
    }
    s->known &= ~writes(w);
    if (ok && dst) {
        s->known |= 1u << dst;
        s->val[dst] = v;
    }
    s->known |= 1u;
}

/* ---- markers ---------------------------------------------------------------- */

static void mark_hook(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    Core *c = opaque;
    (void)uc;
    (void)size;
    Block *b = core_current_block(c);
    uint32_t pc = (uint32_t)address;
    if (!b || pc < b->addr || pc >= b->addr + b->size)
        return;
    c->mark_blk = b;
    c->mark_count = b->count;
    c->mark_idx = (pc - b->addr) / 4;
}

static bool mark_at(Core *c, uint32_t addr)
{
    if (!c->loc_marked)
        c->loc_marked = g_hash_table_new(NULL, NULL);
    if (g_hash_table_contains(c->loc_marked, GUINT_TO_POINTER(addr)))
        return false;
    uc_hook h;
    if (uc_hook_add(c->uc, &h, UC_HOOK_CODE, (void *)mark_hook, c, addr, addr) != UC_ERR_OK)
        return false;
    g_hash_table_add(c->loc_marked, GUINT_TO_POINTER(addr));
    return true;
}

/* Candidates m (class k) and n > m may both hold on one register file */
static bool confusable(LocClass k, uint32_t wm, uint32_t wn)
{
    unsigned sm, bm, sn, bn;
    int32_t om, on;
    if (k != LOC_MEM || !mips_mem_operand(wm, &sm, &bm, &om) || !mips_mem_operand(wn, &sn, &bn, &on))
        return true;
    return bm != bn || (om > on ? om - on : on - om) < 8;
}

/* Markers for class k in b: after the first rewrite of what each
 * candidate reads, when a confusable candidate follows it. */
static bool scan_class(Core *c, const Block *b, LocClass k)
{
    bool added = false;
    Consts s;
    consts_init(&s);
    for (uint32_t m = 0; m < b->ninsns; consts_step(&s, b->words[m]), m++) {
        uint32_t ops;
        if (!candidate(b->words[m], k, &ops) || (k <= LOC_ALIGN_ST && known(&s, RS(b->words[m]))))
            continue; /* not one, or a memory access at an exact address */
        uint32_t r = m;
        while (r < b->ninsns && ops != ~0u && !(writes(b->words[r]) & ops))
            r++;
        for (uint32_t n = r + 1; n < b->ninsns; n++) {
            uint32_t on;
            if (candidate(b->words[n], k, &on) && confusable(k, b->words[m], b->words[n])) {
                added |= mark_at(c, b->addr + 4 * (r + 1));
                break;
            }
        }
    }
    return added;
}

/* ---- FPU exceptions ----------------------------------------------------------
 * They need FCSR enables, which Unicorn's API does not show: `ctc1` to FCSR
 * or FENR is hooked; the first write of a non-zero enable arms FPU
 * markers (every FPU arithmetic instruction of a block that has another
 * one after it ends a marker), on the blocks seen so far (translated again)
 * and on every new one. Code that never enables FPU exceptions pays
 * nothing. */

static bool is_ctc1_enables(uint32_t w)
{
    unsigned fs = (w >> 11) & 31u;
    return OP(w) == 0x11u && RS(w) == 6u && (fs == 31u || fs == 28u);
}

static void ctc1_hook(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    Core *c = opaque;
    (void)uc;
    (void)size;
    Block *b = core_current_block(c);
    uint32_t pc = (uint32_t)address;
    if (!b || pc < b->addr || pc >= b->addr + b->size || !is_ctc1_enables(b->words[(pc - b->addr) / 4]))
        return;
    uint32_t w = b->words[(pc - b->addr) / 4];
    c->fpe_enables = (core_read_gpr(c, RT(w)) >> 7) & 31u;
    if (!c->fpe_enables || c->fpe_armed)
        return;
    c->fpe_armed = true;
    bool added = false;
    for (unsigned i = 0; i < c->blocks->len; i++)
        added |= scan_class(c, g_ptr_array_index(c->blocks, i), LOC_FPE);
    if (added)
        uc_ctl_remove_cache(c->uc, 0x80000000u, 0x80000000u + (uint64_t)c->cfg->ram_size);
}

bool loc_scan_block(Core *c, const Block *b)
{
    bool added = false;
    for (uint32_t i = 0; i < b->ninsns; i++) {
        uint32_t a = b->addr + 4 * i;
        if (!is_ctc1_enables(b->words[i]))
            continue;
        if (!c->loc_marked)
            c->loc_marked = g_hash_table_new(NULL, NULL);
        if (g_hash_table_contains(c->loc_marked, GUINT_TO_POINTER(a | 2u))) /* | 2: its ctc1 hook */
            continue;
        uc_hook h;
        if (uc_hook_add(c->uc, &h, UC_HOOK_CODE, (void *)ctc1_hook, c, a, a) == UC_ERR_OK) {
            g_hash_table_add(c->loc_marked, GUINT_TO_POINTER(a | 2u));
            added = true;
        }
    }
    for (LocClass k = LOC_MEM; k <= LOC_OVERFLOW; k++)
        added |= scan_class(c, b, k);
    if (c->fpe_armed)
        added |= scan_class(c, b, LOC_FPE);
    return added;
}

/* ---- finding the instruction ------------------------------------------------ */

static bool trap_holds(Core *c, uint32_t w)
{
    uint32_t a = core_read_gpr(c, RS(w));
    uint32_t b = OP(w) == 0 ? core_read_gpr(c, RT(w)) : (uint32_t)(int16_t)(w & 0xFFFFu);
    unsigned f = OP(w) == 0 ? FUNCT(w) - 0x30u : RT(w) - 0x08u; /* tge tgeu tlt tltu teq - tne */
    switch (f) {
    case 0: return (int32_t)a >= (int32_t)b;
    case 1: return a >= b;
    case 2: return (int32_t)a < (int32_t)b;
    case 3: return a < b;
    case 4: return a == b;
    default: return a != b;
    }
}

static bool overflow_holds(Core *c, uint32_t w)
{
    int32_t a = (int32_t)core_read_gpr(c, RS(w)), r;
    if (OP(w) == 0x08u)
        return __builtin_add_overflow(a, (int32_t)(int16_t)(w & 0xFFFFu), &r);
    int32_t b = (int32_t)core_read_gpr(c, RT(w));
    return FUNCT(w) == 0x20u ? __builtin_add_overflow(a, b, &r) : __builtin_sub_overflow(a, b, &r);
}

/* Effective address of load/store w, the constants before it known */
static uint32_t mem_ea(Core *c, const Consts *s, uint32_t w, unsigned *size)
{
    unsigned base;
    int32_t off;
    mips_mem_operand(w, size, &base, &off);
    return (known(s, base) ? s->val[base] : core_read_gpr(c, base)) + (uint32_t)off;
}

/* The IEEE exceptions (FCSR Cause V Z O U I, bits 16..12, >> 12) FPU
 * instruction w can raise: Unicorn's API shows neither FCSR nor the FPU
 * registers, so what it raised is narrowed down by the enables. */
unsigned fpe_cause(Core *c, uint32_t w)
{
    (void)c;
    unsigned cls = mips_classify(w);
    if (cls & MIPS_FPU_DIV)
        return 31u;         /* div, recip */
    if (cls & MIPS_FPU_SQRT)
        return (OP(w) == 0x11u && FUNCT(w) == 0x16u) ? 31u : 17u; /* rsqrt; sqrt: V I */
    return 23u;             /* add, mul, conversions: V O U I */
}

static bool holds(Core *c, const Consts *s, uint32_t w, LocClass k, uint32_t phys, uint32_t *ea)
{
    unsigned size;
    switch (k) {
    case LOC_MEM:
        *ea = mem_ea(c, s, w, &size);
        return (mips_phys(*ea) & ~3u) == (phys & ~3u)
            || (size == 8 && (mips_phys(*ea + 4) & ~3u) == (phys & ~3u));
    case LOC_ALIGN_LD: case LOC_ALIGN_ST:
        *ea = mem_ea(c, s, w, &size);
        return *ea % size != 0;
    case LOC_TRAP: return trap_holds(c, w);
    case LOC_OVERFLOW: return overflow_holds(c, w);
    case LOC_FPE: return true; /* every earlier one is behind a marker */
    }
    return false;
}

int loc_find(Core *c, LocClass k, uint32_t from, uint32_t phys, uint32_t *ea)
{
    Block *b = core_current_block(c);
    if (!b)
        return -1;
    if (c->mark_blk == b && c->mark_count == b->count && c->mark_idx > from)
        from = c->mark_idx;
    Consts s;
    consts_init(&s);
    uint32_t dummy;
    for (uint32_t i = 0; i < b->ninsns; i++) {
        uint32_t ops, w = b->words[i];
        if (i >= from && candidate(w, k, &ops) && holds(c, &s, w, k, phys, ea ? ea : &dummy))
            return (int)i;
        consts_step(&s, w);
    }
    return -1;
}

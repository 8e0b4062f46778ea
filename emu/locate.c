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
 * proves each candidate or gives it a record: a UC_HOOK_CODE hook on m
 * itself that notes, when m runs, what it does (its address, whether its
 * condition held) in that execution of the block, which the search then
 * uses instead of the registers (a record not from this execution: m has
 * not run, so it is not the one). The block is translated again, as for
 * the CP0 hooks (cp0.c). Proved: an address from a constant built in the
 * block (lui/ori/addiu) or from a sum of registers not rewritten before
 * the block's last candidate; two accesses through one base register 8 or
 * more bytes apart (never one address); a base only stepped by addiu (see
 * self_step). Only the few unproven candidates carry a hook call.
 */
#include "emu/core_priv.h"

#include "nocprof/platform.h"


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
    case LOC_MEM: case LOC_MEM_KSEG1:
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

/* ---- what the block computes its addresses from ------------------------------
 * Before each instruction: registers holding a constant built in the block
 * (lui, ori, addiu, addu from constants), and registers holding a sum
 * R_d[x] + R_d[y] + c of two registers as they were before instruction d
 * (addu, addiu, move): a base register rewritten later is still known
 * exactly from x and y while those are not rewritten. */

typedef struct Recipe {
    uint8_t x, y;              /* registers ($0: none) */
    uint16_t d;                /* as before instruction d */
    uint32_t c;
} Recipe;

typedef struct Consts {
    uint32_t known;            /* bit n: $n holds val[n] */
    uint32_t summed;           /* bit n: $n holds sum[n] */
    uint32_t val[32];
    Recipe sum[32];
} Consts;

static void consts_init(Consts *s)
{
    s->known = 1u;
    s->summed = 0;
    s->val[0] = 0;
}

static bool known(const Consts *s, unsigned r)
{
    return (s->known >> r) & 1u;
}

/* r as a sum term at instruction i: a constant, its recipe, or itself */
static Recipe term(const Consts *s, unsigned r, uint32_t i)
{
    if (known(s, r))
        return (Recipe){ .c = s->val[r], .d = (uint16_t)i };
    if ((s->summed >> r) & 1u)
        return s->sum[r];
    return (Recipe){ .x = (uint8_t)r, .d = (uint16_t)i };
}

/* dst = a + b as one recipe, when a and b are summable */
static bool add_terms(Recipe a, Recipe b, Recipe *out)
{
    bool aconst = !a.x && !a.y, bconst = !b.x && !b.y;
    if (!aconst && !bconst && (a.y || b.y || a.d != b.d))
        return false;
    Recipe r = aconst ? b : a;
    r.c = a.c + b.c;
    if (!aconst && !bconst)
        r.y = b.x;
    *out = r;
    return true;
}

/* The registers after instruction i (word w), given them before */
static void consts_step(Consts *s, uint32_t w, uint32_t i)
{
    unsigned rs = RS(w), rt = RT(w), rd = (w >> 11) & 31u;
    uint32_t imm = w & 0xFFFFu, v = 0, dst = 0;
    bool ok = false, sum = false;
    Recipe r = { 0 };
    switch (OP(w)) {
    case 0x0F: dst = rt; v = imm << 16; ok = true; break;                                   /* lui */
    case 0x09:                                                                              /* addiu */
        dst = rt;
        ok = known(s, rs);
        v = s->val[rs] + (uint32_t)(int16_t)imm;
        sum = add_terms(term(s, rs, i), (Recipe){ .c = (uint32_t)(int16_t)imm, .d = (uint16_t)i }, &r);
        break;
    case 0x0D: dst = rt; ok = known(s, rs); v = s->val[rs] | imm; break;                    /* ori */
    case 0x00:
        if (FUNCT(w) == 0x21u || (FUNCT(w) == 0x25u && (rs == 0 || rt == 0))) { /* addu, move */
            dst = rd;
            ok = known(s, rs) && known(s, rt);
            v = FUNCT(w) == 0x21u ? s->val[rs] + s->val[rt] : s->val[rs] | s->val[rt];
            sum = add_terms(term(s, rs, i), term(s, rt, i), &r);
        }
        break;
    default:
        break;
    }
    uint32_t wr = writes(w);
    s->known &= ~wr;
    s->summed &= ~wr;
    if (ok && dst) {
        s->known |= 1u << dst;
        s->val[dst] = v;
    } else if (sum && dst && (r.x || r.y)) {
        s->summed |= 1u << dst;
        s->sum[dst] = r;
    }
    s->known |= 1u;
}

/* The recipe of base register `base` holds at every instruction up to
 * `bound`: its registers are not rewritten from d on */
static bool stable(const Block *b, const Consts *s, unsigned base, uint32_t bound)
{
    if (!((s->summed >> base) & 1u))
        return false;
    const Recipe *r = &s->sum[base];
    uint32_t regs = ((1u << r->x) | (1u << r->y)) & ~1u;
    for (uint32_t j = r->d; j < bound && j < b->ninsns; j++)
        if (writes(b->words[j]) & regs)
            return false;
    return true;
}

/* Index of the last candidate of class k in b (its events come no later) */
static uint32_t last_candidate(const Block *b, LocClass k);

/* Whether load/store m's address is known exactly whichever later
 * candidate raised the event: a constant, or a stable recipe */
static bool exact_base(const Block *b, const Consts *s, uint32_t w, uint32_t bound)
{
    return known(s, RS(w)) || stable(b, s, RS(w), bound);
}

/* How each load/store of b finds its address (built on the first device
 * access in b, kept with b): a constant, a stable recipe, or its base */
struct LocMem {
    uint8_t kind;              /* 0: no access, 1: c, 2: R[x] + R[y] + c */
    uint8_t x, y, size;
    uint32_t c;
    bool record;               /* unproven: its hook records, when it runs, */
    bool rec_bad;              /* whether its condition held (misaligned, */
    uint32_t rec_ea;           /* trap, overflow) and its address, in */
    uint64_t rec_count;        /* execution rec_count of the block */
};

static uint32_t last_candidate(const Block *b, LocClass k);

static LocMem *mem_plan(const Block *b)
{
    LocMem *p = g_new0(LocMem, b->ninsns ? b->ninsns : 1);
    for (uint32_t i = 0; i < b->ninsns; i++)
        p[i].rec_count = UINT64_MAX;
    Consts s;
    consts_init(&s);
    uint32_t bound = last_candidate(b, LOC_MEM);
    for (uint32_t i = 0; i < b->ninsns; consts_step(&s, b->words[i], i), i++) {
        unsigned size, base;
        int32_t off;
        uint32_t w = b->words[i];
        if (OP(w) == 0x13u && (FUNCT(w) == 0x00 || FUNCT(w) == 0x01 || FUNCT(w) == 0x08 || FUNCT(w) == 0x09)) {
            /* COP1X lwxc1 ldxc1 swxc1 sdxc1: base + index (dcache.c) */
            p[i] = (LocMem){ .kind = 2, .x = (uint8_t)RS(w), .y = (uint8_t)RT(w), .size = FUNCT(w) & 1u ? 8 : 4 };
            continue;
        }
        if (!mips_mem_operand(w, &size, &base, &off))
            continue;
        p[i] = (LocMem){ .kind = 2, .x = (uint8_t)base, .size = (uint8_t)size, .c = (uint32_t)off };
        if (known(&s, base)) {
            p[i].kind = 1;
            p[i].c += s.val[base];
        } else if (stable(b, &s, base, bound)) {
            p[i].x = s.sum[base].x;
            p[i].y = s.sum[base].y;
            p[i].c += s.sum[base].c;
        }
    }
    return p;
}

/* ---- markers ---------------------------------------------------------------- */

static void mark_hook(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    Core *c = opaque;
    (void)uc;
    (void)size;
    uint32_t i;
    Block *b = core_block_at(c, (uint32_t)address, &i);
    if (!b)
        return;
    c->mark_blk = b;
    c->mark_count = b->count;
    c->mark_idx = i;
}

static bool trap_holds(Core *c, uint32_t w);
static bool overflow_holds(Core *c, uint32_t w);

/* An unproven candidate is about to run in the current block: record what
 * it does on the registers it reads (exactly those) */
static void record_hook(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    Core *c = opaque;
    (void)uc;
    (void)size;
    uint32_t i;
    Block *b = core_block_at(c, (uint32_t)address, &i);
    if (!b || !b->locmem || !b->locmem[i].record)
        return;
    LocMem *m = &b->locmem[i];
    uint32_t w = b->words[i];
    m->rec_count = b->count;
    if (m->kind) {
        m->rec_ea = core_read_gpr(c, RS(w)) + (uint32_t)(int32_t)(int16_t)(w & 0xFFFFu);
        m->rec_bad = m->size > 1 && m->rec_ea % m->size != 0;
    } else {
        m->rec_bad = is_trap(w) ? trap_holds(c, w) : overflow_holds(c, w);
    }
}

static bool record_at(Core *c, Block *b, uint32_t i)
{
    if (!b->locmem)
        b->locmem = mem_plan(b);
    b->locmem[i].record = true;
    uint32_t addr = b->addr + 4 * i;
    if (!c->loc_marked)
        c->loc_marked = g_hash_table_new(NULL, NULL);
    if (g_hash_table_contains(c->loc_marked, GUINT_TO_POINTER(addr | 1u))) /* | 1: its record hook */
        return false;
    uc_hook h;
    if (uc_hook_add(c->uc, &h, UC_HOOK_CODE, (void *)record_hook, c, addr, addr) != UC_ERR_OK)
        return false;
    g_hash_table_add(c->loc_marked, GUINT_TO_POINTER(addr | 1u));
    return true;
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

/* w, from candidate m (class k) on, is `addiu b, b, imm` of m's base b
 * (a pointer stepping) that cannot make m match in place of a later
 * candidate: for an access, m's own address was then (the address found) -
 * delta, with |delta| < 64 KiB: no RAM there (the device windows are far
 * from it, and an access outside RAM and the windows is refused at TLB
 * fill, exc_hook_tlb_fill, before any later instruction runs), so m was a
 * device access of its own, already found, or faulted. For alignment, a
 * step by a multiple of m's size keeps m's misalignment: m would have
 * faulted. */
static bool self_step(const Core *c, LocClass k, uint32_t wm, uint32_t w, int32_t *delta)
{
    unsigned size, base;
    int32_t off;
    if (OP(w) != 0x09u || RS(w) != RT(w) || k > LOC_ALIGN_ST || !mips_mem_operand(wm, &size, &base, &off)
        || base != RT(w))
        return false; /* not a step of m's base */
    int32_t imm = (int16_t)(w & 0xFFFFu);
    if (k != LOC_MEM)
        return imm % (int32_t)size == 0;
    *delta += imm;
    return *delta > -0x10000 && *delta < 0x10000 && (uint64_t)c->cfg->ram_size + 0x10000u <= NP_MMIO_PHYS;
}

/* Markers for class k in b: after the first rewrite of what each
 * candidate reads, when a confusable candidate follows it. */
static bool scan_class(Core *c, Block *b, LocClass k)
{
    bool added = false;
    Consts s;
    consts_init(&s);
    uint32_t bound = last_candidate(b, k);
    for (uint32_t m = 0; m < b->ninsns; consts_step(&s, b->words[m], m), m++) {
        uint32_t ops;
        if (!candidate(b->words[m], k, &ops) || (k <= LOC_ALIGN_ST && exact_base(b, &s, b->words[m], bound)))
            continue; /* not one, or a memory access at an exact address */
        uint32_t r = m;
        int32_t delta = 0;
        while (r < b->ninsns && ops != ~0u
               && (!(writes(b->words[r]) & ops) || self_step(c, k, b->words[m], b->words[r], &delta)))
            r++;
        for (uint32_t n = r + 1; n < b->ninsns; n++) {
            uint32_t on;
            if (candidate(b->words[n], k, &on) && confusable(k, b->words[m], b->words[n])) {
                /* FPU: a marker after m; else m records what it does */
                added |= k == LOC_FPE ? mark_at(c, b->addr + 4 * (r + 1)) : record_at(c, b, m);
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
    uint32_t i;
    Block *b = core_block_at(c, (uint32_t)address, &i);
    if (!b || !is_ctc1_enables(b->words[i]))
        return;
    uint32_t w = b->words[i];
    c->fpe_enables = (core_read_gpr(c, RT(w)) >> 7) & 31u;
    if (!c->fpe_enables || c->fpe_armed)
        return;
    c->fpe_armed = true;
    bool added = dcache_fpe_armed(c);
    for (unsigned i = 0; i < c->blocks->len; i++)
        added |= scan_class(c, g_ptr_array_index(c->blocks, i), LOC_FPE);
    if (added)
        uc_ctl_remove_cache(c->uc, 0x80000000u, 0x80000000u + (uint64_t)c->cfg->ram_size);
}

bool loc_scan_block(Core *c, Block *b)
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

static uint32_t last_candidate(const Block *b, LocClass k)
{
    uint32_t last = 0, ops;
    for (uint32_t i = 0; i < b->ninsns; i++)
        if (candidate(b->words[i], k, &ops))
            last = i;
    return last;
}

/* Effective address of load/store w of b, what is known before it in s
 * (recipes that hold up to `bound`) */
static uint32_t mem_ea(Core *c, const Block *b, const Consts *s, uint32_t w, uint32_t bound, unsigned *size)
{
    unsigned base;
    int32_t off;
    mips_mem_operand(w, size, &base, &off);
    uint32_t v;
    if (known(s, base)) {
        v = s->val[base];
    } else if (stable(b, s, base, bound)) {
        const Recipe *r = &s->sum[base];
        v = core_read_gpr(c, r->x) + core_read_gpr(c, r->y) + r->c;
    } else {
        v = core_read_gpr(c, base);
    }
    return v + (uint32_t)off;
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

static bool holds(Core *c, const Block *b, const Consts *s, uint32_t w, LocClass k, uint32_t bound,
                  uint32_t phys, uint32_t *ea)
{
    unsigned size;
    switch (k) {
    case LOC_ALIGN_LD: case LOC_ALIGN_ST:
        *ea = mem_ea(c, b, s, w, bound, &size);
        return *ea % size != 0;
    case LOC_TRAP: return trap_holds(c, w);
    case LOC_OVERFLOW: return overflow_holds(c, w);
    case LOC_FPE: return true; /* every earlier one is behind a marker */
    case LOC_MEM: case LOC_MEM_KSEG1: return false; /* find_access */
    }
    return false;
}

void loc_free(LocMem *p)
{
    g_free(p);
}

static int find_access(Core *c, Block *b, uint32_t from, uint32_t phys, bool kseg1)
{
    if (!b->locmem)
        b->locmem = mem_plan(b);
    for (uint32_t i = from; i < b->ninsns; i++) {
        const LocMem *m = &b->locmem[i];
        if (!m->kind || (m->record && m->rec_count != b->count))
            continue; /* no access, or an unproven one that has not run */
        uint32_t ea = m->c;
        if (m->record)
            ea = m->rec_ea;
        else if (m->kind == 2)
            ea += core_read_gpr(c, m->x) + (m->y ? core_read_gpr(c, m->y) : 0);
        if (kseg1 && (ea < 0xA0000000u || ea >= 0xC0000000u))
            continue; /* a kseg0 access of the same word: not the uncached one */
        if ((mips_phys(ea) & ~3u) == (phys & ~3u) || (m->size == 8 && (mips_phys(ea + 4) & ~3u) == (phys & ~3u)))
            return (int)i;
    }
    return -1;
}

int loc_find(Core *c, LocClass k, uint32_t from, uint32_t phys, uint32_t *ea)
{
    Block *b = core_current_block(c);
    if (!b)
        return -1;
    if (c->mark_blk == b && c->mark_count == b->count && c->mark_idx > from)
        from = c->mark_idx;
    if (k == LOC_MEM || k == LOC_MEM_KSEG1)
        return find_access(c, b, from, phys, k == LOC_MEM_KSEG1);
    Consts s;
    consts_init(&s);
    uint32_t dummy, bound = last_candidate(b, k);
    for (uint32_t i = 0; i < b->ninsns; consts_step(&s, b->words[i], i), i++) {
        uint32_t ops, w = b->words[i];
        if (i < from || !candidate(w, k, &ops))
            continue;
        const LocMem *m = b->locmem && b->locmem[i].record ? &b->locmem[i] : NULL;
        if (m && m->rec_count != b->count)
            continue; /* unproven and has not run: not the one */
        if (m && ea)
            *ea = m->rec_ea;
        if (m ? m->rec_bad : holds(c, b, &s, w, k, bound, phys, ea ? ea : &dummy))
            return (int)i;
    }
    return -1;
}

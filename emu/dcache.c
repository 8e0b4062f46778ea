// SPDX-License-Identifier: GPL-2.0-or-later
/* dcache.c — the D-cache without a Unicorn memory hook, `[cache] d_model =
 * predict` (docs/timing.md "The L1 caches"; cache.c is the cache itself).
 *
 * Any UC_HOOK_MEM_READ/WRITE hook sends every guest load and store down
 * Unicorn 2.1.1's slow path (~17 ns each, docs/performance.md 5b). So,
 * when a block is first seen, its loads and stores are planned:
 *   - predicted: the block is quiet (every instruction is one that can
 *     raise no exception the plan cannot foresee and reads nothing
 *     cycle-dependent: integer ALU, HI/LO, branches and jumps (not
 *     branch-likely), plain loads and stores, lwl/lwr/swl/swr, traps and
 *     add/sub/addi (checked on their computed operands), FPU instructions
 *     while Status.CU1 is on and FPU exceptions are off; no CP0, ll/sc,
 *     syscall, cache or synci), and every address is computable at
 *     entry: the block's program is the slice of its instructions that
 *     the addresses and checks need (dcache_plan.c), each an ALU step or
 *     a load whose value an address needs (read from RAM as it is at
 *     entry, under the block's own earlier stores, which the program
 *     records: each core's RAM is its own and changes inside a block by
 *     its stores only). At entry (cache_block_hook, once the block is
 *     entered) the program runs on the registers and looks the accesses
 *     up in program order, each miss charged at its instruction exactly
 *     as the memory hook does: before that instruction nothing of the
 *     block can observe the difference.
 *     The walk stops at the first access that faults (outside kseg0/1,
 *     outside RAM and the device windows, misaligned, user mode): the
 *     block ends there. It pauses at a device access and goes on once
 *     that access has completed (dcache_after_device, from mmio.c), after
 *     the device's cycles, with the value the device gave.
 *   - hooked: every other block gets a UC_HOOK_CODE hook on each of its
 *     loads and stores, which computes the address from the registers
 *     (exact before the instruction runs) and looks it up. Unicorn walks
 *     every code hook on each hooked instruction, so there must be few
 *     (docs/timing.md "The L1 caches" has the figures).
 * What each instruction does to the cache is what Unicorn 2.1.1's memory
 * hook sees: lwl/lwr a byte at the address then the aligned word, swl/swr
 * one access per byte, ldc1/sdc1 one, a successful sc a read and a write,
 * a failed one (not at the last ll's address) none, a faulting access
 * none. A debugger (its stops are mid-block) makes every block hooked.
 * unit/cache dmodel compares both models on every emulator fixture.
 */
#include "emu/cache_l1.h"
#include "emu/dcache.h"

#include <string.h>

#include "nocprof/platform.h"

/* The program of the predicted block executing now (one per core): its
 * registers, the stores a later load may read back (where it paused at a
 * device access: c->dres) */
typedef struct DStore {
    uint32_t phys, v;
    uint8_t size;
} DStore;

typedef struct DState {
    uint32_t r[34];            /* the GPRs, HI, LO */
    uint32_t nst, cap;
    DStore *st;
} DState;

void dcache_free(DPlan *p)
{
    if (p)
        g_free(p->ops);
    g_free(p);
}

void dcache_state_free(Core *c)
{
    if (c->dstate)
        g_free(c->dstate->st);
    g_free(c->dstate);
    c->dstate = NULL;
}

/* ---- one access -------------------------------------------------------------- */

typedef enum { DA_RAM, DA_UNCACHED, DA_DEVICE, DA_FAULT } DWhere;

/* Where access a at ea goes (what Unicorn and exc_hook_tlb_fill do with
 * it); user: the core is in user mode */
static DWhere where(const Core *c, const DAcc *a, uint32_t ea, bool user)
{
    if (ea < 0x80000000u || ea >= 0xC0000000u || user)
        return DA_FAULT; /* kuseg, kseg2/3: refused; user mode: kernel-only */
    if ((a->kind == DK_PLAIN || a->kind == DK_FPU || a->kind == DK_SC || a->kind == DK_FPUX) && (ea & (a->size - 1u)))
        return DA_FAULT; /* misaligned: an address error */
    uint32_t phys = mips_phys(ea);
    if (phys < c->cfg->ram_size)
        return ea >= 0xA0000000u ? DA_UNCACHED : DA_RAM; /* kseg1: uncached.c */
    if (ea >= 0xA0000000u && phys - NP_MMIO_PHYS < CORE_NSLOTS * NP_DEV_SIZE)
        return DA_DEVICE; /* kseg1 only: the kseg0 alias is refused (exc.c) */
    return DA_FAULT;
}

/* Whether the core runs in user mode now (Status.KSU = user, EXL = ERL =
 * 0), read only once software wrote a non-zero KSU (as exc.c does) */
static bool user_mode(Core *c)
{
    if (!c->ksu_written)
        return false;
    uint32_t st = core_reg(c, UC_MIPS_REG_CP0_STATUS);
    return ((st >> 3) & 3) == 2 && !(st & 6);
}

/* The bytes swl / swr at ea store (Unicorn 2.1.1: one access each) */
static unsigned swlr_bytes(const Core *c, const DAcc *a, uint32_t ea)
{
    unsigned lmask = c->img->big_endian ? (ea & 3u) : (ea & 3u) ^ 3u;
    return a->kind == DK_SWL ? 4u - lmask : 1u + lmask;
}

/* A RAM access of instruction a->i of b at ea, as the memory hook sees it
 * (Unicorn 2.1.1: lwl/lwr read the byte at ea, then the aligned word;
 * swl/swr store byte by byte; all in one line) */
static void ram_access(Core *c, Block *b, const DAcc *a, uint32_t ea)
{
    cache_d_at(c, b, a->i, ea, a->write);
    if (a->kind == DK_LWLR)
        cache_d_hits(c, 1);
    else if (a->kind == DK_SWL || a->kind == DK_SWR)
        cache_d_hits(c, swlr_bytes(c, a, ea) - 1u);
}

/* ---- predicted ------------------------------------------------------------- */

/* Whether FPU instructions may run (Status.CU1): else they raise
 * Coprocessor Unusable before anything else */
static bool cu1(Core *c)
{
    return (core_reg(c, UC_MIPS_REG_CP0_STATUS) >> 29) & 1u;
}

/* cu1(), kept until a CP0 access to Status (cp0.c: dcache_status) */
static bool cu1_cached(Core *c)
{
    if (c->dc_cu1 < 0)
        c->dc_cu1 = cu1(c);
    return c->dc_cu1 > 0;
}

void dcache_status(Core *c)
{
    c->dc_cu1 = -1;
}

/* FPU exceptions were just enabled (locate.c, which then translates every
 * block again): blocks with FPU arithmetic are hooked from now on */
bool dcache_fpe_armed(Core *c)
{
    bool added = false;
    for (unsigned i = 0; c->cache && i < c->blocks->len; i++) {
        Block *b = g_ptr_array_index(c->blocks, i);
        if (b->dplan && b->dplan->predict && b->dplan->fpe) {
            b->dplan->predict = false;
            added |= dcache_scan_block(c, b);
        }
    }
    return added;
}

/* The value a load of `size` bytes at phys reads (sign-extended when
 * `sign`): RAM before the block, under the block's own earlier stores */
static uint32_t load_value(const Core *c, const DState *s, uint32_t phys, unsigned size, bool sign)
{
    bool be = c->img->big_endian;
    uint8_t m[4];
    memcpy(m, c->ram + phys, size);
    for (uint32_t k = 0; k < s->nst; k++) {
        const DStore *e = &s->st[k];
        for (unsigned j = 0; j < size; j++) {
            uint32_t q = phys + j - e->phys;
            if (q < e->size)
                m[j] = (uint8_t)(e->v >> (8 * (be ? e->size - 1 - q : q)));
        }
    }
    uint32_t v = 0;
    for (unsigned j = 0; j < size; j++)
        v |= (uint32_t)m[j] << (8 * (be ? size - 1 - j : j));
    if (sign && size < 4)
        v = (uint32_t)((int32_t)(v << (32 - 8 * size)) >> (32 - 8 * size));
    return v;
}

static void note_store(DState *s, uint32_t phys, unsigned size, uint32_t v)
{
    if (s->nst == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->st = g_renew(DStore, s->st, s->cap);
    }
    s->st[s->nst++] = (DStore){ .phys = phys, .v = v, .size = (uint8_t)size };
}

static uint32_t rot(uint32_t v, unsigned n)
{
    n &= 31u;
    return n ? v >> n | v << (32 - n) : v;
}

/* Trap condition c (tge tgeu tlt tltu teq - tne) on a, b */
static bool trap_cond(unsigned c, uint32_t a, uint32_t b)
{
    switch (c & 7u) {
    case 0: return (int32_t)a >= (int32_t)b;
    case 1: return a >= b;
    case 2: return (int32_t)a < (int32_t)b;
    case 3: return a < b;
    case 4: return a == b;
    default: return a != b;
    }
}

/* A check on the registers r: false when it raises its exception */
static bool check(uint32_t *r, const DOp *o)
{
    int32_t v, a = (int32_t)r[o->s];
    switch (o->op) {
    case DOP_TRAP: return !trap_cond(o->d, r[o->s], o->d & 8u ? o->imm : r[o->t]);
    case DOP_ADDO: if (__builtin_add_overflow(a, (int32_t)r[o->t], &v)) return false; break;
    case DOP_SUBO: if (__builtin_sub_overflow(a, (int32_t)r[o->t], &v)) return false; break;
    default: if (__builtin_add_overflow(a, (int32_t)o->imm, &v)) return false; break; /* DOP_ADDIO */
    }
    if (o->d)
        r[o->d] = (uint32_t)v;
    return true;
}

/* A step writing HI and LO (as QEMU 5 computes them for Unicorn 2.1.1:
 * a divisor of 0, and -1 under INT_MIN, is taken as 1) */
static void hilo(uint32_t *r, const DOp *o)
{
    uint32_t s = r[o->s], t = r[o->t];
    uint64_t acc = (uint64_t)r[DR_HI] << 32 | r[DR_LO], v;
    int64_t prod = (int64_t)(int32_t)s * (int32_t)t;
    switch (o->op) {
    case DOP_MULT: v = (uint64_t)prod; break;
    case DOP_MULTU: v = (uint64_t)s * t; break;
    case DOP_DIV: {
        int32_t a = (int32_t)s, d = (int32_t)t;
        if (d == 0 || (a == INT32_MIN && d == -1))
            d = 1;
        v = (uint64_t)(uint32_t)(a % d) << 32 | (uint32_t)(a / d);
        break;
    }
    case DOP_DIVU: {
        uint32_t d = t ? t : 1;
        v = (uint64_t)(s % d) << 32 | (s / d);
        break;
    }
    case DOP_MADD: v = acc + (uint64_t)prod; break;
    case DOP_MADDU: v = acc + (uint64_t)s * t; break;
    case DOP_MSUB: v = acc - (uint64_t)prod; break;
    default: v = acc - (uint64_t)s * t; break; /* DOP_MSUBU */
    }
    r[DR_HI] = (uint32_t)(v >> 32);
    r[DR_LO] = (uint32_t)v;
}

/* One step (not an access) on the registers r */
static void step(uint32_t *r, const DOp *o)
{
    if (o->op >= DOP_MULT) {
        hilo(r, o);
        return;
    }
    uint32_t s = r[o->s], t = r[o->t], v;
    switch (o->op) {
    case DOP_CONST: v = o->imm; break;
    case DOP_ADDU: v = s + t; break;
    case DOP_SUBU: v = s - t; break;
    case DOP_AND: v = s & t; break;
    case DOP_OR: v = s | t; break;
    case DOP_XOR: v = s ^ t; break;
    case DOP_NOR: v = ~(s | t); break;
    case DOP_SLT: v = (int32_t)s < (int32_t)t; break;
    case DOP_SLTU: v = s < t; break;
    case DOP_SLL: v = t << o->imm; break;
    case DOP_SRL: v = t >> o->imm; break;
    case DOP_SRA: v = (uint32_t)((int32_t)t >> o->imm); break;
    case DOP_ROTR: v = rot(t, o->imm); break;
    case DOP_SLLV: v = t << (s & 31u); break;
    case DOP_SRLV: v = t >> (s & 31u); break;
    case DOP_SRAV: v = (uint32_t)((int32_t)t >> (s & 31u)); break;
    case DOP_ROTRV: v = rot(t, s); break;
    case DOP_MOVZ: v = t == 0 ? s : r[o->d]; break;
    case DOP_MOVN: v = t != 0 ? s : r[o->d]; break;
    case DOP_MUL: v = (uint32_t)((int32_t)s * (int64_t)(int32_t)t); break;
    case DOP_CLZ: v = s ? (uint32_t)__builtin_clz(s) : 32u; break;
    case DOP_CLO: v = ~s ? (uint32_t)__builtin_clz(~s) : 32u; break;
    case DOP_ADDIU: v = s + o->imm; break;
    case DOP_SLTI: v = (int32_t)s < (int32_t)o->imm; break;
    case DOP_SLTIU: v = s < o->imm; break;
    case DOP_ANDI: v = s & o->imm; break;
    case DOP_ORI: v = s | o->imm; break;
    case DOP_XORI: v = s ^ o->imm; break;
    case DOP_EXT: v = (uint32_t)(((uint64_t)s >> (o->imm & 31u)) & ((UINT64_C(1) << ((o->imm >> 8) + 1)) - 1)); break;
    case DOP_INS: {
        unsigned lsb = o->imm & 31u, msb = o->imm >> 8;
        uint32_t m = (uint32_t)((UINT64_C(1) << (msb - lsb + 1)) - 1) << lsb;
        v = (r[o->t] & ~m) | ((s << lsb) & m);
        break;
    }
    case DOP_WSBH: v = ((s & 0x00FF00FFu) << 8) | ((s >> 8) & 0x00FF00FFu); break;
    case DOP_SEB: v = (uint32_t)(int32_t)(int8_t)s; break;
    default: v = (uint32_t)(int32_t)(int16_t)s; break; /* DOP_SEH */
    }
    r[o->d] = v;
}

/* What a load or store the program reached did: its value, read or noted
 * (DF_VALUE) */
static void value(const Core *c, DState *s, const DOp *o, uint32_t ea, unsigned w)
{
    if (o->flags & DF_WRITE)
        note_store(s, mips_phys(ea), o->d, s->r[o->t]);
    else if (o->t)
        s->r[o->t] = load_value(c, s, mips_phys(ea), o->d, (w >> 26) < 0x24u);
}

/* Run b's program from step k on: each access looked up in turn, until
 * one that faults (the block ends there) or a device access (then again
 * once it has completed: dcache_after_device). Plain aligned kseg0 RAM
 * accesses that hit their set's most recently used way take the inline
 * path (cache_d_mru); a miss may stop the core (the cycle limit). */
static void run(Core *c, Block *b, uint32_t k)
{
    const DPlan *p = b->dplan;
    DState *s = c->dstate;
    uint32_t end = c->cut.run && c->cut.block == b ? (c->cut.end - b->addr) / 4 : b->ninsns;
    if (p->fpu_first < end && !cu1_cached(c))
        end = p->fpu_first; /* Coprocessor Unusable there: the block ends */
    bool user = user_mode(c);
    uint32_t ram = (uint32_t)c->cfg->ram_size, fast = user ? 0 : DF_PLAIN;
    if (c->state != CORE_RUNNING || c->stopping)
        return;
    for (; k < p->nops && p->ops[k].i < end; k++) {
        const DOp *o = &p->ops[k];
        if (o->op != DOP_ACCESS) {
            if (o->op < DOP_TRAP)
                step(s->r, o);
            else if (!check(s->r, o))
                return; /* a trap or an overflow: the block ends there */
            continue;
        }
        uint32_t ea = s->r[o->s] + o->imm, phys = ea - 0x80000000u;
        if ((o->flags & fast) && phys < ram && !(ea & (o->d - 1u))) {
            if (!cache_d_mru(c, phys, o->flags & DF_WRITE)) {
                cache_d_at(c, b, o->i, ea, o->flags & DF_WRITE);
                if (c->state != CORE_RUNNING || c->stopping)
                    return;
            }
            if (o->flags & DF_VALUE)
                value(c, s, o, ea, b->words[o->i]);
            continue;
        }
        const DAcc *a = &p->a[o->k];
        switch (where(c, a, ea, user)) {
        case DA_RAM:
            ram_access(c, b, a, ea);
            if (c->state != CORE_RUNNING || c->stopping)
                return;
            if (o->flags & DF_VALUE)
                value(c, s, o, ea, b->words[o->i]);
            break;
        case DA_UNCACHED: /* not looked up; the walk goes on after its charge */
        case DA_DEVICE:
            c->dres.block = b;
            c->dres.count = b->count;
            c->dres.next = k;
            return;
        case DA_FAULT:
            return;
        }
    }
}

void dcache_enter(Core *c, Block *b)
{
    const DPlan *p = b->dplan;
    if (!p->predict)
        return;
    if (G_UNLIKELY(!c->dstate))
        c->dstate = g_new0(DState, 1);
    DState *s = c->dstate;
    c->dres.block = NULL;
    s->nst = 0;
    for (uint32_t live = (uint32_t)p->live; live; live &= live - 1) {
        unsigned r = (unsigned)__builtin_ctz(live);
        s->r[r] = core_gpr(c, r);
    }
    if (G_UNLIKELY(p->live >> DR_HI)) { /* an address from HI or LO */
        s->r[DR_HI] = core_reg(c, UC_MIPS_REG_HI);
        s->r[DR_LO] = core_reg(c, UC_MIPS_REG_LO);
    }
    s->r[0] = 0;
    run(c, b, 0);
}

void dcache_after_device(Core *c, uint32_t value)
{
    Block *b = core_current_block(c);
    const Block *d = c->dres.block;
    uint64_t n = c->dres.count;
    c->dres.block = NULL;
    if (b != d || b->count != n)
        return;
    const DOp *o = &b->dplan->ops[c->dres.next];
    if ((o->flags & DF_VALUE) && !b->dplan->a[o->k].write && o->t)
        c->dstate->r[o->t] = value; /* a word: a device's registers are nothing else */
    run(c, b, c->dres.next + 1);
}

void dcache_after_uncached(Core *c)
{
    Block *b = core_current_block(c);
    const Block *d = c->dres.block;
    c->dres.block = NULL;
    if (b != d || b->count != c->dres.count)
        return;
    const DOp *o = &b->dplan->ops[c->dres.next];
    if (o->flags & DF_VALUE) /* RAM's value, as for a kseg0 access */
        value(c, c->dstate, o, c->dstate->r[o->s] + o->imm, b->words[o->i]);
    run(c, b, c->dres.next + 1);
}

/* ---- hooked ------------------------------------------------------------------ */

/* FPU load or store a (word w) runs: Status.CU1; COP1X luxc1/suxc1, and
 * ldxc1/sdxc1 of an odd register, need Status.FR (else Reserved
 * Instruction, before any access) */
static bool fpu_usable(Core *c, const DAcc *a, uint32_t w)
{
    uint32_t st = core_reg(c, UC_MIPS_REG_CP0_STATUS);
    bool fr = (st >> 26) & 1u;
    if (!((st >> 29) & 1u))
        return false;
    if (a->kind == DK_FPUXD)
        return fr;
    return a->kind != DK_FPUX || a->size != 8 || fr || !(((a->write ? RD(w) : SA(w))) & 1u);
}

/* sc: Unicorn 2.1.1 stores only to the address of the last ll (then it
 * reads the word and writes it, compare and exchange); ll sets it, sc and
 * eret clear it (c->dc_ll, ~0: none) */
static void ll_sc(Core *c, Block *b, const DAcc *a, uint32_t ea)
{
    if (a->kind == DK_SC) {
        bool hit = ea == c->dc_ll;
        c->dc_ll = ~0u;
        if (!hit)
            return;
        cache_d_at(c, b, a->i, ea, false);
    } else {
        c->dc_ll = ea;
    }
    cache_d_at(c, b, a->i, ea, a->write);
}

static void access_hook(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    Core *c = opaque;
    (void)uc;
    (void)size;
    uint32_t i;
    Block *b = core_block_at(c, (uint32_t)address, &i);
    if (!b || !b->dplan || b->dplan->predict || c->state != CORE_RUNNING || c->stopping)
        return;
    const DPlan *p = b->dplan;
    for (uint32_t k = 0; k < p->n; k++) {
        const DAcc *a = &p->a[k];
        if (a->i != i)
            continue;
        uint32_t ea = core_read_gpr(c, a->base) + (a->index ? core_read_gpr(c, a->index) : 0) + a->off;
        if (a->kind == DK_FPUXD)
            ea &= ~7u;
        bool ll = (b->words[i] >> 26) == 0x30u;
        DWhere at = where(c, a, ea, user_mode(c));
        if (at == DA_UNCACHED && (a->kind == DK_SC || ll)) /* no lookup, ll/sc as through kseg0 */
            c->dc_ll = a->kind == DK_SC ? ~0u : ea;
        else if ((a->kind >= DK_FPU && a->kind != DK_SC && !fpu_usable(c, a, b->words[i])) || at != DA_RAM)
            c->dc_ll = a->kind == DK_SC ? ~0u : c->dc_ll; /* no access (a fault, a device) */
        else if (a->kind == DK_SC || ll)
            ll_sc(c, b, a, ea);
        else
            ram_access(c, b, a, ea);
        return;
    }
}

bool dcache_scan_block(Core *c, Block *b)
{
    if (!c->cache || c->cfg->cache.d_model != CACHE_D_PREDICT)
        return false;
    if (!b->dplan)
        b->dplan = dcache_plan(c, b);
    if (!b->dplan || b->dplan->predict)
        return false;
    if (!c->dc_hooked)
        c->dc_hooked = g_hash_table_new(NULL, NULL);
    bool added = false;
    for (uint32_t k = 0; k < b->dplan->n; k++) {
        uint32_t addr = b->addr + 4u * b->dplan->a[k].i;
        if (g_hash_table_contains(c->dc_hooked, GUINT_TO_POINTER(addr)))
            continue;
        uc_hook h;
        if (!core_uc_ok(c, uc_hook_add(c->uc, &h, UC_HOOK_CODE, (void *)access_hook, c, addr, addr),
                        "hook a load or store"))
            return added;
        g_hash_table_add(c->dc_hooked, GUINT_TO_POINTER(addr));
        added = true;
    }
    return added;
}

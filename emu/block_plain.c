// SPDX-License-Identifier: GPL-2.0-or-later
/* block_plain.c — the block hooks of a core without a client
 * (block_hook_plain; block_hook_lone and _24k on one host thread): the
 * table lookup keyed by address + size, the checks of a leave made in
 * line (the jump target even, $sp, 24k's pending results, its entry
 * stall from the memo), and the way out to block.c's boundary_other or
 * block_miss (docs/design.md, "The hook's fast path"). */
#include "emu/core_priv.h"

/* 24k: b reads what p left pending (entry_stall). The wait is charged
 * here when its memo has it and nothing comes with it: nothing due by b's
 * later end, b's xcyc there for the cycles (charge_stall's work, its
 * samples none). Else false, nothing changed (boundary_fast). */
static inline bool stall_in_line(Core *c, const Block *p, Block *b, uint64_t *end)
{
    unsigned k = 0;
    while (k < BLOCK_MEMO && b->memo_from[k] != p)
        k++;
    if (k == BLOCK_MEMO) /* pend_f met use_f: nothing to wait for unless the masks meet */
        return !((p->pend_mask & b->use_mask) | (p->pend_ag & b->base_mask));
    uint64_t st = b->memo_stall[k];
    if (!st)
        return true;
    if (!b->xcyc || *end + st > __atomic_load_n(&c->deadline, __ATOMIC_RELAXED))
        return false;
    *end += st; /* and b's start with it: end - b->cost */
    b->extra += (int64_t)st;
    b->xcyc[b->first_use] += (int64_t)st;
    return true;
}

/* 24k: nothing pending that b reads, or its wait charged in line. */
static inline bool pend_ok(Core *c, const Block *p, Block *b, uint64_t *end)
{
    return !(p->pend_f & b->use_f) || stall_in_line(c, p, b, end);
}

/* BLOCK_CHK_JR (only where the engine keeps MIPS16e, isa.c): the jump
 * target even (no target was saved: qk is SLOW when one may be,
 * Block.jr_hooked). The engine stored the registers before the hook: a
 * plain load. */
static inline bool jr_ok(const Block *p)
{
    return !(*(const uint32_t *)p->jr_reg & 1);
}

/* p->qk == v, v a constant: GCC loads a byte once into a register and
 * compares that, one instruction more per test on the hook's paths;
 * this compares the byte in memory, a test at a time. */
#if defined(__x86_64__)
#define QK_IS(p, v)                                                                                    \
    __extension__({                                                                                    \
        bool eq_;                                                                                      \
        __asm__("cmpb %[imm_], %[mem_]" : "=@ccz"(eq_) : [mem_] "m"((p)->qk), [imm_] "i"(v));                      \
        eq_;                                                                                           \
    })
#else
#define QK_IS(p, v) ((p)->qk == (v))
#endif

/* BLOCK_CHK_SP: g[29] - sp_dip at or above the lowest $sp seen and the
 * limit (32-bit values: exact in 64-bit signed arithmetic, the fields
 * 64 bits wide: one subtraction, one comparison). */
static inline bool sp_ok(const Core *c, const Block *p, const uint32_t *g)
{
    return (int64_t)g[29] - p->sp_dip >= c->sp_floor;
}

#if defined(__SANITIZE_THREAD__)
#define BLOCK_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BLOCK_TSAN 1
#endif
#endif

/* end > c->deadline: a relaxed atomic load (core_request_yield zeroes it
 * from other threads). GCC does not fold an atomic load into the
 * comparison; on x86-64 a relaxed load is a plain one, so outside the
 * TSan build (which must see it) the comparison reads the field itself:
 * one instruction less on every block. */
static inline bool past_deadline(const Core *c, uint64_t end)
{
#if defined(__x86_64__) && !defined(BLOCK_TSAN)
    bool past;
    __asm__("cmpq %[dl], %[end]" : "=@cca"(past) : [end] "r"(end), [dl] "m"(c->deadline));
    return past;
#else
    return end > __atomic_load_n(&c->deadline, __ATOMIC_RELAXED);
#endif
}

/* plain's checks of a leaving p other than the usual ones (qk, not
 * BLOCK_QK_SLOW): the register file is known (block_leave). */
static inline bool plain_rest(Core *c, const Block *p, Block *b, uint64_t *end)
{
    unsigned k = __atomic_load_n(&p->qk, __ATOMIC_RELAXED);
    const uint32_t *g = (const uint32_t *)c->gpr;
    return (int8_t)k >= 0 && (!(k & BLOCK_CHK_JR) || jr_ok(p)) && (!(k & BLOCK_CHK_SP) || sp_ok(c, p, g))
           && (!(k & BLOCK_QK_PEND) || pend_ok(c, p, b, end));
}

/* plain's way out when its checks did not clear the block at address
 * (bt: the previous block's branch cycles, end: the block's end; the
 * hook's address and core where it has them). plain found the block by
 * address + size (core_slot_key): it is the one at address unless a
 * MIPS16 jump got here (the checks of its leaving fail then), which
 * the miss path takes, its size from that key. */
BLOCK_NOIPA static void plain_other(uint64_t bt, uint64_t address, uint64_t end, void *opaque)
{
    Core *c = opaque;
    uint32_t addr = (uint32_t)address;
    Block *b = core_slot_lookup(c, addr);
    if (G_UNLIKELY(b->addr != addr)) {
        block_miss(NULL, address, b->key - addr, opaque);
        return;
    }
    boundary_other(bt, end - b->cost, end, c, c->prev, b);
}

/* block_hook with no client (core_set_hooks never called): no block is
 * watched, so b->attn (splits only) rides on the lookup (Block.key), and
 * boundary_quick's checks are done in line without a register saved
 * (kept out of block_hook: profiled, both measured slower in CPU time,
 * docs/performance.md). */
enum { ORDER_ANY, ORDER_FLAT, ORDER_24K }; /* plain's order of the usual checked leaves */

static inline __attribute__((always_inline)) void plain(uc_engine *uc, uint64_t address, uint32_t size,
                                                        void *opaque, bool pub, int order)
{
    Core *c = opaque;
    CORE_CHECK(c); /* checking builds only: nothing in a release */
    uint32_t addr = (uint32_t)address;
    /* an empty slot is `none`, whose key matches nothing: no NULL test;
     * the key is address + size: one comparison (core_slot_key) */
    Block *b = core_slot_lookup(c, addr);
    Block *p = c->prev;
    (void)uc; /* block_miss does not read it: one more register free */
    if (G_UNLIKELY(b->key != core_slot_key(addr, (uint32_t)size))) {
        block_miss(NULL, address, size, opaque); /* b->attn too */
        return;
    }
    uint64_t bt = addr != p->fallthrough ? p->bt : p->bnt;
    uint64_t end = c->cycles + bt + b->cost; /* start = end - b->cost, rarely needed */
    if (G_UNLIKELY(past_deadline(c, end))) {
        plain_other(bt, address, end, opaque);
        return;
    }
    if (G_UNLIKELY(!QK_IS(p, 0))) { /* 0 exactly when p->leave is (block_leave) */
        /* boundary_quick's tests, b->attn known false: the usual leaves
         * of the core's model first, each a comparison of the byte */
        /* (a return checks no target: the engine faults an odd one
         * itself, isa.c; where it cannot, plain_rest checks it) */
        bool ok;
        if (order != ORDER_FLAT && QK_IS(p, BLOCK_QK_PEND)) /* a return (24k) */
            ok = pend_ok(c, p, b, &end);
        else if (QK_IS(p, BLOCK_CHK_SP)) /* a prologue */
            ok = sp_ok(c, p, (const uint32_t *)c->gpr);
        else /* the rest (a flat return under 24k) */
            ok = plain_rest(c, p, b, &end);
        if (G_UNLIKELY(!ok)) { /* nothing charged (pend_ok charges only on success) */
            plain_other(bt, address, end, opaque);
            return;
        }
    }
    if (pub)
        __atomic_store_n(c->lb_pub, end - b->cost, __ATOMIC_RELEASE);
    p->extra += (int64_t)bt;
    c->cycles = end;
    b->count++;
    c->prev = b;
}
void block_hook_plain(uc_engine *uc, uint64_t a, uint32_t size, void *o) { plain(uc, a, size, o, true, ORDER_ANY); }
/* One host thread: the usual leaves of the core's model tested first (a
 * flat core has no BLOCK_QK_PEND; a 24k core's returns nearly all have it) */
void block_hook_lone(uc_engine *uc, uint64_t a, uint32_t size, void *o) { plain(uc, a, size, o, false, ORDER_FLAT); }
void block_hook_lone_24k(uc_engine *uc, uint64_t a, uint32_t size, void *o)
{
    plain(uc, a, size, o, false, ORDER_24K);
}

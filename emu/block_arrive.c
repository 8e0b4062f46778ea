// SPDX-License-Identifier: GPL-2.0-or-later
/* block_arrive.c — a call or a return the client watches, when nothing
 * else is due at the boundary: the block entered, then the client's
 * entry for the kind of arrival called straight (issue 24,
 * docs/performance.md "Sixth round"). */
#include "emu/core_priv.h"
#include "base/check.h"

/* A call or a return the client watches (p->attn_out | b->attn) when
 * none of boundary_fast's rarer cases is there: no event or sample due
 * by b's end (the deadline is at most both), no mfc0 fix, cut run or
 * yield, b no split, and p->aq's checks plain (the jump target even,
 * $sp above the lowest seen and the limit, nothing pending that b
 * reads or its wait in b's memo, nothing due by b's end after it):
 * what boundary_fast would do then, b entered
 * first (enter_block: no sample can be due by b's end). The client's
 * entry for the kind of arrival (p->aq, Core.arrive_to) is then called
 * straight, a tail call with the arguments where they are: no register
 * is saved. Else boundary_fast. */
void boundary_arrive(uint64_t bt, uint64_t start, uint64_t end, Core *c, Block *p, Block *b)
{
    unsigned k = p->aq;
    if (G_UNLIKELY(!(k & BLOCK_AQ_KIND) || (b->flags & BLOCK_SPLIT)
                   || end > __atomic_load_n(&c->deadline, __ATOMIC_RELAXED)))
        goto fast;
    /* end is dead from here (start + b->cost): fewer live registers */
    if (G_UNLIKELY(__atomic_load_n(&c->rare, __ATOMIC_RELAXED)) /* an mfc0 fix, a cut run, a yield */
        /* c->gpr is not NULL when k has a check (block_leave) */
        /* (aq is 0 when leaving p reads a saved target: Block.jr_hooked) */
        || ((k & BLOCK_CHK_JR) && (c->gpr[p->jr_rs] & 1))
        || ((k & BLOCK_CHK_SP) && (int64_t)c->gpr[29] - p->sp_dip < c->sp_floor))
        goto fast;
    /* 24k: a wait for a pending result b reads, charged in line from b's
     * memo (boundary_fast's entry_stall and charge_stall), start past it */
    if ((k & BLOCK_QK_PEND) && ((p->pend_mask & b->use_mask) | (p->pend_ag & b->base_mask))
        && !block_stall_memo(c, p, b, &start))
        goto fast;
    NP_CHECK(start + b->cost <= c->next_event && start + b->cost <= c->next_sample);
    p->extra += (int64_t)bt;
    __atomic_store_n(c->lb_pub, start, __ATOMIC_RELEASE);
    c->cycles = start + b->cost;
    b->count++;
    c->prev = b;
    CORE_ARRIVE_TO(c, k)(bt, start, c->hooks.opaque, c, p, b);
    return;
fast:
    boundary_fast(bt, start, start + b->cost, c, p, b);
}

/* A client's arrive (Core.arrive_to of a kind without a quick entry):
 * boundary_arrive entered `to` first, so the core is set back to what
 * the hook saw before it for the call (the clock at start, no current
 * block, to's count without this run), then forward again. */
void arrive_before(uint64_t unused, uint64_t start, void *opaque, Core *c, const Block *p, const Block *to)
{
    (void)unused;
    Block *b = c->prev; /* to */
    NP_CHECK(b == to && c->cycles == start + b->cost);
    c->cycles = start;
    c->prev = &c->none;
    b->count--;
    c->hooks.arrive(opaque, c, p, to, start);
    c->cycles = start + b->cost;
    b->count++;
    c->prev = b;
}

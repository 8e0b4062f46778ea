// SPDX-License-Identifier: GPL-2.0-or-later
/* block.c — the block cache and the block hook: translation of a new
 * block (its static cost, its control instruction), charging each block
 * as it starts, taken branches, and the transfers the client watches. */
#include "emu/core_priv.h"
#include "base/check.h"

/* Copy what block_view() shows (after any change of flags or tag). */
static void block_publish(Block *b)
{
    b->view = (BlockView){ .addr = b->addr, .tag = b->tag, .flags = block_flags(b),
                           .branch_pc = b->branch_pc, .data = b->view.data };
}

/* Instructions [from, to) of b did not run in one of its executions. */
static void lose(const Core *c, Block *b, uint32_t from, uint32_t to)
{
    b->lost += to - from;
    for (uint32_t i = from; b->skip && i < to && i < b->ninsns; i++)
        b->lost -= b->skip[i]; /* never counted (Block.skip) */
    if (from >= MIN(to, b->ninsns))
        return;
    if (!b->xcut)
        b->xcut = g_new0(uint64_t, b->ninsns);
    uint32_t waits = 0;
    for (unsigned k = 0; k < T24_NWAIT; k++)
        waits |= b->wait[k];
    if (waits) { /* 24k: the waits of what did not run (block_waits) */
        g_autofree uint8_t *cause = g_new(uint8_t, b->ninsns);
        g_autofree uint16_t *cyc = g_new(uint16_t, b->ninsns);
        bool known = block_insn_waits(c, b, cause, cyc);
        for (uint32_t i = from; known && i < to && i < b->ninsns; i++)
            if (cause[i] < T24_NWAIT)
                b->lost_wait[cause[i]] += cyc[i];
    }
    for (uint32_t i = from; i < to && i < b->ninsns; i++) {
        if (block_skipped(b, i))
            continue;
        b->xcut[i]++;
        unsigned e = block_word_events(b->words[i]);
        for (unsigned k = 0; k < BLOCK_NEV; k++)
            b->lost_ev[k] += (e >> k) & 1;
    }
}

/* The flat model's cost of instruction class cls ([timing] extras). */
static unsigned flat_cost(const Timing *t, unsigned cls)
{
    unsigned cost = 1;
    if (cls & MIPS_LOAD) cost += t->load;
    if (cls & MIPS_STORE) cost += t->store;
    if (cls & MIPS_MUL) cost += t->mul;
    if (cls & MIPS_DIV) cost += t->div;
    if (cls & MIPS_FPU_ADD) cost += t->fpu_add;
    if (cls & MIPS_FPU_MUL) cost += t->fpu_mul;
    if (cls & MIPS_FPU_DIV) cost += t->fpu_div;
    if (cls & MIPS_FPU_SQRT) cost += t->fpu_sqrt;
    return cost;
}

/* Extra cycles of b's control instruction insn when it transfers. */
static uint32_t taken_cost(const Core *c, uint32_t insn)
{
    return c->cfg->timing.model == TIMING_FLAT ? c->cfg->timing.branch_taken : t24_taken_cost(insn);
}

/* Costs, loads/stores and the control instruction of b's words (pend:
 * b is a real block, not word_cost's single word). */
uint32_t block_scan(Core *c, Block *b, bool pend)
{
    const Timing *t = &c->cfg->timing;
    uint32_t ctl = 0;
    bool skip = false;
    for (uint32_t i = 0; i < b->ninsns; i++) {
        uint32_t w = b->words[i];
        unsigned cls = mips_classify(w);
        if (skip) {
            /* the slot of a likely branch that can never be taken: QEMU
             * skips it (pc += 4) inside the block; it costs nothing, is
             * not counted and is not a control instruction */
            skip = false;
            if (!b->skip)
                b->skip = g_new0(uint8_t, b->ninsns);
            b->skip[i] = 1;
            b->nskip++;
            b->icost[i] = 0;
            continue;
        }
        skip = (cls & MIPS_LIKELY) && mips_branch_never(w);
        if (cls & (MIPS_LOAD | MIPS_STORE))
            b->nmem++;
        unsigned e = block_word_events(w);
        for (unsigned k = 0; k < BLOCK_NEV; k++)
            b->nev[k] += (e >> k) & 1;
        b->icost[i] = (uint16_t)flat_cost(t, cls);
        b->cost += b->icost[i];
        /* a branch that can never be taken does not end QEMU's block:
         * the one that does is further on (mips_branch_never) */
        if (!b->flags && (cls & (MIPS_BRANCH | MIPS_ERET)) && !mips_branch_never(w)) {
            b->flags = cls;
            b->branch_pc = b->addr + 4 * i;
            b->branch_insn = w;
            ctl = i;
        }
    }
    if (t->model == TIMING_24K)
        block_cost_24k(c, b, pend);
    b->mem = g_new(uint16_t, b->nmem ? b->nmem : 1);
    for (uint32_t i = 0, k = 0; i < b->ninsns; i++)
        if (!block_skipped(b, i) && (mips_classify(b->words[i]) & (MIPS_LOAD | MIPS_STORE)))
            b->mem[k++] = (uint16_t)i;
    return ctl;
}

static Block *block_new(Core *c, uint32_t addr, uint32_t size)
{
    /* line 0 of the block is the unprofiled hook's (struct Block) */
    G_STATIC_ASSERT(offsetof(Block, use_f) + sizeof(uint64_t) <= 64);
    G_STATIC_ASSERT(offsetof(Block, view) == BLOCK_VIEW_AT);
    Block *b = g_aligned_alloc0(1, sizeof(Block), 64);
    b->addr = addr;
    b->size = size;
    b->ninsns = size / 4;
    b->fallthrough = addr + size;
    b->icost = g_new(uint16_t, b->ninsns ? b->ninsns : 1);
    b->words = g_new0(uint32_t, b->ninsns ? b->ninsns : 1);
    b->tag = CORE_NO_TAG;
    b->pollable = -1;
    g_autofree uint8_t *bytes = g_malloc(size ? size : 4);
    bool readable = size && uc_mem_read(c->uc, mips_phys(addr), bytes, size) == UC_ERR_OK;
    for (uint32_t i = 0; readable && i < b->ninsns; i++)
        b->words[i] = core_guest_word(c, bytes + 4 * i);
    uint32_t ctl = block_scan(c, b, true);
    if (b->flags & MIPS_BRANCH) {
        uint32_t target;
        b->bt = taken_cost(c, b->branch_insn);
        if (ctl + 1 == b->ninsns) {
            /* the delay slot is the next block: it inherits the branch */
            b->flags = BLOCK_SPLIT;
            b->bt = 0;
        } else if (mips_branch_unconditional(b->branch_insn)) {
            b->fallthrough = 1;
        } else if (mips_branch_target(b->branch_insn, b->branch_pc, &target)
                   && target == b->fallthrough) {
            b->flags |= BLOCK_EVAL;
        }
        block_spin_mark(c, b);
    }
    if (b->flags & MIPS_JREG) { /* not a split: that one's successor inherits it */
        /* without MIPS16e in the engine an odd target faults there (isa.c) */
        b->jr_free = c->no_mips16;
        b->chk = c->no_mips16 ? 0u : BLOCK_CHK_JR;
        b->jr_rs = (uint8_t)((b->branch_insn >> 21) & 31);
        b->jr_reg = c->gpr ? c->gpr + b->jr_rs : NULL;
    }
    if (c->cfg->timing.model == TIMING_24K && (b->pend || (b->flags & MIPS_LIKELY)))
        block_static_successors(c, b);
    if (c->hooks.block_tag)
        b->tag = c->hooks.block_tag(c->hooks.opaque, addr, &b->watch, &b->view.data);
    /* a branch whose delay slot is the next block: entering it checks that
     * both fit under the cycle limit (block_limit_cut) */
    b->attn = b->watch || (b->flags & BLOCK_SPLIT);
    b->key = b->attn ? BLOCK_KEY_ATTN : core_slot_key(addr, size);
    b->attn_out = (b->flags & c->arrive_mask) != 0 || MIPS_IS_JALX(b->branch_insn);
    stack_scan_block(b);
    block_leave(b, c->gpr != NULL);
    block_publish(b);
    g_ptr_array_add(c->blocks, b);
    return b;
}

void block_free(gpointer p)
{
    Block *b = p;
    g_free(b->icost);
    g_free(b->words);
    g_free(b->mem);
    g_free(b->pend);
    g_free(b->uses);
    g_free(b->cmiss);
    g_free(b->xcyc);
    g_free(b->xcut);
    g_free(b->skip);
    dcache_free(b->dplan);
    loc_free(b->locmem);
    g_aligned_free(b);
}

G_GNUC_NO_INLINE static Block *block_lookup_slow(Core *c, uint32_t addr, uint32_t size)
{
    if (c->stopping)
        return NULL;
    if ((mips_phys(addr) & ~0xFFFu) == CORE_STUB_PHYS) {
        /* the interrupt-entry stub: free and invisible when an interrupt
         * is being delivered; the guest itself may not run there (the
         * page is no guest memory: SPEC's "outside every window") */
        if (addr == CORE_STUB_VADDR && c->prev == &c->irq_marker)
            return NULL;
        core_raise(c, "unmapped-fetch", addr, "instruction fetch from unmapped address 0x%08x "
                   "(the platform's interrupt-entry page)", addr);
        return NULL;
    }
    uint32_t idx = mips_phys(addr) >> 2;
    if (idx >= c->nslots) {
        core_raise(c, "fetch-outside-ram", addr, "instruction fetch at 0x%08x outside RAM", addr);
        return NULL;
    }
    /* an earlier block of the same words (code that was rewritten and
     * then written back, smc.c), else a new one */
    Block *b = smc_revive(c, addr, size);
    if (!b && c->blocks->len >= c->cfg->max_blocks) {
        /* [limits] blocks: the core stops before its next new block */
        c->block_limit_hit = true;
        c->pc = addr;
        c->prev = &c->none;
        core_stop(c, CORE_LIMIT);
        return NULL;
    }
    if (!b) {
        b = block_new(c, addr, size);
        smc_track(c, b);
    }
    core_slot_set(c, idx, b);
    bool restart = cp0_scan_block(c, b);
    restart = exc_scan_block(c, b) || restart;
    restart = smc_scan_block(c, b) || restart;
    restart = loc_scan_block(c, b) || restart;
    restart = dcache_scan_block(c, b) || restart;
    if (restart) {
        /* CP0 accesses got their hooks: translate the block again and
         * restart it (not charged: it has not run) */
        if (core_uc_ok(c, uc_ctl_remove_cache(c->uc, addr, (uint64_t)addr + size), "drop a translation"))
            core_uc_ok(c, uc_reg_write(c->uc, UC_MIPS_REG_PC, &addr), "write pc");
        return NULL;
    }
    return b;
}

Block *core_current_block(const Core *c)
{
    Block *b = c->prev;
    return b == &c->none || b == &c->irq_marker ? NULL : b;
}

void core_watch_run(Core *c)
{
    c->watch_run = core_current_block(c);
    c->watch_count = c->watch_run ? c->watch_run->count : 0;
}

/* The watched run (core_watch_run) of b is cut: tell the client, before
 * (done false) and after (done true) it is taken back. */
static void watched_cut(Core *c, const Block *b, bool done)
{
    if (b == c->watch_run && b->count == c->watch_count && c->hooks.run_cut)
        c->hooks.run_cut(c->hooks.opaque, c, done);
}

Block *core_block_at(const Core *c, uint32_t pc, uint32_t *idx)
{
    Block *b = core_current_block(c);
    if (!b || pc < b->addr || pc >= b->addr + b->size)
        return NULL;
    *idx = (pc - b->addr) / 4;
    return b;
}

uint64_t block_start(const Core *c, const Block *b)
{
    return c->cycles - b->cost - (uint64_t)(CORE_ACC_OF(c, b) ? c->acc.delta : 0);
}

void block_truncate(Core *c, uint32_t end_pc)
{
    Block *b = core_current_block(c);
    if (!b || end_pc < b->addr || end_pc >= b->addr + b->size)
        return;
    uint32_t k = (end_pc - b->addr) / 4;
    watched_cut(c, b, false);
    uint64_t start = c->cycles - b->cost, removed = 0, cut = start;
    for (uint32_t i = 0; i < b->ninsns; i++) {
        if (i < k) {
            cut += b->icost[i];
        } else {
            removed += b->icost[i];
            block_note_extra(b, i, -(int64_t)b->icost[i]);
        }
    }
    bool dev = CORE_ACC_OF(c, b) && c->acc.extra && c->acc.insn == k;
    if (dev)
        block_note_extra(b, k, -c->acc.extra);
    if (dev) {
        /* end_pc is a device access that did not complete (a bus error,
         * NI misuse, a halt at its sync point): its extra cycles, charged
         * when it began, go with it */
        cut = (uint64_t)((int64_t)cut - c->acc.extra);
        removed = (uint64_t)((int64_t)removed + c->acc.extra);
    }
    uint64_t begin = block_start(c, b);
    sample_untake(c, b, begin, cut);
    if (dev)
        mmio_access_undo(c);
    /* what did not run ends no earlier than the block began */
    NP_CHECK_CMPUINT(c->cycles - removed, >=, begin);
    c->cycles -= removed;
    b->extra -= (int64_t)removed;
    lose(c, b, k, b->ninsns);
    watched_cut(c, b, true);
    CORE_CHECK_RUN(c); /* the clock was set back to what really ran */
}

/* `to` is the delay slot of from's branch, translated alone (page end):
 * it takes over the branch (its successor shows where control went). */
static void inherit_branch(Core *c, const Block *from, Block *to)
{
    if (to->ninsns != 1 || (to->flags & ~BLOCK_EVAL) || to->bt)
        return;
    uint32_t fall = to->addr + to->size, target;
    to->flags = mips_classify(from->branch_insn);
    to->branch_pc = from->branch_pc;
    to->branch_insn = from->branch_insn;
    to->bt = taken_cost(c, from->branch_insn);
    if (mips_branch_unconditional(from->branch_insn))
        to->fallthrough = 1;
    else if (mips_branch_target(from->branch_insn, from->branch_pc, &target) && target == fall)
        to->flags |= BLOCK_EVAL;
    /* 24k: what branch and slot left pending (a load in the slot, a
     * divide before the branch) makes the branch's target wait, as when
     * they are one block: its wait joins bt (a
     * register jump's target waits at run time, rt_pend) */
    if (c->cfg->timing.model == TIMING_24K)
        block_split_successors(c, from, to);
    /* a register jump's target was read before its delay slot ran
     * (exc_odd_target, c->jr_saved): checked on the slow path */
    to->attn_out = (to->flags & (c->arrive_mask | MIPS_JREG)) != 0 || MIPS_IS_JALX(to->branch_insn);
    block_leave(to, c->gpr != NULL);
    block_publish(to);
}

/* A branch-likely of `b` fell through: its delay slot was annulled. Take
 * back its cycles, its samples and its count. */
static void annul_delay_slot(Core *c, Block *b)
{
    /* the slot: after the branch in b, or b's first word when b is the
     * slot split off at a page end, which inherited the branch (Unicorn
     * enters that block and skips the word in it) */
    uint32_t slot = b->branch_pc + 4;
    if (slot < b->addr || slot - b->addr >= b->size)
        return;
    uint32_t ds = (slot - b->addr) / 4;
    watched_cut(c, b, false);
    uint64_t cost = b->icost[ds], cut = c->cycles;
    for (uint32_t i = ds; i < b->ninsns; i++)
        cut -= b->icost[i];
    sample_untake(c, b, block_start(c, b), cut);
    c->cycles -= cost;
    b->extra -= (int64_t)cost;
    block_note_extra(b, ds, -(int64_t)cost);
    lose(c, b, ds, ds + 1);
    watched_cut(c, b, true);
    CORE_CHECK_RUN(c); /* the clock was set back to what really ran */
}

/* Control left `from` for `to`: eret bookkeeping, the client's view. */
G_GNUC_NO_INLINE static void arrival(Core *c, Block *from, Block *to, uint64_t now)
{
    if (from->flags & BLOCK_SPLIT) {
        inherit_branch(c, from, to);
        return;
    }
    if ((from->flags & BLOCK_EVAL) && to->addr == from->fallthrough) {
        /* a conditional branch to its own fall-through: ask the registers
         * (exact unless its delay slot rewrote them) */
        uint32_t rs = core_read_gpr(c, (from->branch_insn >> 21) & 31);
        uint32_t rt = core_read_gpr(c, (from->branch_insn >> 16) & 31);
        if (mips_branch_taken(from->branch_insn, rs, rt)) {
            /* the hook charged the fall-through's bnt: the taken bt instead */
            c->cycles += from->bt - from->bnt;
            from->extra += from->bt - from->bnt;
        } else if (from->flags & MIPS_LIKELY) {
            annul_delay_slot(c, from);
        }
        now = c->cycles;
    } else if ((from->flags & MIPS_LIKELY) && to->addr == from->fallthrough) {
        annul_delay_slot(c, from);
        now = c->cycles;
    }
    if (from->flags & BLOCK_IRQ_ENTRY) {
        if (c->hooks.arrive)
            c->hooks.arrive(c->hooks.opaque, c, NULL, to, now);
        return;
    }
    if (from->flags & MIPS_ERET) {
        core_irq_return(c, now);
        core_update_next_event(c);
    }
    if (c->hooks.arrive)
        c->hooks.arrive(c->hooks.opaque, c, from, to, now);
}


/* ---- interlocks across a block boundary (24k) ------------------------------
 * Waits after a branch to a static successor are in bt/bnt (block_24k.c).
 * A block whose successor is known only at run time (jr, jalr, eret, a
 * page-end split) and that left a result pending is rt_pend: leaving it
 * takes the slow path, where the next block b waits at its start until
 * its first read of each pending resource is satisfied
 * (block_entry_stall_slow). The wait of b entered from p (bt: the
 * taken-branch cycles between): 0 unless p left something b reads; the
 * last BLOCK_MEMO pairs are memoised (a return site is entered from few
 * blocks). docs/timing.md. */
static inline uint64_t entry_stall(Core *c, const Block *p, Block *b, uint64_t bt)
{
    if (!p->rt_pend || !((p->pend_mask & b->use_mask) | (p->pend_ag & b->base_mask)))
        return 0;
    for (unsigned k = 0; k < BLOCK_MEMO; k++)
        if (b->memo_from[k] == p)
            return b->memo_stall[k];
    return block_entry_stall_slow(c, p, b, bt);
}

/* Charge b's entry stall st, which ends at `start`: its samples go to the
 * instruction that waits. */
static void charge_stall(Core *c, Block *b, uint64_t st, uint64_t start)
{
    b->extra += (int64_t)st;
    block_note_extra(b, b->first_use, (int64_t)st);
    if (c->next_sample < start)
        sample_range(c, start, b->addr + 4 * b->first_use);
}

/* Slow part of the boundary at `start`: the client's view of the
 * transfer from p, then due events. True when b must not run now. */
G_GNUC_NO_INLINE static bool boundary_slow(Core *c, Block *p, Block *b, uint64_t start)
{
    c->cycles = start;
    c->prev = &c->none;
    if ((p->flags & c->arrive_mask) || b->watch) {
        arrival(c, p, b, start);
        start = c->cycles;
    }
    bool delay_slot = (p->flags & BLOCK_SPLIT) != 0;
    return start >= c->next_event && core_events(c, b->addr, delay_slot);
}

/* The prefix of the cut block starts: charged whole, block_run_cut takes
 * back what did not run. */
static void charge_cut(Core *c, Block *b)
{
    NP_CHECK(c->cut.run && b == c->cut.block && c->prev == &c->none);
    uint64_t start = c->cycles, end = start + b->cost;
    if (c->next_sample < end)
        sample_block(c, b, 0, start, end);
    c->cycles = end;
    b->count++;
    c->prev = b;
}

/* b runs from `start` to `end`, entered from p: publish the clock, take
 * the samples due in it, charge and count it (the common end of both
 * boundary paths). */
static inline void enter_block(Core *c, Block *p, Block *b, uint64_t start, uint64_t end)
{
    NP_CHECK(start >= c->cycles && end == start + b->cost);
    __atomic_store_n(c->lb_pub, start, __ATOMIC_RELEASE);
    if (c->next_sample < end)
        sample_block(c, b, p->branch_pc, start, end);
    c->cycles = end;
    b->count++;
    c->prev = b;
}

/* hook_block_slow once the previous block's $sp is checked. */
G_GNUC_NO_INLINE static void slow_after_stack(Core *c, uint32_t addr, uint32_t size)
{
    if (__atomic_load_n(&c->rare, __ATOMIC_RELAXED) & CORE_RARE_YIELD)
        core_update_next_event(c); /* takes it: the run ends at this boundary */
    if (c->cp0.fix_pending) {
        /* an mfc0 ended the previous block: its value reaches rt now */
        cp0_apply_fix(c);
        core_set_deadline(c, MIN(c->next_event, c->next_sample));
    }
    if (G_UNLIKELY((c->prev->flags & (MIPS_JREG | MIPS_ERET | BLOCK_SPLIT)) || MIPS_IS_JALX(c->prev->branch_insn))
        && exc_odd_target(c, c->prev, addr))
        return;
    if (G_UNLIKELY(c->cut.run) && addr == c->cut.block->addr) {
        charge_cut(c, c->cut.block);
        return;
    }
    uint32_t idx = (addr & 0x1FFFFFFFu) >> 2;
    Block *b = idx < c->nslots ? core_slot(c, idx) : NULL;
    if (!b || b->size != size || b->addr != addr) {
        b = block_lookup_slow(c, addr, size);
        if (!b)
            return; /* the stub (free, invisible), a fault or a restart */
    }
    Block *p = c->prev;
    uint64_t start = c->cycles;
    uint64_t bt0 = addr != p->fallthrough ? p->bt : p->bnt;
    if (bt0) {
        uint64_t bt = bt0, limit = c->cfg->max_cycles;
        if (start + bt > limit) /* charged up to the limit only */
            bt = start < limit ? limit - start : 0;
        start += bt;
        p->extra += (int64_t)bt;
        /* the taken branch's extra cycles belong to the branch, even if
         * the core stops before b (a stop forgets p) */
        if (c->next_sample < start)
            sample_range(c, start, p->branch_pc ? p->branch_pc : addr);
    }
    uint64_t st = entry_stall(c, p, b, bt0);
    if (st) {
        start += st;
        charge_stall(c, b, st, start);
    }
    if (G_UNLIKELY(p->flags & BLOCK_SPIN) && block_spin_entry(p, b) && block_spin_failed(c, p, b, &start))
        return;
    if (c->poll.blk) {
        Block *pb = c->poll.blk;
        c->poll.blk = NULL;
        if (pb == b && p == b)
            start = block_poll_skip(c, b, start);
    }
    if ((p->flags & c->arrive_mask) || b->attn || start >= c->next_event) {
        if (boundary_slow(c, p, b, start))
            return;
        start = c->cycles;
    }
    uint64_t end = start + b->cost;
    if ((end > c->cfg->max_cycles || (b->flags & BLOCK_SPLIT)) && !(p->flags & BLOCK_SPLIT)
        && block_limit_cut(c, b, start))
        return;
    enter_block(c, p, b, start, end);
}

/* The whole boundary, every case: a new block, a transfer the client
 * must see, an event or a sample due. */
G_GNUC_NO_INLINE static void hook_block_slow(Core *c, uint32_t addr, uint32_t size)
{
    if (c->prev->sp_write && stack_check(c, c->prev, addr))
        return;
    slow_after_stack(c, addr, size);
}

/* A call or a return (b watched, or p ended in jr/jalr) or samples due:
 * when no event is due before b ends (no interrupt, timer, limit, slice
 * end, yield, cut run, mfc0 fix or jalx), what hook_block_slow would do (the odd
 * target check of a register jump included) without its lookup and its
 * tests of the rarer cases; else hook_block_slow. */
G_GNUC_NO_INLINE void boundary_fast(uint64_t bt, uint64_t start, uint64_t end, Core *c, Block *p,
                                           Block *b)
{
    if (p->sp_write) {
        if (!block_sp_quick(c, p) && stack_check(c, p, b->addr))
            return;
        if (!(p->attn_out | p->rt_pend | b->attn) && end <= __atomic_load_n(&c->deadline, __ATOMIC_RELAXED)) {
            p->extra += (int64_t)bt; /* nothing else due: block_hook's fast path */
            __atomic_store_n(c->lb_pub, start, __ATOMIC_RELEASE);
            c->cycles = end;
            b->count++;
            c->prev = b;
            return;
        }
    }
    uint64_t st = entry_stall(c, p, b, bt);
    end += st;
    if ((p->flags & CORE_ARRIVE_SLOW) || (b->flags & BLOCK_SPLIT) || end > c->next_event
        || __atomic_load_n(&c->rare, __ATOMIC_RELAXED) /* an mfc0 fix, a cut run, a yield */
        || MIPS_IS_JALX(p->branch_insn)) {
        /* $sp checked above: not twice (interrupt handlers' prologues) */
        slow_after_stack(c, b->addr, b->size);
        return;
    }
    if ((p->flags & MIPS_JREG) && !block_jr_quick(c, p) && exc_odd_target(c, p, b->addr))
        return;
    p->extra += (int64_t)bt;
    if (bt && c->next_sample < start)
        sample_range(c, start, p->branch_pc ? p->branch_pc : b->addr);
    if (st) {
        start += st;
        charge_stall(c, b, st, start);
    }
    if ((p->attn_out | b->attn) && c->hooks.arrive) {
        c->cycles = start;
        c->prev = &c->none;
        c->hooks.arrive(c->hooks.opaque, c, p, b, start);
    }
    enter_block(c, p, b, start, end);
}

/* block_hook's one test saw something (p->leave, b->attn or the
 * deadline). A transfer the client watches (p->attn_out | b->attn, a
 * call or a return) goes first to boundary_arrive. The usual case
 * otherwise, a register jump, a $sp write or a result
 * left pending whose checks are all there is (p->qk plain, b not
 * watched), is done here with plain loads: the jump target even (else
 * exc_odd_target), $sp - sp_dip at or above the lowest seen and the
 * limit (else stack_check), nothing pending that b reads (else
 * entry_stall), nothing due by b's end; else boundary_fast.
 * Anything else: boundary_fast (a $sp write only stack_check follows,
 * or no register file). */
G_GNUC_NO_INLINE static void boundary_quick(uint64_t bt, uint64_t start, uint64_t end, Core *c, Block *p,
                                            Block *b)
{
    if (p->attn_out | b->attn) { /* first: one test per call and return */
        boundary_arrive(bt, start, end, c, p, b);
        return;
    }
    unsigned k = p->qk;
    if (G_UNLIKELY((int8_t)k < 0)) { /* BLOCK_QK_SLOW: the sign bit */
        boundary_fast(bt, start, end, c, p, b); /* no quick check would pass */
        return;
    }
    const volatile uint32_t *g = c->gpr; /* not NULL when k is not 0 (block_leave) */
    if (G_UNLIKELY(end > __atomic_load_n(&c->deadline, __ATOMIC_RELAXED)
                   || ((k & BLOCK_QK_PEND) && (p->pend_mask & b->use_mask))
                   || ((k & BLOCK_QK_PEND) && (p->pend_ag & b->base_mask))
                   /* (qk is SLOW when leaving p reads a saved target: Block.jr_hooked) */
                   || ((k & BLOCK_CHK_JR) && (g[p->jr_rs] & 1))
                   /* g[29] < sp_floor + sp_dip: 32-bit values, exact in 64 */
                   || ((k & BLOCK_CHK_SP) && (int64_t)g[29] - p->sp_dip < c->sp_floor))) {
        boundary_fast(bt, start, end, c, p, b);
        return;
    }
    p->extra += (int64_t)bt;
    __atomic_store_n(c->lb_pub, start, __ATOMIC_RELEASE);
    c->cycles = end;
    b->count++;
    c->prev = b;
}

/* What block_hook_plain's quick checks did not clear: the client's
 * arrival (boundary_arrive) or everything else (boundary_fast), as
 * boundary_quick sends them. */
G_GNUC_NO_INLINE void boundary_other(uint64_t bt, uint64_t start, uint64_t end, Core *c, Block *p, Block *b)
{
    if (p->attn_out | b->attn)
        boundary_arrive(bt, start, end, c, p, b);
    else
        boundary_fast(bt, start, end, c, p, b);
}

/* A hook's lookup missed, called with its own arguments (no register
 * moved on the fast path): a known attn block (Block.key: only
 * block_hook_plain misses those) goes where block_hook sends it
 * (boundary_quick, which sends it to boundary_other), else
 * hook_block_slow. */
BLOCK_NOIPA void block_miss(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    (void)uc;
    Core *c = opaque;
    uint32_t addr = (uint32_t)address, idx = (addr & 0x1FFFFFFFu) >> 2;
    Block *b = idx < c->nslots ? core_slot(c, idx) : NULL;
    if (b && b->attn && b->size == size && b->addr == addr) {
        Block *p = c->prev;
        uint64_t bt = addr != p->fallthrough ? p->bt : p->bnt;
        uint64_t start = c->cycles + bt;
        boundary_other(bt, start, start + b->cost, c, p, b);
        return;
    }
    hook_block_slow(c, addr, size);
}

/* Runs before every translated block. The fast path is a leaf: a table
 * lookup, a branch-free taken-branch charge, one combined test for
 * anything unusual (then everything is redone by hook_block_slow, a tail
 * call), and four stores. It runs between every two guest blocks, so
 * every instruction here counts (see docs/performance.md). */
void block_hook(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    Core *c = opaque;
    CORE_CHECK(c); /* checking builds only: nothing in a release */
    uint32_t addr = (uint32_t)address;
    /* plain's lookup (an empty slot is `none`, whose size no translation
     * has), compared exactly: watched blocks come here too */
    Block *b = core_slot_lookup(c, addr);
    Block *p = c->prev;
    if (G_UNLIKELY(b->size != size || b->addr != addr))
        goto slow;
    uint64_t bt = addr != p->fallthrough ? p->bt : p->bnt;
    uint64_t start = c->cycles + bt;
    uint64_t end = start + b->cost;
    if (G_UNLIKELY(p->leave | b->attn) || G_UNLIKELY(end > __atomic_load_n(&c->deadline, __ATOMIC_RELAXED))) {
        boundary_quick(bt, start, end, c, p, b); /* no register moves (block_miss) */
        return;
    }
    p->extra += (int64_t)bt;
    __atomic_store_n(c->lb_pub, start, __ATOMIC_RELEASE);
    c->cycles = end;
    b->count++;
    c->prev = b;
    return;
slow:
    block_miss(uc, address, size, opaque);
}

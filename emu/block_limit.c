// SPDX-License-Identifier: GPL-2.0-or-later
/* block_limit.c — the cycle limit in the block hook: a block that would
 * end past [run] max_cycles is stopped before it runs, and the prefix
 * that completes by the limit runs alone (out of block.c, which is at
 * the 800-line limit). */
#include "emu/core_priv.h"

/* ---- the cycle limit -------------------------------------------------------
 * An instruction runs only when it completes by [run] max_cycles (its
 * static cost; a device access its fixed mmio cost, mmio.c); a branch and
 * its delay slot run both or neither; a taken branch's extra cycles are
 * charged up to the limit. So a core stops with cycles <= the limit, and
 * its samples are floor(cycles / period). A block that would end past the
 * limit is stopped before it runs (uc_emu_stop in this hook is exact) and
 * its prefix then runs alone up to an `until` address (block_run_cut). */

/* Static cycles of `word` at addr (the delay slot of a branch ending a
 * block at a page end). */
static uint64_t word_cost(Core *c, uint32_t addr, uint32_t word)
{
    Block tmp = { .addr = addr, .size = 4, .ninsns = 1 };
    uint16_t icost;
    tmp.icost = &icost;
    tmp.words = &word;
    block_scan(c, &tmp, false);
    g_free(tmp.mem);
    return tmp.cost;
}

/* Static cycles of the delay slot of BLOCK_SPLIT b (the word after it),
 * memoised with the word they were computed for: the word is read from
 * RAM directly (no Unicorn call), and code written there at run time
 * gets its own cost. A block that ran a loop across a page end paid a
 * Unicorn read and a scan at every entry (bench-store-x10). */
static uint64_t ds_cost(Core *c, Block *b)
{
    uint32_t addr = b->addr + b->size, phys = mips_phys(addr), word;
    if (c->ram && (uint64_t)phys + 4 <= c->cfg->ram_size) {
        word = core_guest_word(c, c->ram + phys);
    } else {
        uint8_t w[4];
        if (uc_mem_read(c->uc, phys, w, 4) != UC_ERR_OK)
            return 1;
        word = core_guest_word(c, w);
    }
    if (!b->ds_cost || word != b->ds_word) {
        b->ds_word = word;
        b->ds_cost = (uint32_t)word_cost(c, addr, word);
    }
    return b->ds_cost;
}

/* b, entered at start, would end past the limit: stop before it (true),
 * to run only the instructions that complete by the limit. */
bool block_limit_cut(Core *c, Block *b, uint64_t start)
{
    uint64_t limit = c->cfg->max_cycles, end = start + b->cost;
    if (b->flags & BLOCK_SPLIT)
        end += ds_cost(c, b);
    if (end <= limit)
        return false;
    uint64_t room = start < limit ? limit - start : 0, acc = 0;
    uint32_t k = 0;
    while (k < b->ninsns && acc + b->icost[k] <= room)
        acc += b->icost[k++];
    if ((b->flags & (MIPS_BRANCH | BLOCK_SPLIT)) && b->branch_pc >= b->addr
        && k == (b->branch_pc - b->addr) / 4 + 1)
        acc -= b->icost[--k]; /* the branch, not its delay slot: neither */
    c->cycles = start;
    c->prev = &c->none;
    c->pc = b->addr;
    if (k == 0) {
        core_stop(c, CORE_LIMIT);
        return true;
    }
    c->cut.block = b;
    c->cut.end = b->addr + 4 * k;
    c->cut.slack = b->cost - acc;
    core_stop(c, CORE_RUNNING);
    return true;
}

void block_run_cut(Core *c)
{
    Block *b = c->cut.block;
    if (!core_uc_ok(c, uc_ctl_remove_cache(c->uc, b->addr, (uint64_t)b->addr + b->size), "drop a translation")) {
        c->prev = &c->none;
        c->cut.block = NULL;
        c->cut.slack = 0;
        return;
    }
    c->stopping = false;
    c->cut.run = true;
    core_rare(c, CORE_RARE_CUT, true);
    core_update_next_event(c);
    uc_err err = uc_emu_start(c->uc, b->addr, c->cut.end, 0, 0);
    c->cut.run = false;
    core_rare(c, CORE_RARE_CUT, false);
    if (c->state == CORE_RUNNING && err != UC_ERR_OK)
        exc_engine_error(c, err, c->cut.end);
    if (c->state == CORE_RUNNING) {
        block_truncate(c, c->cut.end);
        c->pc = c->cut.end;
        c->state = CORE_LIMIT;
        c->stopping = true;
    }
    c->prev = &c->none;
    c->cut.block = NULL;
    c->cut.slack = 0;
    core_uc_ok(c, uc_ctl_remove_cache(c->uc, b->addr, (uint64_t)b->addr + b->size), "drop a translation");
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* debug.c — stops, registers and memory for a debugger (debug.h). */
#include <string.h>

#include "emu/core_priv.h"
#include "emu/debug.h"
#include "platform/mips.h"
#include "nocprof/platform.h"

/* The 24Kf's FIR (CP1 register 0): F64, L, W, D, S formats, PRId 0x93, as
 * QEMU's 24Kf model has it. */
#define CORE_DBG_FIR 0x00739300u
#define DBG_POLL_EVERY 32768u

typedef DbgWatch Watch;

struct CoreDebug {
    CoreDebugOps ops;
    uc_hook hook;
    GHashTable *bps;           /* physical addresses with a breakpoint */
    GArray *watches;           /* Watch */
    bool in_hook;              /* stopped inside the code hook at hook_pc */
    bool moved;                /* the pc was written at this stop (redirect) */
    uint32_t hook_pc;
    /* a step: stop at the first instruction after step_from (and its
     * delay slot when it is a branch) */
    bool step, step_seen, step_branch, step_slot;
    uint32_t step_from;
    uint32_t watch_addr;
    uint32_t watch_branch;     /* the last watch stop (a branch: its slot's access) */
    int watch_kind;
    bool req;                  /* the debugger asked to stop */
    unsigned polls;
    uint64_t stop_cycle;
    bool ended;                /* DBG_STOP_ENDED was reported */
    uint64_t prev, last;       /* the clock at its last two stoppable instructions */
    uint32_t last_pc;
};

static uint32_t word_at(Core *c, uint32_t pc)
{
    uint8_t w[4];
    if (uc_mem_read(c->uc, mips_phys(pc), w, 4) != UC_ERR_OK)
        return 0;
    return core_guest_word(c, w);
}

/* pc is the delay slot of the current block's branch: never stop there
 * (the branch would be lost), except at a breakpoint put there. */
static bool in_delay_slot(Core *c, uint32_t pc)
{
    const Block *b = core_current_block(c);
    return b && (b->flags & MIPS_BRANCH) && b->branch_pc + 4 == pc;
}

static uint64_t cycle_at(Core *c, uint32_t pc)
{
    uint32_t i;
    return core_block_at(c, pc, &i) ? exc_insn_cycle(c, (int)i) : c->cycles;
}

static void stop_here(Core *c, DbgStop why, uint32_t pc)
{
    CoreDebug *d = c->dbg;
    uint32_t data = why == DBG_STOP_WATCH ? d->watch_addr : 0;
    int kind = why == DBG_STOP_WATCH ? d->watch_kind : 0;
    d->in_hook = true;
    d->moved = false;
    d->hook_pc = pc;
    d->ops.stop(d->ops.opaque, c, why, pc, data, kind);
    d->in_hook = false;
}

/* The step in progress: true when pc is where it stops. */
static bool step_done(CoreDebug *d, uint32_t pc)
{
    if (!d->step_seen) {
        if (pc == d->step_from) {
            d->step_seen = true;   /* it runs now; stop after it */
            return false;
        }
        return true;               /* something else came first (an interrupt) */
    }
    if (d->step_branch && !d->step_slot && pc == d->step_from + 4) {
        d->step_slot = true;       /* the delay slot runs with its branch */
        return false;
    }
    return true;
}

/* The load or store at pc touches a watched range on the registers as
 * they are now: its watch (else NULL). No memory hook: those slow every
 * access translated afterwards and miss the rest of a block already
 * running when the watchpoint is set. */
static const Watch *watch_of(Core *c, uint32_t pc)
{
    CoreDebug *d = c->dbg;
    uint32_t w = word_at(c, pc);
    unsigned size, base;
    int32_t off;
    if (!mips_mem_operand(w, &size, &base, &off))
        return NULL;
    bool write = (mips_classify(w) & MIPS_STORE) != 0;
    uint32_t phys = mips_phys(core_reg(c, UC_MIPS_REG_0 + (int)base) + (uint32_t)off);
    for (guint i = 0; i < d->watches->len; i++) {
        const Watch *wt = &g_array_index(d->watches, Watch, i);
        if (phys + size <= wt->addr || phys >= wt->addr + wt->len)
            continue;
        if ((wt->kind == DBG_WATCH_WRITE && !write) || (wt->kind == DBG_WATCH_READ && write))
            continue;
        return wt;
    }
    return NULL;
}

/* As MIPS watchpoints do (WatchLo/WatchHi), stop before the access: at the
 * accessing instruction, or at the branch whose delay slot it is (gdb then
 * steps over it and compares the value). */
static bool watch_before(Core *c, uint32_t pc)
{
    CoreDebug *d = c->dbg;
    const Watch *w = watch_of(c, pc);
    if (!w && (mips_classify(word_at(c, pc)) & MIPS_BRANCH))
        w = watch_of(c, pc + 4);
    if (!w)
        return false;
    d->watch_addr = w->vaddr; /* gdb knows its watchpoint by that alias only */
    d->watch_kind = w->kind;
    return true;
}

/* Replaying (the stub's reverse execution): no stop, but where a
 * breakpoint or watchpoint would have stopped is noted; the stop cycle
 * passes as it would. */
static void quiet_hook(Core *c, uint32_t pc, bool slot, uint64_t now)
{
    CoreDebug *d = c->dbg;
    if (d->watches->len && !(slot && d->watch_branch + 4 == pc) && watch_before(c, pc)) {
        d->watch_branch = slot ? 0 : pc;
        d->ops.clock->hit = now;
        d->ops.clock->hit_core = c->id;
    } else if (g_hash_table_size(d->bps) && g_hash_table_contains(d->bps, GUINT_TO_POINTER(mips_phys(pc)))) {
        d->ops.clock->hit = now;
        d->ops.clock->hit_core = c->id;
    }
    if (d->stop_cycle != UINT64_MAX && !slot && cycle_at(c, pc) >= d->stop_cycle)
        d->stop_cycle = UINT64_MAX;
}

static void debug_hook(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    Core *c = opaque;
    CoreDebug *d = c->dbg;
    uint32_t pc = (uint32_t)address;
    if ((mips_phys(pc) & ~0xFFFu) == CORE_STUB_PHYS)
        return;                    /* the interrupt entry stub: not the guest's */
    DbgClock *k = d->ops.clock;
    uint64_t now = ++k->now;
    bool slot = in_delay_slot(c, pc);
    if (!slot) {
        d->prev = d->last;
        d->last = now;
        d->last_pc = pc;
    }
    DbgStop why;
    if (now >= k->next && d->ops.at(d->ops.opaque, c, pc, &why)) {
        stop_here(c, why, pc);
        return;
    }
    if (k->quiet) {
        quiet_hook(c, pc, slot, now);
        return;
    }
    if (d->step && step_done(d, pc)) {
        d->step = false;
        stop_here(c, DBG_STOP_STEP, pc);
        return;
    }
    /* a delay slot's access was caught at its branch, unless the
     * watchpoint came after the branch had run */
    if (d->watches->len && !(slot && d->watch_branch + 4 == pc) && watch_before(c, pc)) {
        d->watch_branch = slot ? 0 : pc;
        stop_here(c, DBG_STOP_WATCH, pc);
        return;
    }
    if (g_hash_table_size(d->bps) && g_hash_table_contains(d->bps, GUINT_TO_POINTER(mips_phys(pc)))) {
        stop_here(c, DBG_STOP_BREAK, pc);
        return;
    }
    if (d->stop_cycle != UINT64_MAX && !slot && cycle_at(c, pc) >= d->stop_cycle) {
        d->stop_cycle = UINT64_MAX;
        stop_here(c, DBG_STOP_CYCLE, pc);
        return;
    }
    if (++d->polls >= DBG_POLL_EVERY) {
        d->polls = 0;
        if (d->ops.poll && d->ops.poll(d->ops.opaque))
            d->req = true;
    }
    if (d->req && !slot) {
        d->req = false;
        stop_here(c, DBG_STOP_REQUEST, pc);
    }
}

bool core_debug_enable(Core *c, const CoreDebugOps *ops, GError **error)
{
    CoreDebug *d = g_new0(CoreDebug, 1);
    d->ops = *ops;
    d->bps = g_hash_table_new(NULL, NULL);
    d->watches = g_array_new(FALSE, TRUE, sizeof(Watch));
    d->stop_cycle = UINT64_MAX;
    c->dbg = d;
    uc_err err = uc_hook_add(c->uc, &d->hook, UC_HOOK_CODE, (void *)debug_hook, c, 1, 0);
    if (err != UC_ERR_OK) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_EMU, "core %u: debugger hook: %s", c->id, uc_strerror(err));
        return false;
    }
    return true;
}

void core_debug_free(Core *c)
{
    CoreDebug *d = c->dbg;
    if (!d)
        return;
    g_hash_table_destroy(d->bps);
    g_array_free(d->watches, TRUE);
    g_free(d);
    c->dbg = NULL;
}

bool core_debug_enabled(const Core *c)
{
    return c->dbg != NULL;
}

void core_debug_break(Core *c, uint32_t addr, bool on)
{
    if (on)
        g_hash_table_add(c->dbg->bps, GUINT_TO_POINTER(mips_phys(addr)));
    else
        g_hash_table_remove(c->dbg->bps, GUINT_TO_POINTER(mips_phys(addr)));
}

bool core_debug_watch(Core *c, uint32_t addr, uint32_t len, int kind, bool on)
{
    CoreDebug *d = c->dbg;
    uint32_t phys = mips_phys(addr);
    for (guint i = 0; i < d->watches->len; i++) {
        Watch *w = &g_array_index(d->watches, Watch, i);
        if (w->vaddr == addr && w->len == len && w->kind == kind) {
            if (!on)
                g_array_remove_index(d->watches, i);
            return true;
        }
    }
    if (!on)
        return false;
    if (!len || len > 4096 || (uint64_t)phys + len > c->cfg->ram_size)
        return false;
    Watch w = { phys, len, kind, addr };
    g_array_append_val(d->watches, w);
    return true;
}

void core_debug_step(Core *c)
{
    CoreDebug *d = c->dbg;
    d->step = true;
    /* stopped in the hook, the instruction there runs first when the core
     * resumes; after a pc write it is the new pc's, which the hook meets */
    d->step_seen = d->in_hook && !d->moved;
    d->step_from = core_debug_pc(c);
    d->step_branch = (mips_classify(word_at(c, d->step_from)) & MIPS_BRANCH) != 0;
    d->step_slot = false;
}

void core_debug_stop_at(Core *c, uint64_t cycle)
{
    c->dbg->stop_cycle = cycle;
}

void core_debug_kill(Core *c)
{
    if (core_live(c))
        core_stop(c, CORE_INTERRUPTED);
}

void core_debug_request(Core *c)
{
    c->dbg->req = true;
}

uint64_t core_debug_cycle(Core *c)
{
    return c->dbg && c->dbg->in_hook ? cycle_at(c, c->dbg->hook_pc) : c->cycles;
}

uint32_t core_debug_pc(Core *c)
{
    if (c->dbg && c->dbg->in_hook)
        return c->dbg->hook_pc;
    if (c->state == CORE_FAULT)
        return c->fault.pc;
    /* a live core may be inside its run (waiting at a sync point): the
     * engine's PC is its instruction; between runs it is c->pc */
    uint32_t pc = core_live(c) ? core_reg(c, UC_MIPS_REG_PC) : 0;
    return pc ? pc : c->pc;
}

/* BadVAddr as the 24K sets it at an address error or TLB exception: the
 * exact address a load or store went to, the target of a fetch (before:
 * the page of an unmapped access, 0 for an unaligned one) */
static uint32_t bad_vaddr(const Core *c)
{
    if (c->state != CORE_FAULT)
        return 0;
    if (c->fault.has_data)
        return c->fault.data;
    if (c->tlb_miss || (c->fault.kind && strcmp(c->fault.kind, "misaligned-fetch") == 0))
        return c->fault.pc;
    return 0;
}

void core_debug_read_regs(Core *c, uint32_t r[CORE_DBG_NREGS])
{
    memset(r, 0, CORE_DBG_NREGS * sizeof *r);
    for (unsigned n = 1; n < 32; n++)
        r[n] = core_reg(c, UC_MIPS_REG_0 + (int)n);
    r[32] = core_reg(c, UC_MIPS_REG_CP0_STATUS);
    r[33] = core_reg(c, UC_MIPS_REG_LO);
    r[34] = core_reg(c, UC_MIPS_REG_HI);
    r[35] = bad_vaddr(c);
    r[36] = cp0_cause_peek(c, core_debug_cycle(c));   /* never a sync point */
    r[CORE_DBG_PC] = core_debug_pc(c);
    core_fpu_read(c, &r[38], &r[70]);       /* fpr.c: Unicorn's reg_read has no FPU */
    r[71] = CORE_DBG_FIR;
    r[72] = core_read_cp0(c, NP_CP0_EPC);
}

/* The pc written at a stop inside a block (gdb's jump, call, the return
 * from a call): the instruction at the stop and the rest of the block do
 * not run, and go back as at a fault before it (cycles, counts, samples,
 * block_truncate); the core goes on at v as at the start of a run (no
 * block before it: an interrupt delivered in a hook does the same). */
static bool redirect(Core *c, uint32_t v)
{
    CoreDebug *d = c->dbg;
    if (in_delay_slot(c, d->hook_pc))
        return false;   /* the engine would still take the branch after v */
    block_truncate(c, d->hook_pc);
    c->prev = &c->none;
    c->pc = v;
    d->hook_pc = v;
    d->moved = true;
    return uc_reg_write(c->uc, UC_MIPS_REG_PC, &v) == UC_ERR_OK;
}

bool core_debug_write_reg(Core *c, unsigned n, uint32_t v)
{
    int reg = n >= 1 && n < 32 ? UC_MIPS_REG_0 + (int)n
            : n == 33 ? UC_MIPS_REG_LO : n == 34 ? UC_MIPS_REG_HI : n == CORE_DBG_PC ? UC_MIPS_REG_PC : -1;
    if (n == 0)
        return true;               /* $zero */
    if (n >= 38 && n <= 70)
        return core_fpu_write(c, n - 38, v); /* f0-f31, 70: fcsr (fpr.c) */
    if (reg < 0 || !core_live(c))
        return false;
    if (reg == UC_MIPS_REG_PC) {
        if (v & 1)
            return false;          /* MIPS16e: the platform has none (elfload's entry) */
        if (c->dbg && c->dbg->in_hook)
            return redirect(c, v);
        if (c->in_run)
            return false;          /* waiting inside an instruction (a sync point) */
        c->pc = v;
    }
    return uc_reg_write(c->uc, reg, &v) == UC_ERR_OK;
}

/* RAM only, through kseg0 or kseg1 */
static bool ram_range(Core *c, uint32_t vaddr, uint32_t len, uint32_t *phys)
{
    if (vaddr < 0x80000000u || vaddr >= 0xC0000000u || !len)
        return false;
    *phys = mips_phys(vaddr);
    return (uint64_t)*phys + len <= c->cfg->ram_size;
}

bool core_debug_read_mem(Core *c, uint32_t vaddr, uint8_t *buf, uint32_t len)
{
    uint32_t phys;
    if (!ram_range(c, vaddr, len, &phys))
        return false;
    memcpy(buf, c->ram + phys, len);   /* RAM is nocprof's memory (smc.c) */
    return true;
}

bool core_debug_write_mem(Core *c, uint32_t vaddr, const uint8_t *buf, uint32_t len)
{
    uint32_t phys;
    if (!ram_range(c, vaddr, len, &phys))
        return false;
    memcpy(c->ram + phys, buf, len);
    /* what was translated of these bytes (and nocprof's block data) is
     * dropped: it runs as written from now on */
    smc_invalidate(c, phys, len);
    return true;
}

void core_debug_ended(Core *c)
{
    CoreDebug *d = c->dbg;
    if (!d || d->ended || core_live(c) || c->state == CORE_EXITED || c->state == CORE_INTERRUPTED)
        return;
    d->ended = true;
    d->ops.stop(d->ops.opaque, c, DBG_STOP_ENDED, core_debug_pc(c), 0, 0);
}

void core_debug_history(Core *c, uint64_t *prev, uint64_t *last, uint32_t *last_pc)
{
    *prev = c->dbg->prev;
    *last = c->dbg->last;
    *last_pc = c->dbg->last_pc;
}

DbgStop core_debug_hit(Core *c, uint32_t pc, uint32_t *data, int *kind)
{
    CoreDebug *d = c->dbg;
    *data = 0;
    *kind = 0;
    if (d->watches->len && !in_delay_slot(c, pc) && watch_before(c, pc)) {
        d->watch_branch = pc;
        *data = d->watch_addr;
        *kind = d->watch_kind;
        return DBG_STOP_WATCH;
    }
    if (g_hash_table_contains(d->bps, GUINT_TO_POINTER(mips_phys(pc))))
        return DBG_STOP_BREAK;
    return DBG_STOP_REQUEST;
}

void core_debug_points(Core *c, GArray *bps, GArray *watches)
{
    GHashTableIter it;
    gpointer key;
    g_hash_table_iter_init(&it, c->dbg->bps);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        guint a = GPOINTER_TO_UINT(key);
        g_array_append_val(bps, a);
    }
    g_array_append_vals(watches, c->dbg->watches->data, c->dbg->watches->len);
}

uint64_t core_debug_stop_cycle(Core *c)
{
    return c->dbg->stop_cycle;
}

void core_debug_reset(Core *c, const GArray *bps, const GArray *watches, uint64_t stop_cycle)
{
    CoreDebug *d = c->dbg;
    g_hash_table_remove_all(d->bps);
    for (guint i = 0; i < bps->len; i++)
        g_hash_table_add(d->bps, GUINT_TO_POINTER(g_array_index(bps, guint, i)));
    g_array_set_size(d->watches, 0);
    g_array_append_vals(d->watches, watches->data, watches->len);
    d->stop_cycle = stop_cycle;
    d->step = d->req = false;
    d->watch_branch = 0;
}

bool core_big_endian(const Core *c)
{
    return c->img->big_endian;
}

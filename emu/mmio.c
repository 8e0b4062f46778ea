// SPDX-License-Identifier: GPL-2.0-or-later
/* mmio.c — the core's device windows: locate the accessing instruction,
 * charge `mmio` instead of `load`/`store`, check the access size, and pass
 * the register access to the device mapped in that window. */
#include "emu/core_priv.h"

#include "nocprof/platform.h"

static const char *const slot_names[CORE_NSLOTS] = { "SYS", "TIMER", "IRQC", "NI" };

void core_map_device(Core *c, unsigned slot, const DevOps *ops, void *opaque,
                     uint32_t (*irq_poll)(void *opaque))
{
    g_return_if_fail(slot < CORE_NSLOTS);
    c->dev[slot] = (DevSlot){ .ops = ops, .opaque = opaque };
    if (irq_poll) {
        c->irqc.poll = irq_poll;
        c->irqc.poll_opaque = opaque;
    }
}

bool core_sync_point(Core *c, uint64_t t, uint32_t pc)
{
    if (!core_sync(c, t, pc))
        return false;
    if (c->irqc.refresh)
        c->irqc.refresh(c->irqc.refresh_opaque, t);
    return core_sync_end(c, pc);
}

void mmio_access_undo(Core *c)
{
    c->acc.delta -= c->acc.extra;
    c->acc.extra = 0;
}

void mmio_access_extra(Core *c, const Block *b, int64_t delta)
{
    if (!CORE_ACC_OF(c, b))
        c->acc = (CoreAccess){ .block = b, .count = b->count };
    c->acc.delta += delta;
}

void mmio_access_restart(Core *c, const Block *b)
{
    c->acc = (CoreAccess){ .block = b, .count = b->count };
}

/* Instruction i of the current block (-1: not found), at pc, made an
 * uncached access (a device, or RAM through kseg1): it costs `mmio` more
 * than a cached access, for which its static cost charged `ram` extra
 * cycles (flat: `load`/`store`; 24k: none). The difference is charged
 * there, mid-block, where the following instructions, samples, CYCLE_LO,
 * Count and the cycle limit see it. False when the core stopped before
 * the access (the cycle limit). */
bool mmio_charge(Core *c, int i, uint32_t pc, uint64_t now, unsigned ram)
{
    Block *cb = core_current_block(c);
    int64_t delta = (int64_t)c->cfg->timing.mmio - (int64_t)ram;
    if (delta > 0 && cb && c->cycles + (uint64_t)delta - c->cut.slack > c->cfg->max_cycles) {
        /* the access would end its block (or the prefix the limit left of
         * it, block.c) past the cycle limit: the core stops before it */
        block_truncate(c, pc);
        c->pc = pc;
        core_stop(c, CORE_LIMIT);
        return false;
    }
    if (cb && !CORE_ACC_OF(c, cb))
        c->acc = (CoreAccess){ .block = cb, .count = cb->count };
    if (delta && cb && i >= 0) { /* samples past the access move to the instructions really there */
        c->acc.insn = (uint32_t)i;
        c->acc.at = now;
        c->acc.extra = delta;
        sample_retime(c, cb, (uint32_t)i, now, delta);
    }
    else if (delta < 0 && cb) /* the block ends earlier: samples past its new end were not due */
        sample_untake(c, cb, block_start(c, cb), (uint64_t)((int64_t)c->cycles + delta));
    c->cycles = (uint64_t)((int64_t)c->cycles + delta);
    if (cb) {
        cb->extra += delta;
        if (i >= 0)
            block_note_extra(cb, (uint32_t)i, delta);
        c->acc.delta += delta;
    }
    if (c->next_sample < c->cycles)
        sample_range(c, c->cycles, pc);
    return true;
}

/* Find the instruction, charge the MMIO cost, check size. */
static DevSlot *access_begin(Core *c, uint64_t offset, unsigned size, bool write, DevAccess *a)
{
    uint32_t phys = NP_MMIO_PHYS + (uint32_t)offset;
    int i = exc_locate_access(c, phys);
    unsigned slot = (unsigned)(offset / NP_DEV_SIZE);
    *a = (DevAccess){ .reg = (uint32_t)(offset % NP_DEV_SIZE) };
    DevSlot *d = slot < CORE_NSLOTS ? &c->dev[slot] : NULL;
    Block *cb = core_current_block(c);
    a->pc = exc_insn_pc(c, i);
    a->now = exc_insn_cycle(c, i);
    const Timing *t = &c->cfg->timing;
    /* the static cost charged a RAM access: flat, `load`/`store` extra; 24k, none */
    if (!mmio_charge(c, i, a->pc, a->now, t->model == TIMING_FLAT ? (write ? t->store : t->load) : 0))
        return NULL;
    c->unc_acc[write]++; /* PerfCnt event 33 (cp0_perf.c) */
    const char *name = slot < CORE_NSLOTS ? slot_names[slot] : "MMIO";
    /* ldc1/sdc1 (opcodes 0x35, 0x3D: mips_mem_operand's only 8-byte
     * accesses): Unicorn passes it on as two word accesses */
    if (cb && i >= 0 && (uint32_t)i < cb->ninsns && ((cb->words[i] >> 26) == 0x35u || (cb->words[i] >> 26) == 0x3Du))
        size = 8;
    if (size != 4) {
        core_raise(c, "bus-error", a->pc, "%u-byte %s of %s register at offset 0x%03x (pc 0x%08x): "
                   "device registers are 32-bit, word access only",
                   size, write ? "write" : "read", name, a->reg, a->pc);
        return NULL;
    }
    if (!d || !d->ops) {
        core_raise(c, "bus-error", a->pc, "%s of %s register at offset 0x%03x (pc 0x%08x): no such device",
                   write ? "write" : "read", name, a->reg, a->pc);
        return NULL;
    }
    return d;
}

/* The device's verdict: an undefined offset or a rejected access faults. */
static bool access_end(Core *c, unsigned slot, DevAccess *a, bool known, bool write)
{
    if (!known) {
        core_raise(c, "bus-error", a->pc, "%s of undefined %s offset 0x%03x (pc 0x%08x)",
                   write ? "write" : "read", slot_names[slot], a->reg, a->pc);
        return false;
    }
    if (a->fault_msg) {
        core_raise(c, a->fault_kind, a->pc, "%s", a->fault_msg);
        g_free(a->fault_msg);
        return false;
    }
    return true;
}

static uint64_t read_access(Core *c, uint64_t offset, unsigned size)
{
    DevAccess a;
    DevSlot *d;
    if (c->state != CORE_RUNNING || !(d = access_begin(c, offset, size, false, &a)))
        return 0;
    uint32_t v = 0;
    bool sync = d->ops->sync;
    if (sync && !core_sync(c, a.now, a.pc))
        return 0;
    bool known = d->ops->read(d->opaque, &a, &v);
    if (sync && !core_sync_end(c, a.pc)) {
        g_free(a.fault_msg);
        return 0;
    }
    if (!access_end(c, (unsigned)(d - c->dev), &a, known, false))
        return 0;
    if (a.changed)
        core_update_next_event(c);
    if (a.poll)
        block_poll_failed(c, a.pc, a.now, a.poll_tx);
    return v;
}

static void write_access(Core *c, uint64_t offset, unsigned size, uint64_t value)
{
    DevAccess a;
    DevSlot *d;
    if (c->state != CORE_RUNNING || !(d = access_begin(c, offset, size, true, &a)))
        return;
    /* the first CONSOLE write after a wait is progress for the livelock
     * watch: a sync point, so it is seen at its cycle in every schedule */
    bool console = c->console_sync && d == &c->dev[0] && a.reg == NP_SYS_CONSOLE;
    bool sync = d->ops->sync || console;
    if (sync && !core_sync(c, a.now, a.pc))
        return;
    if (console)
        c->sched.progress(c->sched.opaque, c, a.now);
    bool known = d->ops->write(d->opaque, &a, (uint32_t)value);
    if (sync && !core_sync_end(c, a.pc)) {
        g_free(a.fault_msg);
        return;
    }
    if (access_end(c, (unsigned)(d - c->dev), &a, known, true) && c->state == CORE_RUNNING)
        core_update_next_event(c);
}

/* The device callbacks; then the D-cache's predicted accesses after this
 * one (dcache.c), which come after it in the block. */
uint64_t mmio_read(uc_engine *uc, uint64_t offset, unsigned size, void *opaque)
{
    Core *c = opaque;
    (void)uc;
    uint64_t v = read_access(c, offset, size);
    if (G_UNLIKELY(c->dres.block))
        dcache_after_device(c, (uint32_t)v);
    return v;
}

void mmio_write(uc_engine *uc, uint64_t offset, unsigned size, uint64_t value, void *opaque)
{
    Core *c = opaque;
    (void)uc;
    write_access(c, offset, size, value);
    if (G_UNLIKELY(c->dres.block))
        dcache_after_device(c, 0);
}

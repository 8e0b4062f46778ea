// SPDX-License-Identifier: GPL-2.0-or-later
/* core.c — one MIPS32 core on Unicorn: set-up, the run and idle loops,
 * interrupt delivery and the core's accessors. Blocks: block.c; faults:
 * exc.c; sampling: sample.c; device windows: mmio.c, dev_*.c. See core.h
 * for the time model. */
#include "emu/core_priv.h"
#include "emu/debug.h"

#include "base/bytes.h"
#include "nocprof/platform.h"
#include "emu/uc_check.h"

const char *core_state_name(CoreState s)
{
    static const char *const names[] = {
        [CORE_RUNNING] = "running", [CORE_IDLE] = "idle", [CORE_EXITED] = "exited",
        [CORE_FAULT] = "fault", [CORE_LIMIT] = "limit", [CORE_DEADLOCK] = "deadlock",
        [CORE_INTERRUPTED] = "interrupted",
    };
    return names[s];
}

unsigned core_id(const Core *c) { return c->id; }
CoreState core_state(const Core *c) { return c->state; }
int core_exit_code(const Core *c) { return c->exit_code; }
const CoreFault *core_fault(const Core *c) { return &c->fault; }
uint64_t core_cycles(const Core *c) { return c->cycles; }
uint32_t core_pc(const Core *c) { return c->pc; }

uint64_t core_idle_cycles(const Core *c) { return c->idle_cycles; }
uint32_t core_stack_top(const Core *c) { return c->sp_top; }
uint32_t core_stack_lowest(const Core *c) { return c->sp_low; }
/* A core stopped inside a handler (a fault, the cycle limit, a signal)
 * spent its cycles since the entry there too, as the profile says */
uint64_t core_irq_cycles(const Core *c)
{
    return c->irq.cycles + (c->irq.in && !core_live(c) ? c->cycles - c->irq.start : 0);
}
uint64_t core_interrupts(const Core *c) { return c->irq.count; }
uint64_t core_waits(const Core *c) { return c->waits; }

const char *core_console(const Core *c, size_t *len)
{
    *len = c->sys.head->len;
    return c->sys.head->str;
}

uint64_t core_console_total(const Core *c)
{
    return c->sys.console_total;
}

void core_flush_console(Core *c)
{
    dev_sys_flush(&c->sys);
}

bool core_live(const Core *c)
{
    return c->state == CORE_RUNNING || c->state == CORE_IDLE;
}

/* A Unicorn call failed while running: the core faults ("emulator"). */
G_GNUC_NO_INLINE void core_uc_failed(Core *c, uc_err err, const char *what)
{
    g_autoptr(GError) e = NULL;
    if (!uc_check(err, &e, "%s", what))
        core_raise(c, "emulator", c->pc, "core %u: %s", c->id, e->message);
}

/* Register reads go through the Core (reg_buf, sp_buf): no local whose
 * address escapes, no stack canary on these hot calls. */
uint32_t core_reg(Core *c, int reg)
{
    c->reg_buf = 0;
    core_uc_ok(c, uc_reg_read(c->uc, reg, &c->reg_buf), "register read");
    return c->reg_buf;
}

uint32_t core_read_gpr(Core *c, unsigned n)
{
    return core_gpr(c, n);
}

uint32_t core_read_sp(Core *c)
{
    if (G_LIKELY(c->gpr))
        return c->gpr[29];
    c->sp_buf = 0;
    core_uc_ok(c, uc_reg_read(c->uc, UC_MIPS_REG_SP, &c->sp_buf), "register read");
    return c->sp_buf;
}

const volatile uint32_t *core_gpr_file(const Core *c)
{
    return c->gpr;
}

static void write_reg(Core *c, int reg, uint32_t v)
{
    core_uc_ok(c, uc_reg_write(c->uc, reg, &v), "register write");
}

uint32_t core_guest_word(const Core *c, const uint8_t *p)
{
    return bytes_get32(p, c->img->big_endian);
}

void core_stop(Core *c, CoreState state)
{
    c->state = state;
    c->stopping = true;
    c->next_event = 0;
    core_set_deadline(c, 0);
    core_uc_ok(c, uc_emu_stop(c->uc), "stop");
}

/* ---- interrupts ------------------------------------------------------ */

bool core_timer_irq_enabled(const Core *c)
{
    return (c->irqc.enable & NP_IRQ_TIMER) != 0;
}

bool core_irq_network(const Core *c)
{
    return (c->irqc.enable & (NP_IRQ_NOC_RX | NP_IRQ_NOC_TX)) != 0;
}

uint32_t core_irq_enabled(const Core *c)
{
    return c->irqc.enable;
}

static void irq_names(GString *o, uint32_t bits, bool paren)
{
    static const char *const names[] = { "timer", "NoC receive", "NoC transmit-ready" };
    bool first = true;
    for (unsigned k = 0; k < 3; k++)
        if (bits & (1u << k)) {
            g_string_append_printf(o, "%s%s", first ? (paren ? " (" : " ") : ", ", names[k]);
            first = false;
        }
    g_string_append(o, first || !paren ? "" : ")");
}

char *core_irq_explain(Core *c)
{
    uint32_t pend = dev_irqc_pending(&c->irqc), en = c->irqc.enable;
    uint32_t status = core_read_cp0(c, NP_CP0_STATUS);
    bool im7 = (status & (1u << 15)) != 0;
    GString *o = g_string_new("IRQC ENABLE ");
    g_string_append_printf(o, "0x%x", en);
    irq_names(o, en, true);
    g_string_append_printf(o, ", PENDING 0x%x", pend);
    irq_names(o, pend, true);
    if (c->timer.expiry != UINT64_MAX)
        g_string_append_printf(o, "; TIMER runs, next expiry at cycle %" G_GUINT64_FORMAT "%s", c->timer.expiry,
                               (c->timer.ctrl & 2u) ? "" : " (CTRL bit 1 clear: it raises no interrupt)");
    else
        g_string_append(o, "; TIMER stopped");
    g_string_append_printf(o, "; Status.IM7 %d (CP0 timer)", im7);
    /* transmit-ready is a level that is up whenever there is room: not an event */
    uint32_t lost = pend & ~en & (NP_IRQ_TIMER | NP_IRQ_NOC_RX);
    if (lost) {
        g_string_append(o, ": the");
        irq_names(o, lost, false);
        g_string_append(o, " line is raised but not enabled in IRQC ENABLE, so it wakes nothing (a lost "
                        "interrupt: rt_irq_enable(RT_IRQ_BIT(n)) enables line n)");
    } else if (c->timer.expiry != UINT64_MAX && (c->timer.ctrl & 2u) && !(en & NP_IRQ_TIMER)) {
        g_string_append_printf(o, ": the TIMER raises its line at cycle %" G_GUINT64_FORMAT " but the timer line "
                               "is not enabled in IRQC ENABLE, so it will wake nothing (a lost interrupt: "
                               "rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER)) enables it)", c->timer.expiry);
    } else if (!en && !im7) {
        g_string_append(o, ": no interrupt source is enabled, nothing can wake this core");
    } else if (en == NP_IRQ_TIMER && !im7 && (c->timer.expiry == UINT64_MAX || !(c->timer.ctrl & 2u))) {
        g_string_append(o, ": the only enabled line is the TIMER's, and it will not raise it");
    }
    return g_string_free(o, FALSE);
}

void core_watch_console(Core *c, bool on)
{
    c->console_sync = on && c->sched.progress;
}

void core_refresh_net(Core *c)
{
    dev_irqc_refresh_net(&c->irqc);
}

bool core_sync(Core *c, uint64_t t, uint32_t pc)
{
    if (!c->sched.sync) {
        core_refresh_net(c);
        return true;
    }
    if (c->sched.sync(c->sched.opaque, c, t)) {
        core_refresh_net(c);
        return true;
    }
    /* halted while waiting: the instruction at pc does not complete */
    block_truncate(c, pc);
    c->pc = pc;
    core_stop(c, c->state);
    return false;
}

bool core_sync_end(Core *c, uint32_t pc)
{
    core_refresh_net(c);
    if (!c->sched.sync_done || c->sched.sync_done(c->sched.opaque, c))
        return true;
    /* the run ends here (a livelock found by this very access): stop
     * before pc like every other core stopped at its sync point */
    block_truncate(c, pc);
    c->pc = pc;
    core_stop(c, c->state);
    return false;
}

bool core_irqc_output(const Core *c)
{
    return c->irqc.enable && (dev_irqc_pending(&c->irqc) & c->irqc.enable);
}

/* A failed read faults the core (and reads 0): the core's state is not
 * logically const there. */
static uint32_t status_of(const Core *c)
{
    uint32_t st = 0;
    core_uc_ok((Core *)c, uc_reg_read(c->uc, UC_MIPS_REG_CP0_STATUS, &st), "read CP0 Status");
    return st;
}

/* The CP0 timer is pending and Status.IM7 unmasks it. */
static bool core_cp0_timer_wanted(const Core *c)
{
    return cp0_timer_line(c) && (status_of(c) & NP_ST_IM7);
}

/* A line is up and unmasked (IRQC: by ENABLE, CP0 timer: by IM7): it
 * wakes `wait`. */
bool core_irq_wanted(const Core *c)
{
    return core_irqc_output(c) || core_cp0_timer_wanted(c);
}

/* SPEC section 1: taken when (IM2 & IP2) or (IM7 & IP7), IE=1, EXL=0, ERL=0. */
bool core_irq_allowed(const Core *c, uint32_t st)
{
    if ((st & (NP_ST_IE | NP_ST_EXL | NP_ST_ERL)) != NP_ST_IE)
        return false;
    return ((st & NP_ST_IM2) && core_irqc_output(c)) || ((st & NP_ST_IM7) && cp0_timer_line(c));
}

void core_update_next_event(Core *c)
{
    if (c->stopping) {
        c->next_event = 0;
        core_set_deadline(c, 0);
        return;
    }
    if (__atomic_fetch_and(&c->rare, ~CORE_RARE_YIELD, __ATOMIC_RELAXED) & CORE_RARE_YIELD)
        c->slice_end = MIN(c->slice_end, c->cycles); /* stop at the next boundary */
    uint64_t e = MIN(c->slice_end, c->timer.expiry);
    e = MIN(e, MIN(c->cfg->max_cycles, MIN(c->cp0.match_at, c->cp0.perf_chk)));
    if (core_irq_wanted(c) || core_irq_network(c))
        e = 0; /* network lines are tested at every boundary */
    c->next_event = e;
    core_set_deadline(c, MIN(e, c->next_sample));
}

/* Take the interrupt: EPC (via $k0 and the stub) = epc, EXL = 1. */
static void deliver(Core *c, uint32_t epc, uint32_t status, bool in_hook)
{
    write_reg(c, UC_MIPS_REG_K0, epc);
    c->cp0.epc = epc;
    status |= NP_ST_EXL;
    write_reg(c, UC_MIPS_REG_CP0_STATUS, status);
    if (in_hook)
        write_reg(c, UC_MIPS_REG_PC, CORE_STUB_VADDR);
    c->pc = CORE_STUB_VADDR;
    c->irq.count++;
    cp0_perf_switch(c, true, c->cycles);
    c->irq.start = c->cycles;
    c->prev = &c->irq_marker;
    if (c->hooks.interrupt)
        c->hooks.interrupt(c->hooks.opaque, epc, c->cycles);
}

void core_irq_return(Core *c, uint64_t now)
{
    if (c->irq.in) {
        cp0_perf_switch(c, false, now);
        c->irq.cycles += now - c->irq.start;
    }
}

bool core_events(Core *c, uint32_t addr, bool delay_slot)
{
    if (c->stopping)
        return true;
    if (c->cycles >= c->timer.expiry)
        dev_timer_fire(&c->timer, c->cycles);
    cp0_fire(c, c->cycles);
    if (c->cycles >= c->cp0.perf_chk)
        cp0_perf_recheck(c, c->cycles);
    if (c->cycles >= c->cfg->max_cycles) {
        c->pc = addr;
        core_stop(c, CORE_LIMIT);
        return true;
    }
    if (delay_slot) {
        /* the delay slot of a branch that ended the previous block (page
         * end): neither an interrupt nor a stop may come between them, or
         * the branch would be lost; the next boundary takes them */
        core_update_next_event(c);
        return false;
    }
    if (core_irq_network(c)) {
        /* the lines at this boundary need the network's state now */
        if (!core_sync(c, c->cycles, addr) || !core_sync_end(c, addr))
            return true;
    }
    if (core_irq_wanted(c)) {
        uint32_t st = core_reg(c, UC_MIPS_REG_CP0_STATUS);
        if (core_irq_allowed(c, st)) {
            deliver(c, addr, st, true);
            core_update_next_event(c);
            return true;
        }
    }
    if (c->cycles >= c->slice_end) {
        c->pc = addr;
        c->stopping = true;
        core_uc_ok(c, uc_emu_stop(c->uc), "stop");
        return true;
    }
    core_update_next_event(c);
    return false;
}

/* Before the instruction at pc (cycle t) of the current block, which
 * follows one that may have made an interrupt takable (mtc0 Status, ei,
 * mtc0 Compare/Count; called from its code hook): when one is takable now,
 * the block ends here and it is taken (EPC = pc). True when the block
 * ended here. */
bool core_irq_check_here(Core *c, uint32_t pc, uint64_t t)
{
    if (c->stopping || !core_current_block(c))
        return false;
    if (c->timer.expiry <= t)
        dev_timer_fire(&c->timer, t);
    cp0_fire(c, t);
    if (core_irq_network(c) && !core_sync_point(c, t, pc))
        return true; /* halted: stopped before pc */
    uint32_t st = core_reg(c, UC_MIPS_REG_CP0_STATUS);
    if (!core_irq_wanted(c) || !core_irq_allowed(c, st))
        return false;
    block_truncate(c, pc);
    c->prev = &c->none;
    deliver(c, pc, st, true);
    core_update_next_event(c);
    return true;
}

/* ---- devices wiring -------------------------------------------------- */

static void sys_exit(void *opaque, int code, uint32_t pc)
{
    Core *c = opaque;
    c->exit_code = code;
    block_truncate(c, pc + 4);
    c->pc = pc + 4; /* where it stopped (gdb's pc of an exited core; was the start of its last run) */
    core_stop(c, CORE_EXITED);
}

/* SYS PROF_CTRL: the client (profiler) starts or stops collecting. The
 * block holding the store has been charged already: collection changes
 * from the next block on. */
static void sys_prof(void *opaque, bool on, uint32_t pc)
{
    Core *c = opaque;
    (void)pc;
    if (c->hooks.prof_ctrl)
        c->hooks.prof_ctrl(c->hooks.opaque, c, on, c->cycles);
}

/* IRQC PENDING read at `now`: a timer expiry already passed fires first. */
static void irqc_refresh(void *opaque, uint64_t now)
{
    Core *c = opaque;
    if (c->timer.expiry <= now)
        dev_timer_fire(&c->timer, now);
}

static void devices_init(Core *c, ConsoleFn console_fn, void *console_opaque)
{
    dev_sys_init(&c->sys, c->id, c->cfg, console_fn, console_opaque);
    c->sys.exit_fn = sys_exit;
    c->sys.prof_fn = sys_prof;
    c->sys.exit_opaque = c;
    dev_timer_init(&c->timer, (IrqLine){ .set = dev_irqc_set, .opaque = &c->irqc, .line = 0 });
    c->irqc.refresh = irqc_refresh;
    c->irqc.refresh_opaque = c;
    core_map_device(c, 0, &dev_sys_ops, &c->sys, NULL);
    core_map_device(c, 1, &dev_timer_ops, &c->timer, NULL);
    core_map_device(c, 2, &dev_irqc_ops, &c->irqc, NULL);
}

/* ---- life cycle ------------------------------------------------------ */

/* Unicorn's translation cache, sized by the firmware's code: 16 bytes per
 * byte of executable segments (host code per guest instruction stays well
 * under 64 bytes with our hooks), a power of two from 1 MiB (QEMU's
 * minimum) to 32 MiB. A fixed 32 MiB per core cost 3.4 MiB of RSS per core
 * for a small app on 256 cores (issue 24); when code outgrows the buffer
 * QEMU flushes it and translates again, which changes no result. */
static size_t tcg_buffer_size(const ElfImage *img)
{
    uint64_t code = 0;
    for (unsigned i = 0; i < img->nsegs; i++)
        if (img->segs[i].exec)
            code += img->segs[i].memsz;
    size_t size = 1u << 20;
    while (size < (32u << 20) && size < 16 * code)
        size <<= 1;
    return size;
}

/* The engine: CPU model, address translation, RAM, stub, devices, hooks. */
static bool engine_open(Core *c, GError **error)
{
    unsigned id = c->id;
    uc_mode mode = UC_MODE_MIPS32 | (c->img->big_endian ? UC_MODE_BIG_ENDIAN : UC_MODE_LITTLE_ENDIAN);
    uc_hook h;
    return uc_check(uc_open(UC_ARCH_MIPS, mode, &c->uc), error, "core %u: uc_open", id)
        && uc_check(uc_ctl_set_cpu_model(c->uc, UC_CPU_MIPS32_24KF), error, "core %u: cpu model", id)
        && uc_check(uc_ctl_set_tcg_buffer_size(c->uc, tcg_buffer_size(c->img)), error, "core %u: tcg buffer", id)
        && uc_check(uc_ctl_tlb_mode(c->uc, UC_TLB_VIRTUAL), error, "core %u: tlb mode", id)
        && uc_check(uc_hook_add(c->uc, &h, UC_HOOK_TLB_FILL, (void *)exc_hook_tlb_fill, c, 1, 0),
                    error, "core %u: tlb hook", id)
        && smc_map_ram(c, error)
        && uc_check(uc_mem_map(c->uc, CORE_STUB_PHYS, 4096, UC_PROT_READ | UC_PROT_EXEC), error, "core %u: map stub", id)
        && uc_check(uc_mmio_map(c->uc, NP_MMIO_PHYS, CORE_NSLOTS * NP_DEV_SIZE, mmio_read, c, mmio_write, c),
                    error, "core %u: map devices", id)
        && uc_check(uc_hook_add(c->uc, &c->block_uh, UC_HOOK_BLOCK,
                                c->cache ? (void *)cache_block_hook : (void *)block_hook_plain, c, 1, 0),
                    error, "core %u: block hook", id)
        /* the D-cache: a hook on RAM's loads and stores, only when on and
         * [cache] d_model = hook (predict: dcache.c, no memory hook) */
        && (!c->cache || c->cfg->cache.d_model != CACHE_D_HOOK || uc_check(uc_hook_add(c->uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, (void *)cache_mem_hook,
                                              c, 0, c->cfg->ram_size - 1), error, "core %u: cache hook", id))
        && uc_check(uc_hook_add(c->uc, &h, UC_HOOK_INTR, (void *)exc_hook_intr, c, 1, 0),
                    error, "core %u: interrupt hook", id)
        && uc_check(uc_hook_add(c->uc, &h, UC_HOOK_MEM_UNMAPPED, (void *)exc_hook_unmapped, c, 1, 0),
                    error, "core %u: unmapped hook", id);
}

/* The image, the interrupt stub and the registers at reset. */
static bool engine_load(Core *c, GError **error)
{
    const ElfImage *img = c->img;
    for (unsigned i = 0; i < img->nsegs; i++)
        if (!uc_check(uc_mem_write(c->uc, img->segs[i].paddr, img->segs[i].data, img->segs[i].filesz),
                      error, "core %u: load segment", c->id))
            return false;
    /* $k0 -> EPC; jump to EBase + 0x180 */
    static const uint32_t stub[] = { 0x409A7000, 0x3C1A8000, 0x375A0180, 0x03400008, 0 };
    uint8_t code[sizeof stub];
    for (unsigned i = 0; i < G_N_ELEMENTS(stub); i++)
        bytes_put32(code + 4 * i, stub[i], img->big_endian);
    const struct { int reg; uint32_t v; } regs[] = {
        { UC_MIPS_REG_PC, img->entry }, { UC_MIPS_REG_A0, c->id }, { UC_MIPS_REG_A1, c->ncores },
        { UC_MIPS_REG_SP, (uint32_t)(NP_KSEG0 + c->cfg->ram_size - 16) },
    };
    if (!uc_check(uc_mem_write(c->uc, CORE_STUB_PHYS, code, sizeof code), error, "core %u: write stub", c->id))
        return false;
    for (unsigned i = 0; i < G_N_ELEMENTS(regs); i++)
        if (!uc_check(uc_reg_write(c->uc, regs[i].reg, &regs[i].v), error, "core %u: set registers", c->id))
            return false;
    return true;
}

Core *core_new(unsigned id, const Config *cfg, const ElfImage *img,
               ConsoleFn console_fn, void *console_opaque, GError **error)
{
    uint32_t nslots = (uint32_t)(cfg->ram_size / 4);
    /* nslots <= 2^26; at least CORE_MIN_SLOTS (core_slot_key) */
    uint32_t mask = (uint32_t)(1u << g_bit_storage(MAX(nslots, CORE_MIN_SLOTS) - 1)) - 1;
    /* btab right after the core (CORE_BTAB), zero pages until code lands */
    /* line 0 of the core is the unprofiled hook's (struct Core) */
    G_STATIC_ASSERT(offsetof(Core, slot_bytes) + sizeof(uint32_t) <= 64);
    /* g_malloc0 and aligned by hand: calloc leaves a big btab in zero
     * pages, g_aligned_alloc0 would write them all */
    void *raw = g_malloc0(sizeof(Core) + ((gsize)mask + 1) * sizeof(intptr_t) + 63);
    Core *c = (Core *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
    c->raw = raw;
    c->nslots = nslots;
    c->slot_mask = mask;
    c->slot_bytes = mask << 2; /* mask < 2^27 */
    c->btab = CORE_BTAB(c);
    c->id = id;
    c->ncores = config_cores(cfg);
    c->cfg = cfg;
    c->img = img;
    c->state = CORE_RUNNING;
    devices_init(c, console_fn, console_opaque);
    c->blocks = g_ptr_array_new_with_free_func(block_free);
    c->prev = &c->none;
    /* an empty btab slot is `none`: every lookup misses (no address + size
     * is odd, no translation has size UINT32_MAX) */
    c->none.key = c->irq_marker.key = BLOCK_KEY_ATTN;
    c->none.size = c->irq_marker.size = UINT32_MAX;
    c->lb_pub = &c->lb_own;
    c->irq_marker.flags = BLOCK_IRQ_ENTRY;
    c->irq_marker.attn_out = true;
    c->irq_marker.leave = true;
    c->irq_marker.qk = BLOCK_QK_SLOW;
    /* a register jump's odd target is checked on the way (Block.chk) */
    c->arrive_mask = CORE_ARRIVE_SLOW;
    c->pc = img->entry;
    c->sp_top = c->sp_low = (uint32_t)(NP_KSEG0 + cfg->ram_size - 16);
    c->sp_limit = img->stack_limit;
    c->sp_floor = MAX(c->sp_low, c->sp_limit);
    cp0_init(c);
    cache_init(c);
    if (!engine_open(c, error) || !engine_load(c, error)) {
        core_free(c);
        return NULL;
    }
    core_locate_gpr(c);
    c->no_mips16 = core_drop_mips16(c);
    sample_init(c);
    return c;
}

void core_free(Core *c)
{
    if (!c)
        return;
    if (c->uc)
        uc_close(c->uc);
    core_debug_free(c);
    smc_clear(c); /* after uc_close: RAM is its memory */
    sample_clear(c);
    cp0_clear(c);
    cache_free(c);
    if (c->loc_marked)
        g_hash_table_destroy(c->loc_marked);
    if (c->jr_hooked)
        g_hash_table_destroy(c->jr_hooked);
    for (unsigned i = 0; i < CORE_NSLOTS; i++)
        if (c->dev[i].ops && c->dev[i].ops->free)
            c->dev[i].ops->free(c->dev[i].opaque);
    g_ptr_array_free(c->blocks, TRUE); /* btab goes with the core */
    dev_sys_clear(&c->sys);
    g_free(c->fault.kind);
    g_free(c->fault.message);
    g_free(c->raw);
}

/* A client without `arrive`: its watched arrivals are not reported. */
static void arrive_none(uint64_t unused, uint64_t now, void *opaque, Core *core, const Block *from,
                        const Block *to)
{
    (void)unused, (void)now, (void)opaque, (void)core, (void)from, (void)to;
}

void core_set_hooks(Core *c, const CoreHooks *hooks)
{
    c->hooks = *hooks;
    CoreArriveFn *before = hooks->arrive ? arrive_before : arrive_none;
    CORE_ARRIVE_TO(c, BLOCK_AQ_RET) = hooks->ret && hooks->arrive ? hooks->ret : before;
    CORE_ARRIVE_TO(c, BLOCK_AQ_CALL) = hooks->call && hooks->arrive ? hooks->call : before;
    CORE_ARRIVE_TO(c, BLOCK_AQ_GEN) = before;
    c->arrive_mask |= MIPS_JREG;
    /* a client: the block hook that tests b->attn (block_hook_plain
     * leaves it to its lookup, which only a client's watch makes slow) */
    uc_hook h;
    if (!c->cache && core_uc_ok(c, uc_hook_del(c->uc, c->block_uh), "replace the block hook")
        && core_uc_ok(c, uc_hook_add(c->uc, &h, UC_HOOK_BLOCK, (void *)block_hook, c, 1, 0), "replace the block hook")) {
        c->block_uh = h;
        c->hook_lone = false;
    }
}

void core_request_yield(Core *c)
{
    core_rare(c, CORE_RARE_YIELD, true);
    core_set_deadline(c, 0);
}

void core_set_sched(Core *c, const CoreSched *sched)
{
    c->sched = *sched;
    c->lb_pub = sched->lb_pub ? sched->lb_pub : &c->lb_own;
    /* a core without a client (nor the cache model's hook) runs
     * block_hook_plain, or block_hook_lone (_24k) without the
     * publication; a later call may change lone either way */
    bool lone = sched->lone;
    uc_hook h;
    if (lone != c->hook_lone && !c->cache && !c->hooks.block_tag && !c->hooks.arrive
        && core_uc_ok(c, uc_hook_del(c->uc, c->block_uh), "replace the block hook")
        && core_uc_ok(c, uc_hook_add(c->uc, &h, UC_HOOK_BLOCK,
                                     !lone ? (void *)block_hook_plain
                                     : c->cfg->timing.model == TIMING_24K ? (void *)block_hook_lone_24k
                                                                          : (void *)block_hook_lone,
                                     c, 1, 0),
                      "replace the block hook")) {
        c->block_uh = h;
        c->hook_lone = lone;
    }
}

bool core_publishes_clock(const Core *c)
{
    return !c->hook_lone;
}

void core_halt(Core *c, CoreState state)
{
    if (c->state == CORE_IDLE && c->hooks.idle && c->cycles > c->idle_from)
        c->hooks.idle(c->hooks.opaque, c->idle_from, c->cycles);
    if (core_live(c))
        c->state = state;
    core_publish_instructions(c);
    if (c->dbg && !c->in_run)
        core_debug_ended(c);
}

void core_fail(Core *c, const char *kind, const char *message)
{
    if (!core_live(c))
        return;
    c->fault.kind = g_strdup(kind);
    c->fault.pc = c->pc;
    c->fault.message = g_strdup(message);
    c->state = CORE_FAULT;
}

/* ---- running and idling ---------------------------------------------- */

static bool after_wait(Core *c, uint32_t pc)
{
    uint8_t w[4];
    if (uc_mem_read(c->uc, mips_phys(pc - 4), w, 4) != UC_ERR_OK)
        return false;
    return (core_guest_word(c, w) & MIPS_WAIT_MASK) == MIPS_WAIT_BITS;
}

/* The `wait` at w ran in the delay slot of a branch of the block that ran
 * (a branch inside a block is followed by its slot): a fault. Unicorn
 * halts there with the branch pending and no API to resume it: waking,
 * it ran the word after the wait as the slot and then branched, or took
 * the interrupt stub as the slot and ran the branch target with EXL set.
 * The assembler never puts a wait in a delay slot either (NODS). */
static bool wait_in_slot(Core *c, uint32_t w)
{
    const Block *b = core_current_block(c);
    if (!b || w <= b->addr || w >= b->addr + b->size)
        return false;
    uint32_t br = b->words[(w - b->addr) / 4 - 1];
    if (!(mips_classify(br) & MIPS_BRANCH))
        return false;
    core_raise(c, "delay-slot", w, "wait in the delay slot of the branch at pc 0x%08x (pc 0x%08x): the "
               "platform cannot resume after it (the assembler never puts wait in a delay slot)", w - 4, w);
    return true;
}

void core_run(Core *c, uint64_t horizon)
{
    unsigned spurious = 0;
    while (c->state == CORE_RUNNING && c->cycles < horizon) {
        c->slice_end = horizon;
        c->stopping = false;
        core_update_next_event(c);
        uint64_t before = c->cycles;
        c->tlb_miss = false;
        CORE_CHECK_RUN(c);
        c->in_run = true;
        uc_err err = uc_emu_start(c->uc, c->pc, 0xFFFFFFFFu, 0, 0);
        c->in_run = false;
        if (c->state != CORE_RUNNING)
            break;
        if (err != UC_ERR_OK) {
            uint32_t pc = core_reg(c, UC_MIPS_REG_PC);
            exc_engine_error(c, err, pc);
            break;
        }
        if (c->stopping) {
            if (c->cut.block)
                block_run_cut(c); /* the cycle limit inside a block */
            break; /* at a sync point or the horizon: c->pc is set */
        }
        uint32_t pc = core_reg(c, UC_MIPS_REG_PC);
        if (after_wait(c, pc) && wait_in_slot(c, pc - 4))
            break;
        c->prev = &c->none;
        if (after_wait(c, pc)) {
            c->pc = pc;
            c->state = CORE_IDLE;
            c->waits++;
            c->idle_from = c->cycles;
            break;
        }
        c->pc = pc;
        if (c->cycles == before && ++spurious > 1000) {
            core_raise(c, "emulator", pc, "emulation makes no progress at pc 0x%08x", pc);
            break;
        }
    }
    core_publish_instructions(c);
    if (c->dbg && !core_live(c))
        core_debug_ended(c);
}

/* The TIMER's next expiry can raise an enabled IRQC line. */
static bool core_timer_wakes(const Core *c)
{
    return (c->irqc.enable & NP_IRQ_TIMER) && dev_timer_irq_cycle(&c->timer) != UINT64_MAX;
}

uint64_t core_wake_cycle(const Core *c)
{
    uint64_t t = core_timer_wakes(c) ? c->timer.expiry : UINT64_MAX;
    if (status_of(c) & NP_ST_IM7)
        t = MIN(t, c->cp0.match_at);
    return t;
}

uint64_t core_local_event(const Core *c)
{
    /* what may interrupt: a TIMER expiry on an enabled IRQC line, a CP0
     * Count/Compare match with IM7; other expiries change nothing a poll
     * loop sees (the timer catches up in closed form at the next boundary).
     * With IM7, also the first cycle a performance counter of instructions,
     * loads, ... may overflow (perf_chk): the loop's own iterations count
     * those events, and the boundary after the crossing raises PCI there
     * (cp0_perf_recheck); skipping past it took the interrupt late */
    uint64_t t = core_wake_cycle(c);
    if (status_of(c) & NP_ST_IM7)
        t = MIN(t, c->cp0.perf_chk);
    return MIN(t, c->cfg->max_cycles);
}

static void idle_to(Core *c, uint64_t to)
{
    if (to <= c->cycles)
        return;
    c->idle_cycles += to - c->cycles;
    c->cycles = to;
    if (c->next_sample < to)
        sample_range(c, to, 0);
}

void core_idle(Core *c, uint64_t until)
{
    if (c->state != CORE_IDLE)
        return;
    uint64_t idle_from = c->idle_from;
    uint64_t limit = c->cfg->max_cycles;
    /* Local lines (the timer, the CP0 timer) may rise on the way; the
     * network lines are as of `until` (the scheduler never lets them rise
     * earlier unseen). */
    while (!(c->irqc.level & c->irqc.enable) && !core_cp0_timer_wanted(c)) {
        /* an expiry that cannot wake the core (its IRQC line disabled, or
         * no interrupt asked) is not a step: the timer catches up at the
         * end in closed form, so a period of 1 costs what none does */
        uint64_t w = MIN(MIN(core_timer_wakes(c) ? c->timer.expiry : UINT64_MAX, c->cp0.match_at),
                         MIN(until, limit));
        idle_to(c, w);
        bool fired = c->cycles >= c->timer.expiry || c->cycles >= c->cp0.match_at;
        if (c->cycles >= c->timer.expiry)
            dev_timer_fire(&c->timer, c->cycles);
        cp0_fire(c, c->cycles);
        if (!fired)
            break;
    }
    if (c->cycles >= limit && !core_irq_wanted(c)) {
        if (c->hooks.idle)
            c->hooks.idle(c->hooks.opaque, idle_from, c->cycles);
        c->idle_from = c->cycles;
        c->state = CORE_LIMIT;
        core_publish_instructions(c);
        return;
    }
    if (!core_irq_wanted(c))
        return; /* still idle */
    if (c->hooks.idle)
        c->hooks.idle(c->hooks.opaque, idle_from, c->cycles);
    c->state = CORE_RUNNING;
    uint32_t st = core_reg(c, UC_MIPS_REG_CP0_STATUS);
    if (core_irq_allowed(c, st))
        deliver(c, c->pc, st, false);
}

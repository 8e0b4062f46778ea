/* core.c — one MIPS32 core on Unicorn: block hook, devices, interrupts,
 * faults. See core.h for the time model. */
#include "core.h"
#include "mips.h"

#include <string.h>

#define STATUS_IE 0x1u
#define STATUS_EXL 0x2u
#define STATUS_ERL 0x4u
#define STATUS_IM2 0x400u

#define IRQ_TIMER 0x1u
#define IRQ_RX 0x2u
#define IRQ_TX 0x4u

#define TIMER_EN 0x1u
#define TIMER_IRQ 0x2u
#define TIMER_PERIODIC 0x4u

enum { DEV_SYS, DEV_TIMER, DEV_IRQC, DEV_NI, DEV_COUNT };
static const char *const dev_names[DEV_COUNT] = { "SYS", "TIMER", "IRQC", "NI" };

const char *core_state_name(CoreState s)
{
    static const char *const names[] = {
        [CORE_RUNNING] = "running", [CORE_IDLE] = "idle", [CORE_EXITED] = "exited",
        [CORE_FAULT] = "fault", [CORE_LIMIT] = "limit", [CORE_DEADLOCK] = "deadlock",
        [CORE_INTERRUPTED] = "interrupted",
    };
    return names[s];
}

bool core_live(const Core *c)
{
    return c->state == CORE_RUNNING || c->state == CORE_IDLE;
}

uint32_t core_read_reg(Core *c, int reg)
{
    uint32_t v = 0;
    uc_reg_read(c->uc, reg, &v);
    return v;
}

static void write_reg(Core *c, int reg, uint32_t v)
{
    uc_reg_write(c->uc, reg, &v);
}

static uint32_t guest_word(const Core *c, const uint8_t *p)
{
    return c->img->big_endian
        ? ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3])
        : ((uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]);
}

static void put_guest_word(const Core *c, uint8_t *p, uint32_t w)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(c->img->big_endian ? w >> (24 - 8 * i) : w >> (8 * i));
}

/* ---- faults ---------------------------------------------------------- */

static void stop_core(Core *c, CoreState state)
{
    c->state = state;
    c->stopping = true;
    c->next_event = c->deadline = 0;
    uc_emu_stop(c->uc);
}

static void block_truncate(Core *c, uint32_t end_pc);

static void fault(Core *c, const char *kind, uint32_t pc, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static void fault(Core *c, const char *kind, uint32_t pc, const char *fmt, ...)
{
    if (c->state == CORE_FAULT)
        return; /* keep the first */
    va_list ap;
    va_start(ap, fmt);
    c->fault.kind = g_strdup(kind);
    c->fault.pc = pc;
    c->fault.message = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    block_truncate(c, pc); /* the faulting instruction did not complete */
    stop_core(c, CORE_FAULT);
}

/* ---- blocks ---------------------------------------------------------- */

static Block *block_new(Core *c, uint32_t addr, uint32_t size)
{
    Block *b = g_new0(Block, 1);
    b->addr = addr;
    b->size = size;
    b->ninsns = size / 4;
    b->fallthrough = addr + size;
    b->icost = g_new(uint8_t, b->ninsns ? b->ninsns : 1);
    b->words = g_new0(uint32_t, b->ninsns ? b->ninsns : 1);
    b->func = -1;
    g_autofree uint8_t *bytes = g_malloc(size ? size : 4);
    bool readable = size && uc_mem_read(c->uc, mips_phys(addr), bytes, size) == UC_ERR_OK;
    const Timing *t = &c->cfg->timing;
    uint32_t ctl = 0;
    for (uint32_t i = 0; i < b->ninsns; i++) {
        uint32_t w = readable ? guest_word(c, bytes + 4 * i) : 0;
        unsigned cls = mips_classify(w);
        b->words[i] = w;
        if (cls & (MIPS_LOAD | MIPS_STORE))
            b->nmem++;
        unsigned cost = 1;
        if (cls & MIPS_LOAD) cost += t->load;
        if (cls & MIPS_STORE) cost += t->store;
        if (cls & MIPS_MUL) cost += t->mul;
        if (cls & MIPS_DIV) cost += t->div;
        b->icost[i] = (uint8_t)MIN(cost, 255u);
        b->cost += b->icost[i];
        if (!b->flags && (cls & (MIPS_BRANCH | MIPS_ERET))) {
            b->flags = cls;
            b->branch_pc = addr + 4 * i;
            b->branch_insn = w;
            ctl = i;
        }
    }
    b->mem = g_new(uint16_t, b->nmem ? b->nmem : 1);
    for (uint32_t i = 0, k = 0; i < b->ninsns; i++)
        if (mips_classify(b->words[i]) & (MIPS_LOAD | MIPS_STORE))
            b->mem[k++] = (uint16_t)i;
    if (b->flags & MIPS_BRANCH) {
        uint32_t target;
        b->bt = t->branch_taken;
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
    }
    if (c->hooks.block_func)
        b->func = c->hooks.block_func(c->hooks.opaque, addr, &b->entry);
    b->attn = b->entry;
    b->attn_out = (b->flags & c->arrive_mask) != 0;
    g_ptr_array_add(c->blocks, b);
    return b;
}

static void block_free(gpointer p)
{
    Block *b = p;
    g_free(b->icost);
    g_free(b->words);
    g_free(b->mem);
    g_free(b);
}

G_GNUC_NO_INLINE static Block *block_lookup_slow(Core *c, uint32_t addr, uint32_t size)
{
    if (addr == CORE_STUB_VADDR || c->stopping)
        return NULL;
    uint32_t idx = mips_phys(addr) >> 2;
    if (idx >= c->nslots) {
        fault(c, "fetch-outside-ram", addr, "instruction fetch at 0x%08x outside RAM", addr);
        return NULL;
    }
    return c->btab[idx] = block_new(c, addr, size);
}

/* The block executing now (the hook sets prev to it before it runs). */
static Block *current_block(const Core *c)
{
    Block *b = c->prev;
    return b == &c->none || b == &c->irq_marker ? NULL : b;
}

/* Instruction word i of b, host order. */
static uint32_t block_word(Core *c, const Block *b, uint32_t i)
{
    return i < b->ninsns ? b->words[i] : 0;
}

/* ---- sampling -------------------------------------------------------- */

static void hist_add(Core *c, Histogram *h, uint32_t pc)
{
    h->total++;
    if (pc == 0)
        h->idle++;
    else if (pc >= c->hist_lo && pc < c->hist_hi)
        h->bins[(pc - c->hist_lo) >> 2]++;
    else
        h->outside++;
}

static void update_next_sample(Core *c)
{
    uint64_t next = UINT64_MAX;
    for (unsigned i = 0; i < c->nhists; i++)
        next = MIN(next, c->hists[i].next);
    c->next_sample = next;
    c->deadline = MIN(c->next_event, next);
}

/* Samples in [from, to) all land on pc (0 = idle). */
static void sample_range(Core *c, uint64_t to, uint32_t pc)
{
    for (unsigned i = 0; i < c->nhists; i++) {
        Histogram *h = &c->hists[i];
        if (pc == 0 && h->next < to) {
            uint64_t n = (to - 1 - h->next) / h->period + 1;
            h->idle += n;
            h->total += n;
            h->next += n * h->period;
        }
        while (h->next < to) {
            hist_add(c, h, pc);
            h->next += h->period;
        }
    }
    update_next_sample(c);
}

/* Samples inside block b that started at `start`: each lands on the
 * instruction occupying that cycle; cycles before `start` (a taken branch
 * charged at this boundary) land on `before_pc`. */
G_GNUC_NO_INLINE static void sample_block(Core *c, const Block *b, uint32_t before_pc, uint64_t start, uint64_t end)
{
    for (unsigned i = 0; i < c->nhists; i++) {
        Histogram *h = &c->hists[i];
        if (h->next >= end)
            continue; /* only the periods that are due */
        while (h->next < start) {
            hist_add(c, h, before_pc ? before_pc : b->addr);
            h->next += h->period;
        }
        uint64_t acc = start;
        uint32_t k = 0;
        while (h->next < end) { /* samples come in cycle order: walk on */
            while (k + 1 < b->ninsns && acc + b->icost[k] <= h->next)
                acc += b->icost[k++];
            hist_add(c, h, b->addr + 4 * k);
            h->next += h->period;
        }
    }
    update_next_sample(c);
}

/* The current block stops before end_pc (exit or fault inside it): take
 * back the cycles, instructions and samples of what did not run. */
static void block_truncate(Core *c, uint32_t end_pc)
{
    Block *b = current_block(c);
    if (!b || end_pc < b->addr || end_pc >= b->addr + b->size)
        return;
    uint32_t k = (end_pc - b->addr) / 4;
    uint64_t start = c->cycles - b->cost, removed = 0, cut = start;
    for (uint32_t i = 0; i < b->ninsns; i++) {
        if (i < k)
            cut += b->icost[i];
        else
            removed += b->icost[i];
    }
    for (unsigned h = 0; h < c->nhists; h++) {
        Histogram *hi = &c->hists[h];
        while (hi->next >= hi->period && hi->next - hi->period >= cut && hi->next - hi->period < c->cycles) {
            uint64_t s = hi->next - hi->period, acc = start;
            uint32_t i = 0;
            while (i + 1 < b->ninsns && acc + b->icost[i] <= s)
                acc += b->icost[i++];
            uint32_t pc = b->addr + 4 * i;
            if (pc >= c->hist_lo && pc < c->hist_hi && c->hists[h].bins[(pc - c->hist_lo) >> 2])
                hi->bins[(pc - c->hist_lo) >> 2]--;
            else if (hi->outside)
                hi->outside--;
            hi->total--;
            hi->next = s;
        }
    }
    update_next_sample(c);
    c->cycles -= removed;
    b->extra -= (int64_t)removed;
    c->insn_adjust += b->ninsns - k;
}

/* ---- interrupts ------------------------------------------------------ */

static bool tx_ready(const Core *c)
{
    return noc_tx_free_flits(c->noc, c->id) >= c->cfg->max_payload + 1;
}

static uint32_t irq_pending(const Core *c)
{
    uint32_t p = 0;
    if (c->timer_pending) p |= IRQ_TIMER;
    if (noc_rx_packets(c->noc, c->id)) p |= IRQ_RX;
    if (tx_ready(c)) p |= IRQ_TX;
    return p;
}

bool core_irq_network(const Core *c)
{
    return (c->irq_enable & (IRQ_RX | IRQ_TX)) != 0;
}

bool core_irq_wanted(const Core *c)
{
    return c->irq_enable && (irq_pending(c) & c->irq_enable);
}

static bool status_allows(uint32_t st)
{
    return (st & (STATUS_IE | STATUS_EXL | STATUS_ERL | STATUS_IM2)) == (STATUS_IE | STATUS_IM2);
}

static void update_next_event(Core *c)
{
    if (c->stopping) {
        c->next_event = c->deadline = 0;
        return;
    }
    uint64_t e = MIN(c->slice_end, c->timer_expiry);
    e = MIN(e, c->cfg->max_cycles);
    if (core_irq_wanted(c))
        e = 0;
    c->next_event = e;
    c->deadline = MIN(e, c->next_sample);
}

/* Take the interrupt: EPC (via $k0 and the stub) = epc, EXL = 1. */
static void deliver(Core *c, uint32_t epc, uint32_t status, bool in_hook)
{
    write_reg(c, UC_MIPS_REG_K0, epc);
    status |= STATUS_EXL;
    uc_reg_write(c->uc, UC_MIPS_REG_CP0_STATUS, &status);
    if (in_hook)
        write_reg(c, UC_MIPS_REG_PC, CORE_STUB_VADDR);
    c->pc = CORE_STUB_VADDR;
    c->interrupts++;
    c->in_irq = true;
    c->irq_start = c->cycles;
    c->prev = &c->irq_marker;
    if (c->hooks.interrupt)
        c->hooks.interrupt(c->hooks.opaque, epc, c->cycles);
}

static void timer_fire(Core *c)
{
    if (c->timer_ctrl & TIMER_IRQ)
        c->timer_pending = true;
    if ((c->timer_ctrl & TIMER_PERIODIC) && c->timer_period) {
        do
            c->timer_expiry += c->timer_period;
        while (c->timer_expiry <= c->cycles);
    } else {
        c->timer_ctrl &= ~TIMER_EN;
        c->timer_expiry = UINT64_MAX;
    }
}

static void timer_start(Core *c, uint64_t now)
{
    c->timer_expiry = (c->timer_ctrl & TIMER_EN) && c->timer_period
        ? now + c->timer_period : UINT64_MAX;
}

/* Slow path of the block hook: timer, limit, interrupt, slice end.
 * Returns true when the block at addr must not run now. */
G_GNUC_NO_INLINE static bool events(Core *c, uint32_t addr, bool delay_slot)
{
    if (c->stopping)
        return true;
    if (c->cycles >= c->timer_expiry)
        timer_fire(c);
    if (c->cycles >= c->cfg->max_cycles) {
        c->pc = addr;
        stop_core(c, CORE_LIMIT);
        return true;
    }
    if (delay_slot) {
        /* the delay slot of a branch that ended the previous block (page
         * end): neither an interrupt nor a stop may come between them, or
         * the branch would be lost; the next boundary takes them */
        update_next_event(c);
        return false;
    }
    if (core_irq_wanted(c)) {
        uint32_t st = core_read_reg(c, UC_MIPS_REG_CP0_STATUS);
        if (status_allows(st)) {
            deliver(c, addr, st, true);
            update_next_event(c);
            return true;
        }
    }
    if (c->cycles >= c->slice_end) {
        c->pc = addr;
        c->stopping = true;
        uc_emu_stop(c->uc);
        return true;
    }
    update_next_event(c);
    return false;
}

/* ---- the block hook -------------------------------------------------- */

/* Control left `from` for `to`: eret bookkeeping, the profiler's view. */
G_GNUC_NO_INLINE static void arrival(Core *c, Block *from, Block *to, uint64_t now)
{
    if (from->flags & BLOCK_SPLIT) {
        /* `to` is the delay slot of from's branch, translated alone: it
         * takes over the branch (its successor shows where control went) */
        if (to->ninsns == 1 && !(to->flags & ~BLOCK_EVAL) && !to->bt) {
            Block tmp = *from;
            uint32_t fall = to->addr + to->size, target;
            to->flags = mips_classify(tmp.branch_insn);
            to->branch_pc = tmp.branch_pc;
            to->branch_insn = tmp.branch_insn;
            to->bt = c->cfg->timing.branch_taken;
            if (mips_branch_unconditional(tmp.branch_insn))
                to->fallthrough = 1;
            else if (mips_branch_target(tmp.branch_insn, tmp.branch_pc, &target) && target == fall)
                to->flags |= BLOCK_EVAL;
            to->attn_out = (to->flags & c->arrive_mask) != 0;
        }
        return;
    }
    if ((from->flags & BLOCK_EVAL) && to->addr == from->fallthrough) {
        /* a conditional branch to its own fall-through: ask the registers
         * (exact unless its delay slot rewrote them) */
        uint32_t rs = core_read_reg(c, UC_MIPS_REG_0 + (int)((from->branch_insn >> 21) & 31));
        uint32_t rt = core_read_reg(c, UC_MIPS_REG_0 + (int)((from->branch_insn >> 16) & 31));
        if (mips_branch_taken(from->branch_insn, rs, rt)) {
            c->cycles += from->bt;
            from->extra += from->bt;
        }
        now = c->cycles;
    }
    if (from->flags & BLOCK_IRQ_ENTRY) {
        if (c->hooks.arrive)
            c->hooks.arrive(c->hooks.opaque, c, NULL, to, now);
        return;
    }
    if (from->flags & MIPS_ERET) {
        if (c->in_irq) {
            c->in_irq = false;
            c->irq_cycles += now - c->irq_start;
        }
        update_next_event(c);
    }
    if (c->hooks.arrive)
        c->hooks.arrive(c->hooks.opaque, c, from, to, now);
}

/* Slow part of the boundary at `start`: the profiler's view of the
 * transfer from p, then due events. True when b must not run now. */
G_GNUC_NO_INLINE static bool boundary_slow(Core *c, Block *p, Block *b, uint64_t start)
{
    c->cycles = start;
    c->prev = &c->none;
    if ((p->flags & c->arrive_mask) || b->entry) {
        arrival(c, p, b, start);
        start = c->cycles;
    }
    bool delay_slot = (p->flags & BLOCK_SPLIT) != 0;
    if (b->sync && start >= c->sync_end && !delay_slot) {
        c->pc = b->addr;
        c->stopping = true;
        c->next_event = c->deadline = 0;
        uc_emu_stop(c->uc);
        return true;
    }
    return start >= c->next_event && events(c, b->addr, delay_slot);
}

/* The whole boundary, every case: a new block, a transfer the profiler
 * must see, an event or a sample due. */
G_GNUC_NO_INLINE static void hook_block_slow(Core *c, uint32_t addr, uint32_t size)
{
    uint32_t idx = (addr & 0x1FFFFFFFu) >> 2;
    Block *b = idx < c->nslots ? c->btab[idx] : NULL;
    if (!b || b->size != size || b->addr != addr) {
        b = block_lookup_slow(c, addr, size);
        if (!b)
            return; /* the stub (free, invisible) or a fault */
    }
    Block *p = c->prev;
    uint64_t start = c->cycles;
    if (addr != p->fallthrough && p->bt) {
        start += p->bt;
        p->extra += p->bt;
    }
    if ((p->flags & c->arrive_mask) || b->attn || start >= c->next_event) {
        if (boundary_slow(c, p, b, start))
            return;
        start = c->cycles;
    }
    uint64_t end = start + b->cost;
    if (c->next_sample < end)
        sample_block(c, b, p->branch_pc, start, end);
    c->cycles = end;
    b->count++;
    c->prev = b;
}

/* Runs before every translated block. The fast path is a leaf: a table
 * lookup, a branch-free taken-branch charge, one combined test for
 * anything unusual (then everything is redone by hook_block_slow, a tail
 * call), and four stores. It runs between every two guest blocks, so
 * every instruction here counts (see docs/performance.md). */
static void hook_block(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    Core *c = opaque;
    uint32_t addr = (uint32_t)address;
    uint32_t idx = (addr & 0x1FFFFFFFu) >> 2;
    Block *b = G_LIKELY(idx < c->nslots) ? c->btab[idx] : NULL;
    Block *p = c->prev;
    if (G_UNLIKELY(!b || b->size != size || b->addr != addr))
        goto slow;
    uint64_t bt = addr != p->fallthrough ? p->bt : 0;
    uint64_t start = c->cycles + bt;
    uint64_t end = start + b->cost;
    if (G_UNLIKELY(p->attn_out | b->attn | (end > c->deadline)))
        goto slow;
    p->extra += (int64_t)bt;
    c->cycles = end;
    b->count++;
    c->prev = b;
    return;
slow:
    hook_block_slow(c, addr, size);
}

uint64_t core_instructions(const Core *c)
{
    uint64_t n = 0 - c->insn_adjust;
    for (unsigned i = 0; i < c->blocks->len; i++) {
        const Block *b = g_ptr_array_index(c->blocks, i);
        n += b->count * b->ninsns;
    }
    return n;
}

/* ---- locating the instruction behind an access or exception --------- */

/* Index in the current block of the next load/store whose effective
 * address (with the registers as they are now) is `phys`; -1 if none. */
static int locate_access(Core *c, uint32_t phys, unsigned *size_out)
{
    Block *b = current_block(c);
    if (!b)
        return -1;
    if (c->scan_count != b->count || c->scan_block != b) {
        c->scan_count = b->count;
        c->scan_block = b;
        c->blk_scan = 0;
    }
    for (uint32_t k = c->blk_scan; k < b->nmem; k++) {
        uint32_t i = b->mem[k];
        unsigned size, base;
        int32_t off;
        mips_mem_operand(b->words[i], &size, &base, &off);
        uint32_t ea = core_read_reg(c, UC_MIPS_REG_0 + (int)base) + (uint32_t)off;
        if ((mips_phys(ea) & ~3u) == (phys & ~3u)) {
            c->blk_scan = k + 1;
            if (size_out)
                *size_out = size;
            return (int)i;
        }
    }
    return -1;
}

static uint32_t insn_pc(const Core *c, int i)
{
    const Block *b = current_block(c);
    return b ? b->addr + 4u * (uint32_t)(i < 0 ? 0 : i) : c->pc;
}

/* Cycle at which instruction i of the current block runs: the block
 * started at cycles - extras so far - its cost. */
static uint64_t insn_cycle(const Core *c, int i)
{
    const Block *b = current_block(c);
    if (!b || i < 0)
        return c->cycles;
    uint64_t t = c->cycles - b->cost;
    for (int k = 0; k < i; k++)
        t += b->icost[k];
    return t;
}

/* ---- devices --------------------------------------------------------- */

typedef struct Access {
    unsigned dev;
    uint32_t reg;
    uint32_t pc;
    uint64_t now;
} Access;

/* Find the instruction, charge the MMIO cost, check size. */
static bool access_begin(Core *c, uint64_t offset, unsigned size, bool write, Access *a)
{
    uint32_t phys = CORE_MMIO_PHYS + (uint32_t)offset;
    int i = locate_access(c, phys, NULL);
    a->dev = (unsigned)(offset >> 12);
    a->reg = (uint32_t)(offset & 0xfff);
    Block *cb = current_block(c);
    if (cb && (a->dev == DEV_NI || a->dev == DEV_IRQC))
        cb->sync = cb->attn = true;
    a->pc = insn_pc(c, i);
    a->now = insn_cycle(c, i);
    const Timing *t = &c->cfg->timing;
    int64_t delta = (int64_t)t->mmio - (int64_t)(write ? t->store : t->load);
    c->cycles = (uint64_t)((int64_t)c->cycles + delta);
    if (current_block(c))
        current_block(c)->extra += delta;
    if (c->next_sample < c->cycles)
        sample_range(c, c->cycles, a->pc);
    if (size != 4) {
        fault(c, "bus-error", a->pc, "%u-byte %s of %s register at offset 0x%03x (pc 0x%08x): "
              "device registers are 32-bit, word access only",
              size, write ? "write" : "read", dev_names[a->dev], a->reg, a->pc);
        return false;
    }
    return true;
}

static void bad_offset(Core *c, const Access *a, bool write)
{
    fault(c, "bus-error", a->pc, "%s of undefined %s offset 0x%03x (pc 0x%08x)",
          write ? "write" : "read", dev_names[a->dev], a->reg, a->pc);
}

static void ni_misuse(Core *c, const Access *a, const char *rule)
{
    fault(c, "ni-misuse", a->pc, "NI misuse at pc 0x%08x: %s", a->pc, rule);
}

static uint64_t mmio_read(uc_engine *uc, uint64_t offset, unsigned size, void *opaque)
{
    Core *c = opaque;
    Access a;
    if (c->state != CORE_RUNNING || !access_begin(c, offset, size, false, &a))
        return 0;
    unsigned src, len, rem;
    uint32_t word;
    switch (a.dev << 12 | a.reg) {
    case DEV_SYS << 12 | 0x00: return c->id;
    case DEV_SYS << 12 | 0x04: return c->ncores;
    case DEV_SYS << 12 | 0x08: return c->cfg->mesh_width;
    case DEV_SYS << 12 | 0x0C: return c->cfg->mesh_height;
    case DEV_SYS << 12 | 0x10:
        c->cycle_hi_latch = (uint32_t)(a.now >> 32);
        return (uint32_t)a.now;
    case DEV_SYS << 12 | 0x14: return c->cycle_hi_latch;
    case DEV_TIMER << 12 | 0x00: return c->timer_ctrl;
    case DEV_TIMER << 12 | 0x04: return c->timer_period;
    case DEV_TIMER << 12 | 0x08:
        return c->timer_expiry == UINT64_MAX || c->timer_expiry <= a.now
            ? 0 : (uint32_t)MIN(c->timer_expiry - a.now, (uint64_t)UINT32_MAX);
    case DEV_IRQC << 12 | 0x00:
        if (c->cycles >= c->timer_expiry && c->timer_expiry <= a.now)
            timer_fire(c);
        return irq_pending(c);
    case DEV_IRQC << 12 | 0x04: return c->irq_enable;
    case DEV_NI << 12 | 0x0C: return tx_ready(c) ? 1 : 0;
    case DEV_NI << 12 | 0x10: return noc_rx_packets(c->noc, c->id);
    case DEV_NI << 12 | 0x14:
        return noc_rx_head(c->noc, c->id, &src, &len, &rem) ? src : 0;
    case DEV_NI << 12 | 0x18:
        return noc_rx_head(c->noc, c->id, &src, &len, &rem) ? len : 0;
    case DEV_NI << 12 | 0x1C:
        if (!noc_rx_pop(c->noc, c->id, &word)) {
            ni_misuse(c, &a, "RX_DATA read with no packet waiting");
            return 0;
        }
        update_next_event(c);
        return word;
    default:
        bad_offset(c, &a, false);
        return 0;
    }
}

static void console_byte(Core *c, char ch)
{
    g_string_append_c(c->console, ch);
    if (ch == '\n') {
        if (c->console_fn)
            c->console_fn(c->console_opaque, c->id, c->line->str);
        g_string_truncate(c->line, 0);
    } else {
        g_string_append_c(c->line, ch);
    }
}

static void mmio_write(uc_engine *uc, uint64_t offset, unsigned size, uint64_t value, void *opaque)
{
    Core *c = opaque;
    Access a;
    if (c->state != CORE_RUNNING || !access_begin(c, offset, size, true, &a))
        return;
    uint32_t v = (uint32_t)value;
    switch (a.dev << 12 | a.reg) {
    case DEV_SYS << 12 | 0x18:
        console_byte(c, (char)(v & 0xff));
        break;
    case DEV_SYS << 12 | 0x1C:
        c->exit_code = (int32_t)v;
        block_truncate(c, a.pc + 4);
        stop_core(c, CORE_EXITED);
        break;
    case DEV_TIMER << 12 | 0x00:
        c->timer_ctrl = v & 7u;
        timer_start(c, a.now);
        break;
    case DEV_TIMER << 12 | 0x04:
        c->timer_period = v;
        if (c->timer_ctrl & TIMER_EN)
            timer_start(c, a.now);
        break;
    case DEV_TIMER << 12 | 0x0C:
        c->timer_pending = false;
        break;
    case DEV_IRQC << 12 | 0x04:
        c->irq_enable = v & 7u;
        break;
    case DEV_NI << 12 | 0x00:
        if (v >= c->ncores) {
            g_autofree char *m = g_strdup_printf("TX_DEST %u out of range (cores 0 .. %u)", v, c->ncores - 1);
            ni_misuse(c, &a, m);
            return;
        }
        c->tx_dest = v;
        break;
    case DEV_NI << 12 | 0x04:
        if (c->nstaged >= c->cfg->max_payload) {
            g_autofree char *m = g_strdup_printf("TX_DATA staging more than max_payload (%u) words",
                                                 c->cfg->max_payload);
            ni_misuse(c, &a, m);
            return;
        }
        c->staged[c->nstaged++] = v;
        break;
    case DEV_NI << 12 | 0x08:
        if (c->nstaged == 0) {
            ni_misuse(c, &a, "TX_SEND with nothing staged");
            return;
        }
        if (!noc_send(c->noc, c->id, c->tx_dest, c->staged, c->nstaged, MAX(a.now, noc_now(c->noc)))) {
            ni_misuse(c, &a, "TX_SEND with a full injection queue (poll TX_STATUS first)");
            return;
        }
        c->nstaged = 0;
        break;
    case DEV_NI << 12 | 0x20:
        if (!noc_rx_drop(c->noc, c->id)) {
            ni_misuse(c, &a, "RX_DROP with no packet waiting");
            return;
        }
        break;
    default:
        bad_offset(c, &a, true);
        return;
    }
    update_next_event(c);
}

/* ---- exceptions ------------------------------------------------------ */

/* The last instruction of the current block: where translation stopped at
 * an exception (or PC when no block is running). */
static uint32_t last_insn_pc(Core *c)
{
    const Block *b = current_block(c);
    return b ? b->addr + b->size - 4 : core_read_reg(c, UC_MIPS_REG_PC);
}

/* First instruction of the current block with one of `cls`; else the last. */
static uint32_t locate_class(Core *c, unsigned cls)
{
    Block *b = current_block(c);
    for (uint32_t i = 0; b && i < b->ninsns; i++)
        if (mips_classify(block_word(c, b, i)) & cls)
            return b->addr + 4 * i;
    return last_insn_pc(c);
}

/* First load/store of the current block whose address is misaligned. */
static uint32_t locate_misaligned(Core *c, uint32_t *addr_out)
{
    Block *b = current_block(c);
    for (uint32_t i = 0; b && i < b->ninsns; i++) {
        unsigned size, base;
        int32_t off;
        if (!mips_mem_operand(block_word(c, b, i), &size, &base, &off))
            continue;
        uint32_t ea = core_read_reg(c, UC_MIPS_REG_0 + (int)base) + (uint32_t)off;
        if (ea % size) {
            *addr_out = ea;
            return b->addr + 4 * i;
        }
    }
    return last_insn_pc(c);
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *opaque)
{
    Core *c = opaque;
    uint32_t addr = 0, pc;
    switch (intno) {
    case 12: case 13:
        pc = locate_misaligned(c, &addr);
        fault(c, intno == 12 ? "unaligned-load" : "unaligned-store", pc,
              "unaligned %s at address 0x%08x (pc 0x%08x)", intno == 12 ? "load" : "store", addr, pc);
        break;
    case 17:
        pc = locate_class(c, MIPS_SYSCALL);
        fault(c, "syscall", pc, "syscall at pc 0x%08x (the platform has no system calls)", pc);
        break;
    case 16: case 18:
        pc = locate_class(c, MIPS_BREAK);
        fault(c, "break", pc, "break instruction at pc 0x%08x", pc);
        break;
    case 20:
        pc = last_insn_pc(c);
        fault(c, "reserved-instruction", pc, "reserved instruction 0x%08x at pc 0x%08x",
              current_block(c) ? block_word(c, current_block(c), current_block(c)->ninsns - 1) : 0, pc);
        break;
    case 21:
        pc = locate_class(c, MIPS_OVERFLOW);
        fault(c, "overflow", pc, "integer overflow trap at pc 0x%08x", pc);
        break;
    case 22:
        pc = locate_class(c, MIPS_TRAP);
        fault(c, "trap", pc, "trap instruction at pc 0x%08x", pc);
        break;
    case 11: case 19:
        pc = last_insn_pc(c);
        fault(c, "coprocessor-unusable", pc, "coprocessor instruction at pc 0x%08x (no FPU)", pc);
        break;
    default:
        pc = last_insn_pc(c);
        fault(c, "exception", pc, "CPU exception %u near pc 0x%08x", intno, pc);
        break;
    }
}

static bool hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t address, int size,
                          int64_t value, void *opaque)
{
    Core *c = opaque;
    uint32_t phys = (uint32_t)address;
    if (type == UC_MEM_FETCH_UNMAPPED) {
        uint32_t pc = core_read_reg(c, UC_MIPS_REG_PC);
        fault(c, "unmapped-fetch", pc, "instruction fetch from unmapped address 0x%08x", pc);
        return false;
    }
    bool write = type == UC_MEM_WRITE_UNMAPPED;
    int i = locate_access(c, phys, NULL);
    uint32_t pc = insn_pc(c, i);
    fault(c, write ? "unmapped-write" : "unmapped-read", pc,
          "%s of unmapped physical address 0x%08x (pc 0x%08x)", write ? "write" : "read", phys, pc);
    return false;
}

static bool hook_tlb_fill(uc_engine *uc, uint64_t vaddr, uc_mem_type type,
                          uc_tlb_entry *result, void *opaque)
{
    result->paddr = mips_phys((uint32_t)vaddr);
    result->perms = UC_PROT_ALL;
    return true;
}

/* ---- life cycle ------------------------------------------------------ */

#define UC_TRY(call, what) do { uc_err e_ = (call); if (e_ != UC_ERR_OK) { \
    g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_EMU, "core %u: %s: %s", id, what, uc_strerror(e_)); \
    goto fail; } } while (0)

Core *core_new(unsigned id, const Config *cfg, const ElfImage *img, Noc *noc,
               ConsoleFn console_fn, void *console_opaque, GError **error)
{
    Core *c = g_new0(Core, 1);
    c->id = id;
    c->ncores = config_cores(cfg);
    c->cfg = cfg;
    c->img = img;
    c->noc = noc;
    c->state = CORE_RUNNING;
    c->timer_expiry = UINT64_MAX;
    c->console = g_string_new(NULL);
    c->line = g_string_new(NULL);
    c->console_fn = console_fn;
    c->console_opaque = console_opaque;
    c->staged = g_new0(uint32_t, cfg->max_payload);
    c->blocks = g_ptr_array_new_with_free_func(block_free);
    c->nslots = (uint32_t)(cfg->ram_size / 4);
    c->btab = g_new0(Block *, c->nslots);
    c->prev = &c->none;
    c->irq_marker.flags = BLOCK_IRQ_ENTRY;
    c->irq_marker.attn_out = true;
    c->arrive_mask = MIPS_ERET | BLOCK_IRQ_ENTRY | BLOCK_SPLIT | BLOCK_EVAL;
    c->pc = img->entry;

    uc_mode mode = UC_MODE_MIPS32 | (img->big_endian ? UC_MODE_BIG_ENDIAN : UC_MODE_LITTLE_ENDIAN);
    UC_TRY(uc_open(UC_ARCH_MIPS, mode, &c->uc), "uc_open");
    UC_TRY(uc_ctl_set_cpu_model(c->uc, UC_CPU_MIPS32_24KF), "cpu model");
    UC_TRY(uc_ctl_set_tcg_buffer_size(c->uc, 32u << 20), "tcg buffer");
    UC_TRY(uc_ctl_tlb_mode(c->uc, UC_TLB_VIRTUAL), "tlb mode");
    uc_hook h;
    UC_TRY(uc_hook_add(c->uc, &h, UC_HOOK_TLB_FILL, (void *)hook_tlb_fill, c, 1, 0), "tlb hook");
    UC_TRY(uc_mem_map(c->uc, 0, cfg->ram_size, UC_PROT_ALL), "map RAM");
    UC_TRY(uc_mem_map(c->uc, CORE_STUB_PHYS, 4096, UC_PROT_ALL), "map stub");
    UC_TRY(uc_mmio_map(c->uc, CORE_MMIO_PHYS, DEV_COUNT * 4096, mmio_read, c, mmio_write, c), "map devices");
    UC_TRY(uc_hook_add(c->uc, &h, UC_HOOK_BLOCK, (void *)hook_block, c, 1, 0), "block hook");
    UC_TRY(uc_hook_add(c->uc, &h, UC_HOOK_INTR, (void *)hook_intr, c, 1, 0), "interrupt hook");
    UC_TRY(uc_hook_add(c->uc, &h, UC_HOOK_MEM_UNMAPPED, (void *)hook_unmapped, c, 1, 0), "unmapped hook");

    for (unsigned i = 0; i < img->nsegs; i++)
        UC_TRY(uc_mem_write(c->uc, img->segs[i].paddr, img->segs[i].data, img->segs[i].filesz),
               "load segment");
    /* $k0 -> EPC; jump to EBase + 0x180 */
    static const uint32_t stub[] = { 0x409A7000, 0x3C1A8000, 0x375A0180, 0x03400008, 0 };
    uint8_t code[sizeof stub];
    for (unsigned i = 0; i < G_N_ELEMENTS(stub); i++)
        put_guest_word(c, code + 4 * i, stub[i]);
    UC_TRY(uc_mem_write(c->uc, CORE_STUB_PHYS, code, sizeof code), "write stub");

    write_reg(c, UC_MIPS_REG_PC, img->entry);
    write_reg(c, UC_MIPS_REG_A0, id);
    write_reg(c, UC_MIPS_REG_A1, c->ncores);
    write_reg(c, UC_MIPS_REG_SP, (uint32_t)(0x80000000u + cfg->ram_size - 16));

    c->hist_lo = img->text_lo & ~3u;
    c->hist_hi = (img->text_hi + 3) & ~3u;
    c->nhists = cfg->nperiods;
    c->hists = g_new0(Histogram, c->nhists);
    for (unsigned i = 0; i < c->nhists; i++) {
        c->hists[i].period = cfg->periods[i];
        c->hists[i].next = cfg->periods[i] - 1;
        c->hists[i].bins = g_new0(uint32_t, (c->hist_hi - c->hist_lo) / 4 + 1);
    }
    update_next_sample(c);
    return c;
fail:
    core_free(c);
    return NULL;
}

void core_free(Core *c)
{
    if (!c)
        return;
    if (c->uc)
        uc_close(c->uc);
    for (unsigned i = 0; i < c->nhists; i++)
        g_free(c->hists[i].bins);
    g_free(c->hists);
    g_ptr_array_free(c->blocks, TRUE);
    g_free(c->btab);
    g_free(c->staged);
    g_string_free(c->console, TRUE);
    g_string_free(c->line, TRUE);
    g_free(c->fault.kind);
    g_free(c->fault.message);
    g_free(c);
}

void core_set_hooks(Core *c, const CoreHooks *hooks)
{
    c->hooks = *hooks;
    c->arrive_mask |= MIPS_JREG;
}

void core_halt(Core *c, CoreState state)
{
    if (c->state == CORE_IDLE && c->hooks.idle && c->cycles > c->idle_from)
        c->hooks.idle(c->hooks.opaque, c->idle_from, c->cycles);
    if (core_live(c))
        c->state = state;
}

static bool after_wait(Core *c, uint32_t pc)
{
    uint8_t w[4];
    if (uc_mem_read(c->uc, mips_phys(pc - 4), w, 4) != UC_ERR_OK)
        return false;
    return (guest_word(c, w) & MIPS_WAIT_MASK) == MIPS_WAIT_BITS;
}

void core_run(Core *c, uint64_t sync_end, uint64_t horizon)
{
    unsigned spurious = 0;
    c->sync_end = sync_end;
    while (c->state == CORE_RUNNING && c->cycles < horizon) {
        c->slice_end = horizon;
        c->stopping = false;
        update_next_event(c);
        uint64_t before = c->cycles;
        uc_err err = uc_emu_start(c->uc, c->pc, 0xFFFFFFFFu, 0, 0);
        if (c->state != CORE_RUNNING)
            break;
        if (err != UC_ERR_OK) {
            uint32_t pc = core_read_reg(c, UC_MIPS_REG_PC);
            fault(c, "emulator", pc, "Unicorn stopped with '%s' near pc 0x%08x", uc_strerror(err), pc);
            break;
        }
        if (c->stopping) {
            if (c->cycles >= sync_end)
                break; /* at a sync point or the horizon: c->pc is set */
            continue;
        }
        uint32_t pc = core_read_reg(c, UC_MIPS_REG_PC);
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
            fault(c, "emulator", pc, "emulation makes no progress at pc 0x%08x", pc);
            break;
        }
    }
}

uint64_t core_wake_cycle(const Core *c)
{
    if ((c->irq_enable & IRQ_TIMER) && (c->timer_ctrl & TIMER_IRQ))
        return c->timer_expiry;
    return UINT64_MAX;
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
    while (!core_irq_wanted(c)) {
        uint64_t w = MIN(c->timer_expiry, MIN(until, limit));
        idle_to(c, w);
        if (c->cycles >= c->timer_expiry)
            timer_fire(c);
        else
            break;
    }
    if (c->cycles >= limit && !core_irq_wanted(c)) {
        if (c->hooks.idle)
            c->hooks.idle(c->hooks.opaque, idle_from, c->cycles);
        c->idle_from = c->cycles;
        c->state = CORE_LIMIT;
        return;
    }
    if (!core_irq_wanted(c))
        return; /* still idle */
    if (c->hooks.idle)
        c->hooks.idle(c->hooks.opaque, idle_from, c->cycles);
    c->state = CORE_RUNNING;
    uint32_t st = core_read_reg(c, UC_MIPS_REG_CP0_STATUS);
    if (status_allows(st))
        deliver(c, c->pc, st, false);
}

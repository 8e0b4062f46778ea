// SPDX-License-Identifier: GPL-2.0-or-later
/* exc.c — faults: the first one is kept, the block that raised it is cut
 * back to the faulting instruction, and that instruction is located
 * exactly (locate.c: Unicorn reports exceptions by number only, PC
 * overwritten) and named, with the registers it read. */
#include "emu/core_priv.h"

#include "nocprof/platform.h"

#include <stdarg.h>

static const char *const gpr_names[32] = {
    "zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7",
    "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "t8", "t9", "k0", "k1", "gp", "sp", "fp", "ra",
};

/* The registers as the faulting instruction read them (Unicorn writes
 * them back before every access and every helper that may raise), four
 * lines of eight, then hi and lo */
static void append_registers(Core *c, GString *m)
{
    uint32_t *v = c->fault.regs;
    for (unsigned r = 0; r < 32; r++)
        v[r] = core_read_gpr(c, r);
    v[32] = core_reg(c, UC_MIPS_REG_HI);
    v[33] = core_reg(c, UC_MIPS_REG_LO);
    c->fault.has_regs = true;
    for (unsigned r = 0; r < 32; r++)
        g_string_append_printf(m, "%s%s=%08x", r % 8 ? " " : "\n  ", gpr_names[r], v[r]);
    g_string_append_printf(m, " hi=%08x lo=%08x", v[32], v[33]);
}

/* The data address of the fault core_raise is about to raise (the
 * reports name the object there) */
static void fault_data(Core *c, uint32_t addr)
{
    if (c->state != CORE_FAULT) {
        c->fault.has_data = true;
        c->fault.data = addr;
    }
}

void core_raise(Core *c, const char *kind, uint32_t pc, const char *fmt, ...)
{
    if (c->state == CORE_FAULT)
        return; /* keep the first */
    va_list ap;
    va_start(ap, fmt);
    c->fault.kind = g_strdup(kind);
    c->fault.pc = c->fault.regs_pc = pc;
    GString *m = g_string_new(NULL);
    g_string_append_vprintf(m, fmt, ap);
    va_end(ap);
    if (c->uc) {
        g_string_append_printf(m, "\n  registers at pc 0x%08x:", pc);
        append_registers(c, m);
    }
    c->fault.message = g_string_free(m, FALSE);
    block_truncate(c, pc); /* the faulting instruction did not complete */
    core_stop(c, CORE_FAULT);
}

void exc_scan_restart(Core *c, const Block *b)
{
    c->scan = (CoreScan){ .block = b, .count = b->count };
}

/* Index in the current block of the load/store that accesses `phys` now
 * (locate.c, exact); -1 if none. Accesses of one execution of a block come
 * in program order: the search goes on after the last one found. */
int exc_locate_access(Core *c, uint32_t phys)
{
    return exc_locate_in(c, LOC_MEM, phys);
}

/* LOC_MEM: any access of phys; LOC_MEM_KSEG1: one through kseg1 (a kseg0
 * access of the same word before it in the block is not the one) */
int exc_locate_in(Core *c, LocClass k, uint32_t phys)
{
    Block *b = core_current_block(c);
    if (!b)
        return -1;
    if (c->scan.count != b->count || c->scan.block != b)
        c->scan = (CoreScan){ .block = b, .count = b->count };
    int i = loc_find(c, k, c->scan.next, phys, NULL);
    if (i >= 0)
        c->scan.next = (uint32_t)i + 1;
    return i;
}

uint32_t exc_insn_pc(const Core *c, int i)
{
    const Block *b = core_current_block(c);
    return b ? b->addr + 4u * (uint32_t)(i < 0 ? 0 : i) : c->pc;
}

/* Cycle at which instruction i of the current block runs: the block
 * started at cycles - extras so far - its cost. */
uint64_t exc_insn_cycle(const Core *c, int i)
{
    const Block *b = core_current_block(c);
    if (!b || i < 0)
        return c->cycles;
    uint64_t t = c->cycles - b->cost;
    for (int k = 0; k < i; k++)
        t += b->icost[k];
    return t;
}

/* Instruction word i of b, host order. */
static uint32_t block_word(const Block *b, uint32_t i)
{
    return i < b->ninsns ? b->words[i] : 0;
}

/* The last instruction of the current block: where translation stopped at
 * an exception that ends it (or PC when no block is running). */
static uint32_t last_insn_pc(Core *c)
{
    const Block *b = core_current_block(c);
    return b ? b->addr + b->size - 4 : core_reg(c, UC_MIPS_REG_PC);
}

/* The word of the current block's last instruction (0: no block) */
static uint32_t last_insn_word(Core *c)
{
    const Block *b = core_current_block(c);
    return b && b->ninsns ? block_word(b, b->ninsns - 1) : 0;
}

/* A reserved instruction that QEMU's MIPS32 translator lets its block go
 * on after (generate_exception without ending the block): mfhc0/mthc0 (no
 * XPA), paired-single FPU operations (no PS on the 24Kf), rdhwr $4. Every
 * other reserved instruction ends its block. */
static bool ri_mid_block(uint32_t w)
{
    unsigned op = w >> 26, rs = (w >> 21) & 31u, fn = w & 63u;
    switch (op) {
    case 0x10: return rs == 2 || rs == 6;                          /* mfhc0 mthc0 */
    case 0x11: return rs == 0x16 || (rs == 0x10 && fn == 0x26);    /* .ps, cvt.ps.s */
    case 0x13: return fn == 0x1e || (fn >= 0x26 && (fn & 7) == 6); /* alnv.ps, madd.ps .. */
    case 0x1f: return fn == 0x3b && ((w >> 11) & 31u) == 4;        /* rdhwr $4 */
    default: return false;
    }
}

/* The instruction of class k that raised the exception (locate.c); the
 * last of the block when none did (*word: that instruction) */
static uint32_t locate(Core *c, LocClass k, uint32_t *ea, uint32_t *word)
{
    const Block *b = core_current_block(c);
    int i = loc_find(c, k, 0, 0, ea);
    uint32_t pc = i >= 0 ? exc_insn_pc(c, i) : last_insn_pc(c);
    *word = b && pc >= b->addr ? block_word(b, (pc - b->addr) / 4) : 0;
    return pc;
}

/* MIPS exception numbers as Unicorn (QEMU) reports them */
enum { EXC_CPU_A = 11, EXC_ALIGN_LD = 12, EXC_ALIGN_ST = 13, EXC_DBP = 16, EXC_SYSCALL = 17,
       EXC_BREAK = 18, EXC_CPU_B = 19, EXC_RI = 20, EXC_OVERFLOW = 21, EXC_TRAP = 22, EXC_FPE = 23 };

static const char *trap_name(uint32_t w)
{
    static const char *const reg[] = { "tge", "tgeu", "tlt", "tltu", "teq", "?", "tne" };
    static const char *const imm[] = { "tgei", "tgeiu", "tlti", "tltiu", "teqi", "?", "tnei" };
    unsigned f = (w >> 26) == 0 ? (w & 63u) - 0x30u : ((w >> 16) & 31u) - 0x08u;
    return f < 7 ? ((w >> 26) == 0 ? reg : imm)[f] : "trap";
}

/* What a trap or break code means by the MIPS ABI's convention
 * (Linux's asm/break.h; gcc emits `teq divisor, $zero, 7` after every
 * division, or `break 7` with -mdivide-breaks): "" when nothing known. */
static const char *code_meaning(uint32_t code)
{
    switch (code) {
    case 6: return ": integer overflow (trap code 6)";
    case 7: return ": integer division by zero (trap code 7, the compiler's divide-by-zero check)";
    default: return "";
    }
}

/* The code of a register-form trap (bits 15..6) or of break (bits 25..16);
 * immediate-form traps have none. */
static uint32_t trap_code(uint32_t w)
{
    if ((w >> 26) != 0)
        return UINT32_MAX;
    return (w & 63u) == 0x0du ? (w >> 16) & 0x3ffu : (w >> 6) & 0x3ffu;
}

/* An FPU exception: the instruction, and which enabled IEEE exception
 * that instruction can raise it was (all of them when several can) */
static void raise_fpe(Core *c)
{
    uint32_t w, pc = locate(c, LOC_FPE, NULL, &w);
    static const char *const names[] = { "inexact", "underflow", "overflow", "divide-by-zero",
                                         "invalid operation" };
    unsigned hit = fpe_cause(c, w) & c->fpe_enables;
    GString *what = g_string_new(NULL);
    for (int k = 4; k >= 0; k--)
        if (hit & (1u << k))
            g_string_append_printf(what, "%s%s", what->len ? " or " : "", names[k]);
    core_raise(c, "fpu-exception", pc, "FPU %s at pc 0x%08x (instruction 0x%08x)",
               what->len ? what->str : "exception", pc, w);
    g_string_free(what, TRUE);
}

static uint32_t jump_target(Core *c, const Block *b);
static void odd_fetch(Core *c, Block *p, uint32_t target);

/* Without MIPS16e in the engine (isa.c), a register jump to an odd
 * address faults in the engine: the address error of the fetch, raised
 * when the engine translates there (before the block hook), or a fetch
 * that failed first (the target unmapped, a device's, past RAM). Either
 * way the previous block's jump went to an odd target, and the fault is
 * the misaligned fetch; an address error (by_badvaddr) is the fetch's
 * only when BadVAddr holds that target (a load's would hold the load's
 * address). */
static bool odd_fetch_fault(Core *c, bool by_badvaddr)
{
    Block *p = core_current_block(c);
    uint32_t target = p ? jump_target(c, p) : 0, bad = target;
    if (!(target & 1) || (by_badvaddr && (!core_badvaddr(c, &bad) || bad != target)))
        return false;
    odd_fetch(c, p, target);
    return true;
}

void exc_hook_intr(uc_engine *uc, uint32_t intno, void *opaque)
{
    Core *c = opaque;
    uint32_t addr = 0, pc, w;
    switch (intno) {
    case EXC_ALIGN_LD: case EXC_ALIGN_ST:
        if (intno == EXC_ALIGN_LD && odd_fetch_fault(c, true))
            break;
        pc = locate(c, intno == EXC_ALIGN_LD ? LOC_ALIGN_LD : LOC_ALIGN_ST, &addr, &w);
        fault_data(c, addr);
        core_raise(c, intno == EXC_ALIGN_LD ? "unaligned-load" : "unaligned-store", pc,
                   "unaligned %s at address 0x%08x (pc 0x%08x)",
                   intno == EXC_ALIGN_LD ? "load" : "store", addr, pc);
        break;
    case EXC_SYSCALL: /* ends its block (QEMU: DISAS_NORETURN) */
        pc = last_insn_pc(c);
        core_raise(c, "syscall", pc, "syscall at pc 0x%08x (the platform has no system calls)", pc);
        break;
    case EXC_DBP: case EXC_BREAK:
        pc = last_insn_pc(c);
        core_raise(c, "break", pc, "break instruction at pc 0x%08x%s", pc,
                   intno == EXC_BREAK ? code_meaning(trap_code(last_insn_word(c))) : "");
        break;
    case EXC_RI: { /* unconditional: the first that does not end the block, else its last */
        const Block *cb = core_current_block(c);
        uint32_t i = 0;
        while (cb && i + 1 < cb->ninsns && !ri_mid_block(cb->words[i]))
            i++;
        pc = cb ? cb->addr + 4 * i : last_insn_pc(c);
        w = cb ? block_word(cb, i) : 0;
        /* without MIPS16e in the engine (isa.c) jalx raises it itself */
        core_raise(c, "reserved-instruction", pc, "reserved instruction 0x%08x at pc 0x%08x%s", w, pc,
                   MIPS_IS_JALX(w) ? " (jalx: MIPS16e code is not supported)" : "");
        break;
    }
    case EXC_OVERFLOW:
        pc = locate(c, LOC_OVERFLOW, NULL, &w);
        core_raise(c, "overflow", pc, "integer overflow (%s) at pc 0x%08x",
                   (w >> 26) == 0x08u ? "addi" : (w & 63u) == 0x22u ? "sub" : "add", pc);
        break;
    case EXC_TRAP:
        pc = locate(c, LOC_TRAP, NULL, &w);
        core_raise(c, "trap", pc, "trap (%s) at pc 0x%08x%s", trap_name(w), pc, code_meaning(trap_code(w)));
        break;
    case EXC_FPE:
        raise_fpe(c);
        break;
    case EXC_CPU_A: case EXC_CPU_B:
        pc = last_insn_pc(c);
        core_raise(c, "coprocessor-unusable", pc, "coprocessor instruction at pc 0x%08x (no FPU)", pc);
        break;
    default:
        pc = last_insn_pc(c);
        core_raise(c, "exception", pc, "CPU exception %u near pc 0x%08x", intno, pc);
        break;
    }
}

/* How the previous block left for a target that cannot be fetched:
 * the jump or branch that ended it (0: it ran off its end) */
static const char *leave_name(const Block *b)
{
    if (!b->branch_pc)
        return NULL;
    if (b->flags & MIPS_ERET)
        return "eret";
    if (b->flags & MIPS_JREG)
        return (b->flags & MIPS_LINK) ? "jalr" : "jr";
    return (b->flags & MIPS_LINK) ? "jal" : "jump or branch";
}

/* A fetch fault at `target`: name the instruction that went there (the
 * last block's jump, or its last instruction when it ran off its end), so
 * the report says where the code went wrong, not what is at the target. */
static void raise_fetch(Core *c, const char *kind, uint32_t target, const char *what)
{
    const Block *b = core_current_block(c);
    if (!b) {
        core_raise(c, kind, target, "%s 0x%08x", what, target);
        return;
    }
    if (odd_fetch_fault(c, false)) /* the address error comes before anything the fetch would meet */
        return;
    const char *how = leave_name(b);
    uint32_t site = how ? b->branch_pc : b->addr + b->size - 4;
    /* the first page: what an uninitialised function pointer calls */
    const char *null = target >= 0x1000u || !how ? ""
                       : strcmp(how, "jalr") == 0 ? ": a call through a NULL function pointer"
                       : strcmp(how, "jr") == 0 ? ": a jump to NULL (a tail call through a NULL function pointer, "
                                                  "or a return with $ra 0)" : "";
    core_raise(c, kind, target, "%s 0x%08x (%s at pc 0x%08x)%s", what, target, how ? how : "execution ran past", site,
               null);
    if (c->state == CORE_FAULT && c->fault.pc == target && !c->fault.site)
        c->fault.site = site;
}

bool exc_hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t address, int size,
                       int64_t value, void *opaque)
{
    Core *c = opaque;
    uint32_t phys = (uint32_t)address;
    if (type == UC_MEM_FETCH_UNMAPPED) {
        raise_fetch(c, "unmapped-fetch", core_reg(c, UC_MIPS_REG_PC), "instruction fetch from unmapped address");
        return false;
    }
    bool write = type == UC_MEM_WRITE_UNMAPPED;
    uint32_t pc = exc_insn_pc(c, exc_locate_access(c, phys));
    core_raise(c, write ? "unmapped-write" : "unmapped-read", pc,
               "%s of unmapped physical address 0x%08x (pc 0x%08x)", write ? "write" : "read", phys, pc);
    return false;
}

/* Virtual -> physical (SPEC section 1): kseg0 and kseg1 fold onto
 * physical 0 .. 512 MiB; kuseg (0x0000_0000 .. 0x7FFF_FFFF) and kseg2/3
 * map nothing, so any access there (a NULL pointer included) is refused
 * and Unicorn reports it to exc_hook_unmapped. The platform's stub page
 * (CORE_STUB_PHYS) is execute-only: the guest can neither read nor write
 * it (block.c refuses guest fetches there). */
bool exc_hook_tlb_fill(uc_engine *uc, uint64_t vaddr, uc_mem_type type,
                       uc_tlb_entry *result, void *opaque)
{
    Core *c = opaque;
    uint32_t va = (uint32_t)vaddr;
    if (c->smc_splitting) {
        /* not the guest: Unicorn unmapping a region (smc.c) drops the
         * translations of its physical range through the TLB, taking
         * the physical address for a virtual one */
        result->paddr = va;
        result->perms = UC_PROT_ALL;
        return true;
    }
    /* uc_emu_start looks up the page of its `until` address (0xFFFFFFFF,
     * core_run) for itself: that page stays identity-mapped onto nothing,
     * so a guest fetch there is still an unmapped-fetch (hook_unmapped) */
    bool mapped = (va >= 0x80000000u && va < 0xC0000000u) || va >= 0xFFFFF000u;
    bool user = false;
    if (mapped && c->ksu_written && va < 0xFFFFF000u) {
        /* kseg0/kseg1 (RAM, devices) are kernel-only: in user mode
         * (Status.KSU = user, EXL = ERL = 0) an access is an address
         * error. Unicorn keeps user-mode TLB entries apart (mmu index by
         * KSU), so kernel-mode fills never serve a user access. Status
         * is read only once an mtc0 wrote a non-zero KSU (cp0.c): KSU
         * resets to 0 and nothing else changes it. */
        uint32_t st = 0;
        uc_reg_read(uc, UC_MIPS_REG_CP0_STATUS, &st);
        user = ((st >> 3) & 3) == 2 && !(st & 6);
        mapped = !user;
    }
    result->paddr = mips_phys(va);
    /* a data access outside RAM and the device windows is refused here,
     * where Unicorn stops at the exact instruction (locate.c relies on it:
     * no such access lets a later instruction run) */
    if (mapped && type != UC_MEM_FETCH && va < 0xC0000000u && result->paddr >= c->cfg->ram_size
        && (result->paddr < NP_MMIO_PHYS || result->paddr >= NP_MMIO_PHYS + CORE_NSLOTS * NP_DEV_SIZE)
        && (result->paddr & ~0xFFFu) != CORE_STUB_PHYS)
        mapped = false;
    /* the device windows are kseg1's (SPEC 1, uncached): their kseg0
     * alias (0x9F00_0000, cached on a 24K) lies outside every window */
    if (va < 0xA0000000u && result->paddr - NP_MMIO_PHYS < CORE_NSLOTS * NP_DEV_SIZE)
        mapped = false;
    result->perms = UC_PROT_ALL;
    if (va >= 0xA0000000u && va < 0xC0000000u && result->paddr < c->cfg->ram_size) {
        /* RAM through kseg1, uncached: data to its alias (uncached.c),
         * instructions from RAM itself; each entry serves its own kind
         * only (QEMU's victim TLB keeps the other one at hand) */
        if (type != UC_MEM_FETCH)
            result->paddr += CORE_UNC_PHYS;
        result->perms = type == UC_MEM_FETCH ? UC_PROT_EXEC : UC_PROT_READ | UC_PROT_WRITE;
    }
    if (mapped && (result->paddr & ~0xFFFu) == CORE_STUB_PHYS) {
        mapped = type == UC_MEM_FETCH;
        result->perms = UC_PROT_EXEC;
    }
    if (!mapped && !c->tlb_miss) {
        /* Unicorn raises a TLB exception and stops with UC_ERR_EXCEPTION,
         * PC at the faulting instruction: core_run reports it */
        c->tlb_miss = true;
        c->tlb_miss_addr = va;
        c->tlb_miss_type = type;
        c->tlb_miss_user = user;
    }
    return mapped;
}

/* uc_emu_start stopped with an error at pc: the refused access recorded
 * by the fill hook, else an engine failure. */
void exc_engine_error(Core *c, uc_err err, uint32_t pc)
{
    if (!c->tlb_miss && err == UC_ERR_FETCH_PROT && mips_phys(pc) - NP_MMIO_PHYS < CORE_NSLOTS * NP_DEV_SIZE) {
        /* a jump into a device window (mapped, not executable) */
        if (odd_fetch_fault(c, false)) /* the address error first */
            return;
        core_raise(c, "bus-error", pc, "instruction fetch from device address 0x%08x (the MMIO windows "
                   "hold registers, not code)", pc);
        return;
    }
    if (!c->tlb_miss) {
        core_raise(c, "emulator", pc, "Unicorn stopped with '%s' near pc 0x%08x", uc_strerror(err), pc);
        return;
    }
    c->tlb_miss = false;
    uint32_t a = c->tlb_miss_addr; /* the page; the exact address: */
    const Block *b = core_current_block(c);
    unsigned size, base;
    int32_t off;
    if (c->tlb_miss_type != UC_MEM_FETCH && b && pc >= b->addr && pc < b->addr + b->size
        && mips_mem_operand(b->words[(pc - b->addr) / 4], &size, &base, &off))
        a = core_read_gpr(c, base) + (uint32_t)off;
    if (c->tlb_miss_type != UC_MEM_FETCH)
        fault_data(c, a);
    if (c->tlb_miss_user) /* a fetch: the address is pc itself */
        core_raise(c, "address-error", pc, "user-mode %s kernel address 0x%08x (pc 0x%08x; Status.KSU = "
                   "user: kseg0, kseg1 and the devices are kernel-only)", c->tlb_miss_type == UC_MEM_FETCH
                   ? "fetch from" : c->tlb_miss_type == UC_MEM_WRITE ? "write of" : "read of",
                   c->tlb_miss_type == UC_MEM_FETCH ? pc : a, pc);
    else if (c->tlb_miss_type == UC_MEM_FETCH) /* a is the page; pc the exact address */
        raise_fetch(c, "unmapped-fetch", (pc & ~0xFFFu) == a ? pc : a, "instruction fetch from unmapped address");
    else if (c->tlb_miss_type == UC_MEM_WRITE)
        core_raise(c, "unmapped-write", pc, "write of unmapped address 0x%08x (pc 0x%08x)", a, pc);
    else
        core_raise(c, "unmapped-read", pc, "read of unmapped address 0x%08x (pc 0x%08x)", a, pc);
}

/* ---- register jumps to odd addresses ------------------------------------
 * The 24Kf has the MIPS16e ASE: Unicorn takes bit 0 of a jr/jalr target as
 * the ISA mode and goes on at target - 1 in MIPS16 mode. The platform has
 * no MIPS16 code: such a jump is an instruction fetch from a misaligned
 * address (AdEL), found at the next block boundary before anything runs in
 * that mode. The target is the register as the jump read it: the register
 * after the delay slot, unless that slot may write it; then a code hook on
 * the jump saves it first. Where the engine has no MIPS16e (isa.c: every
 * core on Unicorn 2.1.1) a register jump's odd target faults in the
 * engine itself (odd_fetch_fault, jump_target); only eret, whose
 * odd EPC still sets MIPS16 mode, is checked here. */

static void jr_hook(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    Core *c = opaque;
    (void)uc;
    (void)size;
    Block *b = core_current_block(c);
    if (!b || address != b->branch_pc)
        return;
    c->jr_target = core_read_gpr(c, (b->branch_insn >> 21) & 31);
    c->jr_saved = true;
    c->jr_from = b->addr;
}

bool exc_scan_block(Core *c, Block *b)
{
    if (!(b->flags & MIPS_JREG) || b->branch_pc + 4 >= b->addr + b->size)
        return false; /* no register jump, or its delay slot is the next block */
    uint32_t ds = block_word(b, (b->branch_pc - b->addr) / 4 + 1);
    if (!(mips_gpr_writes(ds) & (1u << ((b->branch_insn >> 21) & 31))))
        return false;
    /* leaving it reads the saved target: the slow path (block_leave) */
    b->jr_hooked = true;
    block_leave(b, c->gpr != NULL);
    if (!c->jr_hooked)
        c->jr_hooked = g_hash_table_new(NULL, NULL);
    if (g_hash_table_contains(c->jr_hooked, GUINT_TO_POINTER(b->branch_pc)))
        return false;
    uc_hook h;
    if (!core_uc_ok(c, uc_hook_add(c->uc, &h, UC_HOOK_CODE, (void *)jr_hook, c, b->branch_pc, b->branch_pc),
                    "hook a register jump"))
        return false;
    g_hash_table_add(c->jr_hooked, GUINT_TO_POINTER(b->branch_pc));
    return true;
}

bool exc_odd_target(Core *c, Block *p, uint32_t addr)
{
    bool saved = c->jr_saved && c->jr_from == p->addr; /* else stale: an exception in the delay slot */
    c->jr_saved = false;
    uint32_t insn = p->branch_insn, rs = (insn >> 21) & 31;
    if (p->flags & BLOCK_SPLIT) {
        /* p ends with the jump, its delay slot (next) has not run yet */
        if (mips_classify(insn) & MIPS_JREG) {
            c->jr_target = core_gpr(c, rs);
            c->jr_saved = true;
            c->jr_from = addr; /* the delay slot's block, which inherits the jump */
        }
        return false;
    }
    if ((p->flags & MIPS_BRANCH) && MIPS_IS_JALX(insn)) {
        /* the 24Kf has MIPS16e, the platform has none: on a MIPS32 core
         * without it jalx is a reserved instruction */
        core_raise(c, "reserved-instruction", p->branch_pc, "reserved instruction 0x%08x at pc 0x%08x (jalx: "
                   "MIPS16e code is not supported)", insn, p->branch_pc);
        return true;
    }
    uint32_t target;
    if (p->flags & MIPS_ERET) /* EPC, or ErrorEPC when ERL was set (eret sets MIPS16 mode itself) */
        target = (c->cp0.epc & ~1u) == addr ? c->cp0.epc : c->cp0.error_epc;
    else if (p->flags & MIPS_JREG) /* without MIPS16e (isa.c) the engine went to the odd target */
        target = c->no_mips16 ? addr : saved ? c->jr_target : core_gpr(c, rs);
    else
        return false;
    if (!(target & 1) || ((target & ~1u) != addr && target != addr))
        return false;
    odd_fetch(c, p, target);
    return true;
}

/* Without MIPS16e in the engine (isa.c), the target of b's register jump
 * when a fetch there failed (the engine's PC is then the target less bit
 * 0): the register as the jump read it (saved when its delay slot may
 * write it, exc_scan_block). 0 when b left otherwise. */
static uint32_t jump_target(Core *c, const Block *b)
{
    if (!c->no_mips16 || !(b->flags & MIPS_JREG) || (b->flags & (MIPS_ERET | BLOCK_SPLIT)))
        return 0;
    if (c->jr_saved && c->jr_from == b->addr)
        return c->jr_target;
    return b->jr_hooked ? 0 : core_gpr(c, (b->branch_insn >> 21) & 31);
}

/* p jumped to the odd target: the misaligned-fetch fault, the jump charged */
static void odd_fetch(Core *c, Block *p, uint32_t target)
{
    /* the jump and its delay slot ran, the branch was taken */
    c->cycles += p->bt;
    p->extra += p->bt;
    if (c->next_sample < c->cycles)
        sample_range(c, c->cycles, p->branch_pc);
    c->prev = &c->none;
    c->pc = target;
    core_raise(c, "misaligned-fetch", target,
               "instruction fetch from a misaligned address 0x%08x (%s at pc 0x%08x)", target,
               (p->flags & MIPS_ERET) ? "eret" : (p->flags & MIPS_LINK) ? "jalr" : "jr", p->branch_pc);
    if (c->state == CORE_FAULT && c->fault.pc == target && !c->fault.site)
        c->fault.site = p->branch_pc;
}

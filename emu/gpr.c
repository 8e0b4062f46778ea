// SPDX-License-Identifier: GPL-2.0-or-later
/* gpr.c — reading the guest's general registers without uc_reg_read.
 *
 * The block hook reads a register at every register jump (the odd-target
 * check, exc.c, where the engine keeps MIPS16e: isa.c), after every block that may lower $sp (stack.c) and, when
 * profiling, at every call and return ($sp for the shadow stack). Through
 * uc_reg_read each read is a call into libunicorn, an indirect call to the
 * target's reg_read and its switch: on call-heavy code more than the rest
 * of the hook. Unicorn 2.1.1 has no API that returns where the registers
 * are, but its MIPS reg_read is `*value = env->active_tc.gpr[n]`, the
 * register file is the first member of the CPU state (CPUMIPSState starts
 * with TCState, which starts with gpr[32]), and the CPU state does not move
 * for the engine's life. So each core finds the register file once, when
 * it is created: it writes distinct values to $1..$31, looks for them
 * behind the pointers of the engine's CPU object (qemu_get_cpu_mips[el],
 * an exported symbol of libunicorn 2.1.1, which returns it for
 * QEMU's unassigned index -1; every read goes through
 * process_vm_readv, which fails instead of faulting on unmapped memory),
 * then proves the find by writing a second set of values through
 * uc_reg_write and reading every register both ways. Reads through the
 * pointer are then what uc_reg_read returns: the block hook is a TCG call
 * that saves the guest registers to the CPU state first (Unicorn emits it
 * with flags 0). When any step fails, c->gpr stays NULL and every read
 * goes through uc_reg_read as before (same values, slower). */
#define _GNU_SOURCE
#include "emu/core_priv.h"

#include <dlfcn.h>
#include <sys/uio.h>
#include <unistd.h>

/* How far into the CPU object its pointer to the CPU state may be (it is
 * a few hundred bytes in, after the jump buffer), and how far from the
 * object the state may start (after the 32 KiB jump cache). */
#define SCAN_BYTES 4096u
#define SPAN_BYTES (1u << 20)

/* len bytes at addr, or false when they are not all readable. */
static bool safe_read(uintptr_t addr, void *buf, size_t len)
{
    struct iovec local = { buf, len }, remote = { (void *)addr, len };
    return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)len;
}

static uint32_t mark(unsigned r, uint32_t salt)
{
    return (0x9E3779B9u * (r + 1u)) ^ salt;
}

static bool set_regs(uc_engine *uc, const uint32_t v[32])
{
    for (unsigned r = 1; r < 32; r++)
        if (uc_reg_write(uc, UC_MIPS_REG_0 + (int)r, &v[r]) != UC_ERR_OK)
            return false;
    return true;
}

/* The CPU state behind cpu whose first 32 words are want (want[0]: $zero,
 * not compared), or 0. */
static uintptr_t find_regs(uintptr_t cpu, const uint32_t want[32])
{
    uintptr_t words[SCAN_BYTES / sizeof(uintptr_t)];
    if (!safe_read(cpu, words, sizeof words))
        return 0;
    for (size_t i = 0; i < G_N_ELEMENTS(words); i++) {
        uintptr_t p = words[i];
        uint32_t got[32];
        if (p <= cpu || p - cpu >= SPAN_BYTES || p % sizeof(uint32_t) || !safe_read(p, got, sizeof got))
            continue;
        if (memcmp(&got[1], &want[1], 31 * sizeof(uint32_t)) == 0)
            return p;
    }
    return 0;
}

/* Every register reads the same through uc_reg_read and through gpr. */
static bool agree(uc_engine *uc, const volatile uint32_t *gpr, const uint32_t want[32])
{
    for (unsigned r = 0; r < 32; r++) {
        uint32_t v = 0;
        if (uc_reg_read(uc, UC_MIPS_REG_0 + (int)r, &v) != UC_ERR_OK || v != gpr[r]
            || (r > 0 && v != want[r]))
            return false;
    }
    return true;
}

bool core_registers_direct(const Core *c)
{
    return c->gpr != NULL;
}

void core_locate_gpr(Core *c)
{
    c->gpr = NULL;
    void *(*get_cpu)(void *, int) =
        (void *(*)(void *, int))dlsym(RTLD_DEFAULT, c->img->big_endian ? "qemu_get_cpu_mips" : "qemu_get_cpu_mipsel");
    if (!get_cpu)
        return;
    uint32_t saved[32], a[32], b[32];
    for (unsigned r = 0; r < 32; r++) {
        if (uc_reg_read(c->uc, UC_MIPS_REG_0 + (int)r, &saved[r]) != UC_ERR_OK)
            return;
        a[r] = mark(r, 0x5A17C0DEu);
        b[r] = mark(r, 0xC0DE5A17u);
    }
    /* Unicorn never assigns the CPU an index (QEMU's UNASSIGNED_CPU_INDEX) */
    uintptr_t cpu = (uintptr_t)get_cpu(c->uc, -1), found = 0;
    if (cpu && set_regs(c->uc, a))
        found = find_regs(cpu, a);
    const volatile uint32_t *gpr = (const volatile uint32_t *)found;
    bool ok = found && agree(c->uc, gpr, a) && set_regs(c->uc, b) && agree(c->uc, gpr, b);
    if (!set_regs(c->uc, saved))
        ok = false;
    if (ok)
        c->gpr = gpr;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* isa.c — a 24Kf without MIPS16e: the engine itself faults a jump to an
 * odd address.
 *
 * The 24Kf has the MIPS16e ASE, the platform none (SPEC: a jr, jalr or
 * eret to an odd address is an instruction fetch from a misaligned
 * address). Unicorn 2.1.1's 24Kf takes bit 0 of a jr/jalr target as the
 * ISA mode and goes on at target - 1 in MIPS16 mode, so nocprof used to
 * check the target of every register jump when its block was left: a
 * register read on every return, and a code hook on every jump whose
 * delay slot may overwrite its register. QEMU decides that switch by the
 * CPU state's instruction-set flags (CPUMIPSState.insn_flags & ASE_MIPS16,
 * copied into each translation): without the flag a register jump sets
 * PC to the odd target itself, and translating there raises the address
 * error of a fetch (decode_opc: "make sure instructions are on a word
 * boundary"), after the jump and its delay slot ran, with the target as
 * the jump read it. jalx is then a reserved instruction at the jalx.
 *
 * The flags are part of what uc_context_save copies (the CPU state up to
 * its end_reset_fields), so the engine's own API reads and writes them;
 * only their offset in a context is not published. It is found once per
 * byte order by an experiment on a scratch engine of the same CPU model:
 * the 24Kf's flags (CPU_MIPS32R2 | ASE_MIPS16 in Unicorn 2.1.1's
 * mips-defs.h) must be in the context exactly once; with the MIPS16 bit
 * cleared there and the context restored, `jr` to an odd address must
 * raise the fetch's address error (QEMU's EXCP_AdEL) at that address
 * instead of running MIPS16 code. Each core then clears the bit in its
 * own engine before anything is translated. When the experiment fails
 * (another Unicorn), the cores keep MIPS16e in the engine and nocprof
 * checks the targets itself as before (exc_odd_target). */
#include "emu/core_priv.h"

#include <string.h>

#define FLAGS_24KF 0x0000000100000063ull /* CPU_MIPS32R2 | ASE_MIPS16 */
#define ASE_MIPS16 0x0000000100000000ull
#define EXCP_ADEL 12u                    /* QEMU's address error on a load or fetch */
#define PROBE_TARGET 0x80000021u
#define PROBE_LOAD 0x80000103u

typedef struct {
    size_t flags;    /* insn_flags' offset in a context, 0: none */
    size_t badvaddr; /* CP0 BadVAddr's */
} IsaLayout;

static IsaLayout layouts[2];
static gsize probed[2];

/* A context of len bytes is Unicorn 2.1.1's struct uc_context (uc_priv.h):
 * the state's size n, mode, arch, snapshot level (20 bytes), then the
 * CPU state itself (`char data[0]` at byte 20), the struct rounded up to
 * 24: len = 24 + n, the state in [20, len - 4), the last 4 bytes never
 * written (malloc's, as valgrind says). The state's words are scanned
 * from 24 on (its first, $zero, holds nothing sought); 0 when the
 * layout is not that one. */
static size_t state_end(const void *ctx, size_t len)
{
    size_t n;
    memcpy(&n, ctx, sizeof n);
    return len == n + 24 ? len - 4 : 0;
}

/* The one 4-aligned offset of the 64-bit v in the context's CPU state,
 * or 0. */
static size_t find_once64(const uint8_t *buf, size_t len, uint64_t v)
{
    size_t at = 0, end = state_end(buf, len);
    for (size_t i = 24; i + 8 <= end; i += 4) {
        if (memcmp(buf + i, &v, 8) != 0)
            continue;
        if (at)
            return 0;
        at = i;
    }
    return at;
}

/* The context's flags at `at`: FLAGS_24KF, then MIPS16e cleared and the
 * engine given the context back. */
static bool clear_mips16(uc_engine *uc, size_t at)
{
    uc_context *ctx = NULL;
    bool ok = uc_context_alloc(uc, &ctx) == UC_ERR_OK && uc_context_save(uc, ctx) == UC_ERR_OK
              && at + 8 <= uc_context_size(uc);
    if (ok) {
        uint8_t *p = (uint8_t *)ctx;
        uint64_t f;
        memcpy(&f, p + at, 8);
        ok = f == FLAGS_24KF;
        f &= ~ASE_MIPS16;
        memcpy(p + at, &f, 8);
        ok = ok && uc_context_restore(uc, ctx) == UC_ERR_OK;
    }
    if (ctx)
        uc_context_free(ctx);
    return ok;
}

static void probe_intr(uc_engine *uc, uint32_t intno, void *opaque)
{
    *(uint32_t *)opaque = intno;
    uc_emu_stop(uc);
}

/* The code's words at 0x80000000 + at, in the engine's byte order */
static bool put_code(uc_engine *uc, bool be, uint32_t at, const uint32_t *code, unsigned n)
{
    uint8_t bytes[16];
    for (unsigned i = 0; i < n && i < 4; i++)
        for (unsigned k = 0; k < 4; k++)
            bytes[4 * i + k] = (uint8_t)(be ? code[i] >> (24 - 8 * k) : code[i] >> (8 * k));
    return n <= 4 && uc_mem_write(uc, at, bytes, 4 * n) == UC_ERR_OK;
}

/* Run from 0x80000000 + at until the address error of a load or fetch
 * (with MIPS16e a jump to an odd address runs on at the even one below,
 * through the zeros, and raises nothing in 64 instructions); the CPU
 * state then in buf. */
static bool run_to_adel(uc_engine *uc, uint32_t at, uint8_t *buf, size_t len)
{
    uint32_t intno = UINT32_MAX;
    uc_hook h;
    uc_context *ctx = NULL;
    bool ok = uc_hook_add(uc, &h, UC_HOOK_INTR, (void *)probe_intr, &intno, 1, 0) == UC_ERR_OK
              && uc_emu_start(uc, 0x80000000u + at, 0x80000FF0u, 0, 64) == UC_ERR_OK && intno == EXCP_ADEL
              && uc_hook_del(uc, h) == UC_ERR_OK && uc_context_alloc(uc, &ctx) == UC_ERR_OK
              && uc_context_save(uc, ctx) == UC_ERR_OK && uc_context_size(uc) == len;
    if (ok)
        memcpy(buf, ctx, len);
    if (ctx)
        uc_context_free(ctx);
    return ok;
}

/* The experiment, the flags at `at` cleared: `jr` to 0x80000021 must
 * raise the fetch's address error; then `lw` from 0x80000103 the load's.
 * BadVAddr is the one word that holds 0x80000021 after the first and
 * 0x80000103 after the second (QEMU also keeps the jump target). */
static size_t probe_badvaddr(uc_engine *uc, bool be)
{
    static const uint32_t jump[] = { 0x3C088000u, 0x35080000u | (PROBE_TARGET & 0xFFFFu), 0x01000008u, 0u };
    static const uint32_t load[] = { 0x3C088000u, 0x8D090000u | (PROBE_LOAD & 0xFFFFu), 0u };
    size_t len = uc_context_size(uc), found = 0;
    uint8_t *one = g_malloc(len), *two = g_malloc(len);
    if (put_code(uc, be, 0, jump, G_N_ELEMENTS(jump)) && put_code(uc, be, 0x40, load, G_N_ELEMENTS(load))
        && run_to_adel(uc, 0, one, len) && run_to_adel(uc, 0x40, two, len)) {
        uint32_t a = PROBE_TARGET, b = PROBE_LOAD;
        size_t end = state_end(two, len);
        for (size_t i = 24; i + 4 <= end; i += 4) {
            if (memcmp(two + i, &b, 4) != 0)
                continue;
            if (found || memcmp(one + i, &a, 4) != 0) {
                found = 0;
                break;
            }
            found = i;
        }
    }
    g_free(one);
    g_free(two);
    return found;
}

static IsaLayout probe(bool be)
{
    uc_engine *uc = NULL;
    uc_context *ctx = NULL;
    uc_mode mode = UC_MODE_MIPS32 | (be ? UC_MODE_BIG_ENDIAN : UC_MODE_LITTLE_ENDIAN);
    IsaLayout l = { 0, 0 };
    if (uc_open(UC_ARCH_MIPS, mode, &uc) != UC_ERR_OK)
        return l;
    /* (the engine has no CPU state before its first mapping) */
    if (uc_ctl_set_cpu_model(uc, UC_CPU_MIPS32_24KF) == UC_ERR_OK && uc_mem_map(uc, 0, 4096, UC_PROT_ALL) == UC_ERR_OK
        && uc_context_alloc(uc, &ctx) == UC_ERR_OK && uc_context_save(uc, ctx) == UC_ERR_OK)
        l.flags = find_once64((const uint8_t *)ctx, uc_context_size(uc), FLAGS_24KF);
    if (ctx)
        uc_context_free(ctx);
    if (l.flags && clear_mips16(uc, l.flags))
        l.badvaddr = probe_badvaddr(uc, be);
    if (!l.badvaddr)
        l.flags = 0;
    uc_close(uc);
    return l;
}

static const IsaLayout *layout(bool be)
{
    if (g_once_init_enter(&probed[be])) {
        layouts[be] = probe(be);
        g_once_init_leave(&probed[be], 1);
    }
    return &layouts[be];
}

bool core_drop_mips16(Core *c)
{
    const IsaLayout *l = layout(c->img->big_endian);
    return l->flags && clear_mips16(c->uc, l->flags);
}

bool core_no_mips16(const Core *c)
{
    return c->no_mips16;
}

bool core_badvaddr(Core *c, uint32_t *addr)
{
    const IsaLayout *l = layout(c->img->big_endian);
    uc_context *ctx = NULL;
    bool ok = l->badvaddr && uc_context_alloc(c->uc, &ctx) == UC_ERR_OK && uc_context_save(c->uc, ctx) == UC_ERR_OK;
    if (ok)
        memcpy(addr, (const uint8_t *)ctx + l->badvaddr, 4);
    if (ctx)
        uc_context_free(ctx);
    return ok;
}

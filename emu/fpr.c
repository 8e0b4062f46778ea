// SPDX-License-Identifier: GPL-2.0-or-later
/* fpr.c — the FPU registers for the debugger: gdb's f0-f31 and fcsr.
 *
 * Unicorn 2.1.1's MIPS reg_read and reg_write know the GPRs, HI, LO, PC
 * and three CP0 registers, nothing of the FPU: uc_reg_read of
 * UC_MIPS_REG_F0 or UC_MIPS_REG_FCC0 fails and leaves its buffer alone, so
 * gdb saw every FPU register as 0 and could write none. Its public
 * uc_context_save and uc_context_restore copy the whole CPU state
 * (QEMU's CPUMIPSState) out and back. So the FPU registers are read and
 * written in a saved context, at offsets found once per byte order by an
 * experiment on a scratch engine of the same CPU model: it runs
 * `mtc1` of three distinct words to $f0, $f1, $f2 and `ctc1` of a
 * distinct FCSR, saves its context, and looks for each word (each must be
 * there exactly once). QEMU keeps FPU register n in cell n of an array of
 * 64-bit (with MSA 128-bit) cells whatever Status.FR is (with FR = 0 a
 * double is made of the low halves of an even and an odd cell), so the
 * experiment gives the first cell and the cell size ($f1 - $f0, which must
 * equal $f2 - $f1); gdb's 32-bit register n is the low word of cell n
 * (the host is little-endian: the cell's first bytes). FCSR is
 * QEMU's fcr31, laid out as the architecture's (condition bits 23 and
 * 25-31, FS 24, cause, enables, flags, RM). When the experiment fails the
 * registers read 0 and writes are refused, as before.
 */
#include "emu/core_priv.h"

#include <string.h>

#define FCSR_MODE 0x01000003u     /* FS and RM: QEMU keeps them in fp_status too */

typedef struct {
    bool ok;
    size_t f0, f1, f2, fcsr;      /* offsets in a uc_context */
} FprLayout;

static FprLayout layouts[2];
static gsize probed[2];

/* lui/ori of v into GPR r, then insn (which reads r) */
static unsigned put_li(uint32_t *code, unsigned n, unsigned r, uint32_t v, uint32_t insn)
{
    code[n++] = 0x3C000000u | r << 16 | v >> 16;                 /* lui r, hi */
    code[n++] = 0x34000000u | r << 21 | r << 16 | (v & 0xFFFFu); /* ori r, r, lo */
    code[n++] = insn;
    return n;
}

/* The one offset of the 32-bit word v in buf, or 0 (never a real one:
 * the context starts with its own header). */
static size_t find_once(const uint8_t *buf, size_t len, uint32_t v)
{
    size_t at = 0;
    for (size_t i = 4; i + 4 <= len; i += 4) {
        if (memcmp(buf + i, &v, 4) != 0)
            continue;
        if (at)
            return 0;
        at = i;
    }
    return at;
}

static const uint32_t mark[4] = { 0x3FC0D1A5u, 0x4049A7C3u, 0xC1E5B66Bu, 0xA5800056u };

static bool run_probe(uc_engine *uc, bool be, FprLayout *l)
{
    uint32_t code[20];
    unsigned n = 0;
    code[n++] = 0x40086000u;                                     /* mfc0 t0, Status */
    n = put_li(code, n, 9, 1u << 29, 0x01094025u);               /* li t1, CU1; or t0, t0, t1 */
    code[n++] = 0x40886000u;                                     /* mtc0 t0, Status */
    code[n++] = 0x000000C0u;                                     /* ehb */
    n = put_li(code, n, 10, mark[0], 0x448A0000u);               /* mtc1 t2, $f0 */
    n = put_li(code, n, 10, mark[1], 0x448A0800u);               /* mtc1 t2, $f1 */
    n = put_li(code, n, 10, mark[2], 0x448A1000u);               /* mtc1 t2, $f2 */
    n = put_li(code, n, 10, mark[3], 0x44CAF800u);               /* ctc1 t2, $31 */
    code[n++] = 0x00005021u;                                     /* move t2, zero: FCSR's mark once */
    uint8_t bytes[sizeof code];
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < 4; k++)
            bytes[4 * i + k] = (uint8_t)(be ? code[i] >> (24 - 8 * k) : code[i] >> (8 * k));
    uc_context *ctx = NULL;
    bool ok = uc_mem_map(uc, 0, 4096, UC_PROT_ALL) == UC_ERR_OK
              && uc_mem_write(uc, 0, bytes, 4 * n) == UC_ERR_OK
              && uc_emu_start(uc, 0x80000000u, 0x80000000u + 4 * n, 0, 0) == UC_ERR_OK
              && uc_context_alloc(uc, &ctx) == UC_ERR_OK && uc_context_save(uc, ctx) == UC_ERR_OK;
    if (ok) {
        const uint8_t *p = (const uint8_t *)ctx;
        size_t len = uc_context_size(uc);
        *l = (FprLayout){ .f0 = find_once(p, len, mark[0]), .f1 = find_once(p, len, mark[1]),
                          .f2 = find_once(p, len, mark[2]), .fcsr = find_once(p, len, mark[3]) };
        /* $f0, $f1, $f2 in consecutive cells of 8 bytes or more */
        l->ok = l->f0 && l->f1 && l->f2 && l->fcsr && l->f1 > l->f0 && (l->f1 - l->f0) % 8 == 0
                && l->f2 - l->f1 == l->f1 - l->f0 && l->f0 + 32 * (l->f1 - l->f0) <= len;
    }
    if (ctx)
        uc_context_free(ctx);
    return ok && l->ok;
}

static const FprLayout *layout(bool be)
{
    if (g_once_init_enter(&probed[be])) {
        uc_engine *uc = NULL;
        uc_mode mode = UC_MODE_MIPS32 | (be ? UC_MODE_BIG_ENDIAN : UC_MODE_LITTLE_ENDIAN);
        if (uc_open(UC_ARCH_MIPS, mode, &uc) != UC_ERR_OK)
            uc = NULL;
        if (!uc || uc_ctl_set_cpu_model(uc, UC_CPU_MIPS32_24KF) != UC_ERR_OK || !run_probe(uc, be, &layouts[be]))
            layouts[be].ok = false;
        if (uc)
            uc_close(uc);
        g_once_init_leave(&probed[be], 1);
    }
    return &layouts[be];
}

/* Offset of register n (0-31; 32: FCSR) in a context (layout l->ok). */
static size_t offset_of(const FprLayout *l, unsigned n)
{
    return n == 32 ? l->fcsr : l->f0 + n * (l->f1 - l->f0);
}

bool core_fpu_read(Core *c, uint32_t fpr[32], uint32_t *fcsr)
{
    memset(fpr, 0, 32 * sizeof *fpr);
    *fcsr = 0;
    const FprLayout *l = layout(c->img->big_endian);
    uc_context *ctx = NULL;
    if (!l->ok || uc_context_alloc(c->uc, &ctx) != UC_ERR_OK)
        return false;
    bool ok = uc_context_save(c->uc, ctx) == UC_ERR_OK;
    const uint8_t *p = (const uint8_t *)ctx;
    for (unsigned n = 0; ok && n < 32; n++)
        memcpy(&fpr[n], p + offset_of(l, n), 4);
    if (ok)
        memcpy(fcsr, p + l->fcsr, 4);
    uc_context_free(ctx);
    return ok;
}

bool core_fpu_write(Core *c, unsigned n, uint32_t v)
{
    const FprLayout *l = layout(c->img->big_endian);
    uc_context *ctx = NULL;
    if (n > 32 || !l->ok || uc_context_alloc(c->uc, &ctx) != UC_ERR_OK)
        return false;
    bool ok = uc_context_save(c->uc, ctx) == UC_ERR_OK;
    uint8_t *p = (uint8_t *)ctx;
    size_t at = offset_of(l, n);
    if (ok && n == 32) {
        uint32_t old;
        memcpy(&old, p + at, 4);
        /* FS and RM also live in QEMU's fp_status, which this does not
         * reach; cause bits with their enables would trap at the next
         * FPU instruction. Either: refused. */
        ok = !((old ^ v) & FCSR_MODE) && !((v >> 12) & (((v >> 7) & 0x1Fu) | 0x20u) & 0x3Fu);
    }
    if (ok) {
        memcpy(p + at, &v, 4);
        ok = uc_context_restore(c->uc, ctx) == UC_ERR_OK;
    }
    uc_context_free(ctx);
    return ok;
}

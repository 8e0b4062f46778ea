/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * fault_mmio.c - every core reads the undefined offset 0xFF0 of the SYS
 * window (0xBF000FF0) in read_bad_sys_reg().  Expected: bus error naming
 * device SYS, offset 0xff0 and the PC in read_bad_sys_reg, exit status 3.
 */
#include "nocprof.h"

#define BAD_SYS_OFFSET 0xFF0u

uint32_t read_bad_sys_reg(void)
{
    return rt_mmio_read(RT_SYS_BASE, BAD_SYS_OFFSET);
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    rt_printf("fault_mmio: core %u reads SYS+0x%x\n", core, BAD_SYS_OFFSET);
    uint32_t v = read_bad_sys_reg();
    rt_printf("fault_mmio: not reached (0x%08x)\n", v);
    return 1;
}

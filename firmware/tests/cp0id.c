/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * cp0id.c - the CP0 registers firmware reads to learn the machine: PRId,
 * EBase (CPUNum = the core id), IntCtl (the interrupt lines of the timer
 * and the performance counters), Config1 (the L1 caches' geometry and the
 * performance counters' presence bit) and rdhwr $1 (SYNCI_Step, the line
 * size synci loops step by). Every core prints
 *   cp0id: core k prid P ebase E intctl I config1 C synci_step S
 * e2e/platform Cp0AndFpu checks them against the MIPS32 PRA encodings of
 * the [cache] configuration.
 */
#include "nocprof.h"

#define MFC0(r, s) ({ uint32_t v_; __asm__ volatile("mfc0 %0, $" #r ", " #s : "=r"(v_)); v_; })

int main(unsigned core, unsigned ncores)
{
    uint32_t step;
    __asm__ volatile("rdhwr %0, $1" : "=r"(step));
    uint32_t prid = MFC0(15, 0), ebase = MFC0(15, 1), intctl = MFC0(12, 1), config1 = MFC0(16, 1);
    /* one core at a time, in core order: the lines do not interleave */
    unsigned src;
    uint32_t token = 0;
    if (core > 0)
        rt_recv(&src, &token, 1);
    rt_printf("cp0id: core %u prid %08x ebase %08x intctl %08x config1 %08x synci_step %u\n", core,
              (unsigned)prid, (unsigned)ebase, (unsigned)intctl, (unsigned)config1, (unsigned)step);
    if (core + 1 < ncores)
        rt_send(core + 1, &token, 1);
    return 0;
}

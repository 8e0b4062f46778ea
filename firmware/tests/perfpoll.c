/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * perfpoll.c - a performance counter overflows while its core polls the
 * NI (SPEC section 1: the counters' overflow interrupt, and no scheduling
 * parameter changes a result).
 *
 * Core 0 counts instructions on PerfCnt0 (event 1, K, IE) from 3000 below
 * bit 31, turns on IM7 and IE and waits in rt_recv for core 1's packet,
 * which core 1 sends after rt_delay(200000). The poll loop's own
 * instructions make the counter overflow after a few thousand cycles: the
 * interrupt (Cause.PCI on IP7, the CP0 timer's handler) must be taken
 * then, in every schedule, not when the packet ends the poll. Prints
 *   perfpoll: hits H at T
 * (H interrupts, the first at cycle T); other cores exit at once.
 */
#include "nocprof.h"

#define PERFPOLL_DELAY 200000u

static volatile uint32_t hit_at, hits;

static void on_overflow(void)
{
    if (!hits++)
        hit_at = (uint32_t)rt_cycles();
    /* PerfCtl0 = 0, PerfCnt0 = 0: PCI drops */
    __asm__ volatile("mtc0 $zero, $25, 0\n\tmtc0 $zero, $25, 1\n\tehb" : : : "memory");
}

int main(unsigned core, unsigned ncores)
{
    uint32_t w = 0;
    unsigned src;
    if (core == 1) {
        rt_delay(PERFPOLL_DELAY);
        rt_send(0, &w, 1);
        return 0;
    }
    if (core != 0 || ncores < 2)
        return 0;
    rt_cp0_timer_set_handler(on_overflow);
    uint32_t start = 0x80000000u - 3000u, ctl = (1u << 5) | 0x10u | 0x2u; /* instructions, IE, K */
    __asm__ volatile("mtc0 %0, $25, 1\n\tmtc0 %1, $25, 0\n\tehb" : : "r"(start), "r"(ctl) : "memory");
    rt_cp0_timer_on();
    rt_interrupts_on();
    rt_recv(&src, &w, 1);
    rt_printf("perfpoll: hits %u at %u\n", (unsigned)hits, (unsigned)hit_at);
    return 0;
}

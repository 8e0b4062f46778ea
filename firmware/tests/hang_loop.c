// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hang_loop.c - a hang in a spin loop that does more than load one word
 * (a user trial): core 0 spins on `flag` in its own RAM, which nothing
 * ever sets, in a one-block loop of the kind HANG_LOOP selects; the other
 * cores exit 0. Each iteration changes the loop's own state (a counter
 * in a register, a counter in RAM) or reads more than the flag (a second
 * word, an NI status register), but nothing the loop does can end it:
 * SPEC 1's hang rule finds it within [run] livelock_cycles (exit 4), the
 * stuck core named at the loop's line, waiting for `flag` to change.
 * Before, the loop ran to the cycle limit (10^10 cycles by default).
 *   0: `while (flag == 0) n++;`      n in a register
 *   1: `while (flag == 0) seen++;`   a load and a store of another word
 *   2: `while ((flag | flag2) == 0)` two loads
 *   3: `while ((flag | RX_COUNT) == 0)` a device read and RAM (a failed
 *      NI poll: a wait for a packet, found before too)
 *   4: `while (seen < 200000) seen++;` the loop writes the word it tests:
 *      it ends by itself (exit 1), no hang
 *   5: `while (flag == 0 && flag2 == 0)` two blocks, two branches
 * With HANG_LOOP_TICKS, a periodic TIMER handler sets `flag` at that
 * tick: the loop ends, exit 0, and every count is the reference
 * schedule's at every quantum and thread count (spin_loop*, e2e/exact).
 */
#include "nocprof.h"

static volatile unsigned flag, flag2, seen, ticks;

#ifdef HANG_LOOP_TICKS
static void on_tick(void)
{
    rt_timer_ack();
    if (++ticks == HANG_LOOP_TICKS)
        flag = 1;
}
#endif

static RT_NOINLINE unsigned await_flag(void)
{
    unsigned n = 0;
#if HANG_LOOP == 0
    while (flag == 0) /* HANG_LOOP_WAIT */
        n++;
#elif HANG_LOOP == 1
    while (flag == 0) /* HANG_LOOP_WAIT */
        seen++;
    n = seen;
#elif HANG_LOOP == 2
    while ((flag | flag2) == 0) /* HANG_LOOP_WAIT */
        ;
#elif HANG_LOOP == 3
    while ((flag | rt_mmio_read(RT_NI_BASE, RT_NI_RX_COUNT)) == 0) /* HANG_LOOP_WAIT */
        ;
#elif HANG_LOOP == 5
    while (flag == 0 && flag2 == 0) /* HANG_LOOP_WAIT */
        ;
#else
    while (seen < 200000u) /* HANG_LOOP_WAIT */
        seen++;
    n = seen;
#endif
    return n;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core > 0)
        return 0;
#ifdef HANG_LOOP_TICKS
    rt_irq_set_handler(RT_IRQ_TIMER, on_tick);
    rt_irq_enable(RT_IRQ_BIT(RT_IRQ_TIMER));
    rt_timer_start(2000u, true);
    rt_interrupts_on();
#endif
    unsigned n = await_flag();
    rt_printf("hang_loop: flag %u after %u, %u ticks\n", flag, n, ticks);
#ifdef HANG_LOOP_TICKS
    rt_timer_stop();
    return 0;
#else
    return 1;
#endif
}

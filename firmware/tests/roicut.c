/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * roicut.c - a region of interest (SYS PROF_CTRL) that holds only some of
 * the runs of a block cut short (e2e/reports RoiCutCounts; the truth is
 * the objdump -dl hand count the test makes).
 *
 * Core 0: walk()'s loop block runs ROICUT_OUT times with collection off,
 * then ROICUT_N + 1 times with it on, the last run faulting at its load
 * (slots[ROICUT_N] is NULL): inside the region the instructions before
 * the load ran ROICUT_N + 1 times, the load and the rest ROICUT_N times.
 *
 * Core 1: ctrl_walk()'s loop block writes PROF_CTRL (ctrl[i]) and then
 * loads through slots[i]: 0 in runs 0 .. ROICUT_ON - 1, 1 from run
 * ROICUT_ON on (collection starts at the block after that write), and in
 * run ROICUT_N it writes 0 and faults at the load of the same run: the
 * region holds runs ROICUT_ON + 1 .. ROICUT_N (the run that writes 0 was
 * counted when it started), the last cut at the load after the write.
 * Cores 2 and 3 exit 0. Keep the marker comments: the test finds lines by
 * them.
 */
#include "nocprof.h"

#define ROICUT_N 60u
#define ROICUT_OUT 25u
#define ROICUT_ON 20u

static uint32_t cells[ROICUT_N];
uint32_t *volatile slots[ROICUT_N + 1];  /* slots[ROICUT_N] stays NULL */
volatile uint32_t ctrl[ROICUT_N + 1];
volatile uint32_t before, loaded, after;

RT_NOINLINE void walk(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        before = i;               /* ROI_BEFORE */
        loaded = *slots[i];       /* ROI_FAULT */
        after = i;                /* ROI_AFTER */
    }
}

RT_NOINLINE void ctrl_walk(void)
{
    for (unsigned i = 0;; i++) {
        *(volatile uint32_t *)(RT_SYS_BASE + RT_SYS_PROF_CTRL) = ctrl[i]; /* CTRL_WRITE */
        loaded = *slots[i];       /* CTRL_FAULT */
        after = i;                /* CTRL_AFTER */
    }
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    for (unsigned i = 0; i < ROICUT_N; i++) {
        cells[i] = i * 3u;
        slots[i] = &cells[i];
        ctrl[i] = i >= ROICUT_ON;
    }
    ctrl[ROICUT_N] = 0;
    if (core == 0) {
        rt_prof_stop();
        walk(ROICUT_OUT);
        rt_prof_start();
        walk(ROICUT_N + 1);
    } else if (core == 1) {
        rt_prof_stop();
        ctrl_walk();
    }
    return 0;
}

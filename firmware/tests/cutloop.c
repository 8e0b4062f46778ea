/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * cutloop.c - a loop whose block is cut short in its last iteration: the
 * loop body of cutloop() is one basic block; iteration i loads through
 * slots[i], which is a valid pointer for i < CUTLOOP_N and NULL for
 * i == CUTLOOP_N, so the (CUTLOOP_N + 1)-th run of the block faults at
 * that load (kuseg is unmapped: "unmapped-read", exit status 3).  What
 * runs before the load ran CUTLOOP_N + 1 times, the load and what follows
 * it CUTLOOP_N times (e2e/reports CutBlockCounts: coverage.info,
 * annotated.txt, callgrind.out).  Keep the marker comments: the test finds
 * its lines by them.
 */
#include "nocprof.h"

#define CUTLOOP_N 100u

static uint32_t cells[CUTLOOP_N];
uint32_t *volatile slots[CUTLOOP_N + 1];   /* slots[CUTLOOP_N] stays NULL */
volatile uint32_t before, loaded, after;

void cutloop(unsigned n)
{
    for (unsigned i = 0; i <= n; i++) {
        before = i;               /* CUT_BEFORE */
        loaded = *slots[i];       /* CUT_FAULT */
        after = i;                /* CUT_AFTER */
    }
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    for (unsigned i = 0; i < CUTLOOP_N; i++) {
        cells[i] = i * 3u;
        slots[i] = &cells[i];
    }
    rt_printf("cutloop: core %u\n", core);
    cutloop(CUTLOOP_N);
    rt_printf("cutloop: not reached\n");
    return 1;
}

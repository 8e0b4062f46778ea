/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * devsample_asm.S - loops whose device access costs more than its static
 * load cost ([timing] mmio over load), for e2e/profiler's sample
 * placement test.  Timeline of one iteration (default timing: load 1,
 * mmio 4, branch_taken 1):
 *
 *   ds_cycle_loop  lw CYCLE_LO 5, addiu 1, 8 x nop 1, bnez 1, delay nop 1,
 *                  taken branch 1: 17 cycles
 *   ds_poll_rx     lw RX_COUNT 5, beqz 1, delay nop 1, taken branch 1:
 *                  8 cycles (a poll loop: the emulator skips identical
 *                  iterations, emu/block.c poll_skip)
 *
 * Both return the CYCLE_LO value they read last (ds_poll_rx reads it once
 * just before its loop), from which the test computes where every sample
 * of a period equal to the loop's length must land.
 */
#include "nocprof/platform.h"

        .set    noreorder
        .text

/* unsigned ds_cycle_loop(unsigned n): n >= 1 iterations */
        .globl  ds_cycle_loop
        .type   ds_cycle_loop, @function
        .ent    ds_cycle_loop
ds_cycle_loop:
        lui     $t1, %hi(NP_SYS_BASE)
1:      lw      $t0, %lo(NP_SYS_BASE) + NP_SYS_CYCLE_LO($t1)
        addiu   $a0, $a0, -1
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        bnez    $a0, 1b
        nop
        jr      $ra
        move    $v0, $t0
        .end    ds_cycle_loop
        .size   ds_cycle_loop, . - ds_cycle_loop

/* unsigned ds_poll_rx(void): waits until a packet is there (not consumed) */
        .globl  ds_poll_rx
        .type   ds_poll_rx, @function
        .ent    ds_poll_rx
ds_poll_rx:
        lui     $t1, %hi(NP_SYS_BASE)
        lw      $t0, %lo(NP_SYS_BASE) + NP_SYS_CYCLE_LO($t1)
        lui     $t2, %hi(NP_NI_BASE)
1:      lw      $v1, %lo(NP_NI_BASE) + NP_NI_RX_COUNT($t2)
        beqz    $v1, 1b
        nop
        jr      $ra
        move    $v0, $t0
        .end    ds_poll_rx
        .size   ds_poll_rx, . - ds_poll_rx

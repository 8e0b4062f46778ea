/* SPDX-License-Identifier: GPL-2.0-or-later */ /* smc_code.S - position-independent code that smc.c copies and runs:
 * smc_sq(x) = x * x + 3, smc_tri(n) = n + (n - 1) + ... + 1 (a loop,
 * so the copy has a block of its own to translate twice). */
        .set    noreorder
        .text
        .globl  smc_code_begin, smc_code_end, smc_sq, smc_tri
        .balign 4
smc_code_begin:
smc_sq:
        mul     $v0, $a0, $a0
        jr      $ra
        addiu   $v0, $v0, 3
smc_tri:
        move    $v0, $zero
1:      addu    $v0, $v0, $a0
        addiu   $a0, $a0, -1
        bgtz    $a0, 1b
        nop
        jr      $ra
        nop
smc_code_end:

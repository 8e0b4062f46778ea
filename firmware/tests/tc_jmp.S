/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * tc_jmp.S - a minimal setjmp/longjmp for the tailcall test.
 *
 * tc_jmp_buf holds the callee-saved state of o32: s0-s7, s8 (fp), gp, sp,
 * ra (12 words).  tc_setjmp(buf) saves it and returns 0; tc_longjmp(buf, v)
 * restores it and returns v (1 if v == 0) from the matching tc_setjmp.
 */
        .set    noreorder
        .text

        .globl  tc_setjmp
        .type   tc_setjmp, @function
        .ent    tc_setjmp
tc_setjmp:
        sw      $s0, 0($a0)
        sw      $s1, 4($a0)
        sw      $s2, 8($a0)
        sw      $s3, 12($a0)
        sw      $s4, 16($a0)
        sw      $s5, 20($a0)
        sw      $s6, 24($a0)
        sw      $s7, 28($a0)
        sw      $fp, 32($a0)
        sw      $gp, 36($a0)
        sw      $sp, 40($a0)
        sw      $ra, 44($a0)
        jr      $ra
        move    $v0, $zero
        .end    tc_setjmp
        .size   tc_setjmp, . - tc_setjmp

        .globl  tc_longjmp
        .type   tc_longjmp, @function
        .ent    tc_longjmp
tc_longjmp:
        lw      $s0, 0($a0)
        lw      $s1, 4($a0)
        lw      $s2, 8($a0)
        lw      $s3, 12($a0)
        lw      $s4, 16($a0)
        lw      $s5, 20($a0)
        lw      $s6, 24($a0)
        lw      $s7, 28($a0)
        lw      $fp, 32($a0)
        lw      $gp, 36($a0)
        lw      $sp, 40($a0)
        lw      $ra, 44($a0)
        move    $v0, $a1
        bnez    $v0, 1f
        nop
        li      $v0, 1
1:      jr      $ra
        nop
        .end    tc_longjmp
        .size   tc_longjmp, . - tc_longjmp

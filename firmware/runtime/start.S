/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * start.S - reset entry and the general exception/interrupt vector.
 *
 * Reset (SPEC 1, "Reset state"): PC = _start, $a0 = core id, $a1 = number of
 * cores, $sp = top of private RAM - 16 (already a valid o32 frame: the 16
 * bytes are main's argument save area), Status.ERL = Status.BEV = 1.
 *
 * _start clears ERL, BEV, EXL and IE (interrupts stay off until the firmware
 * calls rt_interrupts_on), sets CU1 and clears FR (the FPU is usable in the
 * o32 FR=0 mode the Debian compilers' -mfpxx/-mfp32 code expects), zeroes
 * .bss, stores the reset $sp in __np_stack_top (the C library's heap
 * limit), calls main(core, ncores) and writes
 * its return value to SYS EXIT, which stops the core.  It must fit below the
 * vector at 0x80000180 (the linker script fails the link otherwise).
 *
 * _irq_vector (EBase + 0x180): the platform raises only the IRQC interrupt
 * here (synchronous exceptions stop the core in the emulator).  On entry
 * EPC = next instruction, Status.EXL = 1 (no nesting), $k0 may be clobbered.
 * The handler runs on the interrupted stack: it saves every register the
 * o32 ABI lets a C function clobber (at, v0-v1, a0-a3, t0-t9, ra, hi, lo),
 * keeps a 16-byte argument area below them, calls rt_irq_dispatch() and
 * returns with eret.  $k0/$k1 are not used.  Cause is not read (the
 * platform does not update it).
 */

#include "nocprof/platform.h"

#define CP0_STATUS $12
#define ST_FR   0x04000000      /* Status.FR: 0 = 32-bit FPRs paired (o32) */

        .set    noreorder
        .set    noat
        /* call frame information for nocprof's unwinder and gdb
         * (docs/reports.md "Frames"): in .debug_frame, not loaded */
        .cfi_sections .debug_frame

        .section .text.start, "ax", @progbits
        .globl  _start
        .type   _start, @function
        .ent    _start
_start:
        .cfi_startproc
        .cfi_undefined $ra      /* the outermost frame */
        mfc0    $t0, CP0_STATUS
        li      $t1, ~(NP_ST_IE | NP_ST_EXL | NP_ST_ERL | NP_ST_BEV | ST_FR)
        and     $t0, $t0, $t1
        li      $t1, NP_ST_CU1  /* FPU usable: hard-float o32 code runs */
        or      $t0, $t0, $t1
        mtc0    $t0, CP0_STATUS
        ehb
        la      $gp, _gp
        /* zero .bss (word aligned, both ends 16-byte aligned by link.ld) */
        la      $t0, __bss_start
        la      $t1, __bss_end
        beq     $t0, $t1, 2f
        nop
1:      sw      $zero, 0($t0)
        addiu   $t0, $t0, 4
        bne     $t0, $t1, 1b
        nop
2:      la      $t0, __np_stack_top     /* the C library's heap limit */
        sw      $sp, 0($t0)
        /* $a0, $a1 and $sp are still as the emulator set them */
        jal     main
        nop
        li      $t0, NP_SYS_BASE + NP_SYS_EXIT
        sw      $v0, 0($t0)
3:      b       3b              /* not reached: EXIT stops the core */
        nop
        .cfi_endproc
        .end    _start
        .size   _start, . - _start

/* $sp at reset (top of RAM - 16), stored by _start after .bss is zeroed. */
        .section .bss
        .globl  __np_stack_top
        .type   __np_stack_top, @object
        .size   __np_stack_top, 4
        .align  2
__np_stack_top:
        .space  4

/* Frame of the interrupt vector: 16-byte argument area + 20 saved words. */
#define IRQ_FRAME 96
#define SAVE(reg, slot)    sw reg, (16 + 4 * (slot))($sp); .cfi_rel_offset reg, 16 + 4 * (slot)
#define RESTORE(reg, slot) lw reg, (16 + 4 * (slot))($sp)

        .section .text.vector, "ax", @progbits
        .globl  _irq_vector
        .type   _irq_vector, @function
        .ent    _irq_vector
_irq_vector:
        /* the interrupted code's frame: not a call; it returns to CP0 EPC
         * (column 80 stands for it: SYM_UNWIND_EPC_COLUMN) with every
         * register saved below as it was */
        .cfi_startproc
        .cfi_signal_frame
        .cfi_return_column 80
        .cfi_undefined 80
        addiu   $sp, $sp, -IRQ_FRAME
        .cfi_adjust_cfa_offset IRQ_FRAME
        SAVE($at, 0)
        SAVE($v0, 1)
        SAVE($v1, 2)
        SAVE($a0, 3)
        SAVE($a1, 4)
        SAVE($a2, 5)
        SAVE($a3, 6)
        SAVE($t0, 7)
        SAVE($t1, 8)
        SAVE($t2, 9)
        SAVE($t3, 10)
        SAVE($t4, 11)
        SAVE($t5, 12)
        SAVE($t6, 13)
        SAVE($t7, 14)
        SAVE($t8, 15)
        SAVE($t9, 16)
        SAVE($ra, 17)
        mfhi    $t0
        mflo    $t1
        SAVE($t0, 18)
        SAVE($t1, 19)

        jal     rt_irq_dispatch
        nop

        RESTORE($t0, 18)
        RESTORE($t1, 19)
        mthi    $t0
        mtlo    $t1
        RESTORE($at, 0)
        RESTORE($v0, 1)
        RESTORE($v1, 2)
        RESTORE($a0, 3)
        RESTORE($a1, 4)
        RESTORE($a2, 5)
        RESTORE($a3, 6)
        RESTORE($t0, 7)
        RESTORE($t1, 8)
        RESTORE($t2, 9)
        RESTORE($t3, 10)
        RESTORE($t4, 11)
        RESTORE($t5, 12)
        RESTORE($t6, 13)
        RESTORE($t7, 14)
        RESTORE($t8, 15)
        RESTORE($t9, 16)
        RESTORE($ra, 17)
        addiu   $sp, $sp, IRQ_FRAME
        eret
        .cfi_endproc
        .end    _irq_vector
        .size   _irq_vector, . - _irq_vector

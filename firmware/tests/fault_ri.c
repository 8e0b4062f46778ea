/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * fault_ri.c - every core executes the word 0xFC000000 in
 * reserved_instruction().  Opcode 0x3F is SD (MIPS64 only): reserved on
 * MIPS32r2, so the core takes a Reserved Instruction exception.  Expected:
 * fault kind "reserved instruction" at the .word inside
 * reserved_instruction, exit status 3.
 */
#include "nocprof.h"

void reserved_instruction(void);
__asm__(
    "    .text\n"
    "    .globl  reserved_instruction\n"
    "    .type   reserved_instruction, @function\n"
    "    .set    push\n"
    "    .set    noreorder\n"
    "reserved_instruction:\n"
    "    nop\n"
    "    .word   0xfc000000\n"       /* reserved on MIPS32r2 */
    "    jr      $ra\n"
    "    nop\n"
    "    .set    pop\n"
    "    .size   reserved_instruction, . - reserved_instruction\n");

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    rt_printf("fault_ri: core %u executes a reserved instruction\n", core);
    reserved_instruction();
    rt_puts("fault_ri: not reached\n");
    return 1;
}

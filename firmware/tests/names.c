// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * names.c - functions whose names e2e/names replaces in a copy of the ELF
 * (same length, in .strtab and .debug_str) with hostile ones:
 *
 *   semiQcolon      -> "semi;colon"           (a frame separator)
 *   spQ12           -> "sp 12"                (a count in folded stacks)
 *   evil_fn_9__inj_ -> "evil\nfn=(9) inj"     (a callgrind record)
 *   esc_Q31mred     -> "esc\x1b[31mred"       (a terminal escape)
 *
 * Calls: semiQcolon 5 (from main), spQ12 5 (from semiQcolon), evil 3,
 * esc 2. One core is enough.
 */
#include "nocprof.h"

volatile unsigned sink;

__attribute__((noipa)) void spQ12(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        sink += i;
}

__attribute__((noipa)) void semiQcolon(unsigned n)
{
    spQ12(n);
    sink ^= n;
}

__attribute__((noipa)) void evil_fn_9__inj_(unsigned n)
{
    sink += n * 3u;
}

__attribute__((noipa)) void esc_Q31mred(unsigned n)
{
    sink -= n;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core)
        return 0;
    for (unsigned i = 0; i < 5; i++)
        semiQcolon(10);
    for (unsigned i = 0; i < 3; i++)
        evil_fn_9__inj_(i);
    for (unsigned i = 0; i < 2; i++)
        esc_Q31mred(i);
    return 0;
}

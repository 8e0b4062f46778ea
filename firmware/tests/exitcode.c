/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * exitcode.c - core k prints a line and exits with code k: with 2 or more
 * cores some exit code is non-zero, so the run's status is 1.
 */
#include "nocprof.h"

int main(unsigned core, unsigned ncores)
{
    rt_printf("exitcode: core %u of %u exits with %u\n", core, ncores, core);
    return (int)core;
}

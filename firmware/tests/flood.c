// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * flood.c - core 0 prints FLOOD_BYTES bytes without a newline ('a'..'z'
 * over and over), then "|end" and a newline, and exits 0; the other cores
 * exit at once. nocprof must stream this to coreN/console.txt without
 * holding it (tests/e2e/test_engine.py Flood).
 */
#include "nocprof.h"

#define FLOOD_BYTES (16u << 20)

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core != 0)
        return 0;
    volatile unsigned *console = (volatile unsigned *)(RT_SYS_BASE + RT_SYS_CONSOLE);
    for (unsigned i = 0; i < FLOOD_BYTES; i++)
        *console = 'a' + i % 26u;
    rt_printf("|end\n");
    return 0;
}

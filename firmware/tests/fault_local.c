// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fault_local.c - faults on addresses that no symbol names: core 0 loads a
 * word from an odd offset of parse_header's 16-byte local array buf, in
 * peek_word (frame 0; buf is in frame 1); core 1 does the same past the
 * end of buf (an overflow: buf+18); core 2 from a heap block it freed;
 * core 3 through a pointer to a local of a function that returned
 * (leave_local's). Expected: status 3, each fault's message says what the
 * address is: "buf+5, in the 16-byte local buf of parse_header (frame 1)",
 * "2 bytes past the 16-byte local buf of parse_header (frame 1)", "in the
 * heap, N bytes past _end", "N bytes below the stack pointer, in no frame"
 * (e2e/gdb test_fault_names_the_local).
 */
#include <stdlib.h>

#include "nocprof.h"

RT_NOINLINE uint32_t peek_word(const uint8_t *p, unsigned off)
{
    uint32_t v;

    __asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(p + off) : "memory");
    return v;
}

RT_NOINLINE uint32_t parse_header(unsigned core, unsigned off)
{
    uint8_t buf[16];

    for (unsigned i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i + core);
    return peek_word(buf, off) + buf[core & 15];
}

RT_NOINLINE uint32_t use_after_free(void)
{
    uint8_t *p = malloc(64);

    if (!p)
        return 0;
    p[0] = 1;
    free(p);
    return peek_word(p, 3);
}

static uint8_t *volatile left;

RT_NOINLINE void leave_local(unsigned core)
{
    uint8_t local[8];
    uint8_t *p = local;

    for (unsigned i = 0; i < sizeof local; i++)
        local[i] = (uint8_t)(i + core);
    __asm__ volatile("" : "+r"(p) : : "memory");   /* no dangling-pointer warning: kept on purpose */
    left = p;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    if (core == 0)
        return (int)parse_header(core, 5);
    if (core == 1)
        return (int)parse_header(core, 18);
    if (core == 2)
        return (int)use_after_free();
    leave_local(core);
    return (int)peek_word(left, 1);
}

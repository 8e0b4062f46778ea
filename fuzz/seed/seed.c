/* SPDX-License-Identifier: GPL-2.0-or-later */ /* seed.c — a small firmware-like program with DWARF (line table, two
 * compilation-unit functions, a static one, a loop and a call through a
 * pointer): the seed of fuzz_elf's corpus, built for both byte orders by
 * fuzz/CMakeLists.txt. A few KB instead of the ~100 KB of a real firmware,
 * so mutations stay fast. */
static volatile int sink;

static int leaf(int x)
{
    return x * 3 + 1;
}

int twice(int (*f)(int), int x)
{
    return f(f(x));
}

void _start(void)
{
    int acc = 0;
    for (int i = 0; i < 10; i++)
        acc += twice(leaf, i);
    sink = acc;
    *(volatile unsigned *)0xBF00001Cu = 0;
    for (;;)
        ;
}

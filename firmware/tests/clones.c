// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clones.c - functions GCC -O2 clones (e2e/reports Focus): simpson becomes
 * simpson.constprop.0 (n is always 64), scaled becomes scaled.isra.0 (the
 * struct passed by its fields), and checked's rare slow path is split off
 * as checked.part.0. Core 0 integrates with simpson (which calls poly);
 * the other cores never call simpson.
 */
#include "nocprof.h"

volatile unsigned sink;

static __attribute__((noinline)) unsigned poly(unsigned x)
{
    return x * x * 3u + x + 7u;
}

/* Simpson's rule over [a, a + n) with n intervals (integers: exact) */
static __attribute__((noinline)) unsigned simpson(unsigned a, unsigned n)
{
    unsigned s = poly(a) + poly(a + n);
    for (unsigned i = 1; i < n; i++)
        s += (i & 1 ? 4u : 2u) * poly(a + i);
    return s / 3u;
}

struct scale {
    unsigned pad[5];
    unsigned mul, add;
};

static struct scale scales[2];

static __attribute__((noinline)) unsigned scaled(const struct scale *c, unsigned x)
{
    return x * c->mul + c->add;
}

static unsigned slow_path(unsigned x)
{
    unsigned s = 0;
    for (unsigned i = 0; i < x; i++)
        s += poly(i) ^ (s >> 3);
    return s;
}

static unsigned checked(unsigned x)
{
    if (__builtin_expect(x < 1000u, 1))
        return x + 1u;
    sink += slow_path(x & 63u);
    sink ^= slow_path((x >> 3) & 31u);
    return sink + slow_path(x & 15u);
}

__attribute__((noinline)) unsigned other_work(unsigned n)
{
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++)
        s += checked(i * 7u);
    return s;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    scales[0].mul = 3u + core;
    scales[1].add = 5u;
    if (core == 0) {
        sink += simpson(1, 64);
        sink += simpson(5, 64);
        sink += scaled(&scales[sink & 1], 40);
    }
    sink += other_work(200 + core);
    sink += scaled(&scales[(sink >> 1) & 1], sink);
    sink += checked(sink) + checked(sink * 3u);
    return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * fpu.c - hard-float code (o32, the FPU of the 24Kf): double and float
 * arithmetic, division, square root (sqrt.d / sqrt.s instructions) and
 * conversions. Prints
 *   fpu: basel 1643934 sqrt2 1414213562 harmonic 3597739 rt 1772453
 * (the values of a host build: sum of 1/k^2 for k = 1..1000 times 1e6,
 * sqrt(2) times 1e9, sum of 1/k in float for k = 1..20 times 1e6,
 * sqrt(pi) times 1e6, each truncated), then exits 0.
 */
#include "nocprof.h"

RT_NOINLINE static double basel(unsigned n)
{
    double s = 0.0;
    for (unsigned k = 1; k <= n; k++)
        s += 1.0 / ((double)k * (double)k);
    return s;
}

RT_NOINLINE static float harmonic(unsigned n)
{
    float s = 0.0f;
    for (unsigned k = 1; k <= n; k++)
        s += 1.0f / (float)k;
    return s;
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    volatile double two = 2.0, pi = 3.14159265358979323846;
    unsigned b = (unsigned)(basel(1000) * 1e6);
    unsigned r2 = (unsigned)(__builtin_sqrt(two) * 1e9);
    unsigned h = (unsigned)(harmonic(20) * 1e6f);
    unsigned rp = (unsigned)(__builtin_sqrtf((float)pi) * 1e6f);
    if (core == 0)
        rt_printf("fpu: basel %u sqrt2 %u harmonic %u rt %u\n", b, r2, h, rp);
    return 0;
}

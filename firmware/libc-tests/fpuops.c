/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * fpuops.c - hard-float code on the platform's FPU (CP1).  Each kernel is a
 * handful of FPU instructions: add/sub/mul/div/sqrt in double and single
 * precision, int <-> float conversions, compares and branches on the FPU
 * condition.  test_libc.py checks that the instructions are there in the
 * disassembly, that every core runs them (startup sets Status.CU1; without
 * it the first one is a coprocessor-unusable fault) and that the results are
 * the host's, bit for bit.  Built with -fno-math-errno so sqrt is sqrt.d.
 * Portable: -DNOCPROF_HOST builds it for the host.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double fpu_double(double a, double b)
{
    return __builtin_sqrt((a + b) * (a - b) / b);
}

float fpu_single(float a, float b)
{
    return __builtin_sqrtf((a + b) * (a - b) / b);
}

int fpu_convert(double v, int n)
{
    return (int)(v * n) + (int)(float)(n / 3.0);
}

int fpu_compare(double a, double b)
{
    return a < b ? -1 : (a > b ? 1 : 0);
}

static uint64_t bits_d(double d)
{
    uint64_t u;

    memcpy(&u, &d, sizeof u);
    return u;
}

static uint32_t bits_f(float f)
{
    uint32_t u;

    memcpy(&u, &f, sizeof u);
    return u;
}

int run_fpu(int core)
{
    double a = 7.25 + core, b = 1.5;
    double d = fpu_double(a, b);
    float f = fpu_single((float)a, (float)b);
    int c = fpu_convert(a, 1000 + core);

    printf("fpu: core %d double %.17g %016llx\n", core, d, (unsigned long long)bits_d(d));
    printf("fpu: core %d single %.9g %08lx\n", core, (double)f, (unsigned long)bits_f(f));
    printf("fpu: core %d convert %d compare %d %d %d\n", core, c, fpu_compare(a, b),
           fpu_compare(b, a), fpu_compare(a, a));
    return 0;
}

#ifdef NOCPROF_HOST
int main(int argc, char **argv)
{
    return run_fpu(argc > 1 ? atoi(argv[1]) : 0);
}
#else
int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    return run_fpu((int)core);
}
#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * fpmix.c - a floating-point benchmark-style program with known results:
 * Simpson's rule for the integral of sin over [0, pi] (= 2), a Mandelbrot
 * iteration count over a 32x24 grid, 64 iterations at most (19 205, also
 * what Python computes with its IEEE doubles; pure double arithmetic,
 * -ffp-contract=off so no fused multiply-add on any machine), Gaussian
 * elimination with partial pivoting whose exact solution is x_i = i + 1,
 * Newton's square root against sqrt(), and a single-precision sum of squares
 * 1..100 (= 338 350, exact in float).
 *
 * Portable C like intmix.c (host build with -DNOCPROF_HOST; argv[1] = core).
 * Prints one line per kernel; returns 0 only if every result is right.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MANDEL_KNOWN 19205L
#define NSYS 6

double f_sin(double x)
{
    return sin(x);
}

double simpson(double (*f)(double), double a, double b, int n)
{
    double h = (b - a) / n, s = f(a) + f(b);

    for (int i = 1; i < n; i++)
        s += f(a + i * h) * ((i & 1) ? 4.0 : 2.0);
    return s * h / 3.0;
}

int mandel_point(double cr, double ci, int max_iter)
{
    double zr = 0.0, zi = 0.0;
    int n = 0;

    while (n < max_iter && zr * zr + zi * zi <= 4.0) {
        double t = zr * zr - zi * zi + cr;

        zi = 2.0 * zr * zi + ci;
        zr = t;
        n++;
    }
    return n;
}

long mandel_grid(int w, int h, int max_iter)
{
    long total = 0;

    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            total += mandel_point(-2.0 + 2.5 * x / w, -1.0 + 2.0 * y / h, max_iter);
    return total;
}

void gauss_solve(double a[NSYS][NSYS + 1], double *x, int n)
{
    for (int k = 0; k < n; k++) {
        int p = k;

        for (int i = k + 1; i < n; i++)
            if (fabs(a[i][k]) > fabs(a[p][k]))
                p = i;
        for (int j = 0; j <= n; j++) {
            double t = a[k][j];
            a[k][j] = a[p][j];
            a[p][j] = t;
        }
        for (int i = k + 1; i < n; i++) {
            double m = a[i][k] / a[k][k];

            for (int j = k; j <= n; j++)
                a[i][j] -= m * a[k][j];
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = a[i][n];

        for (int j = i + 1; j < n; j++)
            s -= a[i][j] * x[j];
        x[i] = s / a[i][i];
    }
}

double newton_sqrt(double v)
{
    double x = v > 1.0 ? v : 1.0;

    for (int i = 0; i < 60; i++)
        x = 0.5 * (x + v / x);
    return x;
}

float sum_squares(int n)
{
    float s = 0.0f;

    for (int i = 1; i <= n; i++)
        s += (float)i * (float)i;
    return s;
}

int fcheck(const char *what, int ok)
{
    printf("fpmix: %-8s %s\n", what, ok ? "ok" : "FAILED");
    return ok;
}

int run_fpmix(int core)
{
    double a[NSYS][NSYS + 1], x[NSYS], err = 0.0;
    int ok = 1, n = 64 + 16 * core;

    double integral = simpson(f_sin, 0.0, 3.14159265358979323846, n);
    printf("fpmix: core %d simpson n=%d %.9f\n", core, n, integral);
    ok &= fcheck("simpson", fabs(integral - 2.0) < 1e-6);

    long m = mandel_grid(32, 24, 64);
    printf("fpmix: mandel %ld\n", m);
    ok &= fcheck("mandel", m == MANDEL_KNOWN);

    for (int i = 0; i < NSYS; i++) {
        double rhs = 0.0;

        for (int j = 0; j < NSYS; j++) {
            a[i][j] = (i == j) ? 10.0 + i + core : 1.0 / (1.0 + i + j);
            rhs += a[i][j] * (j + 1);
        }
        a[i][NSYS] = rhs;
    }
    gauss_solve(a, x, NSYS);
    for (int i = 0; i < NSYS; i++)
        err = fmax(err, fabs(x[i] - (i + 1)));
    printf("fpmix: gauss x = %.6f %.6f %.6f %.6f %.6f %.6f\n", x[0], x[1], x[2], x[3], x[4], x[5]);
    ok &= fcheck("gauss", err < 1e-9);

    double v = 2.0 + core, r = newton_sqrt(v);
    printf("fpmix: sqrt(%g) = %.12f\n", v, r);
    ok &= fcheck("newton", fabs(r - sqrt(v)) < 1e-12);

    float s = sum_squares(100);
    printf("fpmix: sum of squares %.1f\n", (double)s);
    ok &= fcheck("float", s == 338350.0f);
    printf("fpmix: core %d %s\n", core, ok ? "all ok" : "FAILED");
    return ok ? 0 : 1;
}

#ifdef NOCPROF_HOST
int main(int argc, char **argv)
{
    return run_fpmix(argc > 1 ? atoi(argv[1]) : 0);
}
#else
int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    return run_fpmix((int)core);
}
#endif

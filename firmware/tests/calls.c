/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * calls.c - profiler test firmware with analytically known call counts.
 *
 * Build flags (firmware/CMakeLists.txt): -O1 -fno-inline
 * -fno-optimize-sibling-calls, so each call in the source is one real call
 * instruction and no function disappears.  The expected numbers, as macros
 * of the core id, are in calls_expected.h; this program checks its own
 * results, prints one line per test and exits 0 when all are right.
 * Console text is the same on every byte order (only values are printed).
 */
#include "calls_expected.h"
#include "nocprof.h"

unsigned fact(unsigned n)
{
    if (n <= 1)
        return 1;
    return n * fact(n - 1);
}

unsigned fib(unsigned n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

int is_odd(unsigned n);

int is_even(unsigned n)
{
    if (n == 0)
        return 1;
    return is_odd(n - 1);
}

int is_odd(unsigned n)
{
    if (n == 0)
        return 0;
    return is_even(n - 1);
}

uint32_t op_add(uint32_t a, uint32_t b) { return a + b; }
uint32_t op_sub(uint32_t a, uint32_t b) { return a - b; }
uint32_t op_mul(uint32_t a, uint32_t b) { return a * b; }
uint32_t op_xor(uint32_t a, uint32_t b) { return a ^ b; }

typedef uint32_t (*op_fn)(uint32_t, uint32_t);
op_fn ops[4] = { op_add, op_sub, op_mul, op_xor };

/* Calls every op `k` times through the table; returns a checksum. */
uint32_t run_ops(unsigned k)
{
    uint32_t acc = 1;

    for (unsigned i = 0; i < 4; i++) {
        for (unsigned j = 0; j < k; j++)
            acc = ops[i](acc, j + 3u);
    }
    return acc;
}

/* Same computation, no calls. */
uint32_t run_ops_reference(unsigned k)
{
    uint32_t acc = 1;

    for (unsigned j = 0; j < k; j++) acc = acc + (j + 3u);
    for (unsigned j = 0; j < k; j++) acc = acc - (j + 3u);
    for (unsigned j = 0; j < k; j++) acc = acc * (j + 3u);
    for (unsigned j = 0; j < k; j++) acc = acc ^ (j + 3u);
    return acc;
}

volatile uint32_t leaf_sum;

void leaf(uint32_t x)
{
    leaf_sum += x;
}

void caller_a(uint32_t x)
{
    leaf(x);
    leaf(x + 1u);
    leaf(x + 2u);
}

void caller_b(uint32_t x)
{
    leaf(x);
    leaf(x * 2u);
    leaf(x * 3u);
    leaf(x * 4u);
    leaf(x * 5u);
}

/* Returns the sum leaf() accumulated. */
uint32_t run_leaves(unsigned na, unsigned nb)
{
    leaf_sum = 0;
    for (unsigned i = 0; i < na; i++)
        caller_a(i);
    for (unsigned i = 0; i < nb; i++)
        caller_b(i);
    return leaf_sum;
}

uint32_t marked_loop(unsigned n)
{
    uint32_t acc = 0;

    for (unsigned i = 0; i < n; i++) {
        acc = acc * 31u + i;   /* LOOP-MARK */
    }
    return acc;
}

static int report(const char *what, uint32_t got, uint32_t want)
{
    rt_printf("calls: %s = %u (expected %u) %s\n", what, got, want,
              got == want ? "ok" : "WRONG");
    return got == want ? 0 : 1;
}

int main(unsigned core, unsigned ncores)
{
    int bad = 0;
    unsigned na = CALLS_CALLER_A(core), nb = CALLS_CALLER_B;
    uint32_t want_leaves = 0, want_loop = 0;

    for (unsigned i = 0; i < na; i++)
        want_leaves += 3u * i + 3u;
    for (unsigned i = 0; i < nb; i++)
        want_leaves += 15u * i;
    for (unsigned i = 0; i < CALLS_LOOP_N(core); i++)
        want_loop = want_loop * 31u + i;

    rt_printf("calls: core %u of %u\n", core, ncores);
    bad += report("fact(10)", fact(CALLS_FACT_N), CALLS_FACT_VALUE);
    bad += report("fib(12)", fib(CALLS_FIB_N), CALLS_FIB_VALUE);
    bad += report("is_even(N)", (uint32_t)is_even(CALLS_EVEN_N(core)), 1);
    bad += report("run_ops", run_ops(CALLS_OP_EACH(core)),
                  run_ops_reference(CALLS_OP_EACH(core)));
    bad += report("run_leaves", run_leaves(na, nb), want_leaves);
    bad += report("marked_loop", marked_loop(CALLS_LOOP_N(core)), want_loop);
    rt_printf("calls: %s\n", bad == 0 ? "all ok" : "FAILED");
    return bad == 0 ? 0 : 1;
}

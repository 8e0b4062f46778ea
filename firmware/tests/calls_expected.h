/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * calls_expected.h - exact call and loop counts of firmware/tests/calls.c,
 * as functions of the core id k (0-based).  Host tests include this header
 * to compare against the profiler's numbers.
 *
 * All counts are "calls into the function from anywhere" unless the macro
 * says which caller.  calls.c is built with -O1 -fno-inline
 * -fno-optimize-sibling-calls, so every call in the source is a real `jal`
 * (or `jalr` for the function pointers).
 */
#ifndef NOCPROF_CALLS_EXPECTED_H
#define NOCPROF_CALLS_EXPECTED_H

/* main is called once, by _start. */
#define CALLS_MAIN                 1u

/* fact(n): recursion n, n-1, ..., 1 -> n calls: 1 from main, n-1 from fact. */
#define CALLS_FACT_N               10u
#define CALLS_FACT                 CALLS_FACT_N
#define CALLS_FACT_FROM_MAIN       1u
#define CALLS_FACT_RECURSIVE       (CALLS_FACT_N - 1u)
#define CALLS_FACT_VALUE           3628800u

/*
 * fib(n) = n < 2 ? n : fib(n-1) + fib(n-2): C(n) = 1 + C(n-1) + C(n-2),
 * C(0) = C(1) = 1, so C(n) = 2 * F(n+1) - 1.  F(13) = 233 -> 465 calls:
 * 1 from main, 464 from fib itself.
 */
#define CALLS_FIB_N                12u
#define CALLS_FIB                  465u
#define CALLS_FIB_FROM_MAIN        1u
#define CALLS_FIB_RECURSIVE        (CALLS_FIB - 1u)
#define CALLS_FIB_VALUE            144u

/*
 * Mutual recursion: is_even(n) = n == 0 || is_odd(n-1),
 * is_odd(n) = n != 0 && is_even(n-1), started as is_even(N) from main with
 * N = CALLS_EVEN_N(k) (even):  is_even runs for N, N-2, ..., 0 (N/2 + 1
 * calls: 1 from main, N/2 from is_odd); is_odd for N-1, ..., 1 (N/2 calls,
 * all from is_even).  They form one gprof cycle.
 */
#define CALLS_EVEN_N(k)            (20u + 2u * (k))
#define CALLS_IS_EVEN(k)           (CALLS_EVEN_N(k) / 2u + 1u)
#define CALLS_IS_EVEN_FROM_MAIN    1u
#define CALLS_IS_EVEN_FROM_IS_ODD(k) (CALLS_EVEN_N(k) / 2u)
#define CALLS_IS_ODD(k)            (CALLS_EVEN_N(k) / 2u)

/*
 * Function pointers: run_ops (called once from main) calls each of op_add,
 * op_sub, op_mul, op_xor through the table `ops` CALLS_OP_EACH(k) times.
 */
#define CALLS_RUN_OPS              1u
#define CALLS_OP_EACH(k)           (5u * ((k) + 1u))

/*
 * Shared leaf: run_leaves (called once from main) calls caller_a
 * CALLS_CALLER_A(k) times and caller_b CALLS_CALLER_B times; each caller_a
 * calls leaf CALLS_LEAF_PER_A times, each caller_b CALLS_LEAF_PER_B times.
 */
#define CALLS_RUN_LEAVES           1u
#define CALLS_CALLER_A(k)          (10u * ((k) + 1u))
#define CALLS_CALLER_B             7u
#define CALLS_LEAF_PER_A           3u
#define CALLS_LEAF_PER_B           5u
#define CALLS_LEAF_FROM_A(k)       (CALLS_CALLER_A(k) * CALLS_LEAF_PER_A)
#define CALLS_LEAF_FROM_B          (CALLS_CALLER_B * CALLS_LEAF_PER_B)
#define CALLS_LEAF(k)              (CALLS_LEAF_FROM_A(k) + CALLS_LEAF_FROM_B)

/*
 * marked_loop(CALLS_LOOP_N(k)) is called once from main; the body line
 * carrying the comment LOOP-MARK executes CALLS_LOOP_N(k) times.
 */
#define CALLS_MARKED_LOOP          1u
#define CALLS_LOOP_N(k)            (100u * ((k) + 1u))
#define CALLS_LOOP_MARK_TEXT       "LOOP-MARK"

#endif

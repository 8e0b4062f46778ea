/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * tailcall_expected.h - exact counts of firmware/tests/tailcall.c (built
 * -O2 with sibling calls on).  Same on every core.
 *
 * Tail call: main calls tail_outer TC_TAIL_N times; tail_outer ends in the
 * jump `j tail_target` (no return through it), so per SPEC 3 the
 * TC_TAIL_N calls of tail_target are credited to tail_outer, not to main.
 *
 * Non-local exit: TC_ROUNDS rounds of  tc_setjmp (returns 0), then
 * dive(TC_DEPTH) recursing to depth 0, where tc_longjmp jumps back into
 * tc_setjmp's return point (tc_setjmp "returns" a second time with
 * TC_LONGJMP_VALUE).  The TC_DEPTH + 1 frames of dive and the frame of
 * tc_longjmp are abandoned without returns.
 */
#ifndef NOCPROF_TAILCALL_EXPECTED_H
#define NOCPROF_TAILCALL_EXPECTED_H

#define TC_TAIL_N                 20u
#define TC_CALLS_TAIL_OUTER       TC_TAIL_N     /* all from main */
#define TC_CALLS_TAIL_TARGET      TC_TAIL_N     /* all from tail_outer (j) */

#define TC_ROUNDS                 5u
#define TC_DEPTH                  6u
#define TC_LONGJMP_VALUE          42
#define TC_CALLS_SETJMP           TC_ROUNDS     /* from main */
#define TC_CALLS_DIVE             (TC_ROUNDS * (TC_DEPTH + 1u))
#define TC_CALLS_DIVE_FROM_MAIN   TC_ROUNDS
#define TC_CALLS_DIVE_RECURSIVE   (TC_ROUNDS * TC_DEPTH)
#define TC_CALLS_LONGJMP          TC_ROUNDS     /* from dive */

#endif

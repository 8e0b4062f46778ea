/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * tailcall.c - a tail call and a non-local exit, with the counts of
 * tailcall_expected.h.  Built -O2 (sibling calls on): tail_outer compiles
 * to `j tail_target` (check: objdump -d shows no jal in tail_outer).
 * Prints its results and exits 0 when they are right.
 */
#include "nocprof.h"
#include "tailcall_expected.h"

typedef uint32_t tc_jmp_buf[12];
int tc_setjmp(tc_jmp_buf env) __attribute__((returns_twice));
/* Does not return; not declared noreturn so that gcc does not flag dive()
 * as infinite recursion. */
void tc_longjmp(tc_jmp_buf env, int value);

__attribute__((noipa)) uint32_t tail_target(uint32_t x)
{
    return x * 3u + 1u;
}

__attribute__((noipa)) uint32_t tail_outer(uint32_t x)
{
    return tail_target(x + 1u);      /* sibling call: j tail_target */
}

volatile unsigned dive_frames;

/* Recurses `depth` levels, then leaves them all with tc_longjmp. */
__attribute__((noipa)) void dive(unsigned depth, uint32_t *env)
{
    dive_frames++;
    if (depth == 0) {
        tc_longjmp(env, TC_LONGJMP_VALUE);
        return;                      /* not reached */
    }
    dive(depth - 1, env);
    dive_frames--;                   /* not reached: keeps the call a call */
}

/* TC_ROUNDS rounds of tc_setjmp + dive; returns the number of longjmps
 * that came back with TC_LONGJMP_VALUE. */
RT_NOINLINE unsigned run_unwinds(void)
{
    static tc_jmp_buf env;
    volatile unsigned rounds = 0, jumps = 0;

    while (rounds < TC_ROUNDS) {
        int v = tc_setjmp(env);
        if (v == 0) {
            dive(TC_DEPTH, env);
            break;                   /* not reached */
        }
        if (v == TC_LONGJMP_VALUE)
            jumps++;
        rounds++;
    }
    return jumps;
}

int main(unsigned core, unsigned ncores)
{
    uint32_t sum = 0, want = 0;

    (void)ncores;
    for (uint32_t i = 0; i < TC_TAIL_N; i++) {
        sum += tail_outer(i);
        want += (i + 1u) * 3u + 1u;
    }
    dive_frames = 0;
    unsigned jumps = run_unwinds();

    bool ok = sum == want && jumps == TC_ROUNDS
           && dive_frames == TC_ROUNDS * (TC_DEPTH + 1u);
    rt_printf("tailcall: core %u tail sum %u (expected %u), %u longjmps, %u dive frames %s\n",
              core, sum, want, jumps, dive_frames, ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}

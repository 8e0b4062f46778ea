#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/placement - the cycles of code do not depend on where it lies.

A differential test of the cost models (docs/timing.md): a loop of
random instructions (ALU, loads and stores on the stack, MDU, FPU,
conditional, likely, unconditional and register branches forward
inside the loop) runs 3 times between two CYCLE_LO reads, placed at 17
addresses around a page end. Unicorn cuts its blocks differently at each
placement (a block ends at the page end, a delay slot becomes a block of
its own), but the instruction stream is the same: the cycles (exit code)
and instructions must be equal at every placement, under flat and 24k
(no cache: it legitimately depends on addresses).

The seeds are loops that found bugs, each fixed and tested by hand in
unit/core or unit/timing24k (before, the placements disagreed): 0, an
annulled delay slot split off at a page end was charged and counted
(t_likelysplit); 47 and 60, a wait in a successor's delay slot was lost
(t24_xslotwait); 76 and 91, a bne x,x was taken for the block's end
(t24_never); 81 and 83, a successor's wait window stopped at a page end
(t24_xpagewait); 36, a result pending across a page-end block and the
next (t24_xtwo, t24_xsplitmul for a delay slot split off at a page
end); 75 and 94, the same into a conditional branch, whose predicted
way is now followed (docs/timing.md); 99, an annulled likely slot split
off at a page end (t24_xlikelysplit); 74 (listed as differing, it
agreed by session 12). Other seeds can still differ under 24k by the
documented case of a pending result whose path diverges at a
conditional branch before it is read, the way not predicted taken (20,
25, 41, 56, 62, 84, 92, 95 of the first hundred; 41, 62 and 84 at a
loop's exit, after a result pending across its back edge's block; the
others not looked into).
"""
import os
import random
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import run  # noqa: E402

REGS = ["$t0", "$t1", "$t2", "$t3", "$t4"]
SEEDS = (0, 36, 47, 60, 74, 75, 76, 81, 83, 91, 94, 99)
# ASan+UBSan build (tests/CMakeLists.txt sets it): the cycle model is the
# normal build's to check; the sanitizers need only some of its runs
if os.environ.get("NOCPROF_E2E_SANITIZED") == "1":
    SEEDS = SEEDS[:2]
PLACES = range(0xfc0, 0x1004, 4)


def simple(rng):
    k = rng.randrange(25)
    a, b, c = rng.choice(REGS), rng.choice(REGS), rng.choice(REGS)
    fa, fb, fc = ["$f%d" % (2 * rng.randrange(4)) for _ in range(3)]
    return [
        "addu %s, %s, %s" % (a, b, c), "lw %s, %d($sp)" % (a, 4 * rng.randrange(8)),
        "sw %s, %d($sp)" % (a, 4 * rng.randrange(8)), "mul %s, %s, %s" % (a, b, c), "mult %s, %s" % (b, c),
        "mflo %s" % a, "mfhi %s" % a, "addiu %s, %s, %d" % (a, b, rng.randrange(-50, 50)),
        "lw %s, %d($sp)" % (a, 4 * rng.randrange(8)), "divu $zero, %s, %s" % (b, c), "sltu %s, %s, %s" % (a, b, c),
        "nop", "add.s %s, %s, %s" % (fa, fb, fc), "mul.d %s, %s, %s" % (fa, fb, fc),
        "div.s %s, %s, %s" % (fa, fb, fc), "mtc1 %s, %s" % (b, fa), "mfc1 %s, %s" % (a, fb),
        "lwc1 %s, %d($sp)" % (fa, 4 * rng.randrange(8)), "madd %s, %s" % (b, c), "mthi %s" % b,
        "lb %s, %d($sp)" % (a, rng.randrange(32)), "sqrt.d %s, %s" % (fa, fb), "cvt.w.s %s, %s" % (fa, fb),
        "c.lt.s %s, %s" % (fb, fc), "movz %s, %s, %s" % (a, b, c)][k]


def body(rng, n):
    lines = []
    for i in range(n):
        lines.append("L%d:" % i)
        k = rng.randrange(12)
        tgt = "L%d" % rng.randrange(i + 1, n + 1)
        r1, r2 = rng.choice(REGS), rng.choice(REGS)
        if k == 0:
            lines += ["beq %s, %s, %s" % (r1, r2, tgt), simple(rng)]
        elif k == 1:
            lines += ["bne %s, %s, %s" % (r1, r2, tgt), simple(rng)]
        elif k == 2:
            lines += ["b %s" % tgt, simple(rng)]
        elif k == 3:
            lines += ["lui $t9, %%hi(%s)" % tgt, "addiu $t9, $t9, %%lo(%s)" % tgt, "jr $t9", simple(rng)]
        elif k == 4:
            lines += ["bgez %s, %s" % (r1, tgt), simple(rng)]
        elif k == 5:
            lines += ["bc1t %s" % tgt, simple(rng)]
        elif k == 6:
            lines += ["beql %s, %s, %s" % (r1, r2, tgt), simple(rng)]
        else:
            lines.append(simple(rng))
    return lines + ["L%d:" % n]


def program(seed, org):
    rng = random.Random(seed)
    loop = body(rng, 6 + seed % 10)
    init = ["li %s, %d" % (r, random.Random(seed * 7 + i).randrange(-1000, 1000)) for i, r in enumerate(REGS)]
    return "\n".join(['#include "common.inc"', ".text", ".globl _start", "_start:", "SETUP",
                      "mfc0 $t0, $12", "lui $t1, 0x2000", "or $t0, $t0, $t1", "mtc0 $t0, $12", "ehb"] + init +
                     ["addiu $sp, $sp, -64", "nop", "MEASURE_BEGIN", "li $s6, 3", "j top", "nop",
                      ".org %s" % hex(org), "top:"] +
                     loop + ["addiu $s6, $s6, -1", "bne $s6, $zero, top", "nop", "MEASURE_END"]) + "\n"


def build(src, d, name):
    """Assemble and link as tests/CMakeLists.txt does the fixtures."""
    s, pp, obj, elf = (os.path.join(d, name + x) for x in (".S", ".s", ".o", ".elf"))
    with open(s, "w") as f:
        f.write(src)
    fx = nptest.src("tests", "fixtures", "emu")
    subprocess.run([nptest.tool("cc"), "-E", "-P", "-x", "assembler-with-cpp", "-I", fx, "-I",
                    nptest.src("include"), "-o", pp, s], check=True)
    subprocess.run([nptest.tool("mipsel-linux-gnu-as"), "-EL", "-march=mips32r2", "-o", obj, pp], check=True)
    subprocess.run([nptest.tool("mipsel-linux-gnu-objcopy"), "-R", ".MIPS.abiflags", "-R", ".reginfo", obj],
                   check=True)
    subprocess.run([nptest.tool("mipsel-linux-gnu-ld"), "-EL", "-N", "-Ttext=0x80000000", "-e", "_start", "-o",
                    elf, obj], check=True)
    return elf


class Placement(unittest.TestCase):
    def test_cycles_do_not_depend_on_the_placement(self):
        d = nptest.tmpdir("place")
        for seed in SEEDS:
            elfs = {org: build(program(seed, org), d, "s%d_%x" % (seed, org)) for org in PLACES}
            for model in ("flat", "24k"):
                got = {}
                for org, elf in elfs.items():
                    r = run(["--set", "timing.model=" + model, "--max-cycles", "100000"] + nptest.ONE_CORE + [elf])
                    c = r.core(0)
                    self.assertEqual(c["status"], "exited", r.describe())
                    got[org] = (c["exit_code"], c["instructions"])
                with self.subTest(seed=seed, model=model):
                    self.assertEqual(len(set(got.values())), 1,
                                     "seed %d, %s: %s" % (seed, model, {hex(k): v for k, v in got.items()}))


if __name__ == "__main__":
    nptest.main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/smc - code a core writes and then runs (SPEC 1: "Code that a core
writes and then executes ... runs as written once the MIPS rules are
followed (store, synci/cache, jr.hb/eret), and is charged, sampled,
hooked and fault-located as what really ran").

Fixtures (tests/fixtures/emu): t_smc (a function patched between addiu
and mul before each call, cycles by hand), t_smc_count (an mfc0 Count
patched in: hooked, its exact value), t_f_smcovf (an overflowing add
patched in: the fault at its own pc), t_smc_far and t_smc_stack (code
copied outside the image, then patched by stores alone, no synci: every
page code runs from is watched), t_smc_kseg1 (a patch stored through
kseg1, RAM's uncached alias). Firmware smc (firmware/tests):
code copied to RAM, far RAM and the stack, rewritten in place, and
received over the NoC. Both byte orders."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import fixture, fw, run  # noqa: E402

# the flat [timing] defaults (SPEC 1), and overrides
DEFAULT = {"load": 1, "store": 0, "mul": 2, "branch_taken": 1, "mmio": 4}
OVERRIDES = {"load": 3, "store": 2, "mul": 5, "branch_taken": 4, "mmio": 9}
ENDIANS = ("el", "eb")


def run_fixture(name, endian, timing=None):
    args = [fixture(name, endian)] + nptest.ONE_CORE + ["--max-cycles", "2000000"]
    for k, v in (timing or {}).items():
        args += ["--set", "timing.%s=%d" % (k, v)]
    return run(args)


def patch_loop_cycles(t):
    """t_smc.S, by hand: the first CYCLE_LO read, 8 iterations of 19
    instructions (2 stores, 2 console writes, jalr.hb and jr taken), bne
    taken 7 times, 4 of the 8 calls run mul, then the newline."""
    it = 19 + 2 * t["store"] + 2 * t["mmio"] + 2 * t["branch_taken"]
    return (1 + t["mmio"]) + 8 * it + 7 * t["branch_taken"] + 4 * t["mul"] + (2 + t["mmio"])


class PatchedCode(unittest.TestCase):
    def test_patch_loop_runs_and_is_charged_as_written(self):
        # before: console "1 1 1 1 1 1 1 1", 250 cycles (f kept its first
        # translation and its cost)
        for endian in ENDIANS:
            for timing, sets in ((DEFAULT, None), (OVERRIDES, OVERRIDES)):
                with self.subTest(endian=endian, timing=timing):
                    r = run_fixture("t_smc", endian, sets)
                    c = r.core(0)
                    self.assertEqual(c["status"], "exited", r.describe())
                    self.assertEqual(r.text("core0", "console.txt"), "1 2 1 2 1 2 1 2 \n")
                    self.assertEqual(c["exit_code"], patch_loop_cycles(timing))

    def test_patched_mfc0_count_is_hooked(self):
        # before: the mfc0 read 0 (exit -24: -t0)
        for endian in ENDIANS:
            for timing, sets in ((DEFAULT, None), (OVERRIDES, OVERRIDES)):
                with self.subTest(endian=endian, timing=timing):
                    r = run_fixture("t_smc_count", endian, sets)
                    c = r.core(0)
                    self.assertEqual(c["status"], "exited", r.describe())
                    t0_odd = int(r.text("core0", "console.txt"))
                    m = timing["mmio"]
                    self.assertEqual(c["exit_code"], 2 + m - ((t0_odd + 2 + m) & 1))

    def test_patched_fault_is_located_from_memory(self):
        # before: pc h + 12 (the block's last instruction: the words of the
        # first translation have no add)
        for endian in ENDIANS:
            with self.subTest(endian=endian):
                r = run_fixture("t_f_smcovf", endian)
                c = r.core(0)
                h = nptest.symbols(fixture("t_f_smcovf", endian), endian)
                self.assertEqual(c["status"], "fault", r.describe())
                self.assertEqual(c["fault"]["kind"], "overflow")
                self.assertEqual(c["fault"]["function"], "h")
                self.assertEqual(c["fault"]["pc"], h["h"][0] + 4)

    def test_patched_through_kseg1(self):
        # t_smc_kseg1: f called through kseg0 and kseg1, its delay slot
        # rewritten by a sw through kseg1 (RAM's uncached alias, past the
        # write protection of code pages, emu/uncached.c), called again
        # both ways: v0 = 1, 1, 2, 2. Without the alias's own check (the
        # alias is not write-protected): 0x1111, the old code ran on.
        for endian in ENDIANS:
            with self.subTest(endian=endian):
                r = run_fixture("t_smc_kseg1", endian)
                c = r.core(0)
                self.assertEqual(c["status"], "exited", r.describe())
                self.assertEqual(c["exit_code"], 0x1122)


def unsynced_loop_cycles(t):
    """t_smc_far.S, by hand: the first CYCLE_LO read, 8 iterations of 16
    instructions (the patch store, 2 console writes, jalr.hb and jr
    taken), bne taken 7 times, 4 of the 8 calls run mul, then the newline."""
    it = 16 + t["store"] + 2 * t["mmio"] + 2 * t["branch_taken"]
    return (1 + t["mmio"]) + 8 * it + 7 * t["branch_taken"] + 4 * t["mul"] + (2 + t["mmio"])


class UnsyncedCode(unittest.TestCase):
    def test_patched_without_synci_outside_the_image(self):
        # before (RAM between the image and the top 16 pages was one
        # Unicorn region, unwatched): t_smc_far printed the right console
        # but exited with 226 cycles, not 234 (401, not 421, with the
        # overrides): every call charged as its first translation, the
        # 4 muls uncharged. t_smc_stack: 234 before and after (the stack
        # was pre-split; now split when code lands on it).
        for name in ("t_smc_far", "t_smc_stack"):
            for endian in ENDIANS:
                for timing, sets in ((DEFAULT, None), (OVERRIDES, OVERRIDES)):
                    with self.subTest(name=name, endian=endian, timing=timing):
                        r = run_fixture(name, endian, sets)
                        c = r.core(0)
                        self.assertEqual(c["status"], "exited", r.describe())
                        self.assertEqual(r.text("core0", "console.txt"), "1 2 1 2 1 2 1 2 \n")
                        self.assertEqual(c["exit_code"], unsynced_loop_cycles(timing))


class EveryStoreKind(unittest.TestCase):
    def test_stores_slots_blocks_and_aliases(self):
        """t_smc_stores: f patched by sw, sb x4, sh x2, swl+swr, swc1, sdc1
        (two words) and sc; h's jr delay slot; a word in the middle of m,
        m made shorter and written back; p's delay slot on the next page;
        m run and patched through kseg1. Every result as written, in both
        models, profiled or not; the calls are those made (m: 5 through
        kseg0, 1 through kseg1)."""
        for endian in ENDIANS:
            elf = fixture("t_smc_stores", endian)
            for model in ("flat", "24k"):
                for extra in ([], ["--no-profile"]):
                    with self.subTest(endian=endian, model=model, extra=extra):
                        r = run([elf] + nptest.ONE_CORE + ["--set", "timing.model=" + model] + extra)
                        self.assertEqual(r.rc, 0, r.describe())
                        self.assertEqual(r.text("core0", "console.txt"), "123456718 12 6816 15 68\n")
                        if extra:
                            continue
                        fn = nptest.functions(r.core(0))
                        self.assertEqual({k: fn[k]["calls"] for k in ("f", "h", "m", "p")},
                                         {"f": 8, "h": 2, "m": 6, "p": 2})
                        self.assertEqual(fn.get("<unknown>", {"self_cycles": 0})["self_cycles"], 0)


class CopiedCode(unittest.TestCase):
    def test_ram_stack_and_noc(self):
        # before: "stack 19 28 19 28" (the stack copy ran its first version)
        for endian in ENDIANS:
            with self.subTest(endian=endian):
                r = run([fw("smc", endian)])
                self.assertEqual(r.rc, 0, r.describe())
                self.assertEqual(r.text("core0", "console.txt"),
                                 "ram 19 15 19 15\nfar 19 15 19 15\nstack 19 15 19 15\n")
                self.assertEqual(r.text("core1", "console.txt"), "noc 21 28\n")
                for i in range(4):
                    self.assertEqual(r.core(i)["status"], "exited")

    def test_one_core(self):
        r = run([fw("smc", "el")] + nptest.ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(r.text("core0", "console.txt"),
                         "ram 19 15 19 15\nfar 19 15 19 15\nstack 19 15 19 15\n")


if __name__ == "__main__":
    nptest.main()

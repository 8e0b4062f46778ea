#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_floor.py - bench-bare's floor modes do the work they stand for
(docs/performance.md, "The floor of a block hook").

--floor-count must count exactly the blocks and instructions that the
counting hook (--count) counts; --floor-calls must find exactly the calls
nocprof's profile finds (summary.json, every function's calls summed over
the cores), each returning (no frame left open, no return unmatched);
--floor-contexts also exactly nocprof's calling contexts (the lines of
stacks.folded: every context runs at least one cycle of its own) and
recursive calls, on callheavy and on the mutual recursion of bench-hof-q
(243k contexts).
Otherwise the floor would be cheaper than the work it claims to measure.
bench-bare is next to nocprof in the build (build/bench/bench-bare).
"""
import json
import os
import subprocess
import unittest

import nptest
from nptest import fw, main, run


def bare(*args):
    path = os.path.join(os.path.dirname(nptest.nocprof()), "bench", "bench-bare")
    if not os.path.exists(path):
        raise unittest.SkipTest("bench-bare not built: " + path)
    p = subprocess.run([path, "-q"] + list(args), capture_output=True, text=True, timeout=120)
    line = [ln for ln in p.stdout.splitlines() if ln.startswith("BARE ")]
    if p.returncode != 0 or not line:
        raise AssertionError("bench-bare %s -> %d: %s" % (" ".join(args), p.returncode, p.stderr[-2000:]))
    return json.loads(line[-1][5:])


class Floor(unittest.TestCase):
    def test_counts_and_calls(self):
        for endian in ("el", "eb"):
            with self.subTest(endian=endian):
                elf = fw("callheavy", endian)
                count = bare("--count", elf)
                a = bare("--floor-count", elf)
                b = bare("--floor-calls", elf)
                self.assertGreater(count["blocks"], 1000000)
                for m in (a, b):
                    self.assertEqual(m["floor_blocks"], count["blocks"])
                    self.assertEqual(m["floor_instructions"], count["total_instructions"])
                r = run([elf])
                self.assertEqual(r.rc, 0, r.describe())
                calls = sum(f["calls"] for c in r.summary["cores"] for f in c["functions"])
                self.assertEqual(b["floor_calls"], calls)
                self.assertEqual(b["floor_returns"], calls)
                self.assertEqual(b["floor_unmatched"], 0)

    def test_contexts(self):
        for name in ("callheavy", "bench-hof-q"):
            for endian in ("el", "eb"):
                with self.subTest(name=name, endian=endian):
                    elf = fw(name, endian)
                    c = bare("--floor-contexts", elf)
                    r = run([elf])
                    self.assertEqual(r.rc, 0, r.describe())
                    funcs = [f for core in r.summary["cores"] for f in core["functions"]]
                    self.assertEqual(c["floor_calls"], sum(f["calls"] for f in funcs))
                    self.assertEqual(c["floor_recursive_calls"], sum(f["recursive_calls"] for f in funcs))
                    self.assertEqual(c["floor_returns"], c["floor_calls"])
                    self.assertEqual(c["floor_unmatched"], 0)
                    with open(os.path.join(r.out, "stacks.folded")) as f:
                        lines = sum(1 for ln in f if ln.strip())
                    self.assertEqual(c["floor_contexts"], lines)
                    self.assertGreater(c["floor_contexts"], 50)


if __name__ == "__main__":
    main()

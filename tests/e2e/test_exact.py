#!/usr/bin/env python3
"""test_exact.py - no scheduling knob changes any result (SPEC sections 1, 5).

The scheduler is conservative and exact (emu/machine.h): [sched] quantum
and --threads only change speed. Every file a run writes must be byte
for byte the same for every quantum and thread count, on firmware whose
numbers depend on exactly when the NI shows room or data: matmul scatters
rows (the injection queue fills), computes and gathers; netirq sleeps in
`wait` and is woken by NoC interrupts; pipeline streams through 4 stages.
"""
import os
import unittest

from nptest import fw, main, run

KNOBS = [(1, 1), (10, 2), (100, 4), (1000, 1), (1000, 2), (1000, 4), (10000, 1), (10000, 4),
         (37, 3), (100000, 2)]


def files_of(out):
    """Every file of an output folder, relative path -> bytes."""
    got = {}
    for root, _dirs, names in os.walk(out):
        for n in names:
            p = os.path.join(root, n)
            with open(p, "rb") as f:
                got[os.path.relpath(p, out)] = f.read()
    return got


class Exact(unittest.TestCase):
    def check_knobs(self, name, knobs, endian="el"):
        base = None
        for q, t in knobs:
            r = run([fw(name, endian), "--set", "sched.quantum=%d" % q, "--threads", str(t)])
            self.assertIn(r.rc, (0, 1), r.describe())
            got = files_of(r.out)
            self.assertIn("summary.json", got)
            if base is None:
                base, bq, bt = got, q, t
                continue
            self.assertEqual(sorted(got), sorted(base), "%s: other files at q=%d t=%d" % (name, q, t))
            for k in base:
                self.assertEqual(got[k], base[k], "%s: %s differs at quantum %d, %d threads (vs %d, %d)"
                                 % (name, k, q, t, bq, bt))
        return base

    def test_matmul_every_knob(self):
        base = self.check_knobs("matmul", KNOBS)
        self.assertIn(b"0 mismatches", base[os.path.join("core0", "console.txt")])

    def test_matmul_big_endian(self):
        self.check_knobs("matmul", [(1, 1), (1000, 4), (10000, 2)], "eb")

    def test_netirq(self):
        self.check_knobs("netirq", [(1, 1), (1000, 2), (10000, 4)])

    def test_pipeline(self):
        self.check_knobs("pipeline", [(1, 1), (1000, 4), (100000, 2)])

    def test_livelock(self):
        # where each core stops and the cycle the livelock is found
        base = None
        for q, t in [(1, 1), (1000, 2), (10000, 4)]:
            r = run([fw("livelock"), "--set", "run.livelock_cycles=50000", "--set", "sched.quantum=%d" % q,
                     "--threads", str(t)])
            self.assertEqual(r.rc, 4, r.describe())
            got = files_of(r.out)
            if base is None:
                base = got
            for k in base:
                self.assertEqual(got[k], base[k], "livelock: %s differs at quantum %d, %d threads" % (k, q, t))

    def test_hangs(self):
        # issue 19.8: hangs kept busy by interrupts, a full network behind an
        # exited core, every core flooding one: found at the same cycle, each
        # core stopped at the same place, the same reports, in every schedule
        for name in ("hang_irq", "hang_exited", "hang_flood"):
            base = None
            for q, t in [(1, 1), (1000, 2), (37, 3), (10000, 4), (100000, 2)]:
                r = run([fw(name), "--set", "run.livelock_cycles=50000", "--set", "sched.quantum=%d" % q,
                         "--threads", str(t)], timeout=120)
                self.assertEqual(r.rc, 4, r.describe())
                got = files_of(r.out)
                if base is None:
                    base = got
                self.assertEqual(sorted(got), sorted(base))
                for k in base:
                    self.assertEqual(got[k], base[k], "%s: %s differs at quantum %d, %d threads" % (name, k, q, t))

    def test_threads_option_validated(self):
        r = run([fw("matmul"), "--threads", "x"])
        self.assertEqual(r.rc, 2)
        self.assertIn("threads", r.stderr)


if __name__ == "__main__":
    main()

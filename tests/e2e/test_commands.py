#!/usr/bin/env python3
"""e2e/commands - nocprof report, diff and merge on real runs (issue 13).

  report  every file of a run is rebuilt byte-identically from
          OUT/profile.data after being deleted; --period P of a run that
          recorded several periods gives exactly the files of a run that
          recorded only P (sampling never perturbs the guest); damaged
          data and a changed ELF are refused with status 2, naming the
          field or the ELF.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import fw, raw, run  # noqa: E402


def checksums(out, skip=("profile.data",)):
    """relative path -> sha256 of every file of an output folder, except the
    saved data and the firmware copy."""
    sums = {}
    for root, _, files in os.walk(out):
        for name in files:
            rel = os.path.relpath(os.path.join(root, name), out)
            if rel in skip or rel.startswith("firmware" + os.sep):
                continue
            with open(os.path.join(root, name), "rb") as f:
                sums[rel] = hashlib.sha256(f.read()).hexdigest()
    return sums


def delete_reports(out):
    for rel in checksums(out):
        os.unlink(os.path.join(out, rel))


class Report(unittest.TestCase):
    def rebuild_same(self, r):
        self.assertIn(r.rc, (0, 1, 3, 4), r.describe())
        before = checksums(r.out)
        self.assertGreater(len(before), 10)
        delete_reports(r.out)
        self.assertEqual(checksums(r.out), {})
        res = raw(["report", r.out])
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(checksums(r.out), before)
        return before

    def test_calls_two_periods_identical(self):
        r = run([fw("calls"), "--sample-period", "1000,997"])
        sums = self.rebuild_same(r)
        for name in ("summary.json", "summary.txt", "noc.txt", "flat.txt", "callgraph.txt", "trace.json",
                     "stacks.folded", "aliasing.txt", "aliasing.svg", "core0/gmon.out", "core0/gmon-997.out",
                     "core3/annotated.txt", "core3/callgrind.out", "core2/console.txt", "report.html"):
            self.assertIn(name, sums)

    def test_fault_and_deadlock_identical(self):
        """a faulting core (stack, source line) and a deadlock (where each
        core waited) come back the same"""
        for name, rc in (("fault_break", 3), ("deadlock", 4)):
            with self.subTest(firmware=name):
                r = run([fw(name)])
                self.assertEqual(r.rc, rc, r.describe())
                self.rebuild_same(r)

    def test_demo_identical(self):
        """the bundled demo's ELF is found again in OUT/firmware/"""
        self.rebuild_same(run([]))

    def test_big_endian_and_relative_elf_from_elsewhere(self):
        """an ELF given by a relative path is found again by its absolute
        path when `report` runs from another folder"""
        elf = fw("calls", "eb")
        r = run([os.path.basename(elf)], cwd=os.path.dirname(elf))
        before = checksums(r.out)
        delete_reports(r.out)
        res = raw(["report", r.out], cwd=nptest.tmpdir("cwd"))
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(checksums(r.out), before)

    def test_period_selection_equals_single_period_run(self):
        both = run([fw("calls"), "--sample-period", "1000,997"])
        only = run([fw("calls"), "--sample-period", "997"])
        self.assertEqual(both.rc, 0, both.describe())
        dest = nptest.tmpdir("sel")
        res = raw(["report", "--period", "997", "-o", dest, both.out])
        self.assertEqual(res.returncode, 0, res.stderr)
        got, exp = checksums(dest), checksums(only.out)
        self.assertEqual(sorted(got), sorted(exp))
        self.assertNotIn("aliasing.txt", got)
        for name in exp:
            self.assertEqual(got[name], exp[name], name)
        # DIR holds the data it shows: it can be re-rendered in turn
        self.assertTrue(os.path.exists(os.path.join(dest, "profile.data")))
        delete_reports(dest)
        res = raw(["report", dest])
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(checksums(dest), got)
        # and the selected period's gmon.out is the two-period run's gmon-997.out
        with open(os.path.join(dest, "core1", "gmon.out"), "rb") as a, \
                open(os.path.join(both.out, "core1", "gmon-997.out"), "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_run_settings_kept_and_overridden(self):
        """--fold-recursion and --no-trace of the run are kept by a plain
        report; report --fold-recursion N gives the stacks of a run with N"""
        folded = run([fw("calls"), "--fold-recursion", "1", "--no-trace"])
        plain = run([fw("calls")])
        self.assertEqual(folded.rc, 0, folded.describe())
        self.assertNotIn("trace.json", checksums(folded.out))
        self.rebuild_same(folded)
        dest = nptest.tmpdir("fold")
        res = raw(["report", "--fold-recursion", "0", "-o", dest, folded.out])
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(dest, "stacks.folded")) as a, open(plain.path("stacks.folded")) as b:
            self.assertEqual(a.read(), b.read())
        res = raw(["report", "--fold-recursion", "1", "-o", dest, plain.out])
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(dest, "stacks.folded")) as a, open(folded.path("stacks.folded")) as b:
            self.assertEqual(a.read(), b.read())

    def test_period_not_recorded(self):
        r = run([fw("calls"), "--sample-period", "1000"])
        res = raw(["report", "--period", "999", r.out])
        self.assertEqual(res.returncode, 2)
        self.assertIn("period 999 was not recorded (recorded: 1000)", res.stderr)

    def test_damaged_data_refused(self):
        r = run([fw("calls")])
        path = r.path("profile.data")
        data = bytearray(open(path, "rb").read())
        cases = [
            (bytes(data[:4000]), "length: header says"),
            (b"XXXXXXXX" + bytes(data[8:]), "not nocprof profile data"),
            (bytes(data[:8]) + b"\x07" + bytes(data[9:]), "version: format version 7"),
        ]
        for blob, msg in cases:
            with self.subTest(msg=msg):
                with open(path, "wb") as f:
                    f.write(blob)
                res = raw(["report", r.out])
                self.assertEqual(res.returncode, 2, res.stderr)
                self.assertIn(path, res.stderr)
                self.assertIn(msg, res.stderr)
        os.unlink(path)
        res = raw(["report", r.out])
        self.assertEqual(res.returncode, 2)
        self.assertIn("profile.data", res.stderr)

    def test_changed_elf_refused(self):
        elf = os.path.join(nptest.tmpdir("elf"), "calls.elf")
        shutil.copy(fw("calls"), elf)
        r = run([elf])
        self.assertEqual(r.rc, 0, r.describe())
        with open(elf, "ab") as f:
            f.write(b"\0")
        res = raw(["report", r.out])
        self.assertEqual(res.returncode, 2)
        self.assertIn("core 0: ELF %s with SHA-256" % elf, res.stderr)
        self.assertIn("not found: %s has SHA-256" % elf, res.stderr)

    def test_help(self):
        res = raw(["report", "--help"])
        self.assertEqual(res.returncode, 0)
        for word in ("--period", "-o, --out", "profile.data", "SHA-256", "Exit status"):
            self.assertIn(word, res.stdout)


if __name__ == "__main__":
    nptest.main()

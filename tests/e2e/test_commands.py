#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/commands - nocprof report, diff and merge on real runs (issue 13).

  report  every file of a run is rebuilt byte-identically from
          OUT/profile.data after being deleted; --period P of a run that
          recorded several periods gives exactly the files of a run that
          recorded only P (sampling never perturbs the guest); damaged
          data and a changed ELF are refused with status 2, naming the
          field or the ELF.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import fw, raw, run  # noqa: E402


def checksums(out, skip=("profile.data", "sources.sha256")):
    """relative path -> sha256 of every file of an output folder, except the
    saved data, the run's source sums and the firmware copy."""
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

    def test_docs_give_the_real_format_version(self):
        # issue 20.9: docs/reports.md said "now 4" while files were version
        # 5; the truth is the header of a profile.data a run wrote
        import struct
        r = run([fw("calls")] + nptest.ONE_CORE)
        with open(r.path("profile.data"), "rb") as f:
            head = f.read(24)
        self.assertEqual(head[:8], b"NOCPROFD")
        ver = struct.unpack_from("<I", head, 8)[0]
        with open(nptest.src("docs", "reports.md")) as f:
            doc = f.read()
        m = re.search(r"the format version \(u32\s+little-endian, now (\d+)", doc)
        self.assertIsNotNone(m, "docs/reports.md: format version sentence")
        self.assertEqual(int(m.group(1)), ver)

    def test_warns_when_a_source_changed(self):
        # issue 20.9: the run records the SHA-256 of every source file its
        # reports read (OUT/sources.sha256, sha256sum's format); `report`
        # warns for each that differs now. The sources are a copy, found
        # through --source-map, so that the test can change one.
        src = os.path.realpath(nptest.src("firmware"))
        copy = os.path.join(nptest.tmpdir("src"), "firmware")
        shutil.copytree(src, copy)
        r = run([fw("calls"), "--source-map", "%s=%s" % (src, copy)] + nptest.ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        calls_c = os.path.join(copy, "tests", "calls.c")
        sums = dict(reversed(l.split("  ", 1)) for l in open(r.path("sources.sha256")).read().splitlines())
        with open(calls_c, "rb") as f:
            self.assertEqual(sums[calls_c], hashlib.sha256(f.read()).hexdigest())
        self.assertIn(os.path.join(copy, "runtime", "nocprof.c"), sums)
        res = raw(["report", r.out])
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertNotIn("warning", res.stderr)
        with open(calls_c, "a") as f:
            f.write("/* edited after the run */\n")
        res = raw(["report", r.out])
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertRegex(res.stderr, r"warning: %s changed since the run \(SHA-256 %s\.\.\. then, [0-9a-f]{16}"
                         r"\.\.\. now\)" % (re.escape(calls_c), sums[calls_c][:16]))
        self.assertEqual(res.stderr.count("warning"), 1)
        # the run's record stays (report keeps it, listed in the manifest)
        self.assertEqual(dict(reversed(l.split("  ", 1)) for l in open(r.path("sources.sha256")).read().splitlines()),
                         sums)
        os.unlink(calls_c)
        res = raw(["report", r.out])
        self.assertIn("%s: the run read this source file; it cannot be read now" % calls_c, res.stderr)

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

    def test_asleep_and_polling_identical(self):
        """a hang of one core asleep in `wait` for a packet and one polling
        for one (hang_mixed): summary.txt tells them apart, and so does the
        re-rendered one (profile.data 15 keeps whether a wait was asleep;
        before, `nocprof report` could only say polling for both)"""
        r = run([fw("hang_mixed"), "--set", "run.livelock_cycles=50000"])
        self.assertEqual(r.rc, 4, r.describe())
        txt = r.text("summary.txt")
        self.assertIn("  core 0 asleep in wait for a packet at pc ", txt)
        self.assertIn("  core 1 polling at pc ", txt)
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

    def test_focus_exclude_annotate_kept_and_given(self):
        """a run's --focus/--exclude/--annotate (and --collect-only) come
        back with a plain report; the same options given to report on a
        plain run give that run's files"""
        opts = ["--focus", "run_ops", "--exclude", "fib/time", "--annotate", "both"]
        shaped = run([fw("calls")] + opts)
        self.assertEqual(shaped.rc, 0, shaped.describe())
        exp = self.rebuild_same(shaped)
        plain = run([fw("calls")])
        dest = nptest.tmpdir("shape")
        res = raw(["report", "-o", dest] + opts + [plain.out])
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(checksums(dest), exp)
        res = raw(["report", "--all", "--annotate", "source", "-o", dest, shaped.out])
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(checksums(dest), checksums(plain.out))
        res = raw(["report", "--focus", "no_such_function", "-o", dest, plain.out])
        self.assertEqual(res.returncode, 2)
        self.assertIn("--focus no_such_function: no such function", res.stderr)
        self.rebuild_same(run([fw("calls"), "--collect-only", "run_leaves"]))

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
            (bytes(data[:8]) + b"\x63" + bytes(data[9:]), "version: format version 99"),
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


def mul_functions(elf):
    """functions of the ELF holding a mul instruction (objdump)"""
    od = nptest.tool("mipsel-linux-gnu-objdump")
    res = subprocess.run([od, "-d", elf], stdout=subprocess.PIPE, universal_newlines=True, check=True)
    out, cur = set(), None
    for line in res.stdout.splitlines():
        if line.endswith(">:"):
            cur = line.split("<")[1][:-2]
        elif "\tmul\t" in line:
            out.add(cur)
    return out


def diff_rows(text, section):
    """function -> (selfA, selfB, dself, inclA, inclB, dincl, callsA, callsB,
    dcalls) of one section of diff.txt"""
    rows, on = {}, False
    for line in text.splitlines():
        if line.startswith("== "):
            on = line.startswith(section)
            continue
        t = line.split()
        if on and len(t) >= 12 and t[0].isdigit():
            rows[t[11]] = (int(t[0]), int(t[1]), int(t[2]), int(t[4]), int(t[5]), int(t[6]),
                           int(t[8]), int(t[9]), int(t[10]))
    return rows


class Diff(unittest.TestCase):
    """calls firmware with [timing] mul = 2 (A, the default) and 9 (B): every
    executed mul costs 7 cycles more, nothing else changes."""

    @classmethod
    def setUpClass(cls):
        cls.elf = fw("calls")
        cls.a = run([cls.elf])
        cls.b = run([cls.elf, "--set", "timing.mul=9"])
        cls.dir = nptest.tmpdir("diff")
        cls.res = raw(["diff", "-o", cls.dir, cls.a.out, cls.b.out])
        with open(os.path.join(cls.dir, "diff.txt")) as f:
            cls.text = f.read()

    def test_exact_differences(self):
        self.assertEqual(self.res.returncode, 0, self.res.stderr)
        self.assertEqual(self.res.stdout, self.text)
        M = nptest.parse_header_macros(nptest.src("firmware", "tests", "calls_expected.h"))
        muls = mul_functions(self.elf)
        for k in range(4):
            rows = diff_rows(self.text, "== core %d" % k)
            # one mul per op_mul call, one per fact(n >= 2), one in main
            self.assertEqual(rows["op_mul"][2], 7 * M.CALLS_OP_EACH(k))
            self.assertEqual(rows["fact"][2], 7 * (M.CALLS_FACT - 1))
            self.assertEqual(rows["fact"][5], 7 * (M.CALLS_FACT - 1))
            self.assertEqual(rows["main"][2], 7)
            for name, r in rows.items():
                self.assertEqual(r[8], 0, name)            # calls unchanged
                self.assertEqual(r[6], r[7], name)
                if name not in muls:
                    self.assertEqual(r[2], 0, name)        # no mul, no change
            # sorted by |self delta|, first the biggest
            deltas = [abs(r[2]) for r in rows.values()]
            self.assertEqual(deltas, sorted(deltas, reverse=True))
            a, b = self.a.core(k), self.b.core(k)
            self.assertIn("  cycles  A %d  B %d  delta +%d" % (a["cycles"], b["cycles"], b["cycles"] - a["cycles"]),
                          self.text)
        chip = diff_rows(self.text, "== chip")
        self.assertEqual(chip["op_mul"][:3], (250, 600, 350))   # 5+10+15+20 calls x 5 / x 12 cycles
        self.assertEqual(chip["fact"][2], 4 * 7 * 9)

    def test_numbers_are_the_runs_own(self):
        """every self/inclusive/calls of A and B is the summary.json's"""
        for k in range(4):
            rows = diff_rows(self.text, "== core %d" % k)
            for side, r in ((0, self.a), (1, self.b)):
                for f in r.core(k)["functions"]:
                    if f["calls"] or f["self_cycles"] or f["inclusive_cycles"]:
                        got = rows[f["name"]]
                        self.assertEqual((got[side], got[3 + side], got[6 + side]),
                                         (f["self_cycles"], f["inclusive_cycles"], f["calls"]), f["name"])

    def test_folded_two_counts(self):
        with open(os.path.join(self.dir, "diff.folded")) as f:
            lines = f.read().splitlines()
        sums = [0, 0]
        fact = {}
        for line in lines:
            stack, ca, cb = line.rsplit(" ", 2)
            sums[0] += int(ca)
            sums[1] += int(cb)
            if stack.endswith(";fact"):
                fact.setdefault(int(cb) - int(ca), []).append(stack)
        # fact(10) .. fact(2) multiply once each (+7), fact(1) does not
        self.assertEqual({d: len(v) for d, v in fact.items()}, {7: 4 * 9, 0: 4})
        total = lambda r: sum(c["cycles"] for c in r.summary["cores"])  # noqa: E731
        self.assertEqual(sums, [total(self.a), total(self.b)])

    def test_default_folder(self):
        """without -o the files go to ./nocprof-diff, not loose into the
        current folder (a checkout's root)"""
        cwd = nptest.tmpdir("diffcwd")
        res = raw(["diff", "-q", os.path.abspath(self.a.out), os.path.abspath(self.b.out)], cwd=cwd)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(sorted(os.listdir(cwd)), ["nocprof-diff"])
        self.assertEqual(sorted(os.listdir(os.path.join(cwd, "nocprof-diff"))),
                         ["diff.folded", "diff.html", "diff.txt"])
        with open(os.path.join(cwd, "nocprof-diff", "diff.txt")) as f:
            self.assertEqual(f.read(), self.text)

    def test_fail_if_slower(self):
        # chip total: +980 cycles on 119182 (0.82%)
        total_a = sum(c["cycles"] for c in self.a.summary["cores"])
        total_b = sum(c["cycles"] for c in self.b.summary["cores"])
        pct = 100.0 * (total_b - total_a) / total_a
        d = nptest.tmpdir("gate")
        ok = raw(["diff", "-q", "-o", d, "--fail-if-slower", "%.4f" % (pct + 0.001), self.a.out, self.b.out])
        self.assertEqual(ok.returncode, 0, ok.stderr)
        self.assertEqual(ok.stdout, "")
        bad = raw(["diff", "-q", "-o", d, "--fail-if-slower", "%.4f" % (pct - 0.001), self.a.out, self.b.out])
        self.assertEqual(bad.returncode, 1)
        self.assertIn("total cycles grew from %d to %d" % (total_a, total_b), bad.stderr)
        # op_mul: 250 -> 600 (+140%): past 139.9, not past 140
        fn = ["--function", "op_mul"]
        self.assertEqual(raw(["diff", "-q", "-o", d, "--fail-if-slower", "140"] + fn + [self.a.out, self.b.out])
                         .returncode, 1 if pct > 140 else 0)
        bad = raw(["diff", "-q", "-o", d, "--fail-if-slower", "139.9"] + fn + [self.a.out, self.b.out])
        self.assertEqual(bad.returncode, 1)
        self.assertIn("op_mul: inclusive cycles grew from 250 to 600", bad.stderr)
        # B faster than A: no regression at 0%
        self.assertEqual(raw(["diff", "-q", "-o", d, "--fail-if-slower", "0", self.b.out, self.a.out]).returncode, 0)

    def test_html_embedded_data(self):
        """diff.html holds the comparison as JSON (the browser test looks at
        the page): every view's rows are the runs' own summary.json numbers in
        diff.txt's order, the stacks are diff.folded, nothing is fetched"""
        with open(os.path.join(self.dir, "diff.html")) as f:
            html = f.read()
        m = re.search(r'<script type="application/json" id="nocprof-data">(.*?)</script>', html, re.S)
        data = json.loads(m.group(1))["diff"]
        self.assertEqual((data["a"], data["b"]), (self.a.out, self.b.out))
        with open(os.path.join(self.dir, "diff.folded")) as f:
            self.assertEqual(data["folded"], f.read())
        self.assertEqual([v["view"] for v in data["views"]], ["chip", "0", "1", "2", "3"])
        M = nptest.parse_header_macros(nptest.src("firmware", "tests", "calls_expected.h"))
        for k in range(4):
            v = data["views"][k + 1]
            a, b = self.a.core(k), self.b.core(k)
            self.assertEqual((v["cycles_a"], v["cycles_b"], v["only"]), (a["cycles"], b["cycles"], None))
            rows = {r["name"]: r for r in v["rows"]}
            for side, core in (("a", a), ("b", b)):
                for f in core["functions"]:
                    if f["calls"] or f["self_cycles"] or f["inclusive_cycles"]:
                        r = rows[f["name"]]
                        self.assertEqual((r["self_" + side], r["incl_" + side], r["calls_" + side], r["in_" + side]),
                                         (f["self_cycles"], f["inclusive_cycles"], f["calls"], True), f["name"])
            self.assertEqual(rows["op_mul"]["self_b"] - rows["op_mul"]["self_a"], 7 * M.CALLS_OP_EACH(k))
            text_order = list(diff_rows(self.text, "== core %d" % k))
            self.assertEqual([r["name"] for r in v["rows"]], text_order)
        chip = {r["name"]: r for r in data["views"][0]["rows"]}
        self.assertEqual((chip["op_mul"]["self_a"], chip["op_mul"]["self_b"]), (250, 600))
        # self-contained: no element loads anything
        self.assertEqual(re.findall(r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=", html), [])
        self.assertIn(".d3-flame-graph rect", html)          # the bundled library (its CSS)

    def test_one_side_only(self):
        other = run([fw("tailcall")])
        d = nptest.tmpdir("one")
        res = raw(["diff", "-q", "-o", d, self.a.out, other.out])
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(d, "diff.txt")) as f:
            text = f.read()
        self.assertRegex(text, r"\bop_mul  \[only in A\]")
        self.assertRegex(text, r"only in A:.* op_mul")

    def test_usage(self):
        self.assertEqual(raw(["diff", self.a.out]).returncode, 2)
        self.assertEqual(raw(["diff", "--fail-if-slower", "x", self.a.out, self.b.out]).returncode, 2)
        res = raw(["diff", self.a.out, nptest.tmpdir("empty")])
        self.assertEqual(res.returncode, 2)
        self.assertIn("profile.data", res.stderr)


class Merge(unittest.TestCase):
    """two identical runs of the bundled demo (4 cores on the NoC, two
    sampling periods) merged: every count doubles"""

    @classmethod
    def setUpClass(cls):
        cls.a = run(["--sample-period", "1000,997"])
        cls.b = run(["--sample-period", "1000,997"])
        cls.m = nptest.tmpdir("merged")
        cls.res = raw(["merge", cls.a.out, cls.b.out, "-o", cls.m])
        with open(os.path.join(cls.m, "summary.json")) as f:
            cls.sum = json.load(f)

    def test_every_count_doubled(self):
        self.assertEqual(self.res.returncode, 0, self.res.stderr)
        for k in range(4):
            a, m = self.a.core(k), self.sum["cores"][k]
            for key in ("instructions", "cycles", "busy_cycles", "idle_cycles", "irq_cycles"):
                self.assertEqual(m[key], 2 * a[key], key)
            fm = {f["name"]: f for f in m["functions"]}
            for f in a["functions"]:
                g = fm[f["name"]]
                for key in ("calls", "self_cycles", "inclusive_cycles"):
                    self.assertEqual(g[key], 2 * f[key], (k, f["name"], key))
                self.assertEqual(g["samples"], {p: 2 * n for p, n in f["samples"].items()}, f["name"])
                self.assertEqual(sorted((c["caller"], 2 * c["count"]) for c in f["callers"]),
                                 sorted((c["caller"], c["count"]) for c in g["callers"]), f["name"])
        na, nm = self.a.summary["noc"], self.sum["noc"]
        self.assertGreater(na["packets"], 0)
        for key in ("packets", "flits", "stall_cycles"):
            self.assertEqual(nm[key], 2 * na[key], key)
        self.assertEqual(nm["latency"], na["latency"])      # the same distribution twice
        for la, lm in zip(na["links"], nm["links"]):
            self.assertEqual((lm["from"], lm["to"], lm["flits"]), (la["from"], la["to"], 2 * la["flits"]))
            self.assertAlmostEqual(lm["utilization"], la["utilization"], places=12)
        for pa, pm in zip(na["pairs"], nm["pairs"]):
            self.assertEqual(pm["packets"], 2 * pa["packets"])
        with open(os.path.join(self.m, "core2", "console.txt")) as f:
            self.assertEqual(f.read(), self.a.text("core2", "console.txt") * 2)
        with open(os.path.join(self.m, "stacks.folded")) as f:
            folded = f.read().splitlines()
        exp = sorted("%s %d" % (l.rsplit(" ", 1)[0], 2 * int(l.rsplit(" ", 1)[1]))
                     for l in self.a.text("stacks.folded").splitlines())
        self.assertEqual(sorted(folded), exp)

    def test_gmon_equals_gprof_sum(self):
        """MERGED/coreN/gmon.out reads in gprof exactly as `gprof -s` of the
        two runs' gmon.out does (flat profile and call graph)"""
        gprof = nptest.tool("mipsel-linux-gnu-gprof")
        elf = self.a.path("firmware", "pipeline.elf")
        for k in range(4):
            work = nptest.tmpdir("gsum")
            subprocess.run([gprof, "-s", elf, self.a.path("core%d" % k, "gmon.out"),
                            self.b.path("core%d" % k, "gmon.out")], cwd=work, check=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            flat, graph = [], []
            for g in (os.path.join(work, "gmon.sum"), os.path.join(self.m, "core%d" % k, "gmon.out")):
                get = lambda opt: subprocess.run([gprof, "-b", opt, elf, g], stdout=subprocess.PIPE,  # noqa: E731
                                                 stderr=subprocess.PIPE, universal_newlines=True,
                                                 check=True).stdout
                flat.append(get("-p"))
                # the same lines; gprof orders tied children by arc record order
                graph.append(sorted(get("-q").splitlines()))
            self.assertEqual(flat[0], flat[1])
            self.assertEqual(graph[0], graph[1])
            self.assertIn("rt_send", flat[1])

    def test_merged_folder_reports_again(self):
        before = checksums(self.m)
        delete_reports(self.m)
        res = raw(["report", self.m])
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(checksums(self.m), before)

    def test_three_runs(self):
        m3 = nptest.tmpdir("m3")
        res = raw(["merge", self.a.out, self.b.out, self.a.out, "-o", m3])
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(m3, "summary.json")) as f:
            s3 = json.load(f)
        self.assertEqual(s3["cores"][1]["cycles"], 3 * self.a.core(1)["cycles"])

    def test_different_elfs_refused(self):
        other = run([fw("calls"), "--sample-period", "1000,997"])
        d = nptest.tmpdir("refused")
        res = raw(["merge", self.a.out, other.out, "-o", d])
        self.assertEqual(res.returncode, 2)
        self.assertIn("%s: core 0 ran %s" % (other.out, fw("calls")), res.stderr)
        self.assertIn("only runs of the same firmware can be merged", res.stderr)
        self.assertFalse(os.path.exists(os.path.join(d, "summary.json")))
        single = run(["--sample-period", "1000"])
        res = raw(["merge", self.a.out, single.out, "-o", d])
        self.assertEqual(res.returncode, 2)
        self.assertIn("other sampling periods", res.stderr)
        self.assertEqual(raw(["merge", self.a.out]).returncode, 2)

    def test_says_it_is_a_merge(self):
        """summary.json "merge" and summary.txt name the runs and their
        firmware hashes (before: a merge looked like a run)."""
        sha = hashlib.sha256(open(self.a.path("firmware", "pipeline.elf"), "rb").read()).hexdigest()
        self.assertEqual(self.sum["merge"], {"runs": [{"folder": self.a.out, "firmware_sha256": [sha] * 4},
                                                      {"folder": self.b.out, "firmware_sha256": [sha] * 4}],
                                             "forced": []})
        with open(os.path.join(self.m, "summary.txt")) as f:
            text = f.read()
        self.assertIn("merge:    the sum of 2 runs", text)
        self.assertIn("  run 2:  %s  %s... (4 cores)" % (self.b.out, sha[:16]), text)
        self.assertNotIn("merge", self.a.summary)


class FaultAtFirstInstruction(unittest.TestCase):
    def test_report_diff_merge_read_it_back(self):
        """t_f_first faults before any instruction completes: its block ran
        once with no instruction. report, diff, merge (of a merge too) and
        report of the merge read its profile.data (before: status 2,
        "profile.blocks[0].count: 1 runs (0 cycles); the blocks add up to
        more runs than the profile's 0 instructions")."""
        for endian in ("el", "eb"):
            with self.subTest(endian=endian):
                elf = nptest.fixture("t_f_first", endian)
                a = run([elf] + nptest.ONE_CORE)
                b = run([elf] + nptest.ONE_CORE)
                self.assertEqual(a.rc, 3, a.describe())
                self.assertEqual((a.core(0)["instructions"], a.core(0)["cycles"]), (0, 0))
                before = checksums(a.out)
                delete_reports(a.out)
                res = raw(["report", a.out])
                self.assertEqual(res.returncode, 0, res.stderr)
                self.assertEqual(checksums(a.out), before)
                d = nptest.tmpdir("firstdiff")
                res = raw(["diff", a.out, b.out, "-o", d])
                self.assertEqual(res.returncode, 0, res.stderr)
                m = nptest.tmpdir("firstmerge")
                res = raw(["merge", a.out, b.out, "-o", m])
                self.assertEqual(res.returncode, 0, res.stderr)
                m3 = nptest.tmpdir("firstmerge3")
                res = raw(["merge", m, a.out, "-o", m3])
                self.assertEqual(res.returncode, 0, res.stderr)
                res = raw(["report", m3])
                self.assertEqual(res.returncode, 0, res.stderr)


class CutRunStalls(unittest.TestCase):
    def test_stalls_of_what_did_not_run(self):
        """24k: a run cut inside a block (the cycle limit: t_limit at 37
        cycles stops before its div; a fault: t_f_fpe's div.s) counted the
        waits of the instructions it cut: t_limit reported 35 MDU stall
        cycles in a 3-cycle run and t_f_fpe 13 FPU stall cycles in 12, and
        report, diff and merge refused the run's own profile.data
        ("profile.stalls[0].cycles: 35 cycles; the stalls add up to more
        than the profile's 3"). Now the cut instructions' waits are not
        counted (0 in both), and the data reads back."""
        for endian in ("el", "eb"):
            for name, extra, kind in (("t_limit", ["--max-cycles", "37"], "mdu"), ("t_f_fpe", [], "fpu")):
                with self.subTest(endian=endian, name=name):
                    elf = nptest.fixture(name, endian)
                    a = run([elf, "--set", "timing.model=24k"] + nptest.ONE_CORE + extra)
                    self.assertIn(a.rc, (3, 4), a.describe())
                    c = a.core(0)
                    total = {k: 0 for k in ("load_use", "agen", "mdu", "fpu")}
                    for f in c["functions"]:
                        for k, v in f.get("stall_cycles", {}).items():
                            total[k] += v
                    self.assertEqual(total[kind], 0, total)
                    self.assertLessEqual(sum(total.values()), c["cycles"])
                    res = raw(["report", a.out])
                    self.assertEqual(res.returncode, 0, res.stderr)
                    m = nptest.tmpdir("cutmerge")
                    res = raw(["merge", a.out, a.out, "-o", m])
                    self.assertEqual(res.returncode, 0, res.stderr)


class MergePlatform(unittest.TestCase):
    """merge refuses runs of different platforms, naming the key (issue
    20.3); --force merges them and the result records it."""

    @classmethod
    def setUpClass(cls):
        cls.base = run([fw("calls")])

    def test_different_platform_refused(self):
        """Before: 2x2 + 4x1 silently dropped the 4x1 links and was
        labelled 2x2; other timing was summed and labelled with the
        defaults."""
        for sets, key in ((["--set", "mesh.width=4", "--set", "mesh.height=1"], "[mesh] width: 4 in"),
                          (["--set", "timing.load=3"], "[timing] load: 3 in"),
                          (["--set", "noc.link_latency=2"], "[noc] link_latency: 2 in"),
                          (["--set", "clock.hz=50000000"], "[clock] hz: 50000000 in")):
            with self.subTest(key=key):
                other = run(sets + [fw("calls")])
                d = nptest.tmpdir("plat")
                res = raw(["merge", self.base.out, other.out, "-o", d])
                self.assertEqual(res.returncode, 2, res.stderr)
                self.assertIn(key + " %s" % other.out, res.stderr)
                self.assertFalse(os.path.exists(os.path.join(d, "summary.json")))

    def test_force_records_it(self):
        other = run(["--set", "timing.load=3", fw("calls")])
        d = nptest.tmpdir("forced")
        res = raw(["merge", "--force", self.base.out, other.out, "-o", d])
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(d, "summary.json")) as f:
            s = json.load(f)
        forced = "[timing] load: 3 in %s, 1 in the first run" % other.out
        self.assertEqual(s["merge"]["forced"], [forced])
        with open(os.path.join(d, "summary.txt")) as f:
            self.assertIn("WARNING: merged with --force although " + forced, f.read())
        # kept by a re-render
        res = raw(["report", d])
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(d, "summary.json")) as f:
            self.assertEqual(json.load(f)["merge"]["forced"], [forced])

    def test_never_an_input(self):
        """`merge X X -o X` deleted X/firmware/pipeline.elf through the
        manifest; now -o an input is refused and X is untouched."""
        x = run([])
        with open(x.path("firmware", "pipeline.elf"), "rb") as f:
            elf = f.read()
        before = checksums(x.out, skip=())
        for argv in (["merge", x.out, x.out, "-o", x.out], ["merge", self.base.out, x.out, "-o", x.out + "/."]):
            res = raw(argv)
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn("a merge never replaces or deletes an input", res.stderr)
            self.assertEqual(checksums(x.out, skip=()), before)
            with open(x.path("firmware", "pipeline.elf"), "rb") as f:
                self.assertEqual(f.read(), elf)


def run_on_pty(args):
    """nocprof run with stderr (and stdin) on a pseudo-terminal; returns
    (status, bytes written to the terminal)"""
    import pty
    master, slave = pty.openpty()
    proc = subprocess.Popen([nptest.nocprof(), "run", "-q"] + nptest.pin_flat(args) + args, stdin=slave, stdout=subprocess.PIPE,
                            stderr=slave)
    os.close(slave)
    got = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:          # EIO: the other side closed
            break
        if not chunk:
            break
        got += chunk
    proc.communicate(timeout=120)
    os.close(master)
    return proc.returncode, got


UNITS = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
LINE = re.compile(r"^\[nocprof\] cycles per core ([\d.]+[kMG]?)\.\.([\d.]+[kMG]?) / ([\d.]+[kMG]?) "
                  r"\(([\d.]+)%\) \| ([\d.]+[kMGT]?) insns, ([\d.]+) MIPS \| (\d+):(\d\d\.\d)\x1b\[K$")


def human(text):
    """the progress line's rounded-down count: "12.3M" -> 12300000"""
    m = re.fullmatch(r"(\d+)(?:\.(\d))?([kMGT]?)", text)
    return (int(m.group(1)) * 10 + int(m.group(2) or 0)) * UNITS[m.group(3)] // 10 if m.group(3) else int(m.group(1))


def progress_lines(got):
    return [l.decode() for l in got.split(b"\r") if l.startswith(b"[nocprof] cycles per core ")]


class MergeManyContexts(unittest.TestCase):
    """Issue 24 (docs/performance.md "Session 12"): merge grafts each
    run's calling-context tree onto the sum through a hash of (parent,
    function); GLib's g_int64_hash (parent ^ function) gave a tree
    numbered in order a few thousand keys per hash value: merging hof40
    (60,751 contexts, one core) 8 times took 51 s of CPU against the
    run's 0.02 s; now 0.3 s."""

    def test_merge_of_eight_is_cheap_and_exact(self):
        import resource
        a = run(nptest.ONE_CORE + [fw("hof40")])
        self.assertEqual(a.rc, 0, a.describe())
        m = nptest.tmpdir("merge8")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        res = raw(["merge"] + [a.out] * 8 + ["-o", m], timeout=300)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.assertEqual(res.returncode, 0, res.stderr)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

        def folded(out):
            with open(os.path.join(out, "stacks.folded")) as f:
                return dict(line.rstrip("\n").rsplit(" ", 1) for line in f)
        one, eight = folded(a.out), folded(m)
        self.assertEqual(len(one), 60752)   # 60,751 contexts and the root's line
        self.assertEqual(eight.keys(), one.keys())
        self.assertTrue(all(int(eight[k]) == 8 * int(v) for k, v in one.items()))
        self.assertLess(cpu, 5.0, "merge of 8: %.2f s CPU" % cpu)


class Progress(unittest.TestCase):
    """spin (every core polls in a loop that calls a function, so every
    poll synchronises) cut at 2e7 cycles per core, one host thread, a few
    seconds: the progress line on a terminal, redrawn and erased, never on
    a pipe, and no effect on the run"""

    LONG = ["--threads", "1", "--max-cycles", "20000000", "--set", "run.livelock_cycles=0"]

    def check_counts(self, lines, summary, max_cycles):
        """every line parses; cycles and instructions never exceed the
        run's final ones (summary.json) nor decrease; MIPS is the count over
        the elapsed time"""
        final = sum(c["instructions"] for c in summary["cores"])
        top = max(c["cycles"] for c in summary["cores"])
        last_insns = last_hi = 0
        for line in lines:
            m = LINE.match(line)
            self.assertIsNotNone(m, line)
            lo, hi, lim = human(m.group(1)), human(m.group(2)), human(m.group(3))
            insns, mips = human(m.group(5)), float(m.group(6))
            secs = 60 * int(m.group(7)) + float(m.group(8))
            self.assertEqual(lim, max_cycles)
            self.assertLessEqual(lo, hi)
            self.assertLessEqual(hi, top, line)
            self.assertLessEqual(insns, final, line)
            self.assertGreaterEqual(insns, last_insns, line)
            self.assertGreaterEqual(hi, last_hi, line)
            last_insns, last_hi = insns, hi
            if secs >= 1.0 and insns >= 10**6:
                # MIPS = count / elapsed: the shown count is rounded down (by
                # <= 10% from 1.0M on), the time to 0.1 s, MIPS to 0.1
                want = insns / 1e6 / secs
                self.assertLessEqual(abs(mips - want), 0.2 * want + 0.1, line)
        self.assertGreater(last_insns, 0, "some instructions were published")
        return last_insns, final

    def test_terminal(self):
        out = nptest.tmpdir("pty")
        rc, got = run_on_pty(["-o", out] + self.LONG + [fw("spin")])
        self.assertEqual(rc, 4, got)
        lines = progress_lines(got)
        self.assertGreaterEqual(len(lines), 2, got)            # redrawn a few times a second
        self.assertRegex(lines[-1], r"^\[nocprof\] cycles per core [\d.]+[kMG]?\.\.[\d.]+[kMG]? / 20\.0M "
                         r"\([\d.]+%\) \| [\d.]+[kMG]? insns, [\d.]+ MIPS \| \d+:\d\d\.\d\x1b\[K$")
        tail = got[got.rindex(b"[nocprof] cycles per core"):]
        self.assertRegex(tail, rb"^[^\r]*\x1b\[K\r\x1b\[K")     # the last one erased at the end
        plain = run(self.LONG + [fw("spin")])
        with open(os.path.join(out, "summary.json")) as f:
            text = f.read()
        self.assertEqual(text, plain.text("summary.json"))  # the same run
        self.check_counts(lines, json.loads(text), 20000000)

    def test_instructions_two_threads(self):
        """cores on two host threads publish their instruction counts: the
        line's count grows, never past summary.json's final count"""
        out = nptest.tmpdir("pty2")
        # 20M cycles: about a second, several progress lines (6M took 0.3 s
        # once two threads got faster, too short for a second line)
        rc, got = run_on_pty(["-o", out, "--threads", "2", "--max-cycles", "20000000",
                              "--set", "run.livelock_cycles=0", "--set", "sched.adapt=0", fw("spin")])
        self.assertEqual(rc, 4, got)
        lines = progress_lines(got)
        self.assertGreaterEqual(len(lines), 2, got)
        with open(os.path.join(out, "summary.json")) as f:
            self.check_counts(lines, json.load(f), 20000000)

    def test_max_cycles(self):
        rc, got = run_on_pty(["-o", nptest.tmpdir("pty")] + self.LONG + [fw("spin")])
        self.assertEqual(rc, 4)
        self.assertIn(b" / 20.0M (", got)

    def test_off(self):
        rc, got = run_on_pty(["-o", nptest.tmpdir("pty"), "--no-progress", fw("cpu-1e8")])
        self.assertEqual(rc, 0)
        self.assertNotIn(b"[nocprof]", got)
        r = run([fw("cpu-1e8")])                               # stderr is a pipe
        self.assertEqual(r.rc, 0)
        self.assertNotIn("[nocprof]", r.stderr)
        self.assertNotIn("\x1b[K", r.stderr)
        r = run(["--progress"] + self.LONG + [fw("spin")])  # forced
        self.assertIn("[nocprof] cycles per core", r.stderr)
        self.assertRegex(r.stderr, r"\| [\d.]+[kMG]? insns, [\d.]+ MIPS \|")


if __name__ == "__main__":
    nptest.main()

#!/usr/bin/env python3
"""e2e/regions - issue 11: deep recursion, gprof parity, callgrind paths,
never-called functions, recursion folding, trace bounds, regions of
interest, report filters and annotation modes. Expected numbers come from
outside the profiler: the firmware's own counters (printed on its console,
equal to a host build of the same C: bench/workloads/hofstadter.c), the real
GNU gprof and callgrind_annotate reading our files, nm, and hand counts
from the disassembly.
"""
import json
import os
import re
import resource
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import functions, fw, run, tool, ONE_CORE  # noqa: E402


def cpu_seconds(args):
    """(Run, CPU seconds of the nocprof child): wall time is meaningless on a
    shared machine, CPU time is not."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = run(args, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def console_calls(r, core=0):
    """F(n), M(n) and the number of calls the firmware counted itself."""
    m = re.search(r"F\((\d+)\)=(\d+) M\(\d+\)=(\d+) calls=(\d+)", r.text("core%d" % core, "console.txt"))
    return tuple(int(x) for x in m.groups())


class DeepRecursion(unittest.TestCase):
    """Defect 1: contexts of one function all collided in the calling-context
    hash (g_direct_hash keeps the key's low 32 bits, the function): F(40)
    took over 120 s profiled against 0.14 s unprofiled."""

    def test_hofstadter40_cost_and_counts(self):
        elf = fw("hof40")
        base, t0 = cpu_seconds(["--no-profile", "--no-trace"] + ONE_CORE + [elf])
        prof, t1 = cpu_seconds(["--fold-recursion", "2"] + ONE_CORE + [elf])
        self.assertEqual(prof.rc, 0, prof.describe())
        # host build of the same C: F(40)=25 M(40)=25 calls=60744
        self.assertEqual(console_calls(prof), (40, 25, 25, 60744))
        f = functions(prof.core(0))
        self.assertEqual(f["hof_f"]["calls"] + f["hof_m"]["calls"], 60744)
        # was > 100x; the profiled run must stay within a small factor
        self.assertLess(t1, 4.0 * t0 + 1.0, "profiled %.2f s CPU vs unprofiled %.2f s" % (t1, t0))


def gprof(elf, gmon, *opts):
    g = tool("mipsel-linux-gnu-gprof")
    return subprocess.run([g, "-b"] + list(opts) + [elf, gmon], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, check=True).stdout


def called_columns(text):
    """name -> called column of every primary line (and cycle whole) of a
    gprof-style call graph."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"^\[\d+\]\s+[\d.]+\s+\S+\s+\S+\s+(\d+(?:\+\d+)?)\s+(.*?)\s+\[\d+\]$", line)
        if m:
            name = re.sub(r" <cycle \d+>", "", m.group(2))
            out[name] = m.group(1)
    return out


class GprofParity(unittest.TestCase):
    """Defect 3: callgraph.txt's `called` in gprof's convention for the same
    gmon.out; main's samples not lost when it is the last function."""

    def test_called_matches_gprof(self):
        elf = fw("hof30")
        r = run([elf] + ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        ours = called_columns(r.text("core0", "callgraph.txt"))
        theirs = called_columns(gprof(elf, r.path("core0", "gmon.out"), "-q"))
        # a mutual-recursion cycle: gprof prints 2+8250, 2999+5252, 5253+2998
        for name in ("<cycle 1 as a whole>", "hof_f", "hof_m", "workload_main", "main"):
            self.assertEqual(ours[name], theirs[name], name)
        self.assertEqual(ours["<cycle 1 as a whole>"], "2+8250")

    def test_called_matches_gprof_calls_firmware(self):
        elf = fw("calls")
        r = run([elf] + ONE_CORE)
        ours = called_columns(r.text("core0", "callgraph.txt"))
        theirs = called_columns(gprof(elf, r.path("core0", "gmon.out"), "-q"))
        common = [n for n in theirs if n in ours]
        self.assertGreater(len(common), 10)
        for name in common:
            self.assertEqual(ours[name], theirs[name], name)

    def test_last_function_keeps_its_samples(self):
        elf = fw("alias")
        syms = nptest.symbols(elf)
        # the highest-addressed function (_etext is the runtime's end-of-text
        # label that makes gprof see main's end)
        last = max((n for n in syms if n != "_etext"), key=lambda n: syms[n][0])
        self.assertEqual(last, "main")   # the case of the issue
        r = run([elf, "--sample-period", "97"] + ONE_CORE)
        f = functions(r.core(0))
        s = f["main"]["samples"]["97"]
        self.assertGreater(s, 100)
        hist = sum(x["samples"]["97"] for x in r.core(0)["functions"]
                   if not x["name"].startswith("<"))
        flat = gprof(elf, r.path("core0", "gmon.out"), "-p")
        m = re.search(r"^\s*([\d.]+)\s+\S+\s+\S+\s+\d+\s+\S+\s+\S+\s+main$", flat, re.M)
        self.assertIsNotNone(m, flat)
        self.assertEqual(m.group(1), "%.2f" % (100.0 * s / hist))


class CallgrindPaths(unittest.TestCase):
    """Defect 4: callgrind_annotate --inclusive=yes run from the sources'
    folder listed every function twice (fl= stripped of the cwd, cfi= not)."""

    def test_each_function_once(self):
        ca = tool("callgrind_annotate")
        r = run([fw("calls")] + ONE_CORE)
        cg = r.path("core0", "callgrind.out")
        text = open(cg).read()
        m = re.search(r"^# source files are relative to (.*)$", text, re.M)
        self.assertIsNotNone(m)
        for where in (m.group(1), nptest.src("firmware"), "/"):
            out = subprocess.run([ca, "--inclusive=yes", cg], cwd=where, stdout=subprocess.PIPE,
                                 universal_newlines=True, check=True).stdout
            table = out.split("file:function", 1)[1].split("\n\n", 1)[0]
            names = [l.split(":")[-1].split(" [")[0] for l in table.splitlines()
                     if re.match(r"^\s*[\d,]+ \(", l)]
            self.assertEqual(len(names), len(set(names)), "from %s:\n%s" % (where, table))
            self.assertIn("main", names)
        # main's inclusive cycles there are summary.json's
        incl = functions(r.core(0))["main"]["inclusive_cycles"]
        self.assertRegex(out, r"(?m)^\s*%s \(.*:main \[" % format(incl, ","))


class NeverCalled(unittest.TestCase):
    """Feature 2 (gprof -z): every function of the ELF that never ran."""

    def test_never_called_list(self):
        elf = fw("calls")
        r = run([elf] + ONE_CORE)
        never = r.core(0)["never_called"]
        syms = nptest.symbols(elf)
        # functions gprof saw called (our arcs, read by the real gprof)
        called = set(called_columns(gprof(elf, r.path("core0", "gmon.out"), "-q")))
        # _start runs without being called (the reset entry); _etext is the
        # end-of-text label, not a function
        expect = sorted((n for n in syms if n not in called and n not in ("_start", "_etext")),
                        key=lambda n: syms[n][0])
        self.assertEqual(never, expect)
        self.assertIn("memcpy", never)
        flat = r.text("core0", "flat.txt")
        tail = flat.split("Never called (gprof -z): ", 1)[1]
        self.assertTrue(tail.startswith("%d functions" % len(expect)))
        self.assertEqual(re.findall(r"(?m)^  0x[0-9a-f]{8} +\d+ bytes  (\S+)$", tail), expect)


def folded(r, core=0):
    out = {}
    with open(r.path("stacks.folded")) as f:
        for line in f:
            path, n = line.rsplit(" ", 1)
            if path.startswith("core%d;" % core):
                out[path] = out.get(path, 0) + int(n)
    return out


class FoldRecursion(unittest.TestCase):
    """Feature 3: --fold-recursion N keeps at most N frames of a function on
    a path; the counts still add up exactly."""

    def test_fold_hofstadter(self):
        elf = fw("hof30")
        r0 = run([elf] + ONE_CORE)
        cycles = r0.core(0)["cycles"]
        full = folded(r0)
        for n in (1, 2):
            r = run([elf, "--fold-recursion", str(n)] + ONE_CORE)
            st = folded(r)
            self.assertEqual(sum(st.values()), cycles)
            for path in st:
                frames = path.split(";")
                for fn in ("hof_f", "hof_m"):
                    self.assertLessEqual(frames.count(fn), n, path)
            # under hof_*: exactly the inclusive cycles of workload_main's arcs
            f = functions(r.core(0))
            incl = sum(a["inclusive_cycles"] for g in ("hof_f", "hof_m")
                       for a in f[g]["callers"] if a["caller"] == "workload_main")
            self.assertEqual(sum(v for p, v in st.items() if ";hof_" in p), incl)
            self.assertEqual(sum(v for p, v in full.items() if ";hof_" in p), incl)
            if n == 1:
                hof = sorted(p.split("workload_main;", 1)[1] for p in st if ";hof_" in p)
                self.assertEqual(hof, ["hof_f", "hof_f;hof_m", "hof_m", "hof_m;hof_f"])
        self.assertGreater(len(full), 1000)


class TraceBounds(unittest.TestCase):
    """Defect 2: the timeline was kept whole in memory (trace.json built as
    one string): --trace-limit and --no-trace bound it."""

    def test_limit_and_off(self):
        elf = fw("ticks")
        r = run([elf, "--trace-limit", "5"] + ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        ev = json.load(open(r.path("trace.json")))["traceEvents"]
        spans = [e for e in ev if e.get("pid") == 0 and e.get("ph") == "X"]
        self.assertEqual(len(spans), 5)
        more = [e for e in ev if "more spans not recorded" in e.get("name", "")]
        self.assertEqual(len(more), 1)
        full = run([elf] + ONE_CORE)
        evf = json.load(open(full.path("trace.json")))["traceEvents"]
        nspans = len([e for e in evf if e.get("pid") == 0 and e.get("ph") == "X"])
        self.assertEqual(int(more[0]["name"].split()[0]), nspans - 5)
        off = run([elf, "--no-trace"] + ONE_CORE)
        self.assertEqual(off.rc, 0)
        self.assertFalse(os.path.exists(off.path("trace.json")))
        self.assertEqual(off.core(0)["cycles"], full.core(0)["cycles"])

    def test_bad_values(self):
        for opt in (["--trace-limit", "-1"], ["--fold-recursion", "-2"], ["--annotate", "x"],
                    ["--collect-initially", "maybe"]):
            r = run(opt + [fw("calls")] + ONE_CORE)
            self.assertEqual(r.rc, 2, opt)


if __name__ == "__main__":
    nptest.main()

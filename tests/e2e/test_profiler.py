#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/profiler - exact call counts, arcs, recursion, cycles, samples and the
report files against analytically known numbers (SPEC 3, 4):

  calls firmware     firmware/tests/calls_expected.h (macros of the core id k,
                     parsed from the header) on every core, both byte orders;
                     flat.txt, callgraph.txt, annotated.txt, and the real GNU
                     gprof reading our gmon.out (and gprof -s summing two);
  ticks firmware     <interrupt> arcs, <idle>, irq_cycles;
  tailcall firmware  firmware/tests/tailcall_expected.h: a `j` tail call is
                     credited to the jumping function; a longjmp-like unwind
                     leaves consistent counts.
"""
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import arcs, functions, fw, run  # noqa: E402

PERIODS = (1000, 997, 10007)
_runs = {}


def calls_run(endian):
    if endian not in _runs:
        _runs[endian] = run([fw("calls", endian), "--sample-period", ",".join(str(p) for p in PERIODS)])
    return _runs[endian]


def macros():
    return nptest.parse_header_macros(nptest.src("firmware", "tests", "calls_expected.h"))


def expected_calls(M, k):
    """function -> (calls, {caller: count}) from calls_expected.h for core k."""
    ops = {f: (M.CALLS_OP_EACH(k), {"run_ops": M.CALLS_OP_EACH(k)})
           for f in ("op_add", "op_sub", "op_mul", "op_xor")}
    exp = {
        "main": (M.CALLS_MAIN, {"_start": M.CALLS_MAIN}),
        "fact": (M.CALLS_FACT, {"main": M.CALLS_FACT_FROM_MAIN, "fact": M.CALLS_FACT_RECURSIVE}),
        "fib": (M.CALLS_FIB, {"main": M.CALLS_FIB_FROM_MAIN, "fib": M.CALLS_FIB_RECURSIVE}),
        "is_even": (M.CALLS_IS_EVEN(k), {"main": M.CALLS_IS_EVEN_FROM_MAIN,
                                         "is_odd": M.CALLS_IS_EVEN_FROM_IS_ODD(k)}),
        "is_odd": (M.CALLS_IS_ODD(k), {"is_even": M.CALLS_IS_ODD(k)}),
        "run_ops": (M.CALLS_RUN_OPS, {"main": M.CALLS_RUN_OPS}),
        "run_leaves": (M.CALLS_RUN_LEAVES, {"main": M.CALLS_RUN_LEAVES}),
        "caller_a": (M.CALLS_CALLER_A(k), {"run_leaves": M.CALLS_CALLER_A(k)}),
        "caller_b": (M.CALLS_CALLER_B, {"run_leaves": M.CALLS_CALLER_B}),
        "leaf": (M.CALLS_LEAF(k), {"caller_a": M.CALLS_LEAF_FROM_A(k), "caller_b": M.CALLS_LEAF_FROM_B}),
        "marked_loop": (M.CALLS_MARKED_LOOP, {"main": M.CALLS_MARKED_LOOP}),
    }
    exp.update(ops)
    return exp


def parse_flat_calls(text):
    """name -> calls (None when blank) from the exact table of flat.txt."""
    out = {}
    in_table = False
    for line in text.splitlines():
        if re.match(r"\s*time\s+cycles", line):
            in_table = True
            continue
        if in_table:
            if not line.strip():
                break
            t = line.split()
            if len(t) >= 9:
                out[t[-1]] = int(t[5])
            elif len(t) >= 6:
                out[t[-1]] = None
    return out


PRIMARY = re.compile(r"^\[(\d+)\]\s+[\d.]+\s+\S+\s+\S+\s+(\d+(?:\+\d+)?)?\s*(.+?)\s+\[\d+\]\s*$")
ARC = re.compile(r"^\s+(?:\S+\s+\S+\s+)?(\d+)(?:/(\d+))?\s+(.+?)\s+\[\d+\]\s*$")


def strip_cycle(name):
    return re.sub(r"\s*<cycle \d+>$", "", name).strip()


def parse_callgraph(text):
    """Parse a gprof-style call graph (ours or GNU gprof's -q output).
    Returns {name: (called_total, {caller: count})} for function entries
    (not "<cycle N as a whole>") and the set of raw primary names."""
    entries = {}
    raw_names = set()
    blocks = re.split(r"^-{10,}\s*$", text, flags=re.M)
    for b in blocks:
        lines = b.splitlines()
        idx = None
        for i, line in enumerate(lines):
            if PRIMARY.match(line):
                idx = i
                break
        if idx is None:
            continue
        m = PRIMARY.match(lines[idx])
        name_raw = m.group(3)
        raw_names.add(name_raw)
        if "as a whole" in name_raw:
            continue
        called = m.group(2)
        total = sum(int(x) for x in called.split("+")) if called else 0
        callers = {}
        for line in lines[:idx]:
            if "<spontaneous>" in line:
                continue
            a = ARC.match(line)
            if a:
                c = strip_cycle(a.group(3))
                callers[c] = callers.get(c, 0) + int(a.group(1))
        entries[strip_cycle(name_raw)] = (total, callers)
    return entries, raw_names


class CallsFirmware(unittest.TestCase):
    def check_counts(self, endian):
        M = macros()
        r = calls_run(endian)
        self.assertEqual(r.rc, 0, r.describe())
        for k, c in enumerate(r.summary["cores"]):
            self.assertIn("calls: all ok", r.text("core%d" % k, "console.txt"))
            fn = functions(c)
            for name, (calls, callers) in expected_calls(M, k).items():
                with self.subTest(endian=endian, core=k, function=name):
                    self.assertIn(name, fn)
                    self.assertEqual(fn[name]["calls"], calls)
                    self.assertEqual(arcs(fn[name]), callers)
            self.assertEqual(fn["fact"]["recursive_calls"], M.CALLS_FACT_RECURSIVE)
            self.assertEqual(fn["fib"]["recursive_calls"], M.CALLS_FIB_RECURSIVE)
            for name in ("main", "run_ops", "leaf", "caller_a", "marked_loop", "op_add"):
                self.assertEqual(fn[name]["recursive_calls"], 0, name)
            # mutual recursion: every call but the outermost of each is recursive
            self.assertEqual(fn["is_even"]["recursive_calls"], M.CALLS_IS_EVEN_FROM_IS_ODD(k))
            self.assertEqual(fn["is_odd"]["recursive_calls"], M.CALLS_IS_ODD(k) - 1)
            self.assertEqual(fn["_start"]["calls"], 0)
            # recursion is not double counted in inclusive time
            self.assertEqual(fn["fib"]["inclusive_cycles"], fn["fib"]["self_cycles"])
            self.assertEqual(fn["fact"]["inclusive_cycles"], fn["fact"]["self_cycles"])
            self.assertEqual(fn["is_even"]["inclusive_cycles"],
                             fn["is_even"]["self_cycles"] + fn["is_odd"]["self_cycles"])
            # a leaf's inclusive time is its self time; arcs split it exactly
            leaf = fn["leaf"]
            self.assertEqual(leaf["inclusive_cycles"], leaf["self_cycles"])
            self.assertEqual(sum(a["inclusive_cycles"] for a in leaf["callers"]), leaf["inclusive_cycles"])
            ca = fn["caller_a"]
            self.assertEqual(ca["inclusive_cycles"] - ca["self_cycles"],
                             sum(a["inclusive_cycles"] for a in leaf["callers"] if a["caller"] == "caller_a"))
            # main's inclusive = everything but what ran outside it (_start)
            self.assertEqual(c["irq_cycles"], 0)
            self.assertEqual(c["idle_cycles"], 0)
            self.assertEqual(fn["main"]["inclusive_cycles"], c["busy_cycles"] - fn["_start"]["self_cycles"])
            self.assertEqual(sum(f["self_cycles"] for f in c["functions"]), c["cycles"])
            # only instructions that ran are counted (not the `b .; nop`
            # after the EXIT store): the functions' counts sum to the core's
            self.assertEqual(sum(f["instructions"] for f in c["functions"]), c["instructions"])

    def test_counts_el(self):
        self.check_counts("el")

    def test_counts_eb(self):
        self.check_counts("eb")

    def test_samples_per_period(self):
        for endian in ("el", "eb"):
            r = calls_run(endian)
            for c in r.summary["cores"]:
                for p in PERIODS:
                    want = c["cycles"] // p
                    if "samples" in c:
                        self.assertEqual(c["samples"][str(p)], want, "core %d period %d" % (c["id"], p))
                    got = sum(f["samples"][str(p)] for f in c["functions"])
                    self.assertEqual(got, want, "core %d period %d: functions' samples" % (c["id"], p))
        # and a long run with a small period: pipeline
        r = run([fw("pipeline"), "--sample-period", "101,4096"])
        for c in r.summary["cores"]:
            for p in (101, 4096):
                self.assertEqual(sum(f["samples"][str(p)] for f in c["functions"]), c["cycles"] // p)

    def test_flat_txt_calls(self):
        M = macros()
        for endian in ("el", "eb"):
            r = calls_run(endian)
            for k, c in enumerate(r.summary["cores"]):
                flat = parse_flat_calls(r.text("core%d" % k, "flat.txt"))
                fn = functions(c)
                for name, (calls, _) in expected_calls(M, k).items():
                    self.assertEqual(flat.get(name), calls, "core%d flat.txt %s" % (k, name))
                for name, f in fn.items():
                    if name in flat and flat[name] is not None:
                        self.assertEqual(flat[name], f["calls"], name)

    def test_callgraph_txt(self):
        M = macros()
        for endian in ("el", "eb"):
            r = calls_run(endian)
            for k in range(4):
                text = r.text("core%d" % k, "callgraph.txt")
                cg, raw = parse_callgraph(text)
                for name, (calls, callers) in expected_calls(M, k).items():
                    self.assertIn(name, cg, "core%d callgraph.txt has no entry for %s" % (k, name))
                    total, got_callers = cg[name]
                    self.assertEqual(total, calls, "core%d callgraph %s called" % (k, name))
                    self.assertEqual(got_callers, callers, "core%d callgraph %s callers" % (k, name))
                self.assertRegex(text, r"\b1\+%d\s+fib \[" % M.CALLS_FIB_RECURSIVE)
                self.assertRegex(text, r"\b1\+%d\s+fact \[" % M.CALLS_FACT_RECURSIVE)
                self.assertRegex(text, r"\b%d/%d\s+caller_a \[" % (M.CALLS_LEAF_FROM_A(k), M.CALLS_LEAF(k)))
                self.assertRegex(text, r"\b%d/%d\s+caller_b \[" % (M.CALLS_LEAF_FROM_B, M.CALLS_LEAF(k)))
                cyc = [n for n in raw if re.search(r"<cycle (\d+)>", n)]
                members = {strip_cycle(n) for n in cyc if "as a whole" not in n}
                self.assertEqual(members, {"is_even", "is_odd"}, "cycle members")
                self.assertTrue(any("<cycle 1 as a whole>" in n for n in raw))

    def run_gprof(self, endian, elf, gmon, cwd=None, extra=()):
        gp = nptest.tool("mipsel-linux-gnu-gprof" if endian == "el" else "mips-linux-gnu-gprof")
        p = subprocess.run([gp, "-b", "-q", "-p"] + list(extra) + [elf, gmon], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, cwd=cwd)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("file format", p.stderr.lower())
        return p.stdout

    def test_real_gprof_reads_our_gmon(self):
        M = macros()
        for endian in ("el", "eb"):
            r = calls_run(endian)
            elf = fw("calls", endian)
            for k, c in enumerate(r.summary["cores"]):
                for g in ("gmon.out", "gmon-997.out", "gmon-10007.out"):
                    out = self.run_gprof(endian, elf, r.path("core%d" % k, g))
                    self.assertIn("Flat profile", out)
                    cg, raw = parse_callgraph(out.split("Call graph", 1)[1])
                    fn = functions(c)
                    for name, (calls, callers) in expected_calls(M, k).items():
                        self.assertIn(name, cg, "%s core%d %s: gprof has no %s" % (endian, k, g, name))
                        self.assertEqual(cg[name][0], calls, "gprof %s core%d %s calls" % (endian, k, name))
                        self.assertEqual(cg[name][1], callers, "gprof %s core%d %s callers" % (endian, k, name))
                    # every arc we report, gprof reports with the same count
                    for name, f in fn.items():
                        if name.startswith("<") or not f["calls"]:
                            continue
                        self.assertEqual(cg[name][0], f["calls"], name)
                    self.assertTrue({strip_cycle(n) for n in raw if "<cycle" in n and "whole" not in n}
                                    >= {"is_even", "is_odd"})
                # histogram: gprof's flat profile total sample time of gmon.out
                out = self.run_gprof(endian, elf, r.path("core%d" % k, "gmon-997.out"))
                self.assertRegex(out, r"Each sample counts as 9\.9\d*e-06 seconds")

    def test_gprof_sum_doubles_counts(self):
        """gprof -s sums the gmon.out of two runs, and gprof reads the sum
        back, on both byte orders (big-endian files carry no block record
        so that binutils 2.40 can read its own sum)."""
        M = macros()
        for endian, tool in (("el", "mipsel-linux-gnu-gprof"), ("eb", "mips-linux-gnu-gprof")):
            a = calls_run(endian)
            b = run([fw("calls", endian), "--sample-period", ",".join(str(p) for p in PERIODS)])
            gp = nptest.tool(tool)
            d = nptest.tmpdir("gsum-" + endian)
            elf = fw("calls", endian)
            p = subprocess.run([gp, "-s", elf, a.path("core1", "gmon.out"), b.path("core1", "gmon.out")],
                               cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertTrue(os.path.isfile(os.path.join(d, "gmon.sum")))
            out = self.run_gprof(endian, elf, os.path.join(d, "gmon.sum"))
            cg, _ = parse_callgraph(out.split("Call graph", 1)[1])
            for name, (calls, callers) in expected_calls(M, 1).items():
                self.assertEqual(cg[name][0], 2 * calls, "%s %s" % (endian, name))
                self.assertEqual(cg[name][1], {c: 2 * n for c, n in callers.items()}, "%s %s" % (endian, name))

    def test_callgrind_out_reads_in_callgrind_annotate(self):
        """coreN/callgrind.out opens in valgrind's callgrind_annotate with
        our exact totals, self and inclusive cycles."""
        tool = nptest.tool("callgrind_annotate")
        for endian in ("el", "eb"):
            r = calls_run(endian)
            c = r.core(1)
            fn = nptest.functions(c)
            path = r.path("core1", "callgrind.out")
            for inclusive, key in (("no", "self_cycles"), ("yes", "inclusive_cycles")):
                p = subprocess.run([tool, "--inclusive=" + inclusive, "--threshold=100", "--show=Cycles,Ir", path],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
                self.assertEqual(p.returncode, 0, p.stderr)
                # columns Cycles and Ir (issue 20.8): Cycles first (the
                # others, Dr Dw Bc Bi, are e2e/events')
                total = re.search(r"^\s*([\d,]+) \(100\.0+%\)\s+([\d,]+) \(100\.0+%\)\s+PROGRAM TOTALS",
                                  p.stdout, re.M)
                self.assertIsNotNone(total, p.stdout)
                self.assertEqual(int(total.group(1).replace(",", "")), c["cycles"])
                # Ir counts what ran: not the b 3b; nop after _start's exit
                # store (they counted before: 2 more)
                self.assertEqual(int(total.group(2).replace(",", "")), c["instructions"])
                got = {}
                for m in re.finditer(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(?:[\d,]+ \(\s*[\d.]+%\)|\.)\s+\S+:(\S+) \[",
                                     p.stdout, re.M):
                    got[m.group(2)] = int(m.group(1).replace(",", ""))
                for name in ("fib", "leaf", "caller_a", "run_leaves", "marked_loop"):
                    self.assertEqual(got.get(name), fn[name][key], "%s %s %s" % (endian, key, name))

    def test_folded_stacks_exact(self):
        """stacks.folded: per core the counts add up to its cycles, and a
        leaf's path carries exactly the inclusive cycles of its arc."""
        for endian in ("el", "eb"):
            r = calls_run(endian)
            paths = {}
            for line in r.text("stacks.folded").splitlines():
                path, n = line.rsplit(" ", 1)
                self.assertNotIn(path, paths, "each path once")
                paths[path] = int(n)
            for c in r.summary["cores"]:
                k = c["id"]
                mine = {p: n for p, n in paths.items() if p.split(";")[0] == "core%d" % k}
                self.assertEqual(sum(mine.values()), c["cycles"], "%s core%d" % (endian, k))
                fn = nptest.functions(c)
                arcs = {}
                for a in fn["leaf"]["callers"]:  # one arc per call site
                    arcs[a["caller"]] = arcs.get(a["caller"], 0) + a["inclusive_cycles"]
                for caller in ("caller_a", "caller_b"):
                    leaf = "core%d;_start;main;run_leaves;%s;leaf" % (k, caller)
                    self.assertEqual(mine.get(leaf), arcs[caller], leaf)
                fib = sum(n for p, n in mine.items() if p.startswith("core%d;_start;main;fib" % k))
                self.assertEqual(fib, fn["fib"]["inclusive_cycles"])

    def test_annotated_loop_mark(self):
        M = macros()
        for endian in ("el", "eb"):
            r = calls_run(endian)
            for k in range(4):
                text = r.text("core%d" % k, "annotated.txt")
                lines = [l for l in text.splitlines() if M.CALLS_LOOP_MARK_TEXT in l]
                self.assertEqual(len(lines), 1, lines)
                # "count cycles samples line: source"; several blocks sharing the
                # line are comma-separated: their executions add up
                m = re.match(r"^\s*([\d,]+)\s+(\d+)\s+(\d+)\s+(\d+):", lines[0])
                self.assertIsNotNone(m, lines[0])
                counts = [int(x) for x in m.group(1).split(",")]
                self.assertEqual(sum(counts), M.CALLS_LOOP_N(k), lines[0])
                src_line = next(i + 1 for i, l in enumerate(open(nptest.src("firmware", "tests", "calls.c")))
                                if M.CALLS_LOOP_MARK_TEXT in l)
                self.assertEqual(int(m.group(4)), src_line)
                self.assertGreaterEqual(int(m.group(2)), M.CALLS_LOOP_N(k) * 2)
                # fib's entry line runs once per call
                self.assertRegex(text, r"\*\*\* fib\b.*called %d\b" % M.CALLS_FIB)


class ChipWideAndSummary(unittest.TestCase):
    """The chip-wide flat.txt and callgraph.txt (all cores summed by
    function name) and summary.txt of the calls firmware on 4 cores: call
    counts are sums of calls_expected.h over k = 0..3."""

    def expected_sums(self):
        M = macros()
        total = {}
        for k in range(4):
            for name, (calls, callers) in expected_calls(M, k).items():
                t, c = total.get(name, (0, {}))
                for caller, n in callers.items():
                    c[caller] = c.get(caller, 0) + n
                total[name] = (t + calls, c)
        return total

    def test_chip_flat_txt(self):
        r = calls_run("el")
        text = r.text("flat.txt")
        self.assertTrue(text.startswith("Flat profile, chip (all cores): "), text[:200])
        cycles = sum(c["cycles"] for c in r.summary["cores"])
        insns = sum(c["instructions"] for c in r.summary["cores"])
        self.assertIn("Exact profile: %d cycles counted by the emulator" % cycles, text)
        self.assertIn("; %d instructions)" % insns, text)
        calls = parse_flat_calls(text)
        for name, (n, _) in self.expected_sums().items():
            with self.subTest(function=name):
                self.assertEqual(calls.get(name), n)
        self.assertIsNone(calls.get("_start"))   # never called

    def test_chip_callgraph_txt(self):
        r = calls_run("el")
        text = r.text("callgraph.txt")
        self.assertTrue(text.startswith("Call graph, chip (all cores): "), text[:200])
        entries, _ = parse_callgraph(text)
        for name, (n, callers) in self.expected_sums().items():
            with self.subTest(function=name):
                self.assertIn(name, entries)
                self.assertEqual(entries[name], (n, callers))

    def test_summary_txt(self):
        M = macros()
        r = calls_run("el")
        text = r.text("summary.txt")
        self.assertIn("platform: 2x2 mesh, 4 cores, 1024 KiB RAM per core, clock 100.000 MHz", text)
        self.assertIn("config:   (built-in defaults)\nexit status: 0\n", text)
        elf = fw("calls", "el")
        for k, c in enumerate(r.summary["cores"]):
            row = "%-5d %-11s %5d %14d %14d %14d %14d %14d  %s\n" % (
                k, "exited", 0, c["instructions"], c["cycles"], c["cycles"], 0, 0, elf)
            self.assertIn(row, text)
            # the top-functions table of core k: calls from calls_expected.h
            part = text.split("core %d: " % k, 1)[1].split("\n\n", 1)[0]
            rows = {l.split()[0]: l.split() for l in part.splitlines()[2:]}
            exp = expected_calls(M, k)
            self.assertIn("fib", rows)
            self.assertIn("leaf", rows)
            for name, cols in rows.items():
                if name in exp:
                    self.assertEqual(int(cols[1]), exp[name][0], (k, name))
            fib = functions(c)["fib"]
            self.assertEqual(rows["fib"][1:4], [str(M.CALLS_FIB), str(fib["self_cycles"]),
                                                str(fib["inclusive_cycles"])])
            self.assertEqual(rows["fib"][4], "%.2f%%" % (100.0 * fib["self_cycles"] / c["cycles"]))


class Interrupts(unittest.TestCase):
    def test_ticks_profile(self):
        for endian in ("el", "eb"):
            r = run([fw("ticks", endian)])
            self.assertEqual(r.rc, 0, r.describe())
            for c in r.summary["cores"]:
                fn = functions(c)
                ints = c.get("interrupts", 50)
                self.assertEqual(ints, 50)
                vec = fn["_irq_vector"]
                self.assertEqual(arcs(vec), {"<interrupt>": ints})
                self.assertEqual(vec["calls"], ints)
                self.assertEqual(fn["<interrupt>"]["inclusive_cycles"], c["irq_cycles"])
                self.assertEqual(vec["inclusive_cycles"], c["irq_cycles"])
                self.assertEqual(fn["<idle>"]["self_cycles"], c["idle_cycles"])
                self.assertGreater(c["idle_cycles"], 0)
                self.assertEqual(arcs(fn["on_tick"]), {"rt_irq_dispatch": 50})
                self.assertEqual(arcs(fn["rt_irq_dispatch"]), {"_irq_vector": 50})
                self.assertEqual(fn["rt_timer_ack"]["calls"], 50)
                self.assertEqual(fn["rt_wait"]["calls"], c.get("waits", 50))
                # main is charged neither idle nor interrupt time
                self.assertEqual(fn["main"]["inclusive_cycles"],
                                 c["busy_cycles"] - c["irq_cycles"] - fn["_start"]["self_cycles"])
                self.assertEqual(sum(f["self_cycles"] for f in c["functions"]), c["cycles"])
            # gmon.out: the handler is <spontaneous> for gprof, counts intact
            out = subprocess.run([nptest.tool("mipsel-linux-gnu-gprof" if endian == "el" else
                                              "mips-linux-gnu-gprof"), "-b", "-q", "-z", fw("ticks", endian),
                                  r.path("core0", "gmon.out")], stdout=subprocess.PIPE,
                                 universal_newlines=True).stdout
            cg, _ = parse_callgraph(out)
            self.assertEqual(cg["on_tick"][0], 50)
            self.assertEqual(cg["_irq_vector"][1], {})
            self.assertRegex(out, r"<spontaneous>\s*\n\[\d+\].*_irq_vector")

    def test_callgraph_interrupt(self):
        r = run([fw("ticks")])
        text = r.text("core0", "callgraph.txt")
        self.assertRegex(text, r"50/50\s+<interrupt>")


class TailCall(unittest.TestCase):
    _runs = {}

    def tc_run(self, endian):
        if endian not in self._runs:
            self._runs[endian] = run([fw("tailcall", endian)])
        return self._runs[endian]

    @staticmethod
    def T():
        return nptest.parse_header_macros(nptest.src("firmware", "tests", "tailcall_expected.h"))

    def test_premise_and_console(self):
        for endian in ("el", "eb"):
            elf = fw("tailcall", endian)
            # the premise: tail_outer has no jal (it ends in j tail_target)
            lo, size = nptest.symbols(elf, endian)["tail_outer"]
            od = subprocess.run([nptest.tool("mipsel-linux-gnu-objdump" if endian == "el" else
                                             "mips-linux-gnu-objdump"), "-d",
                                 "--start-address=0x%x" % lo, "--stop-address=0x%x" % (lo + size), elf],
                                stdout=subprocess.PIPE, universal_newlines=True).stdout
            self.assertNotRegex(od, r"\bjal\b")
            self.assertRegex(od, r"\bj\s+[0-9a-f]+ <tail_target>")
            r = self.tc_run(endian)
            self.assertEqual(r.rc, 0, r.describe())
            for k in range(4):
                self.assertRegex(r.text("core%d" % k, "console.txt"), r"\bok\n$")
            # calls that need no tail-call or unwind handling
            for c in r.summary["cores"]:
                fn = functions(c)
                self.assertEqual(fn["tc_setjmp"]["calls"], self.T().TC_CALLS_SETJMP)
                self.assertEqual(fn["run_unwinds"]["calls"], 1)

    def test_tail_call_credit(self):
        T = self.T()
        for endian in ("el", "eb"):
            for k, c in enumerate(self.tc_run(endian).summary["cores"]):
                fn = functions(c)
                with self.subTest(endian=endian, core=k):
                    self.assertEqual(fn["tail_outer"]["calls"], T.TC_CALLS_TAIL_OUTER)
                    self.assertEqual(arcs(fn["tail_outer"]), {"main": T.TC_CALLS_TAIL_OUTER})
                    self.assertEqual(fn["tail_target"]["calls"], T.TC_CALLS_TAIL_TARGET)
                    self.assertEqual(arcs(fn["tail_target"]), {"tail_outer": T.TC_CALLS_TAIL_TARGET})
                    self.assertEqual(fn["tail_target"]["recursive_calls"], 0)
                    self.assertEqual(fn["tail_outer"]["recursive_calls"], 0)
                    # tail_target's time is part of tail_outer's (the jump stays in its frame)
                    self.assertEqual(fn["tail_target"]["inclusive_cycles"], fn["tail_target"]["self_cycles"])
                    self.assertEqual(fn["tail_outer"]["inclusive_cycles"],
                                     fn["tail_outer"]["self_cycles"] + fn["tail_target"]["inclusive_cycles"])

    def test_unwind_counts(self):
        T = self.T()
        for endian in ("el", "eb"):
            for k, c in enumerate(self.tc_run(endian).summary["cores"]):
                fn = functions(c)
                with self.subTest(endian=endian, core=k):
                    # dive and tc_setjmp are called from run_unwinds (the header's
                    # "from main" predates run_unwinds; the source is the truth)
                    self.assertEqual(fn["dive"]["calls"], T.TC_CALLS_DIVE)
                    self.assertEqual(arcs(fn["dive"]), {"run_unwinds": T.TC_CALLS_DIVE_FROM_MAIN,
                                                        "dive": T.TC_CALLS_DIVE_RECURSIVE})
                    self.assertEqual(fn["dive"]["recursive_calls"], T.TC_CALLS_DIVE_RECURSIVE)
                    self.assertEqual(arcs(fn["tc_setjmp"]), {"run_unwinds": T.TC_CALLS_SETJMP})
                    self.assertEqual(fn["tc_longjmp"]["calls"], T.TC_CALLS_LONGJMP)
                    self.assertEqual(arcs(fn["tc_longjmp"]), {"dive": T.TC_CALLS_LONGJMP})

    def test_unwind_cycles(self):
        for endian in ("el", "eb"):
            for k, c in enumerate(self.tc_run(endian).summary["cores"]):
                fn = functions(c)
                with self.subTest(endian=endian, core=k):
                    self.assertEqual(fn["main"]["inclusive_cycles"], c["busy_cycles"] - fn["_start"]["self_cycles"])
                    self.assertEqual(sum(f["self_cycles"] for f in c["functions"]), c["cycles"])
                    ru = fn["run_unwinds"]
                    self.assertEqual(ru["inclusive_cycles"],
                                     ru["self_cycles"] + fn["dive"]["inclusive_cycles"] +
                                     fn["tc_setjmp"]["inclusive_cycles"])
                    self.assertEqual(fn["dive"]["inclusive_cycles"],
                                     fn["dive"]["self_cycles"] + fn["tc_longjmp"]["inclusive_cycles"])
                    self.assertLessEqual(fn["tail_target"]["inclusive_cycles"], fn["main"]["inclusive_cycles"]
                                         - fn["run_unwinds"]["inclusive_cycles"])
                    for f in c["functions"]:
                        self.assertLessEqual(f["inclusive_cycles"], c["cycles"], f["name"])
                        for a in f["callers"]:
                            self.assertLessEqual(a["inclusive_cycles"], f["inclusive_cycles"], f["name"])


SL_SOURCE = r"""#include "nocprof.h"

static unsigned crc;

RT_NOINLINE static void updcrc(unsigned v)
{
    for (unsigned i = 0; i < 8; i++)
        crc = (crc >> 1) ^ ((crc ^ v >> i) & 1 ? 0xEDB88320u : 0);
}

int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    for (unsigned k = 0; k < 100; k++)
        updcrc(k + core);
    return (int)(crc & 0);
}
"""


def gmon_hist(path):
    """{pc: samples} of a little-endian gmon.out's histogram records."""
    import struct
    data = open(path, "rb").read()
    pos, bins = 20, {}
    while pos < len(data) and data[pos] == 0:
        lo, hi, n = struct.unpack_from("<III", data, pos + 1)
        pos += 1 + 16 + 16
        for i, v in enumerate(struct.unpack_from("<%dH" % n, data, pos)):
            if v:
                bins[lo + 4 * i] = bins.get(lo + 4 * i, 0) + v
        pos += 2 * n
    return bins


class DeviceAccessSamples(unittest.TestCase):
    """A sample lands on the instruction that occupies its cycle also when
    a device access (lw of CYCLE_LO, RX_COUNT: 1 + mmio 4 cycles) costs
    more than its static load cost, in a block that runs again and again
    and in a poll loop the emulator skips (devsample firmware; timelines in
    firmware/tests/devsample_asm.S). With a period equal to the loop's
    length every sample of the loop lands on one instruction, found from
    the CYCLE_LO value the firmware printed: the k-th sample is the cycle
    with index k * P - 1, CYCLE_LO the index of the reading instruction's
    first cycle. [timing] store shifts the loops' phase (the runtime stores
    before them, the loops store nothing)."""

    def where(self, period, start, offsets):
        """The one pc the samples of a loop of `period` cycles starting at
        cycle index `start` must all land on."""
        off = (period - 1 - start) % period
        return offsets[off]

    def test_cycle_loop_and_poll_loop(self):
        elf = fw("devsample")
        sym = nptest.symbols(elf)
        loop = sym["ds_cycle_loop"][0] + 4      # label 1: the lw
        poll = sym["ds_poll_rx"][0] + 12        # label 1: the lw
        # offset in the iteration -> pc (devsample_asm.S)
        loop_at = [loop] * 5 + [loop + 4] + [loop + 8 + 4 * j for j in range(8)] + [loop + 40, loop + 44, loop + 40]
        poll_at = [poll] * 5 + [poll + 4, poll + 8, poll + 4]
        for store in range(8):
            cfg = ["--set", "mesh.width=2", "--set", "mesh.height=1", "--set", "timing.store=%d" % store]
            r = run([elf, "--sample-period", "17,8"] + cfg)
            self.assertEqual(r.rc, 0, r.describe())
            m = re.search(r"devsample: loop (\d+) last (\d+) poll (\d+)", r.text("core0", "console.txt"))
            n, last, before = int(m.group(1)), int(m.group(2)), int(m.group(3))
            # the iterations' lw start at last - 17 j; all the same mod 17
            want = self.where(17, last, loop_at)
            got = {pc: v for pc, v in gmon_hist(r.path("core0", "gmon.out")).items() if loop <= pc < loop + 48}
            self.assertEqual(sorted(got), [want], "store=%d: loop samples %s, want all on 0x%08x" % (store, got, want))
            self.assertGreaterEqual(got[want], n - 1)
            # the poll loop starts after the CYCLE_LO lw (5 cycles) and a lui (1)
            want = self.where(8, before + 5 + 1, poll_at)
            got = {pc: v for pc, v in gmon_hist(r.path("core0", "gmon-8.out")).items() if poll <= pc < poll + 12}
            self.assertEqual(sorted(got), [want], "store=%d: poll samples %s, want all on 0x%08x" % (store, got, want))
            self.assertGreater(got[want], 5000)  # polls from about cycle 51000 to 100000

    def test_exit_store_ends_the_samples(self):
        """The SYS EXIT store ends the core: no sample past its last cycle
        (the `b .; nop` after it in _start never runs). With period 1 every
        cycle is one sample; with period cycles + 1 there is none."""
        r = run([fw("calls"), "--sample-period", "1"] + nptest.ONE_CORE)
        c = r.summary["cores"][0]
        cycles = c["cycles"]
        r = run([fw("calls"), "--sample-period", "1,2,%d" % (cycles + 1)] + nptest.ONE_CORE)
        c = r.summary["cores"][0]
        self.assertEqual(c["cycles"], cycles)
        for p in (1, 2, cycles + 1):
            self.assertEqual(c["samples"][str(p)], cycles // p)
            self.assertEqual(sum(f["samples"][str(p)] for f in c["functions"]), cycles // p, "period %d" % p)
            name = "gmon.out" if p == 1 else "gmon-%d.out" % p
            self.assertEqual(sum(gmon_hist(r.path("core0", name)).values()), cycles // p, name)
        start = functions(c)["_start"]
        self.assertEqual(start["samples"]["1"], start["self_cycles"])


class DeviceAccessNotCompleted(unittest.TestCase):
    """A device access that does not complete costs nothing, like any
    faulting instruction (an unmapped access): its mmio cycles go with it.
    Costs from the disassembly, default [timing] (mmio 4 extra over 1)."""

    def test_bus_error_and_ni_misuse(self):
        # fault_mmio: read_bad_sys_reg = lui; lw SYS+0xff0 (bus error): 1 cycle
        # fault_ni: send_empty_packet = lui; sw TX_DEST (1 + 4); li; sw TX_SEND
        # (NI misuse): 7 cycles
        for name, func, cycles in (("fault_mmio", "read_bad_sys_reg", 1), ("fault_ni", "send_empty_packet", 7)):
            r = run([fw(name), "--sample-period", "1"] + nptest.ONE_CORE)
            self.assertEqual(r.rc, 3, r.describe())
            c = r.summary["cores"][0]
            f = functions(c)[func]
            self.assertEqual((f["self_cycles"], f["inclusive_cycles"]), (cycles, cycles), name)
            self.assertEqual(f["samples"]["1"], cycles, name)
            self.assertEqual(sum(g["self_cycles"] for g in c["functions"]), c["cycles"], name)

    def test_halt_at_a_poll(self):
        """devsample on one core: nobody sends, ds_poll_rx polls until the
        livelock check ends the run; the core stops before a poll (lw
        RX_COUNT, which does not complete), so its cycles are a whole number
        of 8-cycle iterations after the loop's start (from the CYCLE_LO value
        a two-core run prints: the same code runs before the loop)."""
        two = run([fw("devsample"), "--set", "mesh.width=2", "--set", "mesh.height=1"])
        m = re.search(r"poll (\d+)", two.text("core0", "console.txt"))
        loop_start = int(m.group(1)) + 5 + 1  # the CYCLE_LO lw, a lui
        r = run([fw("devsample"), "--set", "run.livelock_cycles=20000"] + nptest.ONE_CORE)
        self.assertEqual(r.rc, 4, r.describe())
        c = r.summary["cores"][0]
        self.assertEqual((c["cycles"] - loop_start) % 8, 0, "stopped %d cycles into an iteration" %
                         ((c["cycles"] - loop_start) % 8))
        self.assertGreaterEqual(c["cycles"] - loop_start, 20000)  # [run] livelock_cycles of polls


class SourceLookup(unittest.TestCase):
    """Issue 10 part 4: DWARF with a relative comp dir (-fdebug-prefix-map),
    resolved as binutils do, --source-dir and --source-map, and every path
    tried named in annotated.txt when a source file is not found."""

    def build(self):
        gcc = nptest.tool("mipsel-linux-gnu-gcc")
        a2l = nptest.tool("mipsel-linux-gnu-addr2line")
        rt = os.path.join(nptest.ARGS.fw, "runtime-el")
        if not os.path.isdir(rt):
            raise unittest.SkipTest("runtime objects not built")
        top = nptest.tmpdir("srclookup")
        fwdir = os.path.join(top, "fw")
        os.makedirs(os.path.join(fwdir, "lines"))
        with open(os.path.join(fwdir, "lines", "updcrc.c"), "w") as f:
            f.write(SL_SOURCE)
        elf = os.path.join(top, "app.elf")
        objs = sorted(os.path.join(rt, o) for o in os.listdir(rt) if o.endswith(".o"))
        cmd = [gcc, "-EL", "-march=mips32r2", "-mno-abicalls", "-fno-pic", "-G0", "-ffreestanding",
               "-nostdlib", "-nostartfiles", "-static", "-g", "-O2",
               "-I", nptest.src("firmware", "runtime"), "-I", nptest.src("include"),
               "-fdebug-prefix-map=%s=./fw" % fwdir, "-T", nptest.src("firmware", "runtime", "link.ld"),
               "-o", elf, os.path.join("lines", "updcrc.c")] + objs + [nptest.sdk_lib()]
        subprocess.run(cmd, cwd=fwdir, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        main = nptest.symbols(elf)["main"][0]
        where = subprocess.run([a2l, "-e", elf, "0x%x" % main], stdout=subprocess.PIPE,
                               universal_newlines=True, check=True).stdout.strip()
        return top, elf, where.rpartition(":")[0]

    def annotated(self, elf, cwd, extra=()):
        r = run(["--set", "mesh.width=1", "--set", "mesh.height=1"] + list(extra) + [elf], cwd=cwd)
        self.assertEqual(r.rc, 0, r.describe())
        return r.text("core0", "annotated.txt")

    def test_relative_comp_dir_like_addr2line(self):
        top, elf, a2l_path = self.build()
        self.assertEqual(a2l_path, "./fw/lines/updcrc.c")
        text = self.annotated(elf, top)
        self.assertIn("    ./fw/lines/updcrc.c:12-", text)
        self.assertIn("updcrc(k + core);", text)
        self.assertNotIn("not found", text)

    def test_not_found_names_every_path_tried(self):
        top, elf, _ = self.build()
        other = nptest.tmpdir("elsewhere")
        text = self.annotated(elf, other, ["--source-dir", "/nonexistent/a",
                                           "--source-map", "./fw=/nonexistent/b"])
        self.assertIn("(./fw/lines/updcrc.c not found; tried: /nonexistent/b/lines/updcrc.c, "
                      "./fw/lines/updcrc.c, /nonexistent/a/updcrc.c, "
                      "/nonexistent/a/./fw/lines/updcrc.c)", text)
        self.assertNotIn("updcrc(k + core);", text)

    def test_source_dir_and_source_map(self):
        top, elf, _ = self.build()
        other = nptest.tmpdir("elsewhere")
        for extra in (["--source-dir", top], ["--source-dir", os.path.join(top, "fw", "lines")],
                      ["--source-map", "./fw=" + os.path.join(top, "fw")]):
            with self.subTest(extra=extra):
                text = self.annotated(elf, other, extra)
                self.assertIn("updcrc(k + core);", text)
                self.assertNotIn("not found", text)


if __name__ == "__main__":
    nptest.main()

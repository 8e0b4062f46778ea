#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
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
from nptest import callgrind_ir, functions, fw, run, tool, ONE_CORE  # noqa: E402


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


def page_data(path):
    """report.html's data document (inflated when it is compressed)."""
    import base64
    import zlib
    with open(path) as f:
        html = f.read()
    m = re.search(r'<script type="application/(?:json|octet-stream)" id="nocprof-data"([^>]*)>(.*?)</script>',
                  html, re.S)
    text = m.group(2)
    if "deflate-base64" in m.group(1):
        text = zlib.decompress(base64.b64decode(text)).decode()
    return json.loads(text)


class FlameData(unittest.TestCase):
    """Issue 24: report.html carried stacks.folded's text for its flame
    graphs (8.6 MB for hof30 on 4 cores: every path spelt out again),
    quoted and compressed at a cost of twice the unprofiled run. It now
    carries the tree of the paths (parent, name, cycles per node), which
    must be exactly the tree of stacks.folded's lines (rebuilt here from
    the file) and a fraction of its size."""

    def test_hof30_tree_is_the_folded_tree(self):
        r = run([fw("hof30")] + ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        data = page_data(r.path("report.html"))
        self.assertNotIn("folded", list(data))
        flame = data["flame"]
        # the tree by path, from the page's nodes
        paths, nodes = {}, flame["nodes"]
        for i in range(0, len(nodes), 3):
            up, name, value = nodes[i:i + 3]
            path = (paths[i // 3 - up][0] if up else ()) + (flame["names"][name],)
            paths[i // 3] = (path, value)
        got = {p: v for p, v in paths.values()}
        self.assertEqual(len(got), len(paths))       # one node per path
        # the same from stacks.folded, every prefix a node
        want = {}
        folded = r.text("stacks.folded")
        for line in folded.splitlines():
            frames, count = line.rsplit(" ", 1)
            fr = tuple(x.replace("\\x3b", ";").replace("\\x20", " ") for x in frames.split(";"))
            for k in range(1, len(fr)):
                want.setdefault(fr[:k], 0)
            want[fr] = want.get(fr, 0) + int(count)
        self.assertEqual(got, want)
        self.assertGreater(len(folded.splitlines()), 16000)
        self.assertLess(len(json.dumps(flame)), len(folded) / 4)


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
        # fl= names are absolute (issue 20.8); from the sources' folders too
        for where in (nptest.src("firmware", "tests"), nptest.src("firmware"), "/"):
            out = subprocess.run([ca, "--inclusive=yes", cg], cwd=where, stdout=subprocess.PIPE,
                                 universal_newlines=True, check=True).stdout
            table = out.split("file:function", 1)[1].split("\n\n", 1)[0]
            keys = [l.split(" [")[0].split()[-1] for l in table.splitlines()
                    if re.match(r"^\s*[\d,]+ \(", l)]
            # one entry per file:function (a function's code inlined from a
            # header is listed under that header, as valgrind's own files do)
            self.assertEqual(len(keys), len(set(keys)), "from %s:\n%s" % (where, table))
            self.assertTrue(all(k.startswith("/./") for k in keys), keys)
            names = [k.rsplit(":", 1)[1] for k in keys]
            self.assertEqual(names.count("main"), 1)
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


def disasm_count(elf, func):
    """Instructions of a function in objdump's disassembly (its size / 4 checked)."""
    od = tool("mipsel-linux-gnu-objdump")
    out = subprocess.run([od, "-d", "--disassemble=" + func, elf], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    return len(re.findall(r"(?m)^\s*[0-9a-f]+:\s+[0-9a-f]{8}\s", out))


class RegionsOfInterest(unittest.TestCase):
    """Feature 1: --collect-only FUNC, SYS PROF_CTRL (rt_prof_start/stop)
    with --collect-initially no. firmware/tests/roi.c: warmup() calls
    leaf_before 50 times, kernel() calls leaf 200 times between
    rt_prof_start() and rt_prof_stop(), cooldown() calls leaf_after 30 times."""

    @classmethod
    def setUpClass(cls):
        cls.elf = fw("roi")
        cls.full = run([cls.elf] + ONE_CORE)
        cls.ffull = functions(cls.full.core(0))

    def test_default_run_counts(self):
        # collection runs from reset; the firmware's rt_prof_stop() stops it
        # (SPEC: 0 stops), so cooldown() is left out
        f = self.ffull
        self.assertEqual(self.full.core(0)["collection"]["region"],
                         "between SYS PROF_CTRL writes (rt_prof_start / rt_prof_stop)")
        self.assertGreater(self.full.core(0)["collection"]["excluded_cycles"], 0)
        self.assertEqual([f[n]["calls"] for n in ("leaf_before", "leaf", "kernel", "rt_prof_start")],
                         [50, 200, 1, 1])
        self.assertNotIn("leaf_after", [n for n in f if f[n]["calls"]])
        n_leaf = disasm_count(self.elf, "leaf")       # straight-line: x*3+7, jr ra
        self.assertEqual(f["leaf"]["instructions"], 200 * n_leaf)

    def test_collect_only_kernel(self):
        r = run([self.elf, "--collect-only", "kernel"] + ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        f = functions(r.core(0))
        ran = sorted(n for n, x in f.items() if x["self_cycles"] or x["calls"])
        self.assertEqual(ran, ["kernel", "leaf"])
        for n in ("kernel", "leaf"):   # exactly what the whole run counts for them
            for k in ("calls", "self_cycles", "instructions", "inclusive_cycles"):
                self.assertEqual(f[n][k], self.ffull[n][k], (n, k))
        coll = r.core(0)["collection"]
        self.assertEqual(coll["region"], "only while kernel is on the call stack")
        self.assertEqual(coll["collected_cycles"], self.ffull["kernel"]["inclusive_cycles"])
        self.assertEqual(coll["collected_cycles"] + coll["excluded_cycles"], self.full.core(0)["cycles"])
        flat = r.text("core0", "flat.txt")
        self.assertIn("Collected only while kernel is on the call stack: %d of the core's %d cycles; %d cycles"
                      % (coll["collected_cycles"], self.full.core(0)["cycles"], coll["excluded_cycles"]), flat)
        st = folded(r)
        self.assertEqual(sum(st.values()), coll["collected_cycles"])
        self.assertIn("leaf_before", r.core(0)["never_called"])
        # the gmon.out gprof reads has only the region's arcs
        g = gprof(self.elf, r.path("core0", "gmon.out"), "-q")
        self.assertEqual(called_columns(g).get("leaf"), "200")
        self.assertNotIn("leaf_before", called_columns(g))

    def test_prof_ctrl_region(self):
        r = run([self.elf, "--collect-initially", "no"] + ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        f = functions(r.core(0))
        for n in ("warmup", "leaf_before", "cooldown", "leaf_after"):
            self.assertTrue(n not in f or (f[n]["calls"] == 0 and f[n]["self_cycles"] == 0), n)
            self.assertIn(n, r.core(0)["never_called"])
        for n in ("kernel", "leaf"):
            for k in ("calls", "self_cycles", "instructions", "inclusive_cycles"):
                self.assertEqual(f[n][k], self.ffull[n][k], (n, k))
        # rt_prof_stop is collected (its store's block runs before the switch)
        self.assertEqual(f["rt_prof_stop"]["calls"], 1)
        self.assertEqual(f["rt_prof_stop"]["instructions"], disasm_count(self.elf, "rt_prof_stop"))
        self.assertEqual(r.core(0)["collection"]["region"],
                         "between SYS PROF_CTRL writes (rt_prof_start / rt_prof_stop)")

    def test_unknown_function(self):
        r = run([self.elf, "--collect-only", "no_such_function"] + ONE_CORE)
        self.assertEqual(r.rc, 2)
        self.assertIn("no such function", r.stderr)
        self.assertFalse(os.path.exists(r.path("summary.json")))



def loop_layout(elf, func):
    """(start, end, loop target, back branch) of func, from objdump -d."""
    lo, size = nptest.symbols(elf)[func]
    target = branch = None
    for pc, mnem, ops in nptest.objdump_function(elf, func, "el"):
        t = re.search(r"\b([0-9a-f]{8}) <", ops)
        if mnem.startswith("b") and t and int(t.group(1), 16) < pc:
            branch, target = pc, int(t.group(1), 16)
    assert branch, func
    return lo, lo + size, target, branch


class RoiCutCounts(unittest.TestCase):
    """roicut.c: a region of interest (SYS PROF_CTRL) holding some of the
    runs of a block, one of them cut short by a fault (core 0), or cut
    after a PROF_CTRL = 0 written in the same run (core 1): every
    instruction counts the times it ran inside the region (callgrind.out
    Ir, truth from objdump), and the Ir add up to the core's collected
    instructions. Before, the block counted every instruction of its
    region runs: the cut was not taken off (61 and 40 after the faulting
    load, for 60 and 39)."""

    N, OUT, ON = 60, 25, 20

    def test_per_instruction_counts(self):
        elf = fw("roicut")
        r = run([elf])
        self.assertEqual(r.rc, 3, r.describe())
        for core, func in ((0, "walk"), (1, "ctrl_walk")):
            with self.subTest(core=core):
                f = r.core(core)["fault"]
                self.assertEqual((f["kind"], f["function"]), ("unmapped-read", func), f)
                lo, hi, target, branch = loop_layout(elf, func)
                fault = f["pc"]
                self.assertTrue(target < fault < branch, (hex(target), hex(fault), hex(branch)))
                want = {}
                for pc in range(lo, hi, 4):
                    if core == 0:   # the second call: its entry path once, then N loop runs, the last cut
                        n = 1 if pc < target else self.N + 1 if pc < fault else self.N if pc < branch + 8 else 0
                    else:           # loop runs ON + 1 .. N inside, the last cut at the load
                        n = 0 if pc < target else self.N - self.ON if pc < fault else \
                            self.N - self.ON - 1 if pc < branch + 8 else 0
                    want[pc] = n
                per, total = callgrind_ir(r.text("core%d" % core, "callgrind.out"))
                self.assertEqual({pc: per.get(pc, 0) for pc in want}, want)
                c = r.core(core)   # the instructions collected: its functions'
                self.assertEqual(total, sum(f["instructions"] for f in c["functions"]))
                self.assertEqual(c["collection"]["collected_cycles"], sum(f["self_cycles"] for f in c["functions"]))
                # the calling contexts hold the same cycles (the cut run's
                # taken-back cycles leave them too), and profile.data reads back
                self.assertEqual(sum(folded(r, core).values()), c["collection"]["collected_cycles"])
        res = nptest.raw(["report", "-o", nptest.tmpdir("roicut"), r.out])
        self.assertEqual(res.returncode, 0, res.stderr)

class IdleCores(unittest.TestCase):
    """Issue 24: the pipeline demo on a 3 x 2 mesh; cores 4 and 5 are no
    stage: they print one line and exit after about 2,600 cycles, fewer
    than one sampling period (10007). Their flat.txt says "no samples" in
    one line instead of a table of zeros under its headers; with
    --collect-only rt_recv (which they never call) nothing ran in their
    profile, and flat.txt and callgraph.txt say so in one line."""

    MESH = ["--set", "mesh.width=3", "--set", "mesh.height=2"]

    def test_no_samples_one_line(self):
        r = run(self.MESH + [fw("pipeline")])
        self.assertEqual(r.rc, 0, r.describe())
        c = r.core(5)
        self.assertLess(c["cycles"], 10007)
        flat = r.text("core5", "flat.txt")
        self.assertIn("\nSampled profile: sampling period 10007 cycles: no samples in the profile's %d cycles.\n"
                      % c["cycles"], flat)
        self.assertNotIn(" sampled    cumulative", flat)
        rows, total = flat_rows(flat)
        self.assertEqual(total, c["cycles"])
        self.assertEqual(rows["rt_putc"], functions(c)["rt_putc"]["self_cycles"])
        # a core with samples keeps its sampled table
        self.assertIn("Sampled profile: sampling period 10007 cycles (each sample counts",
                      r.text("core0", "flat.txt"))

    def test_nothing_ran_one_line(self):
        r = run(self.MESH + ["--collect-only", "rt_recv", fw("pipeline")])
        self.assertEqual(r.rc, 0, r.describe())
        c = r.core(4)
        self.assertEqual((c["collection"]["collected_cycles"], c["instructions"] > 0), (0, True))
        elf = fw("pipeline")
        nothing = "Nothing ran: 0 instructions in 0 cycles (idle 0, interrupt 0): no table to show.\n"
        self.assertEqual(r.text("core4", "flat.txt"),
                         "Flat profile, core 4: %s\n\nCollected only while rt_recv is on the call stack: 0 of "
                         "the core's %d cycles; %d cycles (100.00%%) ran outside and are excluded from every "
                         "number below.\n\n%s" % (elf, c["cycles"], c["cycles"], nothing))
        self.assertEqual(r.text("core4", "callgraph.txt"), "Call graph, core 4: %s\n\n%s" % (elf, nothing))
        # gmon.out keeps its (zero) histogram: gprof -s sums it with the others
        self.assertIn("no time accumulated", gprof(elf, r.path("core4", "gmon.out"), "-p"))
        self.assertIn("Exact profile:", r.text("core0", "flat.txt"))


def flat_rows(text):
    """name -> self cycles of flat.txt's exact table; and its total."""
    total = int(re.search(r"Exact profile: (\d+) cycles", text).group(1))
    exact = text.split("Exact profile:", 1)[1].split("Sampled profile", 1)[0]
    rows = {}
    for line in exact.splitlines():
        m = re.match(r"^\s*[\d.]+\s+\d+\s+[\d.]+\s+(\d+)\s+[\d.]+\s.*?\s(\S+)$", line)
        if m:
            rows[m.group(2)] = int(m.group(1))
    return rows, total


class ReportFilters(unittest.TestCase):
    """Feature 1: --focus FUNC (gprof -f/-F) and --exclude FUNC[/time]
    (gprof -e/-E) for text, JSON and gmon.out, on firmware/tests/roi.c."""

    @classmethod
    def setUpClass(cls):
        cls.elf = fw("roi")
        cls.full = run([cls.elf] + ONE_CORE)
        cls.f = functions(cls.full.core(0))
        cls.rows, cls.total = flat_rows(cls.full.text("core0", "flat.txt"))

    def test_focus(self):
        r = run([self.elf, "--focus", "kernel"] + ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        rows, total = flat_rows(r.text("core0", "flat.txt"))
        self.assertEqual(sorted(rows), ["kernel", "leaf"])
        self.assertEqual(total, self.f["kernel"]["inclusive_cycles"])    # -F: only their time
        self.assertEqual(rows, {"kernel": self.rows["kernel"], "leaf": self.rows["leaf"]})
        self.assertIn("%.2f" % (100.0 * rows["kernel"] / total), r.text("core0", "flat.txt"))
        names = sorted(x["name"] for x in r.core(0)["functions"])
        self.assertEqual(names, ["kernel", "leaf"])
        self.assertEqual(r.core(0)["collection"]["filter"],
                         "focus on kernel and what it calls (gprof -F: only their time counts)")
        g = called_columns(gprof(self.elf, r.path("core0", "gmon.out"), "-q"))
        self.assertEqual(g, {"leaf": "200"})
        cg = called_columns(r.text("core0", "callgraph.txt"))
        self.assertEqual(cg, {"kernel": "1", "leaf": "200"})

    def test_exclude_keeps_time(self):
        r = run([self.elf, "--exclude", "leaf"] + ONE_CORE)
        rows, total = flat_rows(r.text("core0", "flat.txt"))
        self.assertNotIn("leaf", rows)
        self.assertEqual(total, self.total)                              # -e: time stays
        self.assertEqual(rows["kernel"], self.rows["kernel"])
        self.assertNotIn("leaf", [x["name"] for x in r.core(0)["functions"]])
        self.assertNotIn("leaf", called_columns(gprof(self.elf, r.path("core0", "gmon.out"), "-q")))
        self.assertNotRegex(r.text("core0", "callgraph.txt"), r"\bleaf \[")
        self.assertNotRegex(r.text("core0", "callgraph.txt"), r"\s0/0\s")   # no arc taken only outside

    def test_exclude_removes_time(self):
        r = run([self.elf, "--exclude", "leaf/time"] + ONE_CORE)
        rows, total = flat_rows(r.text("core0", "flat.txt"))
        self.assertNotIn("leaf", rows)
        self.assertEqual(total, self.total - self.rows["leaf"])          # -E: time removed
        self.assertIn("%.2f" % (100.0 * rows["kernel"] / total), r.text("core0", "flat.txt"))

    def test_unknown_names(self):
        for opt in (["--focus", "nope"], ["--exclude", "nope/time"]):
            r = run(opt + [self.elf] + ONE_CORE)
            self.assertEqual(r.rc, 2, opt)
            self.assertIn("no such function", r.stderr)


class AnnotateModes(unittest.TestCase):
    """Feature 4: --annotate=asm|both: per-instruction executions, cycles and
    samples, with the source lines interleaved (both)."""

    def test_both(self):
        elf = fw("roi")
        r = run([elf, "--annotate=both", "--sample-period", "7"] + ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        text = r.text("core0", "annotated.txt")
        self.assertTrue(text.startswith("Annotated source and disassembly"))
        f = functions(r.core(0))
        funcs = re.split(r"(?m)^\*\*\* ", text)[1:]
        by_name = {b.split(" ", 1)[0]: b for b in funcs}
        # leaf: x * 3u + 7u, four instructions (objdump), 200 executions each
        leaf = by_name["leaf"]
        self.assertIn("roi.c:21: unsigned leaf(unsigned x) { return x * 3u + 7u; }", leaf)
        ins = re.findall(r"(?m)^\s+(\d+|#####)\s+(\d+)\s+(\d+)\s+0x([0-9a-f]{8}): (.*)$", leaf)
        self.assertEqual(len(ins), disasm_count(elf, "leaf"))
        self.assertEqual([int(c) for c, _, _, _, _ in ins], [200] * len(ins))
        for name, block in by_name.items():
            rows = re.findall(r"(?m)^\s+(\d+|#####)\s+(\d+)\s+(\d+)\s+0x[0-9a-f]{8}: ", block)
            self.assertEqual(sum(int(cy) for _, cy, _ in rows), f[name]["self_cycles"], name)
            self.assertEqual(sum(int(s) for _, _, s in rows), f[name]["samples"]["7"], name)
            ninsn = sum(int(c) for c, _, _ in rows if c != "#####")
            self.assertEqual(ninsn, f[name]["instructions"], name)

    def test_asm(self):
        r = run([fw("roi"), "--annotate", "asm"] + ONE_CORE)
        text = r.text("core0", "annotated.txt")
        self.assertTrue(text.startswith("Annotated disassembly"))
        self.assertNotIn("roi.c:21:", text)
        self.assertRegex(text, r"(?m)^\s+200\s+\d+\s+\d+\s+0x[0-9a-f]{8}: jal ")


if __name__ == "__main__":
    nptest.main()

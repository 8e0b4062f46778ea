#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/reports - reports that never mislead (issue 20, items 4-8):
names escaped per format, byte budgets, --focus and GCC clones, diff
gating, callgrind.out for the real callgrind_annotate."""
import json
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import ONE_CORE, callgrind_ir, fw, nocprof, raw, run, tmpdir  # noqa: E402

# firmware/tests/names.c: placeholder -> hostile name of the same length
HOSTILE = {
    b"semiQcolon": b"semi;colon",
    b"spQ12": b"sp 12",
    b"evil_fn_9__inj_": b"evil\nfn=(9) inj",
    b"esc_Q31mred": b"esc\x1b[31mred",
}
# how every report shows them (base/name.h; folded also escapes ';' and ' ')
SHOWN = {"semi;colon": "semi\\x3bcolon", "sp 12": "sp\\x2012", "evil\\x0afn=(9) inj": "evil\\x0afn=(9)\\x20inj",
         "esc\\x1b[31mred": "esc\\x1b[31mred"}
CALLS = {"semi;colon": 5, "sp 12": 5, "evil\\x0afn=(9) inj": 3, "esc\\x1b[31mred": 2}


def hostile_elf(endian):
    """A copy of names-EN.elf with the hostile names patched into .strtab
    and .debug_str (NUL-delimited, same length)."""
    with open(fw("names", endian), "rb") as f:
        data = f.read()
    for old, new in HOSTILE.items():
        assert len(old) == len(new)
        assert b"\0" + old + b"\0" in data, old
        data = data.replace(b"\0" + old + b"\0", b"\0" + new + b"\0")
    path = os.path.join(tmpdir("elf"), "hostile-%s.elf" % endian)
    with open(path, "wb") as f:
        f.write(data)
    return path


def text_files(out):
    for d, _, files in os.walk(out):
        for n in files:
            if n in ("profile.data", "gmon.out", "console.txt") or n.endswith(".elf"):
                continue
            yield os.path.join(d, n)


class Names(unittest.TestCase):
    """A name can neither split a line nor add a frame, a count or a
    record, and no control byte reaches a report (FORMATS.md)."""

    def check_out(self, out, cycles):
        for path in text_files(out):
            with open(path, "rb") as f:
                data = f.read()
            self.assertIsNone(re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", data), path)
            for line in data.split(b"\n"):
                self.assertFalse(line.startswith(b"fn=(9)") or line.lstrip().startswith(b"inj"), (path, line))
        # folded: one frame per function, the hostile ones escaped
        folded = {}
        with open(os.path.join(out, "stacks.folded")) as f:
            for line in f:
                path, count = line.rstrip("\n").rsplit(" ", 1)
                self.assertNotIn(" ", path, line)
                folded[path] = int(count)
        self.assertEqual(sum(folded.values()), cycles)
        main = "core0;_start;main;"
        self.assertIn(main + SHOWN["semi;colon"] + ";" + SHOWN["sp 12"], folded)
        for n in ("evil\\x0afn=(9) inj", "esc\\x1b[31mred"):
            self.assertIn(main + SHOWN[n], folded)
        # flat.txt: one row per function with its calls, name last
        rows = {}
        with open(os.path.join(out, "core0", "flat.txt")) as f:
            for line in f:
                m = re.match(r"\s*[\d.]+\s+\d+\s+[\d.]+\s+\d+\s+[\d.]+\s+(\d+)\s+[\d.]+\s+[\d.]+\s+(.+)$", line)
                if m:
                    rows[m.group(2)] = int(m.group(1))
        for n, calls in CALLS.items():
            self.assertEqual(rows.get(n), calls, (n, rows))
        # callgrind.out: the names defined once each, escaped
        with open(os.path.join(out, "core0", "callgrind.out")) as f:
            cg = f.read()
        for n in CALLS:
            self.assertEqual(len(re.findall(r"^c?fn=\(\d+\) " + re.escape(n) + "$", cg, re.M)), 1, n)

    def test_hostile_names(self):
        for endian in ("el", "eb"):
            e = hostile_elf(endian)
            r = run(ONE_CORE + [e])
            self.assertEqual(r.rc, 0, r.describe())
            names = {f["name"] for f in r.core(0)["functions"]}
            self.assertTrue(set(CALLS) <= names, names)
            self.check_out(r.out, r.core(0)["cycles"])
            # rebuilt from profile.data: the same files
            again = tmpdir("again")
            p = raw(["report", "-o", again, r.out])
            self.assertEqual(p.returncode, 0, p.stderr)
            self.check_out(again, r.core(0)["cycles"])
            # diff.folded: two counts after one space, no extra frame
            d = tmpdir("diff")
            p = raw(["diff", "-q", "-o", d, r.out, r.out])
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(d, "diff.folded")) as f:
                for line in f:
                    self.assertRegex(line, r"^[^ ]+ (\d+) \1\n$")
            # report.html's flame graph (its flame data, made from the
            # folded frames, through web/src/model.js flameTree) gets
            # summary.json's names back
            node = nptest.shutil.which("node")
            if node:
                js = ("import {Model} from %s; import {readFileSync} from 'fs';"
                      "const h = readFileSync(%s, 'utf8');"
                      "const d = JSON.parse(h.split('id=\"nocprof-data\">')[1].split('</script>')[0]);"
                      "const f = new Set(); const walk = (n) => { f.add(n.name); n.children.forEach(walk); };"
                      "new Model(d).flameTree(0).children.forEach(walk);"
                      "console.log(JSON.stringify([...f]));"
                      % (repr(nptest.src("web", "src", "model.js")), repr(r.path("report.html"))))
                p = subprocess.run([node, "--input-type=module", "-e", js], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, universal_newlines=True)
                self.assertEqual(p.returncode, 0, p.stderr)
                frames = set(json.loads(p.stdout))
                self.assertTrue(set(CALLS) <= frames <= names, (frames, names))
            # the real callgrind_annotate sees the names as functions
            ca = nptest.tool("callgrind_annotate")
            p = subprocess.run([ca, os.path.join(r.out, "core0", "callgrind.out")], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertNotIn("malformed", p.stderr)
            self.assertIn(":evil\\x0afn=(9) inj", p.stdout)


def annotated_cycles(text):
    """(file, line) -> cycles summed over the functions of annotated.txt."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^    (/\S+|\./\S+):\d+-\d+", line)
        if m:
            cur = os.path.normpath(m.group(1))
            continue
        m = re.match(r"^\s+[\d,]+\s+(\d+)\s+\d+\s+(\d+):", line)
        if m and cur:
            key = (cur, int(m.group(2)))
            out[key] = out.get(key, 0) + int(m.group(1))
    return out


def callgrind_lines(text):
    """(file, line) -> (Cycles, Ir) of the self cost lines of callgrind.out
    (calls= records and the fl/fi/fe file names followed)."""
    files, out, fl, cur, after_calls = {}, {}, None, None, False
    for line in text.splitlines():
        m = re.match(r"^(fl|fi|fe|cfi)=\((\d+)\)(?: (.*))?$", line)
        if m:
            if m.group(3):
                files[m.group(2)] = m.group(3)
            if m.group(1) == "cfi":
                continue
            cur = files[m.group(2)]
            if m.group(1) == "fl":
                fl = cur
            continue
        if line.startswith("calls="):
            after_calls = True
            continue
        m = re.match(r"^0x[0-9a-f]+ (\d+)((?: \d+)*)$", line)
        if m:
            if not after_calls:
                v = [int(x) for x in m.group(2).split()] + [0, 0]
                key = (os.path.normpath(cur), int(m.group(1)))
                c, i = out.get(key, (0, 0))
                out[key] = (c + v[0], i + v[1])
            after_calls = False
    return out


def annotate_section(text, suffix):
    """line -> Cycles of callgrind_annotate's auto-annotated source whose
    name ends with suffix."""
    out, cur, on = {}, None, False
    for line in text.splitlines():
        if line.startswith("-- Auto-annotated source: "):
            on = line.endswith(suffix)
            cur = None
            continue
        if not on:
            continue
        m = re.match(r"^-- line (\d+) -+$", line)
        if m:
            cur = int(m.group(1))
            continue
        if line.startswith("----"):
            on = cur is None   # the rule under the title; the next one ends the section
            continue
        if cur is None:
            continue
        m = re.match(r"^\s*([\d,]+|\.)(?: \(\s*[\d.]+%\))?\s+([\d,]+|\.)(?: \(\s*[\d.]+%\))?\s{2}(.*)$", line)
        if not m:
            continue
        if m.group(3).lstrip().startswith("=> "):
            continue
        if m.group(1) != ".":
            out[cur] = int(m.group(1).replace(",", ""))
        cur += 1
    return out


class FallThrough(unittest.TestCase):
    """annotated.txt lists every function whose code ran, also one a block
    starting at the symbol before it ran into (hand-written assembly's
    labels). t_fallthru: `mid`'s addiu runs 3 times inside the block that
    starts at `loop`; before, `mid` had no calls and no cycles of its own
    and was listed nowhere (neither annotated.txt nor --annotate=asm)."""

    def test_label_reached_by_falling_through_is_listed(self):
        for endian in ("el", "eb"):
            elf = nptest.fixture("t_fallthru", endian)
            mid = {k: v[0] for k, v in nptest.symbols(elf, endian).items()}["mid"]
            r = run(ONE_CORE + [elf])
            self.assertEqual(r.core(0)["exit_code"], 3, r.describe())
            line = re.compile(r"^\s+3\s+\d+\s+\d+\s+0x%08x: addiu " % mid, re.M)
            text = r.text("core0", "annotated.txt")
            self.assertIn("*** mid  [0x%08x, " % mid, text)
            self.assertRegex(text, line)
            out = tmpdir("fallthru")
            rep = raw(["report", r.out, "--annotate=asm", "-o", out])
            self.assertEqual(rep.returncode, 0, rep.stderr)
            asm = open(os.path.join(out, "core0", "annotated.txt")).read()
            self.assertIn("*** mid [0x%08x, " % mid, asm)
            self.assertRegex(asm, line)


class Callgrind(unittest.TestCase):
    """callgrind.out (issue 20.8): absolute fl= names that resolve from any
    working directory, each instruction's cost on its own line, events
    Cycles and Ir, read by the real callgrind_annotate."""

    def test_cost_per_instruction_line(self):
        """Per source line, the Cycles of callgrind.out are annotated.txt's
        (each instruction's own cycles, each on its own
        line), Ir sums to the instructions, and callgrind_annotate run from
        another folder annotates calls.c with the same figures."""
        ca = nptest.tool("callgrind_annotate")
        for endian in ("el", "eb"):
            r = run(ONE_CORE + [fw("calls", endian)])
            self.assertEqual(r.rc, 0, r.describe())
            cg = r.text("core0", "callgrind.out")
            self.assertIn("\nevents: Cycles Ir Dr Dw Bc Bi\n", cg)
            # Ir counts what ran: _start's last block (start.S: li, sw to
            # SYS EXIT, b 3b, nop) stops the core at the sw, and the 2
            # instructions after it do not count (they did before: + 2)
            ir = r.core(0)["instructions"]
            self.assertIn("\nsummary: %d %d " % (r.core(0)["cycles"], ir), cg)
            files = re.findall(r"^(?:fl|fi|fe|cfi)=\(\d+\) (.*)$", cg, re.M)
            self.assertTrue(files and all(f.startswith("/./") for f in files), files)
            mine = callgrind_lines(cg)
            ann = annotated_cycles(r.text("core0", "annotated.txt"))
            self.assertEqual({k: v[0] for k, v in mine.items() if v[0] and k[0] != "???"},
                             {k: v for k, v in ann.items() if v})
            idle = nptest.functions(r.core(0)).get("<idle>", {}).get("self_cycles", 0)
            self.assertEqual(sum(v[0] for v in mine.values()) + idle, r.core(0)["cycles"])
            self.assertEqual(sum(v[1] for v in mine.values()), ir)
            p = subprocess.run([ca, "--show=Cycles,Ir", r.path("core0", "callgrind.out")], cwd=tmpdir("elsewhere"),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertNotIn("could not be found", p.stdout)
            src = nptest.src("firmware", "tests", "calls.c")
            got = annotate_section(p.stdout, os.path.realpath(src))
            want = {line: c for (f, line), c in ann.items() if f == os.path.realpath(src) and c}
            self.assertTrue(want)
            self.maxDiff = None
            self.assertEqual({k: v for k, v in got.items() if v}, want)

    def test_relative_dwarf_paths_from_anywhere(self):
        """DWARF names ./fw/lines/updcrc.c (relative comp dir): the run
        starts in the folder that holds ./fw, callgrind_annotate runs in
        another and still annotates the source."""
        import test_profiler
        top, elf, _ = test_profiler.SourceLookup.build(self)
        r = run(ONE_CORE + [elf], cwd=top)
        self.assertEqual(r.rc, 0, r.describe())
        cg = r.text("core0", "callgrind.out")
        want = "/." + os.path.join(os.path.realpath(top), "fw", "lines", "updcrc.c")
        self.assertRegex(cg, r"(?m)^c?fi?l?=\(\d+\) %s$" % re.escape(want))
        ca = nptest.tool("callgrind_annotate")
        p = subprocess.run([ca, r.path("core0", "callgrind.out"), "--include=/nonexistent"],
                           cwd=tmpdir("elsewhere"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("-- Auto-annotated source: " + want, p.stdout)
        self.assertIn("updcrc(k + core);", p.stdout)


def flat_rows(text):
    """name -> calls (0 when blank) of the exact table of a flat.txt."""
    rows = {}
    exact = text.split("Exact profile:", 1)[1].split("Sampled profile", 1)[0]
    for line in exact.splitlines():
        m = re.match(r"^\s*[\d.]+\s+\d+\s+[\d.]+\s+\d+\s+[\d.]+\s+(?:(\d+)\s+[\d.]+\s+[\d.]+\s+)?(\S+)$", line)
        if m:
            rows[m.group(2)] = int(m.group(1) or 0)
    return rows


def exact_total(text):
    return int(re.search(r"^Exact profile: (\d+) cycles", text, re.M).group(1))


class Focus(unittest.TestCase):
    """--focus at chip level, cores that never run the focus, GCC clones
    (firmware/tests/clones.c, -O2) and "did you mean" (issue 20.6)."""

    def test_focus_chip_and_idle_cores(self):
        """--focus simpson: only core 0 calls it (twice, 65 poly calls
        each). The chip lists simpson.constprop.0 and poly alone, with core
        0's counts; cores 1-3 have 0 cycles."""
        for endian in ("el", "eb"):
            e = fw("clones", endian)
            whole = run([e])
            self.assertEqual(whole.rc, 0, whole.describe())
            f0 = nptest.functions(whole.core(0))
            r = run(["--focus", "simpson", e])
            self.assertEqual(r.rc, 0, r.describe())
            chip = r.text("flat.txt")
            self.assertEqual(flat_rows(chip), {"simpson.constprop.0": 2, "poly": f0["poly"]["calls"]})
            core0 = f0["simpson.constprop.0"]["self_cycles"] + f0["poly"]["self_cycles"]
            self.assertEqual(exact_total(chip), core0)
            self.assertEqual(exact_total(r.text("core0", "flat.txt")), core0)
            for k in (1, 2, 3):
                flat = r.text("core%d" % k, "flat.txt")
                self.assertEqual(exact_total(flat), 0, k)
                self.assertEqual(flat_rows(flat), {}, k)
            self.assertIn("--focus simpson matched its GCC clone simpson.constprop.0", chip)
            # nocprof report: the same
            again = tmpdir("again")
            p = raw(["report", "-o", again, "--focus", "simpson", whole.out])
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(again, "flat.txt")) as f:
                self.assertEqual(flat_rows(f.read()), flat_rows(chip))

    def test_clones_by_source_name(self):
        """--exclude, --collect-only take the source name of a clone:
        collecting only under simpson counts its 2 calls and their
        2 x 65 poly calls (simpson(a, 64): poly(a), poly(a+64), 63 more)."""
        e = fw("clones")
        r = run(ONE_CORE + ["--collect-only", "simpson", e])
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(flat_rows(r.text("core0", "flat.txt")), {"simpson.constprop.0": 2, "poly": 130})
        self.assertIn("Collected only while simpson (GCC clone simpson.constprop.0) is on the call stack",
                      r.text("core0", "flat.txt"))
        r = run(ONE_CORE + ["--exclude", "scaled", "--exclude", "checked", e])
        self.assertEqual(r.rc, 0, r.describe())
        rows = flat_rows(r.text("core0", "flat.txt"))
        self.assertNotIn("scaled.isra.0", rows)
        self.assertNotIn("checked.part.0", rows)
        self.assertIn("simpson.constprop.0", rows)
        whole = nptest.functions(run(ONE_CORE + [e]).core(0))
        self.assertIn("scaled.isra.0", whole)
        self.assertIn("checked.part.0", whole)

    def test_did_you_mean(self):
        e = fw("clones")
        for opt in ("--focus", "--exclude", "--collect-only"):
            r = run(ONE_CORE + [opt, "simpsn", e])
            self.assertEqual(r.rc, 2, r.describe())
            self.assertIn("%s simpsn: no such function in %s; did you mean simpson?" % (opt, e), r.stderr)
        whole = run(ONE_CORE + [e])
        p = raw(["report", "-o", tmpdir("rep"), "--focus", "pollY", whole.out])
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--focus pollY: no such function; did you mean poly?", p.stderr)
        p = raw(["diff", "-q", "-o", tmpdir("d"), "--fail-if-slower", "1", "--function", "simpsn",
                 whole.out, whole.out])
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--function simpsn: ran in neither run; did you mean simpson?", p.stderr)


class DiffGate(unittest.TestCase):
    """diff --fail-if-slower with --function gates on the function alone
    (issue 20.7). calls with [timing] mul 2 (A) and 9 (B): the total grows
    by 7 cycles per mul executed, fib (no mul) not at all, op_mul by
    7 x CALLS_OP_EACH(k)."""

    @classmethod
    def setUpClass(cls):
        cls.a = run(ONE_CORE + ["--set", "timing.mul=2", fw("calls")])
        cls.b = run(ONE_CORE + ["--set", "timing.mul=9", fw("calls")])

    def diff(self, *args, stdout=subprocess.PIPE):
        return subprocess.run([nocprof(), "diff", "-o", tmpdir("d")] + list(args) + [self.a.out, self.b.out],
                              stdout=stdout, stderr=subprocess.PIPE, universal_newlines=True, timeout=60)

    def test_gate_on_function_alone(self):
        fa, fb = nptest.functions(self.a.core(0)), nptest.functions(self.b.core(0))
        self.assertEqual(fa["fib"]["inclusive_cycles"], fb["fib"]["inclusive_cycles"])
        self.assertGreater(self.b.core(0)["cycles"], self.a.core(0)["cycles"])
        p = self.diff("-q", "--fail-if-slower", "0.01")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("total cycles grew from %d to %d" % (self.a.core(0)["cycles"], self.b.core(0)["cycles"]),
                      p.stderr)
        p = self.diff("-q", "--fail-if-slower", "0.01", "--function", "fib")
        self.assertEqual(p.returncode, 0, p.stderr)
        p = self.diff("-q", "--fail-if-slower", "0.01", "--function", "fib", "--function", "op_mul")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("op_mul: inclusive cycles grew from %d to %d" % (fa["op_mul"]["inclusive_cycles"],
                                                                       fb["op_mul"]["inclusive_cycles"]), p.stderr)
        self.assertNotIn("total cycles", p.stderr)
        self.assertNotIn("fib:", p.stderr)

    def test_function_in_neither_run(self):
        p = self.diff("-q", "--fail-if-slower", "5", "--function", "no_such_fn")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--function no_such_fn: ran in neither run", p.stderr)

    def test_full_stdout_is_status_5(self):
        with open("/dev/full", "w") as full:
            p = self.diff(stdout=full)
        self.assertEqual(p.returncode, 5, p.stderr)
        self.assertIn("stdout: write error: No space left on device", p.stderr)


def build_c(source, name="app"):
    """An ELF of the nocprof platform from C source text (mipsel-linux-gnu-gcc
    and the runtime objects of the build)."""
    gcc = nptest.tool("mipsel-linux-gnu-gcc")
    rt = os.path.join(nptest.ARGS.fw, "runtime-el")
    if not os.path.isdir(rt):
        raise unittest.SkipTest("runtime objects not built")
    d = tmpdir("cc")
    with open(os.path.join(d, name + ".c"), "w") as f:
        f.write(source)
    elf = os.path.join(d, name + ".elf")
    objs = sorted(os.path.join(rt, o) for o in os.listdir(rt) if o.endswith(".o"))
    subprocess.run([gcc, "-EL", "-march=mips32r2", "-mno-abicalls", "-fno-pic", "-G0", "-ffreestanding", "-nostdlib",
                    "-nostartfiles", "-static", "-O1", "-fno-inline", "-fno-optimize-sibling-calls",
                    "-I", nptest.src("firmware", "runtime"), "-I", nptest.src("include"),
                    "-T", nptest.src("firmware", "runtime", "link.ld"), "-o", elf, os.path.join(d, name + ".c")]
                   + objs + [nptest.sdk_lib()], check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return elf


# K functions with 120-character names, each calling two others until the
# depth runs out: 2^(DEPTH+1) - 1 calls, as many calling contexts, paths of
# up to DEPTH + 3 frames of 121 bytes (tens of MB of stacks.folded uncut).
WIDE_K, WIDE_DEPTH = 8, 13


def wide_source():
    names = ["w%d_" % i + "long_name_" * 12 for i in range(WIDE_K)]
    names = [n[:120] for n in names]
    out = ['#include "nocprof.h"', "volatile unsigned sink;"]
    out += ["void %s(unsigned d);" % n for n in names]
    for i, n in enumerate(names):
        a, b = names[(2 * i + 1) % WIDE_K], names[(2 * i + 2) % WIDE_K]
        out.append("void %s(unsigned d) { sink++; if (d) { %s(d - 1); %s(d - 1); } }" % (n, a, b))
    out.append("int main(unsigned core, unsigned n) { (void)n; if (!core) %s(%d); return 0; }"
               % (names[0], WIDE_DEPTH))
    return "\n".join(out) + "\n", names


class Budget(unittest.TestCase):
    """stacks.folded (and report.html's flame graphs) within [limits]
    folded_bytes, cut with a warning, totals exact (issue 20.4)."""

    def test_wide_recursion_long_names(self):
        src, names = wide_source()
        e = build_c(src, "wide")
        budget = 1 << 20
        r = run(ONE_CORE + ["--set", "limits.folded_bytes=%d" % budget, e], timeout=300)
        self.assertEqual(r.rc, 0, r.describe())
        calls = sum(f["calls"] for f in r.core(0)["functions"] if f["name"] in names)
        self.assertEqual(calls, 2 ** (WIDE_DEPTH + 1) - 1)
        size = os.path.getsize(r.path("stacks.folded"))
        self.assertLessEqual(size, budget)
        lines = r.text("stacks.folded").splitlines()
        self.assertEqual(sum(int(l.rsplit(" ", 1)[1]) for l in lines), r.core(0)["cycles"])
        depth = max(l.count(";") for l in lines)     # frames below core0
        w = [x for x in r.summary["warnings"] if x.startswith("stacks.folded: ")]
        self.assertEqual(len(w), 1, r.summary.get("warnings"))
        m = re.match(r"stacks.folded: call paths cut at (\d+) of (\d+) frames to stay within %d bytes "
                     r"\(\[limits\] folded_bytes; (\d+) bytes uncut, (\d+) written\)" % budget, w[0])
        self.assertIsNotNone(m, w[0])
        self.assertEqual(int(m.group(1)), depth)
        self.assertEqual(int(m.group(2)), WIDE_DEPTH + 3)   # _start, main, DEPTH + 1 levels
        self.assertEqual(int(m.group(4)), size)
        self.assertGreater(int(m.group(3)), 10 * budget)
        self.assertIn("nocprof: warning: " + w[0], r.stderr)
        self.assertIn("WARNING: " + w[0], r.text("summary.txt"))
        # one more frame would not fit: the cut is the deepest within the budget
        uncut = run(ONE_CORE + ["--set", "limits.folded_bytes=%d" % (1 << 40), e], timeout=300)
        paths = {}
        for l in uncut.text("stacks.folded").splitlines():
            p, n = l.rsplit(" ", 1)
            fr = p.split(";")
            key = ";".join(fr[:depth + 1])
            paths[key] = paths.get(key, 0) + int(n)
        self.assertEqual(len(uncut.text("stacks.folded")), int(m.group(3)))
        self.assertEqual(paths, {p: int(n) for p, n in (l.rsplit(" ", 1) for l in lines)})
        # report.html embeds the cut stacks: bounded by the budget
        small = run(ONE_CORE + [fw("calls")])
        extra = os.path.getsize(r.path("report.html")) - os.path.getsize(small.path("report.html"))
        self.assertLess(extra, 2 * budget)
        self.assertNotIn("warnings", uncut.summary)

    def test_diff_folded_deep_recursion(self):
        """diff.folded of a 20,000-deep recursion: paths cut at 512 frames
        like stacks.folded (it built every full path: quadratic, over 120 s
        for 30,000 levels), both columns still add up to the cycles."""
        e = build_c('#include "nocprof.h"\nvolatile unsigned sink;\n'
                    "unsigned rec(unsigned n) { sink++; return n ? rec(n - 1) + 1 : 0; }\n"
                    "int main(unsigned core, unsigned n) { (void)n; if (!core) sink += rec(20000); return 0; }\n",
                    "deep")
        r = run(ONE_CORE + ["--set", "memory.ram_size=4194304", e])
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(nptest.functions(r.core(0))["rec"]["calls"], 20001)
        d = tmpdir("d")
        p = subprocess.run([nocprof(), "diff", "-q", "-o", d, r.out, r.out], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(d, "diff.folded")) as f:
            lines = f.read().splitlines()
        self.assertLessEqual(max(l.split(" ")[0].count(";") for l in lines), 512)
        for col in (1, 2):
            self.assertEqual(sum(int(l.split(" ")[col]) for l in lines), r.core(0)["cycles"])
        self.assertLess(os.path.getsize(os.path.join(d, "diff.folded")), 4 << 20)


CUTLOOP_N = 100   # firmware/tests/cutloop.c


def cutloop_truth(elf, fault_pc):
    """Per-pc runs of cutloop() and each pc's line, from objdump -dl (not
    nocprof): the body runs once straight from the entry (iteration 0; the
    entry block goes on to the back branch and its delay slot), then the
    loop block [target, branch + 8) CUTLOOP_N times, the last one cut at
    the faulting load: [target, fault) ran N + 1 times, [fault, branch + 8)
    N times, [start, target) once, the rest never."""
    lo, size = nptest.symbols(elf)["cutloop"]
    od = nptest.tool("mipsel-linux-gnu-objdump")
    res = subprocess.run([od, "-dl", "--no-show-raw-insn", "--start-address=0x%x" % lo,
                          "--stop-address=0x%x" % (lo + size), elf],
                         stdout=subprocess.PIPE, universal_newlines=True, check=True)
    line, lines, branch, target = None, {}, None, None
    for text in res.stdout.splitlines():
        m = re.match(r".*cutloop\.c:(\d+)", text)
        if m:
            line = int(m.group(1))
            continue
        m = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", text)
        if m:
            pc = int(m.group(1), 16)
            lines[pc] = line
            t = re.search(r"\b([0-9a-f]{8}) <", m.group(3))
            if m.group(2).startswith("b") and t and int(t.group(1), 16) < pc:
                branch, target = pc, int(t.group(1), 16)
    assert branch and target < fault_pc < branch, (hex(fault_pc), res.stdout)
    runs = {}
    for pc in lines:
        if pc < target:
            runs[pc] = 1
        elif pc < fault_pc:
            runs[pc] = CUTLOOP_N + 1
        elif pc < branch + 8:
            runs[pc] = CUTLOOP_N
        else:
            runs[pc] = 0
    return runs, lines, target, branch


def coverage_da(text, file_suffix):
    """{line: count} of the DA records of the file ending in file_suffix."""
    out, on = {}, False
    for l in text.splitlines():
        if l.startswith("SF:"):
            on = l.endswith(file_suffix)
        elif on and l.startswith("DA:"):
            ln, n = l[3:].split(",")[:2]
            out[int(ln)] = int(n)
    return out


class CutBlockCounts(unittest.TestCase):
    """A run cut short inside a block (cutloop: the loop block faults at
    its 5th instruction in its last run) counts only the instructions that
    ran: per instruction, per line, in every report, and through merge and
    report. Before, every instruction of the cut block counted the run
    (DA of the line after the fault N + 1 = 101, Ir summing to 6 more than
    the instructions)."""

    @classmethod
    def setUpClass(cls):
        cls.elf = fw("cutloop")
        cls.r = run([cls.elf] + ONE_CORE)
        assert cls.r.rc == 3, cls.r.describe()
        fault = cls.r.core(0)["fault"]
        cls.fault_pc = int(str(fault["pc"]), 0)
        cls.runs, cls.lines, cls.target, cls.branch = cutloop_truth(cls.elf, cls.fault_pc)

    def src_line(self, marker):
        with open(nptest.src("firmware", "tests", "cutloop.c")) as f:
            for i, l in enumerate(f, 1):
                if marker in l:
                    return i
        raise AssertionError(marker)

    def expected_da(self, mult=1):
        da = {}
        for pc, ln in self.lines.items():
            da[ln] = max(da.get(ln, 0), self.runs[pc] * mult)
        return da

    def check_coverage(self, text, mult=1):
        da = coverage_da(text, "cutloop.c")
        exp = self.expected_da(mult)
        self.assertEqual({ln: da.get(ln) for ln in exp}, exp)
        self.assertEqual(da[self.src_line("CUT_BEFORE")], (CUTLOOP_N + 1) * mult)
        self.assertEqual(da[self.src_line("CUT_FAULT")], (CUTLOOP_N + 1) * mult)
        self.assertEqual(da[self.src_line("CUT_AFTER")], CUTLOOP_N * mult)

    def test_fault_is_the_load_in_the_loop_block(self):
        word, mnem, ops = nptest.disasm_at(self.elf, self.fault_pc)
        self.assertEqual(mnem, "lw", ops)
        self.assertEqual(self.r.core(0)["fault"]["kind"], "unmapped-read")

    def test_coverage_lines(self):
        self.check_coverage(self.r.text("coverage.info"))

    def test_annotated_lines(self):
        """count column: per block on the line, the times the line ran in
        it (entry block once; loop block N, N - 1 from the fault on)."""
        text = self.r.text("core0", "annotated.txt")
        got = {}
        for l in text.splitlines():
            m = re.match(r"\s*([0-9,#]+)\s+\d+\s+\d+\s+(\d+):", l)
            if m and m.group(1) != "#####":
                got[int(m.group(2))] = sum(int(x) for x in m.group(1).split(","))
        for ln in set(self.lines.values()):
            pcs = [pc for pc, x in self.lines.items() if x == ln]
            entry = 1 if any(pc < self.branch + 8 for pc in pcs) else 0
            loop = max([CUTLOOP_N if pc < self.fault_pc else CUTLOOP_N - 1
                        for pc in pcs if self.target <= pc < self.branch + 8] or [0])
            self.assertEqual(got.get(ln, 0), entry + loop, "line %d" % ln)
        self.assertEqual(got[self.src_line("CUT_AFTER")], CUTLOOP_N)
        self.assertEqual(got[self.src_line("CUT_BEFORE")], CUTLOOP_N + 1)

    def test_callgrind_ir_per_instruction(self):
        per, total = callgrind_ir(self.r.text("core0", "callgrind.out"))
        for pc, n in self.runs.items():
            self.assertEqual(per.get(pc, 0), n, "pc 0x%x" % pc)
        self.assertEqual(total, self.r.core(0)["instructions"])
        m = re.search(r"^summary: \d+ (\d+)", self.r.text("core0", "callgrind.out"), flags=re.M)
        self.assertEqual(int(m.group(1)), self.r.core(0)["instructions"])

    def test_report_rebuilds_the_same_counts(self):
        files = ["coverage.info", os.path.join("core0", "annotated.txt"), os.path.join("core0", "callgrind.out")]
        before = {f: self.r.text(f) for f in files}
        out = tmpdir("cutreport")
        res = raw(["report", "-o", out, self.r.out])
        self.assertEqual(res.returncode, 0, res.stderr)
        for f in files:
            with open(os.path.join(out, f)) as h:
                self.assertEqual(h.read(), before[f], f)

    def test_gmon_block_record(self):
        """gmon.out's bb record (little-endian): per block a pair (start,
        runs) per stretch of instructions that ran as often: the entry
        block once, the loop block N times from its start and N - 1 from
        the faulting load (before: only (target, N), claiming the load
        and what follows ran N times in the loop block)."""
        import struct
        data = open(self.r.path("core0", "gmon.out"), "rb").read()
        pos, bb = 20, []
        while pos < len(data):
            tag = data[pos]
            if tag == 0:
                n = struct.unpack_from("<III", data, pos + 1)[2]
                pos += 33 + 2 * n
            elif tag == 1:
                pos += 13
            else:
                self.assertEqual(tag, 2)
                n = struct.unpack_from("<I", data, pos + 1)[0]
                bb += [struct.unpack_from("<II", data, pos + 5 + 8 * i) for i in range(n)]
                pos += 5 + 8 * n
        lo = min(self.runs)
        mine = sorted((a, c) for a, c in bb if lo <= a <= max(self.runs))
        self.assertEqual(mine, [(lo, 1), (self.target, CUTLOOP_N), (self.fault_pc, CUTLOOP_N - 1)])

    def test_reader_refuses_a_cut_over_the_runs(self):
        """profile.data's cut counts (format 14: (block, instruction,
        runs) where not 0): each at most its block's runs. The loop
        block's are (b, 4, 1) .. (b, 9, 1); the first is set to N + 1."""
        import shutil
        import struct
        out = os.path.join(tmpdir("cutbad"), "o")
        shutil.copytree(self.r.out, out)
        path = os.path.join(out, "profile.data")
        data = bytearray(open(path, "rb").read())
        m = re.search(rb"(....)\x04\0\0\0\x01\0{7}\1\x05\0\0\0\x01\0{7}", bytes(data), flags=re.S)
        self.assertIsNotNone(m)
        data[m.start() + 8:m.start() + 16] = struct.pack("<Q", CUTLOOP_N + 1)
        with open(path, "wb") as f:
            f.write(data)
        res = raw(["report", out])
        self.assertEqual(res.returncode, 2, res.stderr)
        self.assertIn("runs cut short before its instruction 4, more than its %d runs (cuts)" % CUTLOOP_N,
                      res.stderr)

    def test_merge_sums_the_counts(self):
        m = tmpdir("cutmerged")
        res = raw(["merge", self.r.out, self.r.out, "-o", m])
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(m, "coverage.info")) as f:
            self.check_coverage(f.read(), mult=2)
        with open(os.path.join(m, "core0", "callgrind.out")) as f:
            per, total = callgrind_ir(f.read())
        self.assertEqual(total, 2 * self.r.core(0)["instructions"])
        for pc, n in self.runs.items():
            self.assertEqual(per.get(pc, 0), 2 * n, "pc 0x%x" % pc)


if __name__ == "__main__":
    nptest.main()

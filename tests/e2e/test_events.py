#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/events - issue 22 item 4: the per-function and per-line events
(instructions, loads, stores, conditional and indirect branches, stall
cycles) in callgrind.out (callgrind's own names, read by the real
callgrind_annotate), flat.txt --events and `nocprof diff --metric`.
Truth: hand counts of the assembly fixtures and the instruction classes
of `objdump -d` (binutils' own disassembler, not nocprof's classifier)."""
import json
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import ONE_CORE, fixture, fw, run, tmpdir  # noqa: E402

CG = ("Ir", "Dr", "Dw", "Bc", "Bi")

# objdump's mnemonics by class (MIPS32r2 + FPU; objdump's aliases included:
# beqz/bnez are conditional, b/bal/j/jal unconditional)
LOADS = {"lb", "lbu", "lh", "lhu", "lw", "lwl", "lwr", "ll", "lwc1", "ldc1", "lwxc1", "ldxc1", "luxc1"}
STORES = {"sb", "sh", "sw", "swl", "swr", "sc", "swc1", "sdc1", "swxc1", "sdxc1", "suxc1"}
COND = {"beq", "bne", "beqz", "bnez", "blez", "bgtz", "bltz", "bgez", "bltzal", "bgezal", "beql", "bnel",
        "beqzl", "bnezl", "blezl", "bgtzl", "bltzl", "bgezl", "bc1t", "bc1f", "bc1tl", "bc1fl"}
INDIRECT = {"jr", "jalr", "jr.hb", "jalr.hb"}


def objdump_classes(elf, endian="el"):
    """address -> (load, store, cond, indirect) of every instruction of
    the ELF's .text, from the mnemonics objdump prints."""
    od = nptest.tool("mipsel-linux-gnu-objdump" if endian == "el" else "mips-linux-gnu-objdump")
    p = subprocess.run([od, "-d", "--no-show-raw-insn", elf], stdout=subprocess.PIPE, universal_newlines=True,
                       check=True)
    out = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)", line)
        if m:
            mn = m.group(2)
            out[int(m.group(1), 16)] = (mn in LOADS, mn in STORES, mn in COND, mn in INDIRECT)
    return out


def annotate_totals(path, show):
    """callgrind_annotate's PROGRAM TOTALS and per-function rows for the
    events `show`: ({event: total}, {function: {event: count}})."""
    ca = nptest.tool("callgrind_annotate")
    p = subprocess.run([ca, "--show=" + ",".join(show), "--threshold=100", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, cwd=tmpdir("ca"))
    assert p.returncode == 0, p.stderr
    num = r"([\d,]+|\.)(?: \(\s*[\d.]+%\))?\s+"
    totals, funcs = None, {}
    for line in p.stdout.splitlines():
        m = re.match(r"^" + num * len(show) + r"(.*)$", line.strip() + " ")
        if not m:
            continue
        vals = [0 if x == "." else int(x.replace(",", "")) for x in m.groups()[:-1]]
        rest = m.group(len(show) + 1).strip()
        if rest == "PROGRAM TOTALS":
            totals = dict(zip(show, vals))
        elif ":" in rest and " [" in rest:
            name = rest.split(":", 1)[1].split(" [")[0]
            funcs[name] = dict(zip(show, vals))
    return totals, funcs


class Callgrind(unittest.TestCase):

    def test_fixture_hand_counts(self):
        """callgrind_annotate's per-function Dr Dw Bc Bi are the hand
        counts of the fixtures (e2e/timing Events); Ir the instructions
        that ran (not the 2 after the exit's store in _start, which the
        block holds: they counted before, + 2)."""
        expect = {
            # Ir, Dr, Dw, Bc, Bi (the instructions from test_timing)
            ("t_load", "_start"): (15, 12, 1, 0, 0),
            ("t_branch", "_start"): (46, 2, 1, 20, 0),
            ("t_jump", "_start"): (25, 2, 1, 0, 0),
            ("t_jump", "leaf"): (10, 0, 0, 0, 5),
        }
        for model in ("flat", "24k"):
            for (fx, fn), want in expect.items():
                with self.subTest(fixture=fx, function=fn, model=model):
                    r = run([fixture(fx)] + ONE_CORE + ["--set", "timing.model=" + model])
                    # 24k adds the stall events that are not 0 (test below)
                    self.assertRegex(r.text("core0", "callgrind.out"), r"\nevents: Cycles Ir Dr Dw Bc Bi( Stall\w+)*\n")
                    _, funcs = annotate_totals(r.path("core0", "callgrind.out"), CG)
                    self.assertEqual(tuple(funcs[fn][e] for e in CG), want)

    def test_per_instruction_from_objdump(self):
        """Every instruction's Dr, Dw, Bc, Bi are its Ir when objdump names
        it a load, store, conditional or register branch, else 0; the
        totals callgrind_annotate prints equal summary.json's sums."""
        for endian in ("el", "eb"):
            elf = fw("calls", endian)
            classes = objdump_classes(elf, endian)
            r = run(ONE_CORE + [elf])
            self.assertEqual(r.rc, 0, r.describe())
            events, costs = nptest.callgrind_costs(r.text("core0", "callgrind.out"))
            self.assertEqual(events[:6], ["Cycles"] + list(CG))
            seen = {"Dr": 0, "Dw": 0, "Bc": 0, "Bi": 0}
            for addr, v in costs.items():
                ir = v[1]
                if addr not in classes:
                    continue
                want = [ir if c else 0 for c in classes[addr]]
                self.assertEqual(v[2:6], want, "0x%08x" % addr)
                for k, e in enumerate(("Dr", "Dw", "Bc", "Bi")):
                    seen[e] += want[k] > 0
            self.assertTrue(all(seen.values()), seen)
            totals, _ = annotate_totals(r.path("core0", "callgrind.out"), CG)
            fs = r.core(0)["functions"]
            keys = ("loads", "stores", "cond_branches", "indirect_branches")
            self.assertEqual([totals[e] for e in CG[1:]], [sum(f[k] for f in fs) for k in keys])
            # Ir: what ran (start.S's last block stops at its sw; the 2
            # instructions after it counted before: + 2)
            self.assertEqual(totals["Ir"], r.core(0)["instructions"])

    def test_stalls_per_instruction(self):
        """24k: StallLoad sits on the instructions that read a load's
        result in the next slot (t24_ldep: the 5 addu after lw t0, and
        MEASURE_END's subu after lw s2; found in objdump's text, 1 cycle
        each, docs/timing.md), and per function callgrind_annotate's four
        stall events equal summary.json's stall_cycles (calls.c). Flat has
        no stall columns."""
        od = nptest.tool("mipsel-linux-gnu-objdump")
        elf = fixture("t24_ldep")
        text = subprocess.run([od, "-d", "--no-show-raw-insn", elf], stdout=subprocess.PIPE,
                              universal_newlines=True, check=True).stdout
        insns = []
        for line in text.splitlines():
            m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(\S*)", line)
            if m:
                insns.append((int(m.group(1), 16), m.group(2), m.group(3).split(",")))
        want = {}
        for (a0, mn0, ops0), (a1, mn1, ops1) in zip(insns, insns[1:]):
            if mn0 in LOADS and mn1 not in LOADS | STORES and ops0[0] in ops1[1:]:
                want[a1] = 1
        self.assertEqual(len(want), 6, want)
        r = run([elf] + ONE_CORE + ["--set", "timing.model=24k"])
        events, costs = nptest.callgrind_costs(r.text("core0", "callgrind.out"))
        k = events.index("StallLoad")
        got = {a: v[k] for a, v in costs.items() if v[k]}
        self.assertEqual(got, want)
        self.assertEqual(sum(got.values()), nptest.functions(r.core(0))["_start"]["stall_cycles"]["load_use"])
        flat = run([elf] + ONE_CORE).text("core0", "callgrind.out")
        self.assertNotIn("Stall", flat)
        stalls = ("StallLoad", "StallAgen", "StallMDU", "StallFPU")
        r = run([fw("calls")] + ONE_CORE + ["--set", "timing.model=24k"])
        events, _ = nptest.callgrind_costs(r.text("core0", "callgrind.out"))
        show = [e for e in stalls if e in events]
        self.assertIn("StallMDU", show)
        _, funcs = annotate_totals(r.path("core0", "callgrind.out"), show)
        causes = dict(zip(stalls, STALLS))
        for f in r.core(0)["functions"]:
            if f["name"] in funcs:
                self.assertEqual({e: funcs[f["name"]][e] for e in show},
                                 {e: f["stall_cycles"][causes[e]] for e in show}, f["name"])
            else:
                self.assertEqual(sum(f["stall_cycles"].values()), 0, f["name"])



FLAT_COLS = ("instr", "loads", "stores", "branch", "condbr", "indbr", "st.load", "st.agen", "st.mdu", "st.fpu")
SUMMARY_KEYS = ("instructions", "loads", "stores", "branches", "cond_branches", "indirect_branches")
STALLS = ("load_use", "agen", "mdu", "fpu")


def flat_events(text):
    """name -> {column: count} of the exact table of a flat.txt --events."""
    exact = text.split("Exact profile:", 1)[1].split("Sampled profile", 1)[0]
    lines = exact.splitlines()
    head = next(l for l in lines if l.startswith(" time "))
    cols = head.split()[8:-1]
    rows = {}
    for line in lines[lines.index(head) + 1:]:
        t = line.split()
        if len(t) < len(cols) + 6 or not re.match(r"^[\d.]+$", t[0]):
            continue
        rows[t[-1]] = dict(zip(cols, (int(x) for x in t[-1 - len(cols):-1])))
    return cols, rows


def summary_events(f):
    """The flat --events columns of a summary.json function."""
    return dict(zip(FLAT_COLS, [f[k] for k in SUMMARY_KEYS] + [f["stall_cycles"][k] for k in STALLS]))


class FlatEvents(unittest.TestCase):

    def test_fixture_hand_counts(self):
        """run --events: t_jump's rows are the hand counts (_start: 25
        instructions, 2 loads, 1 store, 10 jumps; leaf: 10, 5 jr), t24_ldep's
        _start waits 6 cycles on loads (e2e/timing); without --events the
        table is as before."""
        r = run([fixture("t_jump")] + ONE_CORE + ["--events"])
        cols, rows = flat_events(r.text("core0", "flat.txt"))
        self.assertEqual(tuple(cols), FLAT_COLS)
        self.assertEqual([rows["_start"][c] for c in FLAT_COLS], [25, 2, 1, 10, 0, 0, 0, 0, 0, 0])
        self.assertEqual([rows["leaf"][c] for c in FLAT_COLS], [10, 0, 0, 5, 0, 5, 0, 0, 0, 0])
        r = run([fixture("t24_ldep")] + ONE_CORE + ["--events", "--set", "timing.model=24k"])
        _, rows = flat_events(r.text("core0", "flat.txt"))
        self.assertEqual(rows["_start"]["st.load"], 6)
        plain = run([fixture("t_jump")] + ONE_CORE).text("core0", "flat.txt")
        self.assertNotIn("st.load", plain)
        self.assertRegex(plain, r"(?m)^ time .* cyc/call  name$")

    def test_report_events_chip_sums_cores(self):
        """nocprof report --events on a run without it: every core's rows
        are its summary.json counts, and the chip-wide flat.txt sums the
        cores (it printed 0 before: the chip merge dropped the events)."""
        r = run([fw("calls")] + ["--set", "timing.model=24k"])
        self.assertEqual(r.rc, 0, r.describe())
        self.assertNotIn("st.load", r.text("flat.txt"))
        p = nptest.raw(["report", "--events", r.out])
        self.assertEqual(p.returncode, 0, p.stderr)
        chip = {}
        for c in r.summary["cores"]:
            _, rows = flat_events(r.text("core%d" % c["id"], "flat.txt"))
            for f in c["functions"]:
                want = summary_events(f)
                if f["self_cycles"]:
                    self.assertEqual(rows[f["name"]], want, f["name"])
                acc = chip.setdefault(f["name"], dict.fromkeys(FLAT_COLS, 0))
                for k in FLAT_COLS:
                    acc[k] += want[k]
        _, rows = flat_events(r.text("flat.txt"))
        self.assertGreater(rows["fib"]["loads"], 0)
        for name, got in rows.items():
            self.assertEqual(got, chip[name], name)

    def test_report_no_events(self):
        """report --no-events switches off the --events saved with the run
        (before: "Unknown option --no-events", exit 2); a plain report
        keeps the run's; both at once is a usage error."""
        r = run([fixture("t_jump")] + ONE_CORE + ["--events"])
        flat = r.path("core0", "flat.txt")
        p = nptest.raw(["report", r.out])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(flat_events(r.text("core0", "flat.txt"))[1]["leaf"]["indbr"], 5)
        p = nptest.raw(["report", "--no-events", r.out])
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(flat) as f:
            plain = f.read()
        self.assertNotIn("st.load", plain)
        self.assertRegex(plain, r"(?m)^ time .* cyc/call  name$")
        p = nptest.raw(["report", "--events", "--no-events", r.out])
        self.assertEqual(p.returncode, 2)
        self.assertIn("--events and --no-events", p.stderr)


# annotated.txt --events column -> callgrind's event name
CG_OF = {"instr": "Ir", "loads": "Dr", "stores": "Dw", "condbr": "Bc", "indbr": "Bi", "st.load": "StallLoad",
         "st.agen": "StallAgen", "st.mdu": "StallMDU", "st.fpu": "StallFPU"}


def annotated_events(text):
    """(columns, {(file, line): {column: count}}) of an annotated.txt
    --events source listing, summed over the functions listing a line."""
    cols, out, cur = None, {}, None
    for line in text.splitlines():
        m = re.match(r"^    (/\S+|\./\S+):\d+-\d+$", line)
        if m:
            cur = os.path.normpath(m.group(1))
            continue
        if re.match(r"^\s+count\s+cycles\s+samples\s", line):
            cols = line.split()[3:-2]
            continue
        m = re.match(r"^\s*(?:[\d,]+|#####)\s+\d+\s+\d+((?:\s+\d+)+)\s+(\d+): ", line)
        if m and cur and cols:
            v = [int(x) for x in m.group(1).split()]
            acc = out.setdefault((cur, int(m.group(2))), dict.fromkeys(cols, 0))
            for c, x in zip(cols, v):
                acc[c] += x
    return cols, out


def annotate_lines(text, suffix, n):
    """line -> [n counts] of callgrind_annotate's auto-annotated source
    whose name ends with suffix ("." read as 0)."""
    out, cur, on = {}, None, False
    cell = r"([\d,]+|\.)(?: \(\s*[\d.]+%\))?\s+"
    for line in text.splitlines():
        if line.startswith("-- Auto-annotated source: "):
            on, cur = line.endswith(suffix), None
            continue
        if not on:
            continue
        m = re.match(r"^-- line (\d+) -+$", line)
        if m:
            cur = int(m.group(1))
            continue
        if line.startswith("----"):
            on = cur is None
            continue
        m = re.match(r"^\s*" + cell * n + r"(.*)$", line)
        if cur is None or not m or m.group(n + 1).lstrip().startswith("=> "):
            continue
        v = [0 if x == "." else int(x.replace(",", "")) for x in m.groups()[:n]]
        if any(v):
            out[cur] = v
        cur += 1
    return out


def asm_events(text):
    """(columns, {address: {column: count}}, {function: address}) of an
    --annotate=asm|both --events listing."""
    head = next(l for l in text.splitlines() if re.match(r"^\s+count\s+cycles\s+samples\s", l))
    cols = head.split()[3:-2]
    out, func, cur = {}, {}, None
    for line in text.splitlines():
        m = re.match(r"^\*\*\* (\S+) \[", line)
        if m:
            cur = m.group(1)
        m = re.match(r"^\s*(?:\d+|#####)\s+\d+\s+\d+((?:\s+\d+)+)\s+0x([0-9a-f]+): ", line)
        if m:
            out[int(m.group(2), 16)] = dict(zip(cols, (int(x) for x in m.group(1).split())))
            func[int(m.group(2), 16)] = cur
    return cols, out, func


class AnnotatedEvents(unittest.TestCase):

    def test_lines_equal_callgrind_annotate(self):
        """calls.c under 24k with --events: per source line, annotated.txt's
        event columns are what the real callgrind_annotate prints for the
        same lines from callgrind.out (Ir Dr Dw Bc Bi and the stall events),
        and the lines add up to summary.json's per-function totals. Before:
        annotated.txt had no event columns."""
        r = run([fw("calls")] + ONE_CORE + ["--events", "--set", "timing.model=24k"])
        self.assertEqual(r.rc, 0, r.describe())
        cols, mine = annotated_events(r.text("core0", "annotated.txt"))
        self.assertEqual(tuple(cols), FLAT_COLS)
        events, _ = nptest.callgrind_costs(r.text("core0", "callgrind.out"))
        show = [c for c in cols if c in CG_OF and CG_OF[c] in events]
        self.assertIn("st.mdu", show)
        ca = nptest.tool("callgrind_annotate")
        p = subprocess.run([ca, "--show=" + ",".join(CG_OF[c] for c in show), "--threshold=100",
                            r.path("core0", "callgrind.out")], cwd=tmpdir("ca"), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        src = os.path.realpath(nptest.src("firmware", "tests", "calls.c"))
        theirs = annotate_lines(p.stdout, src, len(show))
        ours = {line: [v[c] for c in show] for (f, line), v in mine.items() if f == src}
        ours = {k: v for k, v in ours.items() if any(v)}
        self.assertGreater(len(ours), 10)
        for c in ("loads", "stores", "condbr", "st.mdu"):
            self.assertTrue(any(v[show.index(c)] for v in ours.values()), c)
        self.maxDiff = None
        self.assertEqual(ours, theirs)
        sums = {}
        for v in mine.values():
            for c in ("loads", "stores", "st.mdu"):
                sums[c] = sums.get(c, 0) + v[c]
        fs = r.core(0)["functions"]
        self.assertEqual(sums["loads"], sum(f["loads"] for f in fs))
        self.assertEqual(sums["st.mdu"], sum(f["stall_cycles"]["mdu"] for f in fs))
        plain = run([fw("calls")] + ONE_CORE).text("core0", "annotated.txt")
        self.assertNotIn("st.load", plain)

    def test_asm_hand_counts_and_objdump(self):
        """--annotate=asm and both with --events on t_jump: per instruction,
        loads/stores/condbr/indbr are its executions when objdump names it
        one, else 0; per function the columns add up to the hand counts
        (_start 25 instructions and 10 jumps: only what ran of its last
        block, not the `b; nop` after the exit store, which counted before:
        27 and 11; 2 loads, 1 store; leaf 10 instructions, 5 jr). t24_ldep: st.load
        is 1 on each of the 6 instructions reading a load's result. With
        the cache on, the misses per instruction add up per function."""
        elf = fixture("t_jump")
        classes = objdump_classes(elf)
        for mode in ("asm", "both"):
            r = run([elf] + ONE_CORE + ["--events", "--annotate=" + mode])
            cols, ins, func = asm_events(r.text("core0", "annotated.txt"))
            self.assertEqual(tuple(cols), FLAT_COLS)
            for a, v in ins.items():
                self.assertEqual([v[c] for c in ("loads", "stores", "condbr", "indbr")],
                                 [v["instr"] if k else 0 for k in classes.get(a, (False,) * 4)], "0x%08x" % a)
            for fn, want in (("_start", (25, 2, 1, 10, 0, 0)), ("leaf", (10, 0, 0, 5, 0, 5))):
                got = tuple(sum(v[c] for a, v in ins.items() if func[a] == fn) for c in FLAT_COLS[:6])
                self.assertEqual(got, want, (mode, fn))
        r = run([fixture("t24_ldep")] + ONE_CORE + ["--events", "--annotate=asm", "--set", "timing.model=24k"])
        _, ins, _ = asm_events(r.text("core0", "annotated.txt"))
        self.assertEqual(sorted(v["st.load"] for v in ins.values() if v["st.load"]), [1] * 6)
        # [cache] on: the misses columns appear and each function's
        # instructions add up to its summary.json cache_misses
        r = run([fw("calls")] + ONE_CORE + ["--events", "--annotate=asm", "--set", "cache.enabled=1"])
        cols, ins, func = asm_events(r.text("core0", "annotated.txt"))
        self.assertEqual(tuple(cols[-3:]), ("I1mr", "D1mr", "D1mw"))
        got = {}
        for a, v in ins.items():
            acc = got.setdefault(func[a], [0, 0, 0])
            for k, c in enumerate(("I1mr", "D1mr", "D1mw")):
                acc[k] += v[c]
        fs = nptest.functions(r.core(0))
        self.assertGreater(sum(x[1] for x in got.values()), 0)
        for name, v in got.items():
            m = fs[name]["cache_misses"]
            self.assertEqual(v, [m["i1"], m["d1_read"], m["d1_write"]], name)


def diff_events(text, section="== chip"):
    """(columns, {"total A"|"total B"|"delta"|function: [cells]}) of the
    events table of one diff.txt section."""
    part = text.split(section, 1)[1].split("\n== ", 1)[0]
    lines = part.split("  events (", 1)[1].splitlines()
    cols = lines[1].split()[:-1]
    out = {}
    for line in lines[2:]:
        if not line.strip():
            break
        t = line.split()
        if t[0] == "total":
            out["total " + t[1]] = t[2:]
        else:
            out[t[-1]] = t[:len(cols)] if t[0] != "delta" else t[1:]
    return cols, out


class DiffEvents(unittest.TestCase):

    def test_event_deltas_and_gate(self):
        """A = t_load, B = t_branch (flat): _start's events go from the hand
        counts 15 instructions, 12 loads, 1 store to 46, 2, 1 with 20
        conditional branches. --metric loads gates on loads: B -> A adds
        10 loads (exit 1) while its cycles fall (the cycles gate passes)."""
        a = run([fixture("t_load")] + ONE_CORE)
        b = run([fixture("t_branch")] + ONE_CORE)
        d = tmpdir("d")
        p = nptest.raw(["diff", "-q", "-o", d, a.out, b.out])
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(d, "diff.txt")) as f:
            text = f.read()
        cols, rows = diff_events(text)
        self.assertEqual(cols[:6], ["instr", "loads", "stores", "branch", "condbr", "indbr"])
        self.assertEqual(rows["total A"][:6], ["15", "12", "1", "0", "0", "0"])
        self.assertEqual(rows["total B"][:6], ["46", "2", "1", "20", "20", "0"])
        self.assertEqual(rows["_start"][:6], ["+31", "-10", "0", "+20", "+20", "0"])
        p = nptest.raw(["diff", "-q", "-o", d, "--metric", "loads", "--fail-if-slower", "0", b.out, a.out])
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("total loads grew from 2 to 12", p.stderr)
        p = nptest.raw(["diff", "-q", "-o", d, "--fail-if-slower", "0", b.out, a.out])
        self.assertEqual(p.returncode, 0, p.stderr)
        p = nptest.raw(["diff", "-q", "-o", d, "--metric", "loadz", a.out, b.out])
        self.assertEqual(p.returncode, 2)
        self.assertIn("--metric loadz: not an event", p.stderr)

    def test_metric_ranks(self):
        """calls.c under flat (A) and 24k (B): with --metric stall_mdu the
        first function of the chip table is the one whose MDU stall
        cycles changed most in summary.json (put_digits), and with
        --metric stores --function rt_putc gates on its own stores."""
        a = run([fw("calls")] + ONE_CORE)
        b = run([fw("calls")] + ONE_CORE + ["--set", "timing.model=24k"])
        fa, fb = nptest.functions(a.core(0)), nptest.functions(b.core(0))
        change = {n: abs(fb[n]["stall_cycles"]["mdu"] - fa[n]["stall_cycles"]["mdu"]) for n in fa}
        top = max(change, key=lambda n: change[n])
        self.assertGreater(change[top], sorted(change.values())[-2])
        d = tmpdir("d")
        first = {}
        for metric in ("cycles", "stall_mdu"):
            p = nptest.raw(["diff", "-q", "-o", d, "--metric", metric, a.out, b.out])
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(d, "diff.txt")) as f:
                chip = f.read().split("== chip", 1)[1]
            first[metric] = re.search(r"(?m)^\s+self A .*\n(.*)$", chip).group(1).split()[-1]
        self.assertEqual(first["stall_mdu"], top)
        self.assertNotEqual(first["cycles"], top)
        p = nptest.raw(["diff", "-q", "-o", d, "--metric", "stall_mdu", "--fail-if-slower", "0", "--function",
                        top, a.out, b.out])
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("%s: stall_mdu grew from 0 to %d" % (top, fb[top]["stall_cycles"]["mdu"]), p.stderr)


class GuestCounters(unittest.TestCase):

    def test_perfcnt_agrees_with_summary(self):
        """The firmware's own PerfCnt reads (t24_perfev: D-cache misses and
        stores over a cold call of `work`, loads and instructions over a
        warm one) are the hand counts of its header and agree with
        summary.json's events of `work` (2 calls), under both models and
        byte orders, with the cache on and off (misses 0 when off)."""
        for endian in ("el", "eb"):
            for model in ("flat", "24k"):
                for cache in (0, 1):
                    with self.subTest(endian=endian, model=model, cache=cache):
                        r = run([fixture("t24_perfev", endian)] + ONE_CORE
                                + ["--set", "timing.model=" + model, "--set", "cache.enabled=%d" % cache])
                        self.assertEqual(r.rc, 1, r.describe())
                        x = r.core(0)["exit_code"]
                        misses, stores, loads, insns = x >> 24, (x >> 16) & 255, (x >> 8) & 255, x & 255
                        self.assertEqual((misses, stores, loads, insns), (30 * cache, 10, 20, 77))
                        w = nptest.functions(r.core(0))["work"]
                        self.assertEqual(w["calls"], 2)
                        self.assertEqual(w["stores"], 2 * stores)
                        self.assertEqual(w["loads"], 2 * loads)
                        self.assertEqual(w["instructions"], 2 * (insns - 3))  # mtc0, jal, nop
                        if cache:
                            cm = w["cache_misses"]
                            self.assertEqual(cm["d1_read"] + cm["d1_write"], misses)


class PerfEvents(unittest.TestCase):

    EVENTS = [0, 1, 2, 9, 10, 11, 13, 15, 41, 45, 37, 3, 14, 17, 19, 23, 33, "1us"]   # t24_perfall's order

    def test_every_event_on_both_counters(self):
        """t24_perfall reads PerfCnt0 and PerfCnt1 around one call of `work`
        for each event the model counts (the 24K SUM's numbers, as
        FreeBSD's hwpmc_mips24k.c lists them) and an unmodelled one (3:
        0); each value is summary.json's count of `work` per call (its
        calls after the warm-up, collected between PROF_CTRL writes) plus
        the 4 instructions of the counter's window (docs/timing.md), and
        summary.json's counts are the hand counts of work's source: 63
        instructions, 5 loads, 5 stores, 6 branches (+ the jal), 5
        load-use, 20 MDU and 16 FPU stall cycles under 24k; with the
        cache, 5 load and 5 store misses, 5 write-backs, 13 I-cache
        lines looked up and the return site's 1 I-cache miss (30 cycles)
        per window, and event 37's miss stall cycles (I: 30; D: 10 x 30
        + 5 x writeback_penalty 5)."""
        for endian in ("el", "eb"):
            for model in ("24k", "flat"):
                for cache in (1, 0):
                    with self.subTest(endian=endian, model=model, cache=cache):
                        self.check(endian, model, cache)

    def test_block_cut_by_an_interrupt(self):
        """t24_perfcutei: `ei` takes a pending interrupt between the 2nd and
        3rd of a block's 5 loads; the handler's PerfCnt0 (loads) and
        summary.json both count the 2 that ran."""
        for endian in ("el", "eb"):
            with self.subTest(endian=endian):
                r = run([fixture("t24_perfcutei", endian)] + ONE_CORE + ["--set", "timing.model=24k"])
                self.assertEqual((r.core(0)["exit_code"], r.core(0)["interrupts"]), (2, 1), r.describe())
                self.assertEqual(nptest.functions(r.core(0))["main"]["loads"], 2)

    def check(self, endian, model, cache):
        r = run([fixture("t24_perfall", endian)] + ONE_CORE
                + ["--collect-initially", "no", "--set", "timing.model=" + model, "--set", "cache.enabled=%d" % cache,
                   "--set", "cache.writeback_penalty=5"])
        self.assertEqual(r.rc, 0, r.describe())
        vals = [int(x, 16) for x in r.text("core0", "console.txt").split()]
        # the counters are the emulator's counts: the same without a profile
        q = run([fixture("t24_perfall", endian)] + ONE_CORE
                + ["--no-profile", "--set", "timing.model=" + model, "--set", "cache.enabled=%d" % cache,
                   "--set", "cache.writeback_penalty=5"])
        self.assertEqual(q.rc, 0, q.describe())
        self.assertEqual(q.text("core0", "console.txt"), r.text("core0", "console.txt"))
        got = {ev: (vals[2 * k], vals[2 * k + 1]) for k, ev in enumerate(self.EVENTS)}
        w = nptest.functions(r.core(0))["work"]
        n = w["calls"]
        self.assertEqual(n, len(self.EVENTS))
        per = {}
        for key, v in (("cycles", w["self_cycles"]), ("insns", w["instructions"]), ("loads", w["loads"]),
                       ("stores", w["stores"]), ("branches", w["branches"]),
                       ("d1r", w.get("cache_misses", {}).get("d1_read", 0)),
                       ("d1w", w.get("cache_misses", {}).get("d1_write", 0)),
                       ("load_use", w["stall_cycles"]["load_use"]), ("mdu", w["stall_cycles"]["mdu"]),
                       ("fpu", w["stall_cycles"]["fpu"])):
            self.assertEqual(v % n, 0, key)     # every collected call the same
            per[key] = v // n
        k24 = model == "24k"
        self.assertEqual((per["insns"], per["loads"], per["stores"], per["branches"]), (63, 5, 5, 6))
        self.assertEqual((per["load_use"], per["mdu"], per["fpu"]), (5, 20, 16) if k24 else (0, 0, 0))
        self.assertEqual((per["d1r"], per["d1w"]), (5, 5) if cache else (0, 0))
        # work's lines were fetched by the warm-up call, outside the
        # collected region: no I-cache miss inside it
        self.assertEqual(w.get("cache_misses", {}).get("i1", 0), 0)
        cyc = got[0][0]
        if k24:
            self.assertEqual(cyc, per["cycles"] + 4 + 30 * cache)
        self.assertEqual(got[0], (cyc, cyc))
        self.assertEqual(got[1], (per["insns"] + 4,) * 2)
        self.assertEqual(got[2], (per["branches"] + 1, 0))
        self.assertEqual(got[9], (13, 1) if cache else (0, 0))
        # the run's write-backs: the warm-up's 5th store line evicts its
        # dirty 1st, then 5 per call
        wb = r.core(0)["cache"]["d1"]["writebacks"] if cache else 0
        self.assertEqual(wb, (1 + 5 * n) * cache)
        self.assertEqual(got[10], (per["loads"] + per["stores"], 5) if cache else (0, 0))
        self.assertEqual(got[11], (per["d1r"] + per["d1w"],) * 2)
        self.assertEqual(got[13], (per["d1w"], per["d1r"]))
        self.assertEqual(got[15], (per["loads"], per["stores"]))
        self.assertEqual(got[41], (per["mdu"], per["fpu"]))
        self.assertEqual(got[45], (per["load_use"], 0))
        # 37: the I-cache miss of the return site, work's D-cache misses
        # and dirty victims (miss_penalty 30, writeback_penalty 5)
        self.assertEqual(got[37], (30, (per["d1r"] + per["d1w"]) * 30 + 5 * 5) if cache else (0, 0))
        self.assertEqual(got[3], (0, 0))
        # by hand from work's source and the windows: integer instructions
        # (li, lui, lui, ori; 5 x addu, addu, 3 addiu, nop; the jr's nop;
        # the window's nop: 36) / FPU (div.s, add.s); no-ops (5 + 1 nops,
        # the window's) / MDU (5 x mult, mflo); work has no sc, takes no
        # exception and makes no uncached access (t24_perfmore, in
        # unit/timing24k, counts those)
        self.assertEqual(got[14], (36, 2))
        self.assertEqual(got[17], (7, 10))
        self.assertEqual((got[19], got[23], got[33]), ((0, 0),) * 3)
        self.assertEqual(got["1us"], (0, 0))      # PerfCtl U | S only: kernel mode counts nothing


class CacheTotals(unittest.TestCase):

    def text_lines(self, elf, endian):
        """32-byte lines spanned by .text (binutils objdump -h)."""
        tool = nptest.tool(("mipsel" if endian == "el" else "mips") + "-linux-gnu-objdump")
        out = subprocess.run([tool, "-h", elf], stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
        m = re.search(r"^\s*\d+\s+\.text\s+([0-9a-f]+)\s+([0-9a-f]+)", out, re.M)
        size, vma = int(m.group(1), 16), int(m.group(2), 16)
        return ((vma + size - 1) >> 5) - (vma >> 5) + 1

    def test_core_cache_counts(self):
        """summary.json per core "cache" (and summary.txt's cache line): the
        L1 counts of the whole run, with or without profiles, summed by a
        merge. c_dwb by hand (its header): 2048 sw then 2048 lw, each a
        miss (write-allocate), 2048 dirty victims written back, no hit;
        the I-cache misses once per line of .text (objdump -h); the cycles
        they cost are misses x miss_penalty (30) + write-backs x
        writeback_penalty (set to 5), which is also what the run takes
        longer than with the cache off. Before:
        no "cache" object; summary.txt had only the functions' misses (none
        with --no-profile)."""
        d1 = {"accesses": 4096, "hits": 0, "misses": 4096, "read_misses": 2048, "write_misses": 2048,
              "writebacks": 2048}
        for endian in ("el", "eb"):
            elf = fixture("c_dwb", endian)
            lines = self.text_lines(elf, endian)
            base = run([elf] + ONE_CORE).core(0)["cycles"]
            for extra in ([], ["--no-profile"]):
                with self.subTest(endian=endian, extra=extra):
                    r = run([elf, "--set", "cache.enabled=1", "--set", "cache.writeback_penalty=5"] + ONE_CORE + extra)
                    self.assertEqual(r.rc, 1, r.describe())
                    c = r.core(0)["cache"]
                    self.assertEqual(c["d1"], d1)
                    self.assertEqual(c["i1"]["misses"], lines)
                    self.assertEqual(c["miss_cycles"], (4096 + lines) * 30 + 2048 * 5)
                    self.assertEqual(c["miss_cycles"], r.core(0)["cycles"] - base)
                    self.assertEqual(c["i1"]["hits"] + c["i1"]["misses"], c["i1"]["accesses"])
                    self.assertGreaterEqual(c["i1"]["accesses"], 2 * 2048)   # a block per loop iteration
                    self.assertIn("cache: core 0 I1 accesses %d misses %d; D1 accesses 4096 read misses 2048 "
                                  "write misses 2048 write-backs 2048; %d cycles\n"
                                  % (c["i1"]["accesses"], lines, c["miss_cycles"]),
                                  r.text("summary.txt"))
            m = tmpdir("cachemerge")
            p = nptest.raw(["merge", r.out, r.out, "-o", m])
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(m, "summary.json")) as f:
                merged = json.load(f)["cores"][0]["cache"]
            self.assertEqual(merged["d1"], {k: 2 * v for k, v in d1.items()})
            self.assertEqual(merged["miss_cycles"], 2 * c["miss_cycles"])
        off = run([fixture("c_dwb")] + ONE_CORE)
        self.assertNotIn("cache", off.core(0))

class LruCache:
    """An independent L1 D-cache: set-associative, LRU (an invalid way
    first), write-back, write-allocate; the set from the physical line
    number. Counts per function."""

    def __init__(self, size, ways, line):
        self.ways, self.line = ways, line
        self.nsets = size // (ways * line)
        self.sets = [[] for _ in range(self.nsets)]   # [tag, dirty], most recent last
        self.count = {}

    def access(self, fn, addr, write):
        c = self.count.setdefault(fn, {"accesses": 0, "read_misses": 0, "write_misses": 0, "writebacks": 0})
        c["accesses"] += 1
        lineno = (addr & 0x1FFFFFFF) // self.line
        ways = self.sets[lineno % self.nsets]
        tag = lineno // self.nsets
        for k, w in enumerate(ways):
            if w[0] == tag:
                ways.append(ways.pop(k))
                w[1] = w[1] or write
                return
        c["write_misses" if write else "read_misses"] += 1
        if len(ways) == self.ways:
            if ways.pop(0)[1]:
                c["writebacks"] += 1
        ways.append([tag, write])


def lrumodel_trace():
    """c_lrumodel's accesses in program order, from its source's
    description (its header), not from nocprof: (function, address,
    write)."""
    for _ in range(2):
        for a in range(0x80040000, 0x8004C000, 16):
            yield "sweep", a, False
    for _ in range(10):
        for k in range(5):
            yield "conflict", 0x80080000 + k * 0x2000, False
    line = [0x80090000 + k * 0x2000 for k in range(5)]
    for _ in range(10):
        for k, write in ((0, True), (1, False), (2, False), (3, False), (0, False), (4, False), (0, False)):
            yield "lru", line[k], write
    for a in range(0x800A0000, 0x800AA000, 32):
        yield "dirty", a, True
    for a in range(0x800C0000, 0x800CA000, 32):
        yield "dirty", a, False
    for _ in range(2):
        for a in range(0x800E0000, 0x800E3000, 64):
            for off, write in ((0, True), (8, False), (40, True), (56, False)):
                yield "mixed", a + off, write


def text_lines(elf, endian, line):
    """Lines of `line` bytes spanned by .text (binutils objdump -h)."""
    tool = nptest.tool(("mipsel" if endian == "el" else "mips") + "-linux-gnu-objdump")
    out = subprocess.run([tool, "-h", elf], stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
    m = re.search(r"^\s*\d+\s+\.text\s+([0-9a-f]+)\s+([0-9a-f]+)", out, re.M)
    size, vma = int(m.group(1), 16), int(m.group(2), 16)
    return (vma + size - 1) // line - vma // line + 1


class CacheModel(unittest.TestCase):

    GEOMETRIES = [  # (size, ways, line): the 24K's, and smaller ones
        (32768, 4, 32),
        (8192, 2, 16),
        (16384, 2, 64),
        (4096, 1, 32),
    ]

    def test_against_python_lru(self):
        """c_lrumodel's D-cache counts, per function and per core, equal an
        independent Python LRU write-back write-allocate model fed the
        accesses its source describes, at the 24K geometry and three
        others (2-way 8 KiB 16-byte lines, 2-way 16 KiB 64-byte lines,
        direct-mapped 4 KiB; `lru` tells LRU from FIFO); and each function's cycles grow by its own
        misses x miss_penalty + its write-backs x writeback_penalty over a
        run without the cache."""
        pen, wbpen = 30, 5
        for endian in ("el", "eb"):
            elf = fixture("c_lrumodel", endian)
            off = nptest.functions(run([elf] + ONE_CORE + ["--set", "timing.model=24k"]).core(0))
            for size, ways, line in self.GEOMETRIES:
                with self.subTest(endian=endian, size=size, ways=ways, line=line):
                    model = LruCache(size, ways, line)
                    for fn, addr, write in lrumodel_trace():
                        model.access(fn, addr, write)
                    geo = ["--set", "cache.enabled=1", "--set", "cache.writeback_penalty=%d" % wbpen,
                           "--set", "cache.dcache_size=%d" % size, "--set", "cache.dcache_ways=%d" % ways,
                           "--set", "cache.icache_size=%d" % size, "--set", "cache.icache_ways=%d" % ways,
                           "--set", "cache.line=%d" % line, "--set", "timing.model=24k"]
                    r = run([elf] + ONE_CORE + geo)
                    self.assertEqual(r.rc, 0, r.describe())
                    fns = nptest.functions(r.core(0))
                    for fn, want in model.count.items():
                        got = fns[fn]["cache_misses"]
                        self.assertEqual((got["d1_read"], got["d1_write"]),
                                         (want["read_misses"], want["write_misses"]), fn)
                        grew = fns[fn]["self_cycles"] - off[fn]["self_cycles"]
                        misses = got["i1"] + want["read_misses"] + want["write_misses"]
                        self.assertEqual(grew, misses * pen + want["writebacks"] * wbpen, fn)
                    # the code fits every geometry and all of it runs: one
                    # I-cache miss per line of .text, in the function there
                    self.assertEqual(r.core(0)["cache"]["i1"]["misses"], text_lines(elf, endian, line))
                    self.assertEqual(sum(f.get("cache_misses", {}).get("i1", 0) for f in fns.values()),
                                     text_lines(elf, endian, line))
                    d1 = r.core(0)["cache"]["d1"]
                    tot = {k: sum(c[k] for c in model.count.values()) for k in
                           ("accesses", "read_misses", "write_misses", "writebacks")}
                    misses = tot["read_misses"] + tot["write_misses"]
                    self.assertEqual(d1, dict(tot, misses=misses, hits=tot["accesses"] - misses))


if __name__ == "__main__":
    nptest.main()

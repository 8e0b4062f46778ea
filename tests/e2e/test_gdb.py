#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""nocprof run --gdb (docs/debugging.md) driven by the real gdb-multiarch in
batch mode, both byte orders: threads, a breakpoint in a C function on a
worker core, its backtrace, arguments and locals, a step over a branch and
its delay slot (the expected PC from objdump, not from nocprof), a
watchpoint on a global, monitor cycles, continue to exit, a fault stop
with its signal, the stop cycle, kill, a malformed packet, reverse
execution (reverse-stepi, reverse-continue, the start of history), pc
writes at a stop (jump, print f(x), call: the cut block not counted), and
the output files equal to those of the same run without --gdb. SKIP (77) without
gdb-multiarch."""
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import fw, run  # noqa: E402

GDB = shutil.which("gdb-multiarch")


class Session:
    """nocprof run --gdb 127.0.0.1:0 ... in the background."""

    def __init__(self, elf, extra=(), out=None, quiet=True, stdout=subprocess.DEVNULL):
        self.out = out or nptest.tmpdir("gdbout")
        self.elf = elf
        argv = [nptest.nocprof(), "run"] + (["-q"] if quiet else []) + ["-o", self.out, "--gdb", "127.0.0.1:0"] \
            + list(extra) + [elf]
        self.err_path = self.out + ".err"
        self.err = open(self.err_path, "w")
        self.proc = subprocess.Popen(argv, stdout=stdout, stderr=self.err)
        self.addr = None
        deadline = time.time() + 60
        while time.time() < deadline and self.addr is None:
            with open(self.err_path) as f:
                m = re.search(r"waiting for gdb on (127\.0\.0\.1:\d+)", f.read())
            if m:
                self.addr = m.group(1)
            elif self.proc.poll() is not None:
                break
            else:
                time.sleep(0.05)
        if self.addr is None:
            raise AssertionError("nocprof did not listen: " + open(self.err_path).read())

    def gdb(self, *cmds, timeout=240):
        argv = [GDB, "-batch", "-nx", "-ex", "set remotetimeout 120", "-ex", "set pagination off",
                "-ex", "file " + self.elf, "-ex", "target remote " + self.addr]
        for c in cmds:
            argv += ["-ex", c]
        r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                           timeout=timeout)
        return r.stdout

    def wait(self, timeout=240):
        rc = self.proc.wait(timeout=timeout)
        self.err.close()
        return rc


def same_files(test, a, b):
    for root, _, files in os.walk(a):
        for f in files:
            pa = os.path.join(root, f)
            pb = os.path.join(b, os.path.relpath(pa, a))
            with open(pa, "rb") as x, open(pb, "rb") as y:
                test.assertEqual(x.read(), y.read(), os.path.relpath(pa, a))
    count = lambda d: sum(len(fs) for _, _, fs in os.walk(d))  # noqa: E731
    test.assertEqual(count(a), count(b))


class Gdb(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not GDB:
            print("SKIP: gdb-multiarch is not installed (Debian package gdb-multiarch)")
            sys.exit(77)

    def pipeline_session(self, endian):
        elf = fw("pipeline", endian)
        insns = nptest.objdump_function(elf, "crc32_words", endian)
        # the first conditional branch of crc32_words and where it may go
        br = next(i for i in insns if i[1] in ("beqz", "bnez", "beq", "bne", "blez", "bgtz", "bltz", "bgez"))
        target = int(br[2].split(",")[-1].split()[0], 16)
        s = Session(elf)
        text = s.gdb("info threads", "break crc32_words", "continue", "bt", "info args", "p nwords",
                     "watch crc_register", "continue", "delete",
                     "break *0x%x" % br[0], "continue", "stepi", "p/x $pc", "delete",
                     "monitor cycles", "continue")
        rc = s.wait()
        return s, text, rc, br, target

    def check_pipeline(self, endian):
        s, text, rc, br, target = self.pipeline_session(endian)
        self.assertEqual(rc, 0, text + open(s.err_path).read())
        for k in range(4):
            self.assertRegex(text, r'Thread %d "core%d"' % (k + 1, k))
        m = re.search(r'Thread (\d) "core(\d)" hit Breakpoint 1, crc32_words \(w=0x[0-9a-f]+ <block>, nwords=64\)', text)
        self.assertTrue(m, text)
        self.assertNotEqual(m.group(2), "0")           # a worker core: core 0 only sends
        self.assertRegex(text, r"#1 .* in stage_crc \(\)")
        self.assertIn("nwords = 64", text)
        self.assertIn("$1 = 64", text)
        # stepi at the branch: its delay slot runs with it, never a stop there
        pcs = [int(x, 16) for x in re.findall(r"\$\d+ = 0x([0-9a-f]+)", text)]
        self.assertTrue(pcs, text)
        self.assertIn(pcs[-1], (br[0] + 8, target), "stepi from 0x%x stopped at 0x%x" % (br[0], pcs[-1]))
        # crc32_words first calls updcrc(NULL, 0), which stores 0xffffffff
        # (checksum.c): the first write the watchpoint sees
        self.assertRegex(text, r"Hardware watchpoint \d+: crc_register\s+Old value = \d+\s+New value = 4294967295\n")
        self.assertRegex(text, r"core0 \d+ cycles")
        self.assertIn("exited normally", text)
        ref = run([fw("pipeline", endian), "--set", "timing.model=24k"])
        same_files(self, ref.out, s.out)

    def test_pipeline_el(self):
        self.check_pipeline("el")

    def test_pipeline_eb(self):
        self.check_pipeline("eb")

    def test_lines_in_every_unit(self):
        """gdb finds the line of a pc in any compilation unit, not only
        main's: the runtime's rt_send and checksum.c's crc32_words, as
        binutils' addr2line gives them (before: `No line number
        information available`, so `bt`, `info threads` and `step` showed
        runtime and library frames without file or line; gdb 13 misread
        .debug_aranges on MIPS, which link.ld now drops)."""
        for endian in ("el", "eb"):
            elf = fw("pipeline", endian)
            syms = nptest.symbols(elf, endian)
            a2l = nptest.tool(("mipsel" if endian == "el" else "mips") + "-linux-gnu-addr2line")
            argv = [GDB, "-batch", "-nx", elf]
            want = {}
            for name in ("rt_send", "crc32_words", "rt_irq_dispatch"):
                pc = syms[name][0] + 8
                where = subprocess.run([a2l, "-e", elf, "0x%x" % pc], stdout=subprocess.PIPE,
                                       universal_newlines=True, check=True).stdout.strip()
                want[pc] = (os.path.basename(where.split(":")[0]), where.split(":")[1].split()[0])
                argv += ["-ex", "info line *0x%x" % pc]
            text = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  universal_newlines=True, timeout=120).stdout
            self.assertNotIn("No line number information", text)
            got = re.findall(r'Line (\d+) of "([^"]+)"', text)
            self.assertEqual([os.path.basename(f) for _, f in got], [f for f, _ in want.values()], text)
            # gdb and addr2line may differ by one at a statement boundary
            for (n, _), (_, line) in zip(got, want.values()):
                self.assertLessEqual(abs(int(n) - int(line)), 1, text)

    def check_reverse(self, endian):
        """stepi x3 then reverse-stepi x3: the same registers; reverse-continue
        from the second hit of a breakpoint: the first, at its exact cycle;
        reverse-stepi back over a branch and its delay slot: the branch (from
        objdump); reverse-continue with no breakpoint: the start of history;
        then continue to the end: the output folder and stdout of the run
        without --gdb (replays echo nothing twice, count nothing twice)."""
        elf = fw("pipeline", endian)
        insns = nptest.objdump_function(elf, "crc32_words", endian)
        br = next(i for i in insns if i[1] in ("beqz", "bnez", "beq", "bne", "blez", "bgtz", "bltz", "bgez"))
        target = int(br[2].split(",")[-1].split()[0], 16)
        out = nptest.tmpdir("gdbrev")
        stdout_path = out + ".stdout"
        with open(stdout_path, "w") as so:
            s = Session(elf, ["--gdb-checkpoint-every", "20000"], out=out, quiet=False, stdout=so)
            mark = lambda m: "echo @@%s\\n" % m  # noqa: E731
            text = s.gdb("break crc32_words", "continue", mark("A"), "info registers", "monitor cycles", mark("A."),
                         "stepi", "stepi", "stepi", mark("S"), "p/x $pc", mark("S."),
                         "reverse-stepi", "reverse-stepi", "reverse-stepi",
                         mark("B"), "info registers", mark("B."),
                         "continue", mark("C"), "monitor cycles", mark("C."), "reverse-continue",
                         mark("D"), "info registers", "monitor cycles", mark("D."), "delete",
                         "break *0x%x" % br[0], "continue", "stepi", mark("E"), "p/x $pc", mark("E."),
                         "reverse-stepi", mark("F"), "p/x $pc", mark("F."), "delete",
                         "reverse-continue", mark("G"), "p/x $pc", mark("G."), "reverse-stepi", "continue")
            rc = s.wait()
        self.assertEqual(rc, 0, text + open(s.err_path).read())
        part = lambda m: re.search(r"@@%s\n(.*?)@@%s\.\n" % (m, m), text, re.S).group(1)  # noqa: E731
        regs_a = part("A").split("core0")[0]
        self.assertIn("pc", regs_a)
        self.assertNotEqual(part("S"), "$1 = 0x%s\n" % re.search(r"pc\s*\n.*?([0-9a-f]{8})\s*\n", regs_a, re.S).group(1))
        self.assertEqual(part("B"), regs_a)                # three steps back: the same registers
        cycles_a = part("A")[len(regs_a):]
        self.assertNotEqual(part("C"), cycles_a)           # the second hit ran on
        self.assertEqual(part("D"), part("A"))             # back to the first hit, exactly
        e_pc = int(part("E").split("= 0x")[1], 16)
        self.assertIn(e_pc, (br[0] + 8, target))
        self.assertEqual(part("F"), "$%d = 0x%x\n" % (3, br[0]), text)   # the branch, not its delay slot
        self.assertIn("No more reverse-execution history.", text)
        self.assertEqual(part("G").split("= ")[1], "0x80000000\n")
        self.assertEqual(text.count("No more reverse-execution history."), 2, text)  # the scan, then a step
        self.assertIn("exited normally", text)
        ref = run([elf, "--set", "timing.model=24k", "--threads", "1"], quiet=False)
        same_files(self, ref.out, s.out)
        with open(stdout_path) as f:
            self.assertEqual(f.read(), ref.stdout)

    def test_reverse_el(self):
        self.check_reverse("el")

    def test_reverse_eb(self):
        self.check_reverse("eb")

    def test_reverse_watch(self):
        """reverse-continue with a watchpoint from the second call of
        crc32_words stops at the last write of the first call (the state
        before it: gdb shows the value going backward), and continue then
        meets that same write forward."""
        s = Session(fw("pipeline"))
        text = s.gdb("break crc32_words", "continue", "continue", "delete", "p crc_register", "watch crc_register",
                     "reverse-continue", "p crc_register", "continue", "p crc_register", "delete", "continue")
        self.assertEqual(s.wait(), 0, text)
        v = re.findall(r"\$\d+ = (\d+)", text)
        changes = re.findall(r"Old value = (\d+)\s+New value = (\d+)", text)
        self.assertEqual(len(v), 3, text)
        self.assertEqual(changes, [(v[0], v[1]), (v[1], v[0])], text)   # back, then forward again
        self.assertNotEqual(v[0], v[1])

    def test_watch_kseg1_store(self):
        """t_kseg1data stores 0x1234 through kseg1 (RAM's uncached alias,
        emu/uncached.c): a watchpoint on the kseg1 word stops at that sw
        (its pc from objdump: the first sw of _start), the word reads the
        same through kseg0 and kseg1, and the run then ends as without gdb
        (exit 356 cycles, docs/timing.md "Uncached accesses"). Before: the
        stop named the kseg0 alias (watch:80040004), which gdb did not take
        for its watchpoint: it went on to the exit without stopping."""
        for endian in ("el", "eb"):
            with self.subTest(endian=endian):
                elf = nptest.fixture("t_kseg1data", endian)
                tool = nptest.tool(("mipsel" if endian == "el" else "mips") + "-linux-gnu-objdump")
                dis = subprocess.run([tool, "-d", "--no-show-raw-insn", elf], stdout=subprocess.PIPE,
                                     universal_newlines=True, check=True).stdout
                sw = int(re.search(r"^\s*([0-9a-f]+):\s+sw\s", dis, re.M).group(1), 16)
                s = Session(elf, nptest.ONE_CORE + ["--set", "timing.model=24k"])
                text = s.gdb("watch *(int *)0xA0040004", "continue", "p/x $pc", "x/wx 0x80040004",
                             "x/wx 0xA0040004", "delete", "continue")
                self.assertEqual(s.wait(), 1, text)   # the fixture exits with 356: not 0
                self.assertIn("New value = 4660", text)
                self.assertRegex(text, r"\$1 = 0x%x\b" % (sw + 4))   # reported after the store
                self.assertRegex(text, r"0x80040004:\s+0x00001234")
                self.assertRegex(text, r"0xa0040004:\s+0x00001234")
                with open(os.path.join(s.out, "summary.json")) as f:
                    self.assertEqual(json.load(f)["cores"][0]["exit_code"], 356)

    def test_reverse_other_thread(self):
        """After a stop on a worker core, `thread 1` then stepi x2 and
        reverse-stepi x2 steps core 0 (the thread gdb selected) there and
        back: the same registers, thread 1 still selected."""
        s = Session(fw("pipeline"))
        mark = lambda m: "echo @@%s\\n" % m  # noqa: E731
        text = s.gdb("break crc32_words", "continue", "delete", "thread 1", mark("A"), "info registers", mark("A."),
                     "stepi", "stepi", mark("S"), "p/x $pc", mark("S."), "reverse-stepi", "reverse-stepi",
                     mark("B"), "info registers", mark("B."), "info threads", "continue")
        self.assertEqual(s.wait(), 0, text)
        part = lambda m: re.search(r"@@%s\n(.*?)@@%s\.\n" % (m, m), text, re.S).group(1)  # noqa: E731
        self.assertEqual(part("A"), part("B"))
        self.assertNotIn(part("S").split("0x")[1].strip(), part("A"))   # core 0 moved forward
        self.assertRegex(text, r"\* 1 +Thread 1 \"core0\"")
        self.assertNotIn("SIGTRAP", text)

    def test_reverse_after_write_and_off(self):
        """A register write starts history again where gdb resumes (a replay
        from before it would not have it); --gdb-checkpoints 0: no reverse
        execution (gdb is told)."""
        s = Session(fw("calls"), nptest.ONE_CORE)
        text = s.gdb("stepi", "stepi", "set var $t9 = 5", "stepi", "stepi", "reverse-stepi", "reverse-stepi",
                     "p/x $pc", "reverse-stepi", "p/x $pc", "p $t9", "continue")
        self.assertEqual(s.wait(), 0, text)
        self.assertEqual(re.findall(r"\$\d+ = (\S+)", text), ["0x80000008", "0x80000008", "5"], text)
        self.assertEqual(text.count("No more reverse-execution history."), 1, text)
        s = Session(fw("calls"), nptest.ONE_CORE + ["--gdb-checkpoints", "0"])
        text = s.gdb("stepi", "reverse-stepi", "continue")
        self.assertEqual(s.wait(), 0, text)
        self.assertIn("does not support this command", text)

    def test_fpu_registers(self):
        """The FPU registers read what the firmware computed and can be
        written (SPEC: registers with FPU). fpu.c's harmonic(20) returns
        the float sum of 1/k in $f0: its bits from a float32 evaluation in
        Python; FCSR has the inexact flag and cause of its last add. Then
        $f0 = 2.0 makes main print harmonic 2000000. Before: every FPU
        register read 0 and a write answered E01 (Unicorn's reg_read and
        reg_write have no FPU)."""
        f32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]  # noqa: E731
        h = 0.0
        for k in range(1, 21):
            h = f32(h + f32(1.0 / k))
        want = struct.unpack("<I", struct.pack("<f", h))[0]
        for endian in ("el", "eb"):
            with self.subTest(endian=endian):
                s = Session(fw("fpu", endian), extra=nptest.ONE_CORE + ["--set", "timing.model=flat"])
                text = s.gdb("break harmonic", "continue", "finish",
                             "info registers f0 fcsr", "set $f0 = 2.0", "info registers f0", "continue")
                self.assertEqual(s.wait(), 0, text)
                vals = re.findall(r"^f0: +0x([0-9a-f]+)", text, re.M)
                self.assertEqual([int(v, 16) for v in vals], [want, 0x40000000], text)
                fcsr = int(re.search(r"^fcsr: +0x([0-9a-f]+)", text, re.M).group(1), 16)
                self.assertEqual(fcsr & 0x1004, 0x1004, text)
                with open(os.path.join(s.out, "core0", "console.txt")) as f:
                    self.assertIn("harmonic 2000000 ", f.read())

    def test_next_with_scheduler_locking(self):
        """`next` over a call in code every core runs, with a timer
        interrupt on each, under `set scheduler-locking step`: gdb resumes
        only the stepping thread (vCont;c:3), so a hit of its step
        breakpoint by another core is not reported. Before, the other
        cores' hits reached gdb, which lost the stepping thread (gdb 13:
        internal-error in skip_inline_frames, or `received signal
        SIGTRAP` in rt_irq_dispatch)."""
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "firmware", "apps", "ticks.c")
        with open(src) as f:
            lines = f.read().splitlines()
        call = next(i + 1 for i, t in enumerate(lines) if "work = do_work(work);" in t)
        s = Session(fw("ticks"))
        text = s.gdb("set scheduler-locking step", "break ticks.c:%d thread 3" % call, "continue", "delete",
                     *(["next"] * 8), "info threads", "kill")
        s.wait()
        self.assertNotIn("internal-error", text)
        self.assertNotIn("received signal", text)
        after = text.split("hit Breakpoint 1", 1)[1]
        stops = [int(n) for n in re.findall(r"^(\d+)\t", after, re.M)][1:]   # [0]: the breakpoint's
        self.assertEqual(len(stops), 8, text)
        # every stop is a line of main's loop, on core 2, which stays selected
        loop_end = next(i + 1 for i, t in enumerate(lines) if "rt_irq_disable(RT_IRQ_BIT(RT_IRQ_TIMER));" in t)
        for n in stops:
            self.assertTrue(call <= n < loop_end, (n, text))
        self.assertRegex(text, r'\* 3 +Thread 3 "core2" .* main \(')
        self.assertNotIn("set scheduler-locking step' (docs", text)   # no hint: it is on

    def test_next_without_scheduler_locking(self):
        """`next` over a call in code every core runs, with a timer
        interrupt on each, scheduler-locking off (gdb's default): gdb
        single-steps MIPS with breakpoints of its own and resumes every
        core (vCont;c), so the others meet those breakpoints. The stub
        takes a resume right after a breakpoint at the selected thread's
        next instruction, branch target, own pc or return address for a
        step of that thread: the others' hits are not reported, as with
        scheduler-locking step, and every `next` ends on thread 3 at the
        next line of main's loop. Before: the third `next` ended in
        `Thread 3 "core2" received signal SIGTRAP` in rt_wait, after gdb
        had stepped cores 0 and 1 over its breakpoints (the stub only
        printed a hint to set scheduler-locking)."""
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "firmware", "apps", "ticks.c")
        with open(src) as f:
            lines = f.read().splitlines()
        call = next(i + 1 for i, t in enumerate(lines) if "work = do_work(work);" in t)
        loop_end = next(i + 1 for i, t in enumerate(lines) if "rt_irq_disable(RT_IRQ_BIT(RT_IRQ_TIMER));" in t)
        s = Session(fw("ticks"))
        text = s.gdb("break ticks.c:%d thread 3" % call, "continue", "delete", *(["next"] * 8), "info threads",
                     "kill")
        s.wait()
        self.assertNotIn("internal-error", text)
        self.assertNotIn("received signal", text)
        self.assertNotIn("Switching to", text.split("hit Breakpoint 1", 1)[1])
        after = text.split("hit Breakpoint 1", 1)[1]
        stops = [int(n) for n in re.findall(r"^(\d+)\t", after, re.M)][1:]   # [0]: the breakpoint's
        self.assertEqual(len(stops), 8, text)
        for n in stops:
            self.assertTrue(call <= n < loop_end, (n, text))
        self.assertRegex(text, r'\* 3 +Thread 3 "core2" .* main \(')
        # a continue is no step: another core's hit of a breakpoint is reported
        s = Session(fw("ticks"))
        text = s.gdb("break ticks.c:%d thread 3" % call, "continue", "break ticks.c:%d" % call, "continue",
                     "kill")
        s.wait()
        self.assertRegex(text, r"Thread [124] \"core[013]\" hit Breakpoint 2", text)

    def test_odd_pc_refused(self):
        """The platform has no MIPS16e: an odd pc from gdb is refused (the
        engine would enter MIPS16 mode there), an even one taken."""
        s = Session(fw("calls"), nptest.ONE_CORE)
        text = s.gdb("set var $pc = 0x80000001", "p/x $pc", "set var $pc = 0x80000000", "p/x $pc", "continue")
        self.assertEqual(s.wait(), 0, text)
        self.assertEqual(text.count("Could not write register"), 1, text)
        self.assertEqual(re.findall(r"\$\d+ = (\S+)", text), ["0x80000000", "0x80000000"], text)

    def test_fault_stop(self):
        for endian in ("el", "eb"):
            s = Session(fw("fault_null", endian))
            text = s.gdb("continue", "p/x $pc", "continue")
            rc = s.wait()
            self.assertEqual(rc, 3, text)
            self.assertRegex(text, r'received signal SIGSEGV.*\n0x[0-9a-f]+ in store_null')
            # gdb's console says what the address is, as summary.txt does
            # (before: the bare 'write of unmapped address 0x00000004 (pc ...)')
            self.assertRegex(text, r"nocprof: core \d+: unmapped-write at pc 0x[0-9a-f]+: write of unmapped address "
                                   r"0x00000004 \(pc 0x[0-9a-f]+\): the address is NULL\+4 \(through a NULL pointer\)\n")
            import json
            summary = json.load(open(os.path.join(s.out, "summary.json")))
            fault = next(c["fault"] for c in summary["cores"] if c["fault"])
            self.assertIn("$1 = 0x%x" % fault["pc"], text)
            self.assertTrue(os.path.exists(os.path.join(s.out, "core0", "flat.txt")))

    def test_in_tree_firmware_is_fp32(self):
        """The in-tree firmware is built FP32 (-mfp32, the FR=0 mode the
        runtime sets), as the SDK builds: gdb finds the double-precision
        FPU itself (test_fpu_registers reads $f0 without `set mipsfpu
        double`). Before: FPXX, which gdb 13 reads as no FPU (`show
        mipsfpu`: none; $f0 read 0)."""
        for name in ("pipeline", "fpu", "ticks"):
            for endian in ("el", "eb"):
                elf = fw(name, endian)
                readelf = nptest.tool(("mipsel" if endian == "el" else "mips") + "-linux-gnu-readelf")
                attrs = subprocess.run([readelf, "-A", elf], stdout=subprocess.PIPE, universal_newlines=True,
                                       check=True).stdout
                self.assertIn("Tag_GNU_MIPS_ABI_FP: Hard float (double precision)", attrs, elf)
                show = subprocess.run([GDB, "-batch", "-nx", "-ex", "show mipsfpu", elf], stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, universal_newlines=True, timeout=60).stdout
                self.assertIn("currently double-precision", show, elf)

    def test_fault_names_the_local(self):
        """A fault on a stack address names the local and its frame, one on
        a heap address says so, one below the stack pointer says that, as
        gdb-multiarch's own `p &buf`, `info frame` (frame 1), `info scope`
        and `$sp` and nm's _end place them. fault_local: core 0 loads from
        buf+5 of parse_header's 16-byte local buf in peek_word (frame 0),
        core 1 from buf+18 (past its end), core 2 from a freed heap block,
        core 3 through a pointer to a local of leave_local, which returned.
        Before: the bare `unaligned load at address 0x800fffc5 (pc ...)`,
        nothing named."""
        for endian in ("el", "eb"):
            elf = fw("fault_local", endian)
            s = Session(elf)
            text = s.gdb("continue", "continue", "continue", "continue", "thread 1", "frame 1", "p &buf",
                         "info frame", "thread 4", "p/x $sp", "info scope leave_local", "kill")
            s.wait()
            said = dict((int(c), (int(a, 16), what)) for c, a, what in re.findall(
                r"nocprof: core (\d+): unaligned-load at pc 0x[0-9a-f]+: unaligned load at address (0x[0-9a-f]+) "
                r"\(pc 0x[0-9a-f]+\): the address is ([^\n]*)\n", text))
            self.assertEqual(sorted(said), [0, 1, 2, 3], text)
            buf = int(re.search(r"\$\d+ = \(uint8_t \(\*\)\[16\]\) (0x[0-9a-f]+)", text).group(1), 16)
            cfa = int(re.search(r"Stack level 1, frame at (0x[0-9a-f]+)", text).group(1), 16)
            self.assertTrue(buf < said[0][0] < buf + 16 < said[1][0] < cfa, (hex(buf), hex(cfa), said))
            self.assertEqual(said[0][1], "buf+%d, in the 16-byte local buf of parse_header (frame 1)"
                             % (said[0][0] - buf))
            self.assertEqual(said[0][0] - buf, 5)
            self.assertEqual(said[1][1], "%d bytes past the 16-byte local buf of parse_header (frame 1)"
                             % (said[1][0] - buf - 16))
            self.assertEqual(said[1][0] - buf - 16, 2)
            nm = subprocess.run([nptest.tool(("mipsel" if endian == "el" else "mips") + "-linux-gnu-nm"), elf],
                                capture_output=True, text=True, check=True).stdout
            end = next(int(a, 16) & 0xFFFFFFFF for a, t, n in (l.split() for l in nm.splitlines()
                                                               if len(l.split()) == 3) if n == "_end")
            self.assertEqual(said[2][1], "in the heap, %d bytes past _end" % (said[2][0] - end))
            # core 3: local was at leave_local's frame base (its CFA: main's
            # $sp, which peek_word, a leaf without a frame, keeps) + fbreg
            sp = int(re.search(r"\$\d+ = (0x[0-9a-f]+)\nScope for leave_local", text).group(1), 16)
            fbreg = int(re.search(r"Symbol local is a complex DWARF expression:\s+0: DW_OP_fbreg (-?\d+)",
                                  text).group(1))
            self.assertEqual(said[3][0], sp + fbreg + 1, text)
            self.assertEqual(said[3][1], "%d bytes below the stack pointer, in no frame" % (sp - said[3][0]))
            # the run's summary says the same
            summary = json.load(open(os.path.join(s.out, "summary.json")))
            for c in summary["cores"]:
                self.assertTrue(c["fault"]["message"].split("\n")[0].endswith(said[c["id"]][1]), c["fault"])

    def test_badvaddr_at_faults(self):
        """At a fault stop $badvaddr is what the 24K's BadVAddr holds: the
        exact address of the load or store (fault_null: 4, NULL's member
        b; unaligned: buffer + 1 by nm), the target of a bad fetch
        (fault_jump's pc). Before: 0x0 for all three (the page of the
        unmapped access, nothing for an unaligned one)."""
        for endian in ("el", "eb"):
            nm = subprocess.run([nptest.tool(("mipsel" if endian == "el" else "mips") + "-linux-gnu-nm"),
                                 fw("unaligned", endian)], stdout=subprocess.PIPE, universal_newlines=True,
                                check=True).stdout
            buffer = next(int(a, 16) & 0xFFFFFFFF for a, _, n in (ln.split() for ln in nm.splitlines()
                                                                 if len(ln.split()) == 3) if n == "buffer")
            for name, want in (("fault_null", 4), ("unaligned", buffer + 1), ("fault_jump", None)):
                s = Session(fw(name, endian), nptest.ONE_CORE)
                text = s.gdb("continue", "p/x $badvaddr", "p/x $pc", "continue")
                self.assertEqual(s.wait(), 3, text)
                got = [int(x, 16) for x in re.findall(r"\$\d+ = 0x([0-9a-f]+)", text)]
                if want is None:   # a fetch: the target, where the pc stands
                    want = json.load(open(os.path.join(s.out, "summary.json")))["cores"][0]["fault"]["pc"]
                self.assertEqual(got[0], want, (name, endian, text))

    def test_livelock_stop_final_clocks(self):
        """The one SIGSTOP of a livelock comes when every stuck core is
        halted: `monitor cycles` then gives the cycles and states of
        summary.json (before: the first halted core stopped gdb while
        the others still showed their last poll, 'running')."""
        s = Session(fw("hang_irq"), ["--set", "run.livelock_cycles=50000"])
        text = s.gdb("continue", "monitor cycles", "thread 4", "p/x $pc", "continue")
        self.assertEqual(s.wait(), 4, text)
        # core 3 exited: its pc is after its store to SYS EXIT in _start
        # (objdump), not the start of its last run (_start's first word)
        pc = int(re.search(r"\$1 = 0x([0-9a-f]+)", text).group(1), 16)
        _, mnem, ops = nptest.disasm_at(fw("hang_irq"), pc - 4)
        self.assertEqual(mnem, "sw", (hex(pc), ops))
        self.assertNotEqual(pc, nptest.symbols(fw("hang_irq"))["_start"][0])
        self.assertIn("received signal SIGSTOP", text)
        got = {int(c): (int(n), st) for c, n, st in re.findall(r"^core(\d+) (\d+) cycles, (\w+)$", text, re.M)}
        import json
        summary = json.load(open(os.path.join(s.out, "summary.json")))
        want = {c["id"]: (c["cycles"], c["status"]) for c in summary["cores"]}
        self.assertEqual(got, want, text)

    CALLS_C = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "firmware", "tests", "calls.c")

    def calls_line(self, text):
        with open(self.CALLS_C) as f:
            return next(i + 1 for i, line in enumerate(f) if text in line)

    def calls_session(self, *cmds, model="flat", endian="el"):
        s = Session(fw("calls", endian), nptest.ONE_CORE + ["--set", "timing.model=" + model])
        text = s.gdb(*cmds)
        self.assertEqual(s.wait(), 0, text + open(s.err_path).read())
        with open(os.path.join(s.out, "core0", "console.txt")) as f:
            return s, text, f.read()

    def test_jump_skips_lines(self):
        """gdb's `jump LINE` at a breakpoint inside a block: the core goes
        on at the line's code and what lies between never runs (calls.c
        prints none of its fact, fib and is_even lines). Before: 'Could not
        write register' (E01) and all six lines printed."""
        text_at = self.calls_line('report("fact(10)"')
        to = self.calls_line('report("run_ops"')
        _, text, con = self.calls_session("break calls.c:%d" % text_at, "continue", "jump %d" % to)
        self.assertNotIn("Could not write register", text)
        self.assertNotIn("fact(10)", con)
        self.assertNotIn("fib(12)", con)
        self.assertNotIn("is_even", con)
        self.assertIn("calls: run_ops = 2523 (expected 2523) ok", con)
        self.assertIn("calls: all ok", con)

    def test_stepi_after_pc_write(self):
        """stepi right after a pc write at a stop inside a block runs the
        instruction at the new pc (the hook meets it first: it is not the
        one the stop was before) and stops after it. Before: E01 at the
        write, and the steps ran on from the breakpoint in main."""
        insns = nptest.objdump_function(fw("calls"), "marked_loop", "el")
        k = next(n for n, i in enumerate(insns) if i[1] == "sll")   # the loop's first, no branch
        s = Session(fw("calls"), nptest.ONE_CORE)
        text = s.gdb("break calls.c:%d" % self.calls_line('report("fact(10)"'), "continue",
                     "set var $pc = 0x%x" % insns[k][0], "stepi", "p/x $pc", "stepi", "p/x $pc", "kill")
        self.assertEqual(s.wait(), 130, text)
        self.assertEqual(re.findall(r"\$\d+ = (\S+)", text), ["0x%x" % insns[k + 1][0], "0x%x" % insns[k + 2][0]],
                         text)

    def test_pc_write_other_cores(self):
        """Pipeline demo, 4 cores (24k): at a breakpoint on a worker, its
        pc moved off and back leaves summary.json and summary.txt as
        without gdb; the cores waiting inside an instruction for it (at a
        sync point) refuse a pc write with E01 and stderr says why (before:
        the write was taken, into the engine of a core inside its run)."""
        elf = fw("pipeline")
        s = Session(elf)
        text = s.gdb("break crc32_words", "continue", "set var $pc = $pc + 4", "set var $pc = $pc - 4",
                     "thread 1", "set var $pc = $pc + 4", "delete", "continue")
        self.assertEqual(s.wait(), 0, text)
        self.assertEqual(text.count("Could not write register"), 1, text)
        with open(s.err_path) as f:
            self.assertIn("waits inside an instruction (select the one that stopped)", f.read())
        plain = run(["--set", "timing.model=24k", elf])
        for f in ("summary.json", "summary.txt"):
            with open(os.path.join(s.out, f), "rb") as x, open(os.path.join(plain.out, f), "rb") as y:
                self.assertEqual(x.read(), y.read(), f)

    def test_print_function_call(self):
        """`print f(x)` runs f on the core (gdb's call dummy: pc = f, $ra on
        the stack, a breakpoint there, the registers restored): fact(5) =
        120, fib(10) = 55, op_mul(6, 7) = 42, by hand; then the program
        ends as without them, every line right; both byte orders. Before:
        E01, no value, and the run ended with a break fault (status 3)."""
        for endian in ("el", "eb"):
            with self.subTest(endian=endian):
                plain = run(nptest.ONE_CORE + [fw("calls", endian)])
                self.assertEqual(plain.rc, 0, plain.stderr)
                with open(os.path.join(plain.out, "core0", "console.txt")) as f:
                    want = f.read()
                _, text, con = self.calls_session("break calls.c:%d" % self.calls_line('report("fact(10)"'),
                                                  "continue", "print fact(5)", "print fib(10)",
                                                  "print op_mul(6, 7)", "delete", "continue", endian=endian)
                self.assertEqual(re.findall(r"^\$\d+ = (\S+)$", text, re.M), ["120", "55", "42"], text)
                self.assertEqual(con, want)

    def test_call_side_effect(self):
        """`call leaf(x)` twice adds x to the global leaf_sum each time (0
        before run_leaves resets it): gdb reads 42 back. Before: E01."""
        _, text, con = self.calls_session("break calls.c:%d" % self.calls_line('report("fact(10)"'), "continue",
                                          "print leaf_sum", "call leaf(7)", "call leaf(35)", "print leaf_sum",
                                          "delete", "continue")
        self.assertEqual(re.findall(r"^\$\d+ = (\S+)$", text, re.M), ["0", "42"], text)
        self.assertIn("calls: run_leaves = 480 (expected 480) ok", con)

    def test_pc_write_counts_what_ran(self):
        """A pc written at a stop inside a block takes back the rest of the
        block (block_truncate): in the middle of marked_loop's loop block,
        $pc moved on and back to the same instruction runs it again from
        there, so summary.json, summary.txt, flat.txt and coverage.info are
        byte for byte the plain run's (flat and 24k; the cut part counted twice would
        add its instructions and cycles). And `print fact(5)` adds to the
        totals exactly fact(5)'s own instructions and flat cycles, by hand
        from objdump: each level n >= 2 runs all but the base case's last
        two words (14: two loads, a mul, jal and jr taken: 20 cycles),
        fact(1) the first three and those two (5, bnez and jr taken: 7):
        61 instructions, 87 cycles (the call dummy's block: none). Before:
        E01 at the first write."""
        insns = nptest.objdump_function(fw("calls"), "marked_loop", "el")
        br = next(i for i in insns if i[1] == "bne")
        head = int(br[2].split(",")[-1].split()[0], 16)
        mid = head + 8
        self.assertLess(mid, br[0])
        for model in ("flat", "24k"):
            with self.subTest(model=model):
                s, text, _ = self.calls_session("break *0x%x" % mid, "continue", "continue",
                                                "set var $pc = 0x%x" % (mid + 4), "set var $pc = 0x%x" % mid,
                                                "p/x $pc", "delete", "continue", model=model)
                self.assertIn("$1 = 0x%x" % mid, text)
                plain = run(nptest.ONE_CORE + ["--set", "timing.model=" + model, fw("calls")])
                # coverage.info too: the cut run counts only what ran
                # (before: DA of the loop's line 114 was 101, not 100)
                for f in ("summary.json", "summary.txt", os.path.join("core0", "flat.txt"), "coverage.info"):
                    with open(os.path.join(s.out, f), "rb") as x, open(os.path.join(plain.out, f), "rb") as y:
                        self.assertEqual(x.read(), y.read(), f)
        fact = nptest.objdump_function(fw("calls"), "fact", "el")
        self.assertEqual([i[1] for i in fact[-2:]], ["jr", "li"])
        self.assertEqual(len(fact), 16)
        s, text, _ = self.calls_session("break calls.c:%d" % self.calls_line('report("fact(10)"'), "continue",
                                        "print fact(5)", "delete", "continue")
        self.assertIn("$1 = 120", text)
        import json
        plain = run(nptest.ONE_CORE + ["--set", "timing.model=flat", fw("calls")])
        a = json.load(open(os.path.join(plain.out, "summary.json")))["cores"][0]
        b = json.load(open(os.path.join(s.out, "summary.json")))["cores"][0]
        self.assertEqual(b["instructions"] - a["instructions"], 4 * 14 + 5)
        self.assertEqual(b["cycles"] - a["cycles"], 4 * 20 + 7)
        self.assertEqual(b["busy_cycles"], b["cycles"])
        self.assertEqual(sum(f["self_cycles"] for f in b["functions"]), b["cycles"])
        self.assertEqual(sum(f["instructions"] for f in b["functions"]), b["instructions"])

    def test_bad_jump_signals(self):
        """fault_jump.c: cores 0-2 jump to unmapped addresses (SIGSEGV),
        core 3 to an odd one, an address error (SIGBUS as on MIPS Linux,
        docs/debugging.md), each stopped at the target with the thread of
        its core."""
        s = Session(fw("fault_jump"))
        text = s.gdb("info threads", "continue", "continue", "continue", "continue", "info threads", "thread 4",
                     "monitor bt", "continue")
        self.assertEqual(s.wait(), 3, text)
        got = re.findall(r'Thread (\d) "core\d" received signal (SIG[A-Z]+)', text)
        self.assertEqual(sorted(got), [("1", "SIGSEGV"), ("2", "SIGSEGV"), ("3", "SIGSEGV"), ("4", "SIGBUS")], text)
        # info threads shows each core's state after its name (qXfer:threads:read)
        # monitor bt on core 3 (selected at its fault): from the jalr in
        # call_through, as summary.json's frames, where gdb's unwinder
        # stops at the odd pc
        summary = __import__("json").load(open(os.path.join(s.out, "summary.json")))
        f3 = summary["cores"][3]["fault"]["frames"]
        want = "".join("  %-11s 0x%08x in %s at %s:%d\n" % ("#%d" % k, x["pc"], x["function"], x["file"], x["line"])
                       for k, x in enumerate(f3))
        self.assertIn("core3:\n" + want, text)
        self.assertEqual([x["function"] for x in f3], ["call_through", "main"])
        states = re.findall(r'Thread (\d) "core\d" \(([^)]*)\)', text)
        self.assertEqual(states[:4], [(str(t), "running") for t in range(1, 5)], text)
        self.assertEqual(states[4:], [("1", "fault: unmapped-fetch"), ("2", "fault: unmapped-fetch"),
                                      ("3", "fault: unmapped-fetch"), ("4", "fault: misaligned-fetch")], text)

    def test_debugger_ends_a_spin_on_ram(self):
        """hang_ram.c spins on a flag in its own RAM that nothing sets: a
        debugger write is what ends it. Under gdb its iterations run one
        by one (not skipped), so the stop at cycle 10000 comes there and
        `set var flag = 1` ends the loop at once: exit 1 with the flag
        printed. Before: the core slept through the skipped iterations,
        stopped only after its livelock was found (exit 4, no flag)."""
        s = Session(fw("hang_ram"), ["--gdb-stop-at-cycle", "10000", "--set", "run.livelock_cycles=50000",
                                     "--set", "mesh.width=1", "--set", "mesh.height=1"])
        text = s.gdb("continue", "monitor cycles", "set var flag = 1", "continue")
        rc = s.wait()
        m = re.search(r"core0 (\d+) cycles", text)
        self.assertTrue(m, text)
        self.assertGreaterEqual(int(m.group(1)), 10000)
        self.assertLess(int(m.group(1)), 10064)
        self.assertIn("in await_flag ()", text)
        self.assertEqual(rc, 1, text)
        with open(os.path.join(s.out, "core0", "console.txt")) as f:
            self.assertEqual(f.read(), "hang_ram: flag 1\n")

    def test_stop_at_cycle_and_kill(self):
        # calls runs instructions every cycle (no wait, no poll): the stop
        # is at the first instruction boundary at or after n
        n = 5000
        s = Session(fw("calls"), ["--gdb-stop-at-cycle", str(n), "--set", "mesh.width=1", "--set", "mesh.height=1"])
        text = s.gdb("continue", "monitor cycles", "kill")
        rc = s.wait()
        m = re.search(r"core0 (\d+) cycles", text)
        self.assertTrue(m, text)
        # the first instruction boundary at or after n (an instruction costs
        # at most a few tens of cycles)
        self.assertGreaterEqual(int(m.group(1)), n)
        self.assertLess(int(m.group(1)), n + 64)
        self.assertEqual(rc, 130)                      # kill: interrupted, with reports
        self.assertTrue(os.path.exists(os.path.join(s.out, "summary.json")))

    def test_stop_at_cycle_selected_thread(self):
        """`thread 3` then `monitor stop-at-cycle N` stops core 2, the
        selected thread's core, as `monitor help` says (before: core 0,
        the thread of the last Hc, since gdb selects a thread with Hg)."""
        n = 5000
        s = Session(fw("calls"))
        text = s.gdb("thread 3", "monitor stop-at-cycle %d" % n, "continue", "monitor cycles", "kill")
        s.wait()
        self.assertIn("core2 stops at cycle %d" % n, text)
        self.assertIn('Thread 3 "core2" received signal SIGTRAP', text)
        got = int(re.search(r"^core2 (\d+) cycles", text, re.M).group(1))
        self.assertGreaterEqual(got, n)
        self.assertLess(got, n + 64)

    def test_bad_spec(self):
        r = nptest.raw(["run", "--gdb", "127.0.0.1:notaport", fw("calls")])
        self.assertEqual(r.returncode, 2)
        self.assertIn("--gdb", r.stderr)

    def test_malformed_packet_closes_connection(self):
        s = Session(fw("calls"), ["--set", "mesh.width=1", "--set", "mesh.height=1"])
        host, port = s.addr.split(":")
        with socket.create_connection((host, int(port)), timeout=30) as sock:
            sock.sendall(b"$qSupported#zz")
            sock.settimeout(60)
            data = b""
            while True:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
        rc = s.wait()
        self.assertEqual(rc, 0)
        self.assertIn("malformed packet", open(s.err_path).read())
        self.assertTrue(os.path.exists(os.path.join(s.out, "summary.json")))
        # an oversized one too
        s = Session(fw("calls"), ["--set", "mesh.width=1", "--set", "mesh.height=1"])
        host, port = s.addr.split(":")
        with socket.create_connection((host, int(port)), timeout=30) as sock:
            sock.settimeout(60)
            try:
                sock.sendall(b"$" + b"m" * 40000)
                while sock.recv(4096):
                    pass
            except ConnectionResetError:
                pass                                   # closed while we were still sending
        self.assertEqual(s.wait(), 0)
        self.assertIn("longer than", open(s.err_path).read())


if __name__ == "__main__":
    nptest.main()

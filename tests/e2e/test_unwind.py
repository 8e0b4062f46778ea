#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/unwind - the frames of a fault or a stop without the profiler's
shadow call stack (--no-profile): unwound from the ELF's call frame
information (.debug_frame, profiler/model/symbols_unwind.c). They must be
the shadow stack's on every faulting and stopping firmware, binutils'
addr2line -f -i must put each call site in its frame's function and line,
gdb-multiarch's own unwinder (bt) must agree, and where the information
ends (assembly without CFI, a stack overwritten) the frames say so."""
import json
import os
import re
import shutil
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import fw, run  # noqa: E402

# faults in C (and one in an interrupt handler, through the runtime's
# vector), a jump to a bad address, a deadlock, the cycle limit, a stuck
# interrupt wait, a runaway recursion (a stack overflow found at a block's end)
FIRMWARE = ["fault_irq", "fault_div", "fault_null", "fault_unmapped", "fault_break", "fault_inline", "fault_jump",
            "fault_mmio", "fault_ni", "unaligned", "cutloop", "deadlock", "spin", "hang_irq", "runaway"]
LIMIT = ["--max-cycles", "3000000"]


def frames_of(summary, skip=()):
    """Per core: the fault's frames and names, the stop's frames."""
    return [(c["fault"] and (c["fault"]["frames"], c["fault"]["stack"]), c["stop"] and c["stop"]["frames"])
            for c in summary["cores"] if c["id"] not in skip]


def a2l(elf, endian, pc):
    """addr2line -f -i at pc: [(function, file's basename, line)], innermost first."""
    tool = nptest.tool(("mipsel" if endian == "el" else "mips") + "-linux-gnu-addr2line")
    out = subprocess.run([tool, "-f", "-i", "-e", elf, "0x%x" % pc], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout.split("\n")
    return [(out[i], os.path.basename(out[i + 1].split(":")[0]), int(re.match(r"\d+", out[i + 1].split(":")[1]).group(0)))
            for i in range(0, len(out) - 1, 2)]


class CfiFrames(unittest.TestCase):
    def test_same_as_shadow_stack(self):
        """Every core's frames, with and without the profiler, are one."""
        for endian in ("el", "eb"):
            for name in FIRMWARE:
                with self.subTest(endian=endian, firmware=name):
                    elf = fw(name, endian)
                    prof = run([elf] + LIMIT)
                    cfi = run([elf, "--no-profile"] + LIMIT)
                    self.assertEqual(prof.rc, cfi.rc, cfi.describe())
                    # runaway's core 2 writes past its buffers over saved
                    # return addresses (below): its stack is not one to unwind
                    skip = (2,) if name == "runaway" else ()
                    got, want = frames_of(cfi.summary, skip), frames_of(prof.summary, skip)
                    self.assertTrue(any(f or s for f, s in want), name)
                    self.assertEqual(got, want)

    def test_wait_sites(self):
        """A stuck core's wait site (summary.json `wait`) walked out of the
        runtime's functions over the unwound frames: the shadow stack's
        (deadlock.c's wait_forever, hang_wait.c's await_peer after an
        interrupt in rt_interrupts_on, not rt_wait)."""
        for name, endians in (("deadlock", ("el",)), ("hang_wait", ("el", "eb")), ("hang_irq", ("el",)),
                              ("hang_cp0", ("el",)), ("livelock", ("el",))):
            for endian in endians:
                with self.subTest(firmware=name, endian=endian):
                    prof = run([fw(name, endian)])
                    cfi = run([fw(name, endian), "--no-profile"])
                    want = [c["wait"] for c in prof.summary["cores"]]
                    self.assertTrue(any(want), name)
                    self.assertEqual([c["wait"] for c in cfi.summary["cores"]], want)
        w = run([fw("hang_wait"), "--no-profile"]).core(0)["wait"]
        self.assertEqual((w["function"], os.path.basename(w["file"])), ("await_peer", "hang_wait.c"))

    def test_interrupt_frame_and_addr2line(self):
        """fault_irq: through rt_irq_dispatch and the vector (a signal
        frame in start.S's CFI) to busy at EPC and main; every call site
        in its function and on its line by addr2line -f -i."""
        for endian in ("el", "eb"):
            elf = fw("fault_irq", endian)
            r = run([elf, "--no-profile"])
            self.assertEqual(r.rc, 3, r.describe())
            fr = r.core(0)["fault"]["frames"]
            self.assertEqual([x["function"] for x in fr], ["on_tick", "rt_irq_dispatch", "_irq_vector", "busy", "main"])
            for x in fr:
                want = a2l(elf, endian, x["pc"])[-1]
                self.assertEqual((x["function"], os.path.basename(x["file"]), x["line"]), want, x)
            # rt_irq_dispatch's and main's frames are at a call (jal/jalr)
            self.assertEqual(nptest.disasm_at(elf, fr[1]["pc"], endian)[1], "jalr", fr[1])
            self.assertEqual(nptest.disasm_at(elf, fr[4]["pc"], endian)[1], "jal", fr[4])

    def test_honest_ends(self):
        """Assembly with no CFI (fault_ri's reserved_instruction) and a
        return address overwritten (runaway's core 2): the last entry says
        where the unwinding stopped and why."""
        for endian in ("el", "eb"):
            r = run([fw("fault_ri", endian), "--no-profile"])
            fr = r.core(0)["fault"]["frames"]
            self.assertEqual(fr[0]["function"], "reserved_instruction")
            self.assertEqual(fr[-1]["function"], "<unwinding stopped: no call frame information for 0x%08x "
                             "(reserved_instruction)>" % fr[0]["pc"])
            self.assertRegex(r.text("summary.txt"), r"#1 +\(unwinding stopped: no call frame information for 0x%08x "
                             r"\(reserved_instruction\)\)" % fr[0]["pc"])
            r = run([fw("runaway", endian), "--no-profile"])
            fr = r.core(2)["fault"]["frames"]
            self.assertRegex(fr[-1]["function"], r"^<unwinding stopped: return address 0x[0-9a-f]{8} read for "
                             r"0x[0-9a-f]{8} \((ping|pong)\) is in no function \(a stack overwritten\?\)>$")
            self.assertTrue(all(x["function"] in ("ping", "pong", "...") for x in fr[:-1]), fr)

    def test_limit_in_code_without_cfi(self):
        """An assembly fixture (no .debug_frame) stopped at the cycle limit:
        stop.frames end with why, and summary.txt's limit line says it
        where a profiled run lists the callers."""
        elf = nptest.fixture("t24_perfirq")
        r = run([elf, "--no-profile", "--max-cycles", "60"] + nptest.ONE_CORE)
        self.assertEqual(r.rc, 4, r.describe())
        why = "%s has no call frame information (no .debug_frame: built without -g)" % elf
        self.assertEqual([x["function"] for x in r.core(0)["stop"]["frames"]], ["nops", "<unwinding stopped: %s>" % why])
        self.assertIn("in nops (??:0), called from (unwinding stopped: %s)\n" % why, r.text("summary.txt"))


GDB = shutil.which("gdb-multiarch")


class GdbAgrees(unittest.TestCase):
    def test_gdb_bt(self):
        """gdb-multiarch's bt (its own unwinder, from the same CFI) at the
        fault of fault_div and fault_null under --no-profile: the same
        functions and lines; its pcs are the return addresses, ours the
        calls (8 less); monitor bt prints the summary's frames."""
        if not GDB:
            self.skipTest("gdb-multiarch is not installed")
        for name in ("fault_div", "fault_null"):
            elf = fw(name)
            out = nptest.tmpdir("unwind-gdb")
            err = out + ".err"
            with open(err, "w") as e:
                p = subprocess.Popen([nptest.nocprof(), "run", "-q", "--no-profile", "-o", out, "--gdb", "127.0.0.1:0",
                                      elf], stdout=subprocess.DEVNULL, stderr=e)
            addr = None
            for _ in range(1200):
                m = re.search(r"waiting for gdb on (127\.0\.0\.1:\d+)", open(err).read())
                if m:
                    addr = m.group(1)
                    break
                time.sleep(0.05)
            self.assertTrue(addr, open(err).read())
            text = subprocess.run([GDB, "-batch", "-nx", "-ex", "file " + elf, "-ex", "target remote " + addr,
                                   "-ex", "continue", "-ex", "bt", "-ex", "monitor bt", "-ex", "kill"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                                  timeout=240).stdout
            p.wait(timeout=240)
            fr = json.load(open(os.path.join(out, "summary.json")))["cores"][0]["fault"]["frames"]
            gdb = re.findall(r"^#(\d+) +(?:0x([0-9a-f]+) in )?(\w+) \(.*\) at (\S+):(\d+)$", text, re.M)
            self.assertEqual(len(gdb), len(fr), text)
            # frame 0's line is the fault's (e2e/status checks it), where
            # gdb may name the statement before: the callers are compared
            self.assertEqual(gdb[0][2], fr[0]["function"], text)
            for g, x in zip(gdb[1:], fr[1:]):
                self.assertEqual((g[2], os.path.basename(g[3]), int(g[4]), int(g[1], 16)),
                                 (x["function"], os.path.basename(x["file"]), x["line"], x["pc"] + 8), text)
            want = "".join("  %-11s 0x%08x in %s at %s:%d\n" % ("#%d" % k, x["pc"], x["function"], x["file"], x["line"])
                           for k, x in enumerate(fr))
            self.assertIn("core0:\n" + want, text)


if __name__ == "__main__":
    nptest.main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/status - exit statuses 0/1/2/3/4 (SPEC 4), fault reports (SPEC 1
"Synchronous exceptions", devices, NI misuse), deadlock and cycle limit,
and usage/config/ELF errors (status 2, no reports written)."""
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import ONE_CORE, fw, run  # noqa: E402


class ExitCodes(unittest.TestCase):
    def test_exitcode_firmware_status_1(self):
        for endian in ("el", "eb"):
            r = run([fw("exitcode", endian)])
            self.assertEqual(r.rc, 1, r.describe())
            for k, c in enumerate(r.summary["cores"]):
                self.assertEqual(c["status"], "exited")
                self.assertEqual(c["exit_code"], k)
                self.assertIsNone(c["fault"])
                self.assertEqual(r.text("core%d" % k, "console.txt"),
                                 "exitcode: core %d of 4 exits with %d\n" % (k, k))
            self.assertTrue(os.path.isfile(r.path("core3", "flat.txt")))

    def test_exitcode_one_core_status_0(self):
        r = run([fw("exitcode")] + nptest.ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(r.core(0)["exit_code"], 0)

    def test_status_precedence_fault_over_limit_over_nonzero(self):
        # core 0 faults, core 1 spins to the limit, cores 2, 3 exit non-zero: 3
        r = run(["--max-cycles", "200000", "--core", "0=" + fw("fault_break"), "--core", "1=" + fw("spin"),
                 "--core", "2=" + fw("exitcode"), "--core", "3=" + fw("exitcode")])
        self.assertEqual(r.rc, 3, r.describe())
        st = [c["status"] for c in r.summary["cores"]]
        self.assertEqual(st, ["fault", "limit", "exited", "exited"])
        self.assertEqual([c["exit_code"] for c in r.summary["cores"]][2:], [2, 3])
        # limit over non-zero exit: 4
        r = run(["--max-cycles", "200000", fw("exitcode"), "--core", "1=" + fw("spin")])
        self.assertEqual(r.rc, 4, r.describe())
        self.assertEqual([c["status"] for c in r.summary["cores"]], ["exited", "limit", "exited", "exited"])


# firmware -> (function, kind regex, mnemonic check, message regex)
FAULTS = {
    "fault_unmapped": ("load_unmapped", r"unmapped", lambda w, m, o: m == "lw",
                       r"(?i)0x0?ff00000|0x8ff00000"),
    "fault_null": ("store_null", r"^unmapped-write$", lambda w, m, o: m == "sw",
                   r"(?i)0x00000004"),
    "fault_ri": ("reserved_instruction", r"reserved", lambda w, m, o: w == "fc000000",
                 r"(?i)reserved"),
    "fault_mmio": ("read_bad_sys_reg", r"bus", lambda w, m, o: m == "lw",
                   r"(?i)(?=.*SYS)(?=.*0xff0)"),
    "fault_ni": ("send_empty_packet", r"ni", lambda w, m, o: m == "sw",
                 r"(?i)TX_SEND.*nothing staged|nothing staged.*TX_SEND"),
    "fault_break": ("do_break", r"break", lambda w, m, o: m == "break", r"(?i)break"),
    # the second division's check traps, not the first (issue 19.3)
    "fault_div": ("divide", r"^trap$", lambda w, m, o: m == "teq" and o.startswith("a2"),
                  r"^trap \(teq\) at pc 0x[0-9a-f]{8}: integer division by zero "
                  r"\(trap code 7, .*\)\n  registers at pc .*\n  .*a2=00000000"),
    "unaligned": ("load_unaligned", r"unaligned|address", lambda w, m, o: m == "lw" and o.endswith(")")
                  and re.search(r"\b1\(", o) is not None, r"(?i)unaligned|alignment|address error"),
}


class Faults(unittest.TestCase):
    def check_fault(self, name, endian):
        func, kind_re, insn_ok, msg_re = FAULTS[name]
        elf = fw(name, endian)
        r = run([elf])
        self.assertEqual(r.rc, 3, r.describe())
        syms = nptest.symbols(elf, endian)
        self.assertIn(func, syms)
        lo, size = syms[func]
        pcs = set()
        for c in r.summary["cores"]:
            self.assertEqual(c["status"], "fault", c)
            f = c["fault"]
            self.assertIsNotNone(f)
            self.assertRegex(f["kind"], kind_re)
            self.assertEqual(f["function"], func)
            pc = f["pc"]
            self.assertTrue(lo <= pc < lo + max(size, 4), "pc 0x%x outside %s [0x%x, +%d)" % (pc, func, lo, size))
            word, mnem, ops = nptest.disasm_at(elf, pc, endian)
            self.assertTrue(insn_ok(word, mnem, ops),
                            "%s: instruction at 0x%x is %s %s %s" % (name, pc, word, mnem, ops))
            self.assertRegex(f["message"], msg_re)
            self.assertIsInstance(f["stack"], list)
            self.assertGreaterEqual(len(f["stack"]), 2, f["stack"])
            self.assertEqual(f["stack"][0], func)
            self.assertIn("main", f["stack"][1:], f["stack"])
            if name != "fault_ri":   # top-level asm has no line info: ??:0 allowed there
                self.assertTrue(f["file"] and f["file"] != "??", f)
                self.assertGreater(f["line"], 0)
            # the registers as numbers, the same as the message's table
            regs = f["registers"]
            self.assertEqual(len(regs), 34, regs)
            table = dict((k, int(v, 16)) for k, v in re.findall(r"\b([a-z0-9]+)=([0-9a-f]{8})\b", f["message"]))
            self.assertEqual(regs, table)
            if name == "fault_null":   # store_null(NULL, core): $a0 = 0, $a1 = the core id (o32)
                self.assertEqual((regs["a0"], regs["a1"], regs["zero"]), (0, c["id"], 0))
            # the frames (gdb's backtrace): the fault, then main at its
            # `jal <func>` (objdump), on the line addr2line gives for it
            # (after the runtime's forced-inline rt_mmio_* for device faults)
            fr = f["frames"]
            self.assertEqual((fr[0]["pc"], fr[0]["file"], fr[0]["line"]), (pc, f["file"], f["line"]), fr)
            inl = [x["function"] for x in fr if x["inlined"]]
            self.assertEqual(inl, ["rt_mmio_read"] if name == "fault_mmio" else ["rt_mmio_write"]
                             if name == "fault_ni" else [], fr)
            fr = fr[len(inl):]
            self.assertEqual(len(fr), 2, fr)
            self.assertEqual((fr[0]["function"], fr[0]["pc"], fr[0]["repeat"]), (func, pc, 1))
            self.assertEqual((fr[1]["function"], fr[1]["repeat"]), ("main", 1))
            self.assertEqual(nptest.disasm_at(elf, fr[1]["pc"], endian)[1:], ("jal", "%x <%s>" % (lo, func)))
            self.assertEqual((os.path.basename(fr[1]["file"]), fr[1]["line"]),
                             addr2line(elf, fr[1]["pc"], endian), fr[1])
            self.assertIn("    %-11s 0x%08x in main at %s:%d\n" % ("#%d" % (len(inl) + 1), fr[1]["pc"], fr[1]["file"],
                                                                   fr[1]["line"]), r.text("summary.txt"))
            pcs.add(pc)
            # stderr names the core, the kind, the PC and the function
            self.assertRegex(r.stderr, r"core %d\b.*0x%08x.*\b%s\b" % (c["id"], pc, func))
            self.assertTrue(r.text("core%d" % c["id"], "console.txt").startswith(name.split("_")[0]))
        self.assertEqual(len(pcs), 1, "every core faults at the same pc")
        # reports are written for status 3
        self.assertTrue(os.path.isfile(r.path("core0", "flat.txt")))
        return r

    def test_faults_el(self):
        for name in FAULTS:
            with self.subTest(name=name):
                self.check_fault(name, "el")

    def test_faults_eb(self):
        for name in FAULTS:
            with self.subTest(name=name):
                self.check_fault(name, "eb")

    def test_fault_names_the_object(self):
        """An unaligned or unmapped data access names what the address is:
        the variable (an STT_OBJECT of the ELF, offset from nm's address)
        or a member through a NULL pointer (before: the bare address,
        `unaligned load at address 0x80001091 (pc ...)`)."""
        for endian in ("el", "eb"):
            elf = fw("unaligned", endian)
            r = run([elf])
            nm = subprocess.run([nptest.tool(("mipsel" if endian == "el" else "mips") + "-linux-gnu-nm"), "-S", elf],
                                capture_output=True, text=True, check=True).stdout
            addr, size = next((int(a, 16) & 0xFFFFFFFF, int(n, 16)) for a, n, t, name in
                              (line.split() for line in nm.splitlines() if len(line.split()) == 4)
                              if name == "buffer")
            msg = r.core(0)["fault"]["message"].split("\n")[0]
            self.assertEqual(msg, "unaligned load at address 0x%08x (pc 0x%08x): the address is buffer+1, in the "
                             "%d-byte object buffer" % (addr + 1, r.core(0)["fault"]["pc"], size))
            self.assertIn(msg, r.text("summary.txt"))
            r = run([fw("fault_null", endian)])
            msg = r.core(0)["fault"]["message"].split("\n")[0]
            self.assertEqual(msg, "write of unmapped address 0x00000004 (pc 0x%08x): the address is NULL+4 "
                             "(through a NULL pointer)" % r.core(0)["fault"]["pc"])
            self.assertIn(msg, r.stderr)

    def test_divide_by_zero_line(self):
        # `x = a / b; y = a / c;` with c = 0: the second teq, on the line of y
        with open(nptest.src("firmware", "tests", "fault_div.c")) as f:
            line = [i + 1 for i, t in enumerate(f) if "the faulting line" in t][0]
        r = self.check_fault("fault_div", "el")
        for c in r.summary["cores"]:
            self.assertEqual((c["fault"]["function"], c["fault"]["line"]), ("divide", line), c["fault"])

    def test_fault_line_numbers(self):
        # the source line of the faulting instruction per DWARF, as addr2line says
        a2l = nptest.tool("mipsel-linux-gnu-addr2line")
        import subprocess
        for name in ("fault_unmapped", "fault_break", "unaligned"):
            elf = fw(name)
            r = run([elf])
            f = r.core(0)["fault"]
            out = subprocess.run([a2l, "-e", elf, "0x%x" % f["pc"]], stdout=subprocess.PIPE,
                                 universal_newlines=True).stdout.strip()
            path, _, line = out.partition(":")
            line = int(re.match(r"\d+", line).group(0))
            self.assertEqual(os.path.basename(f["file"]), os.path.basename(path), name)
            self.assertEqual(f["line"], line, name)


class FaultsInDelaySlots(unittest.TestCase):
    # t_f_slots: core -> (kind, label of the faulting instruction)
    KINDS = {0: ("unmapped-read", "d0"), 1: ("unmapped-write", "d1"), 2: ("unaligned-load", "d2"),
             3: ("reserved-instruction", "d3"), 4: ("break", "d4"), 5: ("syscall", "d5"), 6: ("trap", "d6"),
             7: ("overflow", "d7"), 8: ("bus-error", "d8"), 9: ("coprocessor-unusable", "d9"),
             10: ("unmapped-read", "d10"), 11: ("unaligned-store", "d11"), 12: ("unmapped-read", "b12"),
             13: ("trap", "d13"), 14: ("bus-error", "d14")}

    def test_every_kind_in_a_delay_slot(self):
        """t_f_slots on a 4 x 4 mesh: fifteen cores fault, each in a
        branch's delay slot (or at a block's first instruction), named at
        the slot's own pc; core 15 goes on and exits 0."""
        for endian in ("el", "eb"):
            with self.subTest(endian=endian):
                elf = nptest.fixture("t_f_slots", endian)
                sym = nptest.symbols(elf, endian)
                r = run(["--set", "mesh.width=4", "--set", "mesh.height=4", elf])
                self.assertEqual(r.rc, 3, r.describe())
                for c in r.summary["cores"][:15]:
                    kind, label = self.KINDS[c["id"]]
                    self.assertEqual((c["status"], c["fault"]["kind"], c["fault"]["pc"]),
                                     ("fault", kind, sym[label][0]), c["id"])
                last = r.core(15)
                self.assertEqual((last["status"], last["exit_code"]), ("exited", 0))
                self.assertEqual(r.text("core15", "console.txt"), "o\n")


class CacheMissThenFault(unittest.TestCase):
    def test_samples_after_a_miss_in_a_cut_block(self):
        """[cache] enabled: t_f_null's first block misses the I-cache (30
        cycles on its first instruction), then its store faults: the cut
        takes back the samples past the fault, which the miss had moved.
        Before: they were looked for at static offsets, the sampling
        bookkeeping asserted and the run aborted (SIGABRT, no report) with
        any --sample-period below the miss. Now status 3 and, at period
        1, every function's and instruction's samples equal its cycles."""
        for endian in ("el", "eb"):
            for name in ("t_f_null", "t_f_overflow", "c_dalign"):
                with self.subTest(endian=endian, name=name):
                    r = run(ONE_CORE + ["--set", "cache.enabled=1", "--sample-period", "1,3",
                                        nptest.fixture(name, endian)])
                    self.assertEqual(r.rc, 3, r.describe())
                    for f in r.core(0)["functions"]:
                        self.assertEqual(f["samples"]["1"], f["self_cycles"], f["name"])
                    rows = re.findall(r"^\s+(?:\d+|#####)\s+(\d+)\s+(\d+)\s+0x[0-9a-f]+:",
                                      r.text("core0", "annotated.txt"), re.M)
                    self.assertTrue(rows)
                    self.assertEqual([a for a, b in rows], [b for a, b in rows])


class FaultInHandler(unittest.TestCase):
    def test_irq_cycles_include_the_faulting_handler(self):
        """t_f_irqfault: the core faults inside its interrupt handler, or
        stops there at the cycle limit: irq_cycles is the time spent in
        handlers, the same as <interrupt>'s inclusive cycles (9 per
        handler call by hand). Before: 387 irq_cycles against 396 in the
        profile (the faulting handler's 9 cycles missing)."""
        for endian in ("el", "eb"):
            with self.subTest(endian=endian):
                r = run(ONE_CORE + [nptest.fixture("t_f_irqfault", endian)])
                self.assertEqual(r.rc, 3, r.describe())
                c = r.core(0)
                sym = nptest.symbols(nptest.fixture("t_f_irqfault", endian), endian)
                self.assertEqual((c["fault"]["kind"], c["fault"]["pc"]), ("unmapped-read", sym["hfault"][0]))
                fn = nptest.functions(c)
                self.assertEqual(fn["handler"]["inclusive_cycles"], 9 * fn["handler"]["calls"])
                self.assertEqual(c["irq_cycles"], 9 * fn["handler"]["calls"])
                self.assertEqual(c["irq_cycles"], fn["<interrupt>"]["inclusive_cycles"])
        # stopped by the cycle limit, inside a handler or not (before: 171
        # against 172 to 179 at limits 2028 to 2035)
        for limit in range(2026, 2038):  # a handler runs from 2028 to 2036
            with self.subTest(limit=limit):
                r = run(ONE_CORE + ["--max-cycles", str(limit), nptest.fixture("t_f_irqfault")])
                self.assertEqual(r.rc, 4, r.describe())
                c = r.core(0)
                self.assertEqual(c["irq_cycles"], nptest.functions(c)["<interrupt>"]["inclusive_cycles"])


class WaitInDelaySlot(unittest.TestCase):
    def test_wait_in_a_delay_slot_is_a_fault(self):
        """t_f_waitslot: `b target; wait` woken by the TIMER. Before: the
        core exited 102 (the word after the wait ran as the slot, then the
        branch). Now a `delay-slot` fault at the wait, after the 14
        instructions before it (the branch included: 0x38 / 4)."""
        for endian in ("el", "eb"):
            with self.subTest(endian=endian):
                elf = nptest.fixture("t_f_waitslot", endian)
                r = run(ONE_CORE + [elf])
                self.assertEqual(r.rc, 3, r.describe())
                c = r.core(0)
                slot = nptest.symbols(elf, endian)["slot"][0]
                self.assertEqual((c["status"], c["fault"]["kind"], c["fault"]["pc"]), ("fault", "delay-slot", slot))
                self.assertIn("wait in the delay slot of the branch at pc 0x%08x" % (slot - 4), c["fault"]["message"])
                self.assertEqual(c["instructions"], (slot - 0x80000000) // 4)


class Kseg1Code(unittest.TestCase):
    def test_code_run_through_kseg1_is_its_function(self):
        """t_kseg1code: g called twice through kseg0 and three times
        through kseg1 (5 cycles flat each), then a fault in `bad` reached
        through kseg1. Before: g 2 calls, 10 cycles, 15 cycles and 15
        samples in <unknown>, the fault in no function."""
        for endian in ("el", "eb"):
            elf = nptest.fixture("t_kseg1code", endian)
            sym = nptest.symbols(elf, endian)
            for model in ("flat", "24k"):
                with self.subTest(endian=endian, model=model):
                    r = run(ONE_CORE + ["--set", "timing.model=" + model, "--sample-period", "1", elf])
                    self.assertEqual(r.rc, 3, r.describe())
                    c = r.core(0)
                    fn = nptest.functions(c)
                    self.assertEqual(fn["g"]["calls"], 5)
                    self.assertEqual(fn["g"]["instructions"], 20)
                    if model == "flat":
                        self.assertEqual(fn["g"]["self_cycles"], 25)
                    self.assertEqual(fn["g"]["samples"]["1"], fn["g"]["self_cycles"])
                    unknown = fn.get("<unknown>", {"self_cycles": 0, "samples": {"1": 0}})
                    self.assertEqual((unknown["self_cycles"], unknown["samples"]["1"]), (0, 0))
                    f = c["fault"]
                    self.assertEqual((f["kind"], f["pc"], f["function"]),
                                     ("unmapped-read", sym["bad"][0] | 0x20000000, "bad"))
                    ann = r.text("core0", "annotated.txt")
                    self.assertIn("*** g  [0x%08x" % sym["g"][0], ann)
                    self.assertIn("called 5,", ann)


class WordAccessAndUserMode(unittest.TestCase):
    """Issue 19 item 5 (SPEC 1): a 64-bit access to a device register is a
    bus error naming the device, the offset and the pc (it used to reach
    the device as two word writes: 'D' on the console and EXIT with
    0x41424344); Status.KSU = user with EXL = ERL = 0 makes kseg0/kseg1
    an address error (it used to run on and exit 0). Figures from the
    fixtures' listings."""

    CASES = {
        "t_f_busdword": ("bus-error", 0x80000028,
                         "8-byte write of SYS register at offset 0x018 (pc 0x80000028): "
                         "device registers are 32-bit, word access only"),
        "t_f_usermode": ("address-error", 0x80000028,
                         "user-mode fetch from kernel address 0x80000028 (pc 0x80000028; "
                         "Status.KSU = user: kseg0, kseg1 and the devices are kernel-only)"),
    }

    def test_faults(self):
        for name, (kind, pc, msg) in self.CASES.items():
            for endian in ("el", "eb"):
                with self.subTest(name=name, endian=endian):
                    r = run(["--max-cycles", "1000000"] + ONE_CORE + [nptest.fixture(name, endian)], timeout=20)
                    self.assertEqual(r.rc, 3, r.describe())
                    c = r.core(0)
                    self.assertEqual(c["status"], "fault", c)
                    self.assertEqual(c["fault"]["kind"], kind)
                    self.assertEqual(c["fault"]["pc"], pc)
                    self.assertEqual(c["fault"]["message"].split("\n")[0], msg)   # a register dump follows
                    self.assertEqual(r.text("core0", "console.txt"), "")


class KsegZeroDevices(unittest.TestCase):
    """SPEC 1: the devices are kseg1's (uncached); an address outside
    every window is an unmapped access. Their kseg0 alias (0x9F00_0000,
    cached on a 24K: a stale read or a buffered write) is outside every
    window. t_f_kseg0dev, pcs from its symbols: before, core 0 read
    CYCLE_LO through kseg0 (exit 6 under flat), core 1 exited 7 through
    EXIT's kseg0 alias, core 2's jump there was a device bus-error."""

    def test_kseg0_alias_of_the_windows_is_unmapped(self):
        for endian in ("el", "eb"):
            for cache in ("0", "1"):
                with self.subTest(endian=endian, cache=cache):
                    elf = nptest.fixture("t_f_kseg0dev", endian)
                    sym = {k: v[0] for k, v in nptest.symbols(elf, endian).items()}
                    r = run(["--max-cycles", "100000", "--set", "cache.enabled=" + cache, elf], timeout=20)
                    self.assertEqual(r.rc, 3, r.describe())
                    want = {0: ("unmapped-read", sym["d0"], "read of unmapped address 0x9f000010 (pc 0x%08x)"
                                % sym["d0"]),
                            1: ("unmapped-write", sym["d1"], "write of unmapped address 0x9f00001c (pc 0x%08x)"
                                % sym["d1"]),
                            2: ("unmapped-fetch", 0x9F000000, "instruction fetch from unmapped address 0x9f000000 "
                                "(jr at pc 0x%08x)" % sym["j2"])}
                    for i, (kind, pc, msg) in want.items():
                        f = r.core(i)["fault"]
                        self.assertEqual(r.core(i)["status"], "fault", r.core(i))
                        self.assertEqual((f["kind"], f["pc"], f["message"].split("\n")[0]), (kind, pc, msg))
                    self.assertEqual((r.core(3)["status"], r.core(3)["exit_code"]), ("exited", 0))


class HostileStub(unittest.TestCase):
    """Issue 14 item 2: the interrupt-entry stub page (0xBFC00000) is no
    guest memory. Writing `b .` over it, reading it or jumping into it
    faults at the exact PC; nothing spins past --max-cycles."""

    CASES = {
        "t_f_stubw": ("unmapped-write", 0x80000010),
        "t_f_stubr": ("unmapped-read", 0x80000008),
        "t_f_stubj": ("unmapped-fetch", 0xBFC00000),
    }

    def test_stub_page_faults_quickly(self):
        for name, (kind, pc) in self.CASES.items():
            for endian in ("el", "eb"):
                with self.subTest(name=name, endian=endian):
                    r = run(["--max-cycles", "1000000", nptest.fixture(name, endian)], timeout=20)
                    self.assertEqual(r.rc, 3, r.describe())
                    for c in r.summary["cores"]:
                        self.assertEqual(c["status"], "fault", c)
                        self.assertEqual(c["fault"]["kind"], kind)
                        self.assertEqual(c["fault"]["pc"], pc)
                        self.assertLess(c["cycles"], 100)


def addr2line(elf, pc, endian="el"):
    """(file's basename, line) of pc, from binutils."""
    a2l = nptest.tool(("mipsel" if endian == "el" else "mips") + "-linux-gnu-addr2line")
    out = subprocess.run([a2l, "-e", elf, "0x%x" % pc], stdout=subprocess.PIPE, universal_newlines=True,
                         check=True).stdout.strip()
    path, _, line = out.partition(":")
    return os.path.basename(path), int(re.match(r"\d+", line).group(0))


def where(place):
    """How summary.txt and stderr name a fault's or stop's place (summary.json
    `fault` or `stop`): `F (file:line)`, or when frame 0 is a function the
    compiler inlined, its own line and then `, inlined into` the
    out-of-line caller at the call's line."""
    fr = place["frames"]
    if not fr or not fr[0]["inlined"]:
        return "%s (%s:%d)" % (place["function"], place["file"], place["line"])
    outer = next(f for f in fr if not f["inlined"])
    return "%s (%s:%d), inlined into %s (%s:%d)" % (fr[0]["function"], fr[0]["file"], fr[0]["line"],
                                                    outer["function"], outer["file"], outer["line"])


class InlineFrames(unittest.TestCase):
    """A fault inside a function the compiler inlined (fault_inline.c,
    -O2): the frames hold the inline frames that addr2line -i (and gdb)
    show at that pc, innermost first, each on its line."""

    def test_inlined_fault(self):
        for endian in ("el", "eb"):
            elf = fw("fault_inline", endian)
            r = run([elf])
            self.assertEqual(r.rc, 3, r.describe())
            f = r.core(0)["fault"]
            self.assertEqual((f["kind"], f["function"]), ("unmapped-write", "main"))
            a2l = nptest.tool(("mipsel" if endian == "el" else "mips") + "-linux-gnu-addr2line")
            out = subprocess.run([a2l, "-f", "-i", "-e", elf, "0x%x" % f["pc"]], stdout=subprocess.PIPE,
                                 universal_newlines=True, check=True).stdout.split()
            want = [(out[i], os.path.basename(out[i + 1].split(":")[0]), int(out[i + 1].split(":")[1].split()[0]))
                    for i in range(0, len(out), 2)]
            self.assertEqual([w[0] for w in want], ["poke", "main"], out)
            got = [(x["function"], os.path.basename(x["file"]), x["line"]) for x in f["frames"][:2]]
            self.assertEqual(got, want)
            self.assertEqual([(x["pc"], x["inlined"]) for x in f["frames"][:2]], [(f["pc"], True), (f["pc"], False)])
            with open(nptest.src("firmware", "tests", "fault_inline.c")) as src:
                lines = src.read().split("\n")
            self.assertIn("the faulting line", lines[want[0][2] - 1])
            self.assertIn("the inlining line", lines[want[1][2] - 1])
            self.assertRegex(r.text("summary.txt"), r"#0 +0x%08x in poke at \S+fault_inline.c:%d \(inlined into main\)"
                             % (f["pc"], want[0][2]))
            # the headlines name the function of the line (poke, inlined),
            # then the call in main (before: `in main (fault_inline.c:N)`
            # with poke's line N, a line that is not main's)
            where = "in poke (%s:%d), inlined into main (%s:%d)" % (f["file"], want[0][2], f["frames"][1]["file"],
                                                                   want[1][2])
            self.assertIn("core 0 fault: unmapped-write at pc 0x%08x %s\n" % (f["pc"], where), r.text("summary.txt"))
            self.assertIn("(core 0 faulted: unmapped-write %s" % where, r.text("summary.txt"))
            self.assertIn("core 0: unmapped-write fault at pc 0x%08x %s: " % (f["pc"], where), r.stderr)


class InterruptFrames(unittest.TestCase):
    """A fault inside an interrupt handler (fault_irq.c): the frames go
    through the runtime's vector to the interrupted function, at the
    instruction the interrupt came at (EPC), on its line (addr2line)."""

    def test_fault_in_handler(self):
        with open(nptest.src("firmware", "tests", "fault_irq.c")) as src:
            text = src.read().split("\n")
        fault_line = [i + 1 for i, t in enumerate(text) if "the faulting line" in t][0]
        loop_line = [i + 1 for i, t in enumerate(text) if "the interrupted line" in t][0]
        for endian in ("el", "eb"):
            elf = fw("fault_irq", endian)
            r = run([elf])
            self.assertEqual(r.rc, 3, r.describe())
            f = r.core(0)["fault"]
            fr = f["frames"]
            self.assertEqual([x["function"] for x in fr], ["on_tick", "rt_irq_dispatch", "_irq_vector", "busy", "main"])
            self.assertEqual(fr[0]["line"], fault_line)
            lo, size = nptest.symbols(elf, endian)["busy"]
            self.assertTrue(lo <= fr[3]["pc"] < lo + size, fr[3])
            self.assertEqual((os.path.basename(fr[3]["file"]), fr[3]["line"]), ("fault_irq.c", loop_line))
            self.assertEqual(addr2line(elf, fr[3]["pc"], endian), ("fault_irq.c", loop_line))


class BadJump(unittest.TestCase):
    """A call through a corrupt function pointer (fault_jump.c): the fault
    names the exact target (not its 4 KiB page) and is located at the
    jalr that went there, with the caller's stack, not at whatever
    function holds the target (or ?? for none)."""

    TARGETS = {0: ("unmapped-fetch", 0), 1: ("unmapped-fetch", 0x12345678),
               2: ("unmapped-fetch", 0x80fff000), 3: ("misaligned-fetch", None)}

    def test_bad_jumps(self):
        with open(nptest.src("firmware", "tests", "fault_jump.c")) as f:
            line = [i + 1 for i, t in enumerate(f) if "the jumping line" in t][0]
        for endian in ("el", "eb"):
            elf = fw("fault_jump", endian)
            syms = nptest.symbols(elf, endian)
            jalr = [a for a, m, o in nptest.objdump_function(elf, "call_through", endian) if m == "jalr"]
            self.assertEqual(len(jalr), 1, jalr)
            r = run([elf])
            self.assertEqual(r.rc, 3, r.describe())
            for c in r.summary["cores"]:
                with self.subTest(endian=endian, core=c["id"]):
                    kind, target = self.TARGETS[c["id"]]
                    if target is None:
                        target = syms["rt_printf"][0] + 13
                    f = c["fault"]
                    self.assertEqual((f["kind"], f["pc"]), (kind, target), f)
                    self.assertEqual((f["function"], f["line"]), ("call_through", line), f)
                    self.assertTrue(f["message"].startswith("instruction fetch from "), f)
                    self.assertIn("0x%08x (jalr at pc 0x%08x)" % (target, jalr[0]), f["message"])
                    # a NULL target says so (before: the bare address)
                    self.assertEqual(f["message"].split("\n")[0].endswith(
                        "(jalr at pc 0x%08x): a call through a NULL function pointer" % jalr[0]), target == 0, f)
                    self.assertEqual(f["stack"], ["call_through", "main"])
                    self.assertEqual([(x["function"], x["pc"], x["line"]) for x in f["frames"]][:1],
                                     [("call_through", jalr[0], line)])
                    self.assertRegex(r.stderr, r"core %d: %s fault at pc 0x%08x in call_through \(\S*fault_jump.c:%d\)"
                                     % (c["id"], kind, target, line))


class OddPc(unittest.TestCase):
    """Issue 14: a register jump to an odd address is an instruction fetch
    from a misaligned address at that address (the 24Kf's MIPS16 mode is
    never entered), naming the jump; figures from the fixtures' listings:
    lui, ori, jr/jalr, delay slot = 4 instructions, 4 cycles + 1 for the
    taken branch; t_f_odderet: 15 instructions of 1 cycle."""

    CASES = {"t_f_oddjr": (0x80000021, "jr", 0x80000008, 4, 5),
             "t_f_oddjalr": (0x80000025, "jalr", 0x80000008, 4, 5),
             "t_f_odderet": (0x80000041, "eret", 0x80000038, 15, 15),
             # the target's block is in the hook's table (fast path)
             "t_f_oddjrhit": (0x80000031, "jr", 0x80000010, 10, 14),
             # two bytes past it, the same address + size (the table's key)
             "t_f_oddjrhit2": (0x80000033, "jr", 0x80000010, 10, 14),
             # the delay slot made the register even: the saved target
             "t_f_oddjalrhit": (0x80000031, "jalr", 0x80000010, 10, 14),
             # where nothing can be fetched: the address error comes first
             # (before: "unmapped-fetch" at 0x00000040, "bus-error" at
             # 0xbf000000, "unmapped-fetch" at 0x80100000, 4 cycles)
             "t_f_oddkuseg": (0x00000041, "jr", 0x80000008, 4, 5),
             "t_f_odddev": (0xBF000001, "jr", 0x80000008, 4, 5),
             "t_f_oddpastram": (0x80100001, "jr", 0x80000008, 4, 5)}

    # profiled (block_hook) and not (the client-less hooks, whose table is
    # keyed by address + size), under both models (24k: the other hook)
    MODES = ([], ["--no-profile"], ["--no-profile", "--set", "timing.model=24k"])

    def test_slot_before_target(self):
        """The delay slot runs before the odd target is fetched: its
        unaligned load is the fault (t_f_oddslotload); and a slot that
        makes the register odd after an even jump is no fault
        (t_evenslot: it exits 0)."""
        for endian, mode in itertools.product(("el", "eb"), self.MODES):
            with self.subTest(endian=endian, mode=mode):
                r = run(["--max-cycles", "1000000"] + mode + ONE_CORE + [nptest.fixture("t_f_oddslotload", endian)],
                        timeout=20)
                self.assertEqual(r.rc, 3, r.describe())
                f = r.core(0)["fault"]
                self.assertEqual((f["kind"], f["pc"]), ("unaligned-load", 0x80000010))
                self.assertEqual(r.core(0)["instructions"], 4)
                r = run(["--max-cycles", "1000000"] + mode + ONE_CORE + [nptest.fixture("t_evenslot", endian)],
                        timeout=20)
                self.assertEqual(r.rc, 0, r.describe())
                self.assertEqual(r.core(0)["status"], "exited")

    def test_odd_targets(self):
        for name, (target, jump, jump_pc, insns, cycles) in self.CASES.items():
            for endian, mode in itertools.product(("el", "eb"), self.MODES):
                with self.subTest(name=name, endian=endian, mode=mode):
                    r = run(["--max-cycles", "1000000"] + mode + ONE_CORE + [nptest.fixture(name, endian)],
                            timeout=20)
                    self.assertEqual(r.rc, 3, r.describe())
                    c = r.core(0)
                    self.assertEqual(c["status"], "fault")
                    self.assertEqual(c["fault"]["kind"], "misaligned-fetch")
                    self.assertEqual(c["fault"]["pc"], target)
                    self.assertEqual(c["fault"]["message"].split("\n")[0],  # then the registers
                                     "instruction fetch from a misaligned address 0x%08x (%s at pc 0x%08x)"
                                     % (target, jump, jump_pc))
                    self.assertEqual(c["instructions"], insns)
                    if "timing.model=24k" not in mode:  # the listings' figures are flat
                        self.assertEqual(c["cycles"], cycles)
                    self.assertIn("misaligned-fetch", r.text("summary.txt"))


class DeviceFaultCost(unittest.TestCase):
    """A device access that faults (bus error, NI misuse) does not complete:
    like an unmapped access it costs no cycles, and the samples stay
    floor(cycles / period). Figures from the fixtures' listings."""

    CASES = {"t_f_busbyte": ("bus-error", 0x80000010, 4, 4),
             "t_f_nisend": ("ni-misuse", 0x80000018, 4, 9)}

    def test_faulting_access_not_charged(self):
        for name, (kind, pc, insns, cycles) in self.CASES.items():
            for endian in ("el", "eb"):
                for mmio in (4, 9):
                    with self.subTest(name=name, endian=endian, mmio=mmio):
                        r = run(["--max-cycles", "1000000", "--sample-period", "1,2",
                                 "--set", "timing.mmio=%d" % mmio] + ONE_CORE
                                + [nptest.fixture(name, endian)], timeout=20)
                        self.assertEqual(r.rc, 3, r.describe())
                        c = r.core(0)
                        self.assertEqual(c["fault"]["kind"], kind)
                        self.assertEqual(c["fault"]["pc"], pc)
                        self.assertEqual(c["instructions"], insns)
                        want = cycles + (mmio - 4 if name == "t_f_nisend" else 0)
                        self.assertEqual(c["cycles"], want)
                        for period in ("1", "2"):
                            total = sum(f["samples"].get(period, 0) for f in c["functions"])
                            self.assertEqual(total, want // int(period), period)


class DeviceMisuseMessages(unittest.TestCase):
    """Issue 20.9: misuse of a register's direction says so (not "undefined
    offset"), a jump into a device window gets nocprof's own fault (not
    Unicorn's UC_ERR_FETCH_PROT text), and a faulted core's exit column in
    summary.txt is `-`, not 0. PCs and counts from the fixtures' listings."""

    CASES = {"t_f_rowrite": ("bus-error", 0x80000004, 1,
                             "write to read-only register SYS CYCLE_LO (offset 0x010, pc 0x80000004)"),
             "t_f_woread": ("bus-error", 0x80000004, 1,
                            "read of write-only register TIMER ACK (offset 0x00c, pc 0x80000004)"),
             # lui, jr, nop ran; the fetch at the target faults
             "t_f_jrmmio": ("bus-error", 0xBF000000, 3,
                            "instruction fetch from device address 0xbf000000 (the MMIO windows hold "
                            "registers, not code)")}

    def test_messages_and_exit_column(self):
        for name, (kind, pc, insns, msg) in self.CASES.items():
            for endian in ("el", "eb"):
                with self.subTest(name=name, endian=endian):
                    r = run(["--max-cycles", "100000"] + ONE_CORE + [nptest.fixture(name, endian)], timeout=20)
                    self.assertEqual(r.rc, 3, r.describe())
                    c = r.core(0)
                    self.assertEqual((c["fault"]["kind"], c["fault"]["pc"]), (kind, pc))
                    self.assertEqual(c["fault"]["message"].split("\n")[0], msg)   # a register dump follows
                    self.assertEqual(c["instructions"], insns)
                    text = r.text("summary.txt")
                    self.assertNotIn("UC_ERR", text)
                    row = re.search(r"^0\s+(\S+)\s+(\S+)\s+(\d+)", text, re.M)
                    self.assertEqual((row.group(1), row.group(2), int(row.group(3))), ("fault", "-", insns))


def gmon_bins(path, big):
    """{pc: samples} of a gmon.out's histogram records."""
    import struct
    data = open(path, "rb").read()
    e = ">" if big else "<"
    pos, bins = 20, {}
    while pos < len(data) and data[pos] == 0:
        lo, hi, n = struct.unpack_from(e + "III", data, pos + 1)
        pos += 1 + 16 + 16
        for i in range(n):
            v = struct.unpack_from(e + "H", data, pos + 2 * i)[0]
            if v:
                bins[lo + 4 * i] = bins.get(lo + 4 * i, 0) + v
        pos += 2 * n
    return bins


class Jalx(unittest.TestCase):
    def test_jalx_is_reserved(self):
        """jalx (to MIPS16e code) at 0x80000004 after one lui: a MIPS32 core
        without MIPS16e takes a reserved instruction there; 1 instruction,
        1 cycle (t_f_jalx.S)."""
        for endian in ("el", "eb"):
            r = run(["--max-cycles", "100000"] + ONE_CORE + [nptest.fixture("t_f_jalx", endian)], timeout=20)
            self.assertEqual(r.rc, 3, r.describe())
            c = r.core(0)
            self.assertEqual((c["fault"]["kind"], c["fault"]["pc"]), ("reserved-instruction", 0x80000004))
            self.assertEqual(c["fault"]["message"].split("\n")[0], "reserved instruction 0x74000005 at pc 0x80000004 "
                                                                  "(jalx: MIPS16e code is not supported)")
            self.assertEqual((c["cycles"], c["instructions"]), (1, 1))


class ExactLimit(unittest.TestCase):
    """--max-cycles is exact (docs/robustness.md): an instruction runs only
    when it completes by the limit, a branch and its delay slot both or
    neither, a taken branch's extra cycle up to the limit; samples =
    floor(cycles / period). Figures by hand from t_limit.S's listing:
    limit -> (cycles, instructions)."""

    CASES = {20: (3, 2),        # div would end at 21
             21: (21, 3),       # div ends exactly at the limit
             28: (27, 6),       # bne ends at 28 but its delay slot at 29
             29: (29, 8),       # block A whole, the taken branch's cycle cut
             30: (30, 8),
             42: (41, 16),      # b . ends at 42, its nop at 43: neither
             43: (43, 18),
             999: (998, 654),   # 320th `b .` iteration would end at 1000
             1000: (1000, 656)}

    def test_exact_limits(self):
        for endian in ("el", "eb"):
            for limit, (cycles, insns) in self.CASES.items():
                with self.subTest(endian=endian, limit=limit):
                    r = run(["--max-cycles", str(limit), "--sample-period", "7,10"] + ONE_CORE
                            + [nptest.fixture("t_limit", endian)], timeout=20)
                    self.assertEqual(r.rc, 4, r.describe())
                    c = r.core(0)
                    self.assertEqual(c["status"], "limit")
                    self.assertEqual((c["cycles"], c["instructions"]), (cycles, insns))
                    self.assertEqual(c["samples"], {"7": cycles // 7, "10": cycles // 10})
            # limit 21, period 7: samples at cycles 6, 13, 20, all inside the div
            r = run(["--max-cycles", "21", "--sample-period", "7"] + ONE_CORE
                    + [nptest.fixture("t_limit", endian)], timeout=20)
            self.assertEqual(gmon_bins(r.path("core0", "gmon.out"), endian == "eb"), {0x80000008: 3})

    def test_many_cores_never_past_the_limit(self):
        for name in ("pipeline", "comm", "spin"):
            for limit in (12345, 99999):
                r = run(["--max-cycles", str(limit), "--sample-period", "7,10", fw(name, "eb")], timeout=60)
                for c in r.summary["cores"]:
                    self.assertLessEqual(c["cycles"], limit, (name, limit, c["id"]))
                    self.assertEqual(c["samples"], {"7": c["cycles"] // 7, "10": c["cycles"] // 10},
                                     (name, limit, c["id"]))


class EndOfRun(unittest.TestCase):
    def test_deadlock_quick(self):
        r = run([fw("deadlock")], timeout=60)
        self.assertEqual(r.rc, 4, r.describe())
        self.assertLess(r.seconds, 10)
        s = r.summary
        max_cycles = s["config"]["run"]["max_cycles"]
        for c in s["cores"]:
            self.assertEqual(c["status"], "deadlock")
            self.assertLess(c["cycles"], max_cycles // 1000)
            self.assertLess(c["cycles"], 10 ** 6)
        self.assertIn("deadlock", r.stderr.lower())
        self.assertEqual(r.text("core2", "console.txt"), "deadlock: core 2 waits forever\n")

    def test_deadlock_eb(self):
        r = run([fw("deadlock", "eb")], timeout=60)
        self.assertEqual(r.rc, 4, r.describe())
        self.assertEqual({c["status"] for c in r.summary["cores"]}, {"deadlock"})

    def test_livelock(self):
        """Every core polls RX_COUNT for a packet nobody sends: after
        [run] livelock_cycles the run ends as a deadlock that says livelock
        and names the poll instruction of every core."""
        L = 200000
        for endian in ("el", "eb"):
            r = run(["--set", "run.livelock_cycles=%d" % L, fw("livelock", endian)], timeout=120)
            self.assertEqual(r.rc, 4, r.describe())
            s = r.summary
            self.assertTrue(s["deadlock"])
            self.assertTrue(s["livelock"])
            self.assertIn("livelock", r.stderr)
            # the poll: rt_recv's load of RX_COUNT (NI base + 0x10), from the disassembly
            dis = subprocess.run([nptest.tool("mipsel-linux-gnu-objdump"), "-d", fw("livelock", endian)],
                                 capture_output=True, text=True, check=True).stdout
            body = dis[dis.index("<rt_recv>:"):]
            poll = int(re.search(r"^([0-9a-f]+):\s+\S+\s+lw\s+\w+,12304\(", body, re.M).group(1), 16)
            summary_txt = r.text("summary.txt")
            self.assertIn("livelock: every live core only waited (polled an NI or spun on RAM in vain, "
                          "slept in wait, ran interrupt handlers) for %d cycles" % L, summary_txt)
            self.assertIn("waits for a packet (receive from any core), at", summary_txt)
            self.assertIn(" in wait_for_nothing (", summary_txt)
            for c in s["cores"]:
                self.assertEqual(c["status"], "deadlock")
                self.assertGreaterEqual(c["cycles"], L)
                self.assertLess(c["cycles"], L + 2000)
                self.assertIn("core %d polling at pc 0x%08x in %s\n" % (c["id"], poll, where(c["stop"])), summary_txt)
                self.assertIn(", inlined into rt_recv (", where(c["stop"]))

    def hang(self, name, endian, L=50000):
        """Run a hang fixture (issue 19.8): exit 4, a livelock found within
        L cycles of the last change (its cores' first few hundred cycles),
        and the marker line of its source as each stuck core's wait site."""
        r = run(["--set", "run.livelock_cycles=%d" % L, fw(name, endian)], timeout=60)
        self.assertEqual(r.rc, 4, r.describe())
        s = r.summary
        self.assertTrue(s["deadlock"])
        self.assertTrue(s["livelock"])
        self.assertGreaterEqual(s["end_cycle"], L)
        self.assertLess(s["end_cycle"], L + 2000)
        marker = "HANG_%s_WAIT" % name[len("hang_"):].upper()
        with open(nptest.src("firmware", "tests", name + ".c")) as f:
            line = [i + 1 for i, t in enumerate(f) if marker in t][0]
        return r, line

    def check_wait(self, c, what, peer, function, line):
        w = c["wait"]
        self.assertEqual(c["status"], "deadlock")
        self.assertEqual((w["for"], w["peer"], w["function"], w["line"]), (what, peer, function, line))
        self.assertTrue(w["file"].endswith(".c"), w["file"])

    def test_hang_spin_on_ram(self):
        """hang_ram.c: core 0 spins on a flag in its own RAM that nothing
        sets, with no interrupt enabled (`L: lw; beqz L; nop`): a livelock
        within livelock_cycles, the spin's line named, waiting for that
        word (its address from the symbol table) to change. Before: it ran
        to the cycle limit. hang_tick.c: the same spin that a timer handler
        would end at its 100th tick (200000 cycles): a livelock too, like a
        loop of `wait`s that ticks wake; at its 5th tick (spin_tick): exit 0."""
        for endian in ("el", "eb"):
            syms = subprocess.run([nptest.tool("mipsel-linux-gnu-nm"), fw("hang_ram", endian)],
                                  capture_output=True, text=True, check=True).stdout
            flag = int(re.search(r"^([0-9a-f]+) [bBdD] flag$", syms, re.M).group(1), 16) & 0xFFFFFFFF
            dis = subprocess.run([nptest.tool("mipsel-linux-gnu-objdump"), "-d", fw("hang_ram", endian)],
                                 capture_output=True, text=True, check=True).stdout
            body = dis[dis.index("<await_flag>:"):]
            load = int(re.search(r"^([0-9a-f]+):\s+\S+\s+lw\s", body, re.M).group(1), 16)
            r, line = self.hang("hang_ram", endian)
            c = r.summary["cores"][0]
            self.check_wait(c, "memory", None, "await_flag", line)
            self.assertEqual((c["wait"]["pc"], c["stop"]["pc"]), (load, load))
            self.assertIn("the word at 0x%08x in its own RAM" % flag, c["wait"]["why"])
            summary_txt = r.text("summary.txt")
            self.assertIn("core 0 spinning at pc 0x%08x in await_flag (" % load, summary_txt)
            self.assertIn("waits for a word of RAM to change, at 0x%08x in await_flag (" % load, summary_txt)
            self.assertIn("hang_ram.c:%d)" % line, r.stderr)
            r, line = self.hang("hang_tick", endian)
            c = r.summary["cores"][0]
            self.check_wait(c, "memory", None, "await_flag", line)
            self.assertGreater(c["interrupts"], 20)  # ticks every 2000 cycles, none ended it
            r = run(["--set", "run.livelock_cycles=50000", fw("spin_tick", endian)], timeout=60)
            self.assertEqual(r.rc, 0, r.describe())
            self.assertEqual(r.text(os.path.join("core0", "console.txt")), "hang_tick: flag after 5 ticks\n")

    def test_hang_spin_loop_that_does_more(self):
        """hang_loop.c: core 0 spins on a flag in its own RAM that nothing
        sets, in a loop that does more than load it: 0 counts in a register
        (`while (flag == 0) n++;`), 1 loads and stores a counter in RAM, 2
        loads two words, 5 is two blocks (`while (flag == 0 && flag2 ==
        0)`). A livelock within livelock_cycles (exit 4), waiting for the
        first word the loop tests (named, its address from the symbol
        table) at the loop's line. Before: each ran to the cycle limit
        (exit 4, "reached the cycle limit", after 10^10 cycles). 3 reads an
        NI status register too: a wait for a packet (found before too). 4
        (`while (seen < 200000) seen++;`) writes the word it tests: it
        ends by itself, no hang."""
        L = 50000
        for endian in ("el", "eb"):
            with open(nptest.src("firmware", "tests", "hang_loop.c")) as f:
                marks = [i + 1 for i, t in enumerate(f) if "HANG_LOOP_WAIT" in t]
            line = dict(zip((0, 1, 2, 3, 5, 4), marks))  # the variants' order in the file
            for k in (0, 1, 2, 3, 5):
                elf = fw("hang_loop%d" % k, endian)
                syms = subprocess.run([nptest.tool("mipsel-linux-gnu-nm"), elf],
                                      capture_output=True, text=True, check=True).stdout
                addr = {v: int(re.search(r"^([0-9a-f]+) [bBdD] %s$" % v, syms, re.M).group(1), 16) & 0xFFFFFFFF
                        for v in ("flag", "flag2")}
                dis = subprocess.run([nptest.tool("mipsel-linux-gnu-objdump"), "-d", elf],
                                     capture_output=True, text=True, check=True).stdout
                body = dis[dis.index("<await_flag>:"):]
                body = body[:body.index("\n\n")]
                # the loads of flag and flag2 (objdump): the loop's first
                # (0, 1 test flag once ahead of the loop)
                loads = [(int(a, 16), v) for a, off in
                         re.findall(r"^([0-9a-f]+):\s+\S+\s+lw\s+\w+,(-?\d+)\(\w+\)", body, re.M)
                         for v in addr if (int(off) & 0xFFFF) == (addr[v] & 0xFFFF)]
                load, var = loads[1] if k in (0, 1) else loads[0]
                r = run(["--set", "run.livelock_cycles=%d" % L, elf], timeout=60)
                self.assertEqual(r.rc, 4, r.describe())
                s = r.summary
                self.assertTrue(s["livelock"], "hang_loop%d: %s" % (k, r.describe()))
                self.assertGreaterEqual(s["end_cycle"], L)
                self.assertLess(s["end_cycle"], L + 2000)
                c = s["cores"][0]
                self.check_wait(c, "receive" if k == 3 else "memory", None, "await_flag", line[k])
                if k == 3:
                    continue
                self.assertEqual(c["wait"]["pc"], load, "hang_loop%d" % k)
                self.assertIn("the word at 0x%08x in its own RAM (%s), which nothing in the loop writes"
                              % (addr[var], var), c["wait"]["why"])
                txt = r.text("summary.txt")
                self.assertIn("waits for a word of RAM to change, at 0x%08x in await_flag (" % load, txt)
                self.assertIn("hang_loop.c:%d)" % line[k], r.stderr)
            r = run(["--set", "run.livelock_cycles=%d" % L, fw("hang_loop4", endian)], timeout=60)
            self.assertEqual(r.rc, 1, r.describe())
            self.assertEqual(r.text("core0", "console.txt"), "hang_loop: flag 0 after 200000, 0 ticks\n")

    def test_hang_kept_busy_by_interrupts(self):
        """19.8 a: cores 0 and 1 wait in rt_recv for each other while a
        periodic timer interrupt runs on both (ran to 10^10 cycles before)."""
        for endian in ("el", "eb"):
            r, line = self.hang("hang_irq", endian)
            s = r.summary
            elf = fw("hang_irq", endian)
            syms = nptest.symbols(elf, endian)
            for c in s["cores"][:2]:
                self.check_wait(c, "receive", None, "exchange", line)
                self.assertGreaterEqual(c["interrupts"], 9)  # period 5000 over 50000 cycles
                # its call stack where it stopped: rt_recv (maybe under the
                # timer's handler, at EPC), exchange at the marker, main at
                # its call (addr2line)
                fr = c["stop"]["frames"]
                names = [x["function"] for x in fr if not x["inlined"]]
                self.assertEqual(names[-3:], ["rt_recv", "exchange", "main"], fr)
                recv, exch, main = [x for x in fr if not x["inlined"]][-3:]
                lo, size = syms["rt_recv"]
                self.assertTrue(lo <= recv["pc"] < lo + size, recv)
                self.assertEqual((exch["pc"], exch["line"]), (c["wait"]["pc"], line))
                self.assertEqual((os.path.basename(main["file"]), main["line"]), addr2line(elf, main["pc"], endian))
                if "_irq_vector" in names:   # stopped in the handler: the interrupted rt_recv at EPC
                    self.assertEqual(names[names.index("_irq_vector") + 1], "rt_recv", names)
            for c in s["cores"][2:]:
                self.assertEqual((c["status"], c["wait"]), ("exited", None))
            self.assertEqual(s["wait_cycle"], [0, 1])
            txt = r.text("summary.txt")
            self.assertIn("wait-for cycle: core 0 -> core 1 -> core 0", txt)
            self.assertIn("in exchange (", txt)
            self.assertIn("hang_irq.c:%d)" % line, r.stderr)

    def test_lost_interrupt_says_why(self):
        """hang_lostirq.c: a core sleeps for a TIMER interrupt whose IRQC
        line it never enabled, another with every source off: a deadlock,
        and the report says why neither wakes (the firmware's own setup:
        core 0 started the one-shot TIMER with CTRL.IRQ, ENABLE stays 0;
        core 1 stopped everything)."""
        with open(nptest.src("firmware", "tests", "hang_lostirq.c")) as f:
            line = [i + 1 for i, t in enumerate(f) if "the waiting line" in t][0]
        for endian in ("el", "eb"):
            r = run([fw("hang_lostirq", endian)], timeout=60)
            self.assertEqual(r.rc, 4, r.describe())
            s = r.summary
            self.assertTrue(s["deadlock"])
            c0, c1 = s["cores"][0], s["cores"][1]
            for c in (c0, c1):
                self.check_wait(c, "interrupt", None, "sleep_until_tick", line)
            # found at once: the timer still runs (nothing it raises can wake the core)
            self.assertRegex(c0["wait"]["why"], r"^IRQC ENABLE 0x0, PENDING 0x[04]\b.*; TIMER runs, next expiry at "
                             r"cycle (\d+); Status.IM7 0 \(CP0 timer\): the TIMER raises its line at cycle \1 but "
                             r"the timer line is not enabled in IRQC ENABLE, so it will wake nothing \(a lost interrupt")
            self.assertRegex(c1["wait"]["why"], r"^IRQC ENABLE 0x0, PENDING 0x[04]\b.*TIMER stopped; "
                             r"Status.IM7 0 \(CP0 timer\): no interrupt source is enabled")
            txt = r.text("summary.txt")
            self.assertIn("    " + c0["wait"]["why"] + "\n", txt)
            self.assertIn(c1["wait"]["why"], r.stderr)

    def test_hang_behind_an_exited_core(self):
        """19.8 b: senders spin on TX_STATUS behind a full network toward a
        core that exited (ran to the cycle limit before: the check gave up
        while flits were in flight)."""
        r, line = self.hang("hang_exited", "el")
        s = r.summary
        self.assertEqual(s["cores"][1]["status"], "exited")
        for i in (0, 2, 3):
            self.check_wait(s["cores"][i], "transmit", 1, "flood", line)
        self.assertEqual(s["wait_cycle"], [])
        self.assertIn("waits for transmit room toward core 1, which has stopped: exited", r.text("summary.txt"))

    def test_hang_in_the_firmwares_own_poll_loop(self):
        """SPEC 1: the waiting site is the firmware's line. hang_own polls
        RX_COUNT in its own await_packet() through the header's inline
        rt_mmio_read: the site is that loop's line (the poll's pc), not
        nocprof.h's, nor main's call (before: 'at ... in main
        (hang_own.c:26)', await_packet taken for a runtime function since
        its first line is the inlined read's)."""
        for endian in ("el", "eb"):
            r, line = self.hang("hang_own", endian)
            s = r.summary
            for c in s["cores"][:2]:
                self.check_wait(c, "receive", None, "await_packet", line)
                self.assertEqual(c["wait"]["pc"], c["stop"]["pc"])
                self.assertTrue(c["wait"]["file"].endswith("hang_own.c"), c["wait"])
            self.assertIn("at 0x%08x in await_packet (" % s["cores"][0]["stop"]["pc"], r.text("summary.txt"))

    def test_hang_asleep_and_polling(self):
        """SPEC 1: a mix of one core asleep in `wait` (only the NoC receive
        interrupt enabled, no timer) and one polling in rt_recv. Both wait
        for a packet (docs/design.md: a core asleep with the receive line
        enabled waits for a `receive`, like rt_recv), at their own lines
        (before: core 0 said 'interrupt', a core halted asleep was always
        reported so). The same in every schedule."""
        for endian in ("el", "eb"):
            r, line = self.hang("hang_mixed", endian)
            s = r.summary
            with open(nptest.src("firmware", "tests", "hang_mixed.c")) as f:
                poll = [i + 1 for i, t in enumerate(f) if "HANG_MIXED_POLL" in t][0]
            self.check_wait(s["cores"][0], "receive", None, "sleeper", line)
            self.check_wait(s["cores"][1], "receive", None, "poller", poll)
            self.assertGreater(s["cores"][0]["idle_cycles"], 49000)
            self.assertEqual(s["wait_cycle"], [0, 1])
            # what each does: asleep in `wait`, polling (before: both
            # "polling at", core 0 never polled)
            self.assertEqual([c["wait"]["asleep"] for c in s["cores"][:2]], [True, False])
            stop = [c["stop"]["pc"] for c in s["cores"][:2]]
            txt = r.text("summary.txt")
            self.assertIn("  core 0 asleep in wait for a packet at pc 0x%08x in rt_wait (" % stop[0], txt)
            self.assertIn("  core 1 polling at pc 0x%08x in " % stop[1], txt)
            self.assertIn("core 0 asleep in wait for a packet at pc 0x%08x" % stop[0], r.stderr)
            for q, t in [(37, 2), (100000, 2)]:
                r2 = run(["--set", "run.livelock_cycles=50000", "--set", "sched.quantum=%d" % q,
                          "--threads", str(t), fw("hang_mixed", endian)], timeout=60)
                self.assertEqual(r2.summary["cores"], s["cores"])

    def test_hang_flooding_one_core(self):
        """19.8 c: every core floods core 0, which floods itself, and nobody
        receives (ran over 300 s before)."""
        for endian in ("el", "eb"):
            r, line = self.hang("hang_flood", endian)
            s = r.summary
            for c in s["cores"]:
                self.check_wait(c, "transmit", 0, "flood", line)
            self.assertEqual(s["wait_cycle"], [0])
            self.assertIn("wait-for cycle: core 0 -> core 0", r.text("summary.txt"))

    def test_hang_asleep_in_wait(self):
        """19: cores 0 and 1 sleep in `wait` for each other's packet while a
        periodic timer wakes them every 2000 cycles (ran to the cycle limit
        before: a core in `wait` that its own timer would wake was never
        stuck). Each is named at its wait loop in await_peer, not rt_wait."""
        for endian in ("el", "eb"):
            r, line = self.hang("hang_wait", endian)
            s = r.summary
            for c in s["cores"][:2]:
                self.check_wait(c, "receive", None, "await_peer", line)
                self.assertGreaterEqual(c["interrupts"], 24)  # period 2000 over 50000 cycles
                self.assertGreater(c["idle_cycles"], 40000)    # asleep, not polling
            for c in s["cores"][2:]:
                self.assertEqual((c["status"], c["wait"]), ("exited", None))
            self.assertEqual(s["wait_cycle"], [0, 1])
            self.assertIn("wait-for cycle: core 0 -> core 1 -> core 0", r.text("summary.txt"))
            self.assertIn("hang_wait.c:%d)" % line, r.stderr)

    def test_hang_asleep_under_cp0_timer(self):
        """19: every core sleeps in `wait` for a flag nobody sets under a CP0
        Compare heartbeat, touching neither NoC nor IRQC (no sync point at
        all: found at the waits, wakes and due cycles; ran to the cycle
        limit before)."""
        for endian in ("el", "eb"):
            r, line = self.hang("hang_cp0", endian)
            s = r.summary
            for c in s["cores"]:
                self.check_wait(c, "interrupt", None, "sleep_until_ready", line)
                self.assertGreaterEqual(c["interrupts"], 16)  # every 3000 cycles over 50000
            self.assertEqual(s["wait_cycle"], [])
            self.assertIn("waits for an interrupt, at", r.text("summary.txt"))

    def test_wait_with_heartbeat_that_ends(self):
        """19: a heartbeat sleep that gets its event (core 1 sends after 10
        ticks of 2000 cycles) is no hang; with livelock_cycles below those
        ~20000 cycles it is one (the rule's limit), found at L + the first
        ~200 cycles."""
        for endian in ("el", "eb"):
            r = run(["--set", "run.livelock_cycles=50000", fw("wait_beat", endian)], timeout=60)
            self.assertEqual(r.rc, 0, r.describe())
            self.assertFalse(r.summary["livelock"])
            self.assertEqual(r.text("core0", "console.txt"), "wait_beat: core 0 msg 0xbeef after 10 ticks\n")
            for c in r.summary["cores"][:2]:
                self.assertGreater(c["cycles"], 20000)
                self.assertLess(c["cycles"], 23000)
            r = run(["--set", "run.livelock_cycles=10000", fw("wait_beat", endian)], timeout=60)
            self.assertEqual(r.rc, 4, r.describe())
            self.assertTrue(r.summary["livelock"])
            self.assertGreaterEqual(r.summary["end_cycle"], 10000)
            self.assertLess(r.summary["end_cycle"], 11000)

    def test_result_sent_late_then_exit_is_no_hang(self):
        """SPEC 1: real progress is never a livelock. late_send: cores 1
        and 3 compute for about 140000 cycles (past livelock_cycles 50000),
        send the result and exit at once (core 3 after one `wait` for a
        timer tick, computing under its interrupts); cores 0 and 2 poll in
        rt_recv. Before: the packet reached the receive queue of a core
        whose sender had exited, the network was empty, and the arrival's
        wake found every live core stuck: exit 4 naming rt_recv, the packet
        never read. Every schedule gives the same files."""
        for endian in ("el", "eb"):
            base = None
            for q, t in [(1, 1), (37, 2), (100000, 2)]:
                r = run(["--set", "run.livelock_cycles=50000", "--set", "sched.quantum=%d" % q,
                         "--threads", str(t), fw("late_send", endian)], timeout=60)
                self.assertEqual(r.rc, 0, r.describe())
                self.assertFalse(r.summary["livelock"])
                for c in r.summary["cores"]:
                    self.assertEqual((c["status"], c["exit_code"]), ("exited", 0), c["id"])
                for c in r.summary["cores"][:4]:
                    self.assertGreater(c["cycles"], 100000)
                got = json.dumps(r.summary["cores"], sort_keys=True)
                if base is None:
                    base = got
                self.assertEqual(got, base, "quantum %d, %d threads" % (q, t))

    def test_sleep_past_the_limit_is_no_hang(self):
        """One long sleep is no hang, also when the cycle limit ends it
        (docs/design.md "Endings"). sleep_send: core 0 sleeps 300000 cycles
        on a one-shot TIMER, then sends; core 1 polls in rt_recv. Limit
        400000: every core exits 0. Limit 200000: the run ends at the limit
        (both cores `limit`, no livelock), in every schedule. Before: core 0,
        stopped at the limit asleep, was left out of the check and core 1
        alone was a livelock at about 50100."""
        for endian in ("el", "eb"):
            r = run(["--set", "run.livelock_cycles=50000", "--max-cycles", "400000", fw("sleep_send", endian)],
                    timeout=60)
            self.assertEqual(r.rc, 0, r.describe())
            base = None
            for q, t in [(1, 1), (37, 2), (100000, 2)]:
                r = run(["--set", "run.livelock_cycles=50000", "--max-cycles", "200000", "--set",
                         "sched.quantum=%d" % q, "--threads", str(t), fw("sleep_send", endian)], timeout=60)
                self.assertEqual(r.rc, 4, r.describe())
                s = r.summary
                self.assertFalse(s["livelock"])
                self.assertFalse(s["deadlock"])
                self.assertEqual([c["status"] for c in s["cores"][:2]], ["limit", "limit"])
                self.assertEqual(s["cores"][0]["cycles"], 200000)
                self.assertGreater(s["cores"][1]["cycles"], 199900)
                if base is None:
                    base = s["cores"]
                self.assertEqual(s["cores"], base, "quantum %d, %d threads" % (q, t))

    def test_packet_on_its_way_is_no_hang(self):
        """SPEC 1: a livelock needs nothing in flight. hang_slownoc on a 4x1
        mesh with router and link latencies of 1000 and livelock_cycles
        500: core 3's packet takes 7001 cycles to core 0, which gets it
        ('got 0x51') and then hangs in its second rt_recv, found 500 cycles
        after the packet's arrival, in every schedule. Before: a livelock
        at cycle 610 in the first rt_recv, the packet still on its way."""
        L = 500
        for endian in ("el", "eb"):
            base = None
            for q, t in [(1, 1), (37, 2), (100000, 2)]:
                r = run(["--set", "mesh.width=4", "--set", "mesh.height=1", "--set", "noc.router_latency=1000",
                         "--set", "noc.link_latency=1000", "--set", "run.livelock_cycles=%d" % L,
                         "--set", "sched.quantum=%d" % q, "--threads", str(t), fw("hang_slownoc", endian)],
                        timeout=60)
                self.assertEqual(r.rc, 4, r.describe())
                s = r.summary
                self.assertTrue(s["livelock"])
                self.assertEqual(r.text("core0", "console.txt"), "got 0x51\n")
                lat = s["noc"]["latency"]["max"]
                self.assertGreater(lat, 10 * L)
                self.assertGreater(s["end_cycle"], lat + L)
                self.assertLess(s["end_cycle"], lat + L + 2000)
                with open(nptest.src("firmware", "tests", "hang_slownoc.c")) as f:
                    line = [i + 1 for i, t in enumerate(f) if "HANG_SLOWNOC_WAIT" in t][0]
                self.check_wait(s["cores"][0], "receive", None, "main", line)
                if base is None:
                    base = s["cores"]
                self.assertEqual(s["cores"], base, "quantum %d, %d threads" % (q, t))

    def test_fault_and_hang_says_fault(self):
        """SPEC 4: of 3 and 4, 3 wins. hang_fault: core 0 faults (NULL
        read) before sending, core 1 waits in rt_recv for ever. Status 3;
        summary.txt's status line names the fault (before: 'exit status: 3
        (livelock: every live core only waited)'), the livelock block
        follows; `nocprof report` renders the same."""
        r = run(["--set", "run.livelock_cycles=5000", fw("hang_fault")], timeout=60)
        self.assertEqual(r.rc, 3, r.describe())
        s = r.summary
        self.assertTrue(s["livelock"])
        self.assertEqual([c["status"] for c in s["cores"][:2]], ["fault", "deadlock"])
        text = r.text("summary.txt")
        self.assertRegex(text, r"exit status: 3 \(core 0 faulted: unmapped-read in [^\n]*; then livelock: "
                               r"every live core only waited\)\n")
        self.assertIn("\nlivelock: every live core only waited", text)
        self.assertIn("  core 1 polling at pc", text)
        rep = nptest.raw(["report", r.out])
        self.assertEqual(rep.returncode, 0, rep.stderr)
        self.assertEqual(r.text("summary.txt"), text)

    def test_heartbeat_that_prints_is_no_hang(self):
        """19: console output is progress (the outside sees it): a core that
        sleeps in `wait` under a 2000-cycle heartbeat and prints a line per
        tick for 40 ticks ends normally with livelock_cycles 10000."""
        for endian in ("el", "eb"):
            r = run(["--set", "run.livelock_cycles=10000", fw("wait_print", endian)], timeout=60)
            self.assertEqual(r.rc, 0, r.describe())
            self.assertEqual(r.text("core0", "console.txt"), "".join("tick %d\n" % i for i in range(1, 41)))
            self.assertGreater(r.summary["cores"][0]["cycles"], 80000)

    def test_headline_names_the_fault(self):
        """summary.txt's `exit status:` line names what ended the run first:
        core 1's fault (kind, function, line as summary.json has them),
        then the livelock core 2 was left in, waiting for core 1's packet
        (before: `exit status: 3 (livelock: every live core only waited)`,
        the consequence instead of the cause). A core's non-zero exit and a
        core at the cycle limit are named the same way."""
        for endian in ("el", "eb"):
            r = run([fw("fault_one", endian), "--set", "run.livelock_cycles=50000"])
            self.assertEqual(r.rc, 3, r.describe())
            f = r.core(1)["fault"]
            self.assertEqual((f["kind"], f["function"]), ("unmapped-write", "publish"))
            self.assertIn("exit status: 3 (core 1 faulted: unmapped-write in publish (%s:%d); then livelock: "
                          "every live core only waited)\n" % (f["file"], f["line"]), r.text("summary.txt"))
        r = run([fw("exitcode")])
        self.assertEqual(r.rc, 1, r.describe())
        first = min(c["id"] for c in r.summary["cores"] if c["exit_code"])
        self.assertIn("exit status: 1 (core %d exited with %d)\n" % (first, r.core(first)["exit_code"]),
                      r.text("summary.txt"))
        r = run([fw("spin"), "--max-cycles", "20000"] + nptest.ONE_CORE)
        self.assertEqual(r.rc, 4, r.describe())
        stop = r.core(0)["stop"]
        self.assertIn("exit status: 4 (core 0 reached the cycle limit in %s)\n" % where(stop), r.text("summary.txt"))

    def test_runaway_recursion_is_a_stack_overflow(self):
        """19.10: runaway recursion stops at the prologue that takes $sp
        below __nocprof_stack_limit (the SDK's link.ld: end of .bss), its
        stack folded (`runaway xN <- main`), every core's lowest $sp
        recorded. Hand-computed from the disassembly: $sp at reset
        0x800ffff0, main's frame M, runaway's frame F: the fault is in the
        N-th runaway with 0x800ffff0 - M - N*F < limit (before: the stack ate
        .bss, .data and .text unnoticed)."""
        for endian in ("el", "eb"):
            elf = fw("runaway", endian)
            pre = "mipsel-linux-gnu-" if endian == "el" else "mips-linux-gnu-"
            dis = subprocess.run([nptest.tool(pre + "objdump"), "-d", elf], capture_output=True, text=True,
                                 check=True).stdout
            def frame(fn):
                body = dis[dis.index("<%s>:" % fn):]
                body = body.split("\n\n")[0]
                m = re.search(r"^\s*([0-9a-f]+):\s+\S+\s+addiu\s+sp,sp,-(\d+)$", body, re.M)
                return int(m.group(1), 16), int(m.group(2))
            nm = subprocess.run([nptest.tool(pre + "nm"), elf], capture_output=True, text=True, check=True).stdout
            limit = int(re.search(r"^([0-9a-f]+) A __nocprof_stack_limit$", nm, re.M).group(1), 16) & 0xFFFFFFFF
            prologue, F = frame("runaway")
            _, M = frame("main")
            top = 0x800ffff0
            s0 = top - M
            n = (s0 - limit) // F + 1
            lowest = s0 - n * F
            self.assertLess(lowest, limit)
            r = run([elf], timeout=60)
            self.assertEqual(r.rc, 3, r.describe())
            c = r.core(0)
            f = c["fault"]
            self.assertEqual(c["status"], "fault")
            self.assertEqual((f["kind"], f["pc"], f["function"]), ("stack-overflow", prologue, "runaway"))
            self.assertEqual(f["stack"], ["runaway x%d" % n, "main"])
            # frames: the prologue, then n - 1 times runaway's own call to
            # itself and main's call to it (`jal <runaway>`, objdump)
            calls = re.findall(r"^\s*([0-9a-f]+):\s+\S+\s+jal\s+%x <runaway>$" % prologue, dis, re.M)
            syms = nptest.symbols(elf, endian)
            site = {fn: int(a, 16) for a in calls for fn in ("runaway", "main")
                    if syms[fn][0] <= int(a, 16) < syms[fn][0] + syms[fn][1]}
            self.assertEqual([(x["function"], x["pc"], x["repeat"]) for x in f["frames"]],
                             [("runaway", prologue, 1), ("runaway", site["runaway"], n - 1), ("main", site["main"], 1)])
            self.assertIn("    #1-%d " % (n - 1), r.text("summary.txt"))
            self.assertEqual(c["stack"], {"lowest_sp": lowest, "bytes_used": top - lowest})
            # core 2: ping (frame A) -> pong (B) -> ping ...: the first
            # prologue to cross, and the stack folded by period two
            (ping, A), (pong, B) = frame("ping"), frame("pong")
            sp, frames = s0, []
            while True:
                fn, pc, size = ("ping", ping, A) if len(frames) % 2 == 0 else ("pong", pong, B)
                frames.insert(0, fn)
                sp -= size
                if sp < limit:
                    break
            k = len(frames) // 2
            want = ["(pong <- ping) x%d" % k] if fn == "pong" else ["(ping <- pong) x%d" % k, "ping"]
            c2 = r.core(2)
            self.assertEqual((c2["fault"]["kind"], c2["fault"]["pc"]), ("stack-overflow", pc))
            self.assertEqual(c2["fault"]["stack"], want + ["main"])
            self.assertEqual(c2["stack"]["lowest_sp"], sp)
            for i in (1, 3):
                c = r.core(i)
                self.assertEqual(c["status"], "exited")
                self.assertEqual(c["stack"], {"lowest_sp": s0, "bytes_used": M})  # main's frame
            txt = r.text("summary.txt")
            self.assertIn("call stack (innermost first): runaway x%d <- main" % n, txt)
            self.assertIn("stack: core 0 lowest $sp 0x%08x, %d bytes below the initial $sp" % (lowest, top - lowest),
                          txt)
            self.assertLess(len(txt), 8192)

    def test_livelock_off(self):
        r = run(["--set", "run.livelock_cycles=0", "--max-cycles", "300000", fw("livelock")], timeout=120)
        self.assertEqual(r.rc, 4, r.describe())
        self.assertFalse(r.summary["livelock"])
        self.assertEqual({c["status"] for c in r.summary["cores"]}, {"limit"})

    def test_spin_limit(self):
        for mc in (300000, 1234567):
            r = run(["--max-cycles", str(mc), fw("spin")])
            self.assertEqual(r.rc, 4, r.describe())
            for c in r.summary["cores"]:
                self.assertEqual(c["status"], "limit")
                self.assertGreaterEqual(c["cycles"], mc)
                self.assertLess(c["cycles"], mc + 1000)
                self.assertEqual(c["idle_cycles"], 0)
                fn = nptest.functions(c)
                # nearly all cycles in spin_forever and rt_rx_count
                self.assertGreater(fn["spin_forever"]["inclusive_cycles"], 0.95 * c["cycles"])
                # where it stopped and its stack: in the poll loop, called
                # from main (spin_forever's call: addr2line of its pc)
                st = c["stop"]
                names = [x["function"] for x in st["frames"] if not x["inlined"]]
                self.assertEqual(names[-2:], ["spin_forever", "main"], st)
                self.assertIn(st["function"], ("spin_forever", "rt_rx_count"), st)
                self.assertEqual(st["pc"], st["frames"][0]["pc"])
                main = st["frames"][-1]
                self.assertEqual((os.path.basename(main["file"]), main["line"]),
                                 addr2line(fw("spin"), main["pc"]), main)
                self.assertIn("core %d stopped at the limit at pc 0x%08x in %s, called from %s"
                              % (c["id"], st["pc"], where(st),
                                 "spin_forever (" if st["function"] == "rt_rx_count" else "main ("),
                              r.text("summary.txt"))
                self.assertIn("core %d: cycle limit (%d) reached at pc 0x%08x in %s\n" % (c["id"], mc, st["pc"],
                                                                                          where(st)), r.stderr)
            self.assertEqual(r.summary["config"]["run"]["max_cycles"], mc)
            self.assertRegex(r.stderr, r"limit")

    def test_limit_while_others_wait(self):
        """t_spin_wait: core 0 spins until the cycle limit, the others sleep
        in `wait` (only core 0 could have woken them): a cycle limit, not a
        deadlock. Flat: core 0 runs 8 cycles, then 3 per `b .` (the last
        taken branch's extra cycle cut at N), so it stops at N, or at
        N - 1 when (N - 8) % 3 == 1 (N = 100002). Before: "deadlock": true
        with every core `limit`, and at N = 100002 the sleepers `deadlock`
        at 100001."""
        for endian in ("el", "eb"):
            for n in (100000, 100001, 100002):
                with self.subTest(endian=endian, n=n):
                    r = run(["--max-cycles", str(n), nptest.fixture("t_spin_wait", endian)])
                    self.assertEqual(r.rc, 4, r.describe())
                    s = r.summary
                    self.assertFalse(s["deadlock"])
                    self.assertFalse(s["livelock"])
                    self.assertNotIn("end_cycle", s)
                    cores = s["cores"]
                    self.assertEqual([c["status"] for c in cores], ["limit"] * 4)
                    self.assertEqual(cores[0]["cycles"], n - ((n - 8) % 3 == 1))
                    for c in cores[1:]:
                        self.assertEqual((c["cycles"], c["idle_cycles"]), (n, n - 10))
                    self.assertNotIn("deadlock", r.text("summary.txt"))

    def test_limit_from_set(self):
        r = run(["--set", "run.max_cycles=250000", fw("spin")])
        self.assertEqual(r.rc, 4, r.describe())
        self.assertTrue(all(250000 <= c["cycles"] < 251000 for c in r.summary["cores"]))

    def test_ticks_not_deadlock(self):
        # waiting cores with a running timer are not deadlocked
        r = run([fw("ticks")])
        self.assertEqual(r.rc, 0)
        self.assertFalse(r.summary.get("deadlock", False))


class UsageErrors(unittest.TestCase):
    """Status 2: nothing ran, no summary written."""

    def expect_2(self, args, *needles):
        out = nptest.tmpdir("usage")
        r = run(args, out=os.path.join(out, "o"))
        self.assertEqual(r.rc, 2, r.describe())
        self.assertFalse(os.path.exists(r.path("summary.json")), "summary.json written for status 2")
        self.assertFalse(os.path.exists(r.path("summary.txt")))
        for n in needles:
            self.assertIn(n, r.stderr, "stderr does not mention %r:\n%s" % (n, r.stderr))
        return r

    def write(self, name, text):
        d = nptest.tmpdir("cfg")
        p = os.path.join(d, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def test_unknown_set_key(self):
        self.expect_2(["--set", "timing.warp=3", fw("exitcode")], "timing.warp")
        self.expect_2(["--set", "nosuch.key=3", fw("exitcode")], "nosuch")
        self.expect_2(["--set", "timing.load=fast", fw("exitcode")], "timing", "load")
        self.expect_2(["--set", "timing.load", fw("exitcode")], "timing.load")

    def test_typo_suggestions(self):
        # a misspelt group or key names the closest ones (configs/default.ini's names)
        for arg, want in (("timing.mull=3", "did you mean timing.mul?"), ("timng.mul=3", "did you mean timing.mul?"),
                          ("mesh.widht=3", "did you mean mesh.width?"), ("cache.enable=1", "did you mean cache.enabled?")):
            r = self.expect_2(["--set", arg, fw("exitcode")], arg.split("=")[0])
            self.assertIn(want, r.stderr)
        r = self.expect_2(["--set", "zzz.yyy=1", fw("exitcode")], "zzz.yyy")
        self.assertNotIn("did you mean", r.stderr)
        p = self.write("typokey.ini", "[mesh]\nwidht = 3\n")
        self.assertIn("[mesh] unknown key 'widht'; did you mean width?", self.expect_2(["-c", p, fw("exitcode")], p).stderr)
        p = self.write("typogroup.ini", "[meshh]\nwidth = 3\n")
        self.assertIn("unknown group [meshh]; did you mean mesh?", self.expect_2(["-c", p, fw("exitcode")], p).stderr)

    def test_bad_config_file(self):
        p = self.write("badgroup.ini", "[mesh]\nwidth = 2\n[warp]\nfactor = 9\n")
        self.expect_2(["-c", p, fw("exitcode")], p, "warp")
        p = self.write("badkey.ini", "[noc]\nbuffer_depth = 4\nwormholes = 2\n")
        self.expect_2(["-c", p, fw("exitcode")], p, "noc", "wormholes")
        p = self.write("badvalue.ini", "[timing]\ndiv = lots\n")
        self.expect_2(["-c", p, fw("exitcode")], p, "timing", "div")
        p = self.write("range.ini", "[mesh]\nwidth = 0\n")
        self.expect_2(["-c", p, fw("exitcode")], p, "mesh", "width")
        self.expect_2(["-c", "/nonexistent/x.ini", fw("exitcode")], "/nonexistent/x.ini")

    def test_impossible_combination_in_file(self):
        # tx_queue_flits below max_payload + 1: the message names file, group, key
        p = self.write("combo.ini", "[noc]\nmax_payload = 16\ntx_queue_flits = 10\n")
        self.expect_2(["-c", p, fw("exitcode")], p, "noc", "tx_queue_flits")

    def test_impossible_combination_set(self):
        self.expect_2(["--set", "noc.rx_queue_flits=8", fw("exitcode")], "rx_queue_flits")

    def test_missing_elf(self):
        self.expect_2(["/nonexistent/fw.elf"], "/nonexistent/fw.elf")

    def test_non_elf(self):
        p = self.write("notelf.elf", "this is not an ELF file\n" * 10)
        self.expect_2([p], p)
        p = self.write("empty.elf", "")
        self.expect_2([p], p)

    def test_wrong_machine(self):
        # a host (x86-64) ELF is not MIPS firmware: the message says what it is
        self.expect_2([nptest.nocprof()], nptest.nocprof(), "an x86-64 64-bit ELF file (e_machine 62), not MIPS32 "
                      "firmware (build it with nocprof-cc")
        # a 32-bit ARM build (calls-el.elf with e_machine 40)
        import struct
        data = bytearray(open(fw("calls"), "rb").read())
        struct.pack_into("<H", data, 18, 40)
        arm = os.path.join(nptest.tmpdir("arm"), "arm.elf")
        with open(arm, "wb") as f:
            f.write(data)
        self.expect_2([arm], arm, "an ARM 32-bit ELF file (e_machine 40), not MIPS32 firmware")

    def test_elf_outside_ram(self):
        elf = nptest.fixture("outside_ram")
        r = self.expect_2([elf], elf)
        self.assertRegex(r.stderr, r"(?i)segment")
        # a Linux link (0x00400000): the message says how firmware is linked
        import struct
        data = bytearray(open(fw("calls"), "rb").read())
        phoff, = struct.unpack_from("<I", data, 28)
        struct.pack_into("<II", data, phoff + 8, 0x00400000, 0x00400000)   # p_vaddr, p_paddr of PT_LOAD 0
        linux = os.path.join(nptest.tmpdir("linux"), "linux-link.elf")
        with open(linux, "wb") as f:
            f.write(data)
        r = self.expect_2([linux], linux, "vaddr 0x00400000", "firmware is linked at 0x80000000 (build it with "
                          "nocprof-cc or the SDK's link.ld, docs/firmware.md)")

    def test_misaligned_entry(self):
        """An entry point that is not a multiple of 4 (bit 0 set: MIPS16e or
        microMIPS code, which the platform has not) cannot start: an ELF
        error naming the file and the address, not a fault at pc 0."""
        import struct
        for endian, order in (("el", "<"), ("eb", ">")):
            for entry in (0x80000002, 0x80000001):
                data = bytearray(open(fw("calls", endian), "rb").read())
                struct.pack_into(order + "I", data, 24, entry)  # e_entry of ELF32
                path = os.path.join(nptest.tmpdir("entry"), "entry.elf")
                with open(path, "wb") as f:
                    f.write(data)
                self.expect_2([path], path, "0x%08x" % entry)

    def test_bad_program_header_table(self):
        """Program headers cut off by the end of the file (libelf then
        counts none: "no PT_LOAD segment" before) or of another entry size
        than Elf32_Phdr's 32 bytes (e_phentsize 7 ran before, status 0):
        an ELF error naming the table."""
        import struct
        for endian, order in (("el", "<"), ("eb", ">")):
            data = open(fw("calls", endian), "rb").read()
            phoff = struct.unpack_from(order + "I", data, 28)[0]
            bad = bytearray(data)
            struct.pack_into(order + "H", bad, 42, 7)  # e_phentsize
            for name, blob, what in (("cut", data[:phoff + 10], "1 of e_phentsize 32 bytes) do not fit in the "
                                      "file (%d bytes" % (phoff + 10)),
                                     ("entsize", bytes(bad), "1 of e_phentsize 7 bytes) do not fit")):
                with self.subTest(endian=endian, case=name):
                    path = os.path.join(nptest.tmpdir("phdr"), name + ".elf")
                    with open(path, "wb") as f:
                        f.write(blob)
                    self.expect_2([path], path + ": program headers (e_phoff %d, " % phoff, what)

    def test_no_load_segment(self):
        """Every program header PT_NULL, or none at all (e_phnum 0): an ELF
        error naming the file. Before, the overlap check sorted an empty
        segment list with qsort(NULL, 0, ...), which UBSan (the sanitizer
        build, halt_on_error) stops at as a null argument (status 1)."""
        import struct
        for endian, order in (("el", "<"), ("eb", ">")):
            data = bytearray(open(fw("calls", endian), "rb").read())
            phoff = struct.unpack_from(order + "I", data, 28)[0]
            phnum = struct.unpack_from(order + "H", data, 44)[0]
            nulled = bytearray(data)
            for i in range(phnum):
                struct.pack_into(order + "I", nulled, phoff + 32 * i, 0)   # p_type PT_NULL
            none = bytearray(data)
            struct.pack_into(order + "H", none, 44, 0)                     # e_phnum 0
            for name, blob in (("null", nulled), ("none", none)):
                with self.subTest(endian=endian, case=name):
                    path = os.path.join(nptest.tmpdir("noload"), name + ".elf")
                    with open(path, "wb") as f:
                        f.write(bytes(blob))
                    self.expect_2([path], path, "no PT_LOAD segment")

    def test_overlapping_segments(self):
        """Two PT_LOAD segments over the same RAM (the second 0x100 bytes
        into the first, or the first through kseg1): a corrupt ELF whose
        later segment silently won before (status 0); now an ELF error
        naming both. A new program header table at the end of the file:
        calls' one segment and a copy of it moved."""
        import struct
        for endian, order in (("el", "<"), ("eb", ">")):
            data = open(fw("calls", endian), "rb").read()
            phoff = struct.unpack_from(order + "I", data, 28)[0]
            ph = bytearray(data[phoff:phoff + 32])
            vaddr, memsz = struct.unpack_from(order + "I", ph, 8)[0], struct.unpack_from(order + "I", ph, 20)[0]
            for name, moved in (("inside", vaddr + 0x100), ("kseg1", vaddr | 0x20000000)):
                with self.subTest(endian=endian, case=name):
                    other = bytearray(ph)
                    struct.pack_into(order + "II", other, 8, moved, moved)
                    blob = bytearray(data) + ph + other
                    struct.pack_into(order + "I", blob, 28, len(data))      # e_phoff
                    struct.pack_into(order + "H", blob, 44, 2)              # e_phnum
                    path = os.path.join(nptest.tmpdir("overlap"), name + ".elf")
                    with open(path, "wb") as f:
                        f.write(blob)
                    self.expect_2([path], path + ": PT_LOAD segments at vaddr 0x%08x (memsz 0x%x) and 0x%08x "
                                  "(memsz 0x%x) overlap in RAM" % (vaddr, memsz, moved, memsz))

    def test_ram_smaller_than_image(self):
        elf = nptest.fixture("big_image")
        r = run([elf] + nptest.ONE_CORE)          # fits the default 1 MiB
        self.assertEqual(r.rc, 0, r.describe())
        r = self.expect_2([elf, "--set", "memory.ram_size=65536"] + nptest.ONE_CORE, elf)
        self.assertRegex(r.stderr, r"(?i)segment")

    def test_mixed_byte_orders(self):
        r = self.expect_2([fw("exitcode", "el"), "--core", "2=" + fw("exitcode", "eb")])
        self.assertRegex(r.stderr, r"(?i)endian|byte order")
        self.expect_2(["--core", "0=" + fw("exitcode", "eb"), "--core", "1=" + fw("exitcode", "el"),
                       "--core", "2=" + fw("exitcode", "el"), "--core", "3=" + fw("exitcode", "el")])

    def test_bad_core_maps_and_counts(self):
        self.expect_2(["--core", "7=" + fw("exitcode")])
        self.expect_2(["--core", "x=" + fw("exitcode")])
        self.expect_2([fw("exitcode"), fw("exitcode")])       # 2 ELFs for 4 cores
        self.expect_2(["--core", "0=" + fw("exitcode")])      # cores 1..3 have no firmware
        self.expect_2(["--bogus-option", fw("exitcode")])
        self.expect_2(["--max-cycles", "many", fw("exitcode")])
        self.expect_2(["--sample-period", "0", fw("exitcode")], "sample")
        # a core mapped twice is an error naming both files, as a config key
        # given twice is (before: the last --core 0 won, status 0); N is
        # decimal digits only (before: ' 1' and '+1' were core 1)
        self.expect_2(["--core", "0=" + fw("exitcode"), "--core", "0=" + fw("calls"), fw("exitcode")],
                      "--core 0 given twice", fw("calls"))
        self.expect_2(["--core", " 1=" + fw("exitcode"), fw("exitcode")], "--core  1=")
        self.expect_2(["--core", "+1=" + fw("exitcode"), fw("exitcode")], "--core +1=")

    def test_nul_byte_in_config(self):
        """A NUL byte inside a value ended it silently (GKeyFile): width
        '2\\0junk' was 2; now an error naming the file and line."""
        ini = os.path.join(nptest.tmpdir("nul"), "nul.ini")
        with open(ini, "wb") as f:
            f.write(b"[mesh]\nwidth = 2\x00junk\nheight = 2\n")
        self.expect_2(["-c", ini, fw("exitcode")], ini + ": line 2: a NUL byte")

    def test_too_many_periods_named(self):
        """65 distinct periods: the error names where they came from (the
        option, the config file and its key, --alias-check); before, only
        'at most 64 sampling periods'."""
        many = ",".join(str(p) for p in range(100, 165))
        self.expect_2(["--sample-period", many, fw("exitcode")],
                      "--sample-period: [profiler] sample_period: at most 64 distinct sampling periods")
        ini = os.path.join(nptest.tmpdir("periods"), "p.ini")
        with open(ini, "w") as f:
            f.write("[profiler]\nsample_period = %s\n" % many)
        self.expect_2(["-c", ini, fw("exitcode")],
                      ini + ": [profiler] sample_period: at most 64 distinct sampling periods")
        self.expect_2(["--alias-check", "--sample-period", ",".join(str(p) for p in range(100, 164)), fw("exitcode")],
                      "--alias-check (7 more periods): at most 64 distinct sampling periods")

    def test_n_elfs_one_per_core(self):
        r = run([fw("exitcode"), fw("calls"), fw("exitcode"), fw("calls")])
        self.assertEqual(r.rc, 1, r.describe())
        s = r.summary
        self.assertEqual([os.path.basename(c["elf"]) for c in s["cores"]],
                         ["exitcode-el.elf", "calls-el.elf", "exitcode-el.elf", "calls-el.elf"])
        self.assertEqual([c["exit_code"] for c in s["cores"]], [0, 0, 2, 0])


if __name__ == "__main__":
    nptest.main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_console.py - the console is streamed, never held (issue 19.9).

The flood firmware prints 16 MiB without a newline, then "|end\\n".  Under
an address-space limit of what the same run needs without the flood plus
24 MiB, the run ends with status 0, its reports written and console.txt
exactly 16 MiB + 5 bytes (before, the console was held about five times
in memory and such a run aborted, leaving an empty output folder).  The
echo on stdout comes in `[core0] ` pieces of 4096 bytes; profile.data keeps
the first 64 KiB and a cut line, and `nocprof report` keeps the run's
console.txt."""
import os
import resource
import subprocess
import threading
import time
import unittest

import nptest
from nptest import fw

FLOOD = 16 << 20


def vm_peak(argv):
    """(returncode, the largest VmSize seen, polled every 2 ms)."""
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    while p.poll() is None:
        try:
            with open("/proc/%d/status" % p.pid) as f:
                for line in f:
                    if line.startswith("VmPeak:"):
                        peak = max(peak, int(line.split()[1]) * 1024)
        except OSError:
            pass
        time.sleep(0.002)
    p.communicate()
    return p.returncode, peak


class Flood(unittest.TestCase):
    def test_flood_under_memory_limit(self):
        if nptest.sanitized_build():
            self.skipTest("AddressSanitizer cannot run in a limited address space")
        elf = fw("flood")
        base = [nptest.nocprof(), "run", "-q"] + nptest.ONE_CORE
        # what the run needs without the flood: stopped after 20,000 cycles
        rc, peak = vm_peak(base + ["-o", nptest.tmpdir("base"), "--max-cycles", "20000", elf])
        self.assertEqual(rc, 4)
        self.assertGreater(peak, 0)
        limit = peak + (24 << 20)
        out = os.path.join(nptest.tmpdir("flood"), "o")

        def cap():
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        p = subprocess.run(base + ["-o", out, elf], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, preexec_fn=cap, timeout=120)
        self.assertEqual(p.returncode, 0, "limit %d MiB: %s" % (limit >> 20, p.stderr[-2000:]))
        console = os.path.join(out, "core0", "console.txt")
        self.assertEqual(os.path.getsize(console), FLOOD + len("|end\n"))
        with open(console, "rb") as f:
            head = f.read(52)
            f.seek(-9, os.SEEK_END)
            tail = f.read()
        self.assertEqual(head, b"abcdefghijklmnopqrstuvwxyz" * 2)
        last = bytes(ord("a") + i % 26 for i in range(FLOOD - 4, FLOOD))
        self.assertEqual(tail, last + b"|end\n")
        for name in ("summary.json", "profile.data", "core0/flat.txt", "core0/gmon.out"):
            self.assertTrue(os.path.exists(os.path.join(out, name)), name)
        self.assertEqual([f for f in os.listdir(os.path.join(out, "core0")) if ".tmp" in f], [])
        # nocprof report into the same folder keeps the run's console.txt;
        # into another folder it writes the kept head and the cut line
        r = nptest.raw(["report", out])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.path.getsize(console), FLOOD + 5)
        other = os.path.join(nptest.tmpdir("other"), "o")
        r = nptest.raw(["report", out, "-o", other])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(other, "core0", "console.txt"), "rb") as f:
            cut = f.read()
        self.assertEqual(cut[:64 << 10], (b"abcdefghijklmnopqrstuvwxyz" * 2600)[:64 << 10])
        self.assertIn(b"[nocprof: console cut: %d bytes printed, the first 65536 kept" % (FLOOD + 5), cut)

    def test_echo_in_pieces(self):
        """Without -q the flood is echoed in 4096-byte pieces, each its own
        `[core0] ` line; the bytes add up to the console."""
        elf = fw("flood")
        argv = [nptest.nocprof(), "run", "-o", nptest.tmpdir("echo")] + nptest.ONE_CORE + [elf]
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr[-2000:])
        lines = p.stdout.split(b"\n")
        self.assertEqual(lines[-1], b"")
        body = [l for l in lines[:-1]]
        self.assertTrue(all(l.startswith(b"[core0] ") for l in body))
        self.assertEqual(len(body), FLOOD // 4096 + 1)
        self.assertEqual(sum(len(l) - 8 for l in body), FLOOD + 4)
        self.assertEqual(body[-1], b"[core0] |end")


if __name__ == "__main__":
    nptest.main()

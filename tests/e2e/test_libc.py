#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/libc - the firmware C library (newlib + glue), the FPU and two real
programs, each compared with a host build of the same C source:

- libc_check: string/ctype/stdlib/heap/stdio/math output and the compiler
  helpers' results (64-bit division/modulo on edge operands, int64 <->
  double) equal the host's (glibc printf and libm, native 64-bit) byte for byte; exit statuses 0 / 134 (failed
  assert, newlib's message) / 42 (exit) / 134 (abort) as on the host
  (128 + SIGABRT); heap inside [_end, stack top - reserve], NULL when full.
- fpuops: FPU instructions in the disassembly, results bit-identical to the host.
- intmix, fpmix: self-verifying on every core and both byte orders, output
  equal to the host build's, and every function's call count equal to the
  host build's (-finstrument-functions, tests/e2e/host_calls.c)."""
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import fw, run, src, tmpdir  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ENDIANS = ("el", "eb")
NCORES = 4


def host_build(source, flags, instrument=False):
    """Compile one firmware source for the host (-DNOCPROF_HOST); returns the
    executable path."""
    cc = nptest.tool("gcc")
    out = os.path.join(tmpdir("host"), os.path.basename(source) + ".host")
    argv = [cc, "-DNOCPROF_HOST", "-no-pie", "-o", out, source] + list(flags)
    if instrument:
        argv[1:1] = ["-finstrument-functions"]
        argv.append(os.path.join(HERE, "host_calls.c"))
    argv.append("-lm")
    subprocess.run(argv, check=True)
    return out


def host_run(exe, core, calls_out=None):
    env = dict(os.environ)
    if calls_out:
        env["NP_CALLS_OUT"] = calls_out
    p = subprocess.run([exe, str(core)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env, timeout=60)
    rc = 128 - p.returncode if p.returncode < 0 else p.returncode   # killed by signal N -> 128+N
    return p.stdout, p.stderr, rc


def host_calls(exe, counts_file, source_obj_names):
    """name -> call count of the host run, for the functions of the program."""
    res = subprocess.run(["nm", exe], stdout=subprocess.PIPE, universal_newlines=True, check=True)
    by_addr = {}
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tT":
            by_addr[int(parts[0], 16)] = parts[2]
    counts = {n: 0 for n in source_obj_names}
    with open(counts_file) as f:
        for line in f:
            addr, n = line.split()
            name = by_addr[int(addr, 16)]
            if name in counts:
                counts[name] = int(n)
    return counts


def defined_functions(source, flags):
    """Names of the functions a source file defines (nm of its host object)."""
    obj = os.path.join(tmpdir("obj"), "x.o")
    subprocess.run([nptest.tool("gcc"), "-DNOCPROF_HOST", "-c", "-o", obj, source] + list(flags),
                   check=True)
    res = subprocess.run(["nm", obj], stdout=subprocess.PIPE, universal_newlines=True, check=True)
    return sorted(p[2] for p in (line.split() for line in res.stdout.splitlines())
                  if len(p) == 3 and p[1] in "tT")


class LibcCheck(unittest.TestCase):
    SRC = "firmware/libc-tests/libc_check.c"

    @classmethod
    def setUpClass(cls):
        path = src(cls.SRC)
        cls.host = host_build(path, ["-O2", "-w"])
        cls.assert_line = next(i + 1 for i, l in enumerate(open(path)) if "LIBC-ASSERT" in l)
        cls.path = path

    def expected(self, core):
        out, err, rc = host_run(self.host, core)
        head, sep, tail = out.partition("assert passed\n")
        self.assertEqual(sep, "assert passed\n")
        target_only = ("== target only ==\nheap exhausted ok=1 inside=1\n"
                       "heap big alloc null=1\nheap reuse=1\n")
        text = head + target_only + sep + tail
        if core == 1:
            self.assertIn("Assertion `mode == 0' failed", err)     # glibc's wording
            text += ('assertion "mode == 0" failed: file "%s", line %d, function: ending\n'
                     % (self.path, self.assert_line))
        return text, rc

    def test_output_and_statuses_match_host(self):
        want = [self.expected(k) for k in range(NCORES)]
        self.assertEqual([rc for _, rc in want], [0, 134, 42, 134])
        for endian in ENDIANS:
            r = run([fw("libc_check", endian)])
            self.assertEqual(r.rc, 1, r.describe())      # some cores exit non-zero
            for k in range(NCORES):
                with self.subTest(endian=endian, core=k):
                    c = r.core(k)
                    self.assertEqual(c["status"], "exited")
                    self.assertEqual(c["exit_code"], want[k][1])
                    self.assertEqual(r.text("core%d" % k, "console.txt"), want[k][0])

    def test_printf_lines_present(self):
        # the host comparison above is only meaningful if the lines exist
        out, _, _ = host_run(self.host, 0)
        for pat in (r"^f \[3\.141593\] \[2\.67\] ", r"^e \[1\.234568e\+04\]", r"^g \[100000\] \[1e\+06\]",
                    r"^m 2: 1\.4142135623730951 ", r"^strtok \[alpha\] \[beta\] \[gamma\] \[delta\]$"):
            self.assertRegex(out, re.compile(pat, re.M))


class Fpu(unittest.TestCase):
    SRC = "firmware/libc-tests/fpuops.c"

    def test_fpu_instructions_present(self):
        od = nptest.tool("mipsel-linux-gnu-objdump")
        text = subprocess.run([od, "-d", fw("fpuops")], stdout=subprocess.PIPE,
                              universal_newlines=True, check=True).stdout

        def body(name):
            m = re.search(r"<%s>:\n(.*?)\n\n" % name, text, re.S)
            self.assertIsNotNone(m, name)
            return m.group(1)
        for name, ops in (("fpu_double", ("add.d", "sub.d", "mul.d", "div.d", "sqrt.d")),
                          ("fpu_single", ("add.s", "sub.s", "mul.s", "div.s", "sqrt.s")),
                          ("fpu_convert", ("cvt.d.w", "trunc.w.d", "cvt.s.d")),
                          ("fpu_compare", ("c.lt.d", "bc1"))):
            b = body(name)
            for op in ops:
                self.assertIn(op, b, "%s has no %s" % (name, op))

    def test_fpu_results_match_host(self):
        host = host_build(src(self.SRC), ["-O1", "-fno-math-errno"])
        for endian in ENDIANS:
            r = run([fw("fpuops", endian)])
            self.assertEqual(r.rc, 0, r.describe())
            for k in range(NCORES):
                out, _, rc = host_run(host, k)
                self.assertEqual(rc, 0)
                self.assertEqual(r.core(k)["status"], "exited")
                self.assertEqual(r.text("core%d" % k, "console.txt"), out)


class Programs(unittest.TestCase):
    FLAGS = ["-O1", "-fno-inline", "-fno-optimize-sibling-calls", "-ffp-contract=off"]

    def check_program(self, name):
        path = src("firmware/programs/%s.c" % name)
        host = host_build(path, self.FLAGS, instrument=True)
        funcs = defined_functions(path, self.FLAGS)
        self.assertIn("run_" + name, funcs)
        for endian in ENDIANS:
            r = run([fw(name, endian)])
            self.assertEqual(r.rc, 0, r.describe())
            for k in range(NCORES):
                with self.subTest(endian=endian, core=k):
                    counts_file = os.path.join(tmpdir("calls"), "calls.txt")
                    out, _, rc = host_run(host, k, counts_file)
                    self.assertEqual(rc, 0)
                    self.assertIn("%s: core %d all ok\n" % (name, k), out)
                    self.assertEqual(r.text("core%d" % k, "console.txt"), out)
                    want = host_calls(host, counts_file, funcs)
                    fn = nptest.functions(r.core(k))
                    got = {f: fn[f]["calls"] if f in fn else 0 for f in funcs}
                    self.assertEqual(got, want)
                    self.assertGreater(sum(want.values()), 100)

    def test_intmix(self):
        self.check_program("intmix")

    def test_fpmix(self):
        self.check_program("fpmix")


if __name__ == "__main__":
    nptest.main()

# SPDX-License-Identifier: GPL-2.0-or-later
"""nptest.py - shared helpers of the nocprof end-to-end tests.

Every e2e script is run as

    python3 test_X.py --nocprof PATH --fw FIRMWARE_DIR [--fixtures DIR]
                      [--src PROJECT_SOURCE_DIR] [unittest args...]

and ends with the line "N passed, M failed" (exit status 1 when M > 0).
A test that skipped is never a silent pass: each skip is printed as
"SKIP: test: reason" and, without failures, the script exits 77 (ctest's
SKIP_RETURN_CODE, set on every e2e test), so ctest reports it as skipped.
Only the Python standard library is used.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ARGS = None          # parsed command line (set by main())
_TMP_ROOT = None     # one temporary folder per script run

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SRC = os.path.abspath(os.path.join(HERE, "..", ".."))


def nocprof():
    return ARGS.nocprof


_SANITIZED = None


def sanitized_build():
    """nocprof was built with ASan or TSan (which reserve terabytes of
    shadow address space: no address-space limit can apply to it). The
    sanitizer runtimes are shared libraries, so the binary holds no
    "AddressSanitizer" string; its dynamic symbols name their init."""
    global _SANITIZED
    if _SANITIZED is None:
        try:
            out = subprocess.run(["nm", "-D", "--undefined-only", nocprof()], stdout=subprocess.PIPE,
                                 universal_newlines=True).stdout
        except OSError:
            out = ""
        _SANITIZED = "__asan_init" in out or "__tsan_init" in out
    return _SANITIZED


def fw(name, endian="el"):
    """Path of a built firmware ELF (NAME-el.elf / NAME-eb.elf)."""
    path = os.path.join(ARGS.fw, "%s-%s.elf" % (name, endian))
    if not os.path.exists(path):
        raise unittest.SkipTest("firmware not built: " + path)
    return path


def sdk_lib(endian="el"):
    """The build's firmware library (build/sdk/lib/E/libnocprof.a, next to
    the firmware directory): runtime, C library and the compiler helpers
    (64-bit division ...). Tests that link firmware by hand link it instead
    of Debian's -lgcc (abicalls code, docs/firmware.md)."""
    path = os.path.join(os.path.dirname(ARGS.fw), "sdk", "lib", endian, "libnocprof.a")
    if not os.path.exists(path):
        raise unittest.SkipTest("firmware library not built: " + path)
    return path


def fixture(name, endian="el"):
    if not ARGS.fixtures:
        raise unittest.SkipTest("no --fixtures directory given")
    path = os.path.join(ARGS.fixtures, "%s-%s.elf" % (name, endian))
    if not os.path.exists(path):
        raise unittest.SkipTest("fixture not built: " + path)
    return path


def src(*parts):
    return os.path.join(ARGS.src, *parts)


def tmpdir(prefix="t"):
    return tempfile.mkdtemp(prefix=prefix + "-", dir=_TMP_ROOT)


class Run:
    """The outcome of one `nocprof` invocation."""

    def __init__(self, argv, proc, out, seconds):
        self.argv = argv
        self.rc = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        self.out = out
        self.seconds = seconds
        self._summary = None

    def path(self, *parts):
        return os.path.join(self.out, *parts)

    @property
    def summary(self):
        if self._summary is None:
            with open(self.path("summary.json")) as f:
                self._summary = json.load(f)
        return self._summary

    def core(self, i):
        return self.summary["cores"][i]

    def text(self, *parts):
        with open(self.path(*parts)) as f:
            return f.read()

    def describe(self):
        return "nocprof %s -> %d\nstdout:\n%s\nstderr:\n%s" % (
            " ".join(self.argv), self.rc, self.stdout[-3000:], self.stderr[-3000:])


def pin_flat(args):
    """The hand-computed expectations of the e2e tests were derived under
    the flat cost model: pin it unless the test chooses a model itself
    (docs/timing.md)."""
    if any("timing.model" in str(a) for a in args):
        return []
    return ["--set", "timing.model=flat"]


def run(args, out=None, cwd=None, timeout=120, quiet=True, extra_env=None):
    """Run `nocprof run [-q] -o OUT args...`; returns a Run."""
    import time
    if out is None:
        out = tmpdir("out")
    argv = ["run"] + (["-q"] if quiet else []) + ["-o", out] + pin_flat(args) + list(args)
    env = dict(os.environ)
    if extra_env:
        env.update(extra_env)
    t0 = time.monotonic()
    proc = subprocess.run([nocprof()] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, cwd=cwd, timeout=timeout, env=env)
    return Run(argv, proc, out, time.monotonic() - t0)


def raw(argv, cwd=None, timeout=60):
    """Run nocprof with exactly these arguments."""
    return subprocess.run([nocprof()] + list(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, cwd=cwd, timeout=timeout)


ONE_CORE = ["--set", "mesh.width=1", "--set", "mesh.height=1"]


def functions(core):
    """name -> function object of a summary.json core."""
    return {f["name"]: f for f in core["functions"]}


def arcs(func):
    """caller name -> summed count of a function's incoming arcs."""
    out = {}
    for a in func["callers"]:
        out[a["caller"]] = out.get(a["caller"], 0) + a["count"]
    return out


def tool(name):
    path = shutil.which(name)
    if not path:
        raise unittest.SkipTest(name + " not installed")
    return path


def callgrind_costs(text):
    """(events, {address: [values]}) of the self cost lines of a
    callgrind.out (calls= lines and their inclusive line skipped)."""
    events = re.search(r"^events: (.*)$", text, re.M).group(1).split()
    out, after_calls = {}, False
    for line in text.splitlines():
        if line.startswith("calls="):
            after_calls = True
            continue
        m = re.match(r"^0x([0-9a-f]+) \d+((?: \d+)*)$", line)
        if m:
            if not after_calls:
                v = [int(x) for x in m.group(2).split()]
                v += [0] * (len(events) - len(v))
                acc = out.setdefault(int(m.group(1), 16), [0] * len(events))
                for k, x in enumerate(v):
                    acc[k] += x
            after_calls = False
    return events, out


def callgrind_ir(text):
    """(Ir per instruction address of the self cost lines, their sum)."""
    events, costs = callgrind_costs(text)
    k = events.index("Ir")
    per = {a: v[k] for a, v in costs.items()}
    return per, sum(per.values())


def symbols(elf, endian="el"):
    """name -> (address, size) from nm of the ELF (functions only)."""
    nm = tool("mipsel-linux-gnu-nm" if endian == "el" else "mips-linux-gnu-nm")
    res = subprocess.run([nm, "-S", elf], stdout=subprocess.PIPE, universal_newlines=True, check=True)
    out = {}
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tT":
            out[parts[3]] = (int(parts[0], 16) & 0xFFFFFFFF, int(parts[1], 16))
        elif len(parts) == 3 and parts[1] in "tT":
            out[parts[2]] = (int(parts[0], 16) & 0xFFFFFFFF, 0)
    return out


def disasm_at(elf, pc, endian="el"):
    """(raw word as hex string, mnemonic, operands) of the instruction at pc."""
    od = tool("mipsel-linux-gnu-objdump" if endian == "el" else "mips-linux-gnu-objdump")
    res = subprocess.run([od, "-d", "--start-address=0x%x" % pc, "--stop-address=0x%x" % (pc + 4), elf],
                         stdout=subprocess.PIPE, universal_newlines=True, check=True)
    for line in res.stdout.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+([0-9a-f]{8})\s+(\S+)\s*(.*)$", line)
        if m and (int(m.group(1), 16) & 0xFFFFFFFF) == pc:
            return m.group(2), m.group(3), m.group(4)
    raise AssertionError("no instruction at 0x%x in objdump output:\n%s" % (pc, res.stdout))


def parse_header_macros(path):
    """The #defines of an expected-counts header (calls_expected.h,
    tailcall_expected.h) as a namespace: object-like macros become values,
    function-like ones NAME(k) become Python functions.  C arithmetic on
    unsigned constants (10u, /) is translated to Python (10, //)."""
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    py = []
    for m in re.finditer(r"^#define[ \t]+(\w+)(\((\w+)\))?[ \t]+(\S.*?)\s*$", text, flags=re.M):
        name, arg, body = m.group(1), m.group(3), m.group(4)
        if not body.startswith('"'):
            body = re.sub(r"\b(\d+)[uU]\b", r"\1", body).replace("/", "//")
        if arg:
            py.append("def %s(%s):\n    return %s" % (name, arg, body))
        else:
            py.append("%s = %s" % (name, body))
    ns = {}
    exec("\n".join(py), ns)
    return type("Macros", (), {k: (staticmethod(v) if callable(v) else v)
                               for k, v in ns.items() if not k.startswith("__")})


def main():
    global ARGS, _TMP_ROOT
    p = argparse.ArgumentParser()
    p.add_argument("--nocprof", required=True)
    p.add_argument("--fw", required=True, help="firmware directory (NAME-el.elf, NAME-eb.elf)")
    p.add_argument("--fixtures", default=None, help="directory of the emulator fixtures")
    p.add_argument("--src", default=DEFAULT_SRC, help="project source directory")
    p.add_argument("--keep", action="store_true", help="keep the temporary output folders")
    p.add_argument("--hostile", default=None, help="directory of the hostile ELF fixtures (test_robust)")
    p.add_argument("--pdedit", default=None, help="tests/tools/pdedit (test_robust: hostile profile.data)")
    ARGS, rest = p.parse_known_args()
    ARGS.nocprof = os.path.abspath(ARGS.nocprof)
    ARGS.fw = os.path.abspath(ARGS.fw)
    if ARGS.fixtures:
        ARGS.fixtures = os.path.abspath(ARGS.fixtures)
    _TMP_ROOT = tempfile.mkdtemp(prefix="nocprof-e2e-")
    try:
        loader = unittest.TestLoader()
        names = [a for a in rest if not a.startswith("-")]
        module = sys.modules["__main__"]
        suite = loader.loadTestsFromNames(names, module) if names else loader.loadTestsFromModule(module)
        result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
        # count tests, not subtests: a test fails when any of its subtests fails
        failed_ids = {getattr(t, "test_case", t).id()
                      for t, _ in result.failures + result.errors}
        failed_ids |= {t.id() for t in result.unexpectedSuccesses}
        failed = len(failed_ids)
        passed = result.testsRun - failed - len(result.skipped) - len(result.expectedFailures)
        extra = []
        if result.skipped:
            extra.append("%d skipped" % len(result.skipped))
        if result.expectedFailures:
            extra.append("%d expected failures" % len(result.expectedFailures))
        for t, reason in result.skipped:
            print("SKIP: %s: %s" % (t.id(), reason))
        print("%d passed, %d failed%s" % (passed, failed, (" (" + ", ".join(extra) + ")") if extra else ""))
        sys.exit(1 if failed else 77 if result.skipped else 0)
    finally:
        if not ARGS.keep:
            shutil.rmtree(_TMP_ROOT, ignore_errors=True)
        else:
            print("outputs kept in", _TMP_ROOT)


def objdump_function(elf, name, endian):
    """[(addr, mnemonic, operands)] of a function, from binutils."""
    objdump = tool(("mipsel" if endian == "el" else "mips") + "-linux-gnu-objdump")
    text = subprocess.run([objdump, "-d", "--no-show-raw-insn", elf], stdout=subprocess.PIPE,
                          universal_newlines=True, check=True).stdout
    m = re.search(r"^[0-9a-f]+ <%s>:\n(.*?)\n\n" % re.escape(name), text, re.S | re.M)
    out = []
    for line in m.group(1).splitlines():
        p = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if p:
            out.append((int(p.group(1), 16), p.group(2), p.group(3)))
    return out

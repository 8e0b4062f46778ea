# SPDX-License-Identifier: GPL-2.0-or-later
"""test_robust.py - hostile input never crashes, hangs or loses a run
(issue 14; docs/robustness.md): signals, closed or full stdout, FIFOs,
config syntax, echo escaping, hostile but legal ELFs with bounded cost,
clang's line-0 rows, non-UTF-8 names."""
import json
import os
import re
import resource
import signal
import struct
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import ONE_CORE, fw, nocprof, raw, run, tmpdir  # noqa: E402

MEM_LIMIT = 3 << 30      # address space: Unicorn reserves ~350 MB per run


def hostile(name):
    d = nptest.ARGS.hostile
    path = os.path.join(d, name + ".elf") if d else ""
    if not os.path.exists(path):
        raise unittest.SkipTest("hostile fixture not built: " + name)
    return path


def limited():
    if not SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (MEM_LIMIT, MEM_LIMIT))


SANITIZED = None


def bounded(args, timeout, out=None):
    """run() under an address-space limit; returns (Run, seconds)."""
    global SANITIZED
    if SANITIZED is None:
        SANITIZED = nptest.sanitized_build()
    out = out or tmpdir("b")
    argv = [nocprof(), "run", "-q", "-o", out] + nptest.pin_flat(args) + list(args)
    t0 = time.monotonic()
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=timeout, preexec_fn=limited)
    return nptest.Run(argv[1:], p, out, time.monotonic() - t0), time.monotonic() - t0


def spawn(args, out, stdout=subprocess.DEVNULL):
    return subprocess.Popen([nocprof(), "run", "-o", out] + nptest.pin_flat(args) + list(args), stdout=stdout,
                            stderr=subprocess.PIPE, universal_newlines=True)


def checksums(folder):
    """Every file under folder (relative path -> content)."""
    found = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, folder)] = f.read()
    return found


def wait_started(out, proc, seconds=20):
    """Until the run has started (core0 printed its line into the pipe or
    the output folder exists)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        if os.path.isdir(out) and proc.poll() is None:
            time.sleep(0.3)
            return
        time.sleep(0.05)
    raise AssertionError("run did not start")


class Signals(unittest.TestCase):
    def check_signal(self, sig, status):
        out = tmpdir("sig")
        p = spawn(["-q", fw("spin")], out)
        wait_started(out, p)
        p.send_signal(sig)
        _, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, status, err)
        with open(os.path.join(out, "summary.json")) as f:
            s = json.load(f)
        self.assertEqual(s["exit_status"], status)
        for c in s["cores"]:
            self.assertEqual(c["status"], "interrupted")
        # the run had started: the cores' state is the interrupted run's (a
        # core may not have had its first quantum yet when the signal came
        # early on a loaded host, in a sanitizer build: at least one had)
        self.assertGreater(max(c["cycles"] for c in s["cores"]), 0)
        for name in ("summary.txt", "noc.txt", "stacks.folded", "core0/flat.txt", "core0/gmon.out"):
            self.assertTrue(os.path.exists(os.path.join(out, name)), name)
        self.assertEqual([f for _, _, fs in os.walk(out) for f in fs if ".tmp-" in f], [])

    def test_sigterm_writes_reports_143(self):
        self.check_signal(signal.SIGTERM, 143)

    def test_sigint_writes_reports_130(self):
        self.check_signal(signal.SIGINT, 130)

    def test_sighup_writes_reports_129(self):
        """SIGHUP (the terminal or ssh session went away) stops the run as
        SIGTERM does, with status 129. Before: killed at once (status
        -SIGHUP), no summary, and coreN/console.txt.tmp-PID left behind."""
        self.check_signal(signal.SIGHUP, 129)

    def test_sighup_while_report_html_is_written(self):
        r = run(ONE_CORE + [fw("calls")], extra_env={"NOCPROF_TEST_SIGNAL": "report.html:HUP"})
        self.assertEqual(r.rc, 129, r.describe())
        self.assertEqual(r.summary["exit_status"], 129)
        self.assertIn("exit status: 129", r.text("summary.txt"))
        self.assertIn("SIGHUP while writing the reports", r.stderr)
        leftovers = [f for _, _, fs in os.walk(r.out) for f in fs if ".tmp-" in f]
        self.assertEqual(leftovers, [])

    def test_signal_while_waiting_for_gdb(self):
        """SIGINT/SIGTERM before gdb connects: the run stops at reset as
        interrupted and writes its reports. Before: status 2 (a usage
        error) and "--gdb ...: accept: Interrupted system call"."""
        for sig, status, name in ((signal.SIGINT, 130, "SIGINT"), (signal.SIGTERM, 143, "SIGTERM")):
            with self.subTest(sig=name):
                out = tmpdir("gdbsig")
                p = spawn(["-q", "--gdb", "127.0.0.1:0"] + ONE_CORE + [fw("calls")], out)
                t0 = time.monotonic()
                err = ""
                while "waiting for gdb on" not in err and time.monotonic() - t0 < 20:
                    err += p.stderr.readline()
                self.assertIn("waiting for gdb on", err)
                p.send_signal(sig)
                _, rest = p.communicate(timeout=60)
                self.assertEqual(p.returncode, status, err + rest)
                self.assertIn("%s while waiting for gdb: every core stops at reset" % name, rest)
                with open(os.path.join(out, "summary.json")) as f:
                    s = json.load(f)
                self.assertEqual(s["exit_status"], status)
                self.assertEqual([(c["status"], c["cycles"]) for c in s["cores"]], [("interrupted", 0)])
                self.assertTrue(os.path.exists(os.path.join(out, "core0", "flat.txt")))

    def test_signal_while_gdb_is_connected(self):
        """SIGTERM/SIGINT while gdb is connected and every core halted at
        reset (a CI timeout, Ctrl-C in nocprof's terminal): the session
        ends, the run stops as interrupted with its reports. Before: nocprof
        waited for gdb's next packet, whatever the signals (a hang)."""
        import socket
        for sig, status in ((signal.SIGTERM, 143), (signal.SIGINT, 130)):
            with self.subTest(sig=int(sig)):
                out = tmpdir("gdbcon")
                p = spawn(["-q", "--gdb", "127.0.0.1:0"] + ONE_CORE + [fw("calls")], out)
                line = p.stderr.readline()
                port = int(re.search(r"127\.0\.0\.1:(\d+) ", line).group(1))
                with socket.create_connection(("127.0.0.1", port)) as conn:
                    t0 = time.monotonic()
                    while "connected on" not in line and time.monotonic() - t0 < 20:
                        line = p.stderr.readline()
                    p.send_signal(sig)
                    try:
                        _, rest = p.communicate(timeout=30)
                    except subprocess.TimeoutExpired:
                        p.kill()
                        p.communicate()
                        self.fail("nocprof still waits for gdb 30 s after the signal")
                    conn.close()
                self.assertEqual(p.returncode, status, rest)
                self.assertIn("nocprof got a signal: closing the connection; the run stops as interrupted", rest)
                with open(os.path.join(out, "summary.json")) as f:
                    s = json.load(f)
                self.assertEqual([(c["status"], c["cycles"]) for c in s["cores"]], [("interrupted", 0)])
                self.assertEqual(s["exit_status"], status)

    def test_repeated_signal_is_one_stop(self):
        """Two SIGTERMs in a row (GNU timeout signals the child, then its
        process group) are one stop: every report is written, status 143.
        Before: "second SIGTERM: aborting", the reports lost."""
        out = tmpdir("sig2")
        r = run(["--set", "mesh.width=1", "--set", "mesh.height=2", fw("calls")], out=out,
                extra_env={"NOCPROF_TEST_SIGNAL": "core0/flat.txt:TERM,TERM"})
        self.assertEqual(r.rc, 143, r.describe())
        self.assertNotIn("aborting", r.stderr)
        self.assertEqual(r.summary["exit_status"], 143)
        for name in ("summary.txt", "report.html", "core0/flat.txt", "core1/gmon.out", "profile.data"):
            self.assertTrue(os.path.exists(r.path(name)), name)

    def test_timeout_keeps_the_reports(self):
        """`timeout 1 nocprof run` ten times: every run keeps its reports
        (before: lost 7 times in 10)."""
        for i in range(10):
            out = tmpdir("timeout")
            p = subprocess.run(["timeout", "--preserve-status", "1", nocprof(), "run", "-q", "-o", out, "--set", "run.livelock_cycles=0",
                                "--max-cycles", "1000000000000000", fw("spin")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
            self.assertEqual(p.returncode, 143, (i, p.stderr))
            self.assertNotIn("aborting", p.stderr)
            with open(os.path.join(out, "summary.json")) as f:
                self.assertEqual(json.load(f)["exit_status"], 143, i)

    def test_signal_after_the_grace_aborts_keeping_the_old_set(self):
        """A second signal more than 2 s after the first aborts: the folder
        keeps the previous run's complete set, no temporary file stays."""
        out = tmpdir("abort")
        first = run(ONE_CORE + [fw("calls")], out=out)
        self.assertEqual(first.rc, 0, first.describe())
        before = checksums(out)
        r = run(ONE_CORE + [fw("calls")], out=out, extra_env={"NOCPROF_TEST_SIGNAL": "core0/flat.txt:TERM,WAIT,TERM"})
        self.assertEqual(r.rc, 143, r.describe())
        self.assertIn("second SIGTERM: aborting; the output folder keeps what it had before", r.stderr)
        self.assertEqual(checksums(out), before)

    def test_sigint_while_report_html_is_written(self):
        """The summary says the status the process exits with (before:
        "exit status: 0" in a run that exited 130)."""
        r = run(ONE_CORE + [fw("calls")], extra_env={"NOCPROF_TEST_SIGNAL": "report.html:INT"})
        self.assertEqual(r.rc, 130, r.describe())
        self.assertEqual(r.summary["exit_status"], 130)
        self.assertIn("exit status: 130", r.text("summary.txt"))
        self.assertIn('"exit_status":130', r.text("report.html"))

    def test_interrupted_commands_keep_the_previous_set(self):
        """report, merge and diff interrupted at any file: status 130/143,
        the folder exactly as before (before: `report` deleted summary.json
        and summary.txt first and never wrote them again)."""
        a = run(ONE_CORE + [fw("calls")])
        b = run(ONE_CORE + [fw("calls")])
        merged, diffed = tmpdir("merged"), tmpdir("diffed")
        self.assertEqual(raw(["merge", a.out, b.out, "-o", merged]).returncode, 0)
        self.assertEqual(raw(["diff", "-q", a.out, b.out, "-o", diffed]).returncode, 0)
        cases = ((["report", a.out], a.out, ("report.html", "summary.json", "core0/flat.txt")),
                 (["merge", a.out, b.out, "-o", merged], merged, ("report.html", "profile.data")),
                 (["diff", "-q", a.out, b.out, "-o", diffed], diffed, ("diff.txt", "diff.html")))
        for argv, folder, points in cases:
            for point in points:
                for sig, status in (("TERM", 143), ("INT", 130)):
                    with self.subTest(argv=argv[0], point=point, sig=sig):
                        before = checksums(folder)
                        env = dict(os.environ, NOCPROF_TEST_SIGNAL="%s:%s" % (point, sig))
                        p = subprocess.run([nocprof()] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           universal_newlines=True, timeout=60, env=env)
                        self.assertEqual(p.returncode, status, p.stderr)
                        self.assertEqual(checksums(folder), before)

    def test_closed_stdout_keeps_the_run(self):
        """`nocprof run ... | head -1`: the echo stops, the run goes on to
        its normal end (spin: cycle limit, 4) and writes every report."""
        out = tmpdir("pipe")
        p = subprocess.Popen([nocprof(), "run", "-o", out, "--max-cycles", "3000000"] + nptest.pin_flat([]) + [fw("spin")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        first = p.stdout.readline()
        p.stdout.close()        # the reader goes away
        err = p.stderr.read().decode()
        p.wait(timeout=120)
        self.assertRegex(first, rb"^\[core[0-3]\] spin: core [0-3] polls forever\n$")
        self.assertEqual(p.returncode, 4, err)
        with open(os.path.join(out, "summary.json")) as f:
            self.assertEqual(json.load(f)["exit_status"], 4)
        with open(os.path.join(out, "core3", "console.txt")) as f:
            self.assertEqual(f.read(), "spin: core 3 polls forever\n")


class Stdout(unittest.TestCase):
    def test_full_stdout_is_an_error(self):
        for argv in (["--help"], ["run", "--help"], ["--version"]):
            with open("/dev/full", "w") as full:
                p = subprocess.run([nocprof()] + argv, stdout=full, stderr=subprocess.PIPE,
                                   universal_newlines=True, timeout=30)
            self.assertNotEqual(p.returncode, 0, argv)
            self.assertIn("No space left on device", p.stderr)

    def test_full_stdout_during_a_run_is_status_5(self):
        out = tmpdir("full")
        with open("/dev/full", "w") as full:
            p = subprocess.run([nocprof(), "run", "-o", out] + nptest.pin_flat([]) + ONE_CORE + [fw("calls")], stdout=full,
                               stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
        self.assertEqual(p.returncode, 5, p.stderr)
        self.assertIn("console echo stopped", p.stderr)
        with open(os.path.join(out, "summary.json")) as f:
            self.assertEqual(json.load(f)["exit_status"], 5)


    def test_closed_stdout_and_stderr_write_into_no_file(self):
        """nocprof started with stdout and/or stderr closed (`2>&-`): the
        first file it opened got descriptor 1 or 2, so its messages and the
        console echo went into a report. Before: core0/console.txt held the
        fault messages instead of the guest's text. Descriptors 0-2 are
        now opened on /dev/null when closed; the files are the usual."""
        ref = tmpdir("fd-ref")
        argv = [nocprof(), "run"] + nptest.pin_flat([]) + [fw("fault_break")]
        self.assertEqual(subprocess.run(argv + ["-o", ref], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        timeout=60).returncode, 3)
        for closed in ((2,), (1,), (0, 1, 2)):
            out = tmpdir("fd")
            p = subprocess.run(argv + ["-o", out], preexec_fn=lambda: [os.close(fd) for fd in closed], timeout=60)
            self.assertEqual(p.returncode, 3, closed)
            for core in range(4):
                name = os.path.join("core%d" % core, "console.txt")
                with open(os.path.join(out, name), "rb") as a, open(os.path.join(ref, name), "rb") as b:
                    self.assertEqual(a.read(), b.read(), (closed, name))
            for d, _, names in os.walk(out):
                for n in names:
                    if n.endswith(".txt") or n.endswith(".info"):
                        with open(os.path.join(d, n), "rb") as f:
                            self.assertNotIn(b"nocprof: core 0: break fault", f.read(), (closed, n))


class Inputs(unittest.TestCase):
    def expect_2(self, args, *needles):
        r = run(args, timeout=20)
        self.assertEqual(r.rc, 2, r.describe())
        for n in needles:
            self.assertIn(n, r.stderr)
        self.assertFalse(os.path.exists(r.path("summary.json")))

    def test_fifo_firmware_and_config_rejected(self):
        d = tmpdir("fifo")
        fifo = os.path.join(d, "fw.fifo")
        os.mkfifo(fifo)
        self.expect_2([fifo], fifo, "FIFO")
        self.expect_2(["-c", fifo, fw("calls")], fifo, "FIFO")
        self.expect_2(["--core", "1=" + fifo, fw("calls")], fifo)
        self.expect_2([d], d, "directory")

    def write(self, text):
        path = os.path.join(tmpdir("ini"), "c.ini")
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_duplicate_and_localized_keys_are_errors(self):
        p = self.write("[mesh]\nwidth=2\nwidth=3\n")
        self.expect_2(["-c", p, fw("calls")], p, "[mesh]", "'width' given twice")
        p = self.write("[mesh]\nwidth=1\n[run]\nmax_cycles=9\n[mesh]\nwidth=2\n")
        self.expect_2(["-c", p, fw("calls")], p, "'width' given twice")
        p = self.write("[mesh]\nwidth[de]=2\n")
        self.expect_2(["-c", p, fw("calls")], p, "localized key 'width[de]'")

    def test_leading_zeros_are_decimal(self):
        p = self.write("[mesh]\nwidth=01\nheight=010\n[run]\nmax_cycles=0100000\n")
        r = run(["-c", p, "--set", "mesh.height=08", fw("calls")], timeout=120)
        self.assertIn(r.rc, (0, 4), r.describe())
        self.assertEqual(r.summary["config"]["mesh"]["height"], 8)
        self.assertEqual(r.summary["config"]["mesh"]["width"], 1)
        self.assertEqual(r.summary["config"]["run"]["max_cycles"], 100000)
        self.assertEqual(len(r.summary["cores"]), 8)

    def test_bom_and_crlf(self):
        # a UTF-8 byte order mark (Windows editors write one) is skipped,
        # CRLF line ends are read as LF (before: the BOM made the first
        # line 'not a key-value pair, group, or comment', status 2)
        path = os.path.join(tmpdir("bom"), "c.ini")
        with open(path, "wb") as f:
            f.write(b"\xef\xbb\xbf[mesh]\r\nwidth = 1\r\nheight=1\r\n[run]\r\nmax_cycles = 54321\r\n")
        r = run(["-c", path, fw("calls")], timeout=120)
        self.assertIn(r.rc, (0, 4), r.describe())
        self.assertEqual(r.summary["config"]["mesh"]["width"], 1)
        self.assertEqual(r.summary["config"]["run"]["max_cycles"], 54321)
        self.assertEqual(len(r.summary["cores"]), 1)
        # a BOM anywhere else is no BOM: an error naming the file
        with open(path, "wb") as f:
            f.write(b"[mesh]\n\xef\xbb\xbfwidth = 1\n")
        self.expect_2(["-c", path, fw("calls")], path)

    def test_filesz_greater_than_memsz(self):
        e = hostile("filesz")
        self.expect_2([e], e, "filesz 0x14 > memsz 0x8")


class Echo(unittest.TestCase):
    def test_echo_bytes(self):
        e = hostile("echo")
        r = run(["--set", "mesh.width=1", "--set", "mesh.height=1", e], quiet=False, timeout=60)
        self.assertEqual(r.rc, 0, r.describe())
        with open(r.path("core0", "console.txt"), "rb") as f:
            self.assertEqual(f.read(), b"A\x1b[2J\rB\x00C\xff\xc2\x9bD\t\xc3\xa9\n")
        self.assertEqual(r.stdout, "[core0] A\\x1b[2J\\x0dB\\x00C\\xff\\xc2\\x9bD\t\u00e9\n")


class Hostile(unittest.TestCase):
    def test_huge_source_file_is_no_source(self):
        """The ELF's DWARF names the source files the reports read: one of
        1 GiB (here through --source-map, a sparse file) is no source, as a
        FIFO or a device is (base_read_regular, at most 64 MiB). Before, it
        was read whole by annotated.txt and coverage.info: 8 s and 1.07 GB
        of RSS for the calls firmware."""
        src = fw("calls")
        tests_dir = os.path.realpath(nptest.src("firmware", "tests"))   # where calls.c was built from
        d = tmpdir("hugesrc")
        with open(os.path.join(d, "calls.c"), "wb") as f:
            f.truncate(1 << 30)
        out = tmpdir("hugesrc-out")
        argv = [nocprof(), "run", "-q", "-o", out, "--source-map", "%s=%s" % (tests_dir, d)] + ONE_CORE + \
            nptest.pin_flat([]) + [src]
        probe = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]).returncode; "
                 "print(r, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
        p = subprocess.run([sys.executable, "-c", probe] + argv, stdout=subprocess.PIPE, universal_newlines=True,
                           timeout=120)
        rc, rss_kb = map(int, p.stdout.split())
        self.assertEqual(rc, 0)
        self.assertLess(rss_kb, 400 << 10)
        with open(os.path.join(out, "core0", "annotated.txt"), "rb") as f:
            text = f.read()
        self.assertNotIn(b"\0", text)
        self.assertIn(b"calls.c:", text)          # the ranges of lines, without their text

    def test_huge_sources_sha256_is_not_read(self):
        """OUT/sources.sha256 is read back by `nocprof report` (the source
        files' sums, one line each): a 1 GiB one (sparse) is not read whole
        but named in a warning, and `report -o` does not copy it. Before,
        g_file_get_contents read it all (1 GiB of RSS) and report -o wrote
        a 1 GiB copy."""
        src = fw("calls")
        out = tmpdir("hugesums")
        r = nptest.raw(["run", "-q", "-o", out] + ONE_CORE + nptest.pin_flat([]) + [src])
        self.assertEqual(r.returncode, 0, r.stderr)
        sums = os.path.join(out, "sources.sha256")
        with open(sums, "wb") as f:
            f.truncate(1 << 30)
        again = tmpdir("hugesums-again")
        probe = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], stderr=subprocess.PIPE, "
                 "universal_newlines=True); print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN)"
                 ".ru_maxrss); print(p.stderr)")
        p = subprocess.run([sys.executable, "-c", probe, nocprof(), "report", "-o", again, out],
                           stdout=subprocess.PIPE, universal_newlines=True, timeout=120)
        head, err = p.stdout.split("\n", 1)
        rc, rss_kb = map(int, head.split())
        self.assertEqual(rc, 0, err)
        self.assertLess(rss_kb, 400 << 10)
        self.assertIn(sums, err)
        self.assertIn("not checked", err)
        self.assertFalse(os.path.exists(os.path.join(again, "sources.sha256")))

    def test_clang_line0_rows(self):
        """clang's line table has rows with line 0 (objdump shows them);
        annotated.txt is written and the run ends with status 0."""
        e = hostile("clang-pipeline")
        od = nptest.tool("mipsel-linux-gnu-objdump")
        rows = subprocess.run([od, "--dwarf=decodedline", e], stdout=subprocess.PIPE,
                              universal_newlines=True, check=True).stdout
        self.assertTrue(any(l.split()[1:2] == ["0"] for l in rows.splitlines()), "no line-0 row")
        r, _ = bounded([e], 120)
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(r.summary["exit_status"], 0)
        self.assertIn("*** main ", r.text("core0", "annotated.txt"))
        self.assertIn("pipeline.c:", r.text("core0", "annotated.txt"))

    def test_huge_symbol_sizes(self):
        r, secs = bounded(ONE_CORE + [hostile("bigsym")], 60)
        self.assertEqual(r.rc, 0, r.describe())
        f = nptest.functions(r.core(0))
        self.assertEqual(f["f"]["calls"], 1000)
        # sizes stop at the end of the loaded bytes and at the next function
        self.assertEqual(f["f"]["size"], 0x20)
        self.assertEqual(f["g"]["size"], 8)
        self.assertIn("*** f ", r.text("core0", "annotated.txt"))
        self.assertLess(secs, 30)

    def test_far_segment_gmon_small(self):
        r, secs = bounded(ONE_CORE + [hostile("farseg")], 60)
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(nptest.functions(r.core(0))["far"]["calls"], 100)
        self.assertLess(os.path.getsize(r.path("core0", "gmon.out")), 4096)
        self.assertLess(secs, 30)

    def test_many_functions_memory(self):
        """Issue 24: funcs40k on one core. summary.json's functions are
        rendered one at a time, not held as one json-glib tree (about 2 KB
        per function), profile.data's function records serialised one at a
        time: peak RSS was 296 MB, then 180 MB, then 143 MiB; now the core
        and collector are freed before the reports, summary.json is
        streamed to its file and report.html reads it back: about 87 MiB."""
        out = tmpdir("f40mem")
        p = subprocess.Popen([nocprof(), "run", "-q", "-o", out, "--threads", "1"] + ONE_CORE + [hostile("funcs40k")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)
        with open(os.path.join(out, "summary.json")) as f:
            funcs = {x["name"]: x for x in json.load(f)["cores"][0]["functions"]}
        self.assertEqual(funcs["fn039999"]["calls"], 1)
        self.assertEqual(funcs["fn039999"]["callers"][0]["caller"], "_start")
        global SANITIZED
        if SANITIZED is None:
            SANITIZED = nptest.sanitized_build()
        if not SANITIZED:
            self.assertLess(ru.ru_maxrss, 110 * 1024)     # KB

    def test_big_mesh_memory_by_code_size(self):
        """Issue 24: the pipeline demo on an 8 x 8 mesh (64 cores, 60 of
        them idle). Unicorn's translation cache is sized by the firmware's
        code (1 MiB here), not 32 MiB per core: peak RSS was 233 MB
        (3.4 MiB per core), now about 105 MB."""
        out = tmpdir("mesh8")
        p = subprocess.Popen([nocprof(), "run", "-q", "-o", out, "--threads", "1", "--set", "mesh.width=8",
                              "--set", "mesh.height=8", fw("pipeline")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)
        with open(os.path.join(out, "summary.json")) as f:
            cores = json.load(f)["cores"]
        self.assertEqual(len(cores), 64)
        self.assertEqual(cores[3]["exit_code"], 0)
        global SANITIZED
        if SANITIZED is None:
            SANITIZED = nptest.sanitized_build()
        if not SANITIZED:
            self.assertLess(ru.ru_maxrss, 160 * 1024)     # KB

    def test_far_segment_memory_and_gprof(self):
        """The histograms cover the two executable segments, not the 512 MiB
        between them: peak RSS stays small (it was 1.6 GB), gmon.out has
        one record per segment, and the real gprof credits far() with its
        samples (period 3: far 100 of 336 binned samples = 29.76%)."""
        e = hostile("farseg")
        out = tmpdir("farmem")
        p = subprocess.Popen([nocprof(), "run", "-q", "-o", out, "--sample-period", "3"] + nptest.pin_flat([]) + ONE_CORE + [e],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)
        global SANITIZED
        if SANITIZED is None:
            SANITIZED = nptest.sanitized_build()
        if not SANITIZED:
            self.assertLess(ru.ru_maxrss, 200 * 1024)     # KB
        with open(os.path.join(out, "summary.json")) as f:
            funcs = {x["name"]: x for x in json.load(f)["cores"][0]["functions"]}
        self.assertEqual((funcs["far"]["samples"]["3"], funcs["_start"]["samples"]["3"]), (100, 236))
        with open(os.path.join(out, "core0", "gmon.out"), "rb") as f:
            data = f.read()
        ranges, pos = [], 20
        while pos < len(data) and data[pos] == 0:
            lo, hi, n = struct.unpack_from("<III", data, pos + 1)
            ranges.append((lo, hi))
            pos += 33 + 2 * n
        self.assertEqual(ranges, [(0x80000000, 0x80000038), (0xA00F0000, 0xA00F0018)])
        gprof = subprocess.run([nptest.tool("mipsel-linux-gnu-gprof"), "-b", "-p", e,
                                os.path.join(out, "core0", "gmon.out")],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
        pct = {l.split()[-1]: float(l.split()[0]) for l in gprof.stdout.splitlines()
               if l.strip() and l.split()[0].replace(".", "", 1).isdigit()}
        self.assertEqual(pct, {"far": 29.76, "_start": 70.24})

    def test_deep_recursion_folded_bounded(self):
        r, secs = bounded(["--set", "memory.ram_size=4194304"] + ONE_CORE + [hostile("deeprec")], 120)
        self.assertEqual(r.rc, 0, r.describe())
        f = nptest.functions(r.core(0))
        self.assertEqual(f["rec"]["calls"], 30001)
        size = os.path.getsize(r.path("stacks.folded"))
        self.assertLess(size, 4 << 20)
        total = 0
        with open(r.path("stacks.folded")) as fo:
            for line in fo:
                total += int(line.rsplit(" ", 1)[1])
        self.assertEqual(total, r.core(0)["cycles"])   # exact totals kept

    def test_function_count_scales_linearly(self):
        _, t10 = bounded(ONE_CORE + [hostile("funcs10k")], 300)
        r, t40 = bounded(ONE_CORE + [hostile("funcs40k")], 300)
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(nptest.functions(r.core(0))["fn039999"]["calls"], 1)
        # 4x the functions: linear is ~4x the time, quadratic 16x
        self.assertLess(t40, 8 * t10 + 5, (t10, t40))

    def test_non_utf8_names_valid_json(self):
        d = tmpdir("utf")
        e = os.path.join(d, "b\xe9\xff.elf".encode("latin-1").decode("utf-8", "surrogateescape"))
        with open(hostile("badname"), "rb") as src, open(e, "wb") as dst:
            dst.write(src.read())
        r, _ = bounded(ONE_CORE + [e], 60)
        self.assertEqual(r.rc, 0, r.describe())
        with open(r.path("summary.json"), "rb") as f:
            raw_bytes = f.read()
        s = json.loads(raw_bytes.decode("utf-8"))     # strict UTF-8 and JSON
        names = [x["name"] for x in s["cores"][0]["functions"]]
        self.assertIn("bad\\xff\\xfe\\x80name", names)   # escaped as in every report (base/name.h)
        self.assertTrue(s["cores"][0]["elf"].endswith("b\ufffd\ufffd.elf"))

    def test_odd_pc_fetch_fault(self):
        """jr to 0x80000041 (mkelf.py oddpc: lui, ori, jr at 0x80000008, nop)."""
        r, _ = bounded(ONE_CORE + [hostile("oddpc")], 60)
        self.assertEqual(r.rc, 3, r.describe())
        fault = r.core(0)["fault"]
        self.assertEqual(fault["kind"], "misaligned-fetch")
        self.assertEqual(fault["pc"], 0x80000041)
        self.assertEqual(fault["message"].split("\n")[0],  # then the registers
                         "instruction fetch from a misaligned address 0x80000041 (jr at pc 0x80000008)")


def pdedit(src, dst_dir, *edits):
    """A copy of the run folder src in a new folder whose profile.data has
    the fields edited (tests/tools/pdedit.c: PATH=VALUE, PATH the child
    indexes of profile_data_types.h's PD_TOP)."""
    tool = nptest.ARGS.pdedit
    if not tool:
        raise unittest.SkipTest("pdedit not given")
    out = tmpdir(dst_dir)
    for name in os.listdir(src):
        if os.path.isfile(os.path.join(src, name)):
            with open(os.path.join(src, name), "rb") as f, open(os.path.join(out, name), "wb") as g:
                g.write(f.read())
    # a test tool: in the ASan build its unfreed memory is no finding
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    subprocess.run([tool, os.path.join(src, "profile.data"), os.path.join(out, "profile.data")] + list(edits),
                   check=True, env=env)
    return out


# paths into profile.data (PD_TOP): core 0, its profile (a maybe), ...
CORE0 = "9.0."
PROF0 = "9.0.26.0."


class SavedProfile(unittest.TestCase):
    """profile.data is untrusted input (issue 20.1): `report`, `diff` and
    `merge` refuse a file whose counts do not fit their totals (status 2
    naming the field), never block on a FIFO or read a device, never
    crash on deep JSON, and stay bounded on consistent but huge counts."""

    @classmethod
    def setUpClass(cls):
        cls.base = run(["--set", "mesh.width=1", "--set", "mesh.height=2", "--sample-period", "7,11",
                        fw("calls")], timeout=60)
        assert cls.base.rc == 0, cls.base.describe()

    def refused(self, out, field, timeout=20):
        if not nptest.ARGS.pdedit:
            raise unittest.SkipTest("pdedit not given")
        for argv in (["report", out], ["diff", self.base.out, out, "-o", tmpdir("d")],
                     ["merge", self.base.out, out, "-o", tmpdir("m")]):
            t0 = time.monotonic()
            r = raw(argv, timeout=timeout)
            self.assertEqual(r.returncode, 2, (argv, r.stderr))
            self.assertIn(field, r.stderr, argv)
            self.assertLess(time.monotonic() - t0, timeout / 2, argv)

    def test_counts_checked_against_totals(self):
        """Before: an arc count of 2^63 made gmon.out's writer run 49 s to
        a 4.2 GB abort, a bin of 0xFFFF0000 wrote 336 MB of gmon.out,
        2^64-1 samples made the aliasing statistics never end (their sum
        wrapped: ~20 * 2^32 steps per tail); other counts were taken as
        they came."""
        for edit, field in (
                (PROF0 + "7.0.3=9223372036854775808", "cores[0]: profile.arcs[0].count: 9223372036854775808 calls"),
                (PROF0 + "7.0.3=10000", "cores[0]: profile.arcs[0].count: 10000 calls; the arcs into function"),
                (PROF0 + "9.0.3.0=4294901760", "cores[0]: profile.histograms[0].bins[%d]: 4294901760 samples"
                 % self.bin_index(0, 0)),
                (PROF0 + "9.1.6=18446744073709551615", "cores[0]: profile.histograms[1].total: "
                                                       "18446744073709551615 samples"),
                (PROF0 + "6.0.9.0=18446744073709551615", "cores[0]: profile.functions[0].samples[0]: "
                                                          "18446744073709551615"),
                (PROF0 + "1=18446744073709551615", "cores[0]: profile.instructions"),
                (PROF0 + "6.0.4=18446744073709551615", "cores[0]: profile.functions[0]: 18446744073709551615 calls"),
                (PROF0 + "8.0.3=18446744073709551615", "cores[0]: profile.blocks[0].count"),
                (PROF0 + "10.0.2=18446744073709551615", "cores[0]: profile.contexts[0].self"),
                (CORE0 + "14=18446744073709551615", "cores[0]: 18446744073709551615 instructions")):
            with self.subTest(edit=edit):
                self.refused(pdedit(self.base.out, "bad", edit), field)

    def test_fault_frames_checked(self):
        """A fault's frames (profile_data_types.h: core field 42, each
        (function, file, pc, line, repeat, inlined)) must each stand for a
        frame: a repeat of 0 is refused."""
        base = run([fw("fault_null")], timeout=60)
        self.assertEqual(base.rc, 3, base.describe())
        out = pdedit(base.out, "badframes", CORE0 + "42.0.4=0")
        r = raw(["report", out], timeout=20)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("cores[0]: fault frame 0 repeated 0 times", r.stderr)

    def test_consistent_huge_counts_stay_bounded(self):
        """Counts that fit their (forged, huge) totals: the aliasing
        statistics of 2^59 samples and gmon.out of a 2^40-call arc take
        bounded time (before: ~20 * 2^31 steps per tail, never ending)."""
        c = self.base.core(0)
        big = 1 << 63
        idle = c["idle_cycles"]
        edits = [CORE0 + "15=%d" % big, CORE0 + "16=%d" % (big - idle), PROF0 + "0=%d" % big,
                 PROF0 + "4=%d" % (big - idle), PROF0 + "1=%d" % (1 << 62)]
        for h in (0, 1):
            edits += [PROF0 + "9.%d.6=%d" % (h, (1 << 59) + (1 << 40)), PROF0 + "6.0.9.%d=%d" % (h, 1 << 59)]
        callee = int(self.value(PROF0 + "7.0.1"))
        edits += [PROF0 + "7.0.3=%d" % (1 << 40), PROF0 + "6.%d.4=%d" % (callee, 1 << 41)]
        out = pdedit(self.base.out, "huge", *edits)
        t0 = time.monotonic()
        r = raw(["report", out], timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertLess(time.monotonic() - t0, 60)
        with open(os.path.join(out, "aliasing.txt")) as f:
            self.assertIn("576460752303423488", f.read().replace(",", ""))
        # 2^40 calls: 256 arc records of 2^32 - 1 and one of the rest
        self.assertLess(os.path.getsize(os.path.join(out, "core0", "gmon.out")), 1 << 20)

    def test_elf_path_of_a_huge_file_hashed_in_pieces(self):
        """profile.data names the ELFs that ran; `report` hashes each
        candidate to find the one with the recorded SHA-256. A candidate of
        1 GiB (a sparse file) was read whole to hash it (1 GB of RSS); now
        it is hashed in pieces, and the error names it."""
        d = tmpdir("hugeelf")
        huge = os.path.join(d, "huge.elf")
        with open(huge, "wb") as f:
            f.truncate(1 << 30)
        out = pdedit(self.base.out, "hugeelf", CORE0 + "2='%s'" % huge, CORE0 + "1='%s'" % huge)
        probe = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], stderr=subprocess.PIPE, "
                 "universal_newlines=True); print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN)"
                 ".ru_maxrss); print(r.stderr)")
        p = subprocess.run([sys.executable, "-c", probe, nocprof(), "report", out, "-o", tmpdir("hugeelf-o")],
                           stdout=subprocess.PIPE, universal_newlines=True, timeout=120)
        first, err = p.stdout.split("\n", 1)
        rc, rss_kb = map(int, first.split())
        self.assertEqual(rc, 2, err)
        self.assertIn(huge, err)
        self.assertLess(rss_kb, 400 << 10)

    def test_merge_sum_past_the_cycle_limit_refused(self):
        """Two runs whose (forged, consistent) cycles are 2^63 each: their
        sum does not fit 64 bits. Before, merge wrapped it silently to a
        merged run of 0 cycles (status 0); now status 2 naming the core
        and the bound (2^62 cycles, the most one run can have)."""
        c = self.base.core(0)
        big = 1 << 63
        idle = c["idle_cycles"]
        out = pdedit(self.base.out, "huge2", CORE0 + "15=%d" % big, CORE0 + "16=%d" % (big - idle),
                     PROF0 + "0=%d" % big, PROF0 + "4=%d" % (big - idle))
        self.assertEqual(raw(["report", out], timeout=60).returncode, 0)     # each run alone is fine
        r = raw(["merge", out, out, "-o", tmpdir("m")], timeout=60)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("core 0: the runs' cycles add up past 4611686018427387904", r.stderr)

    def value(self, path):
        """The value at path in the base run's profile.data (GVariant text)."""
        if not nptest.ARGS.pdedit:
            raise unittest.SkipTest("pdedit not given")
        return subprocess.run([nptest.ARGS.pdedit, self.base.path("profile.data"), path],
                              env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"),
                              stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout.strip()

    def bin_index(self, h, j):
        """The index of the j-th stored bin of core 0's histogram h."""
        return int(self.value(PROF0 + "9.%d.2.%d" % (h, j)))

    def test_sparse_histogram_checked(self):
        """Format 10 stores only the bins with samples (index, count): an
        index out of the ranges or not increasing, a stored 0, indexes and
        counts of different lengths and ranges asking for more bins than a
        file may make are refused naming the histogram. Format 9 had none
        of these fields (every bin stored)."""
        n = int(self.value(PROF0 + "9.0.1.1"), 0) - int(self.value(PROF0 + "9.0.1.0"), 0)
        first, second = self.bin_index(0, 0), self.bin_index(0, 1)
        stored = len(self.value(PROF0 + "9.0.2").split(","))
        h0 = "cores[0].profile.histograms[0]: "
        for edit, field in (
                (PROF0 + "9.0.2.0=%d" % (n // 4), h0 + "bin 0: index %d (bins are 0 .. " % (n // 4)),
                (PROF0 + "9.0.2.1=%d" % first, h0 + "bin 1: index %d (bins are 0 .. " % first),
                (PROF0 + "9.0.2.0=%d" % second, h0 + "bin 1: index %d" % second),
                (PROF0 + "9.0.3.0=0", h0 + "bin 0 (index %d): 0 samples" % first),
                (PROF0 + "9.0.3=[1]", h0 + "%d bin indexes for 1 counts" % stored),
                (PROF0 + "9.0.1=[0, 4294967292]", h0 + "ranges of 1073741823 instructions (the file's "
                                                       "histograms may have 134217728 bins in all)")):
            with self.subTest(edit=edit):
                self.refused(pdedit(self.base.out, "sparse", edit), field)

    def test_stalls_checked(self):
        """format 9's stalls per instruction (24k): an unknown cause and
        stall cycles beyond the profile's cycles are refused, naming the
        field."""
        r = run(["--set", "mesh.width=1", "--set", "mesh.height=1", "--set", "timing.model=24k", fw("calls")],
                timeout=60)
        self.assertEqual(r.rc, 0, r.describe())
        for edit, field in ((PROF0 + "18.0.1=7", "cores[0].profile.stalls[0]: pc 0x"),
                            (PROF0 + "18.0.2=18446744073709551615", "cores[0]: profile.stalls[0].cycles: "
                                                                     "18446744073709551615 cycles")):
            with self.subTest(edit=edit):
                out = pdedit(r.out, "stall", edit)
                p = raw(["report", out])
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(field, p.stderr)

    def test_deep_json_refused(self):
        """The communication profile nested 100,000 deep: before, json-glib
        recursed until SIGSEGV in report, diff and merge."""
        out = pdedit(self.base.out, "deep", "11=@nest:100000")
        self.refused(out, "communication: JSON nested deeper than 32 levels")

    def test_fifo_and_device_refused(self):
        """A FIFO as profile.data used to block in open(); a symlink to
        /dev/zero was read until a 4 GB allocation failed."""
        out = pdedit(self.base.out, "fifo")
        os.unlink(os.path.join(out, "profile.data"))
        os.mkfifo(os.path.join(out, "profile.data"))
        self.refused(out, "is a FIFO, not a regular file")
        os.unlink(os.path.join(out, "profile.data"))
        os.symlink("/dev/zero", os.path.join(out, "profile.data"))
        self.refused(out, "is a device, not a regular file")


class Limits(unittest.TestCase):
    """[limits] (docs/robustness.md): each limit, set small, truncates
    exactly, says so in summary.txt, summary.json and on stderr, and never
    crashes."""

    def warned(self, r, text):
        self.assertIn(text, r.summary["warnings"])
        self.assertIn("WARNING: " + text, r.text("summary.txt"))
        self.assertIn("nocprof: warning: " + text, r.stderr)

    def test_blocks(self):
        """t_limit.S has three blocks: A (0x00..0x1c, 29 cycles), the loop
        L (0x10..0x1c, 5) and `b .` (0x20). One block: the core stops
        before L after A (29 cycles, 8 instructions); two: before `b .`
        after A, taken branch, L, taken branch, L (41, 16)."""
        for endian in ("el", "eb"):
            for limit, cycles, insns in ((1, 29, 8), (2, 41, 16)):
                r = run(["--set", "limits.blocks=%d" % limit, "--max-cycles", "1000"] + ONE_CORE
                        + [nptest.fixture("t_limit", endian)], timeout=20)
                self.assertEqual(r.rc, 4, r.describe())
                c = r.core(0)
                self.assertEqual((c["status"], c["cycles"], c["instructions"]), ("limit", cycles, insns))
                self.warned(r, "core 0: stopped at the limit of %d distinct blocks ([limits] blocks)" % limit)
                self.assertIn("block limit ([limits] blocks = %d) reached" % limit, r.stderr)
        r = run(["--max-cycles", "1000"] + ONE_CORE + [nptest.fixture("t_limit", "el")], timeout=20)
        # no limit warning: only that the assembly fixture has no line table
        self.assertEqual([w.split(" has ")[1] for w in r.summary.get("warnings", [])],
                         ["no line table (.debug_line; build it with -g): coverage.info lists nothing of it, "
                          "and there are no source lines"])

    def test_contexts(self):
        """deeprec: rec recursing 30,000 deep (30,001 calls). 100 contexts:
        the root and rec at depths 1..99; the other 30,001 - 99 calls stay
        in the deepest one; stacks.folded totals stay exact."""
        r, _ = bounded(["--set", "limits.contexts=100", "--set", "memory.ram_size=4194304"] + ONE_CORE
                       + [hostile("deeprec")], 120)
        self.assertEqual(r.rc, 0, r.describe())
        self.warned(r, "core 0: 29902 calls past the limit of 100 calling contexts ([limits] contexts) "
                       "stayed in their caller's context")
        lines = r.text("stacks.folded").splitlines()
        self.assertEqual(len(lines), 100)
        self.assertEqual(max(l.count(";rec") for l in lines), 99)
        self.assertEqual(sum(int(l.rsplit(" ", 1)[1]) for l in lines), r.core(0)["cycles"])

    def test_functions(self):
        """funcs10k: _start and fn000000..fn009999 in address order. 100
        functions: _start and fn000000..fn000098 are kept, 9,901 ignored;
        their code (jr $ra; nop: 2 instructions, 3 cycles with the taken
        branch, each called once) is <unknown>: 9,901 x 3 cycles."""
        e = hostile("funcs10k")
        r, _ = bounded(["--set", "limits.functions=100"] + ONE_CORE + [e], 120)
        self.assertEqual(r.rc, 0, r.describe())
        f = nptest.functions(r.core(0))
        self.assertEqual(len([n for n in f if not n.startswith("<")]), 100)
        self.assertEqual(f["fn000098"]["calls"], 1)
        self.assertNotIn("fn000099", f)
        self.assertEqual((f["<unknown>"]["self_cycles"], f["<unknown>"]["instructions"]), (9901 * 3, 9901 * 2))
        self.warned(r, "core 0: %s: 9901 functions past the limit of 100 ([limits] functions) were ignored" % e)

    def test_trace_events(self):
        """ticks: 50 timer ticks (TICKS_N), each an interrupt span and a
        wait span: 100 events; --trace-limit 5 keeps 5, drops 95."""
        r = run(["--trace-limit", "5"] + ONE_CORE + [fw("ticks")], timeout=60)
        self.assertEqual(r.rc, 0, r.describe())
        self.warned(r, "core 0: 95 timeline events past --trace-limit were not recorded (trace.json)")
        with open(r.path("trace.json")) as f:
            ev = json.load(f)["traceEvents"]
        self.assertEqual(len([e for e in ev if e.get("ph") == "X" and e.get("cat") in ("idle", "interrupt")]), 5)
        r = run(["--trace-limit", "100"] + ONE_CORE + [fw("ticks")], timeout=60)
        self.assertNotIn("warnings", r.summary)


if __name__ == "__main__":
    nptest.main()

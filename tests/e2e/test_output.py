#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/output - the output folder (SPEC 4): exit status 5 when a report
cannot be written, no folder left behind by a run that could not start,
OUT/.nocprof-manifest and the removal of an earlier run's stale files, and
the bounds of --max-cycles (those of [run] max_cycles: 1 .. 2^62)."""
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import fw, run  # noqa: E402

MANIFEST = ".nocprof-manifest"


def files_under(root):
    """Every file below root, as sorted relative paths."""
    out = []
    for d, _, names in os.walk(root):
        for n in names:
            out.append(os.path.relpath(os.path.join(d, n), root))
    return sorted(out)


def manifest(out):
    with open(os.path.join(out, MANIFEST)) as f:
        return sorted(l for l in f.read().splitlines() if l and not l.startswith("#"))


class Unwritable(unittest.TestCase):
    """Status 5: the run ended but a report could not be written."""

    def blocked_run(self, args):
        out = os.path.join(nptest.tmpdir("blocked"), "o")
        os.makedirs(out)
        with open(os.path.join(out, "core1"), "w") as f:   # a file where a folder must go
            f.write("not a folder\n")
        return run(args, out=out)

    def test_file_where_core_folder_goes(self):
        r = self.blocked_run([fw("exitcode"), "--core", "1=" + fw("calls")])
        self.assertEqual(r.rc, 5, r.describe())
        self.assertIn("reports could not be written", r.stderr)
        self.assertIn(os.path.join(r.out, "core1"), r.stderr)

    def test_status_5_wins_over_fault_and_nonzero(self):
        # exitcode alone gives 1 (cores 1..3 exit non-zero), fault_break gives 3
        self.assertEqual(self.blocked_run([fw("exitcode")]).rc, 5)
        self.assertEqual(self.blocked_run([fw("fault_break")]).rc, 5)

    def test_read_only_folder(self):
        parent = nptest.tmpdir("ro")
        out = os.path.join(parent, "o")
        os.makedirs(out)
        os.chmod(out, 0o555)
        try:
            if os.geteuid() == 0:
                # root ignores file permissions: run as nobody, who can reach
                # the folder but not write into it
                for d in (nptest._TMP_ROOT, parent):
                    os.chmod(d, 0o755)
                import subprocess

                def nobody():
                    os.setgroups([])
                    os.setgid(65534)
                    os.setuid(65534)
                p = subprocess.run([nptest.nocprof(), "run", "-q", "-o", out, fw("exitcode")] + nptest.ONE_CORE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                                   preexec_fn=nobody, timeout=60)
                r = nptest.Run(["run"], p, out, 0)
            else:
                r = run([fw("exitcode")] + nptest.ONE_CORE, out=out)
        finally:
            os.chmod(out, 0o755)
        self.assertEqual(r.rc, 5, r.describe())
        self.assertIn(out, r.stderr)


class FileSizeLimit(unittest.TestCase):
    """A file that cannot be written whole (here the file size limit,
    ulimit -f; a full disk alike) makes the status 5 naming it, and is
    never renamed into place cut short, nor is the previous run's file of
    that name left beside the new set. Before: SIGXFSZ killed nocprof
    (status 153, profile.data.tmp-PID left, no report), and on a full disk
    the cut files (summary.json of 0 bytes) were renamed into place."""

    LIMIT = 40 << 10

    def argv(self, out, *extra):
        return [nptest.nocprof(), "run", "-q", "-o", out, "--set", "timing.model=flat"] + list(extra) + [fw("pipeline")]

    def test_cut_files_never_under_their_names(self):
        ref = os.path.join(nptest.tmpdir("fsz-ref"), "o")
        self.assertEqual(subprocess.run(self.argv(ref), timeout=120).returncode, 0)
        out = os.path.join(nptest.tmpdir("fsz"), "o")
        # an earlier run's set, every file different from this run's, and
        # files this run does not write (aliasing.*, core0/gmon-1000.out)
        self.assertEqual(subprocess.run(self.argv(out, "--set", "noc.link_latency=3", "--sample-period", "97,1000"),
                                        timeout=120).returncode, 0)

        def limit():
            resource.setrlimit(resource.RLIMIT_FSIZE, (self.LIMIT, self.LIMIT))
        p = subprocess.run(self.argv(out), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, preexec_fn=limit, timeout=120)
        self.assertEqual(p.returncode, 5, p.stderr)
        self.assertIn("File too large", p.stderr)
        self.assertIn(out, p.stderr)
        files = files_under(out)
        self.assertEqual([f for f in files if ".tmp-" in f], [])
        big = [f for f in files_under(ref) if os.path.getsize(os.path.join(ref, f)) > self.LIMIT]
        self.assertIn("profile.data", big)
        for f in big:
            self.assertNotIn(f, files)      # neither cut nor the earlier run's
        self.assertEqual([f for f in files if f not in files_under(ref)], [])
        import json
        self.assertEqual(json.load(open(os.path.join(out, "summary.json")))["exit_status"], 5)
        for f in files:
            if f in (MANIFEST, "summary.txt", "summary.json", "report.html"):   # they say status 5
                continue
            with open(os.path.join(out, f), "rb") as a, open(os.path.join(ref, f), "rb") as b:
                self.assertEqual(a.read(), b.read(), f)


class RenameRefused(unittest.TestCase):
    """A file that cannot be renamed into place (a folder of its name, an
    immutable file) is status 5 naming it; the other new files are still
    renamed into place. Before, every file staged after it was dropped, so
    the folder mixed this run's first files with the earlier run's last
    ones (its summary.json saying the earlier run's figures)."""

    def test_the_others_still_replace_the_earlier_run(self):
        argv = lambda out, *extra: [nptest.nocprof(), "run", "-q", "-o", out, "--set", "timing.model=flat"] + \
            list(extra) + [fw("pipeline")]
        ref = os.path.join(nptest.tmpdir("ren-ref"), "o")
        self.assertEqual(subprocess.run(argv(ref), timeout=120).returncode, 0)
        out = os.path.join(nptest.tmpdir("ren"), "o")
        self.assertEqual(subprocess.run(argv(out, "--set", "noc.link_latency=3"), timeout=120).returncode, 0)
        os.unlink(os.path.join(out, "callgraph.txt"))
        os.makedirs(os.path.join(out, "callgraph.txt", "x"))      # a folder where a file goes
        p = subprocess.run(argv(out), stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                           timeout=120)
        self.assertEqual(p.returncode, 5, p.stderr)
        self.assertIn(os.path.join(out, "callgraph.txt"), p.stderr)
        files = files_under(out)
        self.assertEqual([f for f in files if ".tmp-" in f], [])
        for f in files_under(ref):
            if f in (MANIFEST, "callgraph.txt", "summary.txt", "summary.json", "report.html"):
                continue
            with open(os.path.join(out, f), "rb") as a, open(os.path.join(ref, f), "rb") as b:
                self.assertEqual(a.read(), b.read(), f)
        self.assert_summaries_say(out, 5)

    def assert_summaries_say(self, out, status):
        """summary.json, summary.txt and report.html say the status the
        process exits with (before: 0, written before the renames)."""
        with open(os.path.join(out, "summary.json")) as f:
            self.assertEqual(json.load(f)["exit_status"], status)
        with open(os.path.join(out, "summary.txt")) as f:
            self.assertIn("exit status: %d (a report could not be written" % status, f.read())
        with open(os.path.join(out, "report.html")) as f:
            self.assertIn('"exit_status":%d' % status, f.read().replace(" ", ""))

    def test_a_manifest_that_cannot_be_written_is_in_the_summary(self):
        out = os.path.join(nptest.tmpdir("ren-man"), "o")
        os.makedirs(os.path.join(out, MANIFEST, "x"))              # a folder where the manifest goes
        p = subprocess.run([nptest.nocprof(), "run", "-q", "-o", out, "--set", "timing.model=flat", fw("pipeline")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        self.assertEqual(p.returncode, 5, p.stderr)
        self.assertIn(os.path.join(out, MANIFEST), p.stderr)
        self.assert_summaries_say(out, 5)

    def test_a_console_that_cannot_be_renamed_is_in_the_summary(self):
        out = os.path.join(nptest.tmpdir("ren-con"), "o")
        os.makedirs(os.path.join(out, "core0", "console.txt", "x"))
        p = subprocess.run([nptest.nocprof(), "run", "-q", "-o", out, "--set", "timing.model=flat", fw("pipeline")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        self.assertEqual(p.returncode, 5, p.stderr)
        self.assertIn(os.path.join(out, "core0", "console.txt"), p.stderr)
        self.assert_summaries_say(out, 5)

    def test_report_says_it_too(self):
        """`report OUT -o DIR` and `merge` write through the same stage."""
        tmp = nptest.tmpdir("ren-rep")
        data = os.path.join(tmp, "data")
        self.assertEqual(subprocess.run([nptest.nocprof(), "run", "-q", "-o", data, "--set", "timing.model=flat",
                                         fw("pipeline")], timeout=120).returncode, 0)
        for cmd, out, blocked in ((["report", data, "-o"], os.path.join(tmp, "r"), os.path.join("core0", "flat.txt")),
                                  (["merge", data, data, "-o"], os.path.join(tmp, "m"), "noc.txt")):
            os.makedirs(os.path.join(out, blocked, "x"))
            p = subprocess.run([nptest.nocprof()] + cmd + [out], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=120)
            self.assertEqual(p.returncode, 5, p.stderr)
            self.assertIn(os.path.join(out, blocked), p.stderr)
            self.assert_summaries_say(out, 5)

    def test_a_summary_that_cannot_be_renamed_is_in_the_others(self):
        out = os.path.join(nptest.tmpdir("ren-sum"), "o")
        os.makedirs(os.path.join(out, "summary.txt", "x"))
        p = subprocess.run([nptest.nocprof(), "run", "-q", "-o", out, "--set", "timing.model=flat", fw("pipeline")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        self.assertEqual(p.returncode, 5, p.stderr)
        self.assertIn(os.path.join(out, "summary.txt"), p.stderr)
        with open(os.path.join(out, "summary.json")) as f:
            self.assertEqual(json.load(f)["exit_status"], 5)
        with open(os.path.join(out, "report.html")) as f:
            self.assertIn('"exit_status":5', f.read().replace(" ", ""))


class OutputIsAFile(unittest.TestCase):
    """-o naming a file (not a folder) is a usage error for every command:
    status 2 naming it, nothing written or printed (SPEC 4: 2 is bad
    input, nothing ran; 5 a report that could not be written after the
    work). Before: run said 2, report, diff, merge and sweep 5 (diff after
    printing its whole report)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = nptest.tmpdir("ofile")
        cls.data = os.path.join(cls.tmp, "data")
        r = subprocess.run([nptest.nocprof(), "run", "-q", "-o", cls.data, "--set", "timing.model=flat",
                            fw("pipeline")], timeout=120)
        assert r.returncode == 0
        cls.file = os.path.join(cls.tmp, "afile")
        with open(cls.file, "w") as f:
            f.write("mine\n")

    def refused(self, *args, target=None):
        target = target or self.file
        before = files_under(self.tmp)
        p = subprocess.run([nptest.nocprof()] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=120)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(target + ": cannot create output folder: Not a directory", p.stderr)
        self.assertEqual(p.stdout, "")
        self.assertEqual(files_under(self.tmp), before)
        with open(self.file) as f:
            self.assertEqual(f.read(), "mine\n")

    def test_run(self):
        self.refused("run", "-q", "-o", self.file, fw("pipeline"))
        sub = os.path.join(self.file, "sub")
        self.refused("run", "-q", "-o", sub, fw("pipeline"), target=sub)

    def test_report(self):
        self.refused("report", self.data, "-o", self.file)
        sub = os.path.join(self.file, "sub")
        self.refused("report", self.data, "-o", sub, target=sub)

    def test_diff(self):
        self.refused("diff", self.data, self.data, "-o", self.file)

    def test_merge(self):
        self.refused("merge", self.data, self.data, "-o", self.file)

    def test_sweep(self):
        self.refused("sweep", "-o", self.file, "--axis", "noc.link_latency=1,2", fw("pipeline"))


class ThreadsThatCannotStart(unittest.TestCase):
    """Host threads are a speed knob: one that cannot be created (no
    address space for its stack) leaves its cores to the threads that
    exist, with a warning, and the results are the same. Before: GLib's
    g_thread_new aborted the process (SIGTRAP, status -5/133), no report.
    A 4 GiB stack limit makes every new thread's stack larger than the
    2 GiB address-space limit, which the run itself stays far below."""

    def test_same_results_with_the_threads_that_start(self):
        if nptest.sanitized_build():
            self.skipTest("ASan reserves more address space than any limit")
        ref = os.path.join(nptest.tmpdir("thr-ref"), "o")
        out = os.path.join(nptest.tmpdir("thr"), "o")
        argv = [nptest.nocprof(), "run", "-q", "--threads", "4", "--set", "timing.model=flat", fw("pipeline")]
        self.assertEqual(subprocess.run(argv + ["-o", ref], timeout=120).returncode, 0)

        def limit():
            resource.setrlimit(resource.RLIMIT_STACK, (4 << 30, 4 << 30))
            resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        p = subprocess.run(argv + ["-o", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, preexec_fn=limit, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("could start 1 of 4 host threads", p.stderr)
        for f in ("flat.txt", "core3/callgraph.txt", "noc.txt", "profile.data"):
            with open(os.path.join(out, f), "rb") as a, open(os.path.join(ref, f), "rb") as b:
                self.assertEqual(a.read(), b.read(), f)


class StartFailure(unittest.TestCase):
    """An emulator that cannot start leaves no output folder: 256 cores
    need 256 engines (translation buffer, RAM, QEMU's state), which a 256
    MiB address space cannot hold (16 cores did when every translation
    buffer was 32 MiB; it is sized by the code since issue 24)."""

    def limited(self, args):
        if nptest.sanitized_build():
            self.skipTest("AddressSanitizer cannot run in a limited address space")
        out = os.path.join(nptest.tmpdir("nostart"), "o")
        limit = 256 << 20

        def cap():
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        import subprocess
        argv = [nptest.nocprof(), "run", "-q", "-o", out, "--set", "mesh.width=16", "--set", "mesh.height=16"] + nptest.pin_flat(args)
        p = subprocess.run(argv + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, preexec_fn=cap, timeout=60)
        self.assertNotEqual(p.returncode, 0, p.stderr)
        return out, p

    def test_explicit_elf(self):
        out, p = self.limited([fw("exitcode")])
        self.assertFalse(os.path.exists(out), "output folder left behind: %s" % files_under(out))

    def test_bundled_demo(self):
        out, p = self.limited([])
        self.assertFalse(os.path.exists(out), "output folder left behind: %s" % files_under(out))


class Reuse(unittest.TestCase):
    def test_stale_files_removed_foreign_kept(self):
        out = os.path.join(nptest.tmpdir("reuse"), "o")
        r = run(["--sample-period", "1000,2000", fw("calls")], out=out)
        self.assertEqual(r.rc, 0, r.describe())
        first = files_under(out)
        for f in ("aliasing.txt", "aliasing.svg", "core0/gmon-2000.out", "core3/flat.txt"):
            self.assertIn(f, first)
        self.assertEqual(manifest(out), [f for f in first if f != MANIFEST])
        # files nocprof did not write
        with open(os.path.join(out, "notes.txt"), "w") as f:
            f.write("mine\n")
        with open(os.path.join(out, "core3", "mine.txt"), "w") as f:
            f.write("mine\n")
        r = run(["--sample-period", "1000", fw("calls")] + nptest.ONE_CORE, out=out)
        self.assertEqual(r.rc, 0, r.describe())
        second = files_under(out)
        self.assertEqual(second, sorted([
            MANIFEST, "callgraph.txt", "comm.txt", "core0/annotated.txt", "core0/callgraph.txt", "core0/callgrind.out",
            "core0/console.txt", "core0/flat.txt", "core0/gmon.out", "core3/mine.txt", "coverage.info", "flat.txt",
            "noc.txt", "notes.txt", "profile.data", "report.html", "sources.sha256", "stacks.folded", "summary.json",
            "summary.txt", "trace.json"]))
        self.assertFalse(os.path.exists(os.path.join(out, "core1")))
        self.assertFalse(os.path.exists(os.path.join(out, "core2")))
        self.assertEqual(manifest(out), [f for f in second if f not in (MANIFEST, "notes.txt", "core3/mine.txt")])

    def test_no_profile_run_drops_profiles(self):
        out = os.path.join(nptest.tmpdir("reuse"), "o")
        self.assertEqual(run([fw("calls")] + nptest.ONE_CORE, out=out).rc, 0)
        self.assertEqual(run(["--no-profile", fw("calls")] + nptest.ONE_CORE, out=out).rc, 0)
        self.assertEqual(files_under(out), sorted([
            MANIFEST, "core0/console.txt", "noc.txt", "profile.data", "report.html", "summary.json", "summary.txt", "trace.json"]))

    def test_manifest_cannot_reach_outside(self):
        out = os.path.join(nptest.tmpdir("reuse"), "o")
        os.makedirs(out)
        outside = os.path.join(os.path.dirname(out), "precious.txt")
        with open(outside, "w") as f:
            f.write("keep\n")
        with open(os.path.join(out, MANIFEST), "w") as f:
            f.write("../precious.txt\n%s\n" % outside)
        self.assertEqual(run([fw("calls")] + nptest.ONE_CORE, out=out).rc, 0)
        self.assertTrue(os.path.exists(outside))

    def test_manifest_fifo_or_device_is_no_list(self):
        # OUT/.nocprof-manifest is read back: a FIFO there blocked every
        # command writing into OUT for ever (before: run hung), /dev/zero
        # was read until memory ran out. Now it is read as the other
        # read-back files are (regular, bounded): no list; the new one
        # replaces it
        for what in ("fifo", "zero"):
            out = os.path.join(nptest.tmpdir("mf-" + what), "o")
            os.makedirs(out)
            m = os.path.join(out, MANIFEST)
            if what == "fifo":
                os.mkfifo(m)
            else:
                os.symlink("/dev/zero", m)
            r = run([fw("calls")] + nptest.ONE_CORE, out=out, timeout=60)
            self.assertEqual(r.rc, 0, r.describe())
            self.assertTrue(os.path.isfile(m) and not os.path.islink(m))
            self.assertIn("summary.json", manifest(out))


class MaxCycles(unittest.TestCase):
    def expect_2(self, value):
        out = os.path.join(nptest.tmpdir("maxc"), "o")
        r = run(["--max-cycles", value, fw("exitcode")], out=out)
        self.assertEqual(r.rc, 2, r.describe())
        self.assertIn("--max-cycles", r.stderr)
        self.assertFalse(os.path.exists(out))

    def test_zero_is_an_error(self):
        self.expect_2("0")

    def test_bounds_are_the_configs(self):
        self.expect_2(str((1 << 62) + 1))
        self.expect_2("-5")
        r = run(["--max-cycles", str(1 << 62), fw("exitcode")] + nptest.ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(r.summary["config"]["run"]["max_cycles"], 1 << 62)
        r = run(["--max-cycles", "1", fw("exitcode")] + nptest.ONE_CORE)
        self.assertEqual(r.rc, 4, r.describe())
        self.assertEqual(r.core(0)["status"], "limit")




def lcov_records(path):
    """{absolute source path: {"DA": {line: hits}, "FNDA": {name: calls},
    "FN": {name: line}, "BRDA": [(line, block, branch, taken)], "totals":
    {key: n}}} of an lcov tracefile; asserts its syntax."""
    recs, cur = {}, None
    with open(path) as f:
        for line in f.read().splitlines():
            key, _, val = line.partition(":")
            if key == "TN":
                assert cur is None, "TN inside a record"
            elif key == "SF":
                assert os.path.isabs(val) and os.path.isfile(val), val
                cur = recs.setdefault(val, {"DA": {}, "FNDA": {}, "FN": {}, "BRDA": [], "totals": {}})
            elif key == "DA":
                ln, hits = val.split(",")
                cur["DA"][int(ln)] = int(hits)
            elif key == "FN":
                ln, name = val.split(",", 1)
                cur["FN"][name] = int(ln)
            elif key == "FNDA":
                n, name = val.split(",", 1)
                cur["FNDA"][name] = int(n)
            elif key == "BRDA":
                ln, blk, br, taken = val.split(",")
                cur["BRDA"].append((int(ln), int(blk), int(br), None if taken == "-" else int(taken)))
            elif key in ("FNF", "FNH", "BRF", "BRH", "LF", "LH"):
                cur["totals"][key] = int(val)
            elif line == "end_of_record":
                t = cur["totals"]
                assert t["LF"] == len(cur["DA"]) and t["LH"] == sum(1 for v in cur["DA"].values() if v)
                assert t["FNF"] == len(cur["FN"]) == len(cur["FNDA"])
                assert t["FNH"] == sum(1 for v in cur["FNDA"].values() if v)
                assert t["BRF"] == len(cur["BRDA"]) and t["BRH"] == sum(1 for b in cur["BRDA"] if b[3])
                cur = None
            else:
                raise AssertionError("unknown lcov line: " + line)
    assert cur is None, "no end_of_record"
    return recs


def record(recs, basename):
    hits = [v for k, v in recs.items() if os.path.basename(k) == basename]
    assert len(hits) == 1, basename
    return hits[0]


def annotated_lines(text, basename):
    """line -> the most executions of one instruction of that line per
    function (annotated.txt of --annotate both), summed over functions."""
    per = {}
    func = where = None
    for line in text.splitlines():
        m = re.match(r"\*\*\* (\S+) ", line)
        if m:
            func, where = m.group(1), None
            continue
        m = re.match(r"\s+(\S+):(\d+): ", line)
        if m:
            where = (m.group(1), int(m.group(2)))
            continue
        m = re.match(r"\s+(#####|\d+)\s+\d+\s+\d+\s+0x[0-9a-f]+: ", line)
        if m and where and where[0] == basename:
            n = 0 if m.group(1) == "#####" else int(m.group(1))
            per[(func, where[1])] = max(per.get((func, where[1]), 0), n)
    want = {}
    for (f, ln), n in per.items():
        want[ln] = want.get(ln, 0) + n
    return want


class Coverage(unittest.TestCase):
    """Issue 20.10: OUT/coverage.info, an lcov tracefile genhtml reads, with
    line hits equal to the per-instruction counts of annotated.txt and to
    gcov's for the same C built for the host."""

    def test_lines_match_annotated_instructions(self):
        # calls, one core: DA = the most executions of any instruction of the
        # line (annotated.txt --annotate both lists each instruction's count
        # under its source line), summed over the functions with code there
        r = run([fw("calls"), "--annotate", "both"] + nptest.ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        rec = record(lcov_records(r.path("coverage.info")), "calls.c")
        want = annotated_lines(r.text("core0", "annotated.txt"), "calls.c")
        self.assertGreater(len(want), 50)
        self.assertEqual(rec["DA"], want)
        # marked_loop(100): LOOP-MARK line ran CALLS_LOOP_N times; the loop's
        # bne is taken 99 times and falls through once, the beqz guarding
        # it falls through once (from the disassembly)
        src = open(nptest.src("firmware", "tests", "calls.c")).read().splitlines()
        mark = next(i + 1 for i, l in enumerate(src) if "LOOP-MARK" in l)
        self.assertEqual(rec["DA"][mark], 100)
        self.assertEqual(sorted(b for b in rec["BRDA"] if b[0] == mark - 1),
                         [(mark - 1, 0, 0, 0), (mark - 1, 0, 1, 1), (mark - 1, 1, 0, 99), (mark - 1, 1, 1, 1)])
        self.assertEqual(rec["FNDA"]["marked_loop"], 1)
        self.assertEqual(rec["FNDA"]["main"], 1)

    def test_lines_match_gcov(self):
        # intmix at -O0 for the MIPS core and for the host with --coverage:
        # every line both list has the same count
        gcc, gcov = nptest.tool("gcc"), nptest.tool("gcov")
        r = run([fw("intmix_O0")] + nptest.ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        rec = record(lcov_records(r.path("coverage.info")), "intmix.c")
        d = nptest.tmpdir("gcov")
        shutil.copy(nptest.src("firmware", "programs", "intmix.c"), d)
        subprocess.run([gcc, "-DNOCPROF_HOST", "-O0", "-ffp-contract=off", "--coverage", "-o", "intmix",
                        "intmix.c", "-lm"], cwd=d, check=True)
        subprocess.run([os.path.join(d, "intmix"), "0"], cwd=d, check=True, stdout=subprocess.DEVNULL)
        subprocess.run([gcov, "intmix.c"], cwd=d, check=True, stdout=subprocess.DEVNULL)
        host = {}
        with open(os.path.join(d, "intmix.c.gcov")) as f:
            for line in f:
                count, ln, _ = line.split(":", 2)
                count = count.strip()
                if count != "-" and int(ln) > 0:
                    host[int(ln)] = 0 if count[0] in "#=" else int(count.rstrip("*"))
        common = sorted(set(host) & set(rec["DA"]))
        self.assertGreater(len(common), 100)
        self.assertEqual({l: rec["DA"][l] for l in common}, {l: host[l] for l in common})

    def test_no_line_table_is_said(self):
        # intmix without its DWARF (strip --strip-debug): coverage.info
        # cannot list a line of it, and the run says so and why (stderr and
        # summary.json "warnings", once for the ELF all cores run); with
        # its DWARF there is no such warning. Before: coverage.info was
        # silently empty and genhtml refused it.
        strip = nptest.tool("mipsel-linux-gnu-strip")
        d = nptest.tmpdir("nolines")
        elf = os.path.join(d, "intmix-nodebug.elf")
        subprocess.run([strip, "--strip-debug", "-o", elf, fw("intmix")], check=True)
        r = run([elf])
        self.assertEqual(r.rc, 0, r.describe())
        with open(r.path("coverage.info")) as f:
            self.assertNotIn("SF:", f.read())
        msg = "core 0: %s has no line table (.debug_line; build it with -g)" % elf
        self.assertIn("nocprof: warning: " + msg, r.stderr)
        warned = [w for w in r.summary["warnings"] if "no line table" in w]
        self.assertEqual(len(warned), 1, warned)
        self.assertTrue(warned[0].startswith(msg), warned)
        good = run([fw("intmix")])
        self.assertEqual(good.rc, 0, good.describe())
        self.assertNotIn("no line table", good.stderr)
        with open(good.path("coverage.info")) as f:
            self.assertIn("SF:", f.read())

    def test_functions_match_lcov(self):
        # intmix at -O0 for the MIPS core and, with --coverage, for the host,
        # captured by the real lcov: every function both have (main is
        # another one on the host, #ifdef NOCPROF_HOST) has the same FN line
        # (gcov's line of the function: its name's, DW_AT_decl_line) and
        # the same FNDA count. Before: the FN line was the first line-table
        # line, the opening brace below the name (crc_init 25, lcov 24).
        gcc, lcov = nptest.tool("gcc"), nptest.tool("lcov")
        r = run([fw("intmix_O0")] + nptest.ONE_CORE)
        self.assertEqual(r.rc, 0, r.describe())
        rec = record(lcov_records(r.path("coverage.info")), "intmix.c")
        d = nptest.tmpdir("lcovfn")
        shutil.copy(nptest.src("firmware", "programs", "intmix.c"), d)
        subprocess.run([gcc, "-DNOCPROF_HOST", "-O0", "-ffp-contract=off", "--coverage", "-o", "intmix",
                        "intmix.c", "-lm"], cwd=d, check=True)
        subprocess.run([os.path.join(d, "intmix"), "0"], cwd=d, check=True, stdout=subprocess.DEVNULL)
        subprocess.run([lcov, "-q", "--capture", "-d", d, "-o", os.path.join(d, "host.info")], cwd=d, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        host = {"FN": {}, "FNDA": {}}   # (this geninfo writes no LF/LH: read only what is compared)
        with open(os.path.join(d, "host.info")) as f:
            for line in f.read().splitlines():
                key, _, val = line.partition(":")
                if key == "FN":
                    host["FN"][val.split(",", 1)[1]] = int(val.split(",", 1)[0])
                elif key == "FNDA":
                    host["FNDA"][val.split(",", 1)[1]] = int(val.split(",", 1)[0])
        common = sorted((set(host["FN"]) & set(rec["FN"])) - {"main"})
        self.assertGreaterEqual(len(common), 15)
        self.assertEqual({n: rec["FN"][n] for n in common}, {n: host["FN"][n] for n in common})
        self.assertEqual({n: rec["FNDA"][n] for n in common}, {n: host["FNDA"][n] for n in common})
        # a function whose first instruction is an inlined helper's (the
        # runtime's rt_interrupts_on starts with status_read, defined above
        # it) is still at its own name's line, from the source text (was
        # the helper's line, 388, shared by four functions)
        r = run([fw("ticks")] + nptest.ONE_CORE)
        rt = record(lcov_records(r.path("coverage.info")), "nocprof.c")
        src = open(nptest.src("firmware", "runtime", "nocprof.c")).read().splitlines()
        for name in ("rt_interrupts_on", "rt_interrupts_off", "rt_cp0_timer_on", "rt_cp0_timer_off"):
            want = next(i + 1 for i, l in enumerate(src) if re.match(r"RT_API void %s\(void\)" % name, l))
            self.assertEqual(rt["FN"][name], want, name)

    def test_genhtml_reads_it_and_report_rewrites_it(self):
        genhtml = nptest.tool("genhtml")
        r = run([fw("calls")])
        self.assertEqual(r.rc, 0, r.describe())
        html = nptest.tmpdir("genhtml")
        res = subprocess.run([genhtml, "--branch-coverage", "-o", html, r.path("coverage.info")],
                             capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertRegex(res.stdout, r"lines\.+: [\d.]+% \(\d+ of \d+ lines\)")
        self.assertTrue(os.path.isfile(os.path.join(html, "index.html")))
        # four cores: one record per file, each line's counts summed over
        # the cores (each core's from its annotated.txt)
        both = run([fw("calls"), "--annotate", "both"])
        calls = record(lcov_records(both.path("coverage.info")), "calls.c")
        want = {}
        for i in range(4):
            for ln, n in annotated_lines(both.text("core%d" % i, "annotated.txt"), "calls.c").items():
                want[ln] = want.get(ln, 0) + n
        self.assertEqual(calls["DA"], want)
        with open(r.path("coverage.info"), "rb") as f:
            before = f.read()
        os.unlink(r.path("coverage.info"))
        res = nptest.raw(["report", r.out])
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(r.path("coverage.info"), "rb") as f:
            self.assertEqual(f.read(), before)


if __name__ == "__main__":
    nptest.main()

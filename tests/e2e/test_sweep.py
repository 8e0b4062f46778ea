#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""nocprof sweep (docs/sweeps.md): the cross product of the axes, each run a
normal output folder, resumable, failures recorded, the same sweep.csv byte
for byte whatever engine ran it.

    test_sweep.py ... Local       the local engine (always)
    test_sweep.py ... Parallel    GNU parallel (exit 77, SKIP, when missing)
    test_sweep.py ... Slurm       a single-node Slurm cluster (munge, slurmctld,
                                  slurmd) that the test starts and stops itself
                                  (exit 77, SKIP, when it cannot start)

Every figure in sweep.csv is checked against a plain `nocprof run` of the
same configuration (the tool's own per-run output is the truth for what a
sweep gathers)."""
import csv
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import fw, raw, run  # noqa: E402

SKIP = 77
AXES = ["--axis", "noc.link_latency=1,4", "--axis", "sample_period=1000,3000"]
TRACK = ["--track", "crc32_words", "--track", "no_such_function"]


def sweep(out, *extra, timeout=300, env=None):
    argv = [nptest.nocprof(), "sweep", "-o", out] + AXES + TRACK + list(extra) + [fw("pipeline")]
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=timeout, env=env)


def rows(out):
    with open(os.path.join(out, "sweep.csv")) as f:
        return list(csv.DictReader(f))


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Local(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = os.path.join(nptest.tmpdir("sweep"), "s")
        cls.res = sweep(cls.out, "--jobs", "2")

    def test_cross_product_and_figures(self):
        self.assertEqual(self.res.returncode, 0, self.res.stderr)
        r = rows(self.out)
        self.assertEqual([(x["noc.link_latency"], x["sample_period"]) for x in r],
                         [("1", "1000"), ("1", "3000"), ("4", "1000"), ("4", "3000")])
        for i, x in enumerate(r):
            self.assertEqual(x["run"], str(i))
            self.assertEqual(x["dir"], "runs/run-%04d" % i)
            self.assertEqual(x["status"], "0")
        # each row equals a plain run of the same configuration
        for i in (0, 3):
            x = r[i]
            ref = run([fw("pipeline"), "--set", "timing.model=24k", "--set", "noc.link_latency=" + x["noc.link_latency"],
                       "--sample-period", x["sample_period"]])
            for k, c in enumerate(ref.summary["cores"]):
                self.assertEqual(int(x["core%d_cycles" % k]), c["cycles"])
                self.assertEqual(int(x["core%d_instructions" % k]), c["instructions"])
                crc = sum(f["self_cycles"] for f in c["functions"] if f["name"] == "crc32_words")
                self.assertEqual(int(x["crc32_words:core%d_self_cycles" % k]), crc)
                self.assertEqual(int(x["no_such_function:core%d_self_cycles" % k]), 0)
        # a longer link latency makes the chip slower
        self.assertGreater(int(r[2]["core3_cycles"]), int(r[0]["core3_cycles"]))

    def test_runs_are_output_folders(self):
        for i in range(4):
            d = os.path.join(self.out, "runs", "run-%04d" % i)
            s = json.load(open(os.path.join(d, "summary.json")))
            periods = s["config"]["profiler"]["sample_period"]
            self.assertEqual(periods, [[1000], [3000]][i % 2])
            for f in ("report.html", "flat.txt", "core0/gmon.out", "sweep-run.json"):
                self.assertTrue(os.path.exists(os.path.join(d, f)), f)

    def test_json_and_html(self):
        j = json.load(open(os.path.join(self.out, "sweep.json")))
        self.assertEqual([a["key"] for a in j["axes"]], ["noc.link_latency", "sample_period"])
        self.assertEqual(j["track"], ["crc32_words", "no_such_function"])
        r = rows(self.out)
        for x, jr in zip(r, j["runs"]):
            self.assertEqual([str(c["cycles"]) for c in jr["cores"]], [x["core%d_cycles" % k] for k in range(4)])
        html = read(os.path.join(self.out, "sweep.html")).decode()
        self.assertIn('"sweep":', html)
        self.assertNotIn('src="http', html)       # self-contained

    def test_report_rerenders(self):
        before = read(os.path.join(self.out, "sweep.csv"))
        os.unlink(os.path.join(self.out, "sweep.csv"))
        res = raw(["sweep", "report", self.out])
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(read(os.path.join(self.out, "sweep.csv")), before)

    def test_resume_runs_only_what_is_missing(self):
        out = os.path.join(nptest.tmpdir("resume"), "s")
        self.assertEqual(sweep(out, "--jobs", "1").returncode, 0)
        keep = os.path.join(out, "runs", "run-0000", "summary.json")
        mtime = os.stat(keep).st_mtime_ns
        shutil.rmtree(os.path.join(out, "runs", "run-0002"))          # lost
        os.unlink(os.path.join(out, "runs", "run-0003", "sweep-run.json"))  # never finished
        time.sleep(0.01)
        res = sweep(out, "--jobs", "1")
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(os.stat(keep).st_mtime_ns, mtime)        # not run again
        self.assertTrue(os.path.exists(os.path.join(out, "runs", "run-0002", "summary.json")))
        self.assertEqual(read(os.path.join(out, "sweep.csv")), read(os.path.join(self.out, "sweep.csv")))

    def test_failed_run_is_recorded(self):
        out = os.path.join(nptest.tmpdir("fail"), "s")
        argv = [nptest.nocprof(), "sweep", "-o", out, "--axis", "run.max_cycles=20000,100000000", fw("pipeline")]
        res = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        self.assertEqual(res.returncode, 1, res.stderr)      # some run not status 0
        self.assertIn("1 of 2 runs", res.stderr)
        r = rows(out)
        self.assertEqual([x["status"] for x in r], ["4", "0"])  # the limit: status 4
        self.assertLessEqual(int(r[0]["core0_cycles"]), 20000)

    def test_usage_errors(self):
        out = os.path.join(nptest.tmpdir("usage"), "s")
        res = raw(["sweep", "-o", out, "--axis", "noc.no_such_key=1,2", fw("pipeline")])
        self.assertEqual(res.returncode, 2)
        self.assertIn("no_such_key", res.stderr)
        res = raw(["sweep", "-o", out, "--axis", "mesh.width=1,x", fw("pipeline")])
        self.assertEqual(res.returncode, 2)
        self.assertIn("mesh", res.stderr)
        res = raw(["sweep", "-o", out, fw("pipeline")])
        self.assertEqual(res.returncode, 2)
        self.assertIn("--axis", res.stderr)
        # DIR holds another sweep: refused, nothing of it touched
        res = raw(["sweep", "-o", self.out, "--axis", "noc.link_latency=2", fw("pipeline")])
        self.assertEqual(res.returncode, 2)
        self.assertIn("another sweep", res.stderr)
        self.assertEqual(len(rows(self.out)), 4)

    def test_every_run_checked_before_any_runs(self):
        # options for every run are checked as `nocprof run` checks them:
        # a usage error is status 2 at once, DIR not made (before: DIR made,
        # every run failed with status 2, the sweep said status 1)
        top = nptest.tmpdir("usage2")
        out = os.path.join(top, "s")
        cfg = os.path.join(top, "bad.ini")
        with open(cfg, "w") as f:
            f.write("[mesh]\nwidth = 99\n")
        one = ["--set", "mesh.width=1", "--set", "mesh.height=1"]
        cases = [
            (["--set", "bogus.key=1"], "bogus.key"),
            (["-c", cfg], "bad.ini"),
            (["-c", "/dev/zero"], "/dev/zero"),
            (["--max-cycles", "abc"], "--max-cycles"),
            (["--threads", "-3"], "--threads"),
            (["--sample-period", "0"], "sample_period"),
            # run 1 (mesh.width=2) has 2 cores for 3 ELFs, run 0 is fine
            (["--axis", "mesh.width=3,2", "--set", "mesh.height=1", fw("calls"), fw("calls")],
             "3 firmware files for 2 cores"),
        ]
        for extra, what in cases:
            argv = ["sweep", "-o", out, "--axis", "noc.link_latency=1,2"] + (extra if "--axis" in extra else one + extra)
            res = raw(argv + [fw("calls")])
            self.assertEqual(res.returncode, 2, (extra, res.stderr))
            self.assertIn(what, res.stderr, extra)
            self.assertFalse(os.path.exists(out), extra)

    def test_hostile_plan_and_summaries(self):
        # DIR/sweep-plan.json and the runs' summary.json are read back:
        # untrusted (before: 100,000 nested brackets crashed `sweep report`
        # with SIGSEGV, wrong types gave Json-CRITICAL and a sweep of one
        # run, and run-one executed whatever "nocprof" named)
        top = nptest.tmpdir("hplan")
        out = os.path.join(top, "s")
        argv = ["sweep", "-o", out, "--axis", "noc.link_latency=1,2", "--set", "mesh.width=1",
                "--set", "mesh.height=1", fw("calls")]
        self.assertEqual(raw(argv).returncode, 0)
        plan_path = os.path.join(out, "sweep-plan.json")
        good = json.load(open(plan_path))
        pwn = os.path.join(top, "pwn.sh")
        with open(pwn, "w") as f:
            f.write("#!/bin/sh\ntouch %s/PWNED\n" % top)
        os.chmod(pwn, 0o755)
        def edited(**kw):
            p = dict(good)
            p.update(kw)
            return json.dumps(p)
        cases = [("[" * 100000 + "]" * 100000, "nested"),
                 (edited(nocprof=5), "nocprof"),
                 (edited(axes=5), "axes"),
                 (edited(axes=[5]), "axes[0]"),
                 (edited(axes=[{"key": "noc.link_latency", "values": ["1", 2]}]), "axes[0].values[1]"),
                 (edited(run_args=["--set", None]), "run_args[1]"),
                 (edited(firmware={}), "firmware")]
        for text, what in cases:
            with open(plan_path, "w") as f:
                f.write(text)
            for cmd in (["sweep", "report", out], ["sweep", "run-one", out, "0"]):
                res = raw(cmd)
                self.assertEqual(res.returncode, 2, (what, cmd, res.stderr))
                self.assertIn("sweep-plan.json", res.stderr, what)
                self.assertIn(what, res.stderr, (what, cmd))
                self.assertNotIn("CRITICAL", res.stderr, what)
        # "nocprof" names another program: run-one runs itself, not that
        with open(plan_path, "w") as f:
            f.write(edited(nocprof=pwn))
        shutil.rmtree(os.path.join(out, "runs", "run-0001"))
        res = raw(["sweep", "run-one", out, "1"])
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertFalse(os.path.exists(os.path.join(top, "PWNED")))
        self.assertTrue(os.path.exists(os.path.join(out, "runs", "run-0001", "summary.json")))
        # a run's summary.json nested 100,000 deep: that row has no figures
        with open(plan_path, "w") as f:
            f.write(json.dumps(good))
        with open(os.path.join(out, "runs", "run-0000", "summary.json"), "w") as f:
            f.write("[" * 100000 + "]" * 100000)
        res = raw(["sweep", "report", out])
        self.assertEqual(res.returncode, 0, res.stderr)
        r = rows(out)
        self.assertEqual((r[0]["status"], r[0].get("core0_cycles")), ("0", ""))
        self.assertNotEqual(r[1]["core0_cycles"], "")

    def test_relative_folder_in_a_deleted_cwd(self):
        # the current folder was deleted: a relative -o has no place. Before,
        # it was made absolute against "/" (GLib's answer when getcwd
        # fails), and the sweep was written into /NAME; now it is an error
        # naming it, as for `nocprof run -o NAME`
        name = "nocprof-e2e-gone-%d" % os.getpid()
        gone = nptest.tmpdir("gone")

        def enter_and_delete():
            os.chdir(gone)
            os.rmdir(gone)
        try:
            p = subprocess.run([nptest.nocprof(), "sweep", "-o", name, "--axis", "noc.link_latency=1",
                                "--set", "mesh.width=1", "--set", "mesh.height=1", fw("calls")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                               preexec_fn=enter_and_delete, timeout=120)
            self.assertFalse(os.path.exists("/" + name))
            self.assertNotEqual(p.returncode, 0)
            self.assertIn(name + ": cannot create", p.stderr)
        finally:
            shutil.rmtree("/" + name, ignore_errors=True)

    def test_firmware_axis(self):
        out = os.path.join(nptest.tmpdir("fwaxis"), "s")
        argv = [nptest.nocprof(), "sweep", "-o", out, "--axis", "firmware=%s,%s" % (fw("calls"), fw("cpu")),
                "--set", "mesh.width=1", "--set", "mesh.height=1"]
        res = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        self.assertEqual(res.returncode, 0, res.stderr)
        r = rows(out)
        for x, name in zip(r, ("calls", "cpu")):
            ref = run([fw(name), "--set", "timing.model=24k"] + nptest.ONE_CORE)   # the default model
            self.assertEqual(int(x["core0_cycles"]), ref.core(0)["cycles"])

    def test_slurm_dry_run_script(self):
        out = os.path.join(nptest.tmpdir("dry"), "s")
        res = sweep(out, "--engine", "slurm", "--dry-run", "--jobs", "3")
        self.assertEqual(res.returncode, 0, res.stderr)
        script = read(os.path.join(out, "sweep.sbatch")).decode()
        self.assertIn("#SBATCH --array=0-3%3\n", script)
        self.assertIn("sweep run-one '%s' \"$SLURM_ARRAY_TASK_ID\"" % os.path.abspath(out), script)
        self.assertFalse(os.path.exists(os.path.join(out, "runs", "run-0000")))

    def test_slurm_script_with_a_hostile_folder(self):
        # sweep.sbatch names DIR in a #SBATCH line (sbatch's own parser:
        # in double quotes, \\" for ", %% for %) and in the shell's exec line:
        # the script run by sh runs the run in DIR and nothing else (before:
        # a newline in DIR ended the comment line and the rest ran as code)
        top = nptest.tmpdir("dryq")
        out = os.path.join(top, "a b'c\"d #%A $(touch PWNED) `touch PWNED2`")
        argv = [nptest.nocprof(), "sweep", "-o", out, "--engine", "slurm", "--dry-run",
                "--axis", "noc.link_latency=1,2", "--set", "mesh.width=1", "--set", "mesh.height=1", fw("calls")]
        res = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                             timeout=120, cwd=top)
        self.assertEqual(res.returncode, 0, res.stderr)
        script = read(os.path.join(out, "sweep.sbatch")).decode()
        self.assertIn('#SBATCH --output="%s/runs/slurm-%%A_%%a.out"\n' % os.path.join(
            top, "a b'c\\\"d #%%A $(touch PWNED) `touch PWNED2`"), script)
        env = dict(os.environ, SLURM_ARRAY_TASK_ID="1")
        r = subprocess.run(["sh", os.path.join(out, "sweep.sbatch")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=120, cwd=top, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(os.listdir(top)), [os.path.basename(out)])    # nothing touched
        self.assertEqual(sorted(os.listdir(os.path.join(out, "runs"))), ["run-0001"])
        # a newline cannot be in a #SBATCH line: refused before DIR is made
        nl = os.path.join(top, "x\ntouch PWNED3\n#")
        argv[3] = nl
        res = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                             timeout=120, cwd=top)
        self.assertEqual(res.returncode, 2, res.stderr)
        self.assertIn("--engine slurm", res.stderr)
        self.assertIn("newline", res.stderr)
        self.assertFalse(os.path.exists(nl))


class Parallel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not shutil.which("parallel"):
            print("SKIP: GNU parallel is not installed (Debian package parallel)")
            sys.exit(SKIP)

    def test_same_csv_as_local(self):
        local = os.path.join(nptest.tmpdir("loc"), "s")
        par = os.path.join(nptest.tmpdir("par"), "s")
        self.assertEqual(sweep(local, "--jobs", "2").returncode, 0)
        res = sweep(par, "--engine", "parallel", "--jobs", "2")
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(read(os.path.join(par, "sweep.csv")), read(os.path.join(local, "sweep.csv")))

    def test_folder_name_is_not_shell_code(self):
        # GNU parallel runs its command through a shell: a folder named
        # with a space, quotes and $(...) is one argument, never code
        # (before: the touch ran, and run-one got "usage" for every run)
        top = nptest.tmpdir("parq")
        par = os.path.join(top, "a b'c\"d $(touch PWNED) `touch PWNED2`")
        argv = [nptest.nocprof(), "sweep", "-o", par, "--engine", "parallel", "--jobs", "1",
                "--axis", "noc.link_latency=1,2", "--set", "mesh.width=1", "--set", "mesh.height=1", fw("calls")]
        res = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                             timeout=120, cwd=top)
        self.assertEqual(sorted(os.listdir(top)), [os.path.basename(par)])    # nothing touched
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual([x["status"] for x in rows(par)], ["0", "0"])


class SlurmCluster:
    """munged + slurmctld + slurmd on this host, in a temporary folder."""

    def __init__(self, root):
        self.root = root
        self.env = dict(os.environ, SLURM_CONF=os.path.join(root, "slurm.conf"))
        self.pids = []

    def _daemon(self, argv):
        r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                           env=self.env, timeout=30)
        if r.returncode:
            raise RuntimeError("%s: %s" % (argv[0], r.stdout.strip()))

    def start(self):
        for d in ("munge", "spool", "state", "log"):
            os.makedirs(os.path.join(self.root, d))
        m = os.path.join(self.root, "munge")
        with open(os.path.join(m, "munge.key"), "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(os.path.join(m, "munge.key"), 0o600)
        self._daemon(["munged", "--force", "--key-file=%s/munge.key" % m, "--socket=%s/munge.socket" % m,
                      "--pid-file=%s/munged.pid" % m, "--log-file=%s/munged.log" % m,
                      "--seed-file=%s/munged.seed" % m])
        host = socket.gethostname().split(".")[0]
        r = self.root
        conf = """ClusterName=nocproftest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={r}/munge/munge.socket
StateSaveLocation={r}/state
SlurmdSpoolDir={r}/spool
SlurmctldPidFile={r}/slurmctld.pid
SlurmdPidFile={r}/slurmd.pid
SlurmctldLogFile={r}/log/slurmctld.log
SlurmdLogFile={r}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SwitchType=switch/none
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP
""".format(host=host, r=r, cpus=os.cpu_count() or 1)
        with open(self.env["SLURM_CONF"], "w") as f:
            f.write(conf)
        self._daemon(["slurmctld", "-f", self.env["SLURM_CONF"]])
        self._daemon(["slurmd", "-f", self.env["SLURM_CONF"]])
        deadline = time.time() + 30
        while time.time() < deadline:
            s = subprocess.run(["sinfo", "-h", "-o", "%t"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, env=self.env)
            if s.stdout.strip() in ("idle", "mix", "alloc"):
                return
            time.sleep(0.5)
        raise RuntimeError("the node did not come up: sinfo says %r" % s.stdout.strip())

    def stop(self):
        for pidfile in ("slurmd.pid", "slurmctld.pid", "munge/munged.pid"):
            try:
                with open(os.path.join(self.root, pidfile)) as f:
                    os.kill(int(f.read().strip()), 15)
            except (OSError, ValueError):
                pass


class Slurm(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        missing = [p for p in ("munged", "slurmctld", "slurmd", "sbatch", "sinfo") if not shutil.which(p)]
        if missing:
            print("SKIP: Slurm not installed (%s; Debian packages slurm-wlm, munge)" % ", ".join(missing))
            sys.exit(SKIP)
        cls.cluster = SlurmCluster(nptest.tmpdir("slurm"))
        try:
            cls.cluster.start()
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            cls.cluster.stop()
            print("SKIP: a single-node Slurm cluster cannot start here: %s" % e)
            sys.exit(SKIP)

    @classmethod
    def tearDownClass(cls):
        cls.cluster.stop()

    def test_same_csv_as_local(self):
        local = os.path.join(nptest.tmpdir("loc"), "s")
        sl = os.path.join(nptest.tmpdir("sl"), "s")
        self.assertEqual(sweep(local, "--jobs", "2").returncode, 0)
        res = sweep(sl, "--engine", "slurm", env=self.cluster.env)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(read(os.path.join(sl, "sweep.csv")), read(os.path.join(local, "sweep.csv")))
        # one array task per run: Slurm's own output files
        outs = [f for f in os.listdir(os.path.join(sl, "runs")) if f.startswith("slurm-")]
        self.assertEqual(len(outs), 4)

    def test_hostile_folder(self):
        # spaces, quotes, #, % and $(...) in DIR: sbatch writes its output
        # files into DIR/runs and the runs run there, nothing else runs
        top = nptest.tmpdir("slq")
        sl = os.path.join(top, "a b'c\"d #%A $(touch PWNED)")
        argv = [nptest.nocprof(), "sweep", "-o", sl, "--engine", "slurm",
                "--axis", "noc.link_latency=1,2", "--set", "mesh.width=1", "--set", "mesh.height=1", fw("calls")]
        res = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                             timeout=300, cwd=top, env=self.cluster.env)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(sorted(os.listdir(top)), [os.path.basename(sl)])
        self.assertEqual([x["status"] for x in rows(sl)], ["0", "0"])
        outs = [f for f in os.listdir(os.path.join(sl, "runs")) if f.startswith("slurm-")]
        self.assertEqual(len(outs), 2)


if __name__ == "__main__":
    nptest.main()

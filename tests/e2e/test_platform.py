#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/platform - the platform and the tool from the outside (SPEC 1, 2, 4, 6).

Applications on both byte orders, console text and the [coreN] prefix,
determinism, the 4x4 mesh, the output folder, summary.json keys and types,
NoC statistics of the pipeline, --help, the embedded demo, SIGINT.
"""
import os
import re
import signal
import subprocess
import sys
import time
import json
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import fw, run  # noqa: E402

APPS = ("pipeline", "ptoll", "ticks")
_cache = {}


def app_run(name, endian, quiet=True):
    """One cached run per (firmware, byte order, quiet)."""
    key = (name, endian, quiet)
    if key not in _cache:
        _cache[key] = run([fw(name, endian)], quiet=quiet)
    return _cache[key]


def consoles(r, n):
    return [r.text("core%d" % i, "console.txt") for i in range(n)]


class Applications(unittest.TestCase):
    def test_apps_exit_0_on_both_byte_orders(self):
        for name in APPS:
            for endian in ("el", "eb"):
                r = app_run(name, endian)
                self.assertEqual(r.rc, 0, r.describe())
                s = r.summary
                self.assertEqual(len(s["cores"]), 4)
                for c in s["cores"]:
                    self.assertEqual((c["status"], c["exit_code"]), ("exited", 0), (name, endian, c["id"]))
                    self.assertIsNone(c["fault"])
                    self.assertGreater(c["instructions"], 0)
                    self.assertGreaterEqual(c["cycles"], c["instructions"])

    def test_big_endian_console_equals_little_endian(self):
        for name in APPS:
            el = consoles(app_run(name, "el"), 4)
            eb = consoles(app_run(name, "eb"), 4)
            self.assertTrue(el[0], "%s: core 0 printed nothing" % name)
            for i in range(4):
                self.assertEqual(el[i], eb[i], "%s core %d: console differs between byte orders" % (name, i))

    def test_pipeline_console(self):
        con = consoles(app_run("pipeline", "el"), 4)
        c3 = con[3].splitlines()
        blocks = [l for l in c3 if l.startswith("block ")]
        self.assertEqual(len(blocks), 8, con[3])
        for b, line in enumerate(blocks):
            self.assertRegex(line, r"^block %d: crc32=0x[0-9a-f]{8} adler32=0x[0-9a-f]{8} ok$" % b)
        self.assertEqual(c3[-1], "pipeline: 8 blocks ok")
        self.assertIn('pipeline: crc32("123456789")=0xcbf43926 ok', con[1])
        self.assertIn('pipeline: adler32("Wikipedia")=0x11e60398 ok', con[2])
        self.assertIn("pipeline: core 0 sent 8 blocks of 64 words", con[0])
        self.assertIn("pipeline: core 1 computed 8 crc32s", con[1])
        self.assertIn("pipeline: core 2 computed 8 adler32s", con[2])
        # the known CRC of block 0 is the same whatever the implementation
        for line in con[3].splitlines():
            self.assertNotIn("MISMATCH", line)

    def test_ptoll_and_ticks_console(self):
        con = consoles(app_run("ptoll", "el"), 4)
        self.assertRegex(con[0], r"ptoll: 12 trips, \d+ on route66, \d+ on highway80, toll \d+ ok\n")
        con = consoles(app_run("ticks", "el"), 4)
        for k in range(4):
            self.assertIn("ticks: core %d period %d: 50 ticks ok\n" % (k, 5000 + 1000 * k), con[k])

    def test_stdout_prefix_and_quiet(self):
        loud = app_run("pipeline", "el", quiet=False)
        self.assertEqual(loud.rc, 0, loud.describe())
        lines = loud.stdout.splitlines()
        self.assertTrue(lines)
        per_core = {i: [] for i in range(4)}
        for line in lines:
            m = re.match(r"^\[core(\d)\] (.*)$", line)
            self.assertIsNotNone(m, "stdout line without [coreN] prefix: %r" % line)
            per_core[int(m.group(1))].append(m.group(2))
        con = consoles(loud, 4)
        for i in range(4):
            self.assertEqual("".join(l + "\n" for l in per_core[i]), con[i], "core %d" % i)
        quiet = app_run("pipeline", "el", quiet=True)
        self.assertEqual(quiet.stdout, "")
        self.assertEqual(consoles(quiet, 4), con)


class NetworkInterrupts(unittest.TestCase):
    def test_rx_and_tx_interrupts_wake_wait(self):
        """netirq: core 0 sends from its transmit-ready interrupt, the other
        cores sleep in `wait` and drain packets in their receive interrupt."""
        for endian in ("el", "eb"):
            r = run([fw("netirq", endian)])
            self.assertEqual(r.rc, 0, r.stderr)
            cores = r.summary["cores"]
            self.assertIn("netirq: core 0 sent 120 packets", r.text("core0", "console.txt"))
            self.assertGreaterEqual(cores[0]["interrupts"], 120)  # one packet per tx interrupt
            for k in (1, 2, 3):
                c = cores[k]
                self.assertEqual(r.text("core%d" % k, "console.txt"),
                                 "netirq: core %d received 40 packets, 0 bad\n" % k)
                self.assertGreater(c["idle_cycles"], 0)     # slept in wait
                self.assertGreaterEqual(c["waits"], 1)
                self.assertGreaterEqual(c["interrupts"], 1)
                self.assertLessEqual(c["interrupts"], 40)  # a handler may drain several
                vec = [f for f in c["functions"] if f["name"] == "_irq_vector"][0]
                self.assertEqual(vec["calls"], c["interrupts"])
                self.assertEqual([a["caller"] for a in vec["callers"]], ["<interrupt>"])
                self.assertEqual(vec["inclusive_cycles"], c["irq_cycles"])
            self.assertEqual(r.summary["noc"]["packets"], 120)
            self.check_trace(r)

    def test_trace_packets_nest(self):
        """pipeline and alltoall: a node sends its next packet while the
        previous one is still in flight (pipeline core 0: 32 packets of 17
        flits to core 1), so its packets need more than one lane."""
        for name in ("pipeline", "alltoall"):
            r = run([fw(name)])
            self.assertEqual(r.rc, 0, r.stderr)
            with open(r.path("trace.json")) as f:
                ev = json.load(f)["traceEvents"]
            packets = [e for e in ev if e.get("cat") == "packet"]
            self.assertEqual(len(packets), r.summary["noc"]["packets"])
            self.assertGreater(max(e["tid"] for e in packets), 3)  # a second lane was needed
            self.check_nesting(ev)

    def check_trace(self, r):
        """trace.json (Chrome Trace Event format): one span per wait and per
        interrupt handler run on each core, one per delivered packet."""
        import json
        with open(r.path("trace.json")) as f:
            trace = json.load(f)
        self.assertEqual(trace["displayTimeUnit"], "ns")
        ev = trace["traceEvents"]
        hz = r.summary["config"]["clock"]["hz"]
        names = {(e["pid"], e["name"]) for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
        self.assertEqual(len(names), 5)  # 4 cores + NoC
        for c in r.summary["cores"]:
            mine = [e for e in ev if e["pid"] == c["id"] and e["ph"] == "X"]
            idle = [e for e in mine if e["cat"] == "idle"]
            irq = [e for e in mine if e["cat"] == "interrupt"]
            self.assertEqual(sum(e["args"]["cycles"] for e in idle), c["idle_cycles"])
            self.assertEqual(len(idle), c["waits"])
            self.assertEqual(len(irq), c["interrupts"])
            self.assertEqual(sum(e["args"]["cycles"] for e in irq), c["irq_cycles"])
            for e in mine:
                self.assertAlmostEqual(e["ts"], e["args"]["start_cycle"] / hz * 1e6, places=3)
                self.assertAlmostEqual(e["dur"], e["args"]["cycles"] / hz * 1e6, places=3)
            end = [e for e in ev if e["pid"] == c["id"] and e["ph"] == "i"]
            self.assertEqual([e["name"] for e in end], ["exit 0"])
        packets = [e for e in ev if e.get("cat") == "packet"]
        self.assertEqual(len(packets), r.summary["noc"]["packets"])
        lat = sorted(e["args"]["cycles"] for e in packets)
        self.assertEqual(lat[0], r.summary["noc"]["latency"]["min"])
        self.assertEqual(lat[-1], r.summary["noc"]["latency"]["max"])
        nodes = len(r.summary["cores"])
        for e in packets:
            self.assertEqual(e["name"], "%d->%d" % (e["args"]["src"], e["args"]["dst"]))
            self.assertEqual(e["tid"] % nodes, e["args"]["src"])  # lane * nodes + src
        self.check_nesting(ev)

    def check_nesting(self, ev):
        """The complete events of one thread nest (Chrome Trace Event
        format: Perfetto drops those that do not), packets included."""
        spans = {}
        for e in ev:
            if e["ph"] == "X":
                s = e["args"]["start_cycle"]
                spans.setdefault((e["pid"], e["tid"]), []).append((s, -e["args"]["cycles"], e["name"]))
        for key, lst in spans.items():
            ends = []
            for s, neg, name in sorted(lst):
                while ends and ends[-1] <= s:
                    ends.pop()
                self.assertFalse(ends and s - neg > ends[-1],
                                 "%s at cycle %d overlaps without nesting on pid/tid %s" % (name, s, key))
                ends.append(s - neg)


class Determinism(unittest.TestCase):
    def test_two_runs_identical_summary(self):
        for name in ("pipeline", "ticks"):
            a = run([fw(name)])
            b = run([fw(name)])
            self.assertEqual(a.rc, 0)
            with open(a.path("summary.json"), "rb") as f1, open(b.path("summary.json"), "rb") as f2:
                self.assertEqual(f1.read(), f2.read(), "%s: summary.json differs between two runs" % name)
            for i in range(4):
                for fname in ("console.txt", "flat.txt", "callgraph.txt", "gmon.out"):
                    with open(a.path("core%d" % i, fname), "rb") as f1, open(b.path("core%d" % i, fname), "rb") as f2:
                        self.assertEqual(f1.read(), f2.read(), "%s core%d/%s differs" % (name, i, fname))

    def test_other_quantum_same_console(self):
        base_run = app_run("pipeline", "el")
        base = consoles(base_run, 4)
        for q in ("1", "37", "100000"):
            r = run([fw("pipeline"), "--set", "sched.quantum=" + q])
            self.assertEqual(r.rc, 0, r.describe())
            # scheduling knobs are not part of the result: summary.json is identical
            self.assertNotIn("sched", r.summary["config"])
            self.assertEqual(r.summary, base_run.summary, "quantum %s changes summary.json" % q)
            self.assertEqual(consoles(r, 4), base, "quantum %s changes the console" % q)
        tbase = consoles(app_run("ticks", "el"), 4)
        r = run([fw("ticks"), "--set", "sched.quantum=333"])
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(consoles(r, 4), tbase)


class Mesh4x4(unittest.TestCase):
    def test_sixteen_cores(self):
        r = run(["-c", nptest.src("configs", "mesh4x4.ini"), fw("ptoll")])
        self.assertEqual(r.rc, 0, r.describe())
        s = r.summary
        self.assertEqual(s["config"]["mesh"], {"width": 4, "height": 4})
        self.assertEqual(len(s["cores"]), 16)
        self.assertEqual([c["id"] for c in s["cores"]], list(range(16)))
        for c in s["cores"]:
            self.assertEqual((c["status"], c["exit_code"]), ("exited", 0))
            self.assertGreater(c["instructions"], 0)
            self.assertTrue(os.path.exists(r.path("core%d" % c["id"], "console.txt")))
        self.assertRegex(r.text("core0", "console.txt"), r"ptoll: 12 trips, .* ok\n")
        # 15 workers: every worker got at least one trip message from core 0
        pairs = {(p["src"], p["dst"]): p["packets"] for p in s["noc"]["pairs"]}
        for w in range(1, 12):
            self.assertGreater(pairs.get((0, w), 0), 0, "no packet 0 -> %d" % w)
        # links of a 4x4 mesh: 48 directed links at most, ids in range
        for l in s["noc"]["links"]:
            self.assertIn(l["from"], range(16))
            self.assertIn(l["to"], range(16))
            fx, fy, tx, ty = l["from"] % 4, l["from"] // 4, l["to"] % 4, l["to"] // 4
            self.assertEqual(abs(fx - tx) + abs(fy - ty), 1, l)

    def test_pipeline_on_4x4_idle_cores(self):
        r = run(["--set", "mesh.width=4", "--set", "mesh.height=4", fw("pipeline", "eb")])
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(len(r.summary["cores"]), 16)
        self.assertTrue(r.text("core3", "console.txt").endswith("pipeline: 8 blocks ok\n"))
        for k in range(4, 16):
            self.assertEqual(r.text("core%d" % k, "console.txt"), "pipeline: core %d idle\n" % k)


SPEC_FILES = ("summary.txt", "summary.json", "noc.txt")
CORE_FILES = ("console.txt", "flat.txt", "callgraph.txt", "annotated.txt", "gmon.out")


class OutputFolder(unittest.TestCase):
    def test_every_file(self):
        r = run([fw("calls"), "--sample-period", "1000,997", "--sample-period", "10007"])
        self.assertEqual(r.rc, 0, r.describe())
        for f in SPEC_FILES + ("aliasing.txt",):
            p = r.path(f)
            self.assertTrue(os.path.isfile(p) and os.path.getsize(p) > 0, f)
        for i in range(4):
            for f in CORE_FILES + ("gmon-997.out", "gmon-10007.out"):
                p = r.path("core%d" % i, f)
                self.assertTrue(os.path.isfile(p) and os.path.getsize(p) > 0, p)
            self.assertFalse(os.path.exists(r.path("core%d" % i, "gmon-1000.out")),
                             "the first period goes to gmon.out only")
            for g in ("gmon.out", "gmon-997.out", "gmon-10007.out"):
                with open(r.path("core%d" % i, g), "rb") as f:
                    head = f.read(20)
                self.assertEqual(head[:4], b"gmon")
                self.assertEqual(int.from_bytes(head[4:8], "little"), 1)  # el: version 1 in target order
        # no temporary files left behind (atomic writes)
        for dirpath, _, files in os.walk(r.out):
            for f in files:
                self.assertNotRegex(f, r"(\.tmp|~|\.[A-Z0-9]{6})$", os.path.join(dirpath, f))
        for c in r.summary["cores"]:
            self.assertEqual(sorted(c["samples"].keys(), key=int), ["997", "1000", "10007"])

    def test_one_period_no_aliasing(self):
        r = app_run("pipeline", "el")
        self.assertFalse(os.path.exists(r.path("aliasing.txt")))
        for i in range(4):
            self.assertEqual([f for f in os.listdir(r.path("core%d" % i)) if f.startswith("gmon")], ["gmon.out"])

    def test_eb_gmon_header(self):
        r = app_run("pipeline", "eb")
        with open(r.path("core0", "gmon.out"), "rb") as f:
            head = f.read(20)
        self.assertEqual(head[:4], b"gmon")
        self.assertEqual(int.from_bytes(head[4:8], "big"), 1)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class SummaryJson(unittest.TestCase):
    def test_keys_and_types(self):
        r = run([fw("ticks"), "--sample-period", "1000,3001"])
        self.assertEqual(r.rc, 0, r.describe())
        s = r.summary
        self.assertIsInstance(s["nocprof"], str)
        self.assertTrue(s["nocprof"])
        cfg = s["config"]
        expect_cfg = {
            "mesh": ("width", "height"), "memory": ("ram_size",), "clock": ("hz", "count_divisor"),
            "timing": ("model", "load", "store", "mul", "div", "branch_taken", "mmio", "fpu_add", "fpu_mul", "fpu_div",
                       "fpu_sqrt"),
            "noc": ("router_latency", "link_latency", "buffer_depth", "max_payload", "tx_queue_flits",
                    "rx_queue_flits"),
            "run": ("max_cycles", "livelock_cycles"), "profiler": ("sample_period",),
        }
        self.assertNotIn("sched", cfg)  # speed knobs only, never in the results
        for g, keys in expect_cfg.items():
            self.assertIn(g, cfg)
            for k in keys:
                self.assertIn(k, cfg[g], "%s.%s" % (g, k))
        self.assertEqual(cfg["timing"], {"model": "flat", "load": 1, "store": 0, "mul": 2, "div": 17, "branch_taken": 1, "mmio": 4,
                                         "fpu_add": 3, "fpu_mul": 4, "fpu_div": 31, "fpu_sqrt": 31})
        self.assertEqual(cfg["clock"]["count_divisor"], 2)
        self.assertEqual(cfg["run"]["max_cycles"], 10 ** 10)
        periods = cfg["profiler"]["sample_period"]
        self.assertEqual(periods if isinstance(periods, list) else [int(x) for x in str(periods).split(",")],
                         [1000, 3001])
        self.assertEqual(len(s["cores"]), 4)
        for c in s["cores"]:
            for k in ("id", "exit_code", "instructions", "cycles", "busy_cycles", "idle_cycles", "irq_cycles"):
                self.assertTrue(is_int(c[k]), k)
            self.assertIsInstance(c["elf"], str)
            self.assertTrue(c["elf"].endswith("ticks-el.elf"))
            self.assertIn(c["status"], ("exited", "fault", "limit", "deadlock", "interrupted"))
            self.assertIn("fault", c)
            self.assertIsNone(c["fault"])
            self.assertEqual(c["busy_cycles"] + c["idle_cycles"], c["cycles"])
            self.assertLessEqual(c["irq_cycles"], c["busy_cycles"])
            fns = c["functions"]
            self.assertIsInstance(fns, list)
            names = [f["name"] for f in fns]
            self.assertIn("<idle>", names)
            self.assertIn("<interrupt>", names)
            self.assertIn("main", names)
            for f in fns:
                for k in ("name", "address", "size", "calls", "self_cycles", "inclusive_cycles", "samples",
                          "callers"):
                    self.assertIn(k, f, "%s lacks %s" % (f.get("name"), k))
                self.assertIsInstance(f["name"], str)
                for k in ("address", "size", "calls", "self_cycles", "inclusive_cycles"):
                    self.assertTrue(is_int(f[k]), "%s.%s = %r" % (f["name"], k, f[k]))
                self.assertIsInstance(f["samples"], dict)
                self.assertEqual(sorted(f["samples"].keys(), key=int), ["1000", "3001"])
                for v in f["samples"].values():
                    self.assertTrue(is_int(v))
                self.assertIsInstance(f["callers"], list)
                self.assertLessEqual(f["self_cycles"], f["inclusive_cycles"], f["name"])
                for a in f["callers"]:
                    self.assertIsInstance(a["caller"], str)
                    self.assertTrue(is_int(a["count"]))
                    self.assertTrue(a["count"] > 0)
                    self.assertTrue(is_int(a.get("call_site", 0)))
                if not f["name"].startswith("<"):
                    self.assertGreaterEqual(f["address"], 0x80000000, f["name"])
            # sum of self cycles over functions (with <idle>) is every cycle
            self.assertEqual(sum(f["self_cycles"] for f in fns), c["cycles"], "core %d" % c["id"])
        noc = s["noc"]
        for l in noc["links"]:
            self.assertTrue(is_int(l["from"]) and is_int(l["to"]) and is_int(l["flits"]))
            self.assertTrue(is_num(l["utilization"]))
        for p in noc["pairs"]:
            for k in ("src", "dst", "packets", "flits"):
                self.assertTrue(is_int(p[k]))
        for k in ("min", "mean", "p50", "p95", "p99", "max"):
            self.assertTrue(is_num(noc["latency"][k]), k)
        self.assertTrue(is_int(noc["stall_cycles"]))

    def test_cache_config_values_as_set(self):
        # "config" holds the effective values as the config spells them:
        # [cache] d_model is a name (predict or hook), like [timing] model,
        # and every [cache] key is there (was d_model: 0 for both names)
        for dm in ("predict", "hook"):
            r = run([fw("calls"), "--set", "cache.enabled=1", "--set", "cache.d_model=" + dm,
                     "--set", "cache.dcache_ways=2", "--set", "cache.miss_penalty=7"] + nptest.ONE_CORE)
            self.assertEqual(r.rc, 0, r.describe())
            self.assertEqual(r.summary["config"]["cache"],
                             {"enabled": 1, "line": 32, "icache_size": 32768, "icache_ways": 4, "dcache_size": 32768,
                              "dcache_ways": 2, "miss_penalty": 7, "writeback_penalty": 0, "d_model": dm})

    def test_fault_object_types(self):
        r = run([fw("fault_break")])
        self.assertEqual(r.rc, 3, r.describe())
        for c in r.summary["cores"]:
            fl = c["fault"]
            self.assertIsInstance(fl, dict)
            for k, t in (("kind", str), ("function", str), ("file", str), ("message", str), ("stack", list)):
                self.assertIsInstance(fl[k], t, k)
            self.assertTrue(is_int(fl["pc"]))
            self.assertTrue(is_int(fl["line"]))


class Cp0AndFpu(unittest.TestCase):
    """SPEC section 1: CP0 Count/Compare on hardware line 5 through the
    runtime's vector (firmware/tests/cp0tick.c), and hard-float code
    (firmware/tests/fpu.c, figures of a host build)."""

    def check_ticks(self, endian, divisor):
        args = [fw("cp0tick", endian)]
        if divisor != 2:
            args = ["--set", "clock.count_divisor=%d" % divisor] + args
        r = run(args)
        self.assertEqual(r.rc, 0, r.describe())
        for c in r.summary["cores"]:
            k = c["id"]
            interval = 2000 + 500 * k
            con = r.text("core%d" % k, "console.txt")
            ticks = [tuple(int(x) for x in m) for m in
                     re.findall(r"cp0tick: core %d tick (\d+) compare (\d+) cycle (\d+)" % k, con)]
            self.assertEqual([t[0] for t in ticks], list(range(8)), con)
            self.assertIn("cp0tick: core %d ok" % k, con)
            c0 = ticks[0][1]
            # Compare advances by the interval; Count = t / d reaches it at
            # t = d * Compare, where the idle core takes the interrupt: the
            # handler's time stamp is the same path length after it each time
            self.assertEqual([t[1] for t in ticks], [c0 + i * interval for i in range(8)])
            offs = {t[2] - divisor * t[1] for t in ticks}
            self.assertEqual(len(offs), 1, ticks)
            self.assertTrue(0 < offs.pop() < 200, ticks)
            self.assertEqual(c["interrupts"], 8)

    def test_cp0_ticks_el(self):
        self.check_ticks("el", 2)

    def test_cp0_ticks_eb(self):
        self.check_ticks("eb", 2)

    def test_cp0_ticks_divisor_3(self):
        self.check_ticks("el", 3)

    def test_hard_float(self):
        for endian in ("el", "eb"):
            r = run([fw("fpu", endian)])
            self.assertEqual(r.rc, 0, r.describe())
            self.assertEqual(r.text("core0", "console.txt"),
                             "fpu: basel 1643934 sqrt2 1414213562 harmonic 3597739 rt 1772453\n")

    def test_identity_registers(self):
        """cp0id.c: EBase.CPUNum is the core id (EBase = 0x80000000 as SPEC
        puts the vector there), Config1 gives the [cache] geometry and the
        performance counters (PC), rdhwr $1 the line size. Encodings from
        the MIPS32 PRA: Config1 M 31, MMUSize 30:25 (15: 16 TLB entries),
        IS 24:22 (64 << IS sets), IL 21:19 (2 << IL bytes), IA 18:16 (IA + 1
        ways), DS DL DA 15:7 alike, PC 4, WR 3, CA 2, EP 1, FP 0. Before:
        EBase 0x800003ff on every core, Config1 0x9e190c8f (2 KiB 2-way
        caches of 16-byte lines, no counters), SYNCI_Step 32 for any line.
        IntCtl: IPTI 31:29 and IPPCI 28:26 both 7 (the timer and the
        counters' overflow on IP7, as nocprof raises them); before, IPPCI
        read 0 (intctl e0000000)."""
        def config1(isets, iways, dsets, dways, line):
            lg = lambda v: v.bit_length() - 1  # noqa: E731
            return (1 << 31 | 15 << 25 | (lg(isets) - 6) << 22 | (lg(line) - 1) << 19 | (iways - 1) << 16
                    | (lg(dsets) - 6) << 13 | (lg(line) - 1) << 10 | (dways - 1) << 7 | 0x1F)
        # the 24K's 32 KiB, 4-way, 32-byte lines: 256 sets
        self.assertEqual(config1(256, 4, 256, 4, 32), 0x9EA3519F)
        cases = [([], config1(256, 4, 256, 4, 32), 32),
                 (["--set", "cache.line=64", "--set", "cache.icache_ways=2", "--set", "cache.dcache_size=4096",
                   "--set", "cache.dcache_ways=1", "--set", "cache.enabled=1"], config1(256, 2, 64, 1, 64), 64)]
        for endian in ("el", "eb"):
            for extra, want1, step in cases:
                with self.subTest(endian=endian, extra=extra):
                    r = run(extra + [fw("cp0id", endian)])
                    self.assertEqual(r.rc, 0, r.describe())
                    for k in range(4):
                        self.assertEqual(r.text("core%d" % k, "console.txt"),
                                         "cp0id: core %d prid 00019300 ebase %08x intctl fc000000 config1 %08x "
                                         "synci_step %d\n" % (k, 0x80000000 | k, want1, step))


class Noc(unittest.TestCase):
    def test_pipeline_pairs_links_latency(self):
        r = app_run("pipeline", "el")
        noc = r.summary["noc"]
        pairs = {(p["src"], p["dst"]): (p["packets"], p["flits"]) for p in noc["pairs"] if p["packets"]}
        # pipeline.c: 8 blocks of 64 words as 4 packets of 16 words;
        # core1 adds a 2-word trailer per block, core2 a 3-word trailer;
        # core3 sends a 2-word verdict to cores 0, 1, 2.  flits = words + 1 head.
        nb, ppb, pw = 8, 4, 16
        want = {
            (0, 1): (nb * ppb, nb * ppb * (pw + 1)),
            (1, 2): (nb * (ppb + 1), nb * ppb * (pw + 1) + nb * (2 + 1)),
            (2, 3): (nb * (ppb + 1), nb * ppb * (pw + 1) + nb * (3 + 1)),
            (3, 0): (1, 3), (3, 1): (1, 3), (3, 2): (1, 3),
        }
        self.assertEqual(pairs, want)
        # XY routes on the 2x2 mesh (id = y * 2 + x): X first, then Y
        def route(s, d):
            x, y = s % 2, s // 2
            dx, dy = d % 2, d // 2
            hops = []
            while x != dx:
                nx = x + (1 if dx > x else -1)
                hops.append((y * 2 + x, y * 2 + nx))
                x = nx
            while y != dy:
                ny = y + (1 if dy > y else -1)
                hops.append((y * 2 + x, ny * 2 + x))
                y = ny
            return hops
        want_links = {}
        for (s, d), (_, fl) in want.items():
            for h in route(s, d):
                want_links[h] = want_links.get(h, 0) + fl
        links = {(l["from"], l["to"]): l["flits"] for l in noc["links"] if l["flits"]}
        self.assertEqual(links, want_links)
        cycles = noc.get("cycles")
        for l in noc["links"]:
            self.assertGreaterEqual(l["utilization"], 0)
            self.assertLessEqual(l["utilization"], 1)
            if cycles:
                self.assertAlmostEqual(l["utilization"], l["flits"] / cycles, places=5)
        lat = noc["latency"]
        self.assertLessEqual(lat["min"], lat["p50"])
        self.assertLessEqual(lat["p50"], lat["p95"])
        self.assertLessEqual(lat["p95"], lat["p99"])
        self.assertLessEqual(lat["p99"], lat["max"])
        self.assertLessEqual(lat["min"], lat["mean"])
        self.assertLessEqual(lat["mean"], lat["max"])
        # one hop, 3 flits, no contention: at least (hops+1)*router + hops*link + words
        self.assertGreaterEqual(lat["min"], 2 * 2 + 1 + 2)
        self.assertGreaterEqual(noc["stall_cycles"], 0)
        txt = r.text("noc.txt")
        self.assertIn("544", txt)
        self.assertRegex(txt, r"p50\s+%s\b" % re.escape(str(lat["p50"])))

    def test_no_traffic(self):
        r = app_run("ticks", "el")
        noc = r.summary["noc"]
        self.assertEqual(sum(p["packets"] for p in noc["pairs"]), 0)
        self.assertEqual(sum(l["flits"] for l in noc["links"]), 0)


class Help(unittest.TestCase):
    OPTIONS = ("--config", "-c", "--out", "-o", "--sample-period", "--max-cycles", "--set", "--core", "-q",
               "--quiet", "--help")

    def test_help(self):
        top = nptest.raw(["--help"])
        self.assertEqual(top.returncode, 0)
        self.assertIn("run", top.stdout)
        rh = nptest.raw(["run", "--help"])
        self.assertEqual(rh.returncode, 0, rh.stderr)
        for opt in self.OPTIONS:
            self.assertRegex(rh.stdout, r"(^|[\s,])%s\b" % re.escape(opt), "run --help does not mention " + opt)
        for word in ("SECTION.KEY=VALUE", "N=FILE", "summary.json", "gmon.out", "130"):
            self.assertIn(word, rh.stdout)
        for status in ("0", "1", "2", "3", "4", "5", "130", "143"):
            self.assertRegex(rh.stdout, r"\b%s\b" % status)
        # every file of the output folder (SPEC 4, "Output folder")
        for name in ("summary.txt", "summary.json", "coreN/flat.txt", "coreN/callgraph.txt", "coreN/annotated.txt",
                     "coreN/gmon.out", "gmon-P.out", "coreN/console.txt", "noc.txt", "aliasing.txt", "comm.txt",
                     "report.html"):
            self.assertIn(name, rh.stdout, "run --help does not list " + name)
        rep = nptest.raw(["report", "--help"])
        for name in ("summary.json", "comm.txt", "report.html", "trace.json", "gmon-P.out"):
            self.assertIn(name, rep.stdout, "report --help does not list " + name)

    def test_no_command(self):
        r = nptest.raw([])
        self.assertEqual(r.returncode, 2)
        r = nptest.raw(["frobnicate"])
        self.assertEqual(r.returncode, 2)
        self.assertIn("frobnicate", r.stderr)


class Demo(unittest.TestCase):
    def test_embedded_demo_from_another_directory(self):
        d = nptest.tmpdir("demo")
        proc = subprocess.run([nptest.nocprof(), "run", "-q"], cwd=d, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        out = os.path.join(d, "nocprof-out")
        self.assertTrue(os.path.isfile(os.path.join(out, "summary.json")), "default output folder nocprof-out")
        with open(os.path.join(out, "core3", "console.txt")) as f:
            self.assertTrue(f.read().endswith("pipeline: 8 blocks ok\n"))
        with open(os.path.join(out, "core0", "flat.txt")) as f:
            flat = f.read()
        self.assertRegex(flat, r"\brt_send\n")
        self.assertRegex(flat, r"\bmain\n")


class Sigint(unittest.TestCase):
    def test_sigint_exit_130_with_reports(self):
        out = nptest.tmpdir("sigint")
        # livelock check off: spin's polling is found as a livelock after
        # 10^7 cycles, about 1 s, racing the SIGINT below
        proc = subprocess.Popen([nptest.nocprof(), "run", "-q", "-o", out, "--max-cycles", str(10 ** 15),
                                 "--set", "run.livelock_cycles=0",
                                 fw("spin")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                universal_newlines=True)
        time.sleep(1.0)
        self.assertIsNone(proc.poll(), "spin ended before SIGINT")
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            self.fail("nocprof did not stop within 30 s of SIGINT")
        self.assertLess(time.monotonic() - t0, 10)
        self.assertEqual(proc.returncode, 130, err)
        r = nptest.Run(["spin"], proc, out, 0)
        r.rc = proc.returncode
        for c in r.summary["cores"]:
            self.assertEqual(c["status"], "interrupted")
            self.assertGreater(c["cycles"], 100000)
            self.assertLess(c["cycles"], 10 ** 15)
        for f in SPEC_FILES:
            self.assertTrue(os.path.isfile(r.path(f)), f)
        for i in range(4):
            for f in CORE_FILES:
                self.assertTrue(os.path.isfile(r.path("core%d" % i, f)), f)
        self.assertIn("spin: core 0 polls forever", r.text("core0", "console.txt"))


if __name__ == "__main__":
    nptest.main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_exact.py - no scheduling knob changes any result (SPEC sections 1, 5).

The scheduler is conservative and exact (emu/machine.h): [sched] quantum
and --threads only change speed. Every file a run writes must be byte
for byte the same for every quantum and thread count, on firmware whose
numbers depend on exactly when the NI shows room or data: matmul scatters
rows (the injection queue fills), computes and gathers; netirq sleeps in
`wait` and is woken by NoC interrupts; pipeline streams through 4 stages.

Every schedule is compared with the literal reference, `[sched]
reference = 1` (quantum 1, one thread, no poll-loop skipping): the knob
runs above, and on every firmware of the build (both byte orders, the
bench/ variants of the same sources left out) one schedule each, the
default and REF_KNOBS in turn, each run cut at REF_CYCLES cycles.
"""
import concurrent.futures
import json
import os
import re
import unittest

import nptest
from nptest import fw, main, raw, run

REFERENCE = ["--set", "sched.reference=1"]
REF_CYCLES = 100000
DMODEL_CYCLES = 300000
REF_KNOBS = [None, (1000, 4), (37, 3), (10, 2), (100000, 1), (100, 4), (1000, 2)]

# ASan+UBSan build (tests/CMakeLists.txt sets it): a lighter sweep
SANITIZED = os.environ.get("NOCPROF_E2E_SANITIZED") == "1"
# the spin tests' byte orders: under the sanitizers one (the same code
# paths; the normal build runs both)
SPIN_ENDIANS = ("eb",) if SANITIZED else ("el", "eb")

KNOBS = [(1, 1), (10, 2), (100, 4), (1000, 1), (1000, 2), (1000, 4), (10000, 1), (10000, 4),
         (37, 3), (100000, 2)]


def files_of(out):
    """Every file of an output folder, relative path -> bytes."""
    got = {}
    for root, _dirs, names in os.walk(out):
        for n in names:
            p = os.path.join(root, n)
            with open(p, "rb") as f:
                got[os.path.relpath(p, out)] = f.read()
    return got


class Exact(unittest.TestCase):
    def check_knobs(self, name, knobs, endian="el", extra=()):
        extra = list(extra)
        ref = run([fw(name, endian)] + REFERENCE + extra)
        self.assertIn(ref.rc, (0, 1), ref.describe())
        base, bq, bt = files_of(ref.out), "reference", "reference"
        for q, t in knobs:
            r = run([fw(name, endian), "--set", "sched.quantum=%d" % q, "--threads", str(t)] + extra)
            self.assertIn(r.rc, (0, 1), r.describe())
            got = files_of(r.out)
            self.assertIn("summary.json", got)
            self.assertEqual(sorted(got), sorted(base), "%s: other files at q=%d t=%d" % (name, q, t))
            for k in base:
                self.assertEqual(got[k], base[k], "%s: %s differs at quantum %d, %d threads (vs %s, %s)"
                                 % (name, k, q, t, bq, bt))
        return base

    def test_every_firmware_against_reference(self):
        # sanitizer builds: big-endian only (e2e/invariants runs every
        # little-endian ELF under them; the normal and TSan runs take both)
        ends = ("-eb.elf",) if SANITIZED else ("-el.elf", "-eb.elf")
        elfs = sorted(f for f in os.listdir(nptest.ARGS.fw)
                      if f.endswith(ends) and not f.startswith("bench-"))
        self.assertGreater(len(elfs), 20 if SANITIZED else 40)
        cut = ["--max-cycles", str(REF_CYCLES)]
        jobs = []
        for i, name in enumerate(elfs):
            path = os.path.join(nptest.ARGS.fw, name)
            knob = REF_KNOBS[i % len(REF_KNOBS)]
            jobs.append((name, "reference", [path] + cut + REFERENCE))
            if knob is None:
                jobs.append((name, "the default schedule", [path] + cut))
            else:
                jobs.append((name, "quantum %d, %d threads" % knob,
                             [path] + cut + ["--set", "sched.quantum=%d" % knob[0], "--threads", str(knob[1])]))
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            runs = list(pool.map(lambda j: run(j[2]), jobs))
        bad = []
        for k in range(0, len(jobs), 2):
            name = jobs[k][0]
            ref = runs[k]
            self.assertNotEqual(ref.rc, 2, ref.describe())
            base = files_of(ref.out)
            for j in (k + 1,):
                r = runs[j]
                got = files_of(r.out)
                if r.rc != ref.rc:
                    bad.append("%s: status %d with %s, %d in the reference" % (name, r.rc, jobs[j][1], ref.rc))
                elif sorted(got) != sorted(base):
                    bad.append("%s: other files with %s" % (name, jobs[j][1]))
                else:
                    bad += ["%s: %s differs with %s" % (name, f, jobs[j][1]) for f in sorted(base)
                            if got[f] != base[f]]
        self.assertEqual(bad, [], "%d differences from the reference in %d runs:\n%s"
                         % (len(bad), len(elfs), "\n".join(bad)))

    def test_cache_d_model(self):
        # [cache] d_model = predict (addresses computed at block entry, code
        # hooks for the rest; emu/dcache.c) writes what the memory hook
        # (d_model = hook) writes: every file but profile.data (which holds
        # the configuration itself), with --events (D1mr/D1mw per line in
        # callgrind.out, flat.txt's event columns) and two sampling periods,
        # on every firmware of the build, both byte orders, cut at
        # DMODEL_CYCLES, small caches so that misses are many; store whole
        # sanitizer builds: big-endian only (e2e/invariants runs every
        # little-endian ELF under them; the normal and TSan runs take both)
        ends = ("-eb.elf",) if SANITIZED else ("-el.elf", "-eb.elf")
        elfs = sorted(f for f in os.listdir(nptest.ARGS.fw)
                      if f.endswith(ends) and not f.startswith("bench-"))
        self.assertGreater(len(elfs), 20 if SANITIZED else 40)
        on = ["--set", "cache.enabled=1", "--set", "cache.dcache_size=1024", "--set", "cache.icache_size=2048",
              "--sample-period", "97,1009", "--events"]
        jobs = []
        for name in elfs:
            cut = [] if name.startswith("store-") else ["--max-cycles", str(DMODEL_CYCLES)]
            for model in ("hook", "predict"):
                jobs.append((name, [os.path.join(nptest.ARGS.fw, name)] + cut + on + ["--set", "cache.d_model=" + model]))
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            runs = list(pool.map(lambda j: run(j[1]), jobs))
        bad, misses = [], 0
        for k in range(0, len(jobs), 2):
            name, hook, pred = jobs[k][0], runs[k], runs[k + 1]
            self.assertNotEqual(hook.rc, 2, hook.describe())
            base, got = files_of(hook.out), files_of(pred.out)
            if pred.rc != hook.rc or sorted(got) != sorted(base):
                bad.append("%s: status %d or files differ (hook: %d)" % (name, pred.rc, hook.rc))
                continue
            # the configuration itself names the model (summary.json's and
            # report.html's "config"): the one difference allowed
            dm = lambda b: b.replace(b'"d_model":"predict"', b'"d_model":"hook"')  # noqa: E731
            bad += ["%s: %s differs" % (name, f) for f in sorted(base)
                    if f != "profile.data" and dm(got[f]) != base[f]]
            summary = json.loads(base["summary.json"])
            misses += any(f.get("cache_misses", {}).get("d1_read", 0) + f.get("cache_misses", {}).get("d1_write", 0)
                          for c in summary["cores"] for f in c["functions"])
        self.assertEqual(bad, [], "%d differences between d_model = predict and hook:\n%s"
                         % (len(bad), "\n".join(bad)))
        self.assertGreater(misses, 40)  # firmware whose run had D-cache misses

    def test_matmul_every_knob(self):
        base = self.check_knobs("matmul", KNOBS)
        self.assertIn(b"0 mismatches", base[os.path.join("core0", "console.txt")])

    def test_matmul_big_endian(self):
        self.check_knobs("matmul", [(1, 1), (1000, 4), (10000, 2)], "eb")

    def test_netirq(self):
        self.check_knobs("netirq", [(1, 1), (1000, 2), (10000, 4)])

    def test_pipeline(self):
        self.check_knobs("pipeline", [(1, 1), (1000, 4), (100000, 2)])

    def test_cache(self):
        # [cache] enabled: misses cost cycles mid-block (D-cache) and at
        # block entry (I-cache), each core's caches its own: still exact
        # against the reference, at every thread count and quantum, on
        # firmware whose timing the NoC, interrupts and samples observe
        on = ["--set", "cache.enabled=1", "--set", "cache.dcache_size=1024", "--set", "cache.icache_size=2048",
              "--sample-period", "97,1009"]
        for name in ("matmul", "netirq", "pipeline", "cp0tick", "devsample", "smc"):
            base = self.check_knobs(name, [(1, 1), (37, 3), (1000, 2), (100000, 4)], extra=on)
            summary = base["summary.json"]
            self.assertIn(b'"cache_misses"', summary, name)
        # profile.data keeps the misses (per function and per instruction):
        # `nocprof report` renders the same summary from it, and `merge`
        # of a run with itself doubles every miss count
        r = run([fw("matmul")] + on)
        self.assertEqual(r.rc, 0, r.describe())
        with open(os.path.join(r.out, "summary.json"), "rb") as f:
            before = f.read()
        res = raw(["report", r.out])
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(r.out, "summary.json"), "rb") as f:
            self.assertEqual(f.read(), before)
        merged = nptest.tmpdir("cachemerge")
        res = raw(["merge", r.out, r.out, "-o", merged])
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(r.out, "summary.json")) as f:
            one = json.load(f)
        with open(os.path.join(merged, "summary.json")) as f:
            two = json.load(f)
        m1 = {f["name"]: f["cache_misses"] for f in one["cores"][0]["functions"]}
        m2 = {f["name"]: f["cache_misses"] for f in two["cores"][0]["functions"]}
        self.assertGreater(m1["master"]["d1_read"], 0)
        self.assertEqual(m2["master"], {k: 2 * v for k, v in m1["master"].items()})

    def test_perf_overflow_in_poll_loop(self):
        # perfpoll.c: PerfCnt0 (instructions, IE) overflows while core 0
        # polls rt_recv for a packet sent at ~200000 cycles; the interrupt is
        # taken a few thousand cycles in, at the same cycle in every
        # schedule (before: the poll skip slept through the crossing and
        # the default schedule took it at 200239, the reference at 9115)
        for endian in ("el", "eb"):
            base = self.check_knobs("perfpoll", KNOBS[:6] + [(100000, 2)], endian)
            m = re.match(rb"perfpoll: hits 1 at (\d+)\n$", base[os.path.join("core0", "console.txt")])
            self.assertIsNotNone(m, base[os.path.join("core0", "console.txt")])
            self.assertLess(int(m.group(1)), 20000)

    def test_wait_beat(self):
        # sleeping in `wait` under a heartbeat until another core's packet
        # comes (after 10 ticks) is no hang, and schedules change nothing
        base = self.check_knobs("wait_beat", [(1, 1), (1000, 2), (37, 3), (100000, 2)])
        self.assertIn(b"wait_beat: core 0 msg 0xbeef after 10 ticks", base[os.path.join("core0", "console.txt")])

    def test_cp0_random(self):
        # CP0 Random is per core and a function of its cycle (SPEC 1)
        base = self.check_knobs("random", [(1, 1), (10, 2), (1000, 1), (1000, 4), (100000, 2)])
        self.assertIn(b"random: core 3 sum", base[os.path.join("core3", "console.txt")])

    def test_livelock(self):
        # where each core stops and the cycle the livelock is found
        base = None
        for q, t in [(1, 1), (1000, 2), (10000, 4)]:
            r = run([fw("livelock"), "--set", "run.livelock_cycles=50000", "--set", "sched.quantum=%d" % q,
                     "--threads", str(t)])
            self.assertEqual(r.rc, 4, r.describe())
            got = files_of(r.out)
            if base is None:
                base = got
            for k in base:
                self.assertEqual(got[k], base[k], "livelock: %s differs at quantum %d, %d threads" % (k, q, t))

    def test_cut_poll_accounting(self):
        """The comm profile of a run cut by the cycle limit while its cores
        poll an empty NI equals the reference's (before: with poll skipping
        each polling core got one failed poll and 8 blocked cycles more:
        livelock 24979 failed RX polls instead of 24978 on core 0; the
        skipped iterations reported to the NI observers were not clamped to
        the limit as the core's own accounting was)."""
        cut = ["--max-cycles", str(REF_CYCLES)]
        ref = run([fw("livelock")] + cut + REFERENCE)
        opt = run([fw("livelock")] + cut)
        self.assertEqual(ref.rc, 4, ref.describe())
        self.assertEqual(opt.text("comm.txt"), ref.text("comm.txt"))

    def test_hangs(self):
        # issue 19.8: hangs kept busy by interrupts, a full network behind an
        # exited core, every core flooding one: found at the same cycle, each
        # core stopped at the same place, the same reports, in every schedule
        # (hang_wait: every core asleep in `wait` under a heartbeat timer;
        # wait_beat at livelock_cycles 10000: the same below the rule's limit)
        for name, L in (("hang_irq", 50000), ("hang_exited", 50000), ("hang_flood", 50000),
                        ("hang_wait", 50000), ("hang_cp0", 50000), ("wait_beat", 10000)):
            base = None
            for q, t in [(1, 1), (1000, 2), (37, 3), (10000, 4), (100000, 2)]:
                r = run([fw(name), "--set", "run.livelock_cycles=%d" % L, "--set", "sched.quantum=%d" % q,
                         "--threads", str(t)], timeout=120)
                self.assertEqual(r.rc, 4, r.describe())
                got = files_of(r.out)
                if base is None:
                    base = got
                self.assertEqual(sorted(got), sorted(base))
                for k in base:
                    self.assertEqual(got[k], base[k], "%s: %s differs at quantum %d, %d threads" % (name, k, q, t))

    def test_spin_loop_that_does_more(self):
        # a spin on RAM whose loop does more than one load (hang_loop.c: a
        # counter in a register, a counter in RAM, two loads, two blocks):
        # each failed
        # iteration is a wait at a sync point, run (not skipped: iterations
        # differ). spin_loop*: a timer handler ends it at its 5th tick; the
        # counter printed is the iteration count, the same files as the
        # reference schedule at every quantum and thread count (and with
        # the cache model and the 24k timing). hang_loop*: nothing ends it:
        # the livelock at the same cycle, the same reports, as the reference.
        for k in (0, 1, 2, 5):
            name = "spin_loop%d" % k
            for endian in SPIN_ENDIANS:
                base = self.check_knobs(name, KNOBS, endian)
                self.assertRegex(base[os.path.join("core0", "console.txt")].decode(),
                                 r"^hang_loop: flag 1 after \d+, 5 ticks\n$")
            self.check_knobs(name, KNOBS[:4], extra=["--set", "cache.enabled=1"])
            self.check_knobs(name, KNOBS[:4], extra=["--set", "timing.model=24k"])
            self.check_livelock("hang_loop%d" % k)

    def test_spin_on_ram(self):
        # a spin on a flag in the core's own RAM (`while (flag == 0) ;`):
        # its failed iterations are skipped like a failed NI poll's, to the
        # next timer tick. spin_tick: a timer handler sets the flag at its
        # 5th tick: the same files as the reference schedule (which runs
        # every iteration) at every quantum and thread count, and with the
        # cache model (iterations not skipped, waits still reported).
        # hang_ram (nobody sets it) and hang_tick (the 100th tick would):
        # the livelock at the same cycle, the same reports, as the reference.
        for endian in SPIN_ENDIANS:
            base = self.check_knobs("spin_tick", KNOBS, endian)
            self.assertEqual(base[os.path.join("core0", "console.txt")], b"hang_tick: flag after 5 ticks\n")
        self.check_knobs("spin_tick", KNOBS[:4], extra=["--set", "cache.enabled=1"])
        # spin_rx: the NoC receive interrupt's handler ends three spins, its
        # packets landing at different phases of the loop: the skip ends at
        # the iteration boundary that takes the interrupt without skipping.
        # Before (the network never woke the spin): core 0 slept on to its
        # livelock's due cycle and took the packet 10^7 cycles late.
        for endian in SPIN_ENDIANS:
            base = self.check_knobs("spin_rx", KNOBS, endian)
            self.assertEqual(base[os.path.join("core0", "console.txt")], b"spin_rx: got 0xe8e08f59\n")
        self.check_knobs("spin_rx", KNOBS[:4], extra=["--set", "timing.model=24k"])
        # spin_rx28 (24k): the second packet lands while core 0 runs the
        # first iteration of its second spin, before the skip begins: the
        # line is up when the core goes to sleep, and nothing after would
        # wake it. Before: every schedule took that interrupt later than
        # the reference (core 0 26584 cycles, 527 in handlers, against
        # 26501 and 684: the two packets taken by one handler run).
        for endian in SPIN_ENDIANS:
            base = self.check_knobs("spin_rx28", KNOBS, endian, extra=["--set", "timing.model=24k"])
            self.assertEqual(base[os.path.join("core0", "console.txt")], b"spin_rx: got 0x024491a0\n")
        # spin_tx: core 0 polls for transmit room (rt_send on a full queue,
        # the poll skip) while its NoC receive interrupt is enabled; three
        # packets land at different phases of the poll loop and the handler
        # records the cycle it ran at: the skip ends at the iteration
        # boundary that takes the interrupt without skipping. Before (the
        # network woke a transmit poller only for room): the handler ran
        # when room came, at 140474 instead of 21341 (flat, el).
        for endian in SPIN_ENDIANS:
            base = self.check_knobs("spin_tx", KNOBS, endian)
            self.assertEqual(base[os.path.join("core0", "console.txt")],
                             b"spin_tx: got 0xe8e08f59 at 21341 28400 32084\n")
        self.check_knobs("spin_tx", KNOBS[:4], extra=["--set", "timing.model=24k"])
        for name in ("hang_ram", "hang_tick"):
            for extra in ([], ["--set", "cache.enabled=1"]):
                self.check_livelock(name, extra)

    def check_livelock(self, name, extra=()):
        """name ends in a livelock (exit 4) at livelock_cycles 50000, with
        the reference schedule's files at every quantum and thread count."""
        L = ["--set", "run.livelock_cycles=50000"] + list(extra)
        ref = run([fw(name)] + L + REFERENCE, timeout=120)
        self.assertEqual(ref.rc, 4, ref.describe())
        self.assertTrue(ref.summary["livelock"])
        base = files_of(ref.out)
        for q, t in [(1, 1), (1000, 2), (37, 3), (100000, 2)]:
            r = run([fw(name), "--set", "sched.quantum=%d" % q, "--threads", str(t)] + L, timeout=120)
            self.assertEqual(r.rc, 4, r.describe())
            got = files_of(r.out)
            self.assertEqual(sorted(got), sorted(base))
            for k in base:
                self.assertEqual(got[k], base[k], "%s %s: %s differs at quantum %d, %d threads" % (name, extra, k, q, t))

    def test_threads_option_validated(self):
        r = run([fw("matmul"), "--threads", "x"])
        self.assertEqual(r.rc, 2)
        self.assertIn("threads", r.stderr)


if __name__ == "__main__":
    main()

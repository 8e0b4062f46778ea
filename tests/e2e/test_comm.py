#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/comm - the communication profile (issue 12) with exact cycle figures.

firmware/tests/comm.c stamps CYCLE_LO in the same asm block right before
each NI access that matters (TX_SEND, the first RX_COUNT / TX_STATUS poll of
a loop, the last RX_DATA) and right after each poll loop, and prints the
stamps. With M = 1 + [timing] mmio (one MMIO load), the access's cycle is
stamp + M, and a poll loop that starts at t0 and is left at t1 was blocked
t1 - t0 - (2M + 2) cycles (RX: lw, beqz, nop after the successful poll) or
t1 - t0 - (2M + 3) (TX: one andi more); 0 when its first poll succeeded.
Delivery cycles come from the NoC's own packet log (trace.json packets).
Every figure of summary.json "communication" is recomputed from those."""
import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import fw, run  # noqa: E402

MMIO = 4                  # configs/default.ini [timing] mmio
M = 1 + MMIO              # cycles of one MMIO load


def stamps(console):
    s, t, r = {}, {}, {}
    for line in console.splitlines():
        f = line.split()
        if f[0] == "S":
            s[int(f[1])] = int(f[2])
        elif f[0] == "T":
            t[int(f[1])] = (int(f[2]), int(f[3]))
        elif f[0] == "R":
            r[int(f[1])] = (int(f[2]), int(f[3]), int(f[4]))
    return s, t, r


def noc_packets(run_, src, dst):
    """(sent, delivered) of every packet src -> dst, from the NoC log."""
    with open(run_.path("trace.json")) as f:
        ev = json.load(f)["traceEvents"]
    out = [(e["args"]["start_cycle"], e["args"]["start_cycle"] + e["args"]["cycles"])
           for e in ev if e.get("cat") == "packet" and e["name"] == "%d->%d" % (src, dst)]
    return sorted(out)


def func(comm, core, name):
    for f in comm["cores"][core]["functions"]:
        if f["name"] == name:
            return f
    raise AssertionError("no function %s on core %d" % (name, core))


def pair(comm, src, dst):
    for p in comm["pairs"]:
        if p["src"] == src and p["dst"] == dst:
            return p
    raise AssertionError("no pair %d->%d" % (src, dst))


class Construction(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.runs = {e: run([fw("comm", e)]) for e in ("el", "eb")}

    def expected_pair(self, r, src, dst):
        """Late sender, network, late receiver and poll_rx of dst's consume
        for the packets src -> dst, from the stamps and the NoC log."""
        s, _, _ = stamps(r.text("core%d" % src, "console.txt"))
        _, _, rv = stamps(r.text("core%d" % dst, "console.txt"))
        pk = noc_packets(r, src, dst)
        self.assertEqual(len(pk), len(s))
        ls = net = lr = waited = poll = 0
        for k in sorted(s):
            ts, td = pk[k]
            self.assertEqual(ts, s[k] + M, "packet %d: TX_SEND cycle = stamp + M" % k)
            t0, t1, t2 = rv[k]
            blocked = t1 - t0 - (2 * M + 2)
            self.assertGreaterEqual(blocked, 0)
            poll += blocked
            if blocked:                    # its first poll failed: it waited
                tw = t0 + M
                waited += 1
                ls += max(0, ts - tw)
            net += td - ts
            lr += (t2 + M) - td
        return dict(late_sender_cycles=ls, network_cycles=net, late_receiver_cycles=lr, waited_packets=waited,
                    packets=len(s)), poll

    def test_late_sender_pair_and_poll_rx(self):
        for e, r in self.runs.items():
            self.assertEqual(r.rc, 0, r.describe())
            comm = r.summary["communication"]
            exp, poll = self.expected_pair(r, 0, 1)
            got = pair(comm, 0, 1)
            self.assertEqual({k: got[k] for k in exp}, exp, e)
            self.assertGreater(exp["late_sender_cycles"], 0)
            self.assertEqual(exp["waited_packets"], 4)       # the 4 packets of phase A
            c = func(comm, 1, "consume")
            self.assertEqual(c["blocked_cycles"]["poll_rx"], poll)
            self.assertEqual(c["blocked_cycles"]["wait_tx"], 0)
            self.assertEqual(c["received_packets"], 12)
            self.assertEqual(c["received_flits"], 4 * 2 + 8 * 17)
            # blocked is a part of self; busy is the rest
            self.assertEqual(c["busy_cycles"], c["self_cycles"] - poll)

    def test_late_sender_is_compute_difference(self):
        # phase A in steady state (packets 1..3): both loops run at the
        # producer's pace, so the receiver starts polling PRODUCE - CONSUME
        # cycles before the send, up to rt_delay's granularity (it polls
        # the 64-bit counter) and the loops' fixed overheads
        r = self.runs["el"]
        s, _, _ = stamps(r.text("core0", "console.txt"))
        _, _, rv = stamps(r.text("core1", "console.txt"))
        d = [(s[k] + M) - (rv[k][0] + M) for k in (1, 2, 3)]
        for x in d:
            self.assertLess(abs(x - (3000 - 1000)), 40, d)

    def test_late_receiver(self):
        for e, r in self.runs.items():
            comm = r.summary["communication"]
            exp, poll = self.expected_pair(r, 2, 3)
            self.assertEqual(poll, 0)
            self.assertEqual(exp["late_sender_cycles"], 0)
            self.assertGreater(exp["late_receiver_cycles"], 4 * 1000)
            got = pair(comm, 2, 3)
            self.assertEqual({k: got[k] for k in exp}, exp, e)

    def test_injection_wait(self):
        for e, r in self.runs.items():
            comm = r.summary["communication"]
            _, t, _ = stamps(r.text("core0", "console.txt"))
            wait_tx = sum(t1 - t0 - (2 * M + 3) for t0, t1 in t.values())
            self.assertGreater(wait_tx, 1000, "back-pressure made core 0 wait")
            p = func(comm, 0, "produce")
            self.assertEqual(p["blocked_cycles"]["wait_tx"], wait_tx, e)
            self.assertEqual(p["blocked_cycles"]["poll_rx"], 0)
            self.assertEqual(p["sent_packets"], 12)
            self.assertEqual(p["sent_flits"], 4 * 2 + 8 * 17)
            self.assertEqual(comm["cores"][0]["blocked_cycles"]["wait_tx"], wait_tx)

    def test_callgrind_blocked_sent_received(self):
        r = self.runs["el"]
        comm = r.summary["communication"]
        for core in range(4):
            text = r.text("core%d" % core, "callgrind.out")
            self.assertIn("events: Cycles Ir Dr Dw Bc Bi Blocked Sent Received", text)
            m = re.search(r"^summary: (\d+)(?: \d+){5} (\d+) (\d+) (\d+)$", text, re.M)
            b = comm["cores"][core]["blocked_cycles"]
            self.assertEqual(int(m.group(2)), b["poll_rx"] + b["wait_tx"])
            sent = sum(f["sent_packets"] for f in comm["cores"][core]["functions"])
            recv = sum(f["received_packets"] for f in comm["cores"][core]["functions"])
            self.assertEqual((int(m.group(3)), int(m.group(4))), (sent, recv))

    def test_trace_flows(self):
        r = self.runs["el"]
        with open(r.path("trace.json")) as f:
            ev = json.load(f)["traceEvents"]
        starts = [e for e in ev if e.get("ph") == "s"]
        ends = {e["id"]: e for e in ev if e.get("ph") == "f"}
        self.assertEqual(len(starts), 12 + 1 + 4)       # every packet consumed
        for e in starts:
            self.assertIn(e["id"], ends)
            self.assertLess(e["ts"], ends[e["id"]]["ts"])
        sends = [e for e in ev if e.get("cat") == "message" and e.get("ph") == "X" and e["pid"] == 0
                 and e["name"] == "send produce"]
        self.assertEqual(len(sends), 12)

    def test_comm_txt(self):
        r = self.runs["el"]
        text = r.text("comm.txt")
        exp, _ = self.expected_pair(r, 0, 1)
        self.assertIn("core0 -> core1: 12 packets, late sender %d, network %d, late receiver %d"
                      % (exp["late_sender_cycles"], exp["network_cycles"], exp["late_receiver_cycles"]), text)
        self.assertRegex(text, r"consume <- core 0 produce: 12 packets \(4 waited for\), late sender %d"
                         % exp["late_sender_cycles"])
        # matrix row core1, column core0
        row = re.search(r"^  core1\s+(\d+)", text, re.M)
        self.assertEqual(int(row.group(1)), exp["late_sender_cycles"])


class WaitIrq(unittest.TestCase):
    def test_wait_with_noc_interrupts_is_wait_irq(self):
        # netirq: cores 1..3 sleep in `wait` (rt_wait) with the NoC receive
        # interrupt enabled, their handler drains the queue until RX_COUNT
        # reads 0: every idle cycle is wait_irq, and the drain's final failed
        # poll, abandoned when the handler returns, is not blocked time
        for e in ("el", "eb"):
            r = run([fw("netirq", e)])
            self.assertEqual(r.rc, 0, r.describe())
            comm = r.summary["communication"]
            for i in (1, 2, 3):
                idle = r.summary["cores"][i]["idle_cycles"]
                self.assertGreater(idle, 0)
                b = comm["cores"][i]["blocked_cycles"]
                self.assertEqual((b["wait_irq"], b["poll_rx"], b["wait_tx"]), (idle, 0, 0))
                self.assertEqual(func(comm, i, "rt_wait")["blocked_cycles"]["wait_irq"], idle)
                p = pair(comm, 0, i)
                self.assertEqual((p["packets"], p["waited_packets"]), (40, 40))


class Demo(unittest.TestCase):
    def test_critical_chain_names_the_bottleneck_stage(self):
        r = run([])
        self.assertEqual(r.rc, 0, r.describe())
        comm = r.summary["communication"]
        cycles = [c["cycles"] for c in r.summary["cores"]]
        last = cycles.index(max(cycles))
        chain = comm["critical_chain"]
        self.assertEqual(chain["last_core"], last)
        self.assertEqual(last, 3)
        # cores 0..2 spend most of their time blocked (waiting for room
        # downstream), core 3 (stage_check) little: it is the bottleneck
        for c in range(3):
            self.assertGreater(comm["cores"][c]["blocked_cycles"]["total"], cycles[c] // 2)
        self.assertLess(comm["cores"][3]["blocked_cycles"]["total"], cycles[3] // 10)
        self.assertIn("stage_check", chain["steps"][-1]["path"])
        text = r.text("comm.txt")
        self.assertRegex(text, r"Core 3's last wait \(in _start;main;stage_check;[^)]*\) ended at cycle \d+; "
                               r"it then ran \d+ more cycles")
        self.assertIn("its own work after the last wait, not the network, sets the finish time", text)
        # every step's times are ordered and chain backwards through senders
        for a, b in zip(chain["steps"], chain["steps"][1:]):
            self.assertEqual(b["src"], a["core"])
            self.assertLessEqual(a["consumed_cycle"], b["sent_cycle"])
        for s in chain["steps"]:
            self.assertLessEqual(s["wait_cycle"], s["delivered_cycle"])
            self.assertLess(s["sent_cycle"], s["delivered_cycle"])
            self.assertLessEqual(s["delivered_cycle"], s["consumed_cycle"])


class AfterLastWait(unittest.TestCase):
    def test_chain_names_where_the_time_after_the_last_wait_went(self):
        # afterwait: core 1 waits in rt_recv for core 0's packet (sent after
        # rt_delay(20000)), then runs hot_loop(200000): the last stretch is
        # hot_loop's, not rt_recv's (issue 20.9: comm.txt said "ran 1400048
        # cycles after its last wait ... in _start;main;rt_recv")
        for e in ("el", "eb"):
            r = run([fw("afterwait", e)])
            self.assertEqual(r.rc, 0, r.describe())
            chain = r.summary["communication"]["critical_chain"]
            self.assertEqual(chain["last_core"], 1)
            end = r.summary["cores"][1]["cycles"]
            tc = chain["steps"][-1]["consumed_cycle"]
            text = r.text("comm.txt")
            self.assertIn("Core 1's last wait (in _start;main;rt_recv) ended at cycle %d; it then ran %d more cycles"
                          % (tc, end - tc), text)
            m = re.search(r"Core 1's own work \(self cycles not blocked, whole run\) went to: "
                          r"_start;main;hot_loop (\d+) \(([\d.]+)%\)", text)
            self.assertIsNotNone(m, text)
            hot = next(f for f in r.summary["cores"][1]["functions"] if f["name"] == "hot_loop")
            self.assertEqual(int(m.group(1)), hot["self_cycles"])
            self.assertGreater(float(m.group(2)), 99.0)
            # hot_loop ran after the wait: its cycles fit in the last stretch
            self.assertLessEqual(hot["self_cycles"], end - tc)


class NoComm(unittest.TestCase):
    """--no-comm: no communication profile, every other figure the same."""

    def check_pair(self, args):
        # one output folder for both (the demo's ELF path, copied into it,
        # is in the reports); the first run's is moved aside
        out = nptest.tmpdir("nocomm")
        on = run(args, out=out)
        os.rename(out, out + "-comm")
        on.out = out + "-comm"
        off = run(args + ["--no-comm"], out=out)
        self.assertEqual((on.rc, off.rc), (0, 0), off.describe())
        a, b = on.summary, off.summary
        self.assertIn("communication", a)
        self.assertNotIn("communication", b)
        del a["communication"]
        self.assertEqual(a, b)
        self.assertTrue(os.path.exists(on.path("comm.txt")))
        self.assertFalse(os.path.exists(off.path("comm.txt")))
        same = ["flat.txt", "callgraph.txt", "noc.txt", "stacks.folded"]
        for i in range(len(b["cores"])):
            same += ["core%d/%s" % (i, f) for f in ("flat.txt", "callgraph.txt", "annotated.txt", "gmon.out",
                                                     "console.txt")]
        for f in same:
            with open(on.path(f), "rb") as x, open(off.path(f), "rb") as y:
                self.assertEqual(x.read(), y.read(), f)
        for i in range(len(b["cores"])):
            # callgrind.out: the Cycles column alone, the same figures
            con, coff = on.text("core%d" % i, "callgrind.out"), off.text("core%d" % i, "callgrind.out")
            self.assertIn("events: Cycles Ir Dr Dw Bc Bi Blocked Sent Received\n", con)
            self.assertIn("events: Cycles Ir Dr Dw Bc Bi\n", coff)
            self.assertNotIn("Blocked", coff)
            s_on = re.search(r"^summary: ((?:\d+ ){5}\d+)", con, re.M).group(1)
            self.assertEqual(re.search(r"^summary: ((?:\d+ ){5}\d+)$", coff, re.M).group(1), s_on)
        # trace.json: the same events, less the messages
        with open(on.path("trace.json")) as x, open(off.path("trace.json")) as y:
            ev_on, ev_off = json.load(x)["traceEvents"], json.load(y)["traceEvents"]
        extra = [e for e in ev_on if e.get("cat") == "message" or e.get("args", {}).get("name") == "messages"]
        self.assertEqual([e for e in ev_on if e not in extra], ev_off)
        self.assertEqual(sum(1 for e in extra if e.get("ph") == "s"), a["noc"]["packets"])
        # nocprof report rebuilds the run without a communication profile
        rep = nptest.raw(["report", off.out])
        self.assertEqual(rep.returncode, 0, rep.stderr)
        self.assertFalse(os.path.exists(off.path("comm.txt")))

    def test_comm_firmware(self):
        self.check_pair([fw("comm")])

    def test_demo(self):
        self.check_pair([])


if __name__ == "__main__":
    nptest.main()

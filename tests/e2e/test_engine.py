#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_engine.py - the Unicorn release nocprof runs on (issue 19.11).

nocprof --version names nocprof, Unicorn, Capstone and GLib; a libunicorn
that reports another release than 2.1.1 (an LD_PRELOAD shim overriding
uc_version) makes `run` stop with status 2 and a clear message before
anything is written, unless NOCPROF_ALLOW_UNICORN=1, which runs with a
warning.  The library's own assumptions (cross-thread resume, TLS) are
re-checked by unit/engine."""
import os
import subprocess
import unittest

import nptest
from nptest import fw, run

SHIM = os.environ.get("NOCPROF_FAKE_UC_VERSION")
FAIL_SHIM = os.environ.get("NOCPROF_FAIL_UC_SHIM")



def preload(shim):
    """LD_PRELOAD of a shim; an ASan build (build-asan in the test script)
    would refuse a library loaded before its runtime, which changes
    nothing these tests look at."""
    opts = os.environ.get("ASAN_OPTIONS", "")
    return {"LD_PRELOAD": shim,
            "ASAN_OPTIONS": (opts + ":" if opts else "") + "verify_asan_link_order=0"}

class Version(unittest.TestCase):
    def test_version_names_libraries(self):
        p = nptest.raw(["--version"])
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        self.assertRegex(lines[0], r"^nocprof \d+\.\d+\.\d+$")
        self.assertIn("Unicorn 2.1.1 (validated on 2.1.1)", lines)
        self.assertTrue(any(l.startswith("Capstone ") for l in lines), p.stdout)
        self.assertTrue(any(l.startswith("GLib 2.") for l in lines), p.stdout)


class OtherRelease(unittest.TestCase):
    def setUp(self):
        if not SHIM or not os.path.exists(SHIM):
            self.skipTest("the uc_version shim was not built")

    def test_refused(self):
        out = os.path.join(nptest.tmpdir("uc"), "o")
        r = run([fw("exitcode")] + nptest.ONE_CORE, out=out, extra_env=preload(SHIM))
        self.assertEqual(r.rc, 2, r.describe())
        self.assertIn("libunicorn 2.2.0 is loaded but nocprof is validated on Unicorn 2.1.1", r.stderr)
        self.assertIn("NOCPROF_ALLOW_UNICORN=1", r.stderr)
        self.assertFalse(os.path.exists(out))

    def test_override(self):
        r = run([fw("exitcode")] + nptest.ONE_CORE,
                extra_env=dict(preload(SHIM), NOCPROF_ALLOW_UNICORN="1"))
        self.assertEqual(r.rc, 0, r.describe())
        self.assertIn("WARNING: Unicorn 2.2.0 is not the validated 2.1.1", r.stderr)
        self.assertTrue(os.path.exists(r.path("summary.json")))


class FailedCall(unittest.TestCase):
    """A Unicorn call that fails while a core runs faults that core
    ("emulator", naming the call), and the run keeps its reports: here
    uc_ctl_remove_cache, which cp0tick's first CP0 access makes nocprof
    call (its block is translated again with the access hooked). It was
    ignored before (status 0)."""

    def test_remove_cache(self):
        if not FAIL_SHIM or not os.path.exists(FAIL_SHIM):
            self.skipTest("the failing-call shim was not built")
        r = run([fw("cp0tick")] + nptest.ONE_CORE,
                extra_env=dict(preload(FAIL_SHIM), NOCPROF_FAIL_UC="remove_cache"))
        self.assertEqual(r.rc, 3, r.describe())
        c = r.core(0)
        self.assertEqual(c["status"], "fault")
        self.assertEqual(c["fault"]["kind"], "emulator")
        self.assertIn("drop a translation: Invalid argument (UC_ERR_ARG)", c["fault"]["message"])
        self.assertTrue(os.path.exists(r.path("core0", "flat.txt")))


if __name__ == "__main__":
    nptest.main()

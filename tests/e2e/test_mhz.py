#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/mhz - issue 22.6: CoreMark (bench/coremark, EEMBC's files unmodified
plus our port) built through the installed SDK's nocprof-cc runs correctly
under both timing models, and the ticks its port reads from the platform's
cycle counter are the cycles nocprof's profile gives the timed part.
Truth from outside: EEMBC's known CRCs of the 2K performance run (the
seed, list, matrix and state CRCs in CoreMark's README and core_main.c's
tables), and the profiler's inclusive cycles of iterate() (an independent
path from the SYS CYCLE device the port reads). bench/mhz/run prints the
figures (docs/performance.md). The build directory comes from
$NOCPROF_BUILD_DIR."""
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import tmpdir  # noqa: E402

CRCS = {"seedcrc": "0xe9f5", "[0]crclist": "0xe714", "[0]crcmatrix": "0x1fd7", "[0]crcstate": "0x8e3a"}


class CoreMark(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        build = os.environ.get("NOCPROF_BUILD_DIR")
        if not build or not os.path.isfile(os.path.join(build, "CMakeCache.txt")):
            raise unittest.SkipTest("NOCPROF_BUILD_DIR not set to a build directory")
        prefix = os.path.join(tmpdir("prefix"), "sdk")
        subprocess.run([nptest.tool("cmake"), "--install", build, "--prefix", prefix], check=True,
                       stdout=subprocess.DEVNULL)
        src = os.path.join(nptest.src("bench"), "coremark")
        up = os.path.join(src, "upstream")
        cls.elf = os.path.join(tmpdir("cm"), "coremark.elf")
        subprocess.run([os.path.join(prefix, "bin", "nocprof-cc"), "-O2", "-g", "-I" + os.path.join(src, "port"),
                        "-I" + up, "-DPERFORMANCE_RUN=1", "-DITERATIONS=10", '-DFLAGS_STR="-O2"']
                       + [os.path.join(up, f) for f in sorted(os.listdir(up)) if f.endswith(".c")]
                       + [os.path.join(src, "port", "core_portme.c"), "-o", cls.elf], check=True)

    def test_crcs_and_ticks(self):
        for model in ("flat", "24k"):
            with self.subTest(model=model):
                r = nptest.run([self.elf] + nptest.ONE_CORE + ["--set", "timing.model=" + model], timeout=120)
                self.assertEqual(r.rc, 0, r.describe())
                text = r.text("core0", "console.txt")
                for k, v in CRCS.items():
                    self.assertRegex(text, r"(?m)^%s\s*: %s$" % (re.escape(k), v))
                self.assertNotIn("ERROR! list crc", text)
                self.assertRegex(text, r"(?m)^Iterations\s*: 10$")
                ticks = int(re.search(r"(?m)^Total ticks\s*: (\d+)$", text).group(1))
                it = nptest.functions(r.core(0))["iterate"]
                self.assertEqual(it["calls"], 1)
                # the timed part is iterate() plus the port's two rt_cycles
                # reads and the call: a few dozen cycles
                self.assertGreaterEqual(ticks, it["inclusive_cycles"])
                self.assertLess(ticks - it["inclusive_cycles"], 64, (ticks, it["inclusive_cycles"]))


if __name__ == "__main__":
    nptest.main()

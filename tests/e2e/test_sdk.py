#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e/sdk - the firmware SDK from a clean temporary folder: `cmake --install`
of this build into a temporary prefix, then, outside the source tree and
using only the installed files,

- an out-of-tree CMake project (find_package(NocprofFirmware),
  nocprof_add_firmware, little- and big-endian),
- a Makefile project taking CC/CFLAGS/LDLIBS from `pkg-config
  nocprof-firmware`, and the same sources through the `nocprof-cc` wrapper
  (-EB, and separate compile and link steps),

each run with the installed nocprof on 4 cores; console and exit codes are
checked.  The prefix contains a space.  __builtin___clear_cache links
without -msynci (the runtime's _flush_cache) and makes code written at run
time callable.  A program using the compiler helpers (64-bit division,
int64 <-> double) links through nocprof-cc without any linker message (no
"linking abicalls files with non-abicalls files": the helpers are built
-mno-abicalls into libnocprof.a, every member of which is non-PIC) and
prints the host's results.  The build directory comes from
$NOCPROF_BUILD_DIR."""
import json
import os
import re
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nptest  # noqa: E402
from nptest import tmpdir  # noqa: E402

MAIN_C = r'''#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nocprof.h>
#include <nocprof/platform.h>
#include "greet.h"

int main(unsigned core, unsigned ncores)
{
    char *name = malloc(16);
    strcpy(name, "sdk");
    greet(name, core, ncores);
    printf("sqrt(%u) = %.6f, platform sys base %#x, rt_core_id %u\n", core + 2,
           sqrt(core + 2.0), NP_SYS_BASE, rt_core_id());
    free(name);
    return (int)core * 10;
}
'''
GREET_H = "void greet(const char *who, unsigned core, unsigned ncores);\n"
GREET_C = r'''#include <ctype.h>
#include <stdio.h>
#include "greet.h"

void greet(const char *who, unsigned core, unsigned ncores)
{
    char up[16];
    int i;
    for (i = 0; who[i] && i < 15; i++)
        up[i] = (char)toupper((unsigned char)who[i]);
    up[i] = '\0';
    printf("hello from %s on core %u of %u\n", up, core, ncores);
}
'''
CMAKELISTS = '''cmake_minimum_required(VERSION 3.20)
project(sdkdemo NONE)
find_package(NocprofFirmware REQUIRED)
nocprof_add_firmware(demo SOURCES main.c greet.c)
nocprof_add_firmware(demo_eb SOURCES main.c greet.c BIG_ENDIAN CFLAGS -O1 -g)
'''
MAKEFILE = '''PC      = PKG_CONFIG_PATH="$(PREFIX)/lib/pkgconfig" pkg-config
CC     := $(shell $(PC) --variable=cc nocprof-firmware)
CFLAGS  = -O2 -g $(shell $(PC) --cflags nocprof-firmware)
LDLIBS  = $(shell $(PC) --libs nocprof-firmware)
NPCC    = "$(PREFIX)/bin/nocprof-cc"

all: app.elf app-cc-eb.elf app-cc-el.elf

app.elf: main.o greet.o
\t$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) -lm

app-cc-eb.elf: main.c greet.c greet.h
\t$(NPCC) -EB -O2 -o $@ main.c greet.c -lm -lc -lgcc

app-cc-el.elf: main.c greet.c greet.h
\t$(NPCC) -O2 -c main.c -o cc-main.o
\t$(NPCC) -O2 -c greet.c -o cc-greet.o
\t$(NPCC) -o $@ cc-main.o cc-greet.o
'''

JIT_C = r'''#include <stdint.h>
#include <stdio.h>

static uint32_t code[4] __attribute__((aligned(16)));

int main(void)
{
    code[0] = 0x2402002au;     /* addiu $v0, $zero, 42 */
    code[1] = 0x03e00008u;     /* jr $ra */
    code[2] = 0x00000000u;     /* nop */
    __builtin___clear_cache((char *)code, (char *)(code + 3));
    int (*fn)(void) = (int (*)(void))(uintptr_t)code;
    printf("jit returned %d\n", fn());
    return fn() == 42 ? 0 : 1;
}
'''

# 64-bit helpers: __udivdi3 __umoddi3 __divdi3 __moddi3 __floatdidf __fixdfdi
HELPERS_C = r'''#include <stdint.h>
#include <stdio.h>
static volatile int64_t v[] = { INT64_MIN, -1000000000007LL, -7, 3, 10, 4294967296LL,
                                INT64_MAX };
int main(void)
{
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
        int64_t a = v[i], b = v[(i + 3) % 7];
        printf("%lld %lld %llu %llu %lld\n", a / b, a % b, (unsigned long long)a / (uint64_t)b,
               (unsigned long long)a % (uint64_t)b, (long long)((double)a / 3.0));
    }
    return 0;
}
'''


def expected_helpers():
    v = [-2**63, -1000000000007, -7, 3, 10, 2**32, 2**63 - 1]
    lines = []
    for i, a in enumerate(v):
        b = v[(i + 3) % 7]
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)     # C: toward zero
        ua, ub = a % 2**64, b % 2**64
        lines.append("%d %d %d %d %d\n" % (q, a - q * b, ua // ub, ua % ub, int(a / 3.0)))
    return "".join(lines)


def expected_console(k):
    import math
    return ("hello from SDK on core %d of 4\n"
            "sqrt(%d) = %.6f, platform sys base 0xbf000000, rt_core_id %d\n"
            % (k, k + 2, math.sqrt(k + 2.0), k))


UNWIND_C = r"""
#include <nocprof.h>
#include <string.h>
static volatile int *volatile bad;   /* NULL: leaf faults */
__attribute__((noinline)) int leaf(int x) { return *bad + x; }
__attribute__((noinline)) int mid(int x) { char b[32]; memset(b, x, sizeof b); return leaf(b[3]) + 1; }
int main(unsigned core, unsigned n) { (void)n; if (core) return 0; int r = mid(5); return r + 1; }
"""


class Sdk(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        build = os.environ.get("NOCPROF_BUILD_DIR")
        if not build or not os.path.isfile(os.path.join(build, "CMakeCache.txt")):
            raise unittest.SkipTest("NOCPROF_BUILD_DIR not set to a build directory")
        cls.cmake = nptest.tool("cmake")
        # a prefix with a space (issue 20.11): every path quoted
        cls.prefix = os.path.join(tmpdir("prefix"), "sdk install")
        subprocess.run([cls.cmake, "--install", build, "--prefix", cls.prefix],
                       check=True, stdout=subprocess.DEVNULL)
        cls.nocprof = os.path.join(cls.prefix, "bin", "nocprof")
        cls.build = build

    def project(self):
        d = tmpdir("proj")
        for name, text in (("main.c", MAIN_C), ("greet.c", GREET_C), ("greet.h", GREET_H)):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        return d

    def run_one_core(self, elf):
        """nocprof run on a 1x1 mesh; status 0 asserted."""
        out = tmpdir("out")
        p = subprocess.run([self.nocprof, "run", "-q", "-o", out, "--set", "mesh.width=1", "--set", "mesh.height=1",
                            elf], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                           timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        return nptest.Run([elf], p, out, 0)

    def run_elf(self, elf, big=False):
        self.assertTrue(os.path.isfile(elf), elf)
        out = tmpdir("out")
        p = subprocess.run([self.nocprof, "run", "-q", "-o", out, elf], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        self.assertEqual(p.returncode, 1, p.stderr)          # cores 1..3 return 10k
        r = nptest.Run([elf], p, out, 0)
        for k in range(4):
            self.assertEqual(r.core(k)["exit_code"], 10 * k)
            self.assertEqual(r.text("core%d" % k, "console.txt"), expected_console(k))
        magic = open(elf, "rb").read(6)
        self.assertEqual(magic[:4], b"\x7fELF")
        self.assertEqual(magic[5], 2 if big else 1)           # EI_DATA: 2 = big-endian

    def test_install_tree(self):
        for rel in ("bin/nocprof", "bin/nocprof-cc", "lib/nocprof-firmware/link.ld",
                    "lib/nocprof-firmware/el/crt0.o", "lib/nocprof-firmware/el/libnocprof.a",
                    "lib/nocprof-firmware/eb/crt0.o", "lib/nocprof-firmware/eb/libnocprof.a",
                    "lib/cmake/NocprofFirmware/NocprofFirmwareConfig.cmake",
                    "lib/cmake/NocprofFirmware/NocprofFirmwareFlags.cmake",
                    "lib/pkgconfig/nocprof-firmware.pc", "lib/pkgconfig/nocprof-firmware-eb.pc",
                    "include/nocprof-firmware/stdio.h", "include/nocprof-firmware/math.h",
                    "include/nocprof-firmware/newlib.h", "include/nocprof-firmware/nocprof.h",
                    "include/nocprof-firmware/nocprof/platform.h"):
            self.assertTrue(os.path.exists(os.path.join(self.prefix, rel)), rel)
        # relocatable: nothing installed points back into the build or source tree
        for rel in ("lib/cmake/NocprofFirmware/NocprofFirmwareConfig.cmake",
                    "lib/pkgconfig/nocprof-firmware.pc", "bin/nocprof-cc"):
            text = open(os.path.join(self.prefix, rel)).read()
            self.assertNotIn(self.build, text, rel)
            self.assertNotIn(os.path.abspath(nptest.ARGS.src), text, rel)

    def test_cmake_project(self):
        d = self.project()
        with open(os.path.join(d, "CMakeLists.txt"), "w") as f:
            f.write(CMAKELISTS)
        b = os.path.join(d, "build")
        subprocess.run([self.cmake, "-S", d, "-B", b, "-DCMAKE_PREFIX_PATH=" + self.prefix],
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run([self.cmake, "--build", b], check=True, stdout=subprocess.DEVNULL)
        self.run_elf(os.path.join(b, "demo.elf"))
        self.run_elf(os.path.join(b, "demo_eb.elf"), big=True)

    def test_makefile_project(self):
        nptest.tool("pkg-config")
        make = nptest.tool("make")
        d = self.project()
        with open(os.path.join(d, "Makefile"), "w") as f:
            f.write(MAKEFILE.replace("\\t", "\t"))
        subprocess.run([make, "-C", d, "PREFIX=" + self.prefix], check=True,
                       stdout=subprocess.DEVNULL)
        self.run_elf(os.path.join(d, "app.elf"))
        self.run_elf(os.path.join(d, "app-cc-eb.elf"), big=True)
        self.run_elf(os.path.join(d, "app-cc-el.elf"))


    def test_clear_cache_without_msynci(self):
        # code written at run time: `addiu $v0, $zero, 42; jr $ra; nop`,
        # made fetchable by __builtin___clear_cache, which GCC turns into a
        # call of _flush_cache without -msynci (issue 20.11: undefined before)
        d = tmpdir("cache")
        with open(os.path.join(d, "jit.c"), "w") as f:
            f.write(JIT_C)
        cc = os.path.join(self.prefix, "bin", "nocprof-cc")
        for endian in ("-EL", "-EB"):
            elf = os.path.join(d, "jit%s.elf" % endian)
            p = subprocess.run([cc, endian, "-O2", "-g", "-o", elf, os.path.join(d, "jit.c")],
                               stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            r = self.run_one_core(elf)
            self.assertEqual(r.text("core0", "console.txt"), "jit returned 42\n")
            calls = {f["name"]: f["calls"] for f in r.core(0)["functions"]}
            self.assertEqual(calls["_flush_cache"], 1)

    def test_cc_debug_info_by_default(self):
        # `nocprof-cc -O2 -o app.elf main.c` (docs/firmware.md's example)
        # had no DWARF: every fault and listing said ??:0. -g0 still drops it.
        d = tmpdir("dbg")
        with open(os.path.join(d, "div.c"), "w") as f:
            f.write(HELPERS_C)
        cc = os.path.join(self.prefix, "bin", "nocprof-cc")
        a2l = nptest.tool("mipsel-linux-gnu-addr2line")
        for extra, want in (([], r"div\.c:\d+"), (["-g0"], r"\?\?:")):
            elf = os.path.join(d, "div%s.elf" % "".join(extra))
            subprocess.run([cc, "-O2"] + extra + ["-o", elf, os.path.join(d, "div.c")], check=True)
            main = nptest.symbols(elf)["main"][0]
            where = subprocess.run([a2l, "-e", elf, "0x%x" % main], stdout=subprocess.PIPE,
                                   universal_newlines=True, check=True).stdout
            self.assertRegex(where, want, extra)

    def test_unwind_without_profile(self):
        """A fault's frames with --no-profile come from the ELF's call frame
        information (docs/reports.md "Without profiling"): nocprof-cc's
        default -g writes .debug_frame (leaf <- mid <- main, as the
        profiled run's shadow stack); -g0 has none (frame 0 and why);
        -g0 -fasynchronous-unwind-tables with a link script that keeps
        .eh_frame a section of its own is read from .eh_frame."""
        d = tmpdir("unwind")
        src = os.path.join(d, "uw.c")
        with open(src, "w") as f:
            f.write(UNWIND_C)
        ld = os.path.join(d, "eh.ld")
        with open(os.path.join(self.prefix, "lib", "nocprof-firmware", "link.ld")) as f:
            text = f.read()
        keep = "*(.eh_frame_hdr) KEEP(*(.eh_frame))"
        self.assertIn(keep, text)
        with open(ld, "w") as f:
            f.write(text.replace(keep, "} :image\n  .eh_frame ALIGN(4) : { KEEP(*(.eh_frame))"))
        cc = os.path.join(self.prefix, "bin", "nocprof-cc")
        with open(cc) as f:
            wrapper = f.read()
        self.assertIn('-T "$lib/link.ld"', wrapper)
        cc_eh = os.path.join(self.prefix, "bin", "nocprof-cc-eh")   # in bin/: it finds the prefix from there
        with open(cc_eh, "w") as f:
            f.write(wrapper.replace('-T "$lib/link.ld"', "-T '%s'" % ld))
        os.chmod(cc_eh, 0o755)
        for name, tool, extra in (("g", cc, []), ("g0", cc, ["-g0"]),
                                  ("eh", cc_eh, ["-g0", "-fasynchronous-unwind-tables"])):
            elf = os.path.join(d, name + ".elf")
            subprocess.run([tool, "-O2"] + extra + ["-o", elf, src], check=True)
            sections = subprocess.run([nptest.tool("mipsel-linux-gnu-readelf"), "-S", elf], stdout=subprocess.PIPE,
                                      universal_newlines=True, check=True).stdout
            self.assertEqual(".eh_frame " in sections, name == "eh", sections)
            frames = {}
            for mode in ([], ["--no-profile"]):
                out = tmpdir("out")
                p = subprocess.run([self.nocprof, "run", "-q", "-o", out, elf] + mode, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
                self.assertEqual(p.returncode, 3, p.stderr)
                frames[bool(mode)] = json.load(open(os.path.join(out, "summary.json")))["cores"][0]["fault"]["frames"]
            names = [x["function"] for x in frames[True]]
            if name == "g0":
                self.assertEqual(names, ["leaf", "<unwinding stopped: no call frame information for 0x%08x (leaf)>"
                                         % frames[True][0]["pc"]])
            else:
                self.assertEqual(names, ["leaf", "mid", "main"], name)
                self.assertEqual(frames[True], frames[False], name)

    def test_helpers_link_clean(self):
        # Before: ld printed "libgcc.a(_divdi3.o): warning: linking abicalls
        # files with non-abicalls files" (Debian's libgcc is Linux PIC code).
        d = tmpdir("helpers")
        with open(os.path.join(d, "div.c"), "w") as f:
            f.write(HELPERS_C)
        cc = os.path.join(self.prefix, "bin", "nocprof-cc")
        for endian in ("-EL", "-EB"):
            elf = os.path.join(d, "div%s.elf" % endian)
            p = subprocess.run([cc, endian, "-O2", "-g", "-o", elf, os.path.join(d, "div.c")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stderr + p.stdout, "")       # no "abicalls" warning
            r = self.run_one_core(elf)
            self.assertEqual(r.text("core0", "console.txt"), expected_helpers())
        # every member of the installed libraries is non-PIC, and the
        # helpers are in them
        readelf = nptest.tool("mipsel-linux-gnu-readelf")
        for endian in ("el", "eb"):
            lib = os.path.join(self.prefix, "lib", "nocprof-firmware", endian, "libnocprof.a")
            p = subprocess.run([readelf, "-h", "-s", "-W", lib], stdout=subprocess.PIPE,
                               universal_newlines=True, check=True)
            flags = [ln for ln in p.stdout.splitlines() if ln.strip().startswith("Flags:")]
            self.assertGreater(len(flags), 100)
            self.assertEqual([f for f in flags if "pic" in f], [])
            defined = set(re.findall(r"FUNC +GLOBAL +DEFAULT +\d+ (\S+)", p.stdout))
            self.assertLessEqual({"__udivdi3", "__divdi3", "__umoddi3", "__moddi3",
                                  "__floatdidf", "__fixdfdi"}, defined)

    BUILTINS_C = r'''#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

volatile uint32_t words[8] = { 0x40800000u, 0x41100000u, 0x41800000u, 0x41c80000u,
                               0x42100000u, 0x42440000u, 0x42800000u, 0x42a20000u };

int main(void)
{
    float sum = 0;
    for (int i = 0; i < 8; i++) {
        uint32_t w = words[i];
        float f;
        memcpy(&f, &w, 4);          /* 4, 9, 16, ..., 81 */
        sum += sqrtf(f);
    }
    printf("sum %d\n", (int)sum);
    return sum == 44.0f ? 0 : 1;
}
'''

    def test_builtins_on(self):
        """The SDK keeps GCC's builtins (-fbuiltin after -ffreestanding):
        a 4-byte memcpy is a load and sqrtf the FPU's sqrt.s (with a call
        only for a negative argument, for errno), as with a hosted
        toolchain. Before, both were calls: memcpy a byte loop, sqrtf
        newlib's software root, 8 calls each here, and
        __ieee754_sqrtf topped float programs' profiles. The ELF is FP32
        (-mfp32, FR=0), which gdb takes for a double-precision FPU."""
        d = tmpdir("builtins")
        with open(os.path.join(d, "b.c"), "w") as f:
            f.write(self.BUILTINS_C)
        cc = os.path.join(self.prefix, "bin", "nocprof-cc")
        for endian in ("-EL", "-EB"):
            elf = os.path.join(d, "b%s.elf" % endian)
            subprocess.run([cc, endian, "-O2", "-o", elf, os.path.join(d, "b.c")], check=True)
            objdump = nptest.tool(("mipsel" if endian == "-EL" else "mips") + "-linux-gnu-objdump")
            main = subprocess.run([objdump, "-d", "--no-show-raw-insn", elf], stdout=subprocess.PIPE,
                                  universal_newlines=True, check=True).stdout.split("<main>:")[1].split("\n\n")[0]
            self.assertIn("sqrt.s", main)
            self.assertNotIn("<memcpy>", main)
            # the FP32 ABI (FR=0, as the runtime sets it), which gdb
            # reads as a double-precision FPU (before: FPXX, "Any FPU",
            # which gdb 13 takes for none: info float said none)
            readelf = nptest.tool(("mipsel" if endian == "-EL" else "mips") + "-linux-gnu-readelf")
            attrs = subprocess.run([readelf, "-A", elf], stdout=subprocess.PIPE, universal_newlines=True,
                                   check=True).stdout
            self.assertIn("Tag_GNU_MIPS_ABI_FP: Hard float (double precision)", attrs)
            gdb = shutil.which("gdb-multiarch")
            if gdb:
                show = subprocess.run([gdb, "-batch", "-nx", "-ex", "show mipsfpu", elf], stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, universal_newlines=True, timeout=60).stdout
                self.assertIn("currently double-precision", show)
            r = self.run_one_core(elf)
            self.assertEqual(r.text("core0", "console.txt"), "sum 44\n")
            calls = {f["name"]: f["calls"] for f in r.core(0)["functions"]}
            self.assertEqual((calls.get("sqrtf", 0), calls.get("__ieee754_sqrtf", 0), calls.get("memcpy", 0)),
                             (0, 0, 0), calls)

if __name__ == "__main__":
    nptest.main()

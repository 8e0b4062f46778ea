#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The house's walls, checked (docs/design.md "The map of the house").

1. Includes: a layer includes only the layers below it (LAYERS), and a
   private header (*_priv.h, *_private.h) only from its own folder. An
   include is resolved as the compiler would: from the repository root
   ("emu/core.h"), the including file's folder, or the one header of that
   name in the tree. Every project header must be written from the root
   (the build exports only the root as an include directory, so a line
   shows which layer it reaches); host-side folders outside the layers
   (cli, fuzz, tests, bench) are held to the same spelling.
2. The map: every source file of a layer (and cli/) is named in
   docs/design.md, so the map matches the tree.
3. Licences: every source file carries an SPDX line near its top.
4. Links: the link closure of every library (written at configure time by
   cmake/Layers.cmake into the build folder) reaches only the libraries its
   layer may; in particular nothing below profiler/collect links nocprof_emu
   or Unicorn, so `nocprof report`, diff, merge and the profile.data fuzzer
   do not carry the emulator.

usage: layers.py SOURCE_DIR BUILD_DIR      exit 0 clean, 1 with a list of violations
"""
import os
import re
import sys

# folder -> folders it may include (besides itself, and include/ for the
# SDK's nocprof/platform.h)
LAYERS = {
    "base": set(),
    "platform": {"base"},
    "elf": {"base"},
    "noc": {"base"},
    "emu": {"base", "platform", "elf", "noc"},
    "profiler/model": {"base", "platform", "elf", "noc"},
    "profiler/analysis": {"base", "profiler/model"},
    "profiler/report": {"base", "platform", "noc", "profiler/model"},
    "profiler/formats": {"base", "platform", "noc", "profiler/model", "profiler/report"},
    "profiler/comm_report": {"base", "platform", "noc", "profiler/model"},
    "profiler/data": {"base", "platform", "noc", "profiler/model", "profiler/comm_report"},
    "profiler/collect": {"base", "platform", "noc", "elf", "emu", "profiler/model"},
    "profiler/comm": {"base", "platform", "noc", "emu", "profiler/model", "profiler/collect",
                      "profiler/comm_report"},
    "web": {"base", "platform", "noc", "profiler/model", "profiler/report"},
    "gdb": {"base", "platform", "elf", "noc", "emu"},
}
# the communication profile's plain-data half (library nocprof_comm_report)
COMM_REPORT = {"comm_report.h", "comm_report.c", "comm_text.c", "comm_json.c"}
# libraries that must not link these (no emulator below collect)
NO_EMU = ["nocprof_platform", "nocprof_model", "nocprof_report", "nocprof_formats", "nocprof_data",
          "nocprof_analysis", "nocprof_comm_report", "nocprof_html", "fuzz_profile"]
EMU_LIBS = {"nocprof_emu", "unicorn", "PkgConfig::UNICORN"}


def layer_of(rel):
    parts = rel.split("/")
    if parts[0] == "profiler" and len(parts) > 2:
        if parts[1] == "comm" and parts[2] in COMM_REPORT:
            return "profiler/comm_report"
        return "profiler/" + parts[1]
    return parts[0]


def header_index(src):
    """basename -> [paths from the root] of every project header."""
    idx = {}
    for dp, dns, fns in os.walk(src):
        dns[:] = [d for d in dns if not d.startswith("build") and d not in (".git", "node_modules")]
        for fn in fns:
            if fn.endswith(".h"):
                idx.setdefault(fn, []).append(os.path.relpath(os.path.join(dp, fn), src))
    return idx


def resolve(src, idx, rel, name):
    """The header `#include "name"` in file rel reaches, or None."""
    if name.startswith("nocprof/"):
        return None                               # the SDK's register map (include/)
    if "/" in name and os.path.exists(os.path.join(src, name)):
        return os.path.normpath(name)
    return resolve_loose(src, idx, rel, name)


def resolve_loose(src, idx, rel, name):
    """A header reached other than from the root (a violation), or None."""
    local = os.path.normpath(os.path.join(os.path.dirname(rel), name))
    if os.path.exists(os.path.join(src, local)):
        return local
    cands = idx.get(os.path.basename(name), [])
    return cands[0] if len(cands) == 1 else None  # generated, system, or ambiguous


def check_includes(src):
    bad = []
    idx = header_index(src)
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for folder in LAYERS:
        base_dir = os.path.join(src, "profiler/comm" if folder == "profiler/comm_report" else folder)
        if not os.path.isdir(base_dir):
            continue
        for dp, _, fns in os.walk(base_dir):
            for fn in fns:
                if not fn.endswith((".c", ".h")):
                    continue
                rel = os.path.relpath(os.path.join(dp, fn), src)
                me = layer_of(rel)
                if me != folder:
                    continue
                for n, line in enumerate(open(os.path.join(dp, fn), errors="replace"), 1):
                    m = inc.match(line)
                    if not m:
                        continue
                    target = resolve(src, idx, rel, m.group(1))
                    if target is None:
                        continue
                    where = "%s:%d: #include \"%s\"" % (rel, n, m.group(1))
                    if os.path.normpath(m.group(1)) != target:
                        bad.append(where + ": write it from the root (\"%s\")" % target)
                    them = layer_of(target)
                    if them != me and them not in LAYERS.get(me, set()) and them in LAYERS:
                        bad.append(where + ": %s may not reach %s (%s)" % (me, them, target))
                    hb = os.path.basename(target)
                    if (hb.endswith("_priv.h") or hb.endswith("_private.h")) and \
                            os.path.dirname(target) != os.path.dirname(rel):
                        bad.append(where + ": private header of another folder")
    return bad


HOST_ONLY = ["cli", "fuzz", "tests/unit", "tests/tools", "bench"]


def check_spelling(src):
    """Host-side code outside the layers: every project include from the root."""
    bad = []
    idx = header_index(src)
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for folder in HOST_ONLY:
        for dp, dns, fns in os.walk(os.path.join(src, folder)):
            # cross-compiled firmware (bench/coremark: EEMBC's files, unmodified)
            dns[:] = [d for d in dns if d not in ("workloads", "coremark")]
            for fn in fns:
                if not fn.endswith((".c", ".h")):
                    continue
                rel = os.path.relpath(os.path.join(dp, fn), src)
                for n, line in enumerate(open(os.path.join(dp, fn), errors="replace"), 1):
                    m = inc.match(line)
                    if not m:
                        continue
                    target = resolve(src, idx, rel, m.group(1))
                    if target is not None and os.path.normpath(m.group(1)) != target:
                        bad.append("%s:%d: #include \"%s\": write it from the root (\"%s\")"
                                   % (rel, n, m.group(1), target))
    return bad


MAPPED = ["base", "platform", "elf", "noc", "emu", "gdb", "profiler", "web", "cli"]


def check_map(src):
    """docs/design.md's map matches the tree: every source file is named."""
    doc = open(os.path.join(src, "docs", "design.md"), errors="replace").read()
    named = set(re.findall(r"`([^`\s]+\.[ch])`", doc))
    names = named | {os.path.basename(n) for n in named}
    bad = []
    for folder in MAPPED:
        for dp, dns, fns in os.walk(os.path.join(src, folder)):
            dns[:] = [d for d in dns if d not in ("node_modules", "dist", "src", "test")]
            for fn in sorted(fns):
                if fn.endswith((".c", ".h")):
                    rel = os.path.relpath(os.path.join(dp, fn), src)
                    if rel not in names and fn not in names:
                        bad.append("%s: named nowhere in docs/design.md (add it to the map)" % rel)
    return bad


SPDX_EXT = (".c", ".h", ".S", ".py", ".sh", ".js", ".mjs", ".cmake", ".in", ".ld")


def check_spdx(src):
    """Every source file of the project names its licence (SPDX) in its
    first lines; vendored upstream code (bench/coremark/upstream) keeps
    its own header, generated bundles (web/dist) are not sources."""
    import subprocess
    try:
        files = subprocess.run(["git", "-C", src, "ls-files"], stdout=subprocess.PIPE,
                               universal_newlines=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return []                                   # not a checkout: nothing to say
    bad = []
    for f in files:
        if f.startswith(("bench/coremark/upstream/", "web/dist/")) or "node_modules" in f:
            continue
        if not (f.endswith(SPDX_EXT) or os.path.basename(f) == "CMakeLists.txt"):
            continue
        path = os.path.join(src, f)
        if not os.path.isfile(path):
            continue
        with open(path, errors="replace") as fh:
            head = "".join(fh.readline() for _ in range(3))
        if "SPDX-License-Identifier:" not in head:
            bad.append("%s: no SPDX-License-Identifier line in its first lines" % f)
    return bad


def check_links(build):
    path = os.path.join(build, "layers-links.txt")
    if not os.path.exists(path):
        return ["%s missing (cmake/Layers.cmake writes it at configure time)" % path]
    bad = []
    links = {}
    for line in open(path):
        tgt, _, deps = line.strip().partition(":")
        links[tgt] = set(deps.split())
    for lib in NO_EMU:
        if lib not in links:
            continue
        hit = links[lib] & EMU_LIBS
        if hit:
            bad.append("%s links %s" % (lib, " ".join(sorted(hit))))
    return bad


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    bad = check_includes(sys.argv[1]) + check_spelling(sys.argv[1]) + check_map(sys.argv[1]) + check_spdx(sys.argv[1]) + check_links(sys.argv[2])
    for b in bad:
        print("layers:", b)
    print("layers: %d violation(s)" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The house's walls, checked (docs/design.md "The map of the house").

1. Includes: every project header is included by its path from the
   repository root ("emu/core.h"), so each line shows the layer it reaches;
   a layer includes only the layers below it (LAYERS), and a private header
   (*_priv.h, *_private.h) only from its own folder.
2. Links: the link closure of every library (written at configure time by
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
    "profiler/formats": {"base", "platform", "noc", "profiler/model"},
    "profiler/comm_report": {"base", "platform", "noc", "profiler/model"},
    "profiler/data": {"base", "platform", "noc", "profiler/model", "profiler/comm_report"},
    "profiler/collect": {"base", "platform", "noc", "elf", "emu", "profiler/model"},
    "profiler/comm": {"base", "platform", "noc", "emu", "profiler/model", "profiler/collect",
                      "profiler/comm_report"},
    "web": {"base", "platform", "noc", "profiler/model", "profiler/report"},
    "gdb": {"base", "platform", "elf", "noc", "emu", "profiler/model"},
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


def check_includes(src):
    bad = []
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
                    name = m.group(1)
                    where = "%s:%d: #include \"%s\"" % (rel, n, name)
                    if name.startswith("nocprof/"):
                        continue                      # the SDK's register map (include/)
                    if not os.path.exists(os.path.join(src, name)):
                        if "/" not in name and os.path.exists(os.path.join(dp, name)):
                            bad.append(where + ": write it from the repository root")
                        continue                      # generated (build folder)
                    them = layer_of(name)
                    if them != me and them not in LAYERS.get(me, set()):
                        bad.append(where + ": %s may not reach %s" % (me, them))
                    hb = os.path.basename(name)
                    if (hb.endswith("_priv.h") or hb.endswith("_private.h")) and \
                            os.path.dirname(name) != os.path.dirname(rel):
                        bad.append(where + ": private header of another folder")
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
    bad = check_includes(sys.argv[1]) + check_links(sys.argv[2])
    for b in bad:
        print("layers:", b)
    print("layers: %d violation(s)" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what is missing, build, and run the bundled pipeline demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)"
./build/nocprof run -o nocprof-out
echo
echo "Reports are in nocprof-out/: report.html (open it in a browser), summary.txt, noc.txt, core*/flat.txt, ..."

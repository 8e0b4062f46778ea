#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what is missing, build (normal, ASan+UBSan, TSan), run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNOCPROF_WERROR=ON >/dev/null
cmake --build build -j"$jobs"
# a second configure and build redo nothing (no stamp or generated file that
# changes on every configure)
cmake -S . -B build >/dev/null
redo=$(cmake --build build -j"$jobs" | grep -cE 'Building|Generating|Linking' || true)
if [ "$redo" != 0 ]; then
  echo "test.sh: a second configure made the build redo $redo steps" >&2
  exit 1
fi
(cd build && ctest --output-on-failure -j"$jobs")
if [ "${NOCPROF_SKIP_ASAN:-0}" != 1 ]; then
  # -O1 (ASan's own advice): the invariant checks (NOCPROF_CHECK) run at
  # every block boundary, and at -O0 the exactness and commands tests took
  # past their limit on a loaded 2-CPU host (tests/CMakeLists.txt gives
  # sanitizer builds three times the e2e limit too)
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" \
    -DNOCPROF_SANITIZE=ON -DNOCPROF_WERROR=ON >/dev/null
  cmake --build build-asan -j"$jobs"
  # e2e/report-html left out: its ~55 s are the browser's; every report.html
  # it reads is written by code the other e2e tests run under ASan too
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions="$PWD/../tests/lsan.supp" \
     UBSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -j"$jobs" -E '^e2e/report-html$')
fi

# ThreadSanitizer: the host threads running cores (emu/machine.c) on the
# exactness tests, which run every firmware at 1 to 4 threads, and on the
# machine unit tests (migration of cores between threads); a race makes
# the program exit 66 and the test fail
# G_SLICE=always-malloc: GLib 2.74's slice allocator (not built with TSan)
# hands out GList nodes carved from slabs another thread allocated, so
# TSan sees the slab's allocation race with the node's first read (a
# GQueue of the network read under the machine's lock; 1 run in 12 of a
# pipeline at 3 threads); with plain malloc per node: none in 40
if [ "${NOCPROF_SKIP_TSAN:-0}" != 1 ]; then
  export G_SLICE=always-malloc
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNOCPROF_TSAN=ON -DNOCPROF_WERROR=ON >/dev/null
  cmake --build build-tsan -j"$jobs" --target nocprof test-machine
  # NOCPROF_E2E_SANITIZED: every firmware in one byte order (the threads'
  # code is the same in both; the normal build compares both)
  TSAN_OPTIONS="halt_on_error=1 exitcode=66" NOCPROF_E2E_SANITIZED=1 python3 tests/e2e/test_exact.py \
    --nocprof build-tsan/nocprof --fw build/firmware --src "$PWD"
  # cores moving between threads as [sched] adapt changes their number
  TSAN_OPTIONS="halt_on_error=1 exitcode=66" build-tsan/tests/unit/test-machine
fi

# valgrind memcheck on one end-to-end run: clean apart from Unicorn's own
# leak (tests/valgrind.supp)
if [ "${NOCPROF_SKIP_VALGRIND:-0}" != 1 ] && command -v valgrind >/dev/null; then
  vg_out=$(mktemp -d)
  valgrind --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
    --suppressions=tests/valgrind.supp \
    build/nocprof run -q -o "$vg_out" --set mesh.width=1 --set mesh.height=1 build/firmware/calls-el.elf
  rm -rf "$vg_out"
fi

# Clang's thread-safety analysis (base/thread_safety.h): the scheduler's
# lock rules (emu/machine_priv.h) checked by building the emulator library
# with -Wthread-safety -Werror; a guarded field used without the lock fails
if [ "${NOCPROF_SKIP_TSA:-0}" != 1 ] && command -v clang >/dev/null; then
  CC=clang cmake -S . -B build-tsa -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNOCPROF_WERROR=ON \
    -DCMAKE_C_FLAGS=-Wthread-safety >/dev/null
  cmake --build build-tsa -j"$jobs" --target nocprof_emu
fi

# libFuzzer targets (fuzz/, docs/robustness.md): a smoke run of each
if [ "${NOCPROF_SKIP_FUZZ:-0}" != 1 ] && command -v clang >/dev/null; then
  CC=clang cmake -S . -B build-fuzz -DNOCPROF_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNOCPROF_WERROR=ON >/dev/null
  cmake --build build-fuzz -j"$jobs" --target fuzz-all fuzz-corpus
  (cd build-fuzz && ctest --output-on-failure -L fuzz)
fi

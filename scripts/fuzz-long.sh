#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fuzz-long.sh — the long fuzzing run of docs/robustness.md: each target of
# build-fuzz/fuzz for RUNS executions (default 10^6), one after the other,
# niced, one job, on a copy of its seed corpus under WORKDIR (default
# /tmp/nocprof-fuzz). Prints libFuzzer's final statistics per target and
# the corpus size; crash-*/timeout-* files land in WORKDIR/TARGET/.
#
#   scripts/fuzz-long.sh [RUNS] [WORKDIR] [TARGET...]
set -eu
runs=${1:-1000000}
work=${2:-/tmp/nocprof-fuzz}
shift 2 2>/dev/null || shift $#
targets=${*:-"elf config profile cmdline"}
fz=$(cd "$(dirname "$0")/.." && pwd)/build-fuzz/fuzz
for t in $targets; do
  d=$work/$t
  rm -rf "$d" && mkdir -p "$d/corpus"
  cp "$fz/corpus-$t"/* "$d/corpus/"
  start=$(date +%s)
  (cd "$d" && ASAN_OPTIONS=detect_leaks=0 nice -n 19 "$fz/fuzz_$t" -runs="$runs" -max_total_time=3600 \
      -timeout=10 -rss_limit_mb=2048 -max_len=16384 -jobs=1 -workers=1 -print_final_stats=1 corpus \
      >"$d/log" 2>&1) || echo "fuzz_$t: libFuzzer exit status $?"
  secs=$(( $(date +%s) - start ))
  echo "== fuzz_$t: $secs s, corpus $(ls "$d/corpus" | wc -l) files, $(du -sk "$d/corpus" | cut -f1) KB"
  cat "$d"/fuzz-*.log >>"$d/log" 2>/dev/null || true
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)" "$d/log" | sort -u || tail -20 "$d/log"
  ls "$d" | grep -E "^(crash|timeout|oom|leak)-" || echo "no crash, timeout, oom or leak files"
done

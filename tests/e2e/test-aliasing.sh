#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-aliasing.sh — end-to-end check of the aliasing analysis (issue
# "Aliasing: record many sampling periods in one run").
#
#   tests/e2e/test-aliasing.sh [--nocprof PATH] [--fw FIRMWARE_DIR] [--src DIR]
#
# Defaults: build/nocprof and build/firmware under the project root. Runs
# firmware/apps/alias.c (work locked to a timer of ALIAS_PERIOD cycles) and
# two workloads without periodicity (pipeline, calls), and checks
# summary.json's "aliasing" section with python3:
#   - alias: the timer period T and 2T are flagged on every core, the
#     --alias-check neighbours of T are not;
#   - alias: T-1 and T+1 are flagged too while the run is shorter than T/2
#     ticks (they drift one cycle per tick: too slow to leave the phase);
#   - pipeline, calls: never flagged over 20 periods, on any core;
#   - every unflagged period: each sampled share inside its stated band;
#   - aliasing.txt names the deviating function, aliasing.svg parses as XML;
#   - one period: no aliasing.txt and no "aliasing" key.
# Ends with "N passed, M failed"; exit status 1 when M > 0.
set -u

SRC=$(cd "$(dirname "$0")/../.." && pwd)
NOCPROF=""
FW=""
while [ $# -gt 0 ]; do
    case "$1" in
        --nocprof) NOCPROF=$2; shift 2 ;;
        --fw) FW=$2; shift 2 ;;
        --src) SRC=$2; shift 2 ;;
        *) echo "usage: $0 [--nocprof PATH] [--fw DIR] [--src DIR]" >&2; exit 2 ;;
    esac
done
NOCPROF=${NOCPROF:-$SRC/build/nocprof}
FW=${FW:-$SRC/build/firmware}

PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL - $1"; }
finish() {
    echo "$PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ]
    exit $?
}

if [ ! -x "$NOCPROF" ]; then
    bad "nocprof binary not found at $NOCPROF"
    finish
fi
for fw in alias pipeline calls; do
    if [ ! -f "$FW/$fw-el.elf" ]; then
        bad "firmware $FW/$fw-el.elf not found"
        finish
    fi
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nocprof-aliasing.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# The firmware's timer period and run length, from its source.
ALIAS_C=$SRC/firmware/apps/alias.c
T=$(sed -n 's/^#define ALIAS_PERIOD *\([0-9]*\)u\?.*/\1/p' "$ALIAS_C")
TICKS=$(sed -n 's/^#define ALIAS_TICKS *\([0-9]*\)u\?.*/\1/p' "$ALIAS_C")
if [ -z "$T" ] || [ -z "$TICKS" ]; then
    bad "ALIAS_PERIOD / ALIAS_TICKS not found in $ALIAS_C"
    finish
fi
echo "# alias firmware: timer period $T cycles, $TICKS ticks"

# run NAME ARGS...: nocprof run -q -o $TMP/NAME ARGS; checks exit status 0.
run() {
    local name=$1
    shift
    local status=0
    "$NOCPROF" run -q -o "$TMP/$name" "$@" >"$TMP/$name.log" 2>&1 || status=$?
    if [ "$status" -eq 0 ]; then
        ok "$name: nocprof run exits 0"
        return 0
    fi
    bad "$name: nocprof run $* failed (status $status): $(tail -3 "$TMP/$name.log")"
    return 1
}

# check NAME PYTHON: runs PYTHON with `a` = summary.json's "aliasing" of run
# NAME (and `d` = the whole summary); it prints its failures, one a line.
check() {
    local name=$1 desc=$2 code=$3 out
    out=$(python3 - "$TMP/$name/summary.json" 2>&1 <<EOF
import json, sys
d = json.load(open(sys.argv[1]))
a = d.get("aliasing")
if a is None:
    print("summary.json has no aliasing section")
    sys.exit(0)
def periods(core):
    return {p["period"]: p for p in core["periods"]}
$code
EOF
)
    if [ -z "$out" ]; then
        ok "$name: $desc"
    else
        bad "$name: $desc"
        printf '    %s\n' "$out" | head -20
    fi
}

BAND='
for c in a["cores"]:
    for p in c["periods"]:
        if p["verdict"] != "consistent":
            continue
        for f in p["functions"]:
            lo, hi = f["band"]
            if not (lo - 1e-6 <= f["sampled"] <= hi + 1e-6) or f["deviates"]:
                print("core %d period %d: %s sampled %.4f outside band [%.4f, %.4f]"
                      % (c["id"], p["period"], f["name"], f["sampled"], lo, hi))
'

# 1. The resonant period and its double against the --alias-check neighbours.
if run alias-check --sample-period "$T" --sample-period $((2 * T)) --alias-check "$FW/alias-el.elf"; then
    check alias-check "period $T and $((2 * T)) flagged on every core, neighbours not" "
T = $T
for c in a['cores']:
    ps = periods(c)
    if len(ps) < 5:
        print('core %d: only %d periods recorded' % (c['id'], len(ps)))
    for per, p in ps.items():
        want = per in (T, 2 * T)
        if (p['verdict'] == 'aliased') != want:
            print('core %d period %d: %s (want %s)' % (c['id'], per, p['verdict'],
                  'aliased' if want else 'consistent'))
    if ps.get(T) and 'long_task' not in ps[T]['deviating']:
        print('core %d: long_task not among the deviating functions at %d' % (c['id'], T))
    if c['recommended'] in (None, T, 2 * T):
        print('core %d: recommended %s' % (c['id'], c['recommended']))
"
    check alias-check "unflagged periods: sampled shares inside their bands" "$BAND"
    if grep -q "period $T: ALIASED — long_task sampled" "$TMP/alias-check/aliasing.txt" 2>/dev/null; then
        ok "alias-check: aliasing.txt names long_task at period $T"
    else
        bad "alias-check: aliasing.txt lacks 'period $T: ALIASED — long_task sampled'"
    fi
    if python3 -c "
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert r.tag.endswith('svg'), r.tag
bars = [e for e in r.iter() if e.tag.endswith('rect') and 'bar' in e.get('class', '').split()]
assert bars, 'no bars'
" "$TMP/alias-check/aliasing.svg" 2>"$TMP/svg.err"; then
        ok "alias-check: aliasing.svg is well-formed SVG with bars"
    else
        bad "alias-check: aliasing.svg: $(tail -1 "$TMP/svg.err")"
    fi
fi

# 2. Neighbours one cycle away drift one cycle per tick: with fewer than T/2
#    ticks they never leave long_task's phase, so they are aliased as well.
if [ $((2 * TICKS)) -lt "$T" ]; then
    if run alias-pm1 --sample-period "$T,$((T - 1)),$((T + 1))" "$FW/alias-el.elf"; then
        check alias-pm1 "T-1 and T+1 are flagged too in a $TICKS-tick run" "
for c in a['cores']:
    for per, p in periods(c).items():
        if p['verdict'] != 'aliased':
            print('core %d period %d: %s' % (c['id'], per, p['verdict']))
"
    fi
fi

# 3. No periodicity: never flagged over 20 periods (primes, powers of two,
#    round numbers), on any core.
PERIODS=97,101,127,211,257,331,401,499,503,512,641,769,997,1000,1009,1024,1499,1999,2003,2048
for fw in pipeline calls; do
    if run "$fw-20" --sample-period "$PERIODS" "$FW/$fw-el.elf"; then
        check "$fw-20" "never flagged over 20 periods" "
for c in a['cores']:
    if len(c['periods']) != 20:
        print('core %d: %d periods' % (c['id'], len(c['periods'])))
    for p in c['periods']:
        if p['verdict'] == 'aliased':
            print('core %d period %d: aliased %s' % (c['id'], p['period'], p['deviating']))
if a['any_aliased']:
    print('any_aliased is true')
"
        check "$fw-20" "sampled shares inside their bands" "$BAND"
    fi
done

# 4. One period: nothing to compare, no aliasing output.
if run single --sample-period "$T" "$FW/alias-el.elf"; then
    if [ ! -e "$TMP/single/aliasing.txt" ] &&
       python3 -c "import json,sys; sys.exit('aliasing' in json.load(open(sys.argv[1])))" \
           "$TMP/single/summary.json"; then
        ok "single: one period writes no aliasing report"
    else
        bad "single: aliasing output written for a single period"
    fi
fi

finish

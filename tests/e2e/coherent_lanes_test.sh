#!/bin/bash
# -coherent_lanes: a campaign whose coherence groups are 32 lanes wide (in
# fours at consecutive positions) still finds the planted bug, and its
# artifact reproduces it; a width that is not a power of two, or is over
# 32, is a usage error (exit 1) that names the choices.
#
# Usage: coherent_lanes_test.sh RINGFUZZ TARGET.fz SEED_DIR
set -u
rf=$1 target=$2 seeds=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
mkdir c && cp "$seeds"/* c/
"$rf" -target="$target" -device=cpu -seed=1 -max_total_time=120 \
  -coherent_lanes=32 -artifact_prefix="$work/" c >log 2>&1
rc=$?
[ "$rc" -eq 77 ] || fail "-coherent_lanes=32: exit $rc, want 77: $(tail -3 log)"
crash=$(ls "$work"/crash-* 2>/dev/null | head -1)
[ -n "$crash" ] || fail "-coherent_lanes=32: no crash artifact"
"$rf" -target="$target" -device=cpu "$crash" >replay 2>&1
rc=$?
[ "$rc" -eq 77 ] || fail "the artifact replays with exit $rc, want 77: $(tail -3 replay)"
"$rf" -target="$target" -device=cpu -coherent_lanes=12 -runs=1 >log 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "-coherent_lanes=12: exit $rc, want 1"
grep -q "ERROR: -coherent_lanes=12 is not a power of two; pass 0 (automatic), 1, 2, 4, 8, 16 or 32" log ||
  fail "-coherent_lanes=12: $(tail -1 log)"
"$rf" -target="$target" -device=cpu -coherent_lanes=64 -runs=1 >log 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "-coherent_lanes=64: exit $rc, want 1"
grep -q "coherent_lanes" log || fail "-coherent_lanes=64: $(tail -1 log)"
echo "PASS: -coherent_lanes=32 finds and reproduces the bug; 12 and 64 are refused"

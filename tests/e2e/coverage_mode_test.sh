#!/bin/bash
# -coverage_mode picks the coverage build a campaign fuzzes with: each mode
# says so at start-up and runs the campaign (from the seeds, new units
# found), automatic is signature on lavapipe, and any other value is a usage
# error that names the choices.
#
# Usage: coverage_mode_test.sh RINGFUZZ TARGET.fz SEED_DIR
set -u
rf=$1 target=$2 seeds=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
for mode in "" precise signature; do
  want=${mode:-signature}
  dir="c_${mode:-auto}"
  mkdir -p "$dir" && cp "$seeds"/* "$dir"/
  "$rf" -target="$target" -device=cpu -seed=3 -runs=200000 -keep_going=1 \
    -coverage_mode="$mode" -artifact_prefix="$work/" "$dir" >log 2>&1
  rc=$?
  [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] ||
    fail "-coverage_mode=$mode: exit $rc: $(tail -3 log)"
  grep -q "^INFO: coverage mode: $want" log ||
    fail "-coverage_mode=$mode: no '$want' mode line: $(grep 'coverage mode' log)"
  grep -q "	NEW " log || fail "-coverage_mode=$mode: no new units"
done
"$rf" -target="$target" -device=cpu -coverage_mode=edges -runs=1 >log 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "-coverage_mode=edges: exit $rc, want 1"
grep -q "ERROR: -coverage_mode=edges is not a coverage mode: pass precise, signature" log ||
  fail "-coverage_mode=edges: $(tail -1 log)"
echo "PASS: -coverage_mode precise, signature and automatic"

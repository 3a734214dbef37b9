#!/usr/bin/env bash
# End-to-end campaign on the embedded default (lavapipe): fuzzes one bundled
# target from its seed corpus with a fixed seed and a bounded number of
# executions, and checks that
#   1. ringfuzz finds the planted bug (exit 77, one crash-<sha1> artifact),
#   2. the artifact's name is the SHA-1 of its content,
#   3. the libFuzzer twin of the same target crashes on that artifact with
#      the same bug: its detail line names the kind and code that
#      ringfuzz's names (ringfuzz adds the place: " in FUNCTION FILE:LINE"),
#   4. new corpus files are named by the SHA-1 of their content.
#
#   campaign_test.sh RINGFUZZ TWIN TARGET_FILE SEED_DIR MAX_RUNS
set -uo pipefail
ringfuzz=$1 twin=$2 target=$3 seeds=$4 max_runs=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/artifacts"
cp "$seeds"/* "$work/corpus/"

fail() { echo "FAIL: $*"; echo "--- log"; tail -40 "$work/log"; exit 1; }

"$ringfuzz" -target="$target" -device=cpu -seed=1 -runs="$max_runs" \
  -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/log" 2>&1
rc=$?
[ $rc -eq 77 ] || fail "ringfuzz exited $rc, expected 77 (bug found) within $max_runs runs"
grep -q "INITED cov:" "$work/log" || fail "no INITED status line"
# The header that crash triage keys on (fuzz/engine/report_format.h), whatever the
# kind, then ringfuzz's own detail line.
grep -Eq "^(==[0-9]+== ERROR: libFuzzer: |.*: runtime error: index )" "$work/log" ||
  fail "no libFuzzer- or UBSan-style report"
grep -q "^ringfuzz: " "$work/log" || fail "no ringfuzz detail line"

shopt -s nullglob
artifacts=("$work"/artifacts/crash-*)
[ ${#artifacts[@]} -eq 1 ] || fail "expected one crash artifact, got ${#artifacts[@]}"
artifact=${artifacts[0]}
name=$(basename "$artifact")
[ "crash-$(sha1sum "$artifact" | cut -d' ' -f1)" = "$name" ] ||
  fail "artifact $name is not named by the SHA-1 of its content"

for f in "$work"/corpus/*; do
  [ "$(basename "$f")" = "$(sha1sum "$f" | cut -d' ' -f1)" ] ||
    fail "corpus file $(basename "$f") is not named by its SHA-1"
done

"$twin" "$artifact" >"$work/twin.log" 2>&1
twin_rc=$?
[ $twin_rc -ne 0 ] || fail "the libFuzzer twin did not crash on $name"
grep -q "^ringfuzz: " "$work/twin.log" ||
  fail "the twin crashed without a ringfuzz report: $(tail -5 "$work/twin.log")"
rf_detail=$(grep -m1 "^ringfuzz: " "$work/log")
rf_bug=${rf_detail% in *}
twin_bug=$(grep -m1 "^ringfuzz: " "$work/twin.log")
[ "$rf_bug" = "$twin_bug" ] ||
  fail "the twin reported '$twin_bug' on $name, ringfuzz '$rf_detail'"
echo "PASS: bug found and reproduced by the twin ($name: ${rf_bug#ringfuzz: })"

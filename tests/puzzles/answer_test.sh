#!/usr/bin/env bash
# Checks a puzzle's known answer (no fuzzing): the code named in the
# puzzle's header comment ("code=N") is what both builds report.
#   1. the libFuzzer twin crashes on ANSWER with fz_crash(code=N),
#   2. ringfuzz on lavapipe, running ANSWER once, exits 77 with that report,
#   3. NEAR, one step short of the answer, is clean in both builds (the
#      puzzle's last gate really is a gate).
#
#   answer_test.sh RINGFUZZ TWIN TARGET_FILE ANSWER NEAR
set -uo pipefail
ringfuzz=$1 twin=$2 target=$3 answer=$4 near=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; for f in "$work"/*.log; do echo "--- $f"; tail -20 "$f"; done; exit 1; }

code=$(grep -o -m1 'code=[0-9]*' "$target" | cut -d= -f2)
[ -n "$code" ] || fail "$target names no 'code=N' in its header comment"
want="ringfuzz: fz_crash(code=$code)"

"$twin" "$answer" >"$work/twin_answer.log" 2>&1
[ $? -ne 0 ] || fail "the twin did not crash on the answer $answer"
grep -qF "$want" "$work/twin_answer.log" || fail "the twin did not report '$want'"

"$twin" "$near" >"$work/twin_near.log" 2>&1
[ $? -eq 0 ] || fail "the twin reported a bug on the near miss $near"

"$ringfuzz" -target="$target" -device=cpu "$answer" >"$work/rf_answer.log" 2>&1
rc=$?
[ $rc -eq 77 ] || fail "ringfuzz exited $rc on the answer, expected 77"
grep -qF "$want" "$work/rf_answer.log" || fail "ringfuzz did not report '$want'"

"$ringfuzz" -target="$target" -device=cpu "$near" >"$work/rf_near.log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "ringfuzz exited $rc on the near miss, expected 0"
echo "PASS: the answer reports fz_crash(code=$code) in both builds; the near miss is clean"

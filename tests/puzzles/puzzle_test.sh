#!/usr/bin/env bash
# A puzzle campaign on the embedded default (lavapipe): fuzzes a puzzle from
# an empty corpus (or from SEED_DIR) with -seed=1 and at most MAX_RUNS
# executions, and checks that
#   1. ringfuzz solves it (exit 77, one crash-<sha1> artifact) and reports
#      the puzzle's code (the "code=N" of its header comment),
#   2. the libFuzzer twin crashes on that artifact with the same report.
# Prints the executions it took (stat::number_of_executed_units), the
# number the bounds in CMakeLists.txt were calibrated with. Arguments after
# MAX_RUNS that start with '-' are extra ringfuzz flags (e.g.
# -use_value_profile=1); another one is the seed directory.
#
#   puzzle_test.sh RINGFUZZ TWIN TARGET_FILE MAX_RUNS [SEED_DIR] [-FLAG=V ...]
set -uo pipefail
ringfuzz=$1 twin=$2 target=$3 max_runs=$4
shift 4
seeds="" flags=()
for arg in "$@"; do
  case "$arg" in
    -*) flags+=("$arg") ;;
    *) seeds=$arg ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/artifacts"
[ -z "$seeds" ] || cp "$seeds"/* "$work/corpus/"

fail() { echo "FAIL: $*"; echo "--- log"; tail -40 "$work/log"; exit 1; }

code=$(grep -o -m1 'code=[0-9]*' "$target" | cut -d= -f2)
[ -n "$code" ] || fail "$target names no 'code=N' in its header comment"
want="ringfuzz: fz_crash(code=$code)"

"$ringfuzz" -target="$target" -device=cpu -seed=1 -runs="$max_runs" \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" ${flags[@]+"${flags[@]}"} \
  "$work/corpus" >"$work/log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
[ $rc -eq 77 ] ||
  fail "ringfuzz exited $rc after ${execs:-?} executions, expected 77 (solved) within $max_runs"
grep -qF "$want" "$work/log" || fail "ringfuzz did not report '$want'"

shopt -s nullglob
artifacts=("$work"/artifacts/crash-*)
[ ${#artifacts[@]} -eq 1 ] || fail "expected one crash artifact, got ${#artifacts[@]}"
"$twin" "${artifacts[0]}" >"$work/twin.log" 2>&1
[ $? -ne 0 ] || fail "the twin did not crash on $(basename "${artifacts[0]}")"
grep -qF "$want" "$work/twin.log" ||
  fail "the twin did not report '$want': $(tail -5 "$work/twin.log")"
echo "PASS: solved after $execs executions (bound $max_runs${flags[@]+, ${flags[*]}}), reproduced by the twin"

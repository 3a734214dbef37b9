#!/bin/bash
# Several targets side by side on lavapipe (-target given twice, one
# device): a target that hangs on most of its mutants does not keep a fast
# one from its bug; each target's finds go to its own corpus directory and
# its bugs to its own artifacts; -runs bounds each target; a command line
# that pairs targets and directories wrongly is an error.
#
# Usage: tenants_test.sh RINGFUZZ FAST.fz FAST_SEEDS SLOW.fz OTHER.fz OTHER_SEEDS
# FAST has a bug its seeds reach quickly; SLOW loops to the budget on most
# inputs (tests/gpu/data/hang.fz: every input starting with 'H').
set -u
rf=$(realpath "$1") fast=$(realpath "$2") fast_seeds=$(realpath "$3")
slow=$(realpath "$4") other=$(realpath "$5") other_seeds=$(realpath "$6")
fast_name=$(basename "$fast" .fz) slow_name=$(basename "$slow" .fz)
work=$(mktemp -d)
log=$work/parent.log
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*"
  for f in "$log" "$work"/*/fuzz-*.log; do
    [ -f "$f" ] && { echo "--- $f"; grep -v "^INFO: batch" "$f" | tail -15; }
  done
  exit 1
}
# Every file in DIR that is not a seed was written by the worker whose log
# is LOG, and is named by its content's SHA-1.
check_own() {
  local dir=$1 wlog=$2 seeds=$3 f name
  for f in "$dir"/*; do
    name=$(basename "$f")
    [ -e "$seeds/$name" ] && continue
    [ "$(sha1sum <"$f" | cut -d' ' -f1)" = "$name" ] ||
      fail "$f does not hold the content its name says"
    grep -q "^Written [0-9]* bytes to $f$" "$wlog" ||
      fail "$f is in $dir, but its worker ($wlog) did not write it"
  done
}

# 1. The fast target's bug while the slow one hangs beside it. -keep_going
# so that the slow target's timeouts do not end the campaign; SIGINT once
# the fast target's artifact is there.
run=$work/side && mkdir -p "$run/fast" "$run/slow" "$run/out"
cp "$fast_seeds"/* "$run/fast/" && printf 'A' >"$run/slow/seed"
mkdir "$run/slow_seeds" && cp "$run/slow/seed" "$run/slow_seeds/"
(cd "$run" && exec "$rf" -target="$fast" -target="$slow" -device=cpu \
   -keep_going=1 -verbosity=2 -seed=3 -artifact_prefix="$run/out/" \
   "$run/fast" "$run/slow" >"$log" 2>&1) &
parent=$!
artifact=""
for _ in $(seq 1800); do
  artifact=$(ls "$run/out/$fast_name-crash-"* 2>/dev/null | head -1)
  [ -n "$artifact" ] && break
  kill -0 "$parent" 2>/dev/null || break
  sleep 0.1
done
[ -n "$artifact" ] || fail "no $fast_name-crash-* artifact in 180 s beside $slow_name"
sleep 2
kill -INT "$parent"
wait "$parent"
rc=$?
[ "$rc" -eq 72 ] || fail "SIGINT: exit $rc, expected 72"
grep -q "^INFO: 2 targets side by side on device" "$log" || fail "no tenants line"
grep -q -- "-target=$slow -artifact_prefix=$run/out/$slow_name- $run/slow " "$log" ||
  fail "the slow target's worker was not given its own target, prefix and directory"
slow_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/fuzz-1.log")
[ -n "$slow_runs" ] && [ "$slow_runs" -gt 0 ] || fail "the slow target ran nothing"
grep -q "Test unit written to $run/out/$slow_name-timeout-" "$run/fuzz-1.log" ||
  fail "the slow target reported no timeout: it never hung"
check_own "$run/fast" "$run/fuzz-0.log" "$fast_seeds"
check_own "$run/slow" "$run/fuzz-1.log" "$run/slow_seeds"
(cd "$run" && "$rf" -target="$fast" -device=cpu "$artifact") >"$work/replay.log" 2>&1
rc=$?
[ "$rc" -eq 77 ] || { log=$work/replay.log; fail "the artifact alone: exit $rc, expected 77"; }
echo "side by side: $fast_name's bug found ($artifact reproduces) while" \
     "$slow_name ran $slow_runs executions and hung; each directory holds" \
     "only its own target's finds"

# 2. -runs bounds each target.
run=$work/runs && mkdir -p "$run/a" "$run/b"
cp "$fast_seeds"/* "$run/a/" && cp "$other_seeds"/* "$run/b/"
(cd "$run" && exec "$rf" -target="$fast" -target="$other" -device=cpu \
   -keep_going=1 -seed=5 -runs=20001 -print_final_stats=1 \
   -artifact_prefix="$run/" "$run/a" "$run/b") >"$log" 2>&1
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "runs: exit $rc"
for i in 0 1; do
  grep -q "^stat::number_of_executed_units: 20001$" "$run/fuzz-$i.log" ||
    fail "worker $i did not run exactly 20001 executions"
done
grep -q "^stat::number_of_executed_units: 40002$" "$log" ||
  fail "the campaign did not sum its targets' 2 x 20001 executions"
echo "runs: 20001 executions per target"

# 3. Command lines that pair targets and directories wrongly.
"$rf" -target="$fast" -target="$other" -device=cpu "$work/one" >"$log" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "two targets, one directory: exit $rc, expected 1"
grep -q "2 targets need 2 corpus directories" "$log" || fail "no error for one directory"
"$rf" -target="$fast" -target="$fast" -device=cpu "$work/x" "$work/y" >"$log" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "one target twice: exit $rc, expected 1"
grep -q "do not all have their own file name" "$log" || fail "no error for one name twice"
echo "PASS: several targets side by side"

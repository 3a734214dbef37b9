#!/bin/bash
# tools/ab runs each of a flag's two values on every seed and target: the
# value reaches each run (hang.fz's mutants are cut with -cut_slow_mutants=1
# and never with 0, by ringfuzz's own stats), the summary's means and ratio
# are those of its rows (recomputed here), the TSV holds the same rows, and
# bad arguments and failed runs are errors that say what to do.
#
# Usage: ab_test.sh TOOLS_AB RINGFUZZ HANG.fz
set -u
ab=$1 rf=$2 hang=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1

"$ab" --ringfuzz "$rf" --device cpu --seeds "1 2" --seconds 2 --tsv ab.tsv \
  cut_slow_mutants 1 0 "$hang" >out 2>err
rc=$?
[ "$rc" -eq 0 ] || fail "exit $rc: $(tail -5 err)"
rows=$(awk -F'\t' 'NF == 8 && $1 == "hang"' out | wc -l)
[ "$rows" -eq 4 ] || fail "want 4 runs (2 seeds x 2 values), got $rows: $(cat out)"
# Alternating: seed 1 value 1, seed 1 value 0, seed 2 value 1, seed 2 value 0.
order=$(awk -F'\t' 'NF == 8 { printf "%s/%s ", $2, $3 }' out)
[ "$order" = "1/1 1/0 2/1 2/0 " ] || fail "run order: $order"
awk -F'\t' 'NF == 8 && $3 == 1 && $8 == 0 { exit 1 }' out ||
  fail "a run with -cut_slow_mutants=1 cut no mutant: $(cat out)"
awk -F'\t' 'NF == 8 && $3 == 0 && $8 != 0 { exit 1 }' out ||
  fail "a run with -cut_slow_mutants=0 cut mutants: $(cat out)"
awk -F'\t' 'NF == 8 && ($4 <= 0 || $5 <= 0) { exit 1 }' out ||
  fail "a run without executions: $(cat out)"
want=$(awk -F'\t' 'NF == 8 && $3 == 1 { a += $5; n++ } NF == 8 && $3 == 0 { b += $5; m++ }
  END { printf "ab: hang: cut_slow_mutants=1 %.3f M exec/s, cut_slow_mutants=0 %.3f M exec/s, ratio 1/0 %.3f", a/n/1e6, b/m/1e6, (a/n/1e6)/(b/m/1e6) }' out)
grep -qxF "$want" out || fail "summary: want '$want', got '$(grep '^ab:' out)'"
[ "$(head -1 ab.tsv)" = "$(printf 'target\tseed\tvalue\texecs\texec_per_s\tcov\tcorpus\tcut')" ] ||
  fail "TSV header: $(head -1 ab.tsv)"
diff <(tail -n +2 ab.tsv) <(awk -F'\t' 'NF == 8' out) >/dev/null ||
  fail "the TSV's rows differ from the printed ones"

"$ab" --ringfuzz "$rf" cut_slow_mutants 1 0 no_such_target >out 2>err
rc=$?
[ "$rc" -eq 2 ] || fail "unknown target: exit $rc, want 2"
grep -q "no target 'no_such_target' (a bundled name such as tlv, or a .fz path)" err ||
  fail "unknown target: $(cat err)"
"$ab" --ringfuzz "$rf" cut_slow_mutants 1 >out 2>err
[ $? -eq 2 ] || fail "missing value: want exit 2"
grep -q "give a flag, two values and at least one target" err ||
  fail "missing value: $(cat err)"
# A value ringfuzz refuses: that run prints no stats, the other still runs.
"$ab" --ringfuzz "$rf" --device cpu --seeds 1 --seconds 1 \
  cut_slow_mutants 1 maybe "$hang" >out 2>err
rc=$?
[ "$rc" -eq 1 ] || fail "refused value: exit $rc, want 1"
grep -q "hang -seed=1 -cut_slow_mutants=maybe printed no final stats" err ||
  fail "refused value: $(cat err)"
[ "$(awk -F'\t' 'NF == 8' out | wc -l)" -eq 1 ] || fail "the good value did not run"
echo "PASS: tools/ab"

#!/bin/bash
# tools/ab runs each of a flag's two values on every seed and target: the
# value reaches each run (hang.fz's mutants are cut with -cut_slow_mutants=1
# and never with 0, by ringfuzz's own stats), the summary's means and ratio
# are those of its rows (recomputed here), the TSV holds the same rows, and
# bad arguments and failed runs are errors that say what to do. FLAG
# `binary` runs each of two executables, and --seed-corpus starts each run
# from the target's bundled seeds. The feedback latency columns are "-"
# for a run that fuzzed nothing.
#
# Usage: ab_test.sh TOOLS_AB RINGFUZZ HANG.fz
set -u
ab=$1 rf=$2 hang=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# Fails ($3 names the case) unless every run in `out` whose value is $1 cut
# mutants and no run whose value is $2 did (ringfuzz's own stat::mutants_cut).
expect_cuts() {
  awk -F'\t' -v v="$1" 'NF == 10 && $3 == v && $8 == 0 { exit 1 }' out ||
    fail "$3: a run with $1 cut no mutant: $(cat out)"
  awk -F'\t' -v v="$2" 'NF == 10 && $3 == v && $8 != 0 { exit 1 }' out ||
    fail "$3: a run with $2 cut mutants: $(cat out)"
}
cd "$work" || exit 1

"$ab" --ringfuzz "$rf" --device cpu --seeds "1 2" --seconds 2 --tsv ab.tsv \
  cut_slow_mutants 1 0 "$hang" >out 2>err
rc=$?
[ "$rc" -eq 0 ] || fail "exit $rc: $(tail -5 err)"
rows=$(awk -F'\t' 'NF == 10 && $1 == "hang"' out | wc -l)
[ "$rows" -eq 4 ] || fail "want 4 runs (2 seeds x 2 values), got $rows: $(cat out)"
# Alternating: seed 1 value 1, seed 1 value 0, seed 2 value 1, seed 2 value 0.
order=$(awk -F'\t' 'NF == 10 { printf "%s/%s ", $2, $3 }' out)
[ "$order" = "1/1 1/0 2/1 2/0 " ] || fail "run order: $order"
expect_cuts 1 0 "-cut_slow_mutants"
awk -F'\t' 'NF == 10 && ($4 <= 0 || $5 <= 0) { exit 1 }' out ||
  fail "a run without executions: $(cat out)"
want=$(awk -F'\t' 'NF == 10 && $3 == 1 { a += $5; n++ } NF == 10 && $3 == 0 { b += $5; m++ }
  END { printf "ab: hang: cut_slow_mutants=1 %.3f M exec/s, cut_slow_mutants=0 %.3f M exec/s, ratio 1/0 %.3f", a/n/1e6, b/m/1e6, (a/n/1e6)/(b/m/1e6) }' out)
grep -qxF "$want" out || fail "summary: want '$want', got '$(grep '^ab:' out)'"
# The latency columns: "-" where a run timed no entry, else p50 <= p99.
awk -F'\t' 'NF == 10 && !(($9 == "-" && $10 == "-") || ($9 ~ /^[0-9.]+$/ && $10 ~ /^[0-9.]+$/ && $9 + 0 <= $10 + 0)) { exit 1 }' out ||
  fail "latency columns: $(cat out)"
[ "$(head -1 ab.tsv)" = "$(printf 'target\tseed\tvalue\texecs\texec_per_s\tcov\tcorpus\tcut\tlatency_p50_ms\tlatency_p99_ms')" ] ||
  fail "TSV header: $(head -1 ab.tsv)"
diff <(tail -n +2 ab.tsv) <(awk -F'\t' 'NF == 10' out) >/dev/null ||
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
[ "$(awk -F'\t' 'NF == 10' out | wc -l)" -eq 1 ] || fail "the good value did not run"

# Two binaries: each value is the executable that runs. Two wrappers that
# set -cut_slow_mutants differently tell them apart by ringfuzz's stats.
printf '#!/bin/sh\nexec "%s" -cut_slow_mutants=1 "$@"\n' "$rf" > cut_on
printf '#!/bin/sh\nexec "%s" -cut_slow_mutants=0 "$@"\n' "$rf" > cut_off
chmod +x cut_on cut_off
"$ab" --device cpu --seeds 1 --seconds 2 binary ./cut_on ./cut_off "$hang" \
  >out 2>err
rc=$?
[ "$rc" -eq 0 ] || fail "binary: exit $rc: $(tail -5 err)"
order=$(awk -F'\t' 'NF == 10 { printf "%s ", $3 }' out)
[ "$order" = "./cut_on ./cut_off " ] || fail "binary: run order: $order"
expect_cuts ./cut_on ./cut_off binary
grep -q '^ab: hang: binary=./cut_on .* M exec/s, binary=./cut_off .* M exec/s, ratio A/B ' out ||
  fail "binary: summary: $(grep '^ab:' out)"
"$ab" binary ./cut_on ./no_such_binary "$hang" >out 2>err
[ $? -eq 2 ] || fail "binary: a missing binary: want exit 2"
grep -q "binary: no executable ringfuzz at './no_such_binary'" err ||
  fail "binary: a missing binary: $(cat err)"

# --seed-corpus: each run starts from the bundled seeds. With -runs=0 a run
# executes exactly its corpus: one execution per file of corpus/tlv.
root=$(cd "$(dirname "$ab")/.." && pwd)
files=$(find "$root/corpus/tlv" -maxdepth 1 -type f | wc -l)
[ "$files" -gt 1 ] || fail "corpus/tlv holds $files files"
"$ab" --ringfuzz "$rf" --device cpu --seeds 1 --seconds 1 --seed-corpus \
  --args "-runs=0" cut_slow_mutants 1 0 tlv >out 2>err
rc=$?
[ "$rc" -eq 0 ] || fail "seed corpus: exit $rc: $(tail -5 err)"
awk -F'\t' -v n="$files" 'NF == 10 && $4 != n { exit 1 }' out ||
  fail "seed corpus: want $files executions a run (the seeds): $(cat out)"
# Those runs fuzzed nothing, so they timed no entry.
awk -F'\t' 'NF == 10 && ($9 != "-" || $10 != "-") { exit 1 }' out ||
  fail "seed corpus: latency without a fuzzed entry: $(cat out)"
[ "$(awk -F'\t' 'NF == 10' out | wc -l)" -eq 2 ] || fail "seed corpus: $(cat out)"
"$ab" --ringfuzz "$rf" --seed-corpus cut_slow_mutants 1 0 "$hang" >out 2>err
[ $? -eq 2 ] || fail "seed corpus of a target without one: want exit 2"
grep -q -- "--seed-corpus: '$hang' has no seed corpus at" err ||
  fail "seed corpus of a target without one: $(cat err)"
echo "PASS: tools/ab"

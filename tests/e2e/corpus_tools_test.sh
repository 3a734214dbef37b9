#!/usr/bin/env bash
# libFuzzer's corpus tools on lavapipe, checked against the libFuzzer twin
# and ClusterFuzz's patterns:
#  * -merge=1 keeps the coverage of its inputs (ringfuzz's INITED cov/ft on
#    the merged corpus equal those on all inputs), names files by SHA-1,
#    adds nothing on a second run, prints a MERGE-OUTER line that
#    ClusterFuzz's stats regex reads with the numbers printed;
#  * the twin's -merge=1 takes the ringfuzz-merged corpus and finds in it
#    nearly all the edges it finds in the inputs; ringfuzz's -merge=1 takes
#    the twin-merged corpus;
#  * a merge resumed from a control file cut after k inputs prints
#    libFuzzer's resume lines and adds the same files as the whole merge;
#  * -minimize_crash=1 shrinks a padded bug input, keeping the bug's
#    ringfuzz line, and the twin still crashes on the result;
#  * -cleanse_crash=1 writes an input of the same size with the same bug.
#
#   corpus_tools_test.sh RINGFUZZ TWIN CLASSIFY TARGET_FILE SEED_DIR CRASH
set -uo pipefail
ringfuzz=$1 twin=$2 classify=$3 target=$4 seeds=$5 crash=$6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rf() { "$ringfuzz" -target="$target" -device=cpu "$@"; }
fail() { echo "FAIL: $*"; exit 1; }
inited() {  # "cov ft" of ringfuzz's seed run of a directory
  rf -runs=0 -seed=1 "$1" 2>&1 | sed -n 's/.*INITED cov: \([0-9]*\) ft: \([0-9]*\).*/\1 \2/p'
}
twin_cov() {  # the twin's edge count of a directory (its INITED line)
  "$twin" -runs=0 -seed=1 "$1" 2>&1 | sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p'
}

# The inputs: what the twin finds from the seeds, plus the seeds.
mkdir -p "$work/in" "$work/out"
"$twin" -runs=20000 -seed=1 "$work/in" "$seeds" >"$work/twin_fuzz.log" 2>&1
cp "$seeds"/* "$work/in/"
inputs=$(ls "$work/in" | wc -l)
[ "$inputs" -gt 3 ] || fail "the twin found too few inputs ($inputs)"

# --- merge into an empty directory ---
rf -merge=1 "$work/out" "$work/in" >"$work/merge.log" 2>&1
rc=$?
[ $rc -eq 0 ] || { tail -20 "$work/merge.log"; fail "-merge=1 exited $rc"; }
line=$(grep "^MERGE-OUTER: [0-9]* new files" "$work/merge.log")
added=$(ls "$work/out" | wc -l)
[ "$added" -gt 0 ] && [ "$added" -le "$inputs" ] || fail "merged $added of $inputs"
echo "$line" | grep -q "^MERGE-OUTER: $added new files with [0-9]* new features added; [0-9]* new coverage edges$" ||
  fail "bad MERGE-OUTER line: $line"
printf '%s\n' "$line" | "$classify" --merge_stats >"$work/stats"
grep -q "^merge_line=1$" "$work/stats" || fail "ClusterFuzz's regex misses: $line"
ft=$(echo "$line" | sed 's/.* with \([0-9]*\) new features.*/\1/')
edges=$(echo "$line" | sed 's/.*added; \([0-9]*\) new coverage.*/\1/')
grep -q "^feature_coverage=$ft$" "$work/stats" && grep -q "^edge_coverage=$edges$" "$work/stats" ||
  fail "ClusterFuzz reads $(tr '\n' ' ' <"$work/stats") from: $line"
for f in "$work/out"/*; do
  [ "$(basename "$f")" = "$(sha1sum "$f" | cut -c1-40)" ] || fail "$f is not named by its SHA-1"
done
[ "$(inited "$work/out")" = "$(inited "$work/in")" ] ||
  fail "coverage lost: merged $(inited "$work/out"), inputs $(inited "$work/in")"
read -r _ all_ft <<<"$(inited "$work/in")"
[ "$ft" = "$all_ft" ] || fail "MERGE-OUTER counts $ft new features, the inputs have $all_ft"
rf -merge=1 "$work/out" "$work/in" >"$work/again.log" 2>&1 || fail "second merge failed"
grep -q "^MERGE-OUTER: 0 new files with 0 new features added" "$work/again.log" ||
  fail "a second merge added: $(grep 'MERGE-OUTER: [0-9]* new' "$work/again.log")"

# --- the twin and ringfuzz read each other's merged corpora ---
mkdir -p "$work/twin_of_rf" "$work/twin_out" "$work/rf_of_twin"
"$twin" -merge=1 "$work/twin_of_rf" "$work/out" >"$work/t1.log" 2>&1 || fail "the twin's merge of ringfuzz's corpus failed"
grep -q "^MERGE-OUTER: [0-9]* new files" "$work/t1.log" || fail "the twin printed no MERGE-OUTER line"
merged_edges=$(twin_cov "$work/out") all_edges=$(twin_cov "$work/in")
[ $((merged_edges * 100)) -ge $((all_edges * 95)) ] ||
  fail "the twin reaches $merged_edges edges on ringfuzz's merged corpus, $all_edges on its inputs"
"$twin" -merge=1 "$work/twin_out" "$work/in" >"$work/t2.log" 2>&1 || fail "the twin's merge failed"
rf -merge=1 "$work/rf_of_twin" "$work/twin_out" >"$work/r2.log" 2>&1 || fail "ringfuzz's merge of the twin's corpus failed"
[ "$(ls "$work/rf_of_twin" | wc -l)" -gt 0 ] || fail "nothing merged from the twin's corpus"

# --- a merge resumed from its control file ---
mkdir -p "$work/full" "$work/resumed"
rf -merge=1 -merge_control_file="$work/cf" "$work/full" "$work/in" >"$work/full.log" 2>&1 || fail "merge with a control file failed"
n=$(head -1 "$work/cf")
k=$((n / 2))
# The head (2 + n lines) and the records of inputs 0..k-1 (3 lines each).
head -n $((2 + n + 3 * k)) "$work/cf" >"$work/cf_cut"
rf -merge=1 -merge_control_file="$work/cf_cut" "$work/resumed" "$work/in" >"$work/resume.log" 2>&1 || fail "resumed merge failed"
grep -q "^MERGE-OUTER: control file ok, $n files total, first not processed file $k$" "$work/resume.log" ||
  fail "no resume line: $(grep MERGE "$work/resume.log")"
grep -q "^MERGE-INNER: $n total files; $k processed earlier; will process $((n - k)) files now$" "$work/resume.log" ||
  fail "the resumed merge ran the wrong inputs"
[ "$(ls "$work/full")" = "$(ls "$work/resumed")" ] || fail "the resumed merge added other files"
# A completed control file runs nothing; its decision is copied again.
mkdir -p "$work/again"
rf -merge=1 -merge_control_file="$work/cf_cut" "$work/again" "$work/in" >"$work/done.log" 2>&1 || fail "merge of a completed control file failed"
grep -q "nothing to do, merge has been completed before" "$work/done.log" || fail "a completed control file ran again"
grep -q "MERGE-INNER" "$work/done.log" && fail "a completed control file ran inputs"
[ "$(ls "$work/full")" = "$(ls "$work/again")" ] || fail "a completed control file copied other files"

# --- crash minimization ---
(cat "$crash"; head -c 40 /dev/zero | tr '\0' 'Z') >"$work/padded"
rf -error_exitcode=77 "$work/padded" >"$work/padded.log" 2>&1
[ $? -eq 77 ] || fail "the padded bug input does not hit the bug"
bug=$(grep "^ringfuzz: " "$work/padded.log")
rf -minimize_crash=1 -runs=2000 -exact_artifact_path="$work/min" "$work/padded" >"$work/min.log" 2>&1 ||
  { tail "$work/min.log"; fail "-minimize_crash=1 failed"; }
grep -q "^CRASH_MIN: minimizing crash input: " "$work/min.log" || fail "no CRASH_MIN lines"
[ "$(stat -c %s "$work/min")" -lt "$(stat -c %s "$work/padded")" ] || fail "nothing was removed"
rf "$work/min" >"$work/min_replay.log" 2>&1
[ "$(grep '^ringfuzz: ' "$work/min_replay.log")" = "$bug" ] || fail "the minimized input hits another bug"
"$twin" "$work/min" >"$work/twin_min.log" 2>&1 && fail "the twin does not crash on the minimized input"
(cd "$work" && rf -minimize_crash=1 -runs=50 "$work/padded" >"$work/min2.log" 2>&1) || fail "minimize without a path failed"
[ -f "$work/minimized-from-$(sha1sum "$work/padded" | cut -c1-40)" ] || fail "no minimized-from-<sha1> artifact"

# --- crash cleansing ---
rf -cleanse_crash=1 -exact_artifact_path="$work/clean" "$work/padded" >"$work/clean.log" 2>&1 ||
  { tail "$work/clean.log"; fail "-cleanse_crash=1 failed"; }
[ "$(stat -c %s "$work/clean")" -eq "$(stat -c %s "$work/padded")" ] || fail "cleansing changed the size"
cmp -s "$work/clean" "$work/padded" && fail "nothing was cleansed"
rf "$work/clean" >"$work/clean_replay.log" 2>&1
[ "$(grep '^ringfuzz: ' "$work/clean_replay.log")" = "$bug" ] || fail "the cleansed input hits another bug"
"$twin" "$work/clean" >"$work/twin_clean.log" 2>&1 && fail "the twin does not crash on the cleansed input"
echo "PASS: merged $added of $inputs inputs ($line); resumed at $k of $n; minimized $(stat -c %s "$work/padded") -> $(stat -c %s "$work/min") bytes; cleansed"

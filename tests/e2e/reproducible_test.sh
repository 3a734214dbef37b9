#!/bin/bash
# -reproducible=1: the same command (same -seed, flags and seeds) finds the
# same inputs in the same order on lavapipe: the corpus directories and the
# NEW lines of two runs are identical.
#
# Usage: reproducible_test.sh RINGFUZZ TARGET.fz SEED_DIR
set -u
rf=$1 target=$2 seeds=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# -keep_going: a bug found on the way is part of what must repeat (exit 77
# both times, the same artifacts), not the end of the comparison.
for run in 1 2; do
  mkdir -p "$work/c$run" "$work/a$run" && cp "$seeds"/* "$work/c$run"/
  (cd "$work" && "$rf" -target="$target" -device=cpu -reproducible=1 -seed=7 \
      -runs=300000 -keep_going=1 -artifact_prefix="$work/a$run/" \
      "$work/c$run" >"$work/log$run" 2>&1)
  rc=$?
  [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] ||
    fail "run $run exited $rc: $(tail -3 "$work/log$run")"
  echo "$rc" >"$work/rc$run"
  grep "	NEW " "$work/log$run" | sed 's/ exec\/s: [0-9]*//; s/ rss: [0-9]*Mb//' \
    >"$work/new$run"
done
diff "$work/rc1" "$work/rc2" >/dev/null || fail "the exit codes differ"
diff <(ls "$work/a1") <(ls "$work/a2") >/dev/null || fail "the artifacts differ"
news=$(wc -l <"$work/new1")
[ "$news" -gt 0 ] || fail "no NEW lines: nothing to compare"
diff "$work/new1" "$work/new2" >/dev/null ||
  fail "the NEW lines differ; first differences (< run 1, > run 2):
$(diff "$work/new1" "$work/new2" | head -20)
run 1's log ends:
$(tail -5 "$work/log1")
run 2's log ends:
$(tail -5 "$work/log2")"
diff <(ls "$work/c1") <(ls "$work/c2") >/dev/null || fail "the corpora differ"
echo "PASS: $news NEW lines and the corpus identical in two runs"

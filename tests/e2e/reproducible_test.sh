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
for run in 1 2; do
  mkdir -p "$work/c$run" && cp "$seeds"/* "$work/c$run"/
  (cd "$work" && "$rf" -target="$target" -device=cpu -reproducible=1 -seed=7 \
      -runs=300000 "$work/c$run" >"$work/log$run" 2>&1) ||
    fail "run $run exited $?: $(tail -3 "$work/log$run")"
  grep "	NEW " "$work/log$run" | sed 's/ exec\/s: [0-9]*//; s/ rss: [0-9]*Mb//' \
    >"$work/new$run"
done
news=$(wc -l <"$work/new1")
[ "$news" -gt 0 ] || fail "no NEW lines: nothing to compare"
diff "$work/new1" "$work/new2" >/dev/null || fail "the NEW lines differ"
diff <(ls "$work/c1") <(ls "$work/c2") >/dev/null || fail "the corpora differ"
echo "PASS: $news NEW lines and the corpus identical in two runs"

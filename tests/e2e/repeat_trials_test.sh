#!/bin/bash
# Repetition trials (-repeat_trials), on lavapipe, with
# tests/e2e/data/many_records.fz (a crash behind 96 records) and a seed of
# 32 records (64 bytes), at -max_len=256:
# - 0 (never): no crash in 2M executions: havoc and crossover alone do not
#   get there, so the other two runs found it by the trials;
# - 2 (from the start): the crash is found, and its input is the seed
#   repeated (its first h < 33 bytes once, the rest at least twice), named
#   `MS: 1 CopyPart-`;
# - 1 (the default, once coverage stalls): after 0.5 s without a new input
#   (the log says so; value profile stays off here), the crash comes, and
#   its input repeats a corpus input so.
#
# Usage: repeat_trials_test.sh RINGFUZZ MANY_RECORDS.fz
set -u
rf=$1 target=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
seed() {
  rm -rf "$1" && mkdir -p "$1"
  for i in $(seq 0 31); do printf "R\\x$(printf %02x "$i")"; done > "$1/seed"
  [ "$(stat -c %s "$1/seed")" -eq 64 ] || fail "the seed is not 64 bytes"
}
# The artifact named in LOG, which must exist.
artifact() {
  local a
  a=$(sed -n 's/.*Test unit written to //p' "$1" | head -1)
  [ -n "$a" ] && [ -f "$a" ] || fail "$1: no artifact: $(tail -3 "$1")"
  echo "$a"
}
# Succeeds iff file $1 is file $2's first h bytes (0 <= h <= 32) followed
# by the rest of file $2 written twice or more, whole.
repeats() {
  python3 - "$1" "$2" <<'PY'
import sys
art = open(sys.argv[1], 'rb').read()
unit = open(sys.argv[2], 'rb').read()
for h in range(0, min(32, len(unit) - 1) + 1):
    tail = unit[h:]
    n = (len(art) - h) // len(tail)
    if n >= 2 and unit[:h] + tail * n == art:
        sys.exit(0)
sys.exit(1)
PY
}
common=(-target="$target" -device=cpu -seed=1 -max_len=256 -use_value_profile=0)

seed off
"$rf" "${common[@]}" -repeat_trials=0 -auto_value_profile=0 -runs=2000000 \
  -artifact_prefix="$work/off_" off >log0 2>&1
rc=$?
[ "$rc" -eq 0 ] || fail "-repeat_trials=0: exit $rc, want 0: $(tail -3 log0)"
grep -q 'fz_crash' log0 && fail "-repeat_trials=0 found the crash: $(grep -m1 'MS:' log0)"

seed on
"$rf" "${common[@]}" -repeat_trials=2 -auto_value_profile=0 -runs=2000000 \
  -artifact_prefix="$work/on_" on >log2 2>&1
rc=$?
[ "$rc" -eq 77 ] || fail "-repeat_trials=2: exit $rc, want 77: $(tail -3 log2)"
grep -q 'fz_crash(code=96)' log2 || fail "-repeat_trials=2: not the crash: $(grep -m1 fz_crash log2)"
grep -q '^MS: 1 CopyPart-;' log2 || fail "-repeat_trials=2: $(grep -m1 '^MS:' log2)"
grep -q '^INFO: found in epoch [0-9]*, ring slot [0-9]*, by a trial the host made from corpus entry ' log2 ||
  fail "-repeat_trials=2: provenance: $(grep -m1 '^INFO: found in' log2)"
art=$(artifact log2)
repeats "$art" on/seed || fail "-repeat_trials=2: the artifact does not repeat the seed"

seed stall
"$rf" "${common[@]}" -repeat_trials=1 -auto_value_profile=0 -max_total_time=30 \
  -artifact_prefix="$work/stall_" stall >log1 2>&1
rc=$?
[ "$rc" -eq 77 ] || fail "-repeat_trials=1: exit $rc, want 77: $(tail -3 log1)"
switch=$(grep -n "^INFO: no new input for 0.5 s: trying each of the corpus's" log1 | head -1 | cut -d: -f1)
crash=$(grep -n 'fz_crash(code=96)' log1 | head -1 | cut -d: -f1)
[ -n "$switch" ] || fail "-repeat_trials=1: no stall: $(grep -m3 INFO log1)"
[ -n "$crash" ] && [ "$crash" -gt "$switch" ] ||
  fail "-repeat_trials=1: crash at line ${crash:-none}, the trials from line $switch"
art=$(artifact log1)
found=no
for f in stall/*; do
  repeats "$art" "$f" && { found=$f; break; }
done
[ "$found" != no ] || fail "-repeat_trials=1: the artifact repeats no corpus input"
echo "PASS: -repeat_trials=0 no crash in 2M executions; 2: the seed repeated; 1: after 0.5 s without a new input, $(basename "$found") repeated"

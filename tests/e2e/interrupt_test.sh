#!/bin/bash
# SIGINT and SIGTERM end a campaign as libFuzzer's end: "==PID== libFuzzer:
# run interrupted; exiting", the final stats, exit 72, and every input the
# log reported as NEW saved. The campaign starts with both signals ignored,
# as a script's `cmd &` starts it: ringfuzz installs its own handlers.
#
# Usage: interrupt_test.sh RINGFUZZ TARGET.fz SEED_DIR
set -u
rf=$1 target=$2 seeds=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; cat "$work/log" 2>/dev/null | tail -20; exit 1; }

for sig in INT TERM; do
  dir=$work/corpus_$sig
  mkdir -p "$dir" && cp "$seeds"/* "$dir"/
  seed_files=$(ls "$dir" | wc -l)
  (trap '' INT TERM; cd "$work" && exec "$rf" -target="$target" -device=cpu \
      -print_final_stats=1 -keep_going=1 "$dir" >"$work/log" 2>&1) &
  pid=$!
  for _ in $(seq 1200); do
    grep -q "INITED" "$work/log" 2>/dev/null && break
    sleep 0.1
  done
  grep -q "INITED" "$work/log" || fail "no INITED line within 120 s"
  sleep 1
  kill -s "$sig" "$pid"
  wait "$pid"
  rc=$?
  [ "$rc" -eq 72 ] || fail "SIG$sig: exit code $rc, expected 72"
  grep -q "^==$pid== libFuzzer: run interrupted; exiting$" "$work/log" ||
    fail "SIG$sig: no 'run interrupted' line"
  grep -q "^stat::number_of_executed_units:" "$work/log" ||
    fail "SIG$sig: no final stats"
  # Every NEW and REDUCE line has its file (a reduction's parent keeps its
  # own).
  news=$(grep -cE "	(NEW|REDUCE) " "$work/log")
  files=$(ls "$dir" | wc -l)
  [ "$files" -eq $((seed_files + news)) ] ||
    fail "SIG$sig: $news NEW and REDUCE lines but $((files - seed_files)) new files"
  echo "SIG$sig: exit 72, $news new inputs saved"
done
echo "PASS: interrupts"

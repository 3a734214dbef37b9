#!/bin/bash
# A multi-device campaign (-devices) on lavapipe, as two workers on the one
# CPU device (-devices=cpu,cpu): the corpus directory holds each input
# once, every input a worker saved is there, the workers take each other's
# inputs, SIGINT stops everything without losing a file, the bug is
# reported once with an artifact that reproduces, -runs bounds the whole
# campaign, and a device that does not exist is an error that lists them.
#
# Usage: multi_device_test.sh RINGFUZZ TARGET.fz SEED_DIR
set -u
rf=$(realpath "$1") target=$(realpath "$2") seeds=$(realpath "$3")
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
# Content SHA-1 of every file in DIR, one per line.
contents() { for f in "$1"/*; do sha1sum <"$f" | cut -d' ' -f1; done; }
# The corpus holds each content once, and each file named by a SHA-1 has
# that content.
check_corpus() {
  local dir=$1 dups
  dups=$(contents "$dir" | sort | uniq -d)
  [ -z "$dups" ] || fail "$dir holds one content twice: $dups"
  for f in "$dir"/*; do
    name=$(basename "$f")
    if [[ $name =~ ^[0-9a-f]{40}$ ]]; then
      [ "$(sha1sum <"$f" | cut -d' ' -f1)" = "$name" ] ||
        fail "$f does not hold the content its name says"
    fi
  done
}

# 1. Sync and SIGINT. -keep_going so that the bug does not end the run;
# -verbosity=2 so that each worker logs every file it wrote and took.
run=$work/sync && mkdir -p "$run/corpus" && cp "$seeds"/* "$run/corpus/"
(cd "$run" && exec "$rf" -target="$target" -devices=cpu,cpu -keep_going=1 \
   -verbosity=2 -seed=7 "$run/corpus" >"$log" 2>&1) &
parent=$!
# Worker 1 runs files that only worker 0 can have written: either at its
# start, when worker 0 was first to finish building its pipelines ("Loaded
# N files" with N above the seeds), or later through -reload ("-reload: ran
# N"; the seeds were there at its start, and it skips its own). Whether one
# of them also adds coverage to worker 1 ("Reloaded ... from", printed
# below) depends on which worker reached it first, so it is not required.
nseeds=$(ls "$seeds" | wc -l)
ran=""
for _ in $(seq 1200); do
  if [ -f "$run/fuzz-1.log" ]; then
    ran=$(grep -m1 "^INFO: -reload: ran [1-9]" "$run/fuzz-1.log")
    [ -n "$ran" ] && break
    loaded=$(sed -n 's/^INFO: Loaded \([0-9]*\) files from .*/\1/p' "$run/fuzz-1.log")
    if [ -n "$loaded" ] && [ "$loaded" -gt "$nseeds" ]; then
      ran="loaded $loaded files at its start, $nseeds of them seeds"
      break
    fi
  fi
  kill -0 "$parent" 2>/dev/null || break
  sleep 0.1
done
[ -n "$ran" ] || fail "worker 1 ran no file that worker 0 wrote in 120 s"
sleep 2
kill -INT "$parent"
wait "$parent"
rc=$?
[ "$rc" -eq 72 ] || fail "SIGINT: exit $rc, expected 72"
grep -q "libFuzzer: run interrupted; exiting" "$log" || fail "no interrupt line"
for i in 0 1; do
  grep -q "libFuzzer: run interrupted; exiting" "$run/fuzz-$i.log" ||
    fail "worker $i did not stop as after SIGINT"
done
for pid in $(sed -n 's/.*, pid \([0-9]*\): .*/\1/p' "$log"); do
  kill -0 "$pid" 2>/dev/null && fail "worker $pid still runs"
done
check_corpus "$run/corpus"
# Every file a worker saved is there, and nothing else came in.
written=$(sed -n 's/^Written [0-9]* bytes to //p' "$run"/fuzz-*.log | sort -u)
for f in $written; do [ -f "$f" ] || fail "$f was logged as saved but is gone"; done
expected=$(( $(ls "$seeds" | wc -l) + $(echo "$written" | grep -c .) ))
files=$(ls "$run/corpus" | wc -l)
[ "$files" -eq "$expected" ] ||
  fail "$files corpus files, expected $expected (seeds and saved inputs)"
news=$(grep -cE "	(NEW|REDUCE) " "$run"/fuzz-*.log | awk -F: '{s += $2} END {print s}')
[ "$news" -ge "$(echo "$written" | grep -c .)" ] || fail "fewer NEW and REDUCE lines than files"
picked=$(comm -12 \
  <(sed -n 's/^Written [0-9]* bytes to //p' "$run/fuzz-0.log" | sort -u) \
  <(sed -n 's/^Reloaded [0-9]* bytes from //p' "$run/fuzz-1.log" | sort -u))
echo "sync: worker 1 ran worker 0's files ($ran);" \
     "$(echo "$picked" | grep -c .) of them added coverage to it;" \
     "$files files, $news NEW lines, none lost or held twice"

# 2. The bug: reported once by the campaign, with an artifact that
# reproduces on its own.
run=$work/bug && mkdir -p "$run/corpus" "$run/art" && cp "$seeds"/* "$run/corpus/"
(cd "$run" && exec "$rf" -target="$target" -devices=cpu,cpu -seed=11 \
   -max_total_time=240 -artifact_prefix="$run/art/" "$run/corpus") >"$log" 2>&1
rc=$?
[ "$rc" -eq 77 ] || fail "bug run: exit $rc, expected 77"
[ "$(grep -c "Test unit written to" "$log")" -eq 1 ] ||
  fail "the campaign did not report the bug exactly once"
[ "$(grep -cE "runtime error: |ERROR: libFuzzer: " "$log")" -eq 1 ] ||
  fail "more than one bug header in the campaign's log"
artifact=$(sed -n 's/.*Test unit written to //p' "$log")
case $artifact in "$run/art/"*) ;; *) fail "artifact $artifact not under -artifact_prefix" ;; esac
[ -s "$artifact" ] || fail "artifact $artifact missing"
check_corpus "$run/corpus"
(cd "$run" && "$rf" -target="$target" -device=cpu "$artifact") >"$work/replay.log" 2>&1
rc=$?
[ "$rc" -eq 77 ] || { log=$work/replay.log; fail "the artifact alone: exit $rc, expected 77"; }
echo "bug: reported once, $artifact reproduces"

# 3. -runs bounds the whole campaign: the workers' shares add up to it.
run=$work/runs && mkdir -p "$run/corpus" && cp "$seeds"/* "$run/corpus/"
(cd "$run" && exec "$rf" -target="$target" -devices=cpu,cpu -seed=5 \
   -keep_going=1 -runs=300001 -print_final_stats=1 "$run/corpus") >"$log" 2>&1
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "runs: exit $rc"
grep -q "^stat::number_of_executed_units: 300001$" "$log" ||
  fail "the campaign did not run exactly 300001 executions"
sum=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run"/fuzz-*.log |
  awk '{s += $1} END {print s}')
[ "$sum" -eq 300001 ] || fail "the workers ran $sum executions in all"
check_corpus "$run/corpus"
echo "runs: 300001 executions in all"

# 4. A device that does not exist: an error that lists the devices.
"$rf" -target="$target" -devices=0,7 "$work/none" >"$log" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "-devices=0,7: exit $rc, expected 1"
grep -q "item '7' names no device" "$log" || fail "no error naming the item"
grep -q "  0: llvmpipe" "$log" || fail "the error does not list the devices"
echo "PASS: multi-device campaign"

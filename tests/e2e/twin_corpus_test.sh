#!/usr/bin/env bash
# A corpus written by the libFuzzer twin is read by ringfuzz: the twin fuzzes
# for a while into an empty directory, then ringfuzz loads every file of it
# (its "Loaded N files" line) and replays them without error.
#
#   twin_corpus_test.sh RINGFUZZ TWIN TARGET_FILE SEED_DIR
set -uo pipefail
ringfuzz=$1 twin=$2 target=$3 seeds=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/twin_corpus"
"$twin" -runs=20000 -seed=1 -use_cmp=0 -use_value_profile=0 \
  "$work/twin_corpus" "$seeds" >"$work/twin.log" 2>&1
twin_rc=$?
# 20,000 runs are too few for the twin to reach a bundled bug: any other
# exit is a twin that did not finish its corpus.
[ $twin_rc -eq 0 ] || { echo "FAIL: the twin exited $twin_rc"; tail -20 "$work/twin.log"; exit 1; }
files=$(ls "$work/twin_corpus" | wc -l)
[ "$files" -gt 0 ] || { echo "FAIL: the twin wrote no corpus"; exit 1; }
"$ringfuzz" -target="$target" -device=cpu -seed=1 -runs=0 \
  "$work/twin_corpus" >"$work/log" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: ringfuzz exited $rc on the twin's corpus"; tail -20 "$work/log"; exit 1; }
grep -q "Loaded $files files" "$work/log" ||
  { echo "FAIL: ringfuzz did not load all $files files"; grep INFO "$work/log"; exit 1; }
echo "PASS: ringfuzz loaded the twin's $files corpus files"

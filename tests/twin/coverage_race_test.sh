#!/bin/bash
# tools/coverage-race --measure-only: kept corpora are measured by the
# twin's coverage build, and "reached" counts the ringfuzz runs that cover
# at least the twin's lines and branches. Here the "twin" corpus and run 1
# are the same files (equal coverage: reached); run 2 holds one input of
# one byte, and its artifacts (art-2) the twin's files, which count
# (reached); run 3 holds one byte alone (less coverage: not reached). The
# twin's numbers are checked against llvm-cov's report on the same files,
# made here.
#
# Usage: coverage_race_test.sh ROOT BUILD
set -u
root=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
kept="$work/kept/tlv"
mkdir -p "$kept/twin" "$kept/rf-1" "$kept/rf-2" "$kept/art-2" "$kept/rf-3"
cp "$root"/corpus/tlv/* "$kept/twin/"
cp "$root"/corpus/tlv/* "$kept/rf-1/"
printf 'x' > "$kept/rf-2/one"
cp "$root"/corpus/tlv/* "$kept/art-2/"
printf 'x' > "$kept/rf-3/one"
out=$("$root/tools/coverage-race" --measure-only "$work/kept" --build "$build" 2>&1) ||
  fail "exit $?: $out"
row=$(echo "$out" | grep '^tlv ') || fail "no tlv row: $out"
read -r name twin rf1 rf2 rf3 reached <<< "$row"
[ "$twin" = "$rf1" ] || fail "the same files measured $twin and $rf1"
[ "$rf2" != "$rf3" ] || fail "run 2's artifacts were not counted: $rf2"
[ "$reached" = "2/3" ] || fail "reached $reached, want 2/3: $row"
# The reference: llvm-cov on the seeds, run here.
cov=$(command -v llvm-cov || command -v llvm-cov-14)
profdata=$(command -v llvm-profdata || command -v llvm-profdata-14)
LLVM_PROFILE_FILE="$work/ref.profraw" "$build/tools/twincov_tlv" "$root"/corpus/tlv > /dev/null 2>&1
"$profdata" merge -o "$work/ref.profdata" "$work/ref.profraw" || fail "llvm-profdata"
want=$("$cov" report "$build/tools/twincov_tlv" -instr-profile="$work/ref.profdata" \
  "$root/shaders/targets/tlv.fz" | awk '$1 == "TOTAL" { print ($8 - $9) "/" ($11 - $12) }')
[ "$twin" = "$want" ] || fail "twin measured $twin, llvm-cov says $want"
l1=${rf1%/*} b1=${rf1#*/} l3=${rf3%/*} b3=${rf3#*/}
[ "$l3" -lt "$l1" ] && [ "$b3" -le "$b1" ] || fail "one byte covers as much: $rf3 vs $rf1"
echo "PASS: coverage-race measures kept corpora ($row)"

#!/bin/bash
# tools/coverage-race in two sittings: --twin-only --keep DIR runs the twin
# alone (DIR/NAME/twin filled, no ringfuzz run, no table); --reuse-twin
# --keep DIR then runs ringfuzz beside that corpus without running the twin
# again (its files unchanged: a marker file planted there stays) and
# prints the table. Short runs on lavapipe.
#
# Usage: coverage_race_split_test.sh ROOT BUILD
set -u
root=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
kept="$work/kept"
race=("$root/tools/coverage-race" --build "$build" --keep "$kept" --jobs 1)
out=$("${race[@]}" --twin-only --twin-seconds 1 tlv 2>&1) || fail "twin-only: exit $?: $out"
[ -d "$kept/tlv/twin" ] || fail "no twin corpus kept: $out"
[ "$(find "$kept/tlv/twin" -type f | wc -l)" -gt 0 ] || fail "empty twin corpus"
! ls -d "$kept/tlv"/rf-* > /dev/null 2>&1 || fail "--twin-only ran ringfuzz"
! echo "$out" | grep -q '^tlv ' || fail "--twin-only printed a table: $out"
# A marker the twin's libFuzzer would never write: it must survive.
printf 'marker' > "$kept/tlv/twin/kept-marker"
out=$("${race[@]}" --reuse-twin --seconds 1 --seeds 1 --device cpu tlv 2>&1) ||
  fail "reuse-twin: exit $?: $out"
[ -f "$kept/tlv/twin/kept-marker" ] || fail "the twin's corpus was replaced"
! echo "$out" | grep -q 'libFuzzer twin for' || fail "the twin ran again: $out"
[ -d "$kept/tlv/rf-1" ] || fail "no ringfuzz run kept: $out"
echo "$out" | grep -q '^tlv ' || fail "no tlv row: $out"
out=$("$root/tools/coverage-race" --reuse-twin --build "$build" tlv 2>&1) &&
  fail "--reuse-twin without --keep was accepted"
echo "PASS: coverage-race runs the twin and ringfuzz in two sittings"

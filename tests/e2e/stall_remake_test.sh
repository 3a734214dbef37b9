#!/bin/bash
# New executors when coverage stalls, on lavapipe.
# -auto_value_profile: a campaign that finds no new input for the quiet
# time builds its executor again with value profile and goes on with it:
# the log says so once, the campaign runs to its time limit, value
# profile's features (ft) grow past what the campaign had before the
# switch, and every corpus input found before the switch is still on disk.
# -auto_max_len: with value profile on, a stall raises the automatic length
# limit 4x, from 64 to 256 bytes and no further on lavapipe (its loop
# budget, 2,048 steps, covers 8 passes over 256 bytes), and the new
# executor says so; an explicit -max_len is never raised.
#
# Usage: stall_remake_test.sh RINGFUZZ TARGET.fz SEED_DIR SMALL_PUZZLE.fz
set -u
rf=$1 target=$2 seeds=$3 puzzle=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
mkdir -p corpus && cp "$seeds"/* corpus/
"$rf" -target="$target" -device=cpu -seed=1 -auto_value_profile=1 \
  -max_total_time=12 -keep_going=1 -print_final_stats=1 \
  -artifact_prefix="$work/" corpus >log 2>&1
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "exit $rc: $(tail -3 log)"
switch='INFO: no new input for 1 s: turning value profile on'
[ "$(grep -c "^$switch" log)" -eq 1 ] ||
  fail "want one switch line, got: $(grep -c "$switch" log)"
at=$(grep -n "^$switch" log | cut -d: -f1)
# ft: the last status line before the switch, and the last one at all.
ft_before=$(head -n "$at" log | grep -o ' ft: [0-9]*' | tail -1 | grep -o '[0-9]*')
ft_after=$(tail -n +"$at" log | grep -o ' ft: [0-9]*' | tail -1 | grep -o '[0-9]*')
[ -n "$ft_before" ] && [ -n "$ft_after" ] || fail "no ft before or after the switch"
[ "$ft_after" -gt "$ft_before" ] ||
  fail "ft did not grow with value profile: $ft_before before, $ft_after after"
grep -q '^Done [0-9]* runs in [0-9]* second' log || fail "no Done line: $(tail -3 log)"
grep -q '^ERROR' log && fail "an error: $(grep '^ERROR' log)"
# The seeds and every input announced (NEW) before the switch are in the
# corpus directory.
seeds_n=$(ls "$seeds" | wc -l)
new_before=$(head -n "$at" log | grep -c '	NEW ')
[ "$new_before" -gt 0 ] || fail "no new input before the switch"
on_disk=$(ls corpus | wc -l)
[ "$on_disk" -ge $((seeds_n + new_before)) ] ||
  fail "$seeds_n seeds and $new_before new inputs before the switch, $on_disk on disk"

# A puzzle whose coverage is complete within a second (its bug found and
# kept going past): value profile is on from the start, so the first stall
# raises the length.
mkdir -p empty
"$rf" -target="$puzzle" -device=cpu -seed=1 -use_value_profile=1 \
  -auto_value_profile=1 -max_total_time=8 -keep_going=1 \
  -artifact_prefix="$work/p_" empty >plog 2>&1
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "puzzle: exit $rc: $(tail -3 plog)"
grep -q '^INFO: no new input for 1 s: raising -max_len from 64 to 256 bytes' plog ||
  fail "no raise from 64 to 256: $(grep -E 'raising|max_len' plog)"
grep -q 'raising -max_len from 256' plog && fail "raised past 256 on lavapipe"
grep -q '^INFO: target .*: .*max_len 256, ' plog ||
  fail "the new executor does not say max_len 256: $(grep '^INFO: target' plog)"
grep -q '^ERROR' plog && fail "puzzle: an error: $(grep '^ERROR' plog)"
# An explicit -max_len is the user's: never raised.
rm -rf empty && mkdir -p empty
"$rf" -target="$puzzle" -device=cpu -seed=1 -use_value_profile=1 \
  -auto_value_profile=1 -max_len=64 -max_total_time=5 -keep_going=1 \
  -artifact_prefix="$work/q_" empty >qlog 2>&1
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "-max_len=64: exit $rc: $(tail -3 qlog)"
grep -q 'raising -max_len' qlog && fail "-max_len=64 was raised: $(grep raising qlog)"
echo "PASS: value profile turned on after 1 s without a new input (ft $ft_before -> $ft_after); -max_len raised from 64 to 256 and no further"

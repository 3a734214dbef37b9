#!/bin/bash
# -auto_value_profile: a campaign that finds no new input for the quiet
# time builds its executor again with value profile and goes on with it:
# the log says so once, the campaign runs to its time limit, value
# profile's features (ft) grow past what the campaign had before the
# switch, and every corpus input found before the switch is still on disk.
#
# Usage: auto_value_profile_test.sh RINGFUZZ TARGET.fz SEED_DIR
set -u
rf=$1 target=$2 seeds=$3
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
echo "PASS: value profile turned on after 1 s without a new input (ft $ft_before -> $ft_after)"

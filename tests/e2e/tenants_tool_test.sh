#!/bin/bash
# tools/tenants runs each target alone and both side by side on every seed,
# in that order; the summary's rates and shares are those of its rows
# (recomputed here); the TSV holds the same rows; bad arguments are errors
# (exit 2) and a run that fails makes it exit 1 after the others ran.
#
# Usage: tenants_tool_test.sh TOOLS_TENANTS RINGFUZZ HANG.fz BROKEN.fz
set -u
tool=$1 rf=$2 hang=$3 broken=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1

"$tool" --ringfuzz "$rf" --device cpu --seeds 1 --seconds 2 --tsv t.tsv \
  magic_checksum "$hang" >out 2>err
rc=$?
[ "$rc" -eq 0 ] || fail "exit $rc: $(tail -5 err)"
order=$(awk -F'\t' 'NF == 6 { printf "%s/%s/%s ", $1, $2, $3 }' out)
[ "$order" = "magic_checksum/1/alone hang/1/alone magic_checksum/1/beside hang/1/beside " ] ||
  fail "run order: $order"
awk -F'\t' 'NF == 6 && ($4 <= 0 || $5 <= 0) { exit 1 }' out ||
  fail "a run without executions: $(cat out)"
for pair in "magic_checksum hang" "hang magic_checksum"; do
  set -- $pair
  want=$(awk -F'\t' -v t="$1" -v o="$2" '
    NF == 6 && $1 == t && $3 == "alone" { a = $5 }
    NF == 6 && $1 == t && $3 == "beside" { b = $5 }
    END { printf "tenants: %s: alone %.3f M exec/s, beside %s %.3f M exec/s, share %.3f", t, a/1e6, o, b/1e6, b/a }' out)
  grep -qxF "$want" out || fail "summary: want '$want', got '$(grep '^tenants:' out)'"
done
[ "$(tail -n +2 t.tsv)" = "$(awk -F'\t' 'NF == 6' out)" ] || fail "the TSV's rows differ from the output's"

"$tool" --ringfuzz "$rf" --device cpu --seeds 1 --seconds 1 tlv "$broken" >out 2>err
rc=$?
[ "$rc" -eq 1 ] || fail "a target that does not compile: exit $rc, expected 1"
grep -q "broken -seed=1 (alone) printed no final stats" err || fail "no error for the failed run: $(cat err)"
grep -q "^tlv	1	alone" out || fail "the other target's run did not run"

for bad in "tlv" "tlv tlv" "tlv nosuch" "--seconds x tlv lz_block"; do
  # shellcheck disable=SC2086  # the words are the arguments
  "$tool" --ringfuzz "$rf" $bad >out 2>err
  rc=$?
  [ "$rc" -eq 2 ] || fail "'$bad': exit $rc, expected 2"
  grep -q "^tools/tenants: " err || fail "'$bad': no message: $(cat err)"
done
echo "PASS: tools/tenants"

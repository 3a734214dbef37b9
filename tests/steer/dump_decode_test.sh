#!/bin/bash
# End to end: a short ringfuzz campaign with -dump_buffers and
# -telemetry_out on lavapipe, then `ringfuzz telemetry decode -json` on a
# dump; then every dump's decode, rewritten dumps and every log line
# against a second decoder written from the wire protocol's page alone
# (spec_decode_check.py, Python's json module as the JSON parser).
# Usage: dump_decode_test.sh RINGFUZZ TARGET SEED_CORPUS
set -u
ringfuzz=$1 target=$2 seeds=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir "$work/corpus"
cp "$seeds"/* "$work/corpus/"
# The whole budget runs even when the target's bug turns up (-keep_going):
# exit code 0, or 77 when a bug was found on the way.
"$ringfuzz" -target="$target" -device=cpu -seed=7 -runs=200000 -keep_going=1 \
    -dump_buffers="$work/dump" -telemetry_out="$work/telemetry.jsonl" \
    "$work/corpus" > "$work/log" 2>&1
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] ||
  fail "campaign failed (exit code $rc): $(tail -5 "$work/log")"

controls=$(ls "$work/dump" | grep -c '^epoch-[0-9]\{6,\}\.control$')
rings=$(ls "$work/dump" | grep -c '^epoch-[0-9]\{6,\}\.ring$')
# The log holds one epoch line per epoch and, between them, one find line
# per bug reported (fuzz/engine/find_line.h); nothing else.
lines=$(grep -c '^{"epoch":' "$work/telemetry.jsonl")
finds=$(grep -c '^{"find":{' "$work/telemetry.jsonl")
[ "$controls" -gt 0 ] || fail "no control dumps in $work/dump"
[ "$controls" -eq "$rings" ] || fail "$controls control dumps but $rings ring dumps"
[ "$lines" -eq "$controls" ] || fail "$lines epoch lines for $controls epochs"
grep -v -q -e '^{"epoch":[0-9]*,"summary":"epoch=' -e '^{"find":{"epoch":[0-9]*,' \
    "$work/telemetry.jsonl" &&
  fail "a telemetry line is neither an epoch line nor a find line"
if [ "$rc" -eq 77 ]; then
  [ "$finds" -gt 0 ] || fail "a bug was reported but no find line was written"
else
  [ "$finds" -eq 0 ] || fail "$finds find lines but no bug was reported"
fi
grep -q '"launch":{"worker_groups":' "$work/telemetry.jsonl" || fail "no launch"

last=$(ls "$work/dump" | grep '\.control$' | sort | tail -1)
last=${last%.control}
"$ringfuzz" telemetry decode -control="$work/dump/$last.control" \
    -ring="$work/dump/$last.ring" -window_opcodes=8,9,10,11 -sketch=4x256 \
    -json > "$work/decoded.json" 2> "$work/decode.err" ||
  fail "decode failed: $(cat "$work/decode.err")"
done_count=$(grep -o '"done_count":[0-9]*' "$work/decoded.json" | head -1 | cut -d: -f2)
[ -n "$done_count" ] && [ "$done_count" -gt 0 ] || fail "done_count is '$done_count'"
grep -q '"metrics":\[\(\[[0-9]*,[0-9]*\],\)*\[8,[1-9][0-9]*\]' "$work/decoded.json" ||
  fail "the dispatch metrics do not count havoc (opcode 8)"
epoch=$(grep -o '"epoch":[0-9]*' "$work/decoded.json" | head -1 | cut -d: -f2)
[ "$epoch" -eq "$((10#${last#epoch-}))" ] || fail "epoch $epoch in $last"
grep -q '"total_slots":[1-9]' "$work/decoded.json" || fail "no slots decoded"
grep -q '"windows":\[{"ticket":' "$work/decoded.json" || fail "no ticketed windows"
spec=$(python3 "$(dirname "$0")/spec_decode_check.py" "$ringfuzz" "$work/dump" \
    "$work/telemetry.jsonl") || fail "against the wire protocol: $spec"
echo "PASS: $controls epochs dumped; $last decodes with done_count=$done_count; $spec"

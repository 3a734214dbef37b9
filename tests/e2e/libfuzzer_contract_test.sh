#!/usr/bin/env bash
# The ringfuzz command on lavapipe as fuzzing infrastructure runs a
# libFuzzer binary, checked against the patterns it reads from the log:
#   1. OSS-Fuzz's bad-build check (google/oss-fuzz infra/base-images/
#      base-runner/bad_build_check at fbdbb8ca19e4e580397f18d1f6dd03b36b9c734f):
#      "-seed=1337 -runs=4" must print "Done 4 runs" and a modules line
#      from which `grep -Po` takes the edge count;
#   2. ClusterFuzz's libFuzzer log parser (google/clusterfuzz src/clusterfuzz/
#      _internal/bot/fuzzers/libFuzzer/stats.py at
#      392bd61e7366621d2bd5f34d19b3b5647465f0c3): the max_len line, and the
#      "Dictionary: N entries" line only when -dict is given;
#   3. the flags ClusterFuzz, ClusterFuzzLite and OSS-Fuzz add
#      (-rss_limit_mb, -len_control, -timeout, arguments after "--") and an
#      unknown flag warn and the run goes on (exit 0, not 1).
#
#   libfuzzer_contract_test.sh RINGFUZZ TARGET_FILE
set -uo pipefail
ringfuzz=$1 target=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

fail() { echo "FAIL: $*"; echo "--- log"; tail -40 "$work/log"; exit 1; }

"$ringfuzz" -target="$target" -device=cpu -seed=1337 -runs=4 \
  -rss_limit_mb=2560 -timeout=25 -len_control=0 -close_fd_mask=3 \
  -not_a_libfuzzer_flag=1 -- -detect_leaks=0 </dev/null >"$work/log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "exit $rc with libFuzzer's flags, expected 0"
grep -q "Done 4 runs" "$work/log" || fail "no 'Done 4 runs' line"
# bad_build_check's pattern, verbatim.
edges=$(grep -Po "INFO: Loaded [[:digit:]]+ module.*\(.*(counters|guards)\):[[:space:]]+\K[[:digit:]]+" "$work/log")
[ -n "$edges" ] && [ "$edges" -gt 0 ] ||
  fail "no edge count in the modules line (got '$edges')"
# stats.py's LIBFUZZER_MODULES_LOADED_REGEX and LIBFUZZER_LOG_MAX_LEN_REGEX.
grep -Eq '^INFO:\s+Loaded\s+[0-9]+\s+(modules|PC tables)\s+\(([0-9]+)\s+.*\)' \
  "$work/log" || fail "the modules line does not match ClusterFuzz's pattern"
grep -Eq -- '-max_len is not provided; libFuzzer will not generate inputs larger than ([0-9]+) bytes' \
  "$work/log" || fail "no max_len line in libFuzzer's wording"
grep -q "^WARNING: unrecognized flag '-not_a_libfuzzer_flag=1'" "$work/log" ||
  fail "the unknown flag was not reported"
grep -q "^WARNING: ringfuzz ignores -rss_limit_mb: " "$work/log" ||
  fail "the ignored -rss_limit_mb was not reported"
grep -q "^WARNING: ringfuzz ignores -detect_leaks: " "$work/log" ||
  fail "the flag after '--' was not parsed"
# stats.py's LIBFUZZER_LOG_DICTIONARY_REGEX (re.match: at the line start).
grep -Eq '^Dictionary: [0-9]+ entries' "$work/log" &&
  fail "a Dictionary line without -dict"

printf 'a="TLV"\nb="\\x01\\x02"\n' >"$work/t.dict"
"$ringfuzz" -target="$target" -device=cpu -seed=1337 -runs=4 \
  -dict="$work/t.dict" </dev/null >"$work/log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "exit $rc with -dict, expected 0"
grep -Eq '^Dictionary: 2 entries$' "$work/log" ||
  fail "no 'Dictionary: 2 entries' line for a -dict file of 2 entries"
echo "PASS: libFuzzer flags accepted, info lines match (edges: $edges)"

#!/usr/bin/env bash
# Tests compare_lines.sh on hand-made reports and profiles: it passes on
# agreement and on listed differences, and fails on every kind of
# disagreement, on stale expected differences and on malformed input.
set -uo pipefail
compare="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/compare_lines.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# A 6-line target; the CPU maps lines 1..5 (a report must list at least 3
# of them), covered lines 1, 2, 3 and 5, line 4 not, and maps nothing to
# line 6.
printf 'void fz_target(uint len) {\n  if (len < 2u) return;\n  uint a = 1u;\n  if (a == 0u) return;\n  a++;\n}\n' \
  >"$work/t.fz"
printf 'SF:/other/place/x.fz\nDA:2,0\nend_of_record\nSF:/src/t.fz\nDA:1,4\nDA:2,4\nDA:3,3\nDA:4,0\nDA:5,3\nend_of_record\n' \
  >"$work/cpu.lcov"
: >"$work/none"

# expect NAME WANT_RC WANT_TEXT REPORT_LINES EXPECTED_LINES
expect() {
  local name=$1 want_rc=$2 want_text=$3
  printf '%b' "$4" >"$work/report"
  printf '%b' "$5" >"$work/expected"
  out=$("$compare" "$work/report" "$work/cpu.lcov" "$work/t.fz" "$work/expected")
  rc=$?
  if [ $rc -ne "$want_rc" ] || ! grep -qF -- "$want_text" <<<"$out"; then
    echo "FAIL [$name]: exit $rc (want $want_rc), output lacks '$want_text':"
    echo "$out"
    failures=$((failures + 1))
  fi
}

agree='shaders/t.fz:2 1\nshaders/t.fz:3 1\nshaders/t.fz:4 0\nshaders/t.fz:5 1\n'
ok23='shaders/t.fz:2 1\nshaders/t.fz:3 1\n'  # two agreeing lines
expect agreement 0 "PASS: 4 lines of t.fz compared (3 covered), 0 expected" "$agree" ""
expect other_files_ignored 0 "PASS: 4 lines" "${agree}megakernel_prelude.glsl:7 1\n" ""
expect comments_ignored 0 "PASS" "$agree" "# nothing differs\n\n"
expect rf_misses_a_line 1 "line 3 differs: ringfuzz says not covered, the CPU says covered" \
  'shaders/t.fz:2 1\nshaders/t.fz:3 0\nshaders/t.fz:4 0\n' ""
expect rf_claims_a_line 1 "line 4 differs: ringfuzz says covered, the CPU says not covered" \
  "${ok23}shaders/t.fz:4 1\n" ""
expect no_cpu_code 1 "line 6 differs: ringfuzz says covered, the CPU says no code there" \
  "${ok23}shaders/t.fz:6 1\n" ""
expect listed_difference 0 "3 lines of t.fz compared (3 covered), 2 expected difference(s)" \
  'shaders/t.fz:4 1\nshaders/t.fz:6 1\nshaders/t.fz:2 1\n' \
  '4 rf=1 cpu=0 the merge block of the if on line 4 carries its line\n6 rf=1 cpu=- the closing brace holds the return block\n'
expect stale_difference 1 "line 4 is listed in the expected differences" \
  "${ok23}shaders/t.fz:4 0\n" '4 rf=1 cpu=0 fixed since\n'
expect wrong_direction 1 "line 4 differs as rf=1 cpu=0, the expected differences say rf=0 cpu=-" \
  "${ok23}shaders/t.fz:4 1\n" '4 rf=0 cpu=- something else\n'
expect expected_without_site 1 "line 5 is listed in the expected differences but the report has no site" \
  "${ok23}shaders/t.fz:1 1\n" '5 rf=0 cpu=1 gone\n'
expect expected_without_reason 1 "expected \"<line> rf=<0|1> cpu=<0|1|-> <reason>\"" \
  "$agree" '4 rf=1 cpu=0\n'
expect malformed_report 1 "not \"<file>:<line> <0|1>\"" 't.fz:2 yes\n' ""
expect duplicate_line 1 "line 2 listed twice" "${ok23}t.fz:2 1\n" ""
expect too_few_lines 1 "the report lists 2 of the 5 lines of t.fz the CPU maps, under half" \
  "$ok23" ""
expect too_few_lines_named 1 "  5:   a++;" "$ok23" ""
expect no_target_lines 1 "the ringfuzz report lists no line of t.fz" 'u.fz:2 1\n' ""
printf 'SF:/src/u.fz\nDA:2,1\nend_of_record\n' >"$work/cpu.lcov"
expect no_cpu_record 1 "the CPU profile has no record for t.fz" "$agree" ""

if [ $failures -ne 0 ]; then
  echo "FAIL: $failures case(s)"
  exit 1
fi
echo "PASS: compare_lines.sh agrees, disagrees and rejects as it should"

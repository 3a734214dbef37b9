#!/usr/bin/env bash
# Line coverage of ringfuzz against the CPU: runs a target's seed corpus
# once through ringfuzz on lavapipe (-runs=0 runs only the seeds) and once
# through the target's C++ twin built for source coverage (twincov_<name>,
# clang -fprofile-instr-generate -fcoverage-mapping), and checks with
# compare_lines.sh that every source line ringfuzz has a site on is covered
# by ringfuzz iff it is covered on the CPU, up to the differences listed in
# EXPECTED.
#
#   linecov_test.sh RINGFUZZ TWINCOV TARGET_FILE CORPUS_DIR EXPECTED \
#                   LLVM_PROFDATA LLVM_COV
set -uo pipefail
ringfuzz=$1 twincov=$2 target=$3 corpus=$4 expected=$5 profdata=$6 llvm_cov=$7
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

mkdir "$work/corpus"
cp "$corpus"/* "$work/corpus/" || fail "cannot copy the seed corpus $corpus"
ls "$work/corpus" >"$work/inputs.before"

# The CPU side: every seed once; the seeds never report a bug (exit 0).
LLVM_PROFILE_FILE="$work/cpu.profraw" "$twincov" "$work/corpus" >"$work/cpu.log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "$twincov exited $rc on the seeds: $(tail -5 "$work/cpu.log")"
"$profdata" merge -o "$work/cpu.profdata" "$work/cpu.profraw" ||
  fail "$profdata could not merge the twin's profile"
"$llvm_cov" export -format=lcov "$twincov" -instr-profile="$work/cpu.profdata" \
  >"$work/cpu.lcov" || fail "$llvm_cov could not export the twin's coverage"

# The GPU side: the same files, run once each (-runs=0: no fuzzing).
"$ringfuzz" -target="$target" -device=cpu -runs=0 \
  -coverage_report="$work/report" "$work/corpus" >"$work/rf.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
  echo "--- ringfuzz log"; tail -20 "$work/rf.log"
  fail "ringfuzz exited $rc (does it know -coverage_report=FILE?)"
fi
[ -s "$work/report" ] || fail "ringfuzz wrote no coverage report"
ls "$work/corpus" >"$work/inputs.after"
cmp -s "$work/inputs.before" "$work/inputs.after" ||
  fail "ringfuzz -runs=0 changed the corpus; both sides must run the same inputs"

"$here/compare_lines.sh" "$work/report" "$work/cpu.lcov" "$target" "$expected"

#!/usr/bin/env bash
# A <name>_fuzzer wrapper (tools/fuzzer) run the way fuzzing infrastructure
# runs a libFuzzer binary, with libFuzzer's exit codes:
#   1. ClusterFuzz finds it: the name ends in _fuzzer and the binary holds
#      the string LLVMFuzzerTestOneInput;
#   2. `X_fuzzer -runs=N corpus/` fuzzes (exit 0, "Done N runs", new inputs
#      saved in the corpus directory);
#   3. `X_fuzzer crash-file` replays a bug input: the report and exit 77
#      (-error_exitcode), or the exit code given;
#   4. `X_fuzzer clean-file` runs it: exit 0;
#   5. a -target on the command line is refused nowhere: it wins, as a flag
#      given twice keeps the last value;
#   6. with EXPECT_TWIN=1, X_fuzzer.twin sits beside it (an extension that
#      ClusterFuzz and OSS-Fuzz do not list as a target: they take '',
#      '.exe' and, ClusterFuzz, '.par'), is a libFuzzer binary, and the
#      fuzzer judges timeouts on it unless given -twin= (empty).
#
#   fuzzer_wrapper_test.sh FUZZER SEED_CORPUS BUG_INPUT OTHER_TARGET EXPECT_TWIN
set -uo pipefail
fuzzer=$1 seeds=$2 bug=$3 other=$4 expect_twin=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; [ -f "$work/log" ] && tail -30 "$work/log"; exit 1; }

case "$(basename "$fuzzer")" in
  *_fuzzer) ;;
  *) fail "$(basename "$fuzzer") does not end in _fuzzer" ;;
esac
grep -q LLVMFuzzerTestOneInput "$fuzzer" ||
  fail "no LLVMFuzzerTestOneInput string in the binary"

cp -r "$seeds" "$work/corpus"
before=$(ls "$work/corpus" | wc -l)
"$fuzzer" -runs=3000 -seed=1 "$work/corpus" >"$work/log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "fuzzing exited $rc, expected 0"
grep -q "^Done 3000 runs" "$work/log" || fail "no 'Done 3000 runs' line"
after=$(ls "$work/corpus" | wc -l)
[ "$after" -ge "$before" ] || fail "the corpus shrank ($before -> $after)"

"$fuzzer" "$bug" >"$work/log" 2>&1
rc=$?
[ $rc -eq 77 ] || fail "replaying $bug exited $rc, expected 77"
grep -q "^ringfuzz: " "$work/log" || fail "no bug report for $bug"
grep -q "^Running: $bug" "$work/log" || fail "no 'Running:' line"
"$fuzzer" -error_exitcode=42 "$bug" >"$work/log" 2>&1
rc=$?
[ $rc -eq 42 ] || fail "-error_exitcode=42: exited $rc"

first=$(ls "$work/corpus" | head -1)
"$fuzzer" "$work/corpus/$first" >"$work/log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "a corpus input exited $rc, expected 0"
grep -q "^Executed " "$work/log" || fail "no 'Executed' line"

"$fuzzer" -target="$other" -runs=1 >"$work/log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "-target=$other exited $rc"
grep -q "INFO: target $other:" "$work/log" ||
  fail "the -target on the command line was not used"
if [ "$expect_twin" = 1 ]; then
  twin="$fuzzer.twin"
  [ -x "$twin" ] || fail "no executable $twin"
  case "${twin##*/}" in
    *.twin) ;;
    *) fail "$twin has no .twin extension" ;;
  esac
  "$twin" -runs=10 >"$work/log" 2>&1 || fail "$twin is not a working libFuzzer binary"
  grep -q "^Done 10 runs" "$work/log" || fail "$twin printed no 'Done 10 runs'"
  "$fuzzer" -runs=100 "$work/corpus" >"$work/log" 2>&1 || fail "fuzzing with the twin failed"
  grep -q "^INFO: a timeout is an input that runs past -timeout=1200 s on the twin $twin" \
    "$work/log" || fail "the fuzzer does not judge timeouts on $twin"
  "$fuzzer" -twin= -runs=100 "$work/corpus" >"$work/log" 2>&1 || fail "-twin= failed"
  grep -q "on the twin" "$work/log" && fail "-twin= did not turn the twin off"
fi
echo "PASS: $(basename "$fuzzer") runs like a libFuzzer binary"

#!/bin/bash
# -twin: a timeout means -timeout seconds. An input that exhausts lavapipe's
# loop budget but ends at once on the libFuzzer twin is not reported (the
# campaign goes on, exit 0, no timeout- artifact); one that runs past the
# seconds on the twin is reported as libFuzzer's timeout (exit 70), when
# fuzzing and when replaying a file. Without -twin the same long input is a
# timeout, as before; -merge=1 merges the long input only with -twin, and
# -minimize_crash=1 calls it no crash with -twin; a -twin that is not an
# executable is a usage error.
#
# Usage: timeout_twin_test.sh RINGFUZZ LONG_LOOPS.fz LONG_LOOPS_TWIN
#                             HANG.fz HANG_TWIN
set -u
rf=$1 long=$2 long_twin=$3 hang=$4 hang_twin=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
printf 'abcdefghijklmnopqrstuvwxyz0123456789' >long_input
printf 'Hx' >hang_input

# Without -twin: the 36-byte seed takes 36 * 36 * 8 loop steps, past the
# 2048 of lavapipe's budget: a timeout.
mkdir -p c0 a0
cp long_input c0/
"$rf" -target="$long" -device=cpu -max_len=64 -runs=200000 \
  -artifact_prefix="$work/a0/" c0 >log0 2>&1
rc=$?
[ "$rc" -eq 70 ] || fail "without -twin: exit $rc, want 70: $(tail -3 log0)"
grep -q "ERROR: libFuzzer: timeout" log0 || fail "without -twin: no timeout"

# With -twin: the same seed and the long mutants are cleared; the campaign
# runs to -runs.
mkdir -p c1 a1
cp long_input c1/
"$rf" -target="$long" -device=cpu -max_len=64 -runs=200000 \
  -twin="$long_twin" -artifact_prefix="$work/a1/" c1 >log1 2>&1
rc=$?
[ "$rc" -eq 0 ] || fail "with -twin: exit $rc, want 0: $(tail -3 log1)"
grep -q "exhausted the device's loop budget but is not a timeout" log1 ||
  fail "with -twin: no line about the cleared input"
grep -q "ERROR: libFuzzer: timeout" log1 && fail "with -twin: a timeout report"
ls a1 | grep -q . && fail "with -twin: artifacts written: $(ls a1)"
grep -q "^Done [0-9]* runs" log1 || fail "with -twin: the campaign did not end"

# Replaying the long input with -twin: it runs, exit 0.
"$rf" -target="$long" -device=cpu -max_len=64 -twin="$long_twin" \
  long_input >log2 2>&1
rc=$?
[ "$rc" -eq 0 ] || fail "replay with -twin: exit $rc, want 0: $(tail -3 log2)"
grep -q "^Executed long_input" log2 || fail "replay with -twin: not executed"

# -merge=1: without -twin the long input is a timeout and is not merged;
# with -twin it is merged (libFuzzer's merge keeps it too).
mkdir -p m_in m_out0 m_out1
cp long_input m_in/
"$rf" -target="$long" -device=cpu -max_len=64 -merge=1 m_out0 m_in \
  >log_m0 2>&1 || fail "merge without -twin: exit $?: $(tail -3 log_m0)"
ls m_out0 | grep -q . && fail "merge without -twin: merged $(ls m_out0)"
"$rf" -target="$long" -device=cpu -max_len=64 -merge=1 -twin="$long_twin" \
  m_out1 m_in >log_m1 2>&1 ||
  fail "merge with -twin: exit $?: $(tail -3 log_m1)"
cmp -s "m_out1/$(ls m_out1 | head -1)" long_input ||
  fail "merge with -twin: not merged: $(grep MERGE log_m1)"
grep -q "MERGE-OUTER: 1 new files" log_m1 ||
  fail "merge with -twin: $(grep MERGE-OUTER log_m1 | tail -1)"

# -minimize_crash=1 with -twin: the long input is not a crash (exit 1, as
# libFuzzer's "did not crash"); without -twin it is a timeout to minimize.
"$rf" -target="$long" -device=cpu -max_len=64 -minimize_crash=1 -runs=64 \
  -twin="$long_twin" -artifact_prefix="$work/" long_input >log_c1 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "minimize with -twin: exit $rc, want 1"
grep -q "did not crash: it exhausts the device's loop budget" log_c1 ||
  fail "minimize with -twin: $(tail -2 log_c1)"
"$rf" -target="$long" -device=cpu -max_len=64 -minimize_crash=1 -runs=64 \
  -artifact_prefix="$work/" long_input >log_c0 2>&1 ||
  fail "minimize without -twin: exit $?: $(tail -2 log_c0)"

# A real hang: reported as libFuzzer's timeout after the twin's seconds,
# replaying and fuzzing.
"$rf" -target="$hang" -device=cpu -max_len=64 -timeout=1 -twin="$hang_twin" \
  hang_input >log3 2>&1
rc=$?
[ "$rc" -eq 70 ] || fail "hang replay: exit $rc, want 70: $(tail -3 log3)"
grep -q "is a timeout on the twin too: .*libFuzzer: timeout after [0-9]* second" \
  log3 || fail "hang replay: no twin verdict: $(grep INFO: log3 | tail -2)"
grep -q "^SUMMARY: libFuzzer: timeout" log3 || fail "hang replay: no summary"
mkdir -p c4 a4
cp hang_input c4/
"$rf" -target="$hang" -device=cpu -max_len=64 -timeout=1 -twin="$hang_twin" \
  -runs=200000 -artifact_prefix="$work/a4/" c4 >log4 2>&1
rc=$?
[ "$rc" -eq 70 ] || fail "hang campaign: exit $rc, want 70: $(tail -3 log4)"
ls a4 | grep -q "^timeout-" || fail "hang campaign: no timeout- artifact"

# A -twin that is not an executable: a usage error that says so, at once.
"$rf" -target="$long" -device=cpu -twin="$work/none" long_input >log5 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "bad -twin: exit $rc, want 1"
grep -q "ERROR: -twin=.* is not an executable file" log5 ||
  fail "bad -twin: $(tail -2 log5)"
echo "PASS: -twin clears long loops and confirms a hang in seconds"

#!/bin/bash
# -compile_timeout on lavapipe: a target whose pipelines take the driver a
# minute to compile (cold shader cache) prints progress lines while it
# builds, and at the bound an ERROR that says what to do, then exits 1.
# Usage: compile_timeout_test.sh RINGFUZZ SLOW_TARGET
set -u
ringfuzz=$1
slow=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*"
  echo "--- output:"
  cat "$work/out"
  exit 1
}

# A cold cache, so the driver compiles whatever this machine cached before.
export MESA_SHADER_CACHE_DIR=$work/cache
start=$SECONDS
"$ringfuzz" -target="$slow" -device=cpu -runs=10 -compile_timeout=4 \
  "$work/corpus" >"$work/out" 2>&1
rc=$?
elapsed=$((SECONDS - start))

[ "$rc" -eq 1 ] || fail "exit status $rc, expected 1"
what="building the target's pipelines for lavapipe (first run; later runs use Mesa's shader cache)"
grep -qxF "INFO: $what (2 s so far) ..." "$work/out" ||
  fail "no progress line after 2 s (half the bound)"
grep -qF "ERROR: $what did not finish in 4 s; the driver is still compiling the target. Unroll less" "$work/out" ||
  fail "no ERROR line at the bound"
grep -qF "raise -compile_timeout (seconds; 0 = no limit). Exiting with status 1." "$work/out" ||
  fail "the ERROR line does not say how to raise the bound"
grep -q "INITED" "$work/out" && fail "the run went on past the bound"
# Target compile and device start (a few seconds) come before the bound.
[ "$elapsed" -le 20 ] || fail "took ${elapsed} s, more than 20"
echo "PASS: the build reported progress and ended at -compile_timeout=4 (${elapsed} s)"

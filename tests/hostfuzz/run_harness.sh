#!/usr/bin/env bash
# Runs one libFuzzer harness of tests/hostfuzz for a bounded number of runs
# from its seed corpus (read only: new inputs go to a temporary directory),
# and prints PASS: with the runs libFuzzer counted when it ends clean (extra
# flags such as -max_total_time may end it earlier). Crash artifacts are
# kept under ARTIFACT_PREFIX.
#
#   run_harness.sh HARNESS SEED_DIR RUNS ARTIFACT_PREFIX [libFuzzer flags...]
set -uo pipefail
harness=$1 seeds=$2 runs=$3 prefix=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
"$harness" -runs="$runs" -seed=1 -max_len=8192 -print_final_stats=1 \
  -artifact_prefix="$prefix" "$@" "$work" "$seeds" >"$work/log" 2>&1
rc=$?
tail -25 "$work/log"
[ $rc -eq 0 ] || { echo "FAIL: $(basename "$harness") exited $rc"; exit 1; }
done_runs=$(sed -n 's/^stat::number_of_executed_units: //p' "$work/log")
echo "PASS: $(basename "$harness"): ${done_runs:-$runs} runs clean in $(( $(date +%s) - start )) s"

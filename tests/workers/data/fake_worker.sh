#!/bin/bash
# A stand-in for a ringfuzz worker of a multi-device campaign
# (tests/workers/multi_device_test.cc): it reads the flags the campaign gives
# it and behaves as FAKE_WORKER_MODE says, printing what a worker prints.
#   done       prints a DONE status line and its stats, exits 0
#   bug_on_1   worker on device 1 reports a crash (exit 77); others wait
#   fail_on_1  worker on device 1 fails (ERROR line, exit 1); others wait
#   bug_both   as bug_on_1, and the others report a bug when stopped
#   wait       waits until SIGINT/SIGTERM, then exits 72 as ringfuzz does
device=0 runs=-1 exact=""
stats() {
  echo "stat::number_of_executed_units: $runs"
  echo "stat::average_exec_per_sec:     10"
  echo "stat::new_units_added:          $((device + 1))"
  echo "stat::slowest_unit_time_sec:    0"
  echo "stat::peak_rss_mb:              $((device + 5))"
  echo "stat::reloaded_units:           2"
}
stopped() {
  if [ "$FAKE_WORKER_MODE" = bug_both ]; then
    echo "==$$== ERROR: libFuzzer: deadly signal"
    echo "artifact_prefix=''; Test unit written to crash-of-$device"
    stats
    exit 77
  fi
  echo "==$$== libFuzzer: run interrupted; exiting"
  stats
  exit 72
}
# Signals are handled before anything else is done, so a worker stopped
# while it starts still reports the interrupt (ringfuzz, too, installs its
# handlers first).
trap stopped INT TERM
echo "ARGS: $*"
for arg in "$@"; do
  case $arg in
    -device=*) device=${arg#-device=} ;;
    -runs=*) runs=${arg#-runs=} ;;
    -exact_artifact_path=*) exact=${arg#-exact_artifact_path=} ;;
  esac
done
[ "$runs" -lt 0 ] && runs=1000
echo "LP_NUM_THREADS=${LP_NUM_THREADS:-unset}"

echo "#2	INITED cov: 3 ft: 4 corp: 1/1b exec/s: 0 rss: 1Mb"
# With FAKE_WORKER_SYNC (a directory), each worker says there that it has
# started, and the worker on device 1 reports its bug or failure only once
# worker 0 has started: the campaign then stops a running worker, never
# one that the shell has not begun (which a signal kills before any line).
# A worker that is done stops no one, and waits for no one.
if [ -n "${FAKE_WORKER_SYNC:-}" ]; then
  : >"$FAKE_WORKER_SYNC/started-$device"
  if [ "$device" = 1 ] && [ "$FAKE_WORKER_MODE" != done ]; then
    for _ in $(seq 1 200); do
      [ -e "$FAKE_WORKER_SYNC/started-0" ] && break
      sleep 0.05
    done
  fi
fi

case ${FAKE_WORKER_MODE}:$device in
  done:*)
    echo "#$runs	DONE   cov: $((device + 3)) ft: 9 corp: 2/10b exec/s: 10 rss: 1Mb"
    stats
    exit 0 ;;
  bug_on_1:1 | bug_both:1)
    printf 'BUG' >"$exact"
    echo "==$$== ERROR: libFuzzer: deadly signal"
    echo "ringfuzz: fz_crash(code=7) in parse t.fz:3"
    echo "artifact_prefix=''; Test unit written to $exact"
    stats
    exit 77 ;;
  fail_on_1:1)
    echo "ERROR: something broke"
    exit 1 ;;
esac
while true; do sleep 0.05; done

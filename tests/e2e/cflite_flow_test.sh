#!/usr/bin/env bash
# ClusterFuzzLite's fuzzing flow, run on <name>_fuzzer binaries the way
# ClusterFuzzLite runs a libFuzzer target, step by step.
#
# Upstream: google/oss-fuzz infra/cifuzz/fuzz_target.py (FuzzTarget.fuzz,
# FuzzTarget.is_reproducible), which drives ClusterFuzz's libFuzzer engine,
# google/clusterfuzz src/clusterfuzz/_internal/bot/fuzzers/libFuzzer/
# engine.py (Engine.prepare, Engine.fuzz, Engine.reproduce), fuzzer.py
# (get_arguments) and libfuzzer.py (LibFuzzerCommon.fuzz,
# remove_fuzzing_arguments, fix_timeout_argument_for_reproduction):
#
#  1. Corpus: $WORKSPACE/corpora/<target> (created; the corpus download
#     from an earlier run adds nothing here), into which prepare() unpacks
#     $OUT/<target>_seed_corpus.zip (.clusterfuzzlite/build.sh makes one
#     per bundled target).
#  2. Fuzzing, code-change mode: the arguments prepare() makes (-timeout=25
#     and -rss_limit_mb=2560 when the target has no .options file;
#     -dict=$OUT/<target>.dict when that file exists), then
#     LIBFUZZER_OPTIONS_CODE_CHANGE (-len_control=0 -seed=1337), then what
#     LibFuzzerCommon.fuzz adds: -artifact_prefix=<reproducers dir>/
#     -max_total_time=<T> -print_final_stats=1 and the corpus directory:
#       <target> -timeout=25 -rss_limit_mb=2560 [-dict=...] -len_control=0
#         -seed=1337 -artifact_prefix=ART/ -max_total_time=T
#         -print_final_stats=1 CORPUS
#     A crash is the path after "Test unit written to " in the log (with a
#     non-zero exit; libFuzzer's is -error_exitcode, 77).
#  3. Reproduction, up to REPRODUCE_ATTEMPTS (10) runs until one exits
#     non-zero: the fuzzing arguments without the fuzzing-only ones (-dict,
#     -max_len, -runs, ...; -timeout set to TEST_TIMEOUT - 5 s, 25 with
#     ClusterFuzzLite's 30 s), plus -runs=100 and the testcase:
#       <target> -rss_limit_mb=2560 -timeout=25 -runs=100 TESTCASE
#
# Checked here for each fuzzer: the bug is found within the time (exit 77,
# the artifact written where the log says, libFuzzer's final stats), the
# testcase reproduces on the first attempt with the same bug line, and a
# seed input does not reproduce (exit 0; 2 attempts where ClusterFuzz makes
# 10: a device execution is deterministic, and each attempt costs a
# process start on lavapipe).
#
#   cflite_flow_test.sh SECONDS CORPUS_ROOT FUZZER...
#   (CORPUS_ROOT/<name> holds the seeds of <name>_fuzzer)
set -uo pipefail
seconds=$1 corpus_root=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -f "$log" ] && tail -30 "$log"; exit 1; }

for fuzzer in "$@"; do
  target=$(basename "$fuzzer")
  name=${target%_fuzzer}
  out=$work/out workspace=$work/workspace/$target
  log=$workspace/fuzz.log
  mkdir -p "$out" "$workspace/corpora/$target" "$workspace/artifacts"
  cp "$fuzzer" "$out/"
  # The seed corpus as build.sh ships it, unpacked as prepare() does.
  python3 - "$corpus_root/$name" "$out/${target}_seed_corpus.zip" \
    "$workspace/corpora/$target" <<'PY' || fail "$target: seed corpus"
import os, sys, zipfile
seeds, archive, corpus = sys.argv[1:]
with zipfile.ZipFile(archive, "w") as z:
  for f in sorted(os.listdir(seeds)):
    z.write(os.path.join(seeds, f), f)
with zipfile.ZipFile(archive) as z:
  z.extractall(corpus)
PY
  dict=()
  [ -f "$out/$target.dict" ] && dict=("-dict=$out/$target.dict")

  (cd "$out" && timeout $((seconds + 30)) "./$target" -timeout=25 \
    -rss_limit_mb=2560 "${dict[@]}" -len_control=0 -seed=1337 \
    -artifact_prefix="$workspace/artifacts/" -max_total_time="$seconds" \
    -print_final_stats=1 "$workspace/corpora/$target") >"$log" 2>&1
  rc=$?
  [ $rc -eq 77 ] || fail "$target: fuzzing exited $rc, expected 77 (a bug)"
  testcase=$(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$log" | head -1)
  [ -n "$testcase" ] || fail "$target: no 'Test unit written to' line"
  [ -s "$testcase" ] || fail "$target: $testcase was not written"
  case $testcase in "$workspace/artifacts/crash-"*) ;;
    *) fail "$target: testcase $testcase is not under -artifact_prefix" ;;
  esac
  grep -q "^stat::number_of_executed_units: " "$log" ||
    fail "$target: no final stats (-print_final_stats=1)"
  bug=$(grep -m1 "^ringfuzz: " "$log")
  [ -n "$bug" ] || fail "$target: no 'ringfuzz:' bug line"

  log=$workspace/reproduce.log
  (cd "$out" && "./$target" -rss_limit_mb=2560 -timeout=25 -runs=100 \
    "$testcase") >"$log" 2>&1
  rc=$?
  [ $rc -ne 0 ] || fail "$target: the testcase did not reproduce"
  [ $rc -eq 77 ] || fail "$target: reproducing exited $rc, expected 77"
  grep -qxF "$bug" "$log" || fail "$target: reproduced another bug than '$bug'"

  clean=$(ls "$corpus_root/$name" | head -1)
  log=$workspace/clean.log
  for attempt in 1 2; do
    (cd "$out" && "./$target" -rss_limit_mb=2560 -timeout=25 -runs=100 \
      "$corpus_root/$name/$clean") >"$log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "$target: seed $clean reproduced (attempt $attempt, exit $rc)"
  done
  echo "$target: found and reproduced: $bug"
done
echo "PASS: ClusterFuzzLite's flow finds and reproduces the bugs of $*"

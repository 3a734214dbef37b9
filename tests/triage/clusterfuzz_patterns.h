// What ClusterFuzz makes of a crash log, restated from its source so that
// tests can check every ringfuzz and twin report against it. Read at
// google/clusterfuzz commit 77584976329599df63bf3a0404fde0d1572e3712:
//   src/clusterfuzz/stacktraces/constants.py
//     LIBFUZZER_DEADLY_SIGNAL_REGEX  .*ERROR:\s*libFuzzer:\s*deadly signal
//     LIBFUZZER_TIMEOUT_REGEX        .*ERROR:\s*libFuzzer:\s*timeout
//     UBSAN_RUNTIME_ERROR_REGEX      (.*): runtime error: (.*)
//     UBSAN_INDEX_OOB_REGEX          .*out of bounds for type.*
//     SAN_STACK_FRAME_REGEX          \s*#N ADDR in FUNC [FILE:LINE[:COL]]
//                                    or \s*#N ADDR (MODULE+OFFSET)
//     STACK_FRAME_IGNORE_REGEXES     (^abort$, ^raise$, ^fuzzer::, ...)
//     STACK_FRAME_IGNORE_REGEXES_IF_SYMBOLIZED  (.*libc\.so, ...)
//     MAX_CRASH_STATE_FRAMES         3
//   src/clusterfuzz/stacktraces/__init__.py (StackParser.parse):
//     lines with "SUMMARY:" are skipped; a UBSan runtime error sets the type
//     (from its reason) only while none is set; the libFuzzer deadly signal
//     (type Fatal-signal) and timeout (type Timeout, ranked above other
//     types) reset the state; each frame adds its function (the text after
//     "in " up to a space or '(') to the state, up to three, unless ignored;
//     LLVMFuzzerTestOneInput is named by its file instead. A type with an
//     empty state gets the fuzz target's name; a Timeout always does. The
//     state kept is that of the symbolized log (libc's frames ignored).
//   src/clusterfuzz/_internal/crash_analysis/crash_analyzer.py:
//     UBSAN_CRASH_TYPES_SECURITY holds Index-out-of-bounds;
//     CRASH_TYPES_NON_SECURITY holds Fatal-signal and Timeout; is_crash
//     wants a non-zero exit code.
//   src/clusterfuzz/_internal/crash_analysis/crash_result.py: a run is a
//     crash iff is_crash and its crash state is not empty.
// Read at google/clusterfuzz commit 392bd61e7366621d2bd5f34d19b3b5647465f0c3:
//   src/clusterfuzz/_internal/bot/fuzzers/libFuzzer/stats.py
//     LIBFUZZER_MERGE_LOG_STATS_REGEX
//       MERGE-OUTER:\s+\d+\s+new files with\s+(\d+)\s+new features
//       added;\s+(\d+)\s+new coverage edges.*   (one line; re.match)
//     parse_stats_from_merge_log: the last line of a -merge=1 log that
//       matches gives feature_coverage (group 1) and edge_coverage (group
//       2); both stay 0 without one.
// Only what ringfuzz's and the twin's reports can contain is restated.
#ifndef RINGFUZZ_TESTS_TRIAGE_CLUSTERFUZZ_PATTERNS_H_
#define RINGFUZZ_TESTS_TRIAGE_CLUSTERFUZZ_PATTERNS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace ringfuzz::testing {

struct Triage {
  std::string crash_type;          // "" when nothing was recognised
  std::vector<std::string> state;  // the crash state, one entry a line
  bool security = false;
};

// Classifies `log` as ClusterFuzz's stack analyzer would for a run of
// `fuzz_target` (its name, e.g. "tlv_fuzzer").
Triage ClassifyLikeClusterFuzz(const std::string& log,
                               const std::string& fuzz_target);

// Returns true iff ClusterFuzz counts a run that exited with `exit_code`
// and produced `triage` as a crash (a replay that reproduces).
bool IsCrashLikeClusterFuzz(int exit_code, const Triage& triage);

// What ClusterFuzz records from the log of a -merge=1 run.
struct MergeStats {
  bool matched = false;  // a line matched the merge regex
  uint64_t feature_coverage = 0;
  uint64_t edge_coverage = 0;
};

// Reads `log` as parse_stats_from_merge_log does.
MergeStats ParseMergeStatsLikeClusterFuzz(const std::string& log);

}  // namespace ringfuzz::testing

#endif  // RINGFUZZ_TESTS_TRIAGE_CLUSTERFUZZ_PATTERNS_H_

// libFuzzer's log lines, byte for byte, so that tools that parse libFuzzer
// logs (ClusterFuzz, OSS-Fuzz dashboards, scripts) parse ringfuzz's:
//
//   #4096\tpulse  cov: 12 ft: 30 corp: 7/120b exec/s: 2048 rss: 40Mb
//   #5120\tNEW    cov: 13 ft: 31 corp: 8/133b exec/s: 2560 rss: 40Mb
//   (the NEW line goes on: " L: 13/20 MS: 2 ChangeBit-EraseBytes-")
//   #6144\tRELOAD cov: 14 ft: 33 corp: 9/140b exec/s: 2600 rss: 40Mb
//   (after -reload took inputs that other processes wrote)
//
// As in libFuzzer, "cov:" and "ft:" are left out while zero, "corp:" while
// the corpus is empty, and its "/<size>" while the corpus has no bytes.
#ifndef RINGFUZZ_FUZZ_ENGINE_STATUS_LINE_H_
#define RINGFUZZ_FUZZ_ENGINE_STATUS_LINE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "absl/types/span.h"

namespace ringfuzz {

enum class StatusEvent { kInited, kNew, kReduce, kPulse, kDone, kReload };

// The numbers a status line shows.
struct StatusCounters {
  uint64_t runs = 0;  // executions so far
  uint64_t cov = 0;   // CoverageSummary::blocks
  uint64_t ft = 0;    // CoverageSummary::features
  uint64_t corpus_units = 0;
  uint64_t corpus_bytes = 0;
  uint64_t exec_per_sec = 0;
  uint64_t rss_mb = 0;
};

// Returns the event as libFuzzer pads it: "INITED", "NEW   ", "REDUCE",
// "pulse ", "DONE  ", "RELOAD".
const char* StatusEventText(StatusEvent event);

// Returns the corpus size as libFuzzer prints it after "corp: N/":
// "<n>b" below 16 KiB, "<n>Kb" below 16 MiB, else "<n>Mb" (rounded down).
std::string FormatCorpusBytes(uint64_t bytes);

// Returns "#<runs>\t<EVENT> cov: .. ft: .. corp: ../.. exec/s: .. rss: ..Mb"
// without a trailing newline.
std::string FormatStatusLine(StatusEvent event, const StatusCounters& c);

// Returns what a NEW line adds after the status line: " L: <len>/<max> " and
// the mutation sequence, MutationSequence(opcodes, mutations)
// (fuzz/engine/work_kind.h): libFuzzer's names of the mutators, e.g. " L: 3/5
// MS: 2 ChangeBit-EraseBytes-", or without them the work kinds, e.g. " L: 3/5
// MS: 1 havoc-". `max_input_size` is the largest input in the corpus, as in
// libFuzzer.
std::string FormatNewUnitSuffix(size_t len, size_t max_input_size,
                                absl::Span<const uint32_t> opcodes,
                                absl::Span<const uint32_t> mutations = {});

// Returns "Done <runs> runs in <seconds> second(s)".
std::string FormatDoneLine(uint64_t runs, uint64_t seconds);

// Executions and finds of one mutator (fuzz/engine/mutators.h).
struct MutatorStat {
  std::string name;  // MutatorInfo::name
  uint64_t executions = 0;
  uint64_t finds = 0;
};

struct FinalStats {
  uint64_t runs = 0;
  uint64_t exec_per_sec = 0;
  uint64_t new_units = 0;
  uint64_t slowest_unit_time_sec = 0;  // not measured per input: always 0
  uint64_t peak_rss_mb = 0;
  // Feedback latency (FeedbackLatency: from the execution that found an
  // entry to its first mutant on the device's clock where the executor has
  // one, else an upper bound by rounds) over `latency_entries` new entries,
  // in whole milliseconds rounded up; 0 without entries.
  uint64_t latency_entries = 0;
  uint64_t latency_p50_ms = 0;
  uint64_t latency_p99_ms = 0;
  // Time inside Executor::RunBatch over the fuzzing loop's wall time.
  uint64_t device_busy_percent = 0;
  // Per mutator, when the executor counts them (else empty).
  std::vector<MutatorStat> mutators;
  // Inputs that -reload took from the corpus directory into the corpus
  // (written there by other processes).
  uint64_t reloaded_units = 0;
  // The executor's own counters (Executor::ExecutorStats).
  std::vector<std::pair<std::string, uint64_t>> executor;
};

// Returns libFuzzer's five "stat::" lines, then ringfuzz's
//   stat::feedback_latency_entries: N
//   stat::feedback_latency_p50_ms:  N
//   stat::feedback_latency_p99_ms:  N
//   stat::device_busy_percent:      N
// then, iff reloaded_units > 0,
//   stat::reloaded_units:           N
// then for each of `stats.executor`
//   stat::<name>:                   N
// and for each of `stats.mutators`
//   stat::mutator_<name>:           <executions> execs, <finds> finds
// each ending in '\n', values aligned as libFuzzer aligns them.
std::string FormatFinalStats(const FinalStats& stats);

// Returns a "stat::<name>: <value>" line per entry of `stats`, in order.
std::string FormatExecutorStats(
    absl::Span<const std::pair<std::string, uint64_t>> stats);

// Returns the "stat::mutator_<name>:" lines of `mutators`, in their order.
std::string FormatMutatorStats(absl::Span<const MutatorStat> mutators);

// Returns `d` in whole milliseconds, rounded up (0 for d <= 0).
uint64_t CeilMilliseconds(absl::Duration d);

// Returns 100 * busy / wall rounded down, at most 100; 0 if wall <= 0.
uint64_t BusyPercent(absl::Duration busy, absl::Duration wall);

// Returns the Done area's line, e.g. "INFO: feedback latency p50 12.5 ms,
// p99 40.0 ms over 17 new entries (...); device busy 93% of the fuzzing
// loop", or with no entry measured "INFO: feedback latency: no new entry
// had mutants run; device busy ...". The parenthesis says how the latency
// was measured: by the device clock (exact) or by rounds (an upper bound;
// see FeedbackLatency). No trailing newline.
std::string FormatFeedbackLine(uint64_t entries, absl::Duration p50,
                               absl::Duration p99, uint64_t busy_percent,
                               bool by_device_clock = false);

// Returns runs / seconds, or 0 before the first whole second (libFuzzer).
uint64_t ExecPerSec(uint64_t runs, uint64_t seconds);

// Returns the peak resident set size of this process in MiB (getrusage).
uint64_t PeakRssMb();

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_STATUS_LINE_H_

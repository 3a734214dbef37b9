// libFuzzer's log lines, byte for byte, so that tools that parse libFuzzer
// logs (ClusterFuzz, OSS-Fuzz dashboards, scripts) parse ringfuzz's:
//
//   #4096\tpulse  cov: 12 ft: 30 corp: 7/120b exec/s: 2048 rss: 40Mb
//   #5120\tNEW    cov: 13 ft: 31 corp: 8/133b exec/s: 2560 rss: 40Mb
//   (the NEW line goes on: " L: 13/20 MS: 1 havoc-")
//
// As in libFuzzer, "cov:" and "ft:" are left out while zero, "corp:" while
// the corpus is empty, and its "/<size>" while the corpus has no bytes.
#ifndef RINGFUZZ_FUZZ_STATUS_LINE_H_
#define RINGFUZZ_FUZZ_STATUS_LINE_H_

#include <cstdint>
#include <string>

#include "absl/types/span.h"

namespace ringfuzz {

enum class StatusEvent { kInited, kNew, kReduce, kPulse, kDone };

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
// "pulse ", "DONE  ".
const char* StatusEventText(StatusEvent event);

// Returns the corpus size as libFuzzer prints it after "corp: N/":
// "<n>b" below 16 KiB, "<n>Kb" below 16 MiB, else "<n>Mb" (rounded down).
std::string FormatCorpusBytes(uint64_t bytes);

// Returns "#<runs>\t<EVENT> cov: .. ft: .. corp: ../.. exec/s: .. rss: ..Mb"
// without a trailing newline.
std::string FormatStatusLine(StatusEvent event, const StatusCounters& c);

// Returns what a NEW line adds after the status line: " L: <len>/<max> " and
// the mutation sequence, e.g. " L: 3/5 MS: 1 havoc-". `max_input_size` is
// the largest input in the corpus, as in libFuzzer.
std::string FormatNewUnitSuffix(size_t len, size_t max_input_size,
                                absl::Span<const uint32_t> opcodes);

// Returns "Done <runs> runs in <seconds> second(s)".
std::string FormatDoneLine(uint64_t runs, uint64_t seconds);

struct FinalStats {
  uint64_t runs = 0;
  uint64_t exec_per_sec = 0;
  uint64_t new_units = 0;
  uint64_t slowest_unit_time_sec = 0;  // not measured per input: always 0
  uint64_t peak_rss_mb = 0;
};

// Returns libFuzzer's five "stat::" lines, each ending in '\n', values
// aligned as libFuzzer aligns them.
std::string FormatFinalStats(const FinalStats& stats);

// Returns runs / seconds, or 0 before the first whole second (libFuzzer).
uint64_t ExecPerSec(uint64_t runs, uint64_t seconds);

// Returns the peak resident set size of this process in MiB (getrusage).
uint64_t PeakRssMb();

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_STATUS_LINE_H_

#include "fuzz/status_line.h"

#include <sys/resource.h>

#include "absl/strings/str_cat.h"
#include "fuzz/work_kind.h"

namespace ringfuzz {

const char* StatusEventText(StatusEvent event) {
  switch (event) {
    case StatusEvent::kInited:
      return "INITED";
    case StatusEvent::kNew:
      return "NEW   ";
    case StatusEvent::kReduce:
      return "REDUCE";
    case StatusEvent::kPulse:
      return "pulse ";
    case StatusEvent::kDone:
      return "DONE  ";
  }
  return "";
}

std::string FormatCorpusBytes(uint64_t bytes) {
  if (bytes < (uint64_t{1} << 14)) return absl::StrCat(bytes, "b");
  if (bytes < (uint64_t{1} << 24)) return absl::StrCat(bytes >> 10, "Kb");
  return absl::StrCat(bytes >> 20, "Mb");
}

std::string FormatStatusLine(StatusEvent event, const StatusCounters& c) {
  std::string line = absl::StrCat("#", c.runs, "\t", StatusEventText(event));
  if (c.cov != 0) absl::StrAppend(&line, " cov: ", c.cov);
  if (c.ft != 0) absl::StrAppend(&line, " ft: ", c.ft);
  if (c.corpus_units != 0) {
    absl::StrAppend(&line, " corp: ", c.corpus_units);
    if (c.corpus_bytes != 0) {
      absl::StrAppend(&line, "/", FormatCorpusBytes(c.corpus_bytes));
    }
  }
  absl::StrAppend(&line, " exec/s: ", c.exec_per_sec, " rss: ", c.rss_mb, "Mb");
  return line;
}

std::string FormatNewUnitSuffix(size_t len, size_t max_input_size,
                                absl::Span<const uint32_t> opcodes) {
  return absl::StrCat(" L: ", len, "/", max_input_size, " ",
                      MutationSequence(opcodes));
}

std::string FormatDoneLine(uint64_t runs, uint64_t seconds) {
  return absl::StrCat("Done ", runs, " runs in ", seconds, " second(s)");
}

std::string FormatFinalStats(const FinalStats& s) {
  return absl::StrCat(
      "stat::number_of_executed_units: ", s.runs, "\n",
      "stat::average_exec_per_sec:     ", s.exec_per_sec, "\n",
      "stat::new_units_added:          ", s.new_units, "\n",
      "stat::slowest_unit_time_sec:    ", s.slowest_unit_time_sec, "\n",
      "stat::peak_rss_mb:              ", s.peak_rss_mb, "\n");
}

uint64_t ExecPerSec(uint64_t runs, uint64_t seconds) {
  return seconds == 0 ? 0 : runs / seconds;
}

uint64_t PeakRssMb() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<uint64_t>(usage.ru_maxrss) >> 10;  // KiB on Linux
}

}  // namespace ringfuzz

#include "fuzz/engine/status_line.h"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "fuzz/engine/work_kind.h"

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
    case StatusEvent::kReload:
      return "RELOAD";
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
                                absl::Span<const uint32_t> opcodes,
                                absl::Span<const uint32_t> mutations) {
  return absl::StrCat(" L: ", len, "/", max_input_size, " ",
                      MutationSequence(opcodes, mutations));
}

std::string FormatDoneLine(uint64_t runs, uint64_t seconds) {
  return absl::StrCat("Done ", runs, " runs in ", seconds, " second(s)");
}

namespace {

// One "stat::<name>: <value>\n" line, the value in column 33 as libFuzzer
// aligns its own (longer names get one space).
std::string Stat(absl::string_view name, absl::string_view value) {
  std::string line = absl::StrCat("stat::", name, ":");
  line.resize(std::max<size_t>(line.size() + 1, 32), ' ');
  return absl::StrCat(line, value, "\n");
}

std::string Stat(absl::string_view name, uint64_t value) {
  return Stat(name, absl::StrCat(value));
}

}  // namespace

std::string FormatFinalStats(const FinalStats& s) {
  return absl::StrCat(
      "stat::number_of_executed_units: ", s.runs, "\n",
      "stat::average_exec_per_sec:     ", s.exec_per_sec, "\n",
      "stat::new_units_added:          ", s.new_units, "\n",
      "stat::slowest_unit_time_sec:    ", s.slowest_unit_time_sec, "\n",
      "stat::peak_rss_mb:              ", s.peak_rss_mb, "\n",
      Stat("feedback_latency_entries", s.latency_entries),
      Stat("feedback_latency_p50_ms", s.latency_p50_ms),
      Stat("feedback_latency_p99_ms", s.latency_p99_ms),
      Stat("device_busy_percent", s.device_busy_percent),
      s.reloaded_units > 0 ? Stat("reloaded_units", s.reloaded_units) : "",
      FormatExecutorStats(s.executor), FormatMutatorStats(s.mutators));
}

std::string FormatExecutorStats(
    absl::Span<const std::pair<std::string, uint64_t>> stats) {
  std::string text;
  for (const auto& [name, value] : stats)
    absl::StrAppend(&text, Stat(name, value));
  return text;
}

std::string FormatMutatorStats(absl::Span<const MutatorStat> mutators) {
  std::string text;
  for (const MutatorStat& m : mutators) {
    absl::StrAppend(
        &text, Stat(absl::StrCat("mutator_", m.name),
                    absl::StrCat(m.executions, " execs, ", m.finds, " finds")));
  }
  return text;
}

uint64_t CeilMilliseconds(absl::Duration d) {
  if (d <= absl::ZeroDuration()) return 0;
  return static_cast<uint64_t>(
      absl::ToInt64Milliseconds(absl::Ceil(d, absl::Milliseconds(1))));
}

uint64_t BusyPercent(absl::Duration busy, absl::Duration wall) {
  if (wall <= absl::ZeroDuration() || busy <= absl::ZeroDuration()) return 0;
  return std::min<uint64_t>(
      100, static_cast<uint64_t>(absl::FDivDuration(busy * 100, wall)));
}

std::string FormatFeedbackLine(uint64_t entries, absl::Duration p50,
                               absl::Duration p99, uint64_t busy_percent,
                               bool by_device_clock) {
  const std::string busy =
      absl::StrCat("device busy ", busy_percent, "% of the fuzzing loop");
  if (entries == 0) {
    return absl::StrCat(
        "INFO: feedback latency: no new entry had mutants run; ", busy);
  }
  const char* measured =
      by_device_clock
          ? "the execution that found an entry to the start of its first "
            "mutant, on the device's clock"
          : "start of the batch that found an entry to the end of the first "
            "batch that ran its mutants: an upper bound";
  return absl::StrFormat(
      "INFO: feedback latency p50 %.1f ms, p99 %.1f ms over %d new entries "
      "(%s); %s",
      absl::ToDoubleMilliseconds(p50), absl::ToDoubleMilliseconds(p99), entries,
      measured, busy);
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

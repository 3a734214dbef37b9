// Reading a worker's log (fuzz-<i>.log of a multi-device campaign, fuzz/
// multi_device.h): its latest status line, its stat:: totals and the bug it
// reported. The log is libFuzzer's text, so this is the same parsing a
// script would do; it lives here so that the campaign and its tests agree.
#ifndef RINGFUZZ_FUZZ_WORKERS_WORKER_LOG_H_
#define RINGFUZZ_FUZZ_WORKERS_WORKER_LOG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "fuzz/engine/status_line.h"

namespace ringfuzz {

struct WorkerLog {
  // The numbers of the last status line ("#N\tEVENT cov: ..."), if any.
  std::optional<StatusCounters> status;
  // The numeric stat:: lines ("stat::new_units_added: 12"), by name
  // without the prefix; the last of each wins.
  std::map<std::string, uint64_t> stats;
  // The first bug report: from its first line (libFuzzer's "==PID== ERROR:
  // libFuzzer: ..." or UBSan's "FILE:LINE: runtime error: ...") to the end
  // of the log, stat:: lines left out; "" if the log has none.
  std::string bug_report;
  // The path after "Test unit written to " in that report; "" if none.
  std::string artifact;
  // The paths of every "Test unit written to " line of the log, in order
  // (with -keep_going a worker reports each distinct bug).
  std::vector<std::string> artifacts;
  // The text of the last "ERROR: " line that is not part of a bug report
  // (what made the worker fail); "" if none.
  std::string error;
};

// Parses `text`, a worker's log or its tail (a line cut at the start of a
// tail has lost its '#' and is no status line).
WorkerLog ParseWorkerLog(absl::string_view text);

// Parses one status line; nullopt if `line` is not one.
std::optional<StatusCounters> ParseStatusLine(absl::string_view line);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_WORKERS_WORKER_LOG_H_

#include "fuzz/workers/worker_log.h"

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "fuzz/engine/report_format.h"

namespace ringfuzz {
namespace {

constexpr absl::string_view kArtifactMarker = "Test unit written to ";

bool IsBugHeader(absl::string_view line) {
  if (absl::StartsWith(line, "==")) {
    return absl::StrContains(line, kLibFuzzerDeadlySignal) ||
           absl::StrContains(line, kLibFuzzerTimeout);
  }
  const size_t at = line.find(kUbsanRuntimeError);
  return at != absl::string_view::npos && at >= 2 &&
         line.substr(at - 2, 2) == ": ";
}

// "12Kb" / "40Mb" / "120b" as libFuzzer prints them: the bytes, rounded
// down to the unit.
uint64_t CorpusBytes(absl::string_view text) {
  uint64_t value = 0;
  uint64_t scale = 1;
  if (absl::ConsumeSuffix(&text, "Mb")) {
    scale = 1 << 20;
  } else if (absl::ConsumeSuffix(&text, "Kb")) {
    scale = 1 << 10;
  } else {
    absl::ConsumeSuffix(&text, "b");
  }
  return absl::SimpleAtoi(text, &value) ? value * scale : 0;
}

}  // namespace

std::optional<StatusCounters> ParseStatusLine(absl::string_view line) {
  if (!absl::ConsumePrefix(&line, "#")) return std::nullopt;
  const size_t tab = line.find('\t');
  if (tab == absl::string_view::npos) return std::nullopt;
  StatusCounters c;
  if (!absl::SimpleAtoi(line.substr(0, tab), &c.runs)) return std::nullopt;
  std::vector<absl::string_view> words =
      absl::StrSplit(line.substr(tab + 1), ' ', absl::SkipEmpty());
  bool rate = false;
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    const absl::string_view key = words[i], value = words[i + 1];
    if (key == "cov:") {
      if (!absl::SimpleAtoi(value, &c.cov)) c.cov = 0;
    } else if (key == "ft:") {
      if (!absl::SimpleAtoi(value, &c.ft)) c.ft = 0;
    } else if (key == "corp:") {
      std::pair<absl::string_view, absl::string_view> parts =
          absl::StrSplit(value, absl::MaxSplits('/', 1));
      if (!absl::SimpleAtoi(parts.first, &c.corpus_units)) c.corpus_units = 0;
      c.corpus_bytes = CorpusBytes(parts.second);
    } else if (key == "exec/s:") {
      rate = absl::SimpleAtoi(value, &c.exec_per_sec);
    } else if (key == "rss:") {
      absl::string_view mb = value;
      absl::ConsumeSuffix(&mb, "Mb");
      if (!absl::SimpleAtoi(mb, &c.rss_mb)) c.rss_mb = 0;
    }
  }
  if (!rate) return std::nullopt;  // every status line has exec/s:
  return c;
}

WorkerLog ParseWorkerLog(absl::string_view text) {
  WorkerLog log;
  bool in_report = false;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::ConsumePrefix(&line, "stat::")) {
      const size_t colon = line.find(':');
      uint64_t value = 0;
      if (colon != absl::string_view::npos &&
          absl::SimpleAtoi(absl::StripAsciiWhitespace(line.substr(colon + 1)),
                           &value)) {
        log.stats[std::string(line.substr(0, colon))] = value;
      }
      continue;
    }
    if (const size_t at = line.find(kArtifactMarker);
        at != absl::string_view::npos) {
      log.artifacts.emplace_back(line.substr(at + kArtifactMarker.size()));
    }
    if (!in_report && IsBugHeader(line)) in_report = true;
    if (in_report) {
      absl::StrAppend(&log.bug_report, line, "\n");
      if (log.artifact.empty() &&
          line.find(kArtifactMarker) != absl::string_view::npos) {
        log.artifact = log.artifacts.back();
      }
      continue;
    }
    if (absl::StartsWith(line, "ERROR: ")) {
      log.error = std::string(line.substr(7));
      continue;
    }
    // A line cut at the start of a tail has lost its '#': not parsed.
    if (std::optional<StatusCounters> status = ParseStatusLine(line)) {
      log.status = status;
    }
  }
  // The empty piece after the log's last newline.
  while (absl::EndsWith(log.bug_report, "\n\n")) log.bug_report.pop_back();
  return log;
}

}  // namespace ringfuzz

// The -report page: one self-contained HTML file (inline CSS, inline SVG
// charts, no script, nothing fetched) that shows a campaign to people: what
// ran where, coverage, corpus and speed over time, each mutator's
// executions and finds, and the bugs found.
#ifndef RINGFUZZ_FUZZ_REPORT_HTML_REPORT_H_
#define RINGFUZZ_FUZZ_REPORT_HTML_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/engine/status_line.h"
#include "fuzz/report/bug_buckets.h"
#include "fuzz/report/plot_data.h"

namespace ringfuzz {

// Everything the page shows. Strings are plain text: the renderer escapes
// them.
struct CampaignReport {
  std::string target;              // -target
  std::string device;              // the executor's device, "" when unknown
  std::vector<std::string> flags;  // e.g. "-max_total_time=60"
  std::vector<std::string> corpus_dirs;  // positional arguments
  int64_t started_unix = 0;
  int64_t updated_unix = 0;
  // While running the page asks the browser to reload it every
  // kReloadSeconds; once finished it says how the run ended.
  bool finished = false;
  std::string outcome;  // e.g. "exit 0", "exit 77 (bug)"; finished only
  std::vector<PlotSample> samples;
  std::vector<MutatorStat> mutators;  // empty: the executor counts none
  std::vector<BugBucket> bugs;
  std::string plot_data_file;  // the CSV's name, linked from the page
};

inline constexpr int kReloadSeconds = 5;

// Returns the page, a complete HTML5 document. Its landmarks, for tests and
// scripts: <header id="campaign">, <section id="summary">, <section
// id="charts"> with four <svg class="chart"> (cov, ft, corpus size,
// exec/s), <table id="mutators">, <table id="bugs"> (one <tr> per bucket in
// <tbody>).
std::string RenderHtmlReport(const CampaignReport& report);

// Returns `unix_time` as "2024-05-01 12:00:00 UTC".
std::string FormatUtc(int64_t unix_time);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_REPORT_HTML_REPORT_H_

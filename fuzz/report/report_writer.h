// -report=DIR: keeps a campaign's samples and bugs and writes DIR/index.html
// (fuzz/report/html_report.h) and DIR/plot_data.csv (plot_data.h), each
// atomically (temporary file, fsync, rename), so a browser or a script never
// reads half a file: every few seconds while the campaign runs and once at
// its end.
//
// A report never stops a campaign: a directory that cannot be created or
// written gets one "WARNING: -report=DIR: ..." line naming the path, the
// reason and the fix; fuzzing goes on, and later writes are tried again
// (space may have been freed).
#ifndef RINGFUZZ_FUZZ_REPORT_REPORT_WRITER_H_
#define RINGFUZZ_FUZZ_REPORT_REPORT_WRITER_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "fuzz/engine/executor.h"
#include "fuzz/engine/status_line.h"
#include "fuzz/report/bug_buckets.h"
#include "fuzz/report/html_report.h"
#include "fuzz/report/plot_data.h"

namespace ringfuzz {

inline constexpr char kReportPageFile[] = "index.html";
inline constexpr char kPlotDataFile[] = "plot_data.csv";

// How often the engine samples and rewrites the report.
inline constexpr absl::Duration kReportSampleInterval = absl::Seconds(1);
inline constexpr absl::Duration kReportWriteInterval = absl::Seconds(5);

// The counters of one sample, as the status line shows them.
struct ReportCounters {
  uint64_t execs = 0;
  uint64_t cov = 0;
  uint64_t ft = 0;
  uint64_t corpus_size = 0;
};

class ReportWriter {
 public:
  // `header`: target, device, flags, corpus_dirs and started_unix (the rest
  // is filled in as the campaign runs). Warnings go to `log`.
  ReportWriter(std::string dir, CampaignReport header, std::ostream& log,
               size_t max_points = PlotSeries::kDefaultMaxPoints);
  ReportWriter(const ReportWriter&) = delete;
  ReportWriter& operator=(const ReportWriter&) = delete;

  // Whether a sample is due at `elapsed` (kReportSampleInterval since the
  // last one, or none yet).
  bool SampleDue(absl::Duration elapsed) const;
  // Adds a sample at `elapsed` since the campaign started; its exec/s is
  // that of the interval since the previous sample.
  void Sample(absl::Duration elapsed, const ReportCounters& counters);
  // Counts a bug report (see BugBuckets::Record).
  void RecordBug(const Find& find, const std::string& artifact,
                 absl::Duration elapsed);

  // Writes both files if kReportWriteInterval passed since the last write
  // (or none was written yet).
  void MaybeWrite(absl::Duration elapsed,
                  const std::vector<MutatorStat>& mutators);
  // Writes both files now; `finished` with the run's `outcome`.
  void Write(absl::Duration elapsed, const std::vector<MutatorStat>& mutators,
             bool finished = false, const std::string& outcome = "");

  const std::string& dir() const { return dir_; }
  // The report as the next write would render it (mutators as last given).
  const CampaignReport& report() const { return report_; }

 private:
  // Creates the directory (one level) if missing, then writes the files.
  absl::Status WriteFiles();

  std::string dir_;
  CampaignReport report_;
  std::ostream& log_;
  PlotSeries series_;
  BugBuckets bugs_;
  std::optional<absl::Duration> last_sample_;
  uint64_t last_execs_ = 0;
  std::optional<absl::Duration> last_write_;
  bool warned_ = false;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_REPORT_REPORT_WRITER_H_

// A campaign's progress over time, in the spirit of AFL's plot_data: one
// sample per second or so (exec count, coverage, corpus size, bugs), kept
// in bounded memory however long the campaign runs, and written as CSV.
//
//   unix_time,elapsed_s,execs,execs_per_sec,cov,ft,corpus_size,bugs
//   1714557600,0.412,1,0,12,30,1,0
//   1714557601,1.415,52224,52045,15,41,4,0
#ifndef RINGFUZZ_FUZZ_REPORT_PLOT_DATA_H_
#define RINGFUZZ_FUZZ_REPORT_PLOT_DATA_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"

namespace ringfuzz {

// One point of a campaign's progress.
struct PlotSample {
  int64_t unix_time = 0;      // wall clock, seconds since the epoch
  double elapsed_s = 0;       // since the campaign started
  uint64_t execs = 0;         // executions so far
  uint64_t exec_per_sec = 0;  // over the interval since the previous sample
  uint64_t cov = 0;           // "cov:" blocks
  uint64_t ft = 0;            // "ft:" features
  uint64_t corpus_size = 0;   // corpus entries
  uint64_t bugs = 0;          // distinct bugs (BugBuckets) found so far

  friend bool operator==(const PlotSample& a, const PlotSample& b) {
    return a.unix_time == b.unix_time && a.elapsed_s == b.elapsed_s &&
           a.execs == b.execs && a.exec_per_sec == b.exec_per_sec &&
           a.cov == b.cov && a.ft == b.ft && a.corpus_size == b.corpus_size &&
           a.bugs == b.bugs;
  }
};

// The samples of one campaign, at most `max_points` + 1 of them: once more
// than `max_points` are kept, every other one is dropped and from then on
// only every second sample added is kept (the stride doubles each time),
// so the kept samples stay evenly spread over the whole campaign. The
// first sample and the latest one are always part of Points().
class PlotSeries {
 public:
  static constexpr size_t kDefaultMaxPoints = 2000;

  // `max_points` >= 2.
  explicit PlotSeries(size_t max_points = kDefaultMaxPoints);

  void Add(const PlotSample& sample);

  // The kept samples in the order added, then the latest sample if it was
  // not kept.
  std::vector<PlotSample> Points() const;
  // Samples added so far (kept or not).
  uint64_t added() const { return added_; }
  // Every how many added samples one is kept now (1, 2, 4, ...).
  uint64_t stride() const { return stride_; }

 private:
  size_t max_points_;
  uint64_t stride_ = 1;
  uint64_t added_ = 0;
  std::vector<PlotSample> kept_;
  std::optional<PlotSample> latest_;
};

// The header line of plot_data.csv, without a newline.
inline constexpr char kPlotDataHeader[] =
    "unix_time,elapsed_s,execs,execs_per_sec,cov,ft,corpus_size,bugs";

// Returns plot_data.csv: kPlotDataHeader, then one line per sample
// (elapsed_s with three decimals, the rest integers), each ending in '\n'.
std::string FormatPlotData(absl::Span<const PlotSample> samples);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_REPORT_PLOT_DATA_H_

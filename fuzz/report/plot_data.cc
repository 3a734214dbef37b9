#include "fuzz/report/plot_data.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace ringfuzz {

PlotSeries::PlotSeries(size_t max_points)
    : max_points_(std::max<size_t>(max_points, 2)) {}

void PlotSeries::Add(const PlotSample& sample) {
  const uint64_t index = added_++;
  latest_ = sample;
  if (index % stride_ != 0) return;
  kept_.push_back(sample);
  if (kept_.size() <= max_points_) return;
  // Keep the samples at even positions: those whose index is a multiple of
  // the doubled stride, the first one included.
  size_t out = 0;
  for (size_t i = 0; i < kept_.size(); i += 2) kept_[out++] = kept_[i];
  kept_.resize(out);
  stride_ *= 2;
}

std::vector<PlotSample> PlotSeries::Points() const {
  std::vector<PlotSample> points = kept_;
  if (latest_ && (points.empty() || !(points.back() == *latest_))) {
    points.push_back(*latest_);
  }
  return points;
}

std::string FormatPlotData(absl::Span<const PlotSample> samples) {
  std::string csv = absl::StrCat(kPlotDataHeader, "\n");
  for (const PlotSample& s : samples) {
    absl::StrAppendFormat(&csv, "%d,%.3f,%u,%u,%u,%u,%u,%u\n", s.unix_time,
                          s.elapsed_s, s.execs, s.exec_per_sec, s.cov, s.ft,
                          s.corpus_size, s.bugs);
  }
  return csv;
}

}  // namespace ringfuzz

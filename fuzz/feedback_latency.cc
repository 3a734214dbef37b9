#include "fuzz/feedback_latency.h"

#include <algorithm>
#include <cmath>

namespace ringfuzz {

void FeedbackLatency::Found(size_t index, absl::Duration batch_start) {
  pending_.emplace(index, batch_start);
}

std::vector<FeedbackLatency::Sample> FeedbackLatency::BatchRan(
    absl::Span<const size_t> parents, absl::Duration batch_end) {
  std::vector<Sample> taken;
  if (pending_.empty()) return taken;
  for (size_t index : parents) {
    auto it = pending_.find(index);
    if (it == pending_.end()) continue;
    taken.push_back({index, batch_end - it->second});
    samples_.push_back(taken.back().latency);
    pending_.erase(it);
  }
  return taken;
}

absl::Duration FeedbackLatency::Quantile(double q) const {
  if (samples_.empty()) return absl::ZeroDuration();
  std::vector<absl::Duration> sorted = samples_;
  std::sort(sorted.begin(), sorted.end());
  const double rank = std::ceil(q * static_cast<double>(sorted.size()));
  const size_t index = static_cast<size_t>(
      std::clamp(rank, 1.0, static_cast<double>(sorted.size())));
  return sorted[index - 1];
}

}  // namespace ringfuzz

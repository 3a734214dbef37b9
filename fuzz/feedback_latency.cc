#include "fuzz/feedback_latency.h"

#include <algorithm>
#include <cmath>

namespace ringfuzz {

void FeedbackLatency::Found(size_t index, absl::Duration batch_start) {
  pending_.emplace(index, batch_start);
}

void FeedbackLatency::BatchRan(absl::Span<const size_t> parents,
                               absl::Duration batch_end) {
  if (pending_.empty()) return;
  for (size_t index : parents) {
    auto it = pending_.find(index);
    if (it == pending_.end()) continue;
    samples_.push_back(batch_end - it->second);
    pending_.erase(it);
  }
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

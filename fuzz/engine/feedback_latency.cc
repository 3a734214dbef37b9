#include "fuzz/engine/feedback_latency.h"

#include <algorithm>
#include <cmath>

namespace ringfuzz {
namespace {

uint64_t Nanoseconds(absl::Duration d) {
  return static_cast<uint64_t>(
      std::max<int64_t>(0, absl::ToInt64Nanoseconds(d)));
}

}  // namespace

absl::Duration FeedbackLatency::ToDuration(uint64_t units) const {
  if (!ticks_) return absl::Nanoseconds(units);
  return absl::Nanoseconds(std::llround(static_cast<double>(units) * tick_ns_));
}

void FeedbackLatency::Found(size_t index, absl::Duration batch_start) {
  pending_.emplace(index, Nanoseconds(batch_start));
}

std::vector<FeedbackLatency::Sample> FeedbackLatency::BatchRan(
    absl::Span<const size_t> parents, absl::Duration batch_end) {
  std::vector<Sample> taken;
  if (pending_.empty()) return taken;
  const uint64_t end = Nanoseconds(batch_end);
  for (size_t index : parents) {
    auto it = pending_.find(index);
    if (it == pending_.end()) continue;
    samples_.push_back(end > it->second ? end - it->second : 0);
    taken.push_back({index, ToDuration(samples_.back())});
    pending_.erase(it);
  }
  return taken;
}

void FeedbackLatency::FoundAtTick(size_t index, uint64_t tick) {
  ticks_ = true;
  pending_.emplace(index, tick);
}

std::optional<FeedbackLatency::Sample> FeedbackLatency::RanAtTick(
    size_t index, uint64_t tick) {
  auto it = pending_.find(index);
  if (it == pending_.end()) return std::nullopt;
  samples_.push_back(tick > it->second ? tick - it->second : 0);
  pending_.erase(it);
  return Sample{index, ToDuration(samples_.back())};
}

absl::Duration FeedbackLatency::Quantile(double q) const {
  if (samples_.empty()) return absl::ZeroDuration();
  std::vector<uint64_t> sorted = samples_;
  std::sort(sorted.begin(), sorted.end());
  const double rank = std::ceil(q * static_cast<double>(sorted.size()));
  const size_t index = static_cast<size_t>(
      std::clamp(rank, 1.0, static_cast<double>(sorted.size())));
  return ToDuration(sorted[index - 1]);
}

}  // namespace ringfuzz

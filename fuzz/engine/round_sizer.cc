#include "fuzz/engine/round_sizer.h"

#include <algorithm>
#include <cstdlib>

namespace ringfuzz {

RoundSizer::RoundSizer(absl::Duration target, uint32_t floor, uint32_t ceiling,
                       double min_round_per_fixed)
    : target_(target),
      min_round_per_fixed_(std::max(min_round_per_fixed, 1.0)),
      floor_(std::clamp<uint32_t>(floor, 1, std::max<uint32_t>(ceiling, 1))),
      ceiling_(std::max<uint32_t>(ceiling, 1)) {}

uint32_t RoundSizer::ExecsPerSlot(uint32_t slots, bool urgent) {
  uint64_t execs = batch_execs_;
  if (probe_due_ && urgent && (separated_ || deferrals_ < kMaxProbeDeferrals)) {
    ++deferrals_;
    execs = urgent_execs_;
  } else if (probe_due_) {
    probe_due_ = false;
    deferrals_ = 0;
    execs = probe_execs_;
  } else if (urgent) {
    execs = urgent_execs_;
  }
  if (execs == 0) return floor_;
  const uint64_t n = std::max<uint32_t>(slots, 1);
  const uint64_t per_slot = (execs + n - 1) / n;
  return static_cast<uint32_t>(
      std::clamp<uint64_t>(per_slot, floor_, ceiling_));
}

void RoundSizer::Fit() {
  const double mean_n = n_ / w_, mean_t = t_ / w_;
  const double var = nn_ / w_ - mean_n * mean_n;
  const double cov = nt_ / w_ - mean_n * mean_t;
  // Sizes that differ by less than 0.1% (one size) cannot separate the
  // fixed part from the part per execution.
  separated_ = var > 1e-6 * mean_n * mean_n && cov > 0;
  if (separated_) {
    fixed_ = std::clamp(mean_t - cov / var * mean_n, 0.0, mean_t);
  }
  if (fixed_ >= mean_t) fixed_ = 0;  // the device got faster overall
  per_exec_ = (mean_t - fixed_) / mean_n;
}

void RoundSizer::Observe(uint64_t executions, absl::Duration elapsed) {
  if (executions == 0) return;
  ++observed_;
  const uint64_t most = executions > UINT64_MAX / kMaxGrowth
                            ? UINT64_MAX
                            : executions * kMaxGrowth;
  if (elapsed <= absl::ZeroDuration()) {
    batch_execs_ = urgent_execs_ = probe_execs_ = most;
    return;
  }
  const double n = static_cast<double>(executions);
  const double t = absl::ToDoubleSeconds(elapsed);
  if (separated_ && per_exec_ > 0 && fit_batches_ >= kMinFitBatches) {
    const double predicted = fixed_ + per_exec_ * n;
    const int off = t * kRegimeChange < predicted   ? -1
                    : t > kRegimeChange * predicted ? 1
                                                    : 0;
    off_streak_ =
        off != 0 && (off_streak_ == 0 || (off_streak_ > 0) == (off > 0))
            ? off_streak_ + off
            : off;
    if (std::abs(off_streak_) >= kRegimeStreak) {
      w_ = n_ = t_ = nn_ = nt_ = 0;
      fixed_ = 0;
      separated_ = false;
      fit_batches_ = 0;
      off_streak_ = 0;
      observed_ = 1;  // the first batch of the new fit: a probe is due
      deferrals_ = 0;
    }
  }
  ++fit_batches_;
  w_ = kDecay * w_ + 1;
  n_ = kDecay * n_ + n;
  t_ = kDecay * t_ + t;
  nn_ = kDecay * nn_ + n * n;
  nt_ = kDecay * nt_ + n * t;
  Fit();
  Size(most, n);
  if (observed_ % kProbeEvery == 1) probe_due_ = true;
}

void RoundSizer::SetTarget(absl::Duration target) {
  if (target <= absl::ZeroDuration() || target == target_) return;
  target_ = target;
  if (per_exec_ > 0) Size(most_execs_, last_execs_);
}

void RoundSizer::Size(uint64_t most, double last) {
  most_execs_ = most;
  last_execs_ = last;
  const double target = absl::ToDoubleSeconds(target_);
  const double plain =
      std::max(target - fixed_, (min_round_per_fixed_ - 1) * fixed_) /
      per_exec_;
  const double urgent =
      std::min(plain, std::max(kUrgentShare * target - fixed_,
                               (min_round_per_fixed_ - 1) * fixed_) /
                          per_exec_);
  auto bounded = [most](double execs) {
    return execs >= static_cast<double>(most)
               ? most
               : std::max<uint64_t>(static_cast<uint64_t>(execs), 1);
  };
  batch_execs_ = bounded(plain);
  urgent_execs_ = bounded(urgent);
  probe_execs_ = bounded(2 * std::max(plain, last));
}

}  // namespace ringfuzz

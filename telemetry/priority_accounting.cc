#include "telemetry/priority_accounting.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <ostream>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"

namespace ringfuzz::telemetry {
namespace {

constexpr uint64_t kCounterMax = std::numeric_limits<uint64_t>::max();

absl::Status CheckedIncrement(uint64_t& counter, absl::string_view name) {
  if (counter == kCounterMax) {
    return absl::OutOfRangeError(absl::StrFormat(
        "priority accounting counter %s is at 2^64-1 and cannot count "
        "another event. Fix: drain the accounting (see DrainRecommendation) "
        "before it reaches the limit.",
        name));
  }
  ++counter;
  return absl::OkStatus();
}

}  // namespace

absl::string_view PriorityDrainReasonName(PriorityDrainReason reason) {
  switch (reason) {
    case PriorityDrainReason::kRequeueCounterExhausted:
      return "requeue_counter_exhausted";
    case PriorityDrainReason::kAgedPromotionCounterExhausted:
      return "aged_promotion_counter_exhausted";
    case PriorityDrainReason::kRequeueCounterNearLimit:
      return "requeue_counter_near_limit";
    case PriorityDrainReason::kAgedPromotionCounterNearLimit:
      return "aged_promotion_counter_near_limit";
    case PriorityDrainReason::kPendingTelemetry:
      return "pending_telemetry";
    case PriorityDrainReason::kNone:
      break;
  }
  return "none";
}

void PriorityRequeueAccounting::RecordRequeue(uint32_t age) {
  if (requeue_count != kCounterMax) ++requeue_count;
  max_priority_age = std::max(max_priority_age, age);
}

absl::Status PriorityRequeueAccounting::TryRecordRequeue(uint32_t age) {
  if (absl::Status status = CheckedIncrement(requeue_count, "requeue_count");
      !status.ok()) {
    return status;
  }
  max_priority_age = std::max(max_priority_age, age);
  return absl::OkStatus();
}

void PriorityRequeueAccounting::RecordAgedPromotion(uint32_t age) {
  if (aged_promotions != kCounterMax) ++aged_promotions;
  max_priority_age = std::max(max_priority_age, age);
}

absl::Status PriorityRequeueAccounting::TryRecordAgedPromotion(uint32_t age) {
  if (absl::Status status =
          CheckedIncrement(aged_promotions, "aged_promotions");
      !status.ok()) {
    return status;
  }
  max_priority_age = std::max(max_priority_age, age);
  return absl::OkStatus();
}

PriorityDrainRecommendation PriorityRequeueAccounting::DrainRecommendation()
    const {
  PriorityDrainRecommendation out;
  out.requeue_counter_headroom = kCounterMax - requeue_count;
  out.aged_promotion_counter_headroom = kCounterMax - aged_promotions;
  if (requeue_count == kCounterMax) {
    out.reason = PriorityDrainReason::kRequeueCounterExhausted;
  } else if (aged_promotions == kCounterMax) {
    out.reason = PriorityDrainReason::kAgedPromotionCounterExhausted;
  } else if (out.requeue_counter_headroom <= kPriorityCounterDrainHeadroom) {
    out.reason = PriorityDrainReason::kRequeueCounterNearLimit;
  } else if (out.aged_promotion_counter_headroom <=
             kPriorityCounterDrainHeadroom) {
    out.reason = PriorityDrainReason::kAgedPromotionCounterNearLimit;
  } else if (requeue_count != 0 || aged_promotions != 0 ||
             max_priority_age != 0) {
    out.reason = PriorityDrainReason::kPendingTelemetry;
  } else {
    out.reason = PriorityDrainReason::kNone;
  }
  out.should_drain = out.reason != PriorityDrainReason::kNone;
  return out;
}

std::ostream& operator<<(std::ostream& os,
                         const PriorityRequeueAccounting& accounting) {
  return os << "PriorityRequeueAccounting{requeue_count="
            << accounting.requeue_count
            << ", aged_promotions=" << accounting.aged_promotions
            << ", max_priority_age=" << accounting.max_priority_age << "}";
}

std::ostream& operator<<(std::ostream& os,
                         const PriorityDrainRecommendation& recommendation) {
  return os << "PriorityDrainRecommendation{should_drain="
            << recommendation.should_drain
            << ", reason=" << PriorityDrainReasonName(recommendation.reason)
            << ", requeue_counter_headroom="
            << recommendation.requeue_counter_headroom
            << ", aged_promotion_counter_headroom="
            << recommendation.aged_promotion_counter_headroom << "}";
}

}  // namespace ringfuzz::telemetry

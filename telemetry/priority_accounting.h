// Requeue and priority-aging counters of a priority-aware scheduler, and
// when to drain them before they overflow.
#ifndef RINGFUZZ_TELEMETRY_PRIORITY_ACCOUNTING_H_
#define RINGFUZZ_TELEMETRY_PRIORITY_ACCOUNTING_H_

#include <cstdint>
#include <ostream>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace ringfuzz::telemetry {

// A counter this close to UINT64_MAX asks to be drained before it can
// overflow (the original runtime's headroom).
inline constexpr uint64_t kPriorityCounterDrainHeadroom = 1024;

// Why the counters should (or need not) be drained, most urgent first.
enum class PriorityDrainReason {
  kRequeueCounterExhausted,
  kAgedPromotionCounterExhausted,
  kRequeueCounterNearLimit,
  kAgedPromotionCounterNearLimit,
  kPendingTelemetry,  // something to report; no overflow risk
  kNone,
};
// snake_case name, e.g. "requeue_counter_near_limit".
absl::string_view PriorityDrainReasonName(PriorityDrainReason reason);

struct PriorityDrainRecommendation {
  bool should_drain = false;  // reason != kNone
  PriorityDrainReason reason = PriorityDrainReason::kNone;
  uint64_t requeue_counter_headroom = 0;  // increments left before overflow
  uint64_t aged_promotion_counter_headroom = 0;

  friend bool operator==(const PriorityDrainRecommendation& a,
                         const PriorityDrainRecommendation& b) {
    return a.should_drain == b.should_drain && a.reason == b.reason &&
           a.requeue_counter_headroom == b.requeue_counter_headroom &&
           a.aged_promotion_counter_headroom ==
               b.aged_promotion_counter_headroom;
  }
};

struct PriorityRequeueAccounting {
  uint64_t requeue_count = 0;     // slots requeued (contention, quota)
  uint64_t aged_promotions = 0;   // slots promoted for waiting too long
  uint32_t max_priority_age = 0;  // largest age seen, in scheduler ticks

  // Counts one requeue of work aged `age` (saturating at UINT64_MAX) and
  // raises max_priority_age to `age`.
  void RecordRequeue(uint32_t age);
  // Like RecordRequeue, or OutOfRange (nothing changed) at UINT64_MAX.
  absl::Status TryRecordRequeue(uint32_t age);
  // Counts one aging promotion of work aged `age`, saturating.
  void RecordAgedPromotion(uint32_t age);
  // Like RecordAgedPromotion, or OutOfRange (nothing changed) at UINT64_MAX.
  absl::Status TryRecordAgedPromotion(uint32_t age);

  // The first that applies: requeue counter exhausted; aged counter
  // exhausted; requeue headroom <= kPriorityCounterDrainHeadroom; aged
  // headroom <= kPriorityCounterDrainHeadroom; any field non-zero (pending
  // telemetry); else none.
  PriorityDrainRecommendation DrainRecommendation() const;

  friend bool operator==(const PriorityRequeueAccounting& a,
                         const PriorityRequeueAccounting& b) {
    return a.requeue_count == b.requeue_count &&
           a.aged_promotions == b.aged_promotions &&
           a.max_priority_age == b.max_priority_age;
  }
  friend bool operator!=(const PriorityRequeueAccounting& a,
                         const PriorityRequeueAccounting& b) {
    return !(a == b);
  }
};
std::ostream& operator<<(std::ostream& os,
                         const PriorityRequeueAccounting& accounting);
std::ostream& operator<<(std::ostream& os,
                         const PriorityDrainRecommendation& recommendation);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_PRIORITY_ACCOUNTING_H_

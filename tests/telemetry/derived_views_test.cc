// The "Derived views" of wire-protocol.md: runtime counters, watchdog and
// priority accounting.
#include <cstdint>
#include <limits>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/priority_accounting.h"
#include "telemetry/ring_telemetry.h"
#include "telemetry/runtime_counters.h"
#include "telemetry/watchdog.h"
#include "tests/telemetry/wire_builder.h"

namespace ringfuzz::telemetry {
namespace {

using ::ringfuzz::telemetry::testing::ControlBuilder;
using ::ringfuzz::telemetry::testing::RingBuilder;
using ::testing::HasSubstr;

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

RingTelemetry Snapshot(uint32_t done_count,
                       std::initializer_list<uint32_t> statuses) {
  ControlBuilder control;
  control.Set(RF_CTRL_DONE_COUNT, done_count);
  RingBuilder ring;
  for (uint32_t status : statuses) ring.AddStatus(status);
  return RingTelemetry::Decode(control.bytes(), ring.bytes());
}

TEST(RuntimeCountersTest, WorkedExampleOfTheSpec) {
  const RingTelemetry t = Snapshot(0, {RF_STATUS_EMPTY, RF_STATUS_DONE,
                                       RF_STATUS_REQUEUE, RF_STATUS_PUBLISHED});
  const MegakernelRuntimeCounters c = t.RuntimeCounters();
  EXPECT_EQ(c.total_slots, 4u);
  EXPECT_EQ(c.queue_depth, 2u);
  EXPECT_EQ(c.gpu_idle_slots, 1u);
  EXPECT_EQ(c.gpu_idle_ppm, 250000u);
  EXPECT_EQ(c.frontier_density_bps, 5000u);
  EXPECT_EQ(c.occupancy_proxy_bps, 7500u);
  EXPECT_EQ(c.unreclaimed_done_slots, 1u);
  EXPECT_EQ(c.requeue_slots, 1u);
  EXPECT_EQ(c.fault_slots, 0u);
}

TEST(RuntimeCountersTest, EmptyRingGivesZeroRatios) {
  const MegakernelRuntimeCounters c = RingTelemetry{}.RuntimeCounters();
  EXPECT_EQ(c, MegakernelRuntimeCounters{});
}

TEST(RuntimeCountersTest, RatiosRoundDown) {
  const RingTelemetry t =
      Snapshot(0, {RF_STATUS_EMPTY, RF_STATUS_EMPTY, RF_STATUS_PUBLISHED});
  const MegakernelRuntimeCounters c = t.RuntimeCounters();
  EXPECT_EQ(c.gpu_idle_ppm, 666666u);
  EXPECT_EQ(c.frontier_density_bps, 3333u);
  EXPECT_EQ(c.occupancy_proxy_bps, 3333u);
}

TEST(RuntimeCountersTest, FairnessTotalsAndSkewOverNonZeroCounters) {
  ControlBuilder control;
  control.Set(RF_CTRL_DONE_COUNT, 55)
      .Set(RF_CTRL_TENANT_FAIRNESS + 0, 10)
      .Set(RF_CTRL_TENANT_FAIRNESS + 5, 4)
      .Set(RF_CTRL_TENANT_FAIRNESS + 31, 0xFFFFFFFFu)
      .Set(RF_CTRL_PRIORITY_FAIRNESS + 0, 3)
      .Set(RF_CTRL_PRIORITY_FAIRNESS + 4, 0xFFFFFFFFu);
  const RingTelemetry t = RingTelemetry::Decode(control.bytes(), {});
  const MegakernelRuntimeCounters c = t.RuntimeCounters();
  EXPECT_EQ(c.drained_slots, 55u);
  EXPECT_EQ(c.tenant_fairness_total, uint64_t{14} + 0xFFFFFFFFu);  // no wrap
  EXPECT_EQ(c.tenant_fairness_skew, 0xFFFFFFFFu - 4u);  // zeros ignored
  EXPECT_EQ(c.priority_fairness_total, uint64_t{3} + 0xFFFFFFFFu);

  ControlBuilder one;
  one.Set(RF_CTRL_TENANT_FAIRNESS + 3, 9);
  EXPECT_EQ(RingTelemetry::Decode(one.bytes(), {})
                .RuntimeCounters()
                .tenant_fairness_skew,
            0u);
}

TEST(WatchdogTest, ReportsDeltaAndNoStallWhileDraining) {
  const RingTelemetry before = Snapshot(10, {RF_STATUS_PUBLISHED});
  const RingTelemetry after =
      Snapshot(14, {RF_STATUS_PUBLISHED, RF_STATUS_REQUEUE, RF_STATUS_EMPTY,
                    RF_STATUS_EMPTY});
  absl::StatusOr<MegakernelWatchdogSnapshot> health = after.HealthSince(before);
  ASSERT_TRUE(health.ok()) << health.status();
  EXPECT_EQ(health->done_delta, 4u);
  EXPECT_EQ(health->queue_depth, 2u);
  EXPECT_EQ(health->requeue_slots, 1u);
  EXPECT_EQ(health->fault_slots, 0u);
  EXPECT_EQ(health->gpu_idle_ppm, 500000u);
  EXPECT_FALSE(health->suspected_stall);
}

TEST(WatchdogTest, QueuedWorkWithoutProgressOrFaultIsAStall) {
  const RingTelemetry before = Snapshot(10, {RF_STATUS_CLAIMED});
  const RingTelemetry after = Snapshot(10, {RF_STATUS_CLAIMED});
  absl::StatusOr<MegakernelWatchdogSnapshot> health = after.HealthSince(before);
  ASSERT_TRUE(health.ok());
  EXPECT_EQ(health->done_delta, 0u);
  EXPECT_TRUE(health->suspected_stall);
}

TEST(WatchdogTest, NoStallWhenIdleOrFaulted) {
  const RingTelemetry idle = Snapshot(3, {RF_STATUS_EMPTY, RF_STATUS_DONE});
  EXPECT_FALSE(idle.HealthSince(idle)->suspected_stall);
  const RingTelemetry faulted = Snapshot(3, {RF_STATUS_FAULT});
  absl::StatusOr<MegakernelWatchdogSnapshot> health =
      faulted.HealthSince(faulted);
  ASSERT_TRUE(health.ok());
  EXPECT_EQ(health->queue_depth, 1u);
  EXPECT_EQ(health->fault_slots, 1u);
  EXPECT_FALSE(health->suspected_stall);
}

TEST(WatchdogTest, CounterGoingBackwardsIsANewEpochNotANegativeDelta) {
  const RingTelemetry before = Snapshot(100, {RF_STATUS_PUBLISHED});
  const RingTelemetry after = Snapshot(5, {RF_STATUS_PUBLISHED});
  absl::StatusOr<MegakernelWatchdogSnapshot> health = after.HealthSince(before);
  EXPECT_EQ(health.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(health.status().message(), HasSubstr("new telemetry epoch"));
  EXPECT_THAT(health.status().message(), HasSubstr("from 100 to 5"));
  EXPECT_THAT(health.status().message(), HasSubstr("Fix:"));
  // The other direction is fine.
  EXPECT_EQ(before.HealthSince(after)->done_delta, 95u);
}

TEST(PriorityAccountingTest, FromSnapshotCountsRequeueSlots) {
  const RingTelemetry t =
      Snapshot(0, {RF_STATUS_REQUEUE, RF_STATUS_REQUEUE, RF_STATUS_PUBLISHED});
  PriorityRequeueAccounting expected;
  expected.requeue_count = 2;
  EXPECT_EQ(t.PriorityAccounting(), expected);
}

TEST(PriorityAccountingTest, RecordingCountsAndRaisesMaxAge) {
  PriorityRequeueAccounting a;
  a.RecordRequeue(5);
  a.RecordRequeue(3);
  a.RecordAgedPromotion(40);
  ASSERT_TRUE(a.TryRecordRequeue(7).ok());
  ASSERT_TRUE(a.TryRecordAgedPromotion(1).ok());
  EXPECT_EQ(a.requeue_count, 3u);
  EXPECT_EQ(a.aged_promotions, 2u);
  EXPECT_EQ(a.max_priority_age, 40u);
}

TEST(PriorityAccountingTest, SaturatingAndCheckedFormsAtTheLimit) {
  PriorityRequeueAccounting a;
  a.requeue_count = kMax;
  a.aged_promotions = kMax;
  a.RecordRequeue(9);
  a.RecordAgedPromotion(11);
  EXPECT_EQ(a.requeue_count, kMax);
  EXPECT_EQ(a.aged_promotions, kMax);
  EXPECT_EQ(a.max_priority_age, 11u);

  const PriorityRequeueAccounting before = a;
  const absl::Status requeue = a.TryRecordRequeue(99);
  EXPECT_EQ(requeue.code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(requeue.message(), HasSubstr("requeue_count"));
  EXPECT_EQ(a.TryRecordAgedPromotion(99).code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(a, before);  // no age raised either
}

TEST(PriorityAccountingTest, DrainRecommendationFollowsTheSpecOrder) {
  const struct {
    uint64_t requeue;
    uint64_t aged;
    uint32_t age;
    PriorityDrainReason reason;
  } cases[] = {
      {kMax, kMax, 0, PriorityDrainReason::kRequeueCounterExhausted},
      {kMax - 1, kMax, 0, PriorityDrainReason::kAgedPromotionCounterExhausted},
      {kMax - 1024, kMax - 1, 0, PriorityDrainReason::kRequeueCounterNearLimit},
      {kMax - 1025, kMax - 1024, 0,
       PriorityDrainReason::kAgedPromotionCounterNearLimit},
      {kMax - 1025, kMax - 1025, 0, PriorityDrainReason::kPendingTelemetry},
      {0, 0, 1, PriorityDrainReason::kPendingTelemetry},
      {0, 1, 0, PriorityDrainReason::kPendingTelemetry},
      {0, 0, 0, PriorityDrainReason::kNone},
  };
  for (const auto& c : cases) {
    PriorityRequeueAccounting a;
    a.requeue_count = c.requeue;
    a.aged_promotions = c.aged;
    a.max_priority_age = c.age;
    const PriorityDrainRecommendation drain = a.DrainRecommendation();
    EXPECT_EQ(drain.reason, c.reason)
        << PriorityDrainReasonName(drain.reason) << " for " << a;
    EXPECT_EQ(drain.should_drain, c.reason != PriorityDrainReason::kNone);
    EXPECT_EQ(drain.requeue_counter_headroom, kMax - c.requeue);
    EXPECT_EQ(drain.aged_promotion_counter_headroom, kMax - c.aged);
  }
  EXPECT_EQ(
      PriorityDrainReasonName(PriorityDrainReason::kRequeueCounterNearLimit),
      "requeue_counter_near_limit");
}

}  // namespace
}  // namespace ringfuzz::telemetry

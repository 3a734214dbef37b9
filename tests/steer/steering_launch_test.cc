#include "fuzz/steer/steering_launch.h"

#include "gtest/gtest.h"
#include "tests/steer/wire_bytes.h"

namespace ringfuzz {
namespace {

using telemetry::MegakernelLaunchRecommendation;
using telemetry::QueuePressure;

LaunchLimits Lavapipe() {
  LaunchLimits limits;
  limits.workgroup_size_x = 64;
  limits.max_workgroup_size_x = 1024;
  limits.max_workgroups_per_dimension = 65535;
  limits.max_invocations_per_workgroup = 1024;
  limits.ring_slots = 256;
  limits.worker_groups = 64;
  return limits;
}

MegakernelLaunchRecommendation Recommendation(uint32_t slot_count,
                                              uint32_t worker_groups,
                                              QueuePressure pressure) {
  MegakernelLaunchRecommendation r;
  r.geometry.workgroup_size_x = 64;
  r.geometry.slot_count = slot_count;
  r.worker_groups = worker_groups;
  r.pressure = pressure;
  return r;
}

TEST(LaunchSteeringTest, RequestDescribesTheNextBatchAndTheDevice) {
  telemetry::PriorityRequeueAccounting accounting;
  accounting.RecordRequeue(3);
  LaunchLimits limits = Lavapipe();
  limits.resident_device_bytes = 1000;
  limits.device_memory_budget_bytes = 5000;
  const telemetry::MegakernelLaunchRequest request =
      LaunchRequest({100, 256, 64}, limits, accounting);
  EXPECT_EQ(request.queue_len, 100u);
  EXPECT_EQ(request.requested_worker_groups, 0u);
  EXPECT_EQ(request.max_workgroup_size_x, 1024u);
  EXPECT_EQ(request.max_workgroups_per_dimension, 65535u);
  EXPECT_EQ(request.max_invocations_per_workgroup, 1024u);
  EXPECT_EQ(request.requeue_count, 1u);
  EXPECT_EQ(request.max_priority_age, 3u);
  EXPECT_EQ(request.resident_device_bytes, 1000u);
  EXPECT_EQ(request.device_memory_budget_bytes, 5000u);
}

TEST(LaunchSteeringTest, RecommendationMapsOntoSlotsGroupsAndMutants) {
  const BatchGeometry configured{256, 1024, 64};
  // A lane of the policy is a workgroup of ringfuzz.
  BatchGeometry next =
      ApplyRecommendation(Recommendation(256, 4, QueuePressure::kBalanced),
                          configured, 0, configured, Lavapipe());
  EXPECT_EQ(next, (BatchGeometry{256, 1024, 256}));
  // Saturated by many requeued slots (32 of 256 = 1/8): half the mutants.
  next = ApplyRecommendation(Recommendation(256, 4, QueuePressure::kSaturated),
                             next, 32, configured, Lavapipe());
  EXPECT_EQ(next, (BatchGeometry{256, 512, 256}));
  next = ApplyRecommendation(Recommendation(256, 4, QueuePressure::kSaturated),
                             next, 40, configured, Lavapipe());
  EXPECT_EQ(next.execs_per_slot, 256u);
  // A few requeued slots (slow inputs): the size stays.
  next = ApplyRecommendation(Recommendation(256, 4, QueuePressure::kSaturated),
                             next, 31, configured, Lavapipe());
  EXPECT_EQ(next.execs_per_slot, 256u);
  next = ApplyRecommendation(Recommendation(256, 4, QueuePressure::kSaturated),
                             next, 8, configured, Lavapipe());
  EXPECT_EQ(next.execs_per_slot, 256u);
  // Hardly any: back up, never above what the flags asked for.
  next = ApplyRecommendation(Recommendation(256, 4, QueuePressure::kSaturated),
                             next, 7, configured, Lavapipe());
  EXPECT_EQ(next.execs_per_slot, 512u);
  for (int i = 0; i < 3; ++i) {
    next = ApplyRecommendation(Recommendation(256, 4, QueuePressure::kBalanced),
                               next, 0, configured, Lavapipe());
  }
  EXPECT_EQ(next.execs_per_slot, 1024u);
}

TEST(LaunchSteeringTest, GeometryStaysWithinTheDevice) {
  const BatchGeometry configured{256, 100, 64};
  LaunchLimits limits = Lavapipe();
  limits.ring_slots = 128;
  limits.max_workgroups_per_dimension = 100;
  BatchGeometry next =
      ApplyRecommendation(Recommendation(512, 8, QueuePressure::kSaturated),
                          configured, 256, configured, limits);
  EXPECT_EQ(next.slots, 128u);          // the ring's size
  EXPECT_EQ(next.worker_groups, 100u);  // the adapter's limit
  EXPECT_EQ(next.execs_per_slot, 64u);  // not below one mutant per lane
  next = ApplyRecommendation(Recommendation(512, 8, QueuePressure::kSaturated),
                             next, 128, configured, limits);
  EXPECT_EQ(next.execs_per_slot, 64u);
}

TEST(LaunchSteeringTest, PlanFollowsTheTelemetryOfTheLastBatch) {
  LaunchSteering steering(Lavapipe(), {100, 256, 64});
  WireBytes wire(100);
  for (uint32_t s = 0; s < 100; ++s) {
    wire.Slot(s, RF_STATUS_DONE, RF_OP_HAVOC, s, 256, 256);
  }
  const telemetry::RingTelemetry last =
      telemetry::RingTelemetry::Decode(wire.View().control, wire.View().ring);
  telemetry::PriorityRequeueAccounting none;
  absl::StatusOr<MegakernelLaunchRecommendation> plan =
      steering.Plan(last, none);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->geometry.slot_count, 128u);
  EXPECT_EQ(plan->worker_groups, 2u);
  EXPECT_EQ(steering.geometry(), (BatchGeometry{128, 256, 128}));
  ASSERT_TRUE(steering.last_request().has_value());
  EXPECT_EQ(steering.last_request()->queue_len, 100u);
  EXPECT_FALSE(plan->age_priority_work);

  telemetry::PriorityRequeueAccounting requeued;
  requeued.RecordRequeue(1);
  plan = steering.Plan(last, requeued);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->pressure, QueuePressure::kSaturated);
  EXPECT_TRUE(plan->age_priority_work);
  EXPECT_EQ(steering.geometry(), (BatchGeometry{128, 256, 128}));  // 1 slot
  for (int i = 1; i < 16; ++i) requeued.RecordRequeue(1);
  plan = steering.Plan(last, requeued);  // 16 of 128 slots
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(steering.geometry(), (BatchGeometry{128, 128, 128}));
}

TEST(LaunchSteeringTest, PolicyErrorsKeepTheGeometry) {
  LaunchLimits limits = Lavapipe();
  limits.resident_device_bytes = 100;
  limits.device_memory_budget_bytes = 101;  // no room for the hit scratch
  LaunchSteering steering(limits, {64, 256, 64});
  WireBytes wire(1);
  const telemetry::RingTelemetry last =
      telemetry::RingTelemetry::Decode(wire.View().control, wire.View().ring);
  absl::StatusOr<MegakernelLaunchRecommendation> plan = steering.Plan(last, {});
  EXPECT_EQ(plan.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(steering.geometry(), (BatchGeometry{64, 256, 64}));
}

}  // namespace
}  // namespace ringfuzz

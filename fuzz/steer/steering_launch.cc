#include "fuzz/steer/steering_launch.h"

#include <algorithm>

namespace ringfuzz {

telemetry::MegakernelLaunchRequest LaunchRequest(
    const BatchGeometry& geometry, const LaunchLimits& limits,
    const telemetry::PriorityRequeueAccounting& accounting) {
  telemetry::MegakernelLaunchRequest request;
  request.queue_len = geometry.slots;
  request.max_workgroup_size_x = limits.max_workgroup_size_x;
  request.max_workgroups_per_dimension = limits.max_workgroups_per_dimension;
  request.max_invocations_per_workgroup = limits.max_invocations_per_workgroup;
  request.requeue_count = accounting.requeue_count;
  request.max_priority_age = accounting.max_priority_age;
  request.resident_device_bytes = limits.resident_device_bytes;
  request.device_memory_budget_bytes = limits.device_memory_budget_bytes;
  return request;
}

BatchGeometry ApplyRecommendation(
    const telemetry::MegakernelLaunchRecommendation& recommendation,
    const BatchGeometry& current, uint64_t requeued,
    const BatchGeometry& configured, const LaunchLimits& limits) {
  BatchGeometry next = current;
  const uint32_t ring = std::max<uint32_t>(limits.ring_slots, 1);
  next.slots =
      std::clamp<uint32_t>(recommendation.geometry.slot_count, 1, ring);
  const uint64_t groups = uint64_t{recommendation.worker_groups} *
                          recommendation.geometry.workgroup_size_x;
  next.worker_groups = static_cast<uint32_t>(std::clamp<uint64_t>(
      groups, 1, std::max<uint32_t>(limits.max_workgroups_per_dimension, 1)));
  const uint32_t lanes = std::max<uint32_t>(limits.workgroup_size_x, 1);
  const uint32_t ceiling = std::max(configured.execs_per_slot, 1u);
  const uint64_t slots = std::max<uint32_t>(current.slots, 1);
  if (recommendation.pressure == telemetry::QueuePressure::kSaturated &&
      requeued * kShrinkRequeueShare >= slots) {
    next.execs_per_slot =
        std::max(current.execs_per_slot / 2, std::min(lanes, ceiling));
  } else if (requeued * kGrowRequeueShare < slots) {
    next.execs_per_slot = static_cast<uint32_t>(
        std::min<uint64_t>(uint64_t{current.execs_per_slot} * 2, ceiling));
  }
  return next;
}

LaunchSteering::LaunchSteering(const LaunchLimits& limits,
                               const BatchGeometry& configured)
    : limits_(limits), configured_(configured), geometry_(configured) {}

absl::StatusOr<telemetry::MegakernelLaunchRecommendation> LaunchSteering::Plan(
    const telemetry::RingTelemetry& last,
    const telemetry::PriorityRequeueAccounting& accounting) {
  const telemetry::MegakernelLaunchRequest request =
      last.PrefillLaunchRequest(LaunchRequest(geometry_, limits_, accounting));
  last_request_ = request;
  std::optional<telemetry::DispatchTopology> previous;
  if (last_recommendation_) previous = last_recommendation_->topology;
  absl::StatusOr<telemetry::MegakernelLaunchRecommendation> recommendation =
      telemetry::RecommendLaunch(request, previous);
  if (!recommendation.ok()) return recommendation.status();
  last_recommendation_ = *recommendation;
  geometry_ =
      ApplyRecommendation(*recommendation, geometry_, accounting.requeue_count,
                          configured_, limits_);
  return recommendation;
}

}  // namespace ringfuzz

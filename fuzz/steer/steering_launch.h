// Launch steering: the launch policy (telemetry::RecommendLaunch) decides the
// geometry of the next epoch.
//
// ringfuzz's megakernel claims a ring slot per workgroup: all the lanes of a
// workgroup run mutants of the same slot. The policy plans one lane per
// queued slot; in ringfuzz the claimer of a slot is a workgroup, so a lane of
// the policy is a workgroup of ringfuzz. The mapping, both ways:
//
//   request.queue_len        <- ring slots (work items) of the next batch
//   request adapter limits   <- the executor's device (LaunchLimits)
//   request.requeue_count,
//   request.max_priority_age <- the priority accounting (PriorityAging)
//   request resident/budget  <- the executor's buffers / device memory
//   (and, from the last snapshot: frontier density, hot opcodes and windows,
//   REQUEUE slots; RingTelemetry::PrefillLaunchRequest)
//
//   ring slots per batch     <- geometry.slot_count (the queue rounded up to
//                               whole workgroups), at most the ring's slots
//   workgroups per dispatch  <- worker_groups x geometry.workgroup_size_x
//                               (one claimer per planned lane; halved by the
//                               policy under memory pressure), at most the
//                               adapter's groups per dimension
//   mutants per slot         <- halved (not below one per lane of a
//                               workgroup) while the pressure is kSaturated
//                               (work was requeued) and at least 1/8 of the
//                               slots were: smaller slots finish within one
//                               dispatch's loop budget; doubled back, up to
//                               the configured -slot_execs, while fewer than
//                               1/32 are. A few requeued slots are the fault
//                               of a few slow inputs, which smaller slots do
//                               not help, and small slots cost host work per
//                               execution (measured on lavapipe: 64 instead
//                               of 1024 mutants per slot ran bytecode_vm 20%
//                               slower).
//   age_priority_work        -> PriorityAging::Promote
//
// hit_capacity, execution_mode and topology are reported (-telemetry_out),
// not applied: the find queue is sized when the executor is created, and the
// target is always fused into the megakernel. A recommended workgroup width
// other than the compiled one cannot be applied either (it needs a rebuilt
// megakernel); the compiled width stays.
#ifndef RINGFUZZ_FUZZ_STEER_STEERING_LAUNCH_H_
#define RINGFUZZ_FUZZ_STEER_STEERING_LAUNCH_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "fuzz/steer/steering_wire.h"
#include "telemetry/launch_policy.h"
#include "telemetry/priority_accounting.h"
#include "telemetry/ring_telemetry.h"

namespace ringfuzz {

// The shape of the next batch and of its dispatches.
struct BatchGeometry {
  uint32_t slots = 0;           // ring slots (work items) per batch
  uint32_t execs_per_slot = 0;  // mutants requested per slot
  uint32_t worker_groups = 0;   // workgroups per dispatch

  friend bool operator==(const BatchGeometry& a, const BatchGeometry& b) {
    return a.slots == b.slots && a.execs_per_slot == b.execs_per_slot &&
           a.worker_groups == b.worker_groups;
  }
};

// The request for a batch of `geometry.slots` slots on a device with
// `limits`, before the snapshot's prefill.
telemetry::MegakernelLaunchRequest LaunchRequest(
    const BatchGeometry& geometry, const LaunchLimits& limits,
    const telemetry::PriorityRequeueAccounting& accounting);

// The next geometry from `recommendation` (see the file comment):
// `current` is the geometry that ran, with `requeued` of its slots left
// unfinished; `configured` the one the flags asked for (its execs_per_slot
// is the upper bound).
BatchGeometry ApplyRecommendation(
    const telemetry::MegakernelLaunchRecommendation& recommendation,
    const BatchGeometry& current, uint64_t requeued,
    const BatchGeometry& configured, const LaunchLimits& limits);

// Requeued slots, as a share of the batch, at or above which the mutants
// per slot are halved, and below which they grow back.
inline constexpr uint32_t kShrinkRequeueShare = 8;  // 1/8
inline constexpr uint32_t kGrowRequeueShare = 32;   // 1/32

class LaunchSteering {
 public:
  LaunchSteering(const LaunchLimits& limits, const BatchGeometry& configured);

  // Plans the next epoch from `last` (the final snapshot of a batch) and
  // the accounting of that batch; the new geometry is geometry(). On a
  // policy error (e.g. a device memory budget exceeded) the geometry stays.
  absl::StatusOr<telemetry::MegakernelLaunchRecommendation> Plan(
      const telemetry::RingTelemetry& last,
      const telemetry::PriorityRequeueAccounting& accounting);

  const BatchGeometry& geometry() const { return geometry_; }
  // The last request and recommendation (none before the first Plan).
  const std::optional<telemetry::MegakernelLaunchRequest>& last_request()
      const {
    return last_request_;
  }
  const std::optional<telemetry::MegakernelLaunchRecommendation>&
  last_recommendation() const {
    return last_recommendation_;
  }

 private:
  LaunchLimits limits_;
  BatchGeometry configured_;
  BatchGeometry geometry_;
  std::optional<telemetry::MegakernelLaunchRequest> last_request_;
  std::optional<telemetry::MegakernelLaunchRecommendation> last_recommendation_;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_STEER_STEERING_LAUNCH_H_

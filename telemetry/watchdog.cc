#include "telemetry/watchdog.h"

#include <ostream>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace ringfuzz::telemetry {

absl::StatusOr<MegakernelWatchdogSnapshot> ComputeHealth(
    const MegakernelRuntimeCounters& now, uint32_t previous_done_count) {
  if (now.drained_slots < previous_done_count) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "done_count went backwards from %u to %u: a new telemetry epoch (the "
        "megakernel or its control buffer was reset), not negative progress. "
        "Fix: use this snapshot as the new baseline for HealthSince.",
        previous_done_count, now.drained_slots));
  }
  MegakernelWatchdogSnapshot health;
  health.done_delta = now.drained_slots - previous_done_count;
  health.queue_depth = now.queue_depth;
  health.fault_slots = now.fault_slots;
  health.requeue_slots = now.requeue_slots;
  health.gpu_idle_ppm = now.gpu_idle_ppm;
  health.suspected_stall =
      now.queue_depth > 0 && health.done_delta == 0 && now.fault_slots == 0;
  return health;
}

bool operator==(const MegakernelWatchdogSnapshot& a,
                const MegakernelWatchdogSnapshot& b) {
  return a.done_delta == b.done_delta && a.queue_depth == b.queue_depth &&
         a.fault_slots == b.fault_slots && a.requeue_slots == b.requeue_slots &&
         a.gpu_idle_ppm == b.gpu_idle_ppm &&
         a.suspected_stall == b.suspected_stall;
}

std::ostream& operator<<(std::ostream& os,
                         const MegakernelWatchdogSnapshot& health) {
  return os << "MegakernelWatchdogSnapshot{done_delta=" << health.done_delta
            << ", queue_depth=" << health.queue_depth
            << ", fault_slots=" << health.fault_slots
            << ", requeue_slots=" << health.requeue_slots
            << ", gpu_idle_ppm=" << health.gpu_idle_ppm
            << ", suspected_stall=" << health.suspected_stall << "}";
}

}  // namespace ringfuzz::telemetry

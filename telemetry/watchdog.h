// Health of the persistent megakernel from two snapshots: is it still
// draining work? No clock and no device access: the caller picks the
// interval between the snapshots.
#ifndef RINGFUZZ_TELEMETRY_WATCHDOG_H_
#define RINGFUZZ_TELEMETRY_WATCHDOG_H_

#include <cstdint>
#include <ostream>

#include "absl/status/statusor.h"
#include "telemetry/runtime_counters.h"

namespace ringfuzz::telemetry {

struct MegakernelWatchdogSnapshot {
  uint32_t done_delta = 0;  // slots drained between the two snapshots
  uint64_t queue_depth = 0;
  uint32_t fault_slots = 0;
  uint32_t requeue_slots = 0;
  uint32_t gpu_idle_ppm = 0;
  // Work is queued, nothing drained and nothing faulted: the kernel may be
  // hung (or the interval was too short to drain a slot).
  bool suspected_stall = false;

  friend bool operator==(const MegakernelWatchdogSnapshot& a,
                         const MegakernelWatchdogSnapshot& b);
  friend bool operator!=(const MegakernelWatchdogSnapshot& a,
                         const MegakernelWatchdogSnapshot& b) {
    return !(a == b);
  }
};
std::ostream& operator<<(std::ostream& os,
                         const MegakernelWatchdogSnapshot& health);

// The health of `now` relative to a snapshot whose done_count was
// `previous_done_count`. The result is a StatusOr (the original API returned
// a plain struct and clamped the delta at 0) because a done_count that went
// backwards means the counters were reset (a new megakernel or control
// buffer: a new telemetry epoch), and a clamped 0 would read as a stall.
// Then FailedPrecondition: take a new baseline snapshot. A u32 wrap of
// done_count reads the same way, which re-baselines just as well.
absl::StatusOr<MegakernelWatchdogSnapshot> ComputeHealth(
    const MegakernelRuntimeCounters& now, uint32_t previous_done_count);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_WATCHDOG_H_

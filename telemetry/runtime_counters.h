// One cheap aggregate of a snapshot for dashboards, per-epoch logs and the
// launch policy.
#ifndef RINGFUZZ_TELEMETRY_RUNTIME_COUNTERS_H_
#define RINGFUZZ_TELEMETRY_RUNTIME_COUNTERS_H_

#include <cstdint>
#include <ostream>

#include "telemetry/control_snapshot.h"
#include "telemetry/ring_occupancy.h"

namespace ringfuzz::telemetry {

// Ratios are integers (ppm = parts per million, bps = basis points, parts
// per 10000), rounded down, and 0 for a ring with no slots.
struct MegakernelRuntimeCounters {
  uint64_t total_slots = 0;
  uint64_t queue_depth = 0;             // RingOccupancy::queue_depth()
  uint32_t gpu_idle_slots = 0;          // EMPTY slots
  uint32_t gpu_idle_ppm = 0;            // empty * 1e6 / total
  uint32_t frontier_density_bps = 0;    // queue_depth * 1e4 / total
  uint32_t occupancy_proxy_bps = 0;     // (total - empty) * 1e4 / total
  uint32_t drained_slots = 0;           // control done_count
  uint32_t unreclaimed_done_slots = 0;  // DONE slots not yet republished
  uint64_t tenant_fairness_total = 0;
  // max - min over the non-zero tenant counters (0 if fewer than two).
  uint32_t tenant_fairness_skew = 0;
  uint64_t priority_fairness_total = 0;
  uint32_t requeue_slots = 0;
  uint32_t fault_slots = 0;

  friend bool operator==(const MegakernelRuntimeCounters& a,
                         const MegakernelRuntimeCounters& b);
  friend bool operator!=(const MegakernelRuntimeCounters& a,
                         const MegakernelRuntimeCounters& b) {
    return !(a == b);
  }
};
std::ostream& operator<<(std::ostream& os,
                         const MegakernelRuntimeCounters& counters);

MegakernelRuntimeCounters ComputeRuntimeCounters(
    const ControlSnapshot& control, const RingOccupancy& occupancy);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_RUNTIME_COUNTERS_H_

#include "telemetry/runtime_counters.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <ostream>

namespace ringfuzz::telemetry {
namespace {

// part * scale / total, rounded down; 0 when total is 0. part <= total, so
// the result is at most `scale`.
uint32_t Ratio(uint64_t part, uint64_t total, uint64_t scale) {
  if (total == 0) return 0;
  // part < 2^33 and scale <= 1e6 < 2^20: the product fits in 64 bits.
  return static_cast<uint32_t>(part * scale / total);
}

uint32_t NonZeroSkew(
    const std::array<uint32_t, RF_CTRL_TENANT_FAIRNESS_COUNT>& counters) {
  uint32_t min = std::numeric_limits<uint32_t>::max();
  uint32_t max = 0;
  for (uint32_t count : counters) {
    if (count == 0) continue;
    min = std::min(min, count);
    max = std::max(max, count);
  }
  return max == 0 ? 0 : max - min;
}

}  // namespace

MegakernelRuntimeCounters ComputeRuntimeCounters(
    const ControlSnapshot& control, const RingOccupancy& occupancy) {
  MegakernelRuntimeCounters counters;
  counters.total_slots = occupancy.total_slots();
  counters.queue_depth = occupancy.queue_depth();
  counters.gpu_idle_slots = occupancy.empty;
  counters.gpu_idle_ppm =
      Ratio(occupancy.empty, counters.total_slots, 1'000'000);
  counters.frontier_density_bps =
      Ratio(counters.queue_depth, counters.total_slots, 10'000);
  counters.occupancy_proxy_bps = Ratio(counters.total_slots - occupancy.empty,
                                       counters.total_slots, 10'000);
  counters.drained_slots = control.done_count;
  counters.unreclaimed_done_slots = occupancy.done;
  for (uint32_t count : control.tenant_fairness) {
    counters.tenant_fairness_total += count;
  }
  counters.tenant_fairness_skew = NonZeroSkew(control.tenant_fairness);
  for (uint32_t count : control.priority_fairness) {
    counters.priority_fairness_total += count;
  }
  counters.requeue_slots = occupancy.requeue;
  counters.fault_slots = occupancy.fault;
  return counters;
}

bool operator==(const MegakernelRuntimeCounters& a,
                const MegakernelRuntimeCounters& b) {
  return a.total_slots == b.total_slots && a.queue_depth == b.queue_depth &&
         a.gpu_idle_slots == b.gpu_idle_slots &&
         a.gpu_idle_ppm == b.gpu_idle_ppm &&
         a.frontier_density_bps == b.frontier_density_bps &&
         a.occupancy_proxy_bps == b.occupancy_proxy_bps &&
         a.drained_slots == b.drained_slots &&
         a.unreclaimed_done_slots == b.unreclaimed_done_slots &&
         a.tenant_fairness_total == b.tenant_fairness_total &&
         a.tenant_fairness_skew == b.tenant_fairness_skew &&
         a.priority_fairness_total == b.priority_fairness_total &&
         a.requeue_slots == b.requeue_slots && a.fault_slots == b.fault_slots;
}

std::ostream& operator<<(std::ostream& os,
                         const MegakernelRuntimeCounters& counters) {
  return os << "MegakernelRuntimeCounters{total_slots=" << counters.total_slots
            << ", queue_depth=" << counters.queue_depth
            << ", gpu_idle_slots=" << counters.gpu_idle_slots
            << ", gpu_idle_ppm=" << counters.gpu_idle_ppm
            << ", frontier_density_bps=" << counters.frontier_density_bps
            << ", occupancy_proxy_bps=" << counters.occupancy_proxy_bps
            << ", drained_slots=" << counters.drained_slots
            << ", unreclaimed_done_slots=" << counters.unreclaimed_done_slots
            << ", tenant_fairness_total=" << counters.tenant_fairness_total
            << ", tenant_fairness_skew=" << counters.tenant_fairness_skew
            << ", priority_fairness_total=" << counters.priority_fairness_total
            << ", requeue_slots=" << counters.requeue_slots
            << ", fault_slots=" << counters.fault_slots << "}";
}

}  // namespace ringfuzz::telemetry

// The decoded view of the control buffer's telemetry words (0..159).
#ifndef RINGFUZZ_TELEMETRY_CONTROL_SNAPSHOT_H_
#define RINGFUZZ_TELEMETRY_CONTROL_SNAPSHOT_H_

#include <array>
#include <cstdint>
#include <ostream>

#include "absl/container/inlined_vector.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz::telemetry {

// One non-zero dispatch counter: `count` executed slots of `opcode`.
struct DispatchMetric {
  uint32_t opcode = 0;
  uint32_t count = 0;

  friend bool operator==(const DispatchMetric& a, const DispatchMetric& b) {
    return a.opcode == b.opcode && a.count == b.count;
  }
  friend bool operator!=(const DispatchMetric& a, const DispatchMetric& b) {
    return !(a == b);
  }
};
std::ostream& operator<<(std::ostream& os, const DispatchMetric& metric);

// What the control buffer says about the whole run. Fixed-size members keep
// decoding allocation-free: metrics holds at most RF_CTRL_DISPATCH_COUNT
// entries inline.
struct ControlSnapshot {
  bool shutdown = false;    // word SHUTDOWN != 0
  uint32_t done_count = 0;  // slots the GPU has drained, ever
  uint32_t epoch = 0;
  // The non-zero dispatch counters, ascending opcode.
  absl::InlinedVector<DispatchMetric, RF_CTRL_DISPATCH_COUNT> metrics;
  // Claims per tenant (index = tenant mod RF_CTRL_TENANT_FAIRNESS_COUNT).
  std::array<uint32_t, RF_CTRL_TENANT_FAIRNESS_COUNT> tenant_fairness{};
  // Claims per priority, CRITICAL first.
  std::array<uint32_t, RF_CTRL_PRIORITY_COUNT> priority_fairness{};

  friend bool operator==(const ControlSnapshot& a, const ControlSnapshot& b) {
    return a.shutdown == b.shutdown && a.done_count == b.done_count &&
           a.epoch == b.epoch && a.metrics == b.metrics &&
           a.tenant_fairness == b.tenant_fairness &&
           a.priority_fairness == b.priority_fairness;
  }
  friend bool operator!=(const ControlSnapshot& a, const ControlSnapshot& b) {
    return !(a == b);
  }
};
std::ostream& operator<<(std::ostream& os, const ControlSnapshot& control);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_CONTROL_SNAPSHOT_H_

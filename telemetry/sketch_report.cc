#include "telemetry/sketch_report.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ringfuzz::telemetry {
namespace {

template <typename KeyOf>
std::vector<uint32_t> DistinctKeys(const std::vector<RingSlotSnapshot>& slots,
                                   KeyOf key_of) {
  std::vector<uint32_t> keys;
  keys.reserve(slots.size());
  for (const RingSlotSnapshot& slot : slots) keys.push_back(key_of(slot));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

}  // namespace

SketchReport ReportSketch(const SketchTelemetry& sketch,
                          const RingTelemetry& telemetry, size_t limit) {
  SketchReport report;
  report.depth = sketch.ring_opcode.depth();
  report.width = sketch.ring_opcode.width();
  report.total_slots = sketch.total_slots;
  report.active_slots = sketch.active_slots;
  const std::vector<uint32_t> opcodes = DistinctKeys(
      telemetry.slots, [](const RingSlotSnapshot& s) { return s.opcode; });
  const std::vector<uint32_t> tenants = DistinctKeys(
      telemetry.slots, [](const RingSlotSnapshot& s) { return s.tenant; });
  const std::vector<uint32_t> statuses =
      DistinctKeys(telemetry.slots,
                   [](const RingSlotSnapshot& s) { return s.status.raw(); });
  std::vector<uint32_t> dispatched;
  for (const DispatchMetric& metric : telemetry.control.metrics) {
    dispatched.push_back(metric.opcode);
  }
  report.ring_opcode = TopEstimates(sketch.ring_opcode, opcodes, limit);
  report.active_opcode = TopEstimates(sketch.active_opcode, opcodes, limit);
  report.tenant = TopEstimates(sketch.tenant, tenants, limit);
  report.status = TopEstimates(sketch.status, statuses, limit);
  report.dispatch_metrics =
      TopEstimates(sketch.dispatch_metrics, dispatched, limit);
  return report;
}

}  // namespace ringfuzz::telemetry

// The heaviest keys of a snapshot's sketches, for logs and exports.
#ifndef RINGFUZZ_TELEMETRY_SKETCH_REPORT_H_
#define RINGFUZZ_TELEMETRY_SKETCH_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "telemetry/ring_telemetry.h"
#include "telemetry/sketch_telemetry.h"

namespace ringfuzz::telemetry {

// Each list holds the top entries of one sketch of SketchTelemetry (same
// names), largest estimate first.
struct SketchReport {
  size_t depth = 0;
  size_t width = 0;
  uint64_t total_slots = 0;
  uint64_t active_slots = 0;
  std::vector<SketchEntry> ring_opcode;
  std::vector<SketchEntry> active_opcode;
  std::vector<SketchEntry> tenant;
  std::vector<SketchEntry> status;
  std::vector<SketchEntry> dispatch_metrics;
};

// Up to `limit` entries per sketch of `sketch`. The candidate keys are the
// values present in `telemetry` (its slots' opcodes, tenants and raw
// statuses, its dispatch counters' opcodes), so that `sketch` should be
// telemetry.Sketch(...): a sketch cannot list its own keys.
SketchReport ReportSketch(const SketchTelemetry& sketch,
                          const RingTelemetry& telemetry, size_t limit);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_SKETCH_REPORT_H_

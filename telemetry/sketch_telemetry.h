// Count-min sketches of one telemetry snapshot: the bounded-size shape of
// hot opcodes, active work, tenant and status pressure and dispatch metrics
// that a GPU-resident scheduler can keep in control memory.
#ifndef RINGFUZZ_TELEMETRY_SKETCH_TELEMETRY_H_
#define RINGFUZZ_TELEMETRY_SKETCH_TELEMETRY_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "telemetry/control_snapshot.h"
#include "telemetry/count_min_sketch.h"
#include "telemetry/ring_slot_snapshot.h"

namespace ringfuzz::telemetry {

// All five sketches share one shape.
struct SketchTelemetry {
  CountMinSketch ring_opcode;       // every slot, by opcode
  CountMinSketch active_opcode;     // active slots, by opcode
  CountMinSketch tenant;            // every slot, by tenant
  CountMinSketch status;            // every slot, by raw status word
  CountMinSketch dispatch_metrics;  // dispatch counters, by opcode, weighted
  uint64_t total_slots = 0;
  uint64_t active_slots = 0;

  friend bool operator==(const SketchTelemetry& a, const SketchTelemetry& b);
  friend bool operator!=(const SketchTelemetry& a, const SketchTelemetry& b) {
    return !(a == b);
  }
};
std::ostream& operator<<(std::ostream& os, const SketchTelemetry& sketch);

// Caller-owned storage for repeated sketching: reshaping to the same shape
// zeroes the counters in place instead of allocating.
class SketchTelemetryScratch {
 public:
  SketchTelemetryScratch() = default;

  // The sketches of the last successful BuildSketchInto, or nullptr if
  // there was none or the last one ran out of memory.
  const SketchTelemetry* sketch() const {
    return sketch_.has_value() ? &*sketch_ : nullptr;
  }
  // Moves the sketches out (nullopt if none), leaving the scratch empty.
  std::optional<SketchTelemetry> Take() {
    std::optional<SketchTelemetry> taken = std::move(sketch_);
    sketch_.reset();
    return taken;
  }

 private:
  friend absl::Status BuildSketchInto(absl::Span<const RingSlotSnapshot>,
                                      const ControlSnapshot&, size_t, size_t,
                                      SketchTelemetryScratch&);
  std::optional<SketchTelemetry> sketch_;
};

// Sketches `slots` and `control` into `scratch` with the wire protocol's
// rules: per slot, its opcode, tenant and raw status; per active slot, its
// opcode and one active slot; per non-zero dispatch counter, its opcode
// weighted by the count. InvalidArgument for a zero dimension (scratch
// unchanged); ResourceExhausted if the counters cannot be allocated (scratch
// emptied). Allocates nothing when the scratch already has this shape.
absl::Status BuildSketchInto(absl::Span<const RingSlotSnapshot> slots,
                             const ControlSnapshot& control, size_t depth,
                             size_t width, SketchTelemetryScratch& scratch);

// A key and its sketch estimate.
struct SketchEntry {
  uint32_t key = 0;
  uint64_t estimate = 0;

  friend bool operator==(const SketchEntry& a, const SketchEntry& b) {
    return a.key == b.key && a.estimate == b.estimate;
  }
};

// The `limit` candidate keys with the largest non-zero estimates, largest
// first, ties by ascending key. A sketch cannot list its keys, so the caller
// names the candidates (e.g. the opcodes it schedules); duplicates count once.
std::vector<SketchEntry> TopEstimates(const CountMinSketch& sketch,
                                      absl::Span<const uint32_t> candidates,
                                      size_t limit);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_SKETCH_TELEMETRY_H_

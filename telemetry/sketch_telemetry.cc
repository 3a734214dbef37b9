#include "telemetry/sketch_telemetry.h"

#include <algorithm>
#include <optional>
#include <ostream>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"

namespace ringfuzz::telemetry {
namespace {

// Creates the sketches, or reshapes existing ones in place. Returns
// ResourceExhausted if memory runs out, possibly after reshaping some parts.
absl::Status Shape(std::optional<SketchTelemetry>& sketch, size_t depth,
                   size_t width) {
  if (sketch.has_value()) {
    for (CountMinSketch* part :
         {&sketch->ring_opcode, &sketch->active_opcode, &sketch->tenant,
          &sketch->status, &sketch->dispatch_metrics}) {
      if (absl::Status status = part->Reset(depth, width); !status.ok()) {
        return status;
      }
    }
    sketch->total_slots = 0;
    sketch->active_slots = 0;
    return absl::OkStatus();
  }
  // Five sketches made each from calloc'd counters, not copies of one: a
  // copy writes every counter, a fresh sketch only the pages its events
  // touch.
  std::optional<CountMinSketch> parts[5];
  for (std::optional<CountMinSketch>& part : parts) {
    absl::StatusOr<CountMinSketch> made = CountMinSketch::Create(depth, width);
    if (!made.ok()) return made.status();
    part.emplace(*std::move(made));
  }
  sketch = SketchTelemetry{*std::move(parts[0]),
                           *std::move(parts[1]),
                           *std::move(parts[2]),
                           *std::move(parts[3]),
                           *std::move(parts[4]),
                           0,
                           0};
  return absl::OkStatus();
}

}  // namespace

bool operator==(const SketchTelemetry& a, const SketchTelemetry& b) {
  return a.ring_opcode == b.ring_opcode && a.active_opcode == b.active_opcode &&
         a.tenant == b.tenant && a.status == b.status &&
         a.dispatch_metrics == b.dispatch_metrics &&
         a.total_slots == b.total_slots && a.active_slots == b.active_slots;
}

std::ostream& operator<<(std::ostream& os, const SketchTelemetry& sketch) {
  return os << "SketchTelemetry{ring_opcode=" << sketch.ring_opcode
            << ", active_opcode=" << sketch.active_opcode
            << ", tenant=" << sketch.tenant << ", status=" << sketch.status
            << ", dispatch_metrics=" << sketch.dispatch_metrics
            << ", total_slots=" << sketch.total_slots
            << ", active_slots=" << sketch.active_slots << "}";
}

absl::Status BuildSketchInto(absl::Span<const RingSlotSnapshot> slots,
                             const ControlSnapshot& control, size_t depth,
                             size_t width, SketchTelemetryScratch& scratch) {
  if (depth == 0 || width == 0) {
    return CountMinSketch::Create(depth, width).status();  // names the fix
  }
  if (absl::Status status = Shape(scratch.sketch_, depth, width);
      !status.ok()) {
    scratch.sketch_.reset();  // some parts may have been reshaped already
    return status;
  }
  SketchTelemetry& sketch = *scratch.sketch_;
  // Counts are bounded by the slot count and by 32 u32 counters, far below
  // 2^64, so the saturating Add never saturates here.
  for (const RingSlotSnapshot& slot : slots) {
    sketch.ring_opcode.Add(slot.opcode);
    sketch.tenant.Add(slot.tenant);
    sketch.status.Add(slot.status.raw());
    if (slot.status.IsActive()) {
      sketch.active_opcode.Add(slot.opcode);
      ++sketch.active_slots;
    }
  }
  for (const DispatchMetric& metric : control.metrics) {
    sketch.dispatch_metrics.Add(metric.opcode, metric.count);
  }
  sketch.total_slots = slots.size();
  return absl::OkStatus();
}

std::vector<SketchEntry> TopEstimates(const CountMinSketch& sketch,
                                      absl::Span<const uint32_t> candidates,
                                      size_t limit) {
  std::vector<SketchEntry> entries;
  entries.reserve(candidates.size());
  for (uint32_t key : candidates) {
    const uint64_t estimate = sketch.Estimate(key);
    if (estimate != 0) entries.push_back({key, estimate});
  }
  std::sort(
      entries.begin(), entries.end(),
      [](const SketchEntry& a, const SketchEntry& b) { return a.key < b.key; });
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  std::sort(entries.begin(), entries.end(),
            [](const SketchEntry& a, const SketchEntry& b) {
              if (a.estimate != b.estimate) return a.estimate > b.estimate;
              return a.key < b.key;
            });
  if (entries.size() > limit) entries.resize(limit);
  return entries;
}

}  // namespace ringfuzz::telemetry

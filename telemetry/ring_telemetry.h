// RingTelemetry: one decoded snapshot of the megakernel's control and ring
// buffers, with the queries and derived views the host needs (sketches,
// runtime counters, watchdog, priority accounting, launch policy).
//
// Decoding comes in two flavours (wire-protocol.md, "Decoding"):
//  - strict (Try...): validates both buffers first and returns
//    InvalidArgument, with the fix in the message, before touching any
//    output; ResourceExhausted if memory runs out (output unchanged);
//  - lenient (Decode...): never fails and never crashes; a buffer the strict
//    form would reject (or a failed allocation) gives an empty snapshot,
//    equal to RingTelemetry{}. No partial guesses from a truncated buffer:
//    a half-read ring would look like a real, idle one.
// The ...Into forms reuse `out` and `scratch` and allocate nothing once
// their buffers have grown to the ring's size.
#ifndef RINGFUZZ_TELEMETRY_RING_TELEMETRY_H_
#define RINGFUZZ_TELEMETRY_RING_TELEMETRY_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "telemetry/control_snapshot.h"
#include "telemetry/filtered_range.h"
#include "telemetry/launch_policy.h"
#include "telemetry/priority_accounting.h"
#include "telemetry/ring_occupancy.h"
#include "telemetry/ring_slot_snapshot.h"
#include "telemetry/runtime_counters.h"
#include "telemetry/sketch_telemetry.h"
#include "telemetry/telemetry_decode_scratch.h"
#include "telemetry/watchdog.h"
#include "telemetry/window_telemetry.h"

namespace ringfuzz::telemetry {

// Predicates of the query ranges below.
struct ActiveSlotWithOpcode {
  uint32_t opcode = 0;
  bool operator()(const RingSlotSnapshot& slot) const {
    return slot.opcode == opcode && slot.status.IsActive();
  }
};
struct ActiveWindow {
  bool operator()(const WindowTelemetry& window) const {
    return window.IsActive();
  }
};
using ActiveSlotRange = FilteredRange<RingSlotSnapshot, ActiveSlotWithOpcode>;
using ActiveWindowRange = FilteredRange<WindowTelemetry, ActiveWindow>;

struct RingTelemetry {
  using Bytes = absl::Span<const uint8_t>;

  ControlSnapshot control;
  RingOccupancy occupancy;
  std::vector<RingSlotSnapshot> slots;  // every slot, in ring order
  // The windows of the window opcodes given to the decoder, sorted by
  // (ticket, opcode); empty when none were given.
  std::vector<WindowTelemetry> windows;

  // --- Decoding (see the file comment for strict vs lenient). ---
  static RingTelemetry Decode(Bytes control, Bytes ring);
  static absl::StatusOr<RingTelemetry> TryDecode(Bytes control, Bytes ring);
  // As Decode, also grouping the slots whose opcode is in `window_opcodes`
  // (any order, duplicates ignored) into windows.
  static RingTelemetry DecodeWithWindowOpcodes(
      Bytes control, Bytes ring, absl::Span<const uint32_t> window_opcodes);
  static void DecodeWithWindowOpcodesInto(
      Bytes control, Bytes ring, absl::Span<const uint32_t> window_opcodes,
      RingTelemetry& out, TelemetryDecodeScratch& scratch);
  static absl::StatusOr<RingTelemetry> TryDecodeWithWindowOpcodes(
      Bytes control, Bytes ring, absl::Span<const uint32_t> window_opcodes);
  // On error `out` is unchanged (its capacity may have grown).
  static absl::Status TryDecodeWithWindowOpcodesInto(
      Bytes control, Bytes ring, absl::Span<const uint32_t> window_opcodes,
      RingTelemetry& out, TelemetryDecodeScratch& scratch);

  // --- Queries. Pointers point into `slots` / `windows`: valid until this
  // snapshot changes. Plain forms let std::bad_alloc escape like any
  // container; Try forms return ResourceExhausted instead (out unchanged
  // for the Into form). Into forms replace the contents of `out` and do not
  // allocate once out has the capacity. ---

  // Active slots (see SlotStatus::IsActive) running `opcode`, in ring order.
  std::vector<const RingSlotSnapshot*> ActiveSlotsForOpcode(
      uint32_t opcode) const;
  absl::StatusOr<std::vector<const RingSlotSnapshot*>> TryActiveSlotsForOpcode(
      uint32_t opcode) const;
  // The same slots as a lazy range: no allocation.
  ActiveSlotRange ActiveSlotsForOpcodeRange(uint32_t opcode) const {
    return ActiveSlotRange(slots, ActiveSlotWithOpcode{opcode});
  }
  void ActiveSlotsForOpcodeInto(
      uint32_t opcode, std::vector<const RingSlotSnapshot*>& out) const;
  absl::Status TryActiveSlotsForOpcodeInto(
      uint32_t opcode, std::vector<const RingSlotSnapshot*>& out) const;

  // Windows with unfinished work (WindowTelemetry::IsActive), in order.
  std::vector<const WindowTelemetry*> ActiveWindows() const;
  absl::StatusOr<std::vector<const WindowTelemetry*>> TryActiveWindows() const;
  ActiveWindowRange ActiveWindowsRange() const {
    return ActiveWindowRange(windows, ActiveWindow{});
  }
  void ActiveWindowsInto(std::vector<const WindowTelemetry*>& out) const;
  absl::Status TryActiveWindowsInto(
      std::vector<const WindowTelemetry*>& out) const;

  // --- Derived views. ---

  // Count-min sketches of this snapshot (see BuildSketchInto).
  // InvalidArgument for a zero dimension.
  absl::StatusOr<SketchTelemetry> Sketch(size_t depth, size_t width) const;
  absl::Status SketchInto(size_t depth, size_t width,
                          SketchTelemetryScratch& scratch) const;

  // requeue_count = REQUEUE slots; the snapshot cannot know aging events.
  PriorityRequeueAccounting PriorityAccounting() const;

  MegakernelRuntimeCounters RuntimeCounters() const;

  // Health since `previous` (see ComputeHealth): FailedPrecondition when
  // done_count went backwards (a new telemetry epoch).
  absl::StatusOr<MegakernelWatchdogSnapshot> HealthSince(
      const RingTelemetry& previous) const;

  // `request` with what this snapshot knows filled in: graph_node_count <-
  // total slots if 0; graph_edge_count <- queue depth if 0;
  // frontier_density_bps <- RuntimeCounters().frontier_density_bps if 0;
  // hot_opcode_count <- number of non-zero dispatch counters and
  // hot_window_count <- windows with required + lookahead >=
  // kHotWindowSlots (both replaced: the snapshot is what is hot now);
  // requeue_count += REQUEUE slots (saturating).
  MegakernelLaunchRequest PrefillLaunchRequest(
      MegakernelLaunchRequest request) const;
  // RecommendLaunch(PrefillLaunchRequest(request), previous_topology).
  absl::StatusOr<MegakernelLaunchRecommendation> RecommendLaunch(
      const MegakernelLaunchRequest& request,
      std::optional<DispatchTopology> previous_topology = std::nullopt) const;

  friend bool operator==(const RingTelemetry& a, const RingTelemetry& b) {
    return a.control == b.control && a.occupancy == b.occupancy &&
           a.slots == b.slots && a.windows == b.windows;
  }
  friend bool operator!=(const RingTelemetry& a, const RingTelemetry& b) {
    return !(a == b);
  }
};
std::ostream& operator<<(std::ostream& os, const RingTelemetry& telemetry);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_RING_TELEMETRY_H_

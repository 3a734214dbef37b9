#include "telemetry/ring_telemetry.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "telemetry/wire_decode.h"

namespace ringfuzz::telemetry {
namespace {

// Runs `fn`, turning the exceptions a container throws when memory runs out
// into ResourceExhausted.
template <typename Fn>
absl::Status CatchAllocationFailure(absl::string_view what, Fn&& fn) {
  try {
    std::forward<Fn>(fn)();
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError(
        absl::StrCat("out of memory while ", what,
                     ". Fix: free memory, or decode and query smaller rings."));
  } catch (const std::length_error&) {
    return absl::ResourceExhaustedError(
        absl::StrCat("a container grew past its maximum size while ", what,
                     ". Fix: decode and query smaller rings."));
  }
  return absl::OkStatus();
}

// Decodes validated buffers into `out`. Everything that can throw (scratch
// growth, out's reservations) happens before out's contents change, so a
// std::bad_alloc leaves out as it was.
void DecodeValidated(absl::Span<const uint8_t> control,
                     absl::Span<const uint8_t> ring,
                     absl::Span<const uint32_t> window_opcodes,
                     RingTelemetry& out, TelemetryDecodeScratch& scratch) {
  scratch.SetWindowOpcodes(window_opcodes);
  const size_t window_count = scratch.GroupWindows(ring);
  const size_t slot_count = SlotCount(ring);
  out.slots.reserve(slot_count);
  out.windows.reserve(window_count);
  // Nothing below allocates.
  DecodeControlInto(control, out.control);
  out.occupancy = RingOccupancy{};
  out.slots.resize(slot_count);
  for (size_t i = 0; i < slot_count; ++i) {
    RingSlotSnapshot& slot = out.slots[i];
    DecodeSlotInto(ring, static_cast<uint32_t>(i), slot);
    out.occupancy.Count(slot.status);
  }
  scratch.CopyWindowsTo(out.windows);
}

// Makes `out` equal to RingTelemetry{} while keeping its capacity.
void ResetToEmpty(RingTelemetry& out) {
  out.control = ControlSnapshot{};
  out.occupancy = RingOccupancy{};
  out.slots.clear();
  out.windows.clear();
}

// Replaces `out` with pointers to the elements of `range`; reserves before
// clearing so that a failed allocation leaves `out` unchanged.
template <typename Range, typename T>
void CollectInto(const Range& range, std::vector<const T*>& out) {
  out.reserve(range.size());
  out.clear();
  for (const T& item : range) out.push_back(&item);
}

uint32_t SaturateU32(uint64_t value) {
  return static_cast<uint32_t>(
      std::min<uint64_t>(value, std::numeric_limits<uint32_t>::max()));
}

}  // namespace

RingTelemetry RingTelemetry::Decode(Bytes control, Bytes ring) {
  return DecodeWithWindowOpcodes(control, ring, {});
}

absl::StatusOr<RingTelemetry> RingTelemetry::TryDecode(Bytes control,
                                                       Bytes ring) {
  return TryDecodeWithWindowOpcodes(control, ring, {});
}

RingTelemetry RingTelemetry::DecodeWithWindowOpcodes(
    Bytes control, Bytes ring, absl::Span<const uint32_t> window_opcodes) {
  RingTelemetry out;
  TelemetryDecodeScratch scratch;
  DecodeWithWindowOpcodesInto(control, ring, window_opcodes, out, scratch);
  return out;
}

void RingTelemetry::DecodeWithWindowOpcodesInto(
    Bytes control, Bytes ring, absl::Span<const uint32_t> window_opcodes,
    RingTelemetry& out, TelemetryDecodeScratch& scratch) {
  if (!TryDecodeWithWindowOpcodesInto(control, ring, window_opcodes, out,
                                      scratch)
           .ok()) {
    ResetToEmpty(out);
  }
}

absl::StatusOr<RingTelemetry> RingTelemetry::TryDecodeWithWindowOpcodes(
    Bytes control, Bytes ring, absl::Span<const uint32_t> window_opcodes) {
  RingTelemetry out;
  TelemetryDecodeScratch scratch;
  if (absl::Status status = TryDecodeWithWindowOpcodesInto(
          control, ring, window_opcodes, out, scratch);
      !status.ok()) {
    return status;
  }
  return out;
}

absl::Status RingTelemetry::TryDecodeWithWindowOpcodesInto(
    Bytes control, Bytes ring, absl::Span<const uint32_t> window_opcodes,
    RingTelemetry& out, TelemetryDecodeScratch& scratch) {
  if (absl::Status status = ValidateTelemetryBuffers(control, ring);
      !status.ok()) {
    return status;
  }
  return CatchAllocationFailure("decoding ring telemetry", [&] {
    DecodeValidated(control, ring, window_opcodes, out, scratch);
  });
}

std::vector<const RingSlotSnapshot*> RingTelemetry::ActiveSlotsForOpcode(
    uint32_t opcode) const {
  std::vector<const RingSlotSnapshot*> out;
  ActiveSlotsForOpcodeInto(opcode, out);
  return out;
}

absl::StatusOr<std::vector<const RingSlotSnapshot*>>
RingTelemetry::TryActiveSlotsForOpcode(uint32_t opcode) const {
  std::vector<const RingSlotSnapshot*> out;
  if (absl::Status status = TryActiveSlotsForOpcodeInto(opcode, out);
      !status.ok()) {
    return status;
  }
  return out;
}

void RingTelemetry::ActiveSlotsForOpcodeInto(
    uint32_t opcode, std::vector<const RingSlotSnapshot*>& out) const {
  CollectInto(ActiveSlotsForOpcodeRange(opcode), out);
}

absl::Status RingTelemetry::TryActiveSlotsForOpcodeInto(
    uint32_t opcode, std::vector<const RingSlotSnapshot*>& out) const {
  return CatchAllocationFailure("listing active slots",
                                [&] { ActiveSlotsForOpcodeInto(opcode, out); });
}

std::vector<const WindowTelemetry*> RingTelemetry::ActiveWindows() const {
  std::vector<const WindowTelemetry*> out;
  ActiveWindowsInto(out);
  return out;
}

absl::StatusOr<std::vector<const WindowTelemetry*>>
RingTelemetry::TryActiveWindows() const {
  std::vector<const WindowTelemetry*> out;
  if (absl::Status status = TryActiveWindowsInto(out); !status.ok()) {
    return status;
  }
  return out;
}

void RingTelemetry::ActiveWindowsInto(
    std::vector<const WindowTelemetry*>& out) const {
  CollectInto(ActiveWindowsRange(), out);
}

absl::Status RingTelemetry::TryActiveWindowsInto(
    std::vector<const WindowTelemetry*>& out) const {
  return CatchAllocationFailure("listing active windows",
                                [&] { ActiveWindowsInto(out); });
}

absl::StatusOr<SketchTelemetry> RingTelemetry::Sketch(size_t depth,
                                                      size_t width) const {
  SketchTelemetryScratch scratch;
  if (absl::Status status = SketchInto(depth, width, scratch); !status.ok()) {
    return status;
  }
  return *scratch.Take();
}

absl::Status RingTelemetry::SketchInto(size_t depth, size_t width,
                                       SketchTelemetryScratch& scratch) const {
  return BuildSketchInto(slots, control, depth, width, scratch);
}

PriorityRequeueAccounting RingTelemetry::PriorityAccounting() const {
  PriorityRequeueAccounting accounting;
  accounting.requeue_count = occupancy.requeue;
  return accounting;
}

MegakernelRuntimeCounters RingTelemetry::RuntimeCounters() const {
  return ComputeRuntimeCounters(control, occupancy);
}

absl::StatusOr<MegakernelWatchdogSnapshot> RingTelemetry::HealthSince(
    const RingTelemetry& previous) const {
  return ComputeHealth(RuntimeCounters(), previous.control.done_count);
}

MegakernelLaunchRequest RingTelemetry::PrefillLaunchRequest(
    MegakernelLaunchRequest request) const {
  const MegakernelRuntimeCounters counters = RuntimeCounters();
  if (request.graph_node_count == 0) {
    request.graph_node_count = SaturateU32(counters.total_slots);
  }
  if (request.graph_edge_count == 0) {
    request.graph_edge_count = SaturateU32(counters.queue_depth);
  }
  if (request.frontier_density_bps == 0) {
    request.frontier_density_bps = counters.frontier_density_bps;
  }
  request.hot_opcode_count = static_cast<uint32_t>(control.metrics.size());
  request.hot_window_count = static_cast<uint32_t>(std::count_if(
      windows.begin(), windows.end(), [](const WindowTelemetry& window) {
        return uint64_t{window.required_slots} + window.lookahead_slots >=
               kHotWindowSlots;
      }));
  const uint64_t requeued = occupancy.requeue;
  request.requeue_count =
      request.requeue_count > std::numeric_limits<uint64_t>::max() - requeued
          ? std::numeric_limits<uint64_t>::max()
          : request.requeue_count + requeued;
  return request;
}

absl::StatusOr<MegakernelLaunchRecommendation> RingTelemetry::RecommendLaunch(
    const MegakernelLaunchRequest& request,
    std::optional<DispatchTopology> previous_topology) const {
  return telemetry::RecommendLaunch(PrefillLaunchRequest(request),
                                    previous_topology);
}

std::ostream& operator<<(std::ostream& os, const RingTelemetry& telemetry) {
  os << "RingTelemetry{control=" << telemetry.control
     << ", occupancy=" << telemetry.occupancy << ", slots=[";
  const char* sep = "";
  for (const RingSlotSnapshot& slot : telemetry.slots) {
    os << sep << slot;
    sep = ", ";
  }
  os << "], windows=[";
  sep = "";
  for (const WindowTelemetry& window : telemetry.windows) {
    os << sep << window;
    sep = ", ";
  }
  return os << "]}";
}

}  // namespace ringfuzz::telemetry

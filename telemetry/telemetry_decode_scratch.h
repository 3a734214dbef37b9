// Caller-owned storage for grouping ring slots into ticketed windows.
#ifndef RINGFUZZ_TELEMETRY_TELEMETRY_DECODE_SCRATCH_H_
#define RINGFUZZ_TELEMETRY_TELEMETRY_DECODE_SCRATCH_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "telemetry/window_telemetry.h"

namespace ringfuzz::telemetry {

// Reused across decodes so that decoding into a reused RingTelemetry
// allocates nothing once these buffers have grown. It carries no meaning
// from one decode to the next: any scratch, fresh or used, gives the same
// result. Windows are found with an open-addressing table of (ticket,
// opcode) that lives here (a node-based or abseil map would allocate or
// shrink on clear); then 16-byte keys are sorted rather than the windows.
class TelemetryDecodeScratch {
 public:
  TelemetryDecodeScratch() = default;

  // Remembers `opcodes` as the window opcodes; their order and duplicates do
  // not matter. May allocate.
  void SetWindowOpcodes(absl::Span<const uint32_t> opcodes);

  // Groups the slots of a validated `ring` whose opcode is a window opcode
  // into windows (wire-protocol.md, "Windows"), sorted by (ticket, opcode),
  // and returns how many there are. May allocate; touches nothing but this
  // scratch.
  size_t GroupWindows(absl::Span<const uint8_t> ring);

  // Replaces `out` with the windows of the last GroupWindows, in order.
  // Allocates nothing if out.capacity() is at least their count.
  void CopyWindowsTo(std::vector<WindowTelemetry>& out) const;

 private:
  bool IsWindowOpcode(uint32_t opcode) const;
  // The window of (ticket, opcode), created with `tenant` if new.
  WindowTelemetry& FindOrAdd(uint32_t ticket, uint32_t opcode, uint32_t tenant);
  // Makes the table twice as large and re-inserts every window.
  void Grow();

  std::vector<uint32_t> window_opcodes_;  // sorted, unique
  uint64_t small_window_opcodes_ = 0;     // bit k: opcode k < 64 is one
  struct SortKey {
    uint64_t ticket_opcode;  // ticket << 32 | opcode
    uint32_t window;         // index in windows_
  };

  std::vector<uint32_t> table_;           // window index + 1, or 0 when free
  std::vector<WindowTelemetry> windows_;  // in order of first slot
  std::vector<SortKey> order_;            // windows_ sorted by (ticket, opcode)
};

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_TELEMETRY_DECODE_SCRATCH_H_

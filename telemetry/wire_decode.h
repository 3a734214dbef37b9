// Reading the megakernel's control and ring buffers: the strict validity
// rules and the word-level decoders shared by every decode entry point.
//
// Buffers are exactly the bytes the GPU wrote: little-endian u32 words with
// no alignment promise for the data pointer, so words are assembled from
// bytes (which compilers turn into one load on little-endian hosts).
#ifndef RINGFUZZ_TELEMETRY_WIRE_DECODE_H_
#define RINGFUZZ_TELEMETRY_WIRE_DECODE_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/control_snapshot.h"
#include "telemetry/ring_slot_snapshot.h"

namespace ringfuzz::telemetry {

// Bytes per protocol word: every word of the protocol is a u32.
inline constexpr size_t kWordBytes = sizeof(uint32_t);
static_assert(RF_SLOT_BYTES == RF_SLOT_WORDS * kWordBytes);
static_assert(RF_CTRL_MIN_BYTES == RF_CTRL_MIN_WORDS * kWordBytes);
static_assert(RF_ARG_TICKET < kSlotArgPrefix && RF_ARG_CLASS < kSlotArgPrefix,
              "snapshots must keep the ticketed-window args");

// Returns OK iff the strict decoders accept the pair: control holds at least
// RF_CTRL_MIN_BYTES bytes in whole words, ring holds whole RF_SLOT_BYTES
// slots (zero bytes = zero slots), and the slot count fits a u32. Otherwise
// InvalidArgument whose message gives the sizes and how to fix the call.
absl::Status ValidateTelemetryBuffers(absl::Span<const uint8_t> control,
                                      absl::Span<const uint8_t> ring);

// Whole slots in `ring`; trailing partial slots are not counted.
inline size_t SlotCount(absl::Span<const uint8_t> ring) {
  return ring.size() / RF_SLOT_BYTES;
}

// The little-endian u32 at p[0..3].
inline uint32_t LoadWordLe(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
         uint32_t{p[3]} << 24;
}

// Word `word` of `bytes`. Requires (word + 1) * kWordBytes <= bytes.size().
inline uint32_t LoadWord(absl::Span<const uint8_t> bytes, size_t word) {
  return LoadWordLe(bytes.data() + word * kWordBytes);
}

// Decodes the telemetry words of a validated control buffer into `out`
// (every member is overwritten; metrics' inline storage never allocates).
// Requires control.size() >= RF_CTRL_MIN_BYTES.
void DecodeControlInto(absl::Span<const uint8_t> control, ControlSnapshot& out);

// Decodes slot `index` of a validated ring into `out`.
// Requires index < SlotCount(ring).
inline void DecodeSlotInto(absl::Span<const uint8_t> ring, uint32_t index,
                           RingSlotSnapshot& out) {
  const uint8_t* slot = ring.data() + size_t{index} * RF_SLOT_BYTES;
  out.slot = index;
  out.status =
      SlotStatus::FromRaw(LoadWordLe(slot + RF_SLOT_STATUS * kWordBytes));
  out.opcode = LoadWordLe(slot + RF_SLOT_OPCODE * kWordBytes);
  out.tenant = LoadWordLe(slot + RF_SLOT_TENANT * kWordBytes);
  for (size_t arg = 0; arg < kSlotArgPrefix; ++arg) {
    out.args[arg] = LoadWordLe(slot + (RF_SLOT_ARG0 + arg) * kWordBytes);
  }
}

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_WIRE_DECODE_H_

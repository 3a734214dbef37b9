// Test utilities that lay out control and ring buffers the way the GPU writes
// them (little-endian u32 words), using the layout of shaders/ringfuzz_wire.h.
#ifndef RINGFUZZ_TESTS_TELEMETRY_WIRE_BUILDER_H_
#define RINGFUZZ_TESTS_TELEMETRY_WIRE_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "shaders/ringfuzz_wire.h"

namespace ringfuzz::telemetry::testing {

inline void PutWordLe(std::vector<uint8_t>& bytes, size_t word,
                      uint32_t value) {
  for (size_t i = 0; i < 4; ++i) {
    bytes[word * 4 + i] = static_cast<uint8_t>(value >> (8 * i));
  }
}

// A control buffer of `words` words (RF_CTRL_MIN_WORDS by default), zeroed.
class ControlBuilder {
 public:
  explicit ControlBuilder(size_t words = RF_CTRL_MIN_WORDS)
      : bytes_(words * 4, 0) {}
  ControlBuilder& Set(size_t word, uint32_t value) {
    PutWordLe(bytes_, word, value);
    return *this;
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

// One ring slot's words.
struct SlotWords {
  uint32_t status = RF_STATUS_EMPTY;
  uint32_t opcode = 0;
  uint32_t tenant = 0;
  uint32_t ticket = 0;        // arg0
  uint32_t window_class = 0;  // arg1
  uint32_t arg2 = 0;
  uint32_t priority = RF_PRIORITY_NORMAL;
};

class RingBuilder {
 public:
  RingBuilder& Add(const SlotWords& slot) {
    const size_t base = bytes_.size() / 4;
    bytes_.resize(bytes_.size() + RF_SLOT_BYTES, 0);
    PutWordLe(bytes_, base + RF_SLOT_STATUS, slot.status);
    PutWordLe(bytes_, base + RF_SLOT_OPCODE, slot.opcode);
    PutWordLe(bytes_, base + RF_SLOT_TENANT, slot.tenant);
    PutWordLe(bytes_, base + RF_SLOT_PRIORITY, slot.priority);
    PutWordLe(bytes_, base + RF_SLOT_ARG0 + RF_ARG_TICKET, slot.ticket);
    PutWordLe(bytes_, base + RF_SLOT_ARG0 + RF_ARG_CLASS, slot.window_class);
    PutWordLe(bytes_, base + RF_SLOT_ARG0 + 2, slot.arg2);
    // The words past the snapshot's arg prefix carry a marker, so a decoder
    // reading the wrong word shows up.
    for (uint32_t arg = 3; arg < RF_SLOT_ARG_COUNT; ++arg) {
      PutWordLe(bytes_, base + RF_SLOT_ARG0 + arg, 0xA0A0A000u + arg);
    }
    return *this;
  }
  RingBuilder& AddStatus(uint32_t status, uint32_t opcode = 0) {
    SlotWords slot;
    slot.status = status;
    slot.opcode = opcode;
    return Add(slot);
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

}  // namespace ringfuzz::telemetry::testing

#endif  // RINGFUZZ_TESTS_TELEMETRY_WIRE_BUILDER_H_

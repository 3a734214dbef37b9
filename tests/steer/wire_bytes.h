// Control and ring words for steering unit tests, viewed as WireViews.
#ifndef RINGFUZZ_TESTS_STEER_WIRE_BYTES_H_
#define RINGFUZZ_TESTS_STEER_WIRE_BYTES_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/steer/steering_wire.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

struct WireBytes {
  explicit WireBytes(uint32_t slots)
      : control(RF_CTRL_MIN_WORDS, 0), ring(slots * RF_SLOT_WORDS, 0) {}

  // Sets slot `s` to a work item of `opcode` from `parent` that asked for
  // `count` mutants and ran `execs`.
  void Slot(uint32_t s, uint32_t status, uint32_t opcode = RF_OP_HAVOC,
            uint32_t parent = 0, uint32_t count = 64, uint32_t execs = 0,
            uint32_t tenant = 0) {
    uint32_t* slot = ring.data() + s * RF_SLOT_WORDS;
    slot[RF_SLOT_STATUS] = status;
    slot[RF_SLOT_OPCODE] = opcode;
    slot[RF_SLOT_TENANT] = tenant;
    slot[RF_SLOT_PRIORITY] = RF_PRIORITY_NORMAL;
    slot[RF_SLOT_ARG0 + RF_ARG_PARENT] = parent;
    slot[RF_SLOT_ARG0 + RF_ARG_COUNT] = count;
    slot[RF_SLOT_ARG0 + RF_ARG_EXECS] = execs;
  }

  WireView View(uint32_t push_seed = 0) const {
    WireView view;
    view.control = Bytes(control);
    view.ring = Bytes(ring);
    view.push_seed = push_seed;
    return view;
  }

  static absl::Span<const uint8_t> Bytes(const std::vector<uint32_t>& words) {
    return {reinterpret_cast<const uint8_t*>(words.data()), words.size() * 4};
  }

  std::vector<uint32_t> control;
  std::vector<uint32_t> ring;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_TESTS_STEER_WIRE_BYTES_H_

// One ticketed window: the slots of one (ticket, opcode) pair, which for
// ringfuzz is the batch of mutants scheduled from one parent.
#ifndef RINGFUZZ_TELEMETRY_WINDOW_TELEMETRY_H_
#define RINGFUZZ_TELEMETRY_WINDOW_TELEMETRY_H_

#include <cstdint>
#include <ostream>

namespace ringfuzz::telemetry {

struct WindowTelemetry {
  uint32_t ticket = 0;  // arg0 of its slots
  uint32_t tenant = 0;  // the tenant of its lowest-index slot
  uint32_t opcode = 0;
  uint32_t required_slots = 0;   // slots with class tag RF_CLASS_REQUIRED
  uint32_t lookahead_slots = 0;  // slots with class tag RF_CLASS_LOOKAHEAD
  // Slots per status; EMPTY and unknown slots are members but not counted.
  uint32_t published = 0;
  uint32_t claimed = 0;
  uint32_t done = 0;
  uint32_t wait_io = 0;
  uint32_t yield = 0;
  uint32_t requeue = 0;
  uint32_t fault = 0;

  // Returns true iff some slot of the window still waits for the GPU
  // (published, claimed, wait_io, yield or requeue > 0).
  bool IsActive() const {
    return published > 0 || claimed > 0 || wait_io > 0 || yield > 0 ||
           requeue > 0;
  }

  friend bool operator==(const WindowTelemetry& a, const WindowTelemetry& b);
  friend bool operator!=(const WindowTelemetry& a, const WindowTelemetry& b) {
    return !(a == b);
  }
};
std::ostream& operator<<(std::ostream& os, const WindowTelemetry& window);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_WINDOW_TELEMETRY_H_

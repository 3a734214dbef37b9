// The length of a device clock tick. The clock that executions read
// (GL_EXT_shader_realtime_clock) counts in units that Vulkan leaves to the
// device (nanoseconds on NVIDIA and lavapipe, 10 ns on some others); the
// device's timestamps (vk::Dispatcher::LastInterval) are in nanoseconds.
// Each batch gives one anchor: when its first dispatch began by the
// timestamps, and the tick at which its first slot was claimed. The rate
// is the slope from the first anchor to the latest, so its error is about
// the gap between a dispatch's start and its first claim (microseconds)
// over the anchors' span, and falls as the run goes on.
//
// Some devices' clocks count in 32 bits (lavapipe's high word reads 0 and
// the count wraps every 2^32 ns, 4.3 s): readings are extended to 64 bits
// first (Extend), so that ticks of one run are on one timeline.
#ifndef RINGFUZZ_FUZZ_GPU_DEVICE_CLOCK_FIT_H_
#define RINGFUZZ_FUZZ_GPU_DEVICE_CLOCK_FIT_H_

#include <cstdint>
#include <optional>

#include "absl/time/time.h"

namespace ringfuzz {

class DeviceClockFit {
 public:
  // Anchors less than this apart (timestamps) give no rate.
  static constexpr absl::Duration kMinSpan = absl::Milliseconds(1);

  // The tick of `raw`, a reading of the clock taken near timestamp `when`
  // (within 2^31 ticks of it). A 64-bit clock's reading is its tick; on a
  // 32-bit clock (the high word of the first nonzero reading was 0) the
  // reading is extended to the 64-bit tick nearest to the one the fit
  // predicts for `when` (before it has a rate: the latest tick). 0 stays 0
  // (no reading).
  uint64_t Extend(uint64_t raw, absl::Duration when);

  // A batch began at `start` (timestamp clock) and first claimed a slot at
  // (extended) tick `first_tick`. Anchors that are not later than the first one
  // on both clocks are ignored (a clock that wrapped or went back).
  void Anchor(absl::Duration start, uint64_t first_tick);

  // Nanoseconds per tick from the first anchor to the latest; 0 until two
  // anchors are at least kMinSpan apart.
  double tick_ns() const;

 private:
  struct Point {
    absl::Duration start;
    uint64_t tick = 0;
  };
  std::optional<Point> first_;
  std::optional<Point> latest_;
  std::optional<bool> narrow_;  // a 32-bit clock
  uint64_t last_tick_ = 0;      // the latest extended reading
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_DEVICE_CLOCK_FIT_H_

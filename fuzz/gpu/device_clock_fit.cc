#include "fuzz/gpu/device_clock_fit.h"

#include <algorithm>

namespace ringfuzz {

uint64_t DeviceClockFit::Extend(uint64_t raw, absl::Duration when) {
  if (raw == 0) return 0;
  if (!narrow_) narrow_ = (raw >> 32) == 0;
  if (!*narrow_) return raw;
  uint64_t near = last_tick_;
  const double ns = tick_ns();
  if (ns > 0 && latest_) {
    const double ticks = absl::ToDoubleNanoseconds(when - latest_->start) / ns;
    near = static_cast<uint64_t>(
        std::max(0.0, static_cast<double>(latest_->tick) + ticks));
  }
  uint64_t tick = raw;
  if (near != 0) {
    // The 64-bit tick with `raw`'s low 32 bits nearest to `near`.
    const int32_t delta = static_cast<int32_t>(static_cast<uint32_t>(raw) -
                                               static_cast<uint32_t>(near));
    tick = near + static_cast<int64_t>(delta);
  }
  last_tick_ = std::max(last_tick_, tick);
  return tick;
}

void DeviceClockFit::Anchor(absl::Duration start, uint64_t first_tick) {
  if (!first_) {
    first_ = Point{start, first_tick};
    return;
  }
  if (start <= first_->start || first_tick <= first_->tick) return;
  latest_ = Point{start, first_tick};
}

double DeviceClockFit::tick_ns() const {
  if (!first_ || !latest_ || latest_->start - first_->start < kMinSpan) {
    return 0;
  }
  return absl::ToDoubleNanoseconds(latest_->start - first_->start) /
         static_cast<double>(latest_->tick - first_->tick);
}

}  // namespace ringfuzz

#include "fuzz/engine/clock.h"

#include <chrono>

namespace ringfuzz {
namespace {

class SteadyClock final : public Clock {
 public:
  absl::Duration Now() override {
    return absl::FromChrono(
        std::chrono::steady_clock::now().time_since_epoch());
  }
};

}  // namespace

Clock& RealClock() {
  static SteadyClock* clock = new SteadyClock();
  return *clock;
}

}  // namespace ringfuzz

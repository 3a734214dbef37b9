// A Clock that advances by a fixed step on every reading, so that elapsed
// time in engine tests depends only on how often the engine looks.
#ifndef RINGFUZZ_TESTS_ENGINE_FAKE_CLOCK_H_
#define RINGFUZZ_TESTS_ENGINE_FAKE_CLOCK_H_

#include "absl/time/time.h"
#include "fuzz/engine/clock.h"

namespace ringfuzz {

class FakeClock final : public Clock {
 public:
  explicit FakeClock(absl::Duration step = absl::ZeroDuration())
      : step_(step) {}
  absl::Duration Now() override {
    absl::Duration now = now_;
    now_ += step_;
    return now;
  }
  void Advance(absl::Duration d) { now_ += d; }

 private:
  absl::Duration now_ = absl::ZeroDuration();
  absl::Duration step_;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_TESTS_ENGINE_FAKE_CLOCK_H_

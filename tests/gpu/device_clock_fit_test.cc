#include "fuzz/gpu/device_clock_fit.h"

#include <cmath>
#include <cstdint>

#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

// A device clock of 10 ns ticks that reads 5e9 at timestamp 0; each
// batch's first claim comes `delay` after the batch's timestamp.
uint64_t TickAt(absl::Duration t) {
  return uint64_t{5000000000} +
         static_cast<uint64_t>(absl::ToInt64Nanoseconds(t) / 10);
}

TEST(DeviceClockFitTest, NoRateUntilTheAnchorsSpanAMillisecond) {
  DeviceClockFit fit;
  EXPECT_EQ(fit.tick_ns(), 0);
  fit.Anchor(absl::Milliseconds(100), TickAt(absl::Milliseconds(100)));
  EXPECT_EQ(fit.tick_ns(), 0);
  fit.Anchor(absl::Microseconds(100500), TickAt(absl::Microseconds(100500)));
  EXPECT_EQ(fit.tick_ns(), 0);  // 0.5 ms apart
  fit.Anchor(absl::Milliseconds(102), TickAt(absl::Milliseconds(102)));
  EXPECT_DOUBLE_EQ(fit.tick_ns(), 10.0);
}

TEST(DeviceClockFitTest, ClaimDelaysShrinkAsTheSpanGrows) {
  DeviceClockFit fit;
  // The first claim of each batch lags its timestamp by 5 to 45 us.
  double error_at_10ms = 0;
  for (int batch = 0; batch <= 1000; ++batch) {
    const absl::Duration start = absl::Milliseconds(10) * batch;
    const absl::Duration delay = absl::Microseconds(5 + (batch * 17) % 41);
    fit.Anchor(start, TickAt(start + delay));
    if (batch == 1) error_at_10ms = std::abs(fit.tick_ns() - 10.0) / 10.0;
  }
  EXPECT_LT(error_at_10ms, 0.01);                   // < 1% after 10 ms
  EXPECT_NEAR(fit.tick_ns(), 10.0, 10.0 * 0.0001);  // < 0.01% after 10 s
}

TEST(DeviceClockFitTest, AnchorsBeforeTheFirstAreIgnored) {
  DeviceClockFit fit;
  fit.Anchor(absl::Milliseconds(50), TickAt(absl::Milliseconds(50)));
  fit.Anchor(absl::Milliseconds(60), 7);  // the clock went back (wrapped)
  EXPECT_EQ(fit.tick_ns(), 0);
  fit.Anchor(absl::Milliseconds(40), TickAt(absl::Milliseconds(70)));
  EXPECT_EQ(fit.tick_ns(), 0);  // earlier than the first timestamp
  fit.Anchor(absl::Milliseconds(70), TickAt(absl::Milliseconds(70)));
  EXPECT_DOUBLE_EQ(fit.tick_ns(), 10.0);
}

// A 32-bit clock of 1 ns ticks (as lavapipe's) wraps every 4.29 s: its
// readings are extended to one 64-bit timeline, also across a gap of 10 s
// without readings once the fit has a rate.
TEST(DeviceClockFitTest, ThirtyTwoBitReadingsAreExtendedAcrossWraps) {
  DeviceClockFit fit;
  const uint64_t base = 4000000000;  // near the top of 32 bits
  auto raw = [&](absl::Duration t) {
    return (base + static_cast<uint64_t>(absl::ToInt64Nanoseconds(t))) &
           0xFFFFFFFFu;
  };
  auto tick = [&](absl::Duration t) {
    return base + static_cast<uint64_t>(absl::ToInt64Nanoseconds(t));
  };
  for (int batch = 0; batch < 10; ++batch) {
    const absl::Duration start = absl::Milliseconds(100) * batch;
    const uint64_t first = fit.Extend(raw(start), start);
    EXPECT_EQ(first, tick(start)) << "batch " << batch;
    fit.Anchor(start, first);
    // A find late in the batch, past the wrap for batch 3.
    const absl::Duration late = start + absl::Milliseconds(90);
    EXPECT_EQ(fit.Extend(raw(late), start), tick(late)) << "batch " << batch;
  }
  EXPECT_DOUBLE_EQ(fit.tick_ns(), 1.0);
  const absl::Duration later = absl::Seconds(11);  // two more wraps
  EXPECT_EQ(fit.Extend(raw(later), later), tick(later));
  EXPECT_EQ(fit.Extend(0, later), 0u);  // no reading
}

TEST(DeviceClockFitTest, SixtyFourBitReadingsAreTheirTicks) {
  DeviceClockFit fit;
  const uint64_t reading = 0x0000000500000000ull;  // high word 5
  EXPECT_EQ(fit.Extend(reading, absl::ZeroDuration()), reading);
  // A later reading whose high word is 0 is taken as it is.
  EXPECT_EQ(fit.Extend(7, absl::Seconds(1)), 7u);
}

}  // namespace
}  // namespace ringfuzz

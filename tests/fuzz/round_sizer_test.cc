#include "fuzz/round_sizer.h"

#include <cstdint>

#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

// A device whose round of n executions takes 1 ms + n us.
absl::Duration RoundTime(uint64_t executions) {
  return absl::Milliseconds(1) +
         absl::Microseconds(static_cast<int64_t>(executions));
}

// Runs batches of `slots` until the sizer has seen several sizes, each
// batch not urgent.
void Train(RoundSizer& sizer, uint32_t slots, int batches) {
  for (int i = 0; i < batches; ++i) {
    const uint64_t n = uint64_t{sizer.ExecsPerSlot(slots)} * slots;
    sizer.Observe(n, RoundTime(n));
  }
}

TEST(RoundSizerTest, UrgentBatchesAimAtTheUrgentShareOfTheTarget) {
  RoundSizer sizer(absl::Milliseconds(10), 1, 1 << 20);
  Train(sizer, 16, 40);
  EXPECT_NEAR(absl::ToDoubleMilliseconds(sizer.fixed_cost()), 1.0, 0.01);
  // Plain: 1 ms + 16 n us = 10 ms; urgent: 5 ms (kUrgentShare 0.5).
  const uint32_t plain = sizer.ExecsPerSlot(16);
  const uint32_t urgent = sizer.ExecsPerSlot(16, /*urgent=*/true);
  EXPECT_NEAR(plain, 563, 2);
  EXPECT_NEAR(urgent, 250, 2);
}

TEST(RoundSizerTest, WithASeparatedFitUrgentBatchesDeferTheProbe) {
  RoundSizer sizer(absl::Milliseconds(10), 1, 1 << 20);
  Train(sizer, 16, 40);  // sizes grew from the floor: the fit is separated
  uint64_t observed = 40;
  while (observed % RoundSizer::kProbeEvery != 1) {
    const uint64_t n = uint64_t{563} * 16;
    sizer.Observe(n, RoundTime(n));
    ++observed;
  }
  const uint32_t urgent = sizer.ExecsPerSlot(16, /*urgent=*/true);
  EXPECT_LT(urgent, 300u);
  for (uint32_t i = 0; i < 4 * RoundSizer::kMaxProbeDeferrals; ++i) {
    EXPECT_EQ(sizer.ExecsPerSlot(16, /*urgent=*/true), urgent) << i;
  }
  EXPECT_GT(sizer.ExecsPerSlot(16), 1000u);  // the first calm batch probes
}

TEST(RoundSizerTest, WithoutASeparatedFitAProbeWaitsAtMostKMaxProbeDeferrals) {
  // Every batch ran 16 executions in 30 ms: one size, so the fit cannot
  // tell the fixed part from the rest. Plain: 10 ms / (30 ms / 16) = 5.3
  // executions, 1 per slot; a probe: 2 * 16 = 32, 2 per slot.
  RoundSizer sizer(absl::Milliseconds(10), 1, 1 << 20);
  sizer.Observe(16, absl::Milliseconds(30));  // the first: a probe is due
  for (uint32_t i = 0; i < RoundSizer::kMaxProbeDeferrals; ++i) {
    EXPECT_EQ(sizer.ExecsPerSlot(16, /*urgent=*/true), 1u) << i;
  }
  EXPECT_EQ(sizer.ExecsPerSlot(16, /*urgent=*/true), 2u);  // forced
  EXPECT_EQ(sizer.ExecsPerSlot(16, /*urgent=*/true), 1u);  // once
}

TEST(RoundSizerTest, ADueProbeRunsInTheFirstBatchThatIsNotUrgent) {
  RoundSizer sizer(absl::Milliseconds(10), 1, 1 << 20);
  Train(sizer, 16, 40);
  uint64_t observed = 40;
  while (observed % RoundSizer::kProbeEvery != 1) {
    const uint64_t n = uint64_t{563} * 16;
    sizer.Observe(n, RoundTime(n));
    ++observed;
  }
  EXPECT_LT(sizer.ExecsPerSlot(16, /*urgent=*/true), 300u);
  EXPECT_GT(sizer.ExecsPerSlot(16), 1000u);  // the probe
  EXPECT_NEAR(sizer.ExecsPerSlot(16), 563, 2);
}

}  // namespace
}  // namespace ringfuzz

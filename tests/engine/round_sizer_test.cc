#include "fuzz/engine/round_sizer.h"

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

TEST(RoundSizerTest, ANewTargetSizesTheNextBatchFromTheSameFit) {
  RoundSizer sizer(absl::Milliseconds(10), 1, 1 << 20);
  Train(sizer, 16, 40);
  // No new batch measured: 1 ms + 16 n us = 20 ms, urgent 10 ms.
  sizer.SetTarget(absl::Milliseconds(20));
  EXPECT_EQ(sizer.target(), absl::Milliseconds(20));
  EXPECT_NEAR(sizer.ExecsPerSlot(16), 1188, 2);
  EXPECT_NEAR(sizer.ExecsPerSlot(16, /*urgent=*/true), 563, 2);
  // And back.
  sizer.SetTarget(absl::Milliseconds(10));
  EXPECT_NEAR(sizer.ExecsPerSlot(16), 563, 2);
  // A target of zero is no target: ignored.
  sizer.SetTarget(absl::ZeroDuration());
  EXPECT_EQ(sizer.target(), absl::Milliseconds(10));
}

TEST(RoundSizerTest, AFixedPartAboveTheTargetSetsTheFloorOfARound) {
  // A device of 30 ms + n us per round and a 10 ms target: a round takes
  // min_round_per_fixed times 30 ms, urgent or not.
  auto slow = [](uint64_t n) {
    return absl::Milliseconds(30) + absl::Microseconds(static_cast<int64_t>(n));
  };
  for (double per_fixed : {3.0, 2.0}) {
    RoundSizer sizer(absl::Milliseconds(10), 1, 1 << 20, per_fixed);
    EXPECT_EQ(sizer.min_round_per_fixed(), per_fixed);
    for (int i = 0; i < 40; ++i) {
      const uint64_t n = uint64_t{sizer.ExecsPerSlot(16)} * 16;
      sizer.Observe(n, slow(n));
    }
    ASSERT_NEAR(absl::ToDoubleMilliseconds(sizer.fixed_cost()), 30.0, 0.1);
    // (per_fixed - 1) * 30 ms of executions at 1 us, over 16 slots.
    const double expected = (per_fixed - 1) * 30000 / 16;
    EXPECT_NEAR(sizer.ExecsPerSlot(16), expected, 2) << per_fixed;
    EXPECT_NEAR(sizer.ExecsPerSlot(16, /*urgent=*/true), expected, 2)
        << per_fixed;
  }
  // Below one a round would be shorter than its own fixed part.
  EXPECT_EQ(RoundSizer(absl::Milliseconds(10), 1, 8, 0.5).min_round_per_fixed(),
            1.0);
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

TEST(RoundSizerTest, AfterTheDeviceGetsFasterRoundsReturnToTheTarget) {
  // First a device whose rounds take 20 ms + 10 us per execution (a slow
  // start), then one of 1 ms + 1 us per execution: rounds must come back
  // to about the 10 ms target, as a sizer that saw only the fast device
  // makes them, instead of keeping the slow device's fixed part.
  auto slow = [](uint64_t n) {
    return absl::Milliseconds(20) +
           absl::Microseconds(10 * static_cast<int64_t>(n));
  };
  RoundSizer sizer(absl::Milliseconds(10), 1, 1 << 20);
  for (int i = 0; i < 20; ++i) {
    const uint64_t n = uint64_t{sizer.ExecsPerSlot(16)} * 16;
    sizer.Observe(n, slow(n));
  }
  EXPECT_GT(absl::ToDoubleMilliseconds(sizer.fixed_cost()), 15.0);
  RoundSizer fast_only(absl::Milliseconds(10), 1, 1 << 20);
  Train(fast_only, 16, 40);
  Train(sizer, 16, 8);
  for (int i = 0; i < 16; ++i) {  // every later batch, probes aside
    const uint64_t n = uint64_t{sizer.ExecsPerSlot(16)} * 16;
    EXPECT_LT(absl::ToDoubleMilliseconds(RoundTime(n)), 2 * 10.0) << i;
    sizer.Observe(n, RoundTime(n));
  }
  EXPECT_NEAR(sizer.ExecsPerSlot(16), fast_only.ExecsPerSlot(16), 60);
  EXPECT_NEAR(absl::ToDoubleMilliseconds(sizer.fixed_cost()), 1.0, 0.2);
}

TEST(RoundSizerTest, RoundsWithinTheFitsNoiseKeepTheFit) {
  // Times 30% off the model either way are noise, not a new device: the
  // fitted fixed part stays near the true one.
  RoundSizer sizer(absl::Milliseconds(10), 1, 1 << 20);
  for (int i = 0; i < 60; ++i) {
    const uint64_t n = uint64_t{sizer.ExecsPerSlot(16)} * 16;
    const double jitter = i % 2 == 0 ? 1.3 : 0.7;
    sizer.Observe(n, RoundTime(n) * jitter);
  }
  EXPECT_GT(absl::ToDoubleMilliseconds(sizer.fixed_cost()), 0.3);
  EXPECT_LT(absl::ToDoubleMilliseconds(sizer.fixed_cost()), 2.0);
}

}  // namespace
}  // namespace ringfuzz

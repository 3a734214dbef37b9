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

// Runs batches shaped by Next(slots) for `batches` batches on a device
// whose round of n executions takes 1 ms + n * `us_per_exec` us.
void TrainShapes(RoundSizer& sizer, uint32_t slots, int batches,
                 double us_per_exec) {
  for (int i = 0; i < batches; ++i) {
    const RoundSizer::Shape shape = sizer.Next(slots);
    const uint64_t n = uint64_t{shape.slots} * shape.execs_per_slot;
    sizer.Observe(n,
                  absl::Milliseconds(1) +
                      absl::Microseconds(static_cast<double>(n) * us_per_exec));
  }
}

TEST(RoundSizerTest, RoundsThatAreNotFloorBoundKeepEverySlot) {
  RoundSizer sizer(absl::Milliseconds(10), 4, 1 << 20);
  TrainShapes(sizer, 16, 40, 1.0);
  const RoundSizer::Shape shape = sizer.Next(16);
  EXPECT_EQ(shape.slots, 16u);
  EXPECT_NEAR(shape.execs_per_slot, 563, 2);  // (10 - 1) ms / 16 us
}

TEST(RoundSizerTest, FloorBoundRoundsUseFewerSlots) {
  // 64 mutants per slot at least; 256 slots at the floor would run 16,384
  // executions, 1 ms + 16.4 ms. The target, 10 ms, is 9,000 executions:
  // 141 slots of 64; an urgent batch, 5 ms: 4,000, 63 slots.
  RoundSizer sizer(absl::Milliseconds(10), 64, 1 << 20);
  TrainShapes(sizer, 256, 40, 1.0);
  EXPECT_NEAR(absl::ToDoubleMilliseconds(sizer.fixed_cost()), 1.0, 0.05);
  RoundSizer::Shape plain = sizer.Next(256);
  if (plain.slots > 200) plain = sizer.Next(256);  // that was a probe
  EXPECT_NEAR(plain.slots, 141, 2);
  EXPECT_EQ(plain.execs_per_slot, 64u);
  const RoundSizer::Shape urgent = sizer.Next(256, /*urgent=*/true);
  EXPECT_NEAR(urgent.slots, 63, 2);
  EXPECT_EQ(urgent.execs_per_slot, 64u);
}

TEST(RoundSizerTest, SlotsShrinkAtMostKMaxSlotShrinkFold) {
  // 1 ms + 1 ms per execution: even one slot at the floor (64 executions)
  // overshoots 10 ms, so the batch keeps 256 / kMaxSlotShrink slots.
  RoundSizer sizer(absl::Milliseconds(10), 64, 1 << 20);
  TrainShapes(sizer, 256, 40, 1000.0);
  const RoundSizer::Shape shape = sizer.Next(256, /*urgent=*/true);
  EXPECT_EQ(shape.slots, 256u / RoundSizer::kMaxSlotShrink);
  EXPECT_EQ(shape.execs_per_slot, 64u);
}

}  // namespace
}  // namespace ringfuzz

// MutantBudget's rule (fuzz/gpu/mutant_budget.h; -cut_slow_mutants in
// docs/cli.md): 16 times the parent's mean loop iterations, at least the
// floor, doubled for every window of 4,096 executions with more than 1 in
// 64 mutants cut and halved for every one without a cut, and none (0)
// before a measurement or at the ceiling.
#include "fuzz/gpu/mutant_budget.h"

#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

TEST(MutantBudgetTest, AParentWithoutMeasuredMutantsHasNoBudget) {
  MutantBudget budget(64, 65536);
  EXPECT_EQ(budget.For(0), 0u);
  budget.Observe(3, 0, 0, 0);  // a slot that ran nothing measures nothing
  EXPECT_EQ(budget.For(3), 0u);
}

TEST(MutantBudgetTest, TheBudgetIsSixteenTimesTheMeanAboveTheFloor) {
  MutantBudget budget(64, 65536);
  budget.Observe(0, 100, 100 * 200, 0);  // 200 iterations a mutant
  EXPECT_EQ(budget.For(0), 3200u);
  budget.Observe(1, 10, 25, 0);  // 2.5 a mutant, rounded up: 48 < 64
  EXPECT_EQ(budget.For(1), 64u);
  // The mean is over every slot of the parent.
  budget.Observe(0, 100, 100 * 400, 0);
  EXPECT_EQ(budget.For(0), 4800u);
}

TEST(MutantBudgetTest, FrequentCutsDoubleTheBudgetAndRareOnesDoNot) {
  MutantBudget budget(64, 65536);
  budget.Observe(0, 6400, 6400 * 10, 0);
  EXPECT_EQ(budget.For(0), 160u);
  budget.Observe(0, 6400, 6400 * 10, 100);  // 1 in 64: not more than that
  EXPECT_EQ(budget.For(0), 160u);
  budget.Observe(0, 6400, 6400 * 10, 101);
  EXPECT_EQ(budget.For(0), 320u);
  EXPECT_EQ(budget.cuts(), 201u);
  EXPECT_EQ(budget.executions(), 3u * 6400u);
}

// Cuts are judged over 4,096 executions, not per slot: a few cuts in one
// small slot are no reason to double.
TEST(MutantBudgetTest, CutsAreJudgedOverAWindowOfExecutions) {
  MutantBudget budget(64, 65536);
  budget.Observe(0, 128, 128 * 10, 0);
  EXPECT_EQ(budget.For(0), 160u);
  budget.Observe(0, 128, 128 * 10, 3);  // 3 in 128, but 3 in 256 so far
  EXPECT_EQ(budget.For(0), 160u);
  for (int slot = 0; slot < 30; ++slot) budget.Observe(0, 128, 128 * 10, 0);
  EXPECT_EQ(budget.For(0), 160u);  // 3 in 4,096 when the window closed
}

TEST(MutantBudgetTest, AWindowWithoutCutsTakesADoublingBack) {
  MutantBudget budget(64, 65536);
  budget.Observe(0, 4096, 4096 * 10, 0);
  budget.Observe(0, 4096, 4096 * 10, 128);
  EXPECT_EQ(budget.For(0), 320u);
  budget.Observe(0, 4096, 4096 * 10, 1);  // cut, but rarely: kept
  EXPECT_EQ(budget.For(0), 320u);
  budget.Observe(0, 4096, 4096 * 10, 0);
  EXPECT_EQ(budget.For(0), 160u);
}

TEST(MutantBudgetTest, ABudgetThatReachesTheCeilingIsNone) {
  MutantBudget budget(64, 4096);
  budget.Observe(0, 10, 10 * 300, 0);  // 4800 >= 4096
  EXPECT_EQ(budget.For(0), 0u);
  // 1600, cut often: 3200, then the ceiling.
  budget.Observe(1, 4096, 4096 * 100, 4096);
  EXPECT_EQ(budget.For(1), 3200u);
  budget.Observe(1, 4096, 4096 * 100, 4096);
  EXPECT_EQ(budget.For(1), 0u);
}

// The mean forgets: once 65,536 executions are behind it, the older ones
// weigh half, so a parent's first slots (run without a budget, hangs and
// all) do not set its budget for good.
TEST(MutantBudgetTest, OldSlotsWeighLessThanNewOnes) {
  MutantBudget budget(64, 1u << 20);
  budget.Observe(0, 65536, 65536ull * 1000, 0);
  EXPECT_EQ(budget.For(0), 16000u);
  budget.Observe(0, 65536, 65536ull * 10, 0);
  // (1000 * 32768 + 10 * 65536) / 98304 = 340 (rounded up), not 505.
  EXPECT_EQ(budget.For(0), 5440u);
}

TEST(MutantBudgetTest, ACeilingOfZeroCutsNothing) {
  MutantBudget budget(0, 0);
  budget.Observe(0, 100, 100, 0);
  EXPECT_EQ(budget.For(0), 0u);
}

}  // namespace
}  // namespace ringfuzz

// Mutant loop budgets on the megakernel (GpuExecutorOptions::
// cut_slow_mutants): a mutant that runs far more loop iterations than its
// parent's mutants is cut, counted, and not lost where it went somewhere
// new; a hang is still a timeout.
#include <memory>
#include <vector>

#include "fuzz/gpu/gpu_executor.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

// Replays the parent once (its slot measures it: no budget before), then
// runs havoc batches until `done` or `batches` ran; returns the finds.
std::vector<Find> Fuzz(GpuExecutor& executor, uint32_t batches,
                       bool (*done)(const Find&)) {
  std::vector<Find> finds;
  absl::StatusOr<BatchResult> replay =
      executor.RunBatch(gpu_test::Work(RF_OP_REPLAY, 1, 1), 1);
  EXPECT_TRUE(replay.ok()) << replay.status();
  for (uint64_t seed = 2; seed < 2 + batches; ++seed) {
    absl::StatusOr<BatchResult> r =
        executor.RunBatch(gpu_test::Work(RF_OP_HAVOC, 8, 256), seed);
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok()) break;
    bool stop = false;
    for (Find& f : r->finds) {
      stop = stop || done(f);
      finds.push_back(std::move(f));
    }
    if (stop) break;
  }
  return finds;
}

bool IsCrash(const Find& f) { return f.kind == Find::Kind::kCrash; }
bool IsTimeout(const Find& f) { return f.kind == Find::Kind::kTimeout; }

// slow_branch.fz: 'A' runs no loop, 'B' 1,200 iterations and then crashes.
// Mutants of "AAAAAAAA" that write 'B' are cut (the budget is the floor,
// 8 passes over 8 bytes); the crash after the loop is found by the
// candidate's whole re-run.
TEST(MutantBudgetGpuTest, ACrashBehindALoopThatCutsStopIsStillFound) {
  GpuExecutorOptions options = gpu_test::CpuOptions("slow_branch.fz", 8);
  options.keep_going = true;
  auto executor = gpu_test::MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  ASSERT_GT(executor->exec_steps(), 1200u);
  ASSERT_TRUE(executor->AddInput(gpu_test::Str("AAAAAAAA")).ok());
  const std::vector<Find> finds = Fuzz(*executor, 40, IsCrash);
  EXPECT_EQ(executor->mutant_budget(0), 64u);
  EXPECT_GT(executor->mutant_cuts(), 0u);
  size_t crashes = 0;
  for (const Find& f : finds) {
    EXPECT_NE(f.kind, Find::Kind::kTimeout);
    if (f.kind != Find::Kind::kCrash) continue;
    ++crashes;
    EXPECT_EQ(f.code, 5u);
    EXPECT_EQ(f.data[0], 'B');
  }
  EXPECT_GT(crashes, 0u);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// hang.fz loops forever on 'H': a mutant of "GGGG" that writes it is cut
// long before the whole budget, and still comes out as a timeout.
TEST(MutantBudgetGpuTest, AHangThatCutsStopIsStillATimeout) {
  GpuExecutorOptions options = gpu_test::CpuOptions("hang.fz", 8);
  options.keep_going = true;
  auto executor = gpu_test::MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(gpu_test::Str("GGGG")).ok());
  const std::vector<Find> finds = Fuzz(*executor, 40, IsTimeout);
  EXPECT_NE(executor->mutant_budget(0), 0u);
  EXPECT_GT(executor->mutant_cuts(), 0u);
  bool timeout = false;
  for (const Find& f : finds) {
    if (f.kind != Find::Kind::kTimeout) continue;
    timeout = true;
    EXPECT_EQ(f.data[0], 'H');
    EXPECT_GT(f.aux, executor->exec_steps());
  }
  EXPECT_TRUE(timeout);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// Off, no mutant is cut: the slow ones run whole.
TEST(MutantBudgetGpuTest, WithCutsOffEveryMutantRunsWhole) {
  GpuExecutorOptions options = gpu_test::CpuOptions("slow_branch.fz", 8);
  options.keep_going = true;
  options.cut_slow_mutants = false;
  auto executor = gpu_test::MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(gpu_test::Str("AAAAAAAA")).ok());
  const std::vector<Find> finds = Fuzz(*executor, 40, IsCrash);
  EXPECT_EQ(executor->mutant_budget(0), 0u);
  EXPECT_EQ(executor->mutant_cuts(), 0u);
  bool crash = false;
  for (const Find& f : finds) crash = crash || IsCrash(f);
  EXPECT_TRUE(crash);
}

}  // namespace
}  // namespace ringfuzz

// Overlapped rounds (GpuExecutor::SubmitBatch / CollectBatch) on lavapipe,
// forced on in precise mode: two rounds in the air, each with its own ring
// and find queue, results in submission order.
#include <string>
#include <utility>

#include "fuzz/gpu/gpu_executor.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

std::string Data(const std::string& name) {
  return std::string(RF_TEST_DATA) + "/" + name;
}

std::unique_ptr<GpuExecutor> MakeOverlapped(const std::string& target,
                                            bool cut_rounds = true) {
  GpuExecutorOptions options;
  options.cut_rounds = cut_rounds;
  options.target_path = Data(target);
  options.device = "cpu";
  options.validation = true;
  options.coverage_mode = GpuExecutorOptions::CoverageMode::kPrecise;
  options.overlap = GpuExecutorOptions::Overlap::kOn;
  absl::StatusOr<std::unique_ptr<GpuExecutor>> executor =
      GpuExecutor::Create(options);
  EXPECT_TRUE(executor.ok()) << executor.status();
  return executor.ok() ? *std::move(executor) : nullptr;
}

Bytes Str(const std::string& s) { return Bytes(s.begin(), s.end()); }

std::vector<WorkItem> Havoc(size_t items, uint32_t count, uint32_t parent) {
  std::vector<WorkItem> work(items);
  for (WorkItem& item : work) {
    item.opcode = RF_OP_HAVOC;
    item.parent = parent;
    item.count = count;
    item.stack = 2;
  }
  return work;
}

TEST(GpuOverlapTest, TwoRoundsInFlightReturnTheirOwnResultsInOrder) {
  auto executor = MakeOverlapped("hits.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(executor->overlap(), 2u);
  ASSERT_TRUE(executor->AddInput(Str("x.x.x.x.x.x")).ok());  // 0
  ASSERT_TRUE(executor->AddInput(Str("x.")).ok());           // 1
  ASSERT_TRUE(executor->SubmitBatch(Havoc(8, 500, 0), 1).ok());
  ASSERT_TRUE(executor->SubmitBatch(Havoc(3, 300, 1), 2).ok());
  absl::StatusOr<BatchResult> first = executor->CollectBatch();
  absl::StatusOr<BatchResult> second = executor->CollectBatch();
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(second.ok()) << second.status();
  // Each round ran all of its own work and reports costs of its own
  // parents only: the rounds did not share a ring, a find queue or
  // counters.
  EXPECT_EQ(first->executions, 8u * 500u);
  EXPECT_EQ(second->executions, 3u * 300u);
  for (const ParentCost& cost : first->costs) EXPECT_EQ(cost.parent, 0u);
  for (const ParentCost& cost : second->costs) EXPECT_EQ(cost.parent, 1u);
  EXPECT_EQ(first->costs.size(), 8u);
  EXPECT_EQ(second->costs.size(), 3u);
  EXPECT_FALSE(executor->CollectBatch().ok());  // none left
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

TEST(GpuOverlapTest, RoundsRunOneAfterTheOtherOnTheDeviceClock) {
  auto executor = MakeOverlapped("hits.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("x.x.x.x.")).ok());
  ASSERT_TRUE(executor->SubmitBatch(Havoc(4, 400, 0), 1).ok());
  ASSERT_TRUE(executor->SubmitBatch(Havoc(4, 400, 0), 2).ok());
  absl::StatusOr<BatchResult> first = executor->CollectBatch();
  absl::StatusOr<BatchResult> second = executor->CollectBatch();
  ASSERT_TRUE(first.ok() && second.ok());
  if (!first->device_start || !second->device_start) {
    GTEST_SKIP() << "the device's queue has no timestamps";
  }
  EXPECT_LE(*first->device_start, *first->device_end);
  EXPECT_LE(*first->device_end, *second->device_start);
  EXPECT_LE(*second->device_start, *second->device_end);
}

TEST(GpuOverlapTest, ExecuteBetweenSubmitAndCollectKeepsTheRoundsResult) {
  auto executor = MakeOverlapped("magic.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("FUZa")).ok());
  ASSERT_TRUE(executor->SubmitBatch(Havoc(4, 250, 0), 7).ok());
  absl::StatusOr<BatchResult> crash = executor->Execute(Str("FUZ!"));
  ASSERT_TRUE(crash.ok()) << crash.status();
  ASSERT_FALSE(crash->finds.empty());
  EXPECT_EQ(crash->finds.back().kind, Find::Kind::kCrash);
  absl::StatusOr<BatchResult> round = executor->CollectBatch();
  ASSERT_TRUE(round.ok()) << round.status();
  // All of it, unless it found the crash too (a crash stops a round).
  bool round_crashed = false;
  for (const Find& f : round->finds) {
    round_crashed |= f.kind == Find::Kind::kCrash;
  }
  if (!round_crashed) EXPECT_EQ(round->executions, 1000u);
  EXPECT_GT(round->executions, 0u);
}

TEST(GpuOverlapTest, PipelinedRoundsFindTheBug) {
  auto executor = MakeOverlapped("magic.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("FUZa")).ok());
  bool crashed = false;
  uint64_t total = 0;
  ASSERT_TRUE(executor->SubmitBatch(Havoc(8, 1000, 0), 0).ok());
  for (int batch = 1; batch < 60 && !crashed; ++batch) {
    ASSERT_TRUE(executor->SubmitBatch(Havoc(8, 1000, 0), batch).ok());
    absl::StatusOr<BatchResult> r = executor->CollectBatch();
    ASSERT_TRUE(r.ok()) << r.status();
    total += r->executions;
    for (const Find& f : r->finds) {
      if (f.kind != Find::Kind::kCrash) continue;
      crashed = true;
      EXPECT_EQ(f.code, 7u);
      ASSERT_GE(f.data.size(), 4u);
      EXPECT_EQ(f.data[3], 33u);
    }
    if (!crashed) EXPECT_EQ(r->executions, 8000u);
  }
  EXPECT_TRUE(crashed) << "after " << total << " executions";
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// A round queued behind a long one cuts it short: the long one claims no
// more slots (what it ran counts, the rest is reported as not run), the
// last one runs whole, and so does a round queued after the cut.
TEST(GpuOverlapTest, CutEarlierRoundsEndsTheRoundsQueuedBeforeTheLast) {
  auto executor = MakeOverlapped("hits.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("x.x.x.x.")).ok());
  // Rounds that serve the input first (service runs, which are not cut):
  // its log, the trials the log names, its probe pass, and the probes'
  // trials; the rounds below carry none.
  for (uint64_t seed : {0, 10, 20, 30}) {
    ASSERT_TRUE(executor->SubmitBatch(Havoc(1, 10, 0), seed).ok());
    ASSERT_TRUE(executor->CollectBatch().ok());
  }
  // About a second of lavapipe's time: still running when it is cut.
  constexpr uint64_t kLong = 64ull * 65536;
  ASSERT_TRUE(executor->SubmitBatch(Havoc(64, 65536, 0), 1).ok());
  ASSERT_TRUE(executor->SubmitBatch(Havoc(4, 400, 0), 2).ok());
  executor->CutEarlierRounds();
  absl::StatusOr<BatchResult> cut = executor->CollectBatch();
  absl::StatusOr<BatchResult> last = executor->CollectBatch();
  ASSERT_TRUE(cut.ok()) << cut.status();
  ASSERT_TRUE(last.ok()) << last.status();
  EXPECT_GT(cut->cut_executions, 0u);
  EXPECT_EQ(cut->executions + cut->cut_executions, kLong);
  EXPECT_LT(cut->executions, kLong);
  EXPECT_EQ(last->executions, 1600u);
  EXPECT_EQ(last->cut_executions, 0u);
  // The cut ring is published again, and nothing is cut any more.
  ASSERT_TRUE(executor->SubmitBatch(Havoc(8, 500, 0), 3).ok());
  ASSERT_TRUE(executor->SubmitBatch(Havoc(2, 300, 0), 4).ok());
  absl::StatusOr<BatchResult> third = executor->CollectBatch();
  absl::StatusOr<BatchResult> fourth = executor->CollectBatch();
  ASSERT_TRUE(third.ok() && fourth.ok());
  EXPECT_EQ(third->executions, 4000u);
  EXPECT_EQ(fourth->executions, 600u);
  EXPECT_EQ(third->cut_executions + fourth->cut_executions, 0u);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

TEST(GpuOverlapTest, CutRoundsOffLeavesEveryRoundWhole) {
  auto executor = MakeOverlapped("hits.fz", /*cut_rounds=*/false);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("x.x.x.x.")).ok());
  ASSERT_TRUE(executor->SubmitBatch(Havoc(16, 20000, 0), 1).ok());
  ASSERT_TRUE(executor->SubmitBatch(Havoc(4, 400, 0), 2).ok());
  executor->CutEarlierRounds();
  absl::StatusOr<BatchResult> first = executor->CollectBatch();
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->executions, 16u * 20000u);
  EXPECT_EQ(first->cut_executions, 0u);
  ASSERT_TRUE(executor->CollectBatch().ok());
}

}  // namespace
}  // namespace ringfuzz

// GpuExecutor's calls for the corpus tools (fuzz/gpu/gpu_executor_features.cc)
// on lavapipe: many inputs' bugs in one call, coverage ids, and a reset.
#include <algorithm>
#include <string>
#include <vector>

#include "fuzz/gpu/gpu_executor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using gpu_test::CpuOptions;
using gpu_test::MakeExecutor;
using gpu_test::Str;
using ::testing::IsEmpty;
using ::testing::IsSubsetOf;
using ::testing::Not;

// magic.fz crashes (code 7) on "FUZ!" and nothing else.
TEST(GpuExecutorFeaturesTest, ExecuteEachReportsTheBugOfEveryInput) {
  auto executor = MakeExecutor(CpuOptions("magic.fz"));
  ASSERT_NE(executor, nullptr);
  std::vector<Bytes> inputs;
  std::vector<size_t> crashing;
  // More than a workgroup, crashes spread over them, and repeats of the
  // same bug (a fuzzing batch reports a bug once and stops at it).
  for (size_t i = 0; i < 300; ++i) {
    const bool crash = i % 7 == 3;
    inputs.push_back(Str(crash ? "FUZ!" : "FUZ_" + std::to_string(i)));
    if (crash) crashing.push_back(i);
  }
  absl::StatusOr<BatchResult> result = executor->ExecuteEach(inputs);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->executions, inputs.size());
  std::vector<size_t> reported;
  for (const Find& find : result->finds) {
    if (!IsBug(find.kind)) continue;
    EXPECT_EQ(find.kind, Find::Kind::kCrash);
    EXPECT_EQ(find.code, 7u);
    ASSERT_LT(find.parent, inputs.size());
    EXPECT_EQ(find.data, inputs[find.parent]);
    reported.push_back(find.parent);
  }
  std::sort(reported.begin(), reported.end());
  EXPECT_EQ(reported, crashing);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

TEST(GpuExecutorFeaturesTest, CoverageIdsGrowWithExecutionsAndReset) {
  auto executor = MakeExecutor(CpuOptions("magic.fz"));
  ASSERT_NE(executor, nullptr);
  absl::StatusOr<CoverageIds> empty = executor->CoverageIdsSoFar();
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_THAT(empty->features, IsEmpty());

  ASSERT_TRUE(executor->Execute(Str("F___")).ok());
  absl::StatusOr<CoverageIds> short_match = executor->CoverageIdsSoFar();
  ASSERT_TRUE(short_match.ok());
  EXPECT_EQ(short_match->features.size(), executor->Coverage().features);
  EXPECT_EQ(short_match->blocks.size(), executor->Coverage().blocks);
  EXPECT_TRUE(std::is_sorted(short_match->features.begin(),
                             short_match->features.end()));

  ASSERT_TRUE(executor->Execute(Str("FUZ_")).ok());
  absl::StatusOr<CoverageIds> long_match = executor->CoverageIdsSoFar();
  ASSERT_TRUE(long_match.ok());
  EXPECT_THAT(short_match->features, IsSubsetOf(long_match->features));
  EXPECT_GT(long_match->blocks.size(), short_match->blocks.size());

  // After a reset an input reports all it reaches, and only that.
  ASSERT_TRUE(executor->ResetCoverage().ok());
  EXPECT_EQ(executor->Coverage().features, 0u);
  absl::StatusOr<BatchResult> again = executor->Execute(Str("F___"));
  ASSERT_TRUE(again.ok());
  EXPECT_THAT(again->finds, Not(IsEmpty()));  // its coverage is new again
  absl::StatusOr<CoverageIds> alone = executor->CoverageIdsSoFar();
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(alone->features, short_match->features);
  EXPECT_EQ(alone->blocks, short_match->blocks);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

}  // namespace
}  // namespace ringfuzz

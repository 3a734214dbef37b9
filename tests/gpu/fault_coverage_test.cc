// A crashing execution adds nothing to the coverage maps (rf_execute in
// shaders/megakernel_main.glsl), checked on lavapipe's deferred build, where
// the maps are marked at the end of an execution and the rule is exact: the
// maps after a crash and a clean input are those of the clean input alone,
// so the coverage a campaign prints is what its corpus holds.
#include "fuzz/gpu/gpu_executor.h"
#include "gtest/gtest.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using gpu_test::CpuOptions;
using gpu_test::MakeExecutor;
using gpu_test::Str;

TEST(FaultCoverageTest, ACrashingExecutionMarksNoCoverage) {
  // magic.fz: "FUZ!" crashes with code 7; "FUZA" takes the same checks and
  // returns.
  GpuExecutorOptions options = CpuOptions("magic.fz");
  options.deferred_coverage = GpuExecutorOptions::DeferredCoverage::kOn;
  auto executor = MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->deferred_coverage())
      << executor->deferred_coverage_refusal();

  ASSERT_TRUE(executor->ResetCoverage().ok());
  absl::StatusOr<BatchResult> crashed = executor->ExecuteEach({Str("FUZ!")});
  ASSERT_TRUE(crashed.ok()) << crashed.status();
  ASSERT_EQ(crashed->finds.size(), 1u);
  EXPECT_EQ(crashed->finds[0].kind, Find::Kind::kCrash);
  EXPECT_EQ(crashed->finds[0].code, 7u);
  absl::StatusOr<CoverageIds> after_crash = executor->CoverageIdsSoFar();
  ASSERT_TRUE(after_crash.ok());
  EXPECT_TRUE(after_crash->features.empty());
  EXPECT_TRUE(after_crash->blocks.empty());

  ASSERT_TRUE(executor->ExecuteEach({Str("FUZA")}).ok());
  absl::StatusOr<CoverageIds> both = executor->CoverageIdsSoFar();
  // The reference: the clean input alone, on cleared maps.
  ASSERT_TRUE(executor->ResetCoverage().ok());
  ASSERT_TRUE(executor->ExecuteEach({Str("FUZA")}).ok());
  absl::StatusOr<CoverageIds> alone = executor->CoverageIdsSoFar();
  ASSERT_TRUE(both.ok() && alone.ok());
  EXPECT_FALSE(alone->blocks.empty());
  EXPECT_EQ(both->features, alone->features);
  EXPECT_EQ(both->blocks, alone->blocks);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

}  // namespace
}  // namespace ringfuzz

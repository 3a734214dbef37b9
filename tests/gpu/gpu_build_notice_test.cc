// The pipeline build's notice: its phrase per device, its interval and
// bound from -compile_timeout (no device needed).
#include "fuzz/gpu/gpu_build_notice.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;

TEST(GpuBuildNoticeTest, LavapipeIsToldAboutTheShaderCache) {
  vk::PhysicalDeviceInfo lavapipe;
  lavapipe.name = "llvmpipe (LLVM 15.0.6, 128 bits)";
  lavapipe.is_lavapipe = true;
  EXPECT_EQ(PipelineBuildWhat(lavapipe),
            "building the target's pipelines for lavapipe (first run; later "
            "runs use Mesa's shader cache)");
  vk::PhysicalDeviceInfo gpu;
  gpu.name = "NVIDIA H200";
  EXPECT_EQ(PipelineBuildWhat(gpu),
            "building the target's pipelines for NVIDIA H200");
}

TEST(GpuBuildNoticeTest, TheDefaultBoundIsGenerousAndLinesComeEvery10s) {
  const vk::ProgressNoticeOptions options =
      PipelineBuildNoticeOptions(kDefaultCompileTimeout);
  EXPECT_EQ(options.interval, absl::Seconds(10));
  EXPECT_EQ(options.bound, absl::Seconds(300));
  EXPECT_THAT(options.bound_advice, HasSubstr("Unroll less"));
  EXPECT_THAT(options.bound_advice, HasSubstr("raise -compile_timeout"));
  EXPECT_FALSE(options.give_up);  // the process exits
}

TEST(GpuBuildNoticeTest, AShortBoundStillShowsALineFirst) {
  const vk::ProgressNoticeOptions options =
      PipelineBuildNoticeOptions(absl::Seconds(4));
  EXPECT_EQ(options.interval, absl::Seconds(2));
  EXPECT_EQ(options.bound, absl::Seconds(4));
}

TEST(GpuBuildNoticeTest, ZeroMeansNoBound) {
  const vk::ProgressNoticeOptions options =
      PipelineBuildNoticeOptions(absl::ZeroDuration());
  EXPECT_EQ(options.interval, absl::Seconds(10));
  EXPECT_EQ(options.bound, absl::ZeroDuration());
}

}  // namespace
}  // namespace ringfuzz

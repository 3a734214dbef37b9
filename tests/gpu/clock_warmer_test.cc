#include "fuzz/gpu/clock_warmer.h"

#include <memory>
#include <utility>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "tests/gpu/gpu_test_util.h"
#include "tests/runtime/vulkan_test_fixture.h"

namespace ringfuzz {
namespace {

using gpu_test::CpuOptions;
using gpu_test::MakeExecutor;
using gpu_test::Str;

// lavapipe (or $RINGFUZZ_TEST_DEVICE) with the validation layer on; each
// test fails on any message (tests/runtime/vulkan_test_fixture.h).
using ClockWarmerTest = vk::VulkanTest;

// Left alone, this spin runs for seconds on lavapipe (4,096 workgroups of
// 4,000 rounds; lavapipe cuts an invocation's loops after 65,535 steps in
// all, so the load is in the workgroups); stopped after 50 ms, only the
// workgroups already running go on, each for at most one round.
TEST_F(ClockWarmerTest, StopEndsTheSpinBeforeItsBound) {
  ClockWarmerOptions options;
  options.groups = 4096;
  options.max_rounds = 4000;
  options.round_steps = 7;
  absl::StatusOr<std::unique_ptr<ClockWarmer>> warmer =
      ClockWarmer::Start(device(), options);
  ASSERT_TRUE(warmer.ok()) << warmer.status();
  absl::SleepFor(absl::Milliseconds(50));
  absl::StatusOr<uint32_t> rounds = (*warmer)->Stop();
  ASSERT_TRUE(rounds.ok()) << rounds.status();
  EXPECT_LT(*rounds, options.groups * options.max_rounds);
  EXPECT_GT((*warmer)->busy_time(), absl::ZeroDuration());
  // A second Stop reports the same spin without touching the device.
  absl::StatusOr<uint32_t> again = (*warmer)->Stop();
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *rounds);
}

// Without a stop, the spin ends at its bound: every workgroup ran every
// round, so the load lasts as long as it was asked to.
TEST_F(ClockWarmerTest, WithoutStopTheSpinRunsToItsBound) {
  ClockWarmerOptions options;
  options.groups = 2;
  options.max_rounds = 300;
  options.round_steps = 16;
  absl::StatusOr<std::unique_ptr<ClockWarmer>> warmer =
      ClockWarmer::Start(device(), options);
  ASSERT_TRUE(warmer.ok()) << warmer.status();
  // 600 rounds of 16 steps take well under a millisecond: the spin has
  // ended by itself long before the stop flag is written.
  absl::SleepFor(absl::Seconds(1));
  absl::StatusOr<uint32_t> rounds = (*warmer)->Stop();
  ASSERT_TRUE(rounds.ok()) << rounds.status();
  EXPECT_EQ(*rounds, options.groups * options.max_rounds);
}

// A warmer destroyed while its spin runs stops it and frees its objects
// only after the spin ended: the validation layer reports nothing.
TEST_F(ClockWarmerTest, DestroyingARunningWarmerIsClean) {
  ClockWarmerOptions options;
  options.max_rounds = 4000;
  options.round_steps = 7;
  absl::StatusOr<std::unique_ptr<ClockWarmer>> warmer =
      ClockWarmer::Start(device(), options);
  ASSERT_TRUE(warmer.ok()) << warmer.status();
  warmer->reset();
}

// A build that ends before the start is due never loads the device.
TEST_F(ClockWarmerTest, FinishBeforeTheStartIsDueCancelsIt) {
  DelayedClockWarmer warmer(device(), absl::Now() + absl::Hours(1));
  absl::StatusOr<absl::Duration> busy = warmer.Finish();
  ASSERT_TRUE(busy.ok()) << busy.status();
  EXPECT_EQ(*busy, absl::ZeroDuration());
}

// A start that is due runs the spin until Finish stops it.
TEST_F(ClockWarmerTest, AStartThatIsDueRunsUntilFinish) {
  ClockWarmerOptions options;
  options.groups = 4096;
  options.max_rounds = 4000;
  options.round_steps = 7;
  DelayedClockWarmer warmer(device(), absl::Now(), options);
  absl::SleepFor(absl::Milliseconds(200));
  absl::StatusOr<absl::Duration> busy = warmer.Finish();
  ASSERT_TRUE(busy.ok()) << busy.status();
  EXPECT_GT(*busy, absl::ZeroDuration());
}

// Destroying a delayed warmer whose spin runs stops it cleanly.
TEST_F(ClockWarmerTest, DestroyingADelayedWarmerStopsItsSpin) {
  ClockWarmerOptions options;
  options.max_rounds = 4000;
  options.round_steps = 7;
  {
    DelayedClockWarmer warmer(device(), absl::Now(), options);
    absl::SleepFor(absl::Milliseconds(100));
  }
}

// An executor built with the warmer on runs as without it (the warmer is
// stopped before its first dispatch), with the validation layer clean.
TEST(ClockWarmerExecutorTest, ExecutorWithTheWarmerRunsItsFirstExecution) {
  GpuExecutorOptions options = CpuOptions("magic.fz");
  options.warm_clock = GpuExecutorOptions::WarmClock::kOn;
  options.warm_clock_delay = absl::ZeroDuration();
  std::unique_ptr<GpuExecutor> executor = MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  EXPECT_GT(executor->clock_warm_time(), absl::ZeroDuration());
  absl::StatusOr<BatchResult> crash = executor->Execute(Str("FUZ!"));
  ASSERT_TRUE(crash.ok()) << crash.status();
  ASSERT_EQ(crash->finds.size(), 1u);
  EXPECT_EQ(crash->finds[0].kind, Find::Kind::kCrash);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// By default CPU devices are left alone: the host's cores build the target.
TEST(ClockWarmerExecutorTest, CpuDevicesAreNotWarmedByDefault) {
  std::unique_ptr<GpuExecutor> executor = MakeExecutor(CpuOptions("magic.fz"));
  ASSERT_NE(executor, nullptr);
  EXPECT_EQ(executor->clock_warm_time(), absl::ZeroDuration());
}

}  // namespace
}  // namespace ringfuzz

// A campaign survives a lost device (VK_ERROR_DEVICE_LOST from
// vkQueueSubmit, injected through the runtime's Vulkan function table,
// runtime/vk_functions.h) at five points: running the seeds, logging new
// inputs' comparisons, the first fuzzing round, and later ones. The engine
// makes a new executor, gives it the corpus and runs the lost work again;
// the campaign still finds the bug.
#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>

#include "fuzz/engine/engine.h"
#include "fuzz/gpu/gpu_executor.h"
#include "gtest/gtest.h"
#include "runtime/vk_functions.h"
#include "tests/corpus/temp_dir.h"

namespace ringfuzz {
namespace {

// vkQueueSubmit that reports VK_ERROR_DEVICE_LOST, submitting nothing, at its
// `lose_at`-th call (from 1) and passes every other call on.
uint64_t lose_at = 0;
uint64_t submits = 0;
PFN_vkQueueSubmit real_submit = nullptr;
VkResult SubmitOrLose(VkQueue queue, uint32_t count, const VkSubmitInfo* info,
                      VkFence fence) {
  if (++submits == lose_at) return VK_ERROR_DEVICE_LOST;
  return real_submit(queue, count, info, fence);
}

class DeviceLostTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(DeviceLostTest, CampaignSurvivesALostDevice) {
  TempDir dir;
  const std::string corpus = dir.Sub("corpus");
  ASSERT_EQ(mkdir(corpus.c_str(), 0755), 0);
  std::ofstream(corpus + "/seed") << "AAAA";
  GpuExecutorOptions options;
  options.target_path = std::string(RF_TEST_DATA) + "/magic.fz";
  options.device = "cpu";
  options.validation = true;
  absl::StatusOr<std::unique_ptr<GpuExecutor>> first =
      GpuExecutor::Create(options);
  ASSERT_TRUE(first.ok()) << first.status();
  // Armed once the executor is built: submissions from here on are its
  // dispatches (the build's own warm-up dispatches are not counted).
  vk::ScopedVkFunctions faults;
  real_submit = faults.original().vkQueueSubmit;
  submits = 0;
  lose_at = GetParam();
  faults.table().vkQueueSubmit = SubmitOrLose;
  Config config;
  config.seed = 1;
  config.max_total_time = 120;
  config.artifact_prefix = dir.Sub("");
  std::ostringstream log;
  Engine engine(config, **first, log);
  int made = 0;
  engine.SetExecutorFactory([&]() -> absl::StatusOr<std::unique_ptr<Executor>> {
    ++made;
    absl::StatusOr<std::unique_ptr<GpuExecutor>> made_executor =
        GpuExecutor::Create(options);
    if (!made_executor.ok()) return made_executor.status();
    return std::unique_ptr<Executor>(*std::move(made_executor));
  });
  const int code = engine.Run({corpus});
  EXPECT_EQ(code, 77) << log.str();  // the bug, found after the loss
  EXPECT_EQ(made, 1) << log.str();
  EXPECT_GE(submits, lose_at);  // the loss happened
  EXPECT_NE(log.str().find("WARNING: the device was lost (vkQueueSubmit "
                           "failed: VK_ERROR_DEVICE_LOST"),
            std::string::npos)
      << log.str();
  EXPECT_NE(log.str().find("fz_crash(code=7)"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(FivePoints, DeviceLostTest,
                         ::testing::Values(1, 2, 3, 5, 9));

}  // namespace
}  // namespace ringfuzz

// Targets with shared arrays on lavapipe: the limit is the device's
// maxComputeSharedMemorySize (less the megakernel's own shared words), not
// the 16384 bytes Vulkan guarantees every device.
#include <cstdint>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/device_info.h"
#include "runtime/instance.h"
#include "tests/corpus/temp_dir.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;

// The CPU device ringfuzz picks with -device=cpu.
vk::PhysicalDeviceInfo CpuDevice() {
  absl::StatusOr<vk::Instance> instance = vk::Instance::Create({});
  EXPECT_TRUE(instance.ok()) << instance.status();
  if (!instance.ok()) return {};
  absl::StatusOr<std::vector<vk::PhysicalDeviceInfo>> devices =
      instance->EnumerateDevices();
  EXPECT_TRUE(devices.ok()) << devices.status();
  if (!devices.ok()) return {};
  absl::StatusOr<uint32_t> cpu = vk::SelectDevice(*devices, "cpu");
  EXPECT_TRUE(cpu.ok()) << cpu.status();
  return cpu.ok() ? (*devices)[*cpu] : vk::PhysicalDeviceInfo{};
}

// Writes a target with one shared array of `bytes` bytes; returns its path.
std::string WriteSharedTarget(const TempDir& dir, uint64_t bytes) {
  const std::string path = dir.Sub("shared.fz");
  std::ofstream(path) << "shared uint table[" << bytes / 4
                      << "];\n"
                         "void fz_target(uint len) {\n"
                         "  if (len < 2u) return;\n"
                         "  table[fz_byte(0u)] = fz_byte(1u);\n"
                         "  barrier();\n"
                         "  if (table[fz_byte(1u)] == 7u) fz_crash(1u);\n"
                         "}\n";
  return path;
}

TEST(SharedMemoryTest, TargetsGetTheDevicesSharedMemory) {
  const vk::PhysicalDeviceInfo device = CpuDevice();
  // lavapipe has more than Vulkan's guarantee; the test needs that.
  ASSERT_GT(device.max_compute_shared_memory_bytes, 16384u)
      << vk::Describe(device);
  TempDir dir;
  // Past the 16384 bytes of the guarantee, within the device's limit.
  const uint64_t fits = device.max_compute_shared_memory_bytes - 1024;
  GpuExecutorOptions options = gpu_test::CpuOptions("");
  options.target_path = WriteSharedTarget(dir, fits);
  auto executor = gpu_test::MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->Execute(gpu_test::Str("ab")).ok());
  executor.reset();

  options.target_path =
      WriteSharedTarget(dir, device.max_compute_shared_memory_bytes);
  absl::StatusOr<std::unique_ptr<GpuExecutor>> refused =
      GpuExecutor::Create(options);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(refused.status())) << refused.status();
  // The name's SIMD width depends on LP_NATIVE_VECTOR_WIDTH, which the
  // executor sets: match the name up to it.
  const std::string stem = device.name.substr(0, device.name.find(" ("));
  EXPECT_THAT(refused.status().message(), HasSubstr(stem));
  EXPECT_THAT(refused.status().message(),
              HasSubstr("'s maxComputeSharedMemorySize is " +
                        std::to_string(device.max_compute_shared_memory_bytes) +
                        " bytes, of which ringfuzz's megakernel uses "));
}

}  // namespace
}  // namespace ringfuzz

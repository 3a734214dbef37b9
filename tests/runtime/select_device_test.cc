#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/device_info.h"

namespace ringfuzz::vk {
namespace {

constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);

PhysicalDeviceInfo Lavapipe(uint32_t index) {
  PhysicalDeviceInfo info;
  info.index = index;
  info.name = "llvmpipe (LLVM 15.0.6, 256 bits)";
  info.driver_name = "llvmpipe";
  info.is_cpu = true;
  info.is_lavapipe = true;
  info.subgroup_size = 8;
  info.api_version = kVulkan13;
  return info;
}

PhysicalDeviceInfo Gpu(uint32_t index, std::string name, bool discrete) {
  PhysicalDeviceInfo info;
  info.index = index;
  info.name = std::move(name);
  info.is_discrete = discrete;
  info.subgroup_size = 32;
  info.api_version = kVulkan13;
  return info;
}

std::vector<PhysicalDeviceInfo> ThreeDevices() {
  return {Lavapipe(0), Gpu(1, "Intel(R) UHD Graphics 770", false),
          Gpu(2, "NVIDIA H200", true)};
}

TEST(SelectDeviceTest, EmptySpecPrefersDiscreteThenGpuThenCpu) {
  EXPECT_EQ(SelectDevice(ThreeDevices(), "").value(), 2u);
  std::vector<PhysicalDeviceInfo> no_discrete = {
      Lavapipe(0), Gpu(1, "Intel(R) UHD Graphics 770", false)};
  EXPECT_EQ(SelectDevice(no_discrete, "").value(), 1u);
  std::vector<PhysicalDeviceInfo> cpu_only = {Lavapipe(0)};
  EXPECT_EQ(SelectDevice(cpu_only, "").value(), 0u);
}

TEST(SelectDeviceTest, KeywordsAreCaseInsensitive) {
  EXPECT_EQ(SelectDevice(ThreeDevices(), "cpu").value(), 0u);
  EXPECT_EQ(SelectDevice(ThreeDevices(), "CPU").value(), 0u);
  // "gpu" is the first non-CPU device, integrated or not.
  EXPECT_EQ(SelectDevice(ThreeDevices(), "gpu").value(), 1u);
  EXPECT_EQ(SelectDevice(ThreeDevices(), " Gpu ").value(), 1u);
}

TEST(SelectDeviceTest, NumberSelectsByIndexField) {
  EXPECT_EQ(SelectDevice(ThreeDevices(), "0").value(), 0u);
  EXPECT_EQ(SelectDevice(ThreeDevices(), "2").value(), 2u);
  std::vector<PhysicalDeviceInfo> renumbered = {Gpu(5, "A", true),
                                                Gpu(7, "B", true)};
  EXPECT_EQ(SelectDevice(renumbered, "7").value(), 7u);
}

TEST(SelectDeviceTest, OtherSpecIsCaseInsensitiveNameSubstring) {
  EXPECT_EQ(SelectDevice(ThreeDevices(), "h200").value(), 2u);
  EXPECT_EQ(SelectDevice(ThreeDevices(), "LLVMPIPE").value(), 0u);
  EXPECT_EQ(SelectDevice(ThreeDevices(), "uhd graphics").value(), 1u);
}

TEST(SelectDeviceTest, NoMatchListsDevicesAndHowToPick) {
  for (const char* spec : {"9", "radeon"}) {
    absl::StatusOr<uint32_t> selected = SelectDevice(ThreeDevices(), spec);
    ASSERT_FALSE(selected.ok()) << spec;
    EXPECT_EQ(selected.status().code(), absl::StatusCode::kNotFound);
    const std::string message(selected.status().message());
    EXPECT_NE(message.find(spec), std::string::npos) << message;
    EXPECT_NE(message.find("0: llvmpipe (LLVM 15.0.6, 256 bits)"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("1: Intel(R) UHD Graphics 770"), std::string::npos)
        << message;
    EXPECT_NE(message.find("2: NVIDIA H200"), std::string::npos) << message;
    EXPECT_NE(message.find("-device=N"), std::string::npos) << message;
    EXPECT_NE(message.find("-device=cpu"), std::string::npos) << message;
  }
}

TEST(SelectDeviceTest, CpuOrGpuMissingIsAnError) {
  std::vector<PhysicalDeviceInfo> gpu_only = {Gpu(0, "NVIDIA H200", true)};
  EXPECT_FALSE(SelectDevice(gpu_only, "cpu").ok());
  std::vector<PhysicalDeviceInfo> cpu_only = {Lavapipe(0)};
  EXPECT_FALSE(SelectDevice(cpu_only, "gpu").ok());
}

TEST(SelectDeviceTest, NoDevicesSaysWhatToInstall) {
  absl::StatusOr<uint32_t> selected = SelectDevice({}, "");
  ASSERT_FALSE(selected.ok());
  EXPECT_NE(selected.status().message().find("mesa-vulkan-drivers"),
            std::string::npos)
      << selected.status();
}

TEST(DescribeTest, LavapipeIsOneTaggedLine) {
  EXPECT_EQ(Describe(Lavapipe(0)),
            "llvmpipe (LLVM 15.0.6, 256 bits) [cpu, lavapipe, subgroup 8, "
            "Vulkan 1.3]");
}

TEST(DescribeTest, DiscreteGpuShowsHostVisibleDeviceMemory) {
  PhysicalDeviceInfo h200 = Gpu(2, "NVIDIA H200", true);
  h200.device_local_bytes = 143ull << 30;
  h200.has_device_local_host_visible = true;
  EXPECT_EQ(Describe(h200),
            "NVIDIA H200 [discrete gpu, subgroup 32, Vulkan 1.3, 143.0 GiB "
            "device-local host-visible]");
}

}  // namespace
}  // namespace ringfuzz::vk

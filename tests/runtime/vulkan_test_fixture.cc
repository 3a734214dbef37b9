#include "tests/runtime/vulkan_test_fixture.h"

#include <cstdlib>
#include <utility>

#include "runtime/device_info.h"
#include "runtime/shader_compiler.h"

namespace ringfuzz::vk {

std::string TestDeviceSpec() {
  const char* spec = std::getenv("RINGFUZZ_TEST_DEVICE");
  return spec != nullptr ? spec : "llvmpipe";
}

void VulkanTest::SetUp() {
  InstanceOptions options;
  options.validation = true;
  absl::StatusOr<Instance> instance = Instance::Create(options);
  ASSERT_TRUE(instance.ok()) << instance.status();
  instance_.emplace(*std::move(instance));
  ASSERT_TRUE(instance_->validation_enabled());

  absl::StatusOr<std::vector<PhysicalDeviceInfo>> devices =
      instance_->EnumerateDevices();
  ASSERT_TRUE(devices.ok()) << devices.status();
  absl::StatusOr<uint32_t> index = SelectDevice(*devices, TestDeviceSpec());
  ASSERT_TRUE(index.ok()) << index.status();
  absl::StatusOr<Device> device =
      Device::Create(*instance_, (*devices)[*index]);
  ASSERT_TRUE(device.ok()) << device.status();
  device_.emplace(*std::move(device));
}

void VulkanTest::TearDown() {
  device_.reset();
  if (instance_.has_value()) {
    EXPECT_EQ(instance_->validation_messages(), 0u)
        << "last: " << instance_->last_validation_message();
  }
}

std::vector<uint32_t> CompileOrDie(const std::string& glsl) {
  absl::StatusOr<std::vector<uint32_t>> spirv =
      CompileComputeShader({"test.comp", glsl}, {}, CompileOptions{});
  EXPECT_TRUE(spirv.ok()) << spirv.status();
  return spirv.ok() ? *std::move(spirv) : std::vector<uint32_t>{};
}

}  // namespace ringfuzz::vk

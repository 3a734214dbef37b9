#include "runtime/instance.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/buffer.h"
#include "runtime/device.h"
#include "runtime/device_info.h"
#include "tests/runtime/vulkan_test_fixture.h"

namespace ringfuzz::vk {
namespace {

using InstanceDeviceTest = VulkanTest;

TEST_F(InstanceDeviceTest, EnumeratesTheTestDevice) {
  absl::StatusOr<std::vector<PhysicalDeviceInfo>> devices =
      instance_->EnumerateDevices();
  ASSERT_TRUE(devices.ok()) << devices.status();
  ASSERT_FALSE(devices->empty());
  for (uint32_t i = 0; i < devices->size(); ++i) {
    EXPECT_EQ((*devices)[i].index, i);
  }
  const PhysicalDeviceInfo& info = device().info();
  std::printf("test device: %s\n", Describe(info).c_str());
  EXPECT_GE(info.api_version, VK_API_VERSION_1_2);
  EXPECT_GT(info.subgroup_size, 0u);
  EXPECT_GT(info.max_storage_buffer_range, 0u);
  EXPECT_GE(info.max_workgroup_size_x, 64u);
  EXPECT_GT(info.max_workgroup_count_x, 0u);
  EXPECT_GE(info.max_invocations_per_workgroup, 64u);
}

TEST_F(InstanceDeviceTest, LavapipeIsDescribedAsSuch) {
  const PhysicalDeviceInfo& info = device().info();
  if (!info.is_lavapipe) GTEST_SKIP() << "not lavapipe: " << Describe(info);
  const std::string line = Describe(info);
  EXPECT_NE(line.find("llvmpipe"), std::string::npos) << line;
  EXPECT_NE(line.find("[cpu, lavapipe, subgroup"), std::string::npos) << line;
  EXPECT_TRUE(info.is_cpu);
  EXPECT_TRUE(info.has_device_local_host_visible);
  // Facts the megakernel relies on (docs: platform-facts.md, lavapipe).
  EXPECT_TRUE(device().features().shader_int64);
  EXPECT_TRUE(device().features().storage_buffer_8bit_access);
  EXPECT_TRUE(device().features().vulkan_memory_model);
}

TEST_F(InstanceDeviceTest, DeviceHasAComputeQueue) {
  EXPECT_NE(device().handle(), VK_NULL_HANDLE);
  EXPECT_NE(device().queue(), VK_NULL_HANDLE);
  EXPECT_NE(device().physical(), VK_NULL_HANDLE);
  EXPECT_GT(device().memory_properties().memoryTypeCount, 0u);
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device().physical(), &count,
                                           nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device().physical(), &count,
                                           families.data());
  ASSERT_LT(device().queue_family(), count);
  EXPECT_TRUE(families[device().queue_family()].queueFlags &
              VK_QUEUE_COMPUTE_BIT);
}

TEST_F(InstanceDeviceTest, MovedDeviceKeepsWorking) {
  Device moved = *std::move(device_);
  device_.reset();
  absl::StatusOr<Buffer> buffer = Buffer::Create(moved, 256);
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  buffer->words()[0] = 7;
  EXPECT_EQ(buffer->words()[0], 7u);
}

// Not a VulkanTest: it makes the layer complain on purpose.
TEST(ValidationTest, CountsLayerErrors) {
  InstanceOptions options;
  options.validation = true;
  absl::StatusOr<Instance> instance = Instance::Create(options);
  ASSERT_TRUE(instance.ok()) << instance.status();
  absl::StatusOr<std::vector<PhysicalDeviceInfo>> devices =
      instance->EnumerateDevices();
  ASSERT_TRUE(devices.ok()) << devices.status();
  absl::StatusOr<uint32_t> index = SelectDevice(*devices, TestDeviceSpec());
  ASSERT_TRUE(index.ok()) << index.status();
  {
    absl::StatusOr<Device> device =
        Device::Create(*instance, (*devices)[*index]);
    ASSERT_TRUE(device.ok()) << device.status();
    EXPECT_EQ(instance->validation_messages(), 0u)
        << instance->last_validation_message();

    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = 0;  // Invalid: VUID-VkBufferCreateInfo-size-00912.
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    if (vkCreateBuffer(device->handle(), &info, nullptr, &buffer) ==
            VK_SUCCESS &&
        buffer != VK_NULL_HANDLE) {
      vkDestroyBuffer(device->handle(), buffer, nullptr);
    }
  }
  EXPECT_GE(instance->validation_messages(), 1u);
  EXPECT_NE(instance->last_validation_message().find("size"), std::string::npos)
      << instance->last_validation_message();

  // Moving the instance keeps the messenger's state reachable.
  Instance moved = *std::move(instance);
  EXPECT_GE(moved.validation_messages(), 1u);
}

TEST(ValidationTest, EnvironmentVariableForcesValidation) {
  ASSERT_EQ(setenv("RINGFUZZ_VALIDATION", "1", 1), 0);
  absl::StatusOr<Instance> instance = Instance::Create(InstanceOptions{});
  unsetenv("RINGFUZZ_VALIDATION");
  ASSERT_TRUE(instance.ok()) << instance.status();
  EXPECT_TRUE(instance->validation_enabled());

  absl::StatusOr<Instance> plain = Instance::Create(InstanceOptions{});
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_FALSE(plain->validation_enabled());
  EXPECT_EQ(plain->validation_messages(), 0u);
}

}  // namespace
}  // namespace ringfuzz::vk

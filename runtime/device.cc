#include "runtime/device.h"

#include <cstring>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/status_macros.h"
#include "runtime/vk_check.h"
#include "runtime/vk_functions.h"

namespace ringfuzz::vk {
namespace {

absl::StatusOr<uint32_t> ComputeQueueFamily(VkPhysicalDevice physical,
                                            const PhysicalDeviceInfo& info) {
  uint32_t count = 0;
  Vk().vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  Vk().vkGetPhysicalDeviceQueueFamilyProperties(physical, &count,
                                                families.data());
  for (uint32_t i = 0; i < count; ++i) {
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
        families[i].queueCount > 0) {
      return i;
    }
  }
  return absl::FailedPreconditionError(
      absl::StrCat(Describe(info),
                   " has no compute queue. Pick another device with "
                   "-device=N|cpu|gpu|name."));
}

// The supported subset of what the megakernel can use, as Vulkan structs
// ready to chain into VkDeviceCreateInfo.
// `clock` is chained only where the device has VK_KHR_shader_clock.
struct FeatureChain {
  VkPhysicalDeviceFeatures2 core{};
  VkPhysicalDeviceVulkan11Features v11{};
  VkPhysicalDeviceVulkan12Features v12{};
  VkPhysicalDeviceShaderClockFeaturesKHR clock{};

  explicit FeatureChain(bool with_clock) {
    core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    clock.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR;
    core.pNext = &v11;
    v11.pNext = &v12;
    if (with_clock) v12.pNext = &clock;
  }
  FeatureChain(const FeatureChain&) = delete;
  FeatureChain& operator=(const FeatureChain&) = delete;
};

DeviceFeatures EnableSupported(const FeatureChain& supported,
                               FeatureChain& enabled) {
  DeviceFeatures f;
  f.shader_int64 = supported.core.features.shaderInt64;
  f.shader_int16 = supported.core.features.shaderInt16;
  f.shader_int8 = supported.v12.shaderInt8;
  f.storage_buffer_8bit_access = supported.v12.storageBuffer8BitAccess;
  f.storage_buffer_16bit_access = supported.v11.storageBuffer16BitAccess;
  f.vulkan_memory_model = supported.v12.vulkanMemoryModel;
  f.vulkan_memory_model_device_scope =
      supported.v12.vulkanMemoryModelDeviceScope;
  f.shader_buffer_int64_atomics = supported.v12.shaderBufferInt64Atomics;
  f.shader_device_clock = supported.clock.shaderDeviceClock;

  enabled.core.features.shaderInt64 = f.shader_int64;
  enabled.core.features.shaderInt16 = f.shader_int16;
  enabled.v12.shaderInt8 = f.shader_int8;
  enabled.v12.storageBuffer8BitAccess = f.storage_buffer_8bit_access;
  enabled.v11.storageBuffer16BitAccess = f.storage_buffer_16bit_access;
  enabled.v12.vulkanMemoryModel = f.vulkan_memory_model;
  enabled.v12.vulkanMemoryModelDeviceScope = f.vulkan_memory_model_device_scope;
  enabled.v12.shaderBufferInt64Atomics = f.shader_buffer_int64_atomics;
  enabled.clock.shaderDeviceClock = f.shader_device_clock;
  return f;
}

// True iff `physical` offers device extension `name`.
absl::StatusOr<bool> HasExtension(VkPhysicalDevice physical, const char* name) {
  uint32_t count = 0;
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkEnumerateDeviceExtensionProperties(
      physical, nullptr, &count, nullptr));
  std::vector<VkExtensionProperties> extensions(count);
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkEnumerateDeviceExtensionProperties(
      physical, nullptr, &count, extensions.data()));
  extensions.resize(count);
  for (const VkExtensionProperties& e : extensions) {
    if (std::strcmp(e.extensionName, name) == 0) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<Device> Device::Create(const Instance& instance,
                                      const PhysicalDeviceInfo& info) {
  if (info.api_version < VK_API_VERSION_1_2) {
    return absl::FailedPreconditionError(absl::StrCat(
        Describe(info), " supports only Vulkan ",
        VK_API_VERSION_MAJOR(info.api_version), ".",
        VK_API_VERSION_MINOR(info.api_version),
        "; ringfuzz needs 1.2. Update the driver or pick another device with "
        "-device=N|cpu|gpu|name."));
  }
  RINGFUZZ_ASSIGN_OR_RETURN(VkPhysicalDevice physical,
                            instance.PhysicalDevice(info.index));
  VkPhysicalDeviceProperties properties{};
  Vk().vkGetPhysicalDeviceProperties(physical, &properties);
  if (info.name != properties.deviceName) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Vulkan device ", info.index, " is now \"", properties.deviceName,
        "\", not \"", info.name,
        "\": the device list changed. Enumerate the devices again."));
  }

  Device device;
  device.physical_ = physical;
  device.info_ = info;
  device.limits_ = properties.limits;
  Vk().vkGetPhysicalDeviceMemoryProperties(physical,
                                           &device.memory_properties_);
  device.queue_mutex_ = std::make_unique<std::mutex>();
  RINGFUZZ_ASSIGN_OR_RETURN(device.queue_family_,
                            ComputeQueueFamily(physical, info));

  RINGFUZZ_ASSIGN_OR_RETURN(
      const bool has_clock,
      HasExtension(physical, VK_KHR_SHADER_CLOCK_EXTENSION_NAME));
  FeatureChain supported(has_clock);
  Vk().vkGetPhysicalDeviceFeatures2(physical, &supported.core);
  FeatureChain enabled(has_clock);
  device.features_ = EnableSupported(supported, enabled);
  std::vector<const char*> extensions;
  if (device.features_.shader_device_clock) {
    extensions.push_back(VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
  }

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = device.queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;

  VkDeviceCreateInfo create_info{};
  create_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  create_info.pNext = &enabled.core;
  create_info.queueCreateInfoCount = 1;
  create_info.pQueueCreateInfos = &queue_info;
  create_info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create_info.ppEnabledExtensionNames = extensions.data();
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkCreateDevice(
      physical, &create_info, nullptr, device.device_.Receive(nullptr)));
  Vk().vkGetDeviceQueue(device.device_.get(), device.queue_family_, 0,
                        &device.queue_);
  return device;
}

Device::~Device() {
  if (!device_) return;
  std::lock_guard<std::mutex> lock(*queue_mutex_);
  // A lost device reports an error here; destruction proceeds regardless.
  (void)Vk().vkDeviceWaitIdle(device_.get());
}

}  // namespace ringfuzz::vk

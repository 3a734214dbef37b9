#include "runtime/device_query.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "runtime/vk_functions.h"

namespace ringfuzz::vk {
namespace {

constexpr VkMemoryPropertyFlags kDeviceLocalHostVisible =
    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

}  // namespace

PhysicalDeviceInfo QueryPhysicalDevice(VkPhysicalDevice physical,
                                       uint32_t index) {
  VkPhysicalDeviceProperties base{};
  Vk().vkGetPhysicalDeviceProperties(physical, &base);

  // Chained structs must exist in the device's core version, or the
  // validation layer objects: subgroup properties are 1.1, driver 1.2.
  VkPhysicalDeviceDriverProperties driver{};
  driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  if (base.apiVersion >= VK_API_VERSION_1_1) {
    properties.pNext = &subgroup;
    if (base.apiVersion >= VK_API_VERSION_1_2) subgroup.pNext = &driver;
    Vk().vkGetPhysicalDeviceProperties2(physical, &properties);
  } else {
    properties.properties = base;
  }
  const VkPhysicalDeviceLimits& limits = properties.properties.limits;

  PhysicalDeviceInfo info;
  info.index = index;
  info.name = properties.properties.deviceName;
  info.driver_name = driver.driverName;
  info.is_cpu = base.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  info.is_discrete = base.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
  info.api_version = base.apiVersion;
  info.subgroup_size = subgroup.subgroupSize;
  info.max_storage_buffer_range = limits.maxStorageBufferRange;
  info.max_workgroup_size_x = limits.maxComputeWorkGroupSize[0];
  info.max_workgroup_count_x = limits.maxComputeWorkGroupCount[0];
  info.max_invocations_per_workgroup = limits.maxComputeWorkGroupInvocations;
  info.max_compute_shared_memory_bytes = limits.maxComputeSharedMemorySize;
  info.is_lavapipe =
      driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE ||
      absl::StrContains(absl::AsciiStrToLower(info.name), "llvmpipe");

  VkPhysicalDeviceMemoryProperties memory{};
  Vk().vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if ((memory.memoryTypes[i].propertyFlags & kDeviceLocalHostVisible) ==
        kDeviceLocalHostVisible) {
      info.has_device_local_host_visible = true;
    }
  }
  for (uint32_t i = 0; i < memory.memoryHeapCount; ++i) {
    if (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) {
      info.device_local_bytes += memory.memoryHeaps[i].size;
    }
  }
  return info;
}

}  // namespace ringfuzz::vk

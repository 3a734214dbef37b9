#include "runtime/memory_type.h"

namespace ringfuzz::vk {
namespace {

constexpr VkMemoryPropertyFlags kMappable =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

}  // namespace

bool IsDeviceLocal(const VkPhysicalDeviceMemoryProperties& memory,
                   uint32_t index) {
  return index < memory.memoryTypeCount &&
         (memory.memoryTypes[index].propertyFlags &
          VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0;
}

std::vector<uint32_t> HostVisibleMemoryTypes(
    const VkPhysicalDeviceMemoryProperties& memory, uint32_t type_bits) {
  std::vector<uint32_t> device_local;
  std::vector<uint32_t> system;
  for (uint32_t i = 0; i < memory.memoryTypeCount && i < 32; ++i) {
    if ((type_bits & (1u << i)) == 0) continue;
    if ((memory.memoryTypes[i].propertyFlags & kMappable) != kMappable) {
      continue;
    }
    (IsDeviceLocal(memory, i) ? device_local : system).push_back(i);
  }
  device_local.insert(device_local.end(), system.begin(), system.end());
  return device_local;
}

}  // namespace ringfuzz::vk

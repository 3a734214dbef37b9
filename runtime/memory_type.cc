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
    const VkPhysicalDeviceMemoryProperties& memory, uint32_t type_bits,
    Placement placement) {
  std::vector<uint32_t> device_local, cached, system;
  for (uint32_t i = 0; i < memory.memoryTypeCount && i < 32; ++i) {
    if ((type_bits & (1u << i)) == 0) continue;
    const VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
    if ((flags & kMappable) != kMappable) continue;
    if (IsDeviceLocal(memory, i)) {
      device_local.push_back(i);
    } else if (placement == Placement::kHost &&
               (flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) != 0) {
      cached.push_back(i);
    } else {
      system.push_back(i);
    }
  }
  std::vector<uint32_t> order;
  if (placement == Placement::kDevice) {
    order = device_local;
    order.insert(order.end(), system.begin(), system.end());
  } else {
    order = cached;
    order.insert(order.end(), system.begin(), system.end());
    order.insert(order.end(), device_local.begin(), device_local.end());
  }
  return order;
}

}  // namespace ringfuzz::vk

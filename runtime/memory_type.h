// Which Vulkan memory types can hold a host-mapped storage buffer, best
// first. Pure function of the device's memory table, testable with made-up
// tables (e.g. the H200's, where type 4 is device-local and host-visible).

#ifndef RINGFUZZ_RUNTIME_MEMORY_TYPE_H_
#define RINGFUZZ_RUNTIME_MEMORY_TYPE_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace ringfuzz::vk {

// Returns the indices of the memory types allowed by `type_bits` (from
// VkMemoryRequirements) that are HOST_VISIBLE|HOST_COHERENT: first those that
// are also DEVICE_LOCAL (the GPU's hot maps stay on the device while the host
// still reads them without copies), then the rest, each group in Vulkan's
// own order. Empty iff no allowed type is host-visible and coherent.
// Non-coherent types are never offered: the host polls buffers while a
// dispatch runs, and that needs no flush or invalidate.
std::vector<uint32_t> HostVisibleMemoryTypes(
    const VkPhysicalDeviceMemoryProperties& memory, uint32_t type_bits);

// True iff memory type `index` of `memory` is DEVICE_LOCAL.
bool IsDeviceLocal(const VkPhysicalDeviceMemoryProperties& memory,
                   uint32_t index);

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_MEMORY_TYPE_H_

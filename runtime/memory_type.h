// Which Vulkan memory types can hold a host-mapped storage buffer, best
// first. Pure function of the device's memory table, testable with made-up
// tables (e.g. the H200's, where type 4 is device-local and host-visible).

#ifndef RINGFUZZ_RUNTIME_MEMORY_TYPE_H_
#define RINGFUZZ_RUNTIME_MEMORY_TYPE_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace ringfuzz::vk {

// Where a buffer should live, given who touches it most.
enum class Placement {
  // The GPU reads and writes it at every execution (maps, corpus): device
  // memory, which on a discrete GPU the host reads uncached across PCIe.
  kDevice,
  // The host reads it every round and the GPU touches it a few times per
  // ring slot (ring, find queue, compare logs): system memory the host
  // caches, so that host reads cost what reads of its own memory cost.
  kHost,
};

// Returns the indices of the memory types allowed by `type_bits` (from
// VkMemoryRequirements) that are HOST_VISIBLE|HOST_COHERENT, best first for
// `placement`, each group in Vulkan's own order:
//  * kDevice: those that are also DEVICE_LOCAL (the GPU's hot maps stay on
//    the device while the host still reads them without copies), then the
//    rest;
//  * kHost: those that are HOST_CACHED and not DEVICE_LOCAL, then the other
//    ones that are not DEVICE_LOCAL, then the DEVICE_LOCAL ones (on
//    lavapipe, whose one type is all of these, that one).
// Empty iff no allowed type is host-visible and coherent. Non-coherent
// types are never offered: the host polls buffers while a dispatch runs,
// and that needs no flush or invalidate.
std::vector<uint32_t> HostVisibleMemoryTypes(
    const VkPhysicalDeviceMemoryProperties& memory, uint32_t type_bits,
    Placement placement = Placement::kDevice);

// True iff memory type `index` of `memory` is DEVICE_LOCAL.
bool IsDeviceLocal(const VkPhysicalDeviceMemoryProperties& memory,
                   uint32_t index);

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_MEMORY_TYPE_H_

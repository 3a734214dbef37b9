// Reads a VkPhysicalDevice's properties into the plain PhysicalDeviceInfo
// that selection and logging use.

#ifndef RINGFUZZ_RUNTIME_DEVICE_QUERY_H_
#define RINGFUZZ_RUNTIME_DEVICE_QUERY_H_

#include <vulkan/vulkan.h>

#include <cstdint>

#include "runtime/device_info.h"

namespace ringfuzz::vk {

// Returns the description of `physical`, which sits at `index` in the
// instance's enumeration order. Cannot fail: these queries return void.
PhysicalDeviceInfo QueryPhysicalDevice(VkPhysicalDevice physical,
                                       uint32_t index);

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_DEVICE_QUERY_H_

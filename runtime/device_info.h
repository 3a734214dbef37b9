// What ringfuzz needs to know about a Vulkan physical device, as plain data,
// and how a user's -device spec picks one. Nothing here touches Vulkan, so
// selection is testable without a driver (instance.h fills these in).

#ifndef RINGFUZZ_RUNTIME_DEVICE_INFO_H_
#define RINGFUZZ_RUNTIME_DEVICE_INFO_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace ringfuzz::vk {

struct PhysicalDeviceInfo {
  // Position in vkEnumeratePhysicalDevices order; what -device=N refers to.
  uint32_t index = 0;
  std::string name;          // VkPhysicalDeviceProperties::deviceName
  std::string driver_name;   // VkPhysicalDeviceDriverProperties::driverName
  bool is_cpu = false;       // VK_PHYSICAL_DEVICE_TYPE_CPU
  bool is_discrete = false;  // VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU
  uint32_t api_version = 0;  // VK_MAKE_API_VERSION encoding
  uint32_t subgroup_size = 0;
  uint64_t max_storage_buffer_range = 0;
  uint32_t max_workgroup_size_x = 0;
  uint32_t max_workgroup_count_x = 0;
  uint32_t max_invocations_per_workgroup = 0;
  // VkPhysicalDeviceLimits::maxComputeSharedMemorySize: shared (Workgroup)
  // memory of one workgroup, in bytes.
  uint32_t max_compute_shared_memory_bytes = 0;
  // True iff some memory type is DEVICE_LOCAL|HOST_VISIBLE|HOST_COHERENT, so
  // the host can read hot maps that live in device memory without copies.
  bool has_device_local_host_visible = false;
  uint64_t device_local_bytes = 0;  // sum of DEVICE_LOCAL heaps
  bool is_lavapipe = false;         // Mesa llvmpipe (Vulkan on the CPU)
};

// One line for logs and error messages, e.g.
// "llvmpipe (LLVM 15.0.6, 256 bits) [cpu, lavapipe, subgroup 8, Vulkan 1.3]".
std::string Describe(const PhysicalDeviceInfo& info);

// Returns the `index` field of the device that `spec` (the -device flag)
// selects:
//   ""          the first discrete GPU, else the first other GPU (integrated,
//               virtual, ...), else the first CPU device (lavapipe);
//   "cpu"       the first CPU device;   "gpu"  the first non-CPU device;
//   digits      the device whose index is that number;
//   otherwise   the first device whose name contains `spec`, ignoring case.
// Keywords are case-insensitive. When nothing matches (or `devices` is
// empty) returns NotFound whose message lists every device with its index
// and says how to pick one (-device=N|cpu|gpu|name).
absl::StatusOr<uint32_t> SelectDevice(
    absl::Span<const PhysicalDeviceInfo> devices, std::string_view spec);

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_DEVICE_INFO_H_

// A logical Vulkan device with one compute queue: the thing every buffer,
// pipeline and dispatcher is made from.

#ifndef RINGFUZZ_RUNTIME_DEVICE_H_
#define RINGFUZZ_RUNTIME_DEVICE_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <mutex>

#include "absl/status/statusor.h"
#include "runtime/device_info.h"
#include "runtime/instance.h"
#include "runtime/vk_owned.h"

namespace ringfuzz::vk {

// Optional shader features, enabled iff the device has them. The megakernel
// picks code paths (and glslang defines) from these; none is required.
struct DeviceFeatures {
  bool shader_int64 = false;
  bool shader_int16 = false;
  bool shader_int8 = false;
  bool storage_buffer_8bit_access = false;
  bool storage_buffer_16bit_access = false;
  bool vulkan_memory_model = false;
  bool vulkan_memory_model_device_scope = false;
  bool shader_buffer_int64_atomics = false;
  // VK_KHR_shader_clock's device-scope clock (GL_EXT_shader_realtime_clock):
  // one timeline that every invocation of the device reads.
  bool shader_device_clock = false;
};

// Owns a VkDevice and its compute queue. Move-only.
//
// Lifetime: the Instance must outlive the Device, and the Device must outlive
// every Buffer, ComputePipeline and Dispatcher made from it. Those objects
// keep copies of the raw handles they need (never a Device*), so moving a
// Device is safe while they exist.
class Device {
 public:
  // Creates a device on `info` (an entry of instance.EnumerateDevices()).
  // Fails with FailedPrecondition if the device is older than Vulkan 1.2 or
  // has no queue family with compute support.
  static absl::StatusOr<Device> Create(const Instance& instance,
                                       const PhysicalDeviceInfo& info);

  Device(Device&& other) noexcept = default;
  // Not assignable: the device would have to go idle first.
  Device& operator=(Device&& other) = delete;
  // Waits for the device to go idle, then destroys it.
  ~Device();

  VkDevice handle() const { return device_.get(); }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const PhysicalDeviceInfo& info() const { return info_; }
  VkPhysicalDevice physical() const { return physical_; }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const {
    return memory_properties_;
  }
  const VkPhysicalDeviceLimits& limits() const { return limits_; }
  const DeviceFeatures& features() const { return features_; }

  // Vulkan requires external synchronisation of a VkQueue: hold this while
  // calling vkQueueSubmit/vkQueueWaitIdle on queue(). Its address is stable
  // across moves, so dispatchers may keep a pointer to it.
  std::mutex& queue_mutex() const { return *queue_mutex_; }

 private:
  Device() = default;

  OwnedDevice device_;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  PhysicalDeviceInfo info_;
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  VkPhysicalDeviceLimits limits_{};
  DeviceFeatures features_;
  std::unique_ptr<std::mutex> queue_mutex_;
};

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_DEVICE_H_

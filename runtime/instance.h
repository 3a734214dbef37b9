// The process's connection to the Vulkan loader, optionally with the Khronos
// validation layer, and the list of devices it can see.

#ifndef RINGFUZZ_RUNTIME_INSTANCE_H_
#define RINGFUZZ_RUNTIME_INSTANCE_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/device_info.h"
#include "runtime/vk_owned.h"

namespace ringfuzz::vk {

struct InstanceOptions {
  // Enables VK_LAYER_KHRONOS_validation and counts its warnings and errors.
  // The environment variable RINGFUZZ_VALIDATION=1 turns this on as well, so
  // a user can check a misbehaving campaign without rebuilding.
  bool validation = false;
};

// Owns a VkInstance (Vulkan 1.2 or newer). Move-only. Every Device made from
// an Instance must be destroyed before it.
class Instance {
 public:
  // Fails with FailedPrecondition when there is no Vulkan driver (install
  // mesa-vulkan-drivers or a GPU driver), the loader is older than 1.2, or
  // validation is requested and the layer is missing (install
  // vulkan-validationlayers).
  static absl::StatusOr<Instance> Create(const InstanceOptions& options);

  Instance(Instance&& other) noexcept;
  // Not assignable: the messenger must go before its instance.
  Instance& operator=(Instance&& other) = delete;
  ~Instance();

  VkInstance handle() const { return instance_.get(); }
  // The apiVersion the instance was created with (1.2 or 1.3).
  uint32_t api_version() const { return api_version_; }
  bool validation_enabled() const { return static_cast<bool>(messenger_); }

  // Number of WARNING or ERROR messages the validation layer (or loader)
  // reported since creation; 0 when validation is off. Thread-safe: the
  // layer may call back from any thread that makes Vulkan calls.
  uint64_t validation_messages() const;
  // The most recent such message, "" if none. Thread-safe.
  std::string last_validation_message() const;

  // Describes every physical device in enumeration order. Fails with
  // FailedPrecondition (saying what to install) when there is none.
  absl::StatusOr<std::vector<PhysicalDeviceInfo>> EnumerateDevices() const;
  // The handle of the device at `index` in enumeration order; OutOfRange if
  // there is no such device.
  absl::StatusOr<VkPhysicalDevice> PhysicalDevice(uint32_t index) const;

 private:
  // Messenger state. Heap-allocated so the address handed to the layer's
  // callback stays valid when the Instance moves.
  struct ValidationLog;

  Instance() = default;

  // Destroyed in reverse order: the messenger before its instance, the log
  // last (the layer reports into it until the instance is gone).
  std::unique_ptr<ValidationLog> log_;
  OwnedInstance instance_;
  OwnedMessenger messenger_;
  uint32_t api_version_ = 0;
};

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_INSTANCE_H_

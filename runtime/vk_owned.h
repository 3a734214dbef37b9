// Move-only owners of single Vulkan objects, so that the runtime's wrappers
// (Buffer, ComputePipeline, Dispatcher, Device, Instance) hold owners instead
// of raw handles and get their moves from the compiler.
//
// An Owned holds one handle and the parent it was made from (the VkDevice for
// device objects, the VkInstance for a debug messenger, nothing for the
// instance and the device themselves) and destroys the object with
// kDestroy(parent, handle) when it is reset, reassigned or destroyed. A
// default-constructed or moved-from Owned holds VK_NULL_HANDLE and destroys
// nothing.
//
// Ordering between owners is the holder's business: members are destroyed in
// reverse declaration order, and a holder whose objects must go in a set
// order (a child before its parent, a wait before anything) resets them in
// its destructor.

#ifndef RINGFUZZ_RUNTIME_VK_OWNED_H_
#define RINGFUZZ_RUNTIME_VK_OWNED_H_

#include <vulkan/vulkan.h>

#include <cstddef>
#include <utility>

#include "runtime/vk_functions.h"

namespace ringfuzz::vk {

template <typename Parent, typename Handle, void (*kDestroy)(Parent, Handle)>
class Owned {
 public:
  Owned() = default;
  Owned(Owned&& other) noexcept
      : parent_(std::exchange(other.parent_, Parent{})),
        handle_(std::exchange(other.handle_, Handle{})) {}
  Owned& operator=(Owned&& other) noexcept {
    if (this != &other) {
      reset();
      parent_ = std::exchange(other.parent_, Parent{});
      handle_ = std::exchange(other.handle_, Handle{});
    }
    return *this;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() { reset(); }

  Handle get() const { return handle_; }
  // The handle's address, for the calls that take arrays of handles
  // (vkWaitForFences, pSetLayouts).
  const Handle* address() const { return &handle_; }
  explicit operator bool() const { return handle_ != Handle{}; }

  // Destroys the object held (if any), remembers `parent` and returns where
  // a vkCreate*/vkAllocate* call writes the new handle. The Owned owns
  // whatever non-null handle is written there.
  Handle* Receive(Parent parent) {
    reset();
    parent_ = parent;
    return &handle_;
  }

  // Destroys the object held (if any); the Owned is empty afterwards.
  void reset() {
    if (handle_ != Handle{}) kDestroy(parent_, handle_);
    handle_ = Handle{};
    parent_ = Parent{};
  }

 private:
  Parent parent_{};
  Handle handle_{};
};

// The destroy calls of the owners below. Objects with no parent take a
// std::nullptr_t one.
inline void DestroyInstance(std::nullptr_t, VkInstance instance) {
  Vk().vkDestroyInstance(instance, nullptr);
}
// The debug messenger's destroy function is an extension's: looked up from
// the instance, which therefore must outlive the messenger.
inline void DestroyMessenger(VkInstance instance,
                             VkDebugUtilsMessengerEXT messenger) {
  auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      Vk().vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  if (destroy != nullptr) destroy(instance, messenger, nullptr);
}
inline void DestroyDevice(std::nullptr_t, VkDevice device) {
  Vk().vkDestroyDevice(device, nullptr);
}
// Objects a VkDevice made go with their vkDestroy*/vkFree* entry of the
// function table (vk_functions.h), `kDestroy` being that member. Freeing
// memory also unmaps it (buffers bound to it may be destroyed before or
// after); destroying a pool frees what was allocated from it (command
// buffers, descriptor sets).
template <auto kDestroy, typename Handle>
void DestroyChild(VkDevice device, Handle handle) {
  (Vk().*kDestroy)(device, handle, nullptr);
}
template <typename Handle, auto kDestroy>
using OwnedChild = Owned<VkDevice, Handle, &DestroyChild<kDestroy, Handle>>;

using OwnedInstance = Owned<std::nullptr_t, VkInstance, &DestroyInstance>;
using OwnedMessenger =
    Owned<VkInstance, VkDebugUtilsMessengerEXT, &DestroyMessenger>;
using OwnedDevice = Owned<std::nullptr_t, VkDevice, &DestroyDevice>;
using OwnedBuffer = OwnedChild<VkBuffer, &VkFunctions::vkDestroyBuffer>;
using OwnedMemory = OwnedChild<VkDeviceMemory, &VkFunctions::vkFreeMemory>;
using OwnedSetLayout = OwnedChild<VkDescriptorSetLayout,
                                  &VkFunctions::vkDestroyDescriptorSetLayout>;
using OwnedPipelineLayout =
    OwnedChild<VkPipelineLayout, &VkFunctions::vkDestroyPipelineLayout>;
using OwnedPipeline = OwnedChild<VkPipeline, &VkFunctions::vkDestroyPipeline>;
using OwnedShaderModule =
    OwnedChild<VkShaderModule, &VkFunctions::vkDestroyShaderModule>;
using OwnedCommandPool =
    OwnedChild<VkCommandPool, &VkFunctions::vkDestroyCommandPool>;
using OwnedDescriptorPool =
    OwnedChild<VkDescriptorPool, &VkFunctions::vkDestroyDescriptorPool>;
using OwnedFence = OwnedChild<VkFence, &VkFunctions::vkDestroyFence>;
using OwnedQueryPool =
    OwnedChild<VkQueryPool, &VkFunctions::vkDestroyQueryPool>;

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_VK_OWNED_H_

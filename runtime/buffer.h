// A storage buffer that the host keeps mapped for its whole life: the ring,
// the control words and the result region all live in these.

#ifndef RINGFUZZ_RUNTIME_BUFFER_H_
#define RINGFUZZ_RUNTIME_BUFFER_H_

#include <vulkan/vulkan.h>

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/device.h"
#include "runtime/memory_type.h"
#include "runtime/vk_owned.h"

namespace ringfuzz::vk {

// Owns a VkBuffer (usage STORAGE | TRANSFER_SRC | TRANSFER_DST) and its
// memory, persistently mapped and zero-filled at creation. Move-only; the
// mapping (data()) stays valid, at the same address, until destruction.
//
// The memory is HOST_COHERENT, preferably also DEVICE_LOCAL, or HOST_CACHED
// system memory for Placement::kHost (see memory_type.h). The host may read it
// while a dispatch runs (that is how telemetry is polled); such reads see some
// recent state, not a consistent snapshot. After Dispatcher::Wait returns true,
// all shader writes are visible.
//
// Lifetime: the Device must outlive the Buffer; a Buffer must not be
// destroyed while a submitted dispatch uses it.
class Buffer {
 public:
  // Fails with InvalidArgument if `bytes` is 0 or exceeds the device's
  // maxStorageBufferRange (the message gives the limit and how to shrink),
  // FailedPrecondition if no memory type is host-visible and coherent, and
  // ResourceExhausted if memory runs out.
  // `placement` says where the memory should be (memory_type.h).
  static absl::StatusOr<Buffer> Create(
      const Device& device, VkDeviceSize bytes,
      Placement placement = Placement::kDevice);

  Buffer(Buffer&& other) noexcept = default;
  Buffer& operator=(Buffer&& other) noexcept = default;

  VkBuffer handle() const { return buffer_.get(); }
  // The size that was asked for, in bytes.
  VkDeviceSize size() const { return size_; }
  // True iff the memory is DEVICE_LOCAL (on lavapipe everything is).
  bool device_local() const { return device_local_; }
  uint32_t memory_type() const { return memory_type_; }

  uint8_t* data() { return mapped_; }
  const uint8_t* data() const { return mapped_; }
  absl::Span<uint8_t> bytes() { return {mapped_, size_}; }
  absl::Span<const uint8_t> bytes() const { return {mapped_, size_}; }
  // The mapping as 32-bit words (the wire protocol's unit); size() / 4 of
  // them are valid. The mapping is at least 4-byte aligned.
  uint32_t* words() { return reinterpret_cast<uint32_t*>(mapped_); }
  const uint32_t* words() const {
    return reinterpret_cast<const uint32_t*>(mapped_);
  }

 private:
  Buffer() = default;

  // Freeing the memory unmaps it; the two may go in either order.
  OwnedBuffer buffer_;
  OwnedMemory memory_;
  uint8_t* mapped_ = nullptr;  // stale once moved from
  VkDeviceSize size_ = 0;
  uint32_t memory_type_ = 0;
  bool device_local_ = false;
};

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_BUFFER_H_

#include "runtime/buffer.h"

#include <cstring>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/memory_type.h"
#include "runtime/status_macros.h"
#include "runtime/vk_check.h"
#include "runtime/vk_functions.h"

namespace ringfuzz::vk {
namespace {

std::string Mib(uint64_t bytes) {
  return absl::StrFormat("%.1f MiB", static_cast<double>(bytes) / (1 << 20));
}

absl::Status CheckSize(const Device& device, VkDeviceSize bytes) {
  if (bytes == 0) {
    return absl::InvalidArgumentError(
        "A storage buffer of 0 bytes was requested; Vulkan buffers need at "
        "least 1 byte. Check the ring and map sizes passed in.");
  }
  const uint64_t limit = device.info().max_storage_buffer_range;
  if (bytes > limit) {
    return absl::InvalidArgumentError(absl::StrCat(
        "A storage buffer of ", bytes, " bytes (", Mib(bytes),
        ") exceeds maxStorageBufferRange = ", limit, " bytes (", Mib(limit),
        ") of ", device.info().name,
        ". Lower -max_len or the ring size so that each buffer fits, or pick "
        "a device with a larger limit (-device=N|cpu|gpu|name)."));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Buffer> Buffer::Create(const Device& device, VkDeviceSize bytes,
                                      Placement placement) {
  RINGFUZZ_RETURN_IF_ERROR(CheckSize(device, bytes));
  const VkDevice handle = device.handle();
  Buffer buffer;
  buffer.size_ = bytes;

  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = bytes;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkCreateBuffer(
      handle, &info, nullptr, buffer.buffer_.Receive(handle)));

  VkMemoryRequirements requirements{};
  Vk().vkGetBufferMemoryRequirements(handle, buffer.buffer_.get(),
                                     &requirements);
  const std::vector<uint32_t> types = HostVisibleMemoryTypes(
      device.memory_properties(), requirements.memoryTypeBits, placement);
  if (types.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        device.info().name,
        " offers no host-visible, coherent memory for storage buffers; "
        "ringfuzz needs it to read results. Pick another device with "
        "-device=N|cpu|gpu|name."));
  }
  // Device-local host-visible memory can be a small window (no resizable
  // BAR), system memory can run out too; then fall back to the next
  // mappable type.
  for (size_t i = 0; i < types.size(); ++i) {
    VkMemoryAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = types[i];
    const VkResult result = Vk().vkAllocateMemory(
        handle, &allocate, nullptr, buffer.memory_.Receive(handle));
    const bool out_of_memory = result == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
                               result == VK_ERROR_OUT_OF_HOST_MEMORY;
    if (out_of_memory && i + 1 < types.size()) continue;
    RINGFUZZ_RETURN_IF_ERROR(VkResultToStatus(result, "vkAllocateMemory"));
    buffer.memory_type_ = types[i];
    buffer.device_local_ = IsDeviceLocal(device.memory_properties(), types[i]);
    break;
  }
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkBindBufferMemory(
      handle, buffer.buffer_.get(), buffer.memory_.get(), 0));
  void* mapped = nullptr;
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkMapMemory(handle, buffer.memory_.get(), 0,
                                               VK_WHOLE_SIZE, 0, &mapped));
  buffer.mapped_ = static_cast<uint8_t*>(mapped);
  std::memset(buffer.mapped_, 0, bytes);
  return buffer;
}

}  // namespace ringfuzz::vk

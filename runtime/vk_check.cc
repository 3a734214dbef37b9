#include "runtime/vk_check.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace ringfuzz::vk {
namespace {

#define RINGFUZZ_VK_RESULT_CASE(name) \
  case name:                          \
    return #name;

std::string_view KnownResultName(VkResult result) {
  switch (result) {
    RINGFUZZ_VK_RESULT_CASE(VK_SUCCESS)
    RINGFUZZ_VK_RESULT_CASE(VK_NOT_READY)
    RINGFUZZ_VK_RESULT_CASE(VK_TIMEOUT)
    RINGFUZZ_VK_RESULT_CASE(VK_EVENT_SET)
    RINGFUZZ_VK_RESULT_CASE(VK_EVENT_RESET)
    RINGFUZZ_VK_RESULT_CASE(VK_INCOMPLETE)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_INITIALIZATION_FAILED)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_DEVICE_LOST)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_FRAGMENTED_POOL)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_UNKNOWN)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_FRAGMENTATION)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    RINGFUZZ_VK_RESULT_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    RINGFUZZ_VK_RESULT_CASE(VK_ERROR_VALIDATION_FAILED_EXT)
    default:
      return {};
  }
}

#undef RINGFUZZ_VK_RESULT_CASE

}  // namespace

std::string ResultName(VkResult result) {
  std::string_view name = KnownResultName(result);
  if (!name.empty()) return std::string(name);
  return absl::StrCat("VkResult(", static_cast<int>(result), ")");
}

absl::Status VkResultToStatus(VkResult result, std::string_view call) {
  if (result == VK_SUCCESS) return absl::OkStatus();
  constexpr std::string_view kTable = "Vk().";
  if (call.substr(0, kTable.size()) == kTable)
    call.remove_prefix(kTable.size());
  std::string name(call.substr(0, call.find('(')));
  while (!name.empty() && name.back() == ' ') name.pop_back();
  std::string message = absl::StrCat(name, " failed: ", ResultName(result));
  switch (result) {
    case VK_ERROR_DEVICE_LOST:
      return absl::UnavailableError(absl::StrCat(
          message,
          ". The Vulkan device was lost (driver reset, GPU fault or a shader "
          "that ran too long). The campaign can be resumed from its corpus "
          "directory; if it repeats, use smaller dispatches."));
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
    case VK_ERROR_FRAGMENTED_POOL:
    case VK_ERROR_FRAGMENTATION:
    case VK_ERROR_TOO_MANY_OBJECTS:
      return absl::ResourceExhaustedError(absl::StrCat(
          message,
          ". Out of memory: lower -max_len or the ring size so that the "
          "buffers fit."));
    case VK_ERROR_INCOMPATIBLE_DRIVER:
    case VK_ERROR_INITIALIZATION_FAILED:
      return absl::FailedPreconditionError(absl::StrCat(
          message,
          ". No usable Vulkan driver: install mesa-vulkan-drivers (lavapipe, "
          "runs on the CPU) or your GPU's Vulkan driver."));
    case VK_ERROR_LAYER_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FEATURE_NOT_PRESENT:
      return absl::FailedPreconditionError(absl::StrCat(
          message,
          ". The Vulkan installation lacks something ringfuzz asked for; "
          "update the driver or pick another device with -device."));
    default:
      return absl::InternalError(
          absl::StrCat(message,
                       ". Rerun with RINGFUZZ_VALIDATION=1 to get the Vulkan "
                       "validation layer's explanation."));
  }
}

}  // namespace ringfuzz::vk

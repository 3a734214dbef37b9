// Turns VkResult codes into absl::Status values whose text names the failing
// call, the result, and what the user can do about it.

#ifndef RINGFUZZ_RUNTIME_VK_CHECK_H_
#define RINGFUZZ_RUNTIME_VK_CHECK_H_

#include <vulkan/vulkan.h>

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace ringfuzz::vk {

// Returns the enumerator name of `result` ("VK_ERROR_DEVICE_LOST"), or
// "VkResult(<n>)" for a value this build does not know.
std::string ResultName(VkResult result);

// Returns OK iff `result` is VK_SUCCESS. Otherwise the message reads
// "<call> failed: <result name>" plus a hint. `call` may be a whole call
// expression, also through the function table (`Vk().vkQueueSubmit(...)`,
// runtime/vk_functions.h); only the function's name is kept.
//   - VK_ERROR_DEVICE_LOST -> Unavailable, says the device was lost and that
//     a campaign can be resumed from its corpus directory.
//   - out of host/device memory -> ResourceExhausted, says to lower -max_len
//     or the ring size.
//   - missing driver/layer/extension/feature -> FailedPrecondition.
//   - anything else -> Internal.
absl::Status VkResultToStatus(VkResult result, std::string_view call);

}  // namespace ringfuzz::vk

// Evaluates a vk* call returning VkResult; returns the converted status from
// the enclosing function (absl::Status or absl::StatusOr<T>) unless it is
// VK_SUCCESS.
#define RINGFUZZ_VK_RETURN_IF_ERROR(call)                                  \
  do {                                                                     \
    const VkResult ringfuzz_vk_result_ = (call);                           \
    if (ringfuzz_vk_result_ != VK_SUCCESS)                                 \
      return ::ringfuzz::vk::VkResultToStatus(ringfuzz_vk_result_, #call); \
  } while (0)

#endif  // RINGFUZZ_RUNTIME_VK_CHECK_H_

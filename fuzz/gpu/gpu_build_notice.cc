#include "fuzz/gpu/gpu_build_notice.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace ringfuzz {

std::string PipelineBuildWhat(const vk::PhysicalDeviceInfo& device) {
  if (device.is_lavapipe) {
    return "building the target's pipelines for lavapipe (first run; later "
           "runs use Mesa's shader cache)";
  }
  return absl::StrCat("building the target's pipelines for ", device.name);
}

vk::ProgressNoticeOptions PipelineBuildNoticeOptions(absl::Duration timeout) {
  vk::ProgressNoticeOptions options;
  options.interval = kBuildNoticeInterval;
  if (timeout > absl::ZeroDuration()) {
    options.interval = std::min(kBuildNoticeInterval, timeout / 2);
    options.bound = timeout;
  }
  options.bound_advice =
      "the driver is still compiling the target. Unroll less (fewer or "
      "shorter [[unroll]] loops) or make the target's functions smaller, or "
      "raise -compile_timeout (seconds; 0 = no limit). Exiting with status 1.";
  return options;
}

}  // namespace ringfuzz

// Word from building a target's pipelines: the megakernels (glslang,
// instrumentation), their Vulkan pipelines and, on lavapipe, the driver's
// compile at the first dispatch. A target the driver compiles slowly (long
// [[unroll]] loops, huge functions) would otherwise keep the process busy
// for minutes without a line; a driver compile cannot be cancelled, so past
// -compile_timeout the process reports and exits (vk::ProgressNotice).
#ifndef RINGFUZZ_FUZZ_GPU_GPU_BUILD_NOTICE_H_
#define RINGFUZZ_FUZZ_GPU_GPU_BUILD_NOTICE_H_

#include <string>

#include "absl/time/time.h"
#include "runtime/device_info.h"
#include "runtime/progress_notice.h"

namespace ringfuzz {

// Progress lines come every kBuildNoticeInterval, or every half of the
// timeout if that is shorter, so that a short bound still shows one.
inline constexpr absl::Duration kBuildNoticeInterval = absl::Seconds(10);

// -compile_timeout's default: the largest bundled target builds in under a
// minute on lavapipe with an empty shader cache (2 busy cores).
inline constexpr absl::Duration kDefaultCompileTimeout = absl::Seconds(300);

// The notice's phrase for `device`: "building the target's pipelines for
// lavapipe (first run; later runs use Mesa's shader cache)" on lavapipe,
// else "building the target's pipelines for <device name>".
std::string PipelineBuildWhat(const vk::PhysicalDeviceInfo& device);

// Lines every min(kBuildNoticeInterval, timeout / 2) (the interval alone
// when `timeout` is zero: no bound); past a non-zero `timeout` an ERROR line
// that says what to do (unroll less, simplify, raise -compile_timeout), then
// the process exits with status 1.
vk::ProgressNoticeOptions PipelineBuildNoticeOptions(absl::Duration timeout);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_GPU_BUILD_NOTICE_H_

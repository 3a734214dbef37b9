// What a device can build: checks of a compiled megakernel before the
// Vulkan driver sees it.
//
// Drivers fail badly on shaders beyond their means: lavapipe's compiler
// crashes (SIGSEGV, no message) on a local array of 65,536 words, and
// unrolls an [[unroll]] loop of 100,000 iterations for minutes at gigabytes
// of memory. These checks read the SPIR-V (array sizes of the Function,
// Private and Workgroup variables; loops marked Unroll and their constant
// bounds) and refuse such a target with an error that names the variable
// or loop, its source line and the limit. docs/dialect.md states the limits.
#ifndef RINGFUZZ_FUZZ_GPU_TARGET_LIMITS_H_
#define RINGFUZZ_FUZZ_GPU_TARGET_LIMITS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace ringfuzz {

// Private memory of one invocation (Function and Private variables: the
// megakernel's own state, rf_in with -max_len bytes, and every local of the
// target, counted once per function) that ringfuzz hands to a driver.
// lavapipe (Mesa 22.3, LLVM 15) compiles a shader at its first dispatch;
// bisected with a target whose one local array is indexed by input bytes,
// it ran arrays of up to 65,280 words (a first dispatch of 65,408 words
// took over a minute) and crashed in LLVM's code generator (SIGSEGV) at
// 65,536 words (256 KiB). The limit is half of that, so that it holds with
// the megakernel's own state; real GPUs keep such arrays in slow scratch
// memory long before.
inline constexpr uint64_t kMaxPrivateBytes = uint64_t{128} << 10;

// Shared (Workgroup) memory of one workgroup where no device is known:
// the 16 KiB of maxComputeSharedMemorySize that Vulkan guarantees
// (lavapipe and current GPUs have 32 KiB or more). The dialect has no
// shared variables; GLSL-only targets may.
inline constexpr uint64_t kMaxSharedBytes = uint64_t{16} << 10;

// Iterations of an [[unroll]] loop of the target (its constant bound): the
// driver compiles the body, with its coverage and loop hooks, once per
// iteration. On lavapipe (2 busy cores) a one-block loop took 6.6 s to its
// first execution without [[unroll]], 13 s unrolled 16 times, 27 s 32
// times, 69 s 64 times, minutes 256 times, and more than 5 minutes 5,000
// times.
inline constexpr uint64_t kMaxUnrollIterations = 32;

struct TargetLimits {
  uint64_t private_bytes = kMaxPrivateBytes;
  // Shared memory of one workgroup, the megakernel's own included: the
  // device's maxComputeSharedMemorySize (SharedLimitsOf).
  uint64_t shared_bytes = kMaxSharedBytes;
  // Where shared_bytes comes from, for errors: "<device>'s
  // maxComputeSharedMemorySize" or Vulkan's guarantee.
  std::string shared_source = "Vulkan's guaranteed maxComputeSharedMemorySize";
  uint64_t unroll_iterations = kMaxUnrollIterations;
};

// `limits` with the shared memory of device `device_name`, whose
// maxComputeSharedMemorySize is `device_shared_bytes`; 0 (unknown) keeps
// kMaxSharedBytes.
TargetLimits WithDeviceSharedMemory(TargetLimits limits,
                                    const std::string& device_name,
                                    uint64_t device_shared_bytes);

// Returns OK iff `spirv` (a megakernel with target `target_name`, compiled
// with debug info) stays within `limits`; otherwise InvalidArgument naming
// the largest variable (its type's size, function and source line) or the
// unrolled loop (file:line and its bound), the limit and the fix. Only
// loops of the target's functions are checked; memory counts everything,
// since the megakernel's state and the target's share it: a target gets
// the limit less the megakernel's own (rf_) variables, and a shared-memory
// error names the device's limit (limits.shared_source), what the
// megakernel uses of it and what is left for the target.
absl::Status CheckTargetLimits(absl::Span<const uint32_t> spirv,
                               const std::string& target_name,
                               const TargetLimits& limits = {});

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_TARGET_LIMITS_H_

// A compute pipeline whose interface is fixed by convention: storage buffers
// at set 0, bindings 0..n-1, and one push-constant block. The megakernel and
// every helper shader follow it, so no reflection is needed.

#ifndef RINGFUZZ_RUNTIME_COMPUTE_PIPELINE_H_
#define RINGFUZZ_RUNTIME_COMPUTE_PIPELINE_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "runtime/device.h"
#include "runtime/vk_owned.h"

namespace ringfuzz::vk {

// Progress notes of a pipeline build: every 5 s, and the run is ended after
// 10 minutes (the largest bundled target builds in seconds on lavapipe).
inline constexpr absl::Duration kPipelineNoticeInterval = absl::Seconds(5);
inline constexpr absl::Duration kPipelineBuildBound = absl::Minutes(10);

// How ComputePipeline::Create tells of a long build (ProgressNotice).
struct PipelineNotice {
  // Off: no notice; for a caller that watches a larger step around it.
  bool watch = true;
  // Names the build: "building the pipeline for <label>"; "" = the module's
  // source file (its OpSource debug instruction), else "building the
  // compute pipeline".
  std::string label;
  absl::Duration interval = kPipelineNoticeInterval;
  absl::Duration bound = kPipelineBuildBound;
};

// Owns the VkPipeline, its VkPipelineLayout and VkDescriptorSetLayout.
// Move-only. Lifetime: the Device must outlive it, and it must outlive every
// Dispatcher made from it.
class ComputePipeline {
 public:
  // Builds a pipeline from `spirv` (entry point "main") whose set 0 has
  // `storage_buffer_count` STORAGE_BUFFER bindings (0..n-1) and whose push
  // constants are `push_constant_bytes` long (0 = none). Fails with
  // InvalidArgument if the module is empty, the push-constant size is not a
  // multiple of 4 or exceeds maxPushConstantsSize, or the device allows
  // fewer storage buffers per stage; a bad module fails in the driver.
  // While the driver compiles (seconds for a megakernel on lavapipe), a
  // build past notice.interval prints "INFO: building the pipeline for
  // <label> (N s so far) ..." every interval, and one past notice.bound
  // ends the process with an ERROR line: a driver compile cannot be
  // cancelled.
  static absl::StatusOr<ComputePipeline> Create(
      const Device& device, absl::Span<const uint32_t> spirv,
      uint32_t storage_buffer_count, uint32_t push_constant_bytes,
      const PipelineNotice& notice = {});

  ComputePipeline(ComputePipeline&& other) noexcept = default;
  ComputePipeline& operator=(ComputePipeline&& other) noexcept = default;

  VkPipeline handle() const { return pipeline_.get(); }
  VkPipelineLayout layout() const { return layout_.get(); }
  VkDescriptorSetLayout set_layout() const { return set_layout_.get(); }
  uint32_t storage_buffer_count() const { return storage_buffer_count_; }
  uint32_t push_constant_bytes() const { return push_constant_bytes_; }

 private:
  ComputePipeline() = default;

  // Destroyed in reverse order: the pipeline, then the layouts it was made
  // with (a layout may also go first: it is only read at creation).
  OwnedSetLayout set_layout_;
  OwnedPipelineLayout layout_;
  OwnedPipeline pipeline_;
  uint32_t storage_buffer_count_ = 0;
  uint32_t push_constant_bytes_ = 0;
};

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_COMPUTE_PIPELINE_H_

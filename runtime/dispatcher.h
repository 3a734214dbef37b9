// Launches one compute pipeline asynchronously and lets the host poll while
// it runs: the megakernel is launched in bounded slices (lavapipe cuts long
// loops), and between slices the host reads and refills the ring.

#ifndef RINGFUZZ_RUNTIME_DISPATCHER_H_
#define RINGFUZZ_RUNTIME_DISPATCHER_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "runtime/buffer.h"
#include "runtime/compute_pipeline.h"
#include "runtime/device.h"
#include "runtime/vk_owned.h"

namespace ringfuzz::vk {

// Owns a command pool and buffer, a fence and a descriptor set for one
// ComputePipeline; at most one submission is in flight at a time. Move-only;
// not thread-safe (one owner thread), though several Dispatchers of one
// Device may submit from different threads (the queue is locked).
//
// To run a second pipeline, make a second Dispatcher: each keeps its own
// bindings and fence, and they share the Device's queue (submissions run in
// submission order).
//
// Lifetime: the Device and the ComputePipeline must outlive the Dispatcher;
// bound Buffers must outlive every submission that uses them.
// Transfers recorded into a submission around its dispatch, so that the
// words a dispatch reads are set, and the words it leaves are saved, in
// queue order: a submission queued behind a running one then neither
// disturbs the running one nor has its results overwritten by the next one.
struct DispatchCommands {
  // vkCmdUpdateBuffer before the dispatch: `words` to `buffer` at word
  // `offset_words` (at most 16,384 words each).
  struct Update {
    const Buffer* buffer = nullptr;
    uint64_t offset_words = 0;
    std::vector<uint32_t> words;
  };
  // vkCmdCopyBuffer after the dispatch, before the host may read.
  struct Copy {
    const Buffer* source = nullptr;
    uint64_t source_offset_words = 0;
    const Buffer* destination = nullptr;
    uint64_t destination_offset_words = 0;
    uint64_t words = 0;
  };
  std::vector<Update> before;
  std::vector<Copy> after;
};

// When a finished submission's dispatch ran, on the device's clock
// (timestamp queries scaled by timestampPeriod): comparable with other
// times of the same Device, not with the host's clock.
struct DeviceInterval {
  absl::Duration start;  // the dispatch began (earlier work had ended)
  absl::Duration end;    // the dispatch ended
};

class Dispatcher {
 public:
  static absl::StatusOr<Dispatcher> Create(const Device& device,
                                           const ComputePipeline& pipeline);

  Dispatcher(Dispatcher&& other) noexcept = default;
  // Not assignable: the submission in flight would have to be waited for
  // first.
  Dispatcher& operator=(Dispatcher&& other) = delete;
  // Waits for an in-flight submission to finish, then destroys.
  ~Dispatcher();

  // Points binding i at buffers[i] (whole buffer). Needs exactly the
  // pipeline's storage_buffer_count non-null buffers. May be called again to
  // replace buffers, but only while idle (FailedPrecondition otherwise).
  absl::Status BindBuffers(absl::Span<const Buffer* const> buffers);

  // Records and submits: bind pipeline and set, push `push_constants` (exactly
  // the pipeline's push_constant_bytes), dispatch `groups_x` workgroups, then
  // a barrier that makes shader writes visible to the host. Returns as soon
  // as the work is queued. A barrier before the dispatch makes writes of
  // earlier submissions visible to it. FailedPrecondition if a submission is
  // still in flight or no buffers are bound; InvalidArgument on a bad size or
  // groups_x above maxComputeWorkGroupCount[0].
  absl::Status Submit(absl::Span<const uint8_t> push_constants,
                      uint32_t groups_x);
  // Submit with `commands` recorded around the dispatch: updates after the
  // opening barrier (and a barrier that makes them visible to the
  // dispatch), copies after the dispatch (ordered after its writes, and
  // made visible to the host with them). InvalidArgument on a null buffer,
  // an update of more than 16,384 words, or a range outside its buffer.
  absl::Status Submit(absl::Span<const uint8_t> push_constants,
                      uint32_t groups_x, const DispatchCommands& commands);

  // Returns true once the last submission has finished (immediately if none
  // is in flight) and false if it is still running after `timeout`
  // (absl::ZeroDuration() polls; absl::InfiniteDuration() blocks). Mapped
  // buffers may be read meanwhile. A lost device is an Unavailable error.
  absl::StatusOr<bool> Wait(absl::Duration timeout);

  // True iff a submission is in flight and not yet finished.
  bool busy() const;

  // When the last submission's dispatch ran, once Wait returned true for
  // it; nullopt while it runs, before any submission, or where the queue
  // has no timestamps (timestampValidBits 0) or reading them failed.
  std::optional<DeviceInterval> LastInterval() const;

 private:
  Dispatcher() = default;

  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::mutex* queue_mutex_ = nullptr;  // owned by the Device
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  uint32_t storage_buffer_count_ = 0;
  uint32_t push_constant_bytes_ = 0;
  uint32_t max_groups_x_ = 0;

  OwnedCommandPool command_pool_;
  VkCommandBuffer command_buffer_ = VK_NULL_HANDLE;  // freed with the pool
  OwnedFence fence_;
  // Two timestamps per submission (before and after the dispatch); null
  // where the queue family has no timestamps.
  OwnedQueryPool timestamps_;
  double timestamp_period_ns_ = 1.0;
  uint64_t timestamp_mask_ = 0;
  std::optional<DeviceInterval> interval_;  // of the last finished one
  OwnedDescriptorPool descriptor_pool_;
  VkDescriptorSet descriptor_set_ = VK_NULL_HANDLE;  // freed with the pool
  bool bound_ = false;
  bool in_flight_ = false;  // submitted and not yet observed finished
};

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_DISPATCHER_H_

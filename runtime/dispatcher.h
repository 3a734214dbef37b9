// Launches one compute pipeline asynchronously and lets the host poll while
// it runs: the megakernel is launched in bounded slices (lavapipe cuts long
// loops), and between slices the host reads and refills the ring.

#ifndef RINGFUZZ_RUNTIME_DISPATCHER_H_
#define RINGFUZZ_RUNTIME_DISPATCHER_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <mutex>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "runtime/buffer.h"
#include "runtime/compute_pipeline.h"
#include "runtime/device.h"

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
class Dispatcher {
 public:
  static absl::StatusOr<Dispatcher> Create(const Device& device,
                                           const ComputePipeline& pipeline);

  Dispatcher(Dispatcher&& other) noexcept;
  Dispatcher& operator=(Dispatcher&& other) noexcept;
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;
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

  // Returns true once the last submission has finished (immediately if none
  // is in flight) and false if it is still running after `timeout`
  // (absl::ZeroDuration() polls; absl::InfiniteDuration() blocks). Mapped
  // buffers may be read meanwhile. A lost device is an Unavailable error.
  absl::StatusOr<bool> Wait(absl::Duration timeout);

  // True iff a submission is in flight and not yet finished.
  bool busy() const;

 private:
  Dispatcher() = default;
  void Destroy();

  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::mutex* queue_mutex_ = nullptr;  // owned by the Device
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  uint32_t storage_buffer_count_ = 0;
  uint32_t push_constant_bytes_ = 0;
  uint32_t max_groups_x_ = 0;

  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkCommandBuffer command_buffer_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  VkDescriptorSet descriptor_set_ = VK_NULL_HANDLE;
  bool bound_ = false;
  bool in_flight_ = false;  // submitted and not yet observed finished
};

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_DISPATCHER_H_

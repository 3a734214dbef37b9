#include "runtime/dispatcher.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/status_macros.h"
#include "runtime/vk_check.h"
#include "runtime/vk_functions.h"

namespace ringfuzz::vk {
namespace {

uint64_t TimeoutNanoseconds(absl::Duration timeout) {
  if (timeout == absl::InfiniteDuration()) {
    return std::numeric_limits<uint64_t>::max();
  }
  if (timeout <= absl::ZeroDuration()) return 0;
  return static_cast<uint64_t>(absl::ToInt64Nanoseconds(timeout));
}

void MemoryBarrier(VkCommandBuffer command_buffer, VkPipelineStageFlags src,
                   VkAccessFlags src_access, VkPipelineStageFlags dst,
                   VkAccessFlags dst_access) {
  VkMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  Vk().vkCmdPipelineBarrier(command_buffer, src, dst, 0, 1, &barrier, 0,
                            nullptr, 0, nullptr);
}

}  // namespace

absl::StatusOr<Dispatcher> Dispatcher::Create(const Device& device,
                                              const ComputePipeline& pipeline) {
  Dispatcher d;
  d.device_ = device.handle();
  d.queue_ = device.queue();
  d.queue_mutex_ = &device.queue_mutex();
  d.pipeline_ = pipeline.handle();
  d.layout_ = pipeline.layout();
  d.storage_buffer_count_ = pipeline.storage_buffer_count();
  d.push_constant_bytes_ = pipeline.push_constant_bytes();
  d.max_groups_x_ = device.info().max_workgroup_count_x;

  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = device.queue_family();
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkCreateCommandPool(
      d.device_, &pool_info, nullptr, d.command_pool_.Receive(d.device_)));

  VkCommandBufferAllocateInfo buffer_info{};
  buffer_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  buffer_info.commandPool = d.command_pool_.get();
  buffer_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  buffer_info.commandBufferCount = 1;
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkAllocateCommandBuffers(
      d.device_, &buffer_info, &d.command_buffer_));

  // Timestamps, where the queue family writes them.
  uint32_t families = 0;
  Vk().vkGetPhysicalDeviceQueueFamilyProperties(device.physical(), &families,
                                                nullptr);
  std::vector<VkQueueFamilyProperties> family_props(families);
  Vk().vkGetPhysicalDeviceQueueFamilyProperties(device.physical(), &families,
                                                family_props.data());
  const uint32_t valid_bits =
      device.queue_family() < families
          ? family_props[device.queue_family()].timestampValidBits
          : 0;
  if (valid_bits != 0) {
    VkPhysicalDeviceProperties props;
    Vk().vkGetPhysicalDeviceProperties(device.physical(), &props);
    d.timestamp_period_ns_ = props.limits.timestampPeriod;
    d.timestamp_mask_ =
        valid_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << valid_bits) - 1;
    VkQueryPoolCreateInfo query_info{};
    query_info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = 2;
    RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkCreateQueryPool(
        d.device_, &query_info, nullptr, d.timestamps_.Receive(d.device_)));
  }

  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkCreateFence(
      d.device_, &fence_info, nullptr, d.fence_.Receive(d.device_)));

  // A pool may not be empty, so a pipeline without buffers still gets one
  // (unused) descriptor of room.
  VkDescriptorPoolSize size{};
  size.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  size.descriptorCount = std::max<uint32_t>(1, d.storage_buffer_count_);
  VkDescriptorPoolCreateInfo descriptor_pool_info{};
  descriptor_pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  descriptor_pool_info.maxSets = 1;
  descriptor_pool_info.poolSizeCount = 1;
  descriptor_pool_info.pPoolSizes = &size;
  RINGFUZZ_VK_RETURN_IF_ERROR(
      Vk().vkCreateDescriptorPool(d.device_, &descriptor_pool_info, nullptr,
                                  d.descriptor_pool_.Receive(d.device_)));

  const VkDescriptorSetLayout set_layout = pipeline.set_layout();
  VkDescriptorSetAllocateInfo set_info{};
  set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  set_info.descriptorPool = d.descriptor_pool_.get();
  set_info.descriptorSetCount = 1;
  set_info.pSetLayouts = &set_layout;
  RINGFUZZ_VK_RETURN_IF_ERROR(
      Vk().vkAllocateDescriptorSets(d.device_, &set_info, &d.descriptor_set_));
  // With no bindings there is nothing to bind; Submit may go ahead.
  d.bound_ = d.storage_buffer_count_ == 0;
  return d;
}

absl::Status Dispatcher::BindBuffers(absl::Span<const Buffer* const> buffers) {
  if (busy()) {
    return absl::FailedPreconditionError(
        "BindBuffers while a dispatch is running; call Wait until it returns "
        "true first.");
  }
  if (buffers.size() != storage_buffer_count_) {
    return absl::InvalidArgumentError(
        absl::StrCat("BindBuffers got ", buffers.size(),
                     " buffers but the pipeline has ", storage_buffer_count_,
                     " storage-buffer bindings; pass one per "
                     "binding, in binding order."));
  }
  std::vector<VkDescriptorBufferInfo> infos(buffers.size());
  std::vector<VkWriteDescriptorSet> writes(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i] == nullptr || buffers[i]->handle() == VK_NULL_HANDLE) {
      return absl::InvalidArgumentError(
          absl::StrCat("BindBuffers: buffer for binding ", i,
                       " is null or moved-from; pass a live Buffer."));
    }
    infos[i].buffer = buffers[i]->handle();
    infos[i].offset = 0;
    infos[i].range = VK_WHOLE_SIZE;
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = descriptor_set_;
    writes[i].dstBinding = static_cast<uint32_t>(i);
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  Vk().vkUpdateDescriptorSets(device_, static_cast<uint32_t>(writes.size()),
                              writes.data(), 0, nullptr);
  bound_ = true;
  return absl::OkStatus();
}

absl::Status Dispatcher::Submit(absl::Span<const uint8_t> push_constants,
                                uint32_t groups_x) {
  return Submit(push_constants, groups_x, DispatchCommands{});
}

absl::Status Dispatcher::Submit(absl::Span<const uint8_t> push_constants,
                                uint32_t groups_x,
                                const DispatchCommands& commands) {
  for (const DispatchCommands::Update& update : commands.before) {
    if (update.buffer == nullptr || update.words.empty() ||
        update.words.size() > 16384 ||
        (update.offset_words + update.words.size()) * 4 >
            update.buffer->size()) {
      return absl::InvalidArgumentError(
          "Submit: a buffer update is null, empty, longer than 16,384 words "
          "or outside its buffer; split it or fix its offset");
    }
  }
  for (const DispatchCommands::Copy& copy : commands.after) {
    if (copy.source == nullptr || copy.destination == nullptr ||
        copy.words == 0 ||
        (copy.source_offset_words + copy.words) * 4 > copy.source->size() ||
        (copy.destination_offset_words + copy.words) * 4 >
            copy.destination->size()) {
      return absl::InvalidArgumentError(
          "Submit: a buffer copy is null, empty or outside its buffers; fix "
          "its offsets and length");
    }
  }
  if (busy()) {
    return absl::FailedPreconditionError(
        "Submit while the previous dispatch is still running; call Wait "
        "until it returns true first.");
  }
  if (!bound_) {
    return absl::FailedPreconditionError(
        "Submit before BindBuffers; bind the storage buffers first.");
  }
  if (push_constants.size() != push_constant_bytes_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Submit got ", push_constants.size(),
        " bytes of push constants; the pipeline was created with ",
        push_constant_bytes_, ". Pass the whole push-constant struct."));
  }
  if (groups_x > max_groups_x_) {
    return absl::InvalidArgumentError(absl::StrCat(
        groups_x, " workgroups exceed maxComputeWorkGroupCount[0] = ",
        max_groups_x_, "; launch fewer groups and loop on the host."));
  }
  in_flight_ = false;  // Any earlier submission has finished (not busy).

  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkResetCommandBuffer(command_buffer_, 0));
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  RINGFUZZ_VK_RETURN_IF_ERROR(
      Vk().vkBeginCommandBuffer(command_buffer_, &begin));
  interval_.reset();
  const VkPipelineStageFlags compute_and_transfer =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  MemoryBarrier(command_buffer_, compute_and_transfer,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                compute_and_transfer,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                    VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  if (!commands.before.empty()) {
    for (const DispatchCommands::Update& update : commands.before) {
      Vk().vkCmdUpdateBuffer(command_buffer_, update.buffer->handle(),
                             update.offset_words * 4, update.words.size() * 4,
                             update.words.data());
    }
    MemoryBarrier(command_buffer_, VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  }
  if (timestamps_) {
    Vk().vkCmdResetQueryPool(command_buffer_, timestamps_.get(), 0, 2);
    // Written once all earlier commands are done with the compute stage:
    // when this dispatch can begin.
    Vk().vkCmdWriteTimestamp(command_buffer_,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             timestamps_.get(), 0);
  }
  Vk().vkCmdBindPipeline(command_buffer_, VK_PIPELINE_BIND_POINT_COMPUTE,
                         pipeline_);
  if (storage_buffer_count_ > 0) {
    Vk().vkCmdBindDescriptorSets(command_buffer_,
                                 VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1,
                                 &descriptor_set_, 0, nullptr);
  }
  if (push_constant_bytes_ > 0) {
    Vk().vkCmdPushConstants(command_buffer_, layout_,
                            VK_SHADER_STAGE_COMPUTE_BIT, 0,
                            push_constant_bytes_, push_constants.data());
  }
  Vk().vkCmdDispatch(command_buffer_, groups_x, 1, 1);
  if (timestamps_) {
    Vk().vkCmdWriteTimestamp(command_buffer_,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             timestamps_.get(), 1);
  }
  if (!commands.after.empty()) {
    MemoryBarrier(command_buffer_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_TRANSFER_READ_BIT);
    for (const DispatchCommands::Copy& copy : commands.after) {
      VkBufferCopy region{};
      region.srcOffset = copy.source_offset_words * 4;
      region.dstOffset = copy.destination_offset_words * 4;
      region.size = copy.words * 4;
      Vk().vkCmdCopyBuffer(command_buffer_, copy.source->handle(),
                           copy.destination->handle(), 1, &region);
    }
  }
  MemoryBarrier(command_buffer_, compute_and_transfer,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkEndCommandBuffer(command_buffer_));

  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkResetFences(device_, 1, fence_.address()));
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &command_buffer_;
  {
    std::lock_guard<std::mutex> lock(*queue_mutex_);
    RINGFUZZ_VK_RETURN_IF_ERROR(
        Vk().vkQueueSubmit(queue_, 1, &submit, fence_.get()));
  }
  in_flight_ = true;
  return absl::OkStatus();
}

absl::StatusOr<bool> Dispatcher::Wait(absl::Duration timeout) {
  if (!in_flight_) return true;
  const VkResult result = Vk().vkWaitForFences(
      device_, 1, fence_.address(), VK_TRUE, TimeoutNanoseconds(timeout));
  if (result == VK_TIMEOUT) return false;
  RINGFUZZ_RETURN_IF_ERROR(VkResultToStatus(result, "vkWaitForFences"));
  in_flight_ = false;
  if (timestamps_) {
    uint64_t ticks[2] = {0, 0};
    const VkResult read = Vk().vkGetQueryPoolResults(
        device_, timestamps_.get(), 0, 2, sizeof(ticks), ticks,
        sizeof(uint64_t), VK_QUERY_RESULT_64_BIT);
    if (read == VK_SUCCESS) {
      auto at = [this](uint64_t tick) {
        return absl::Nanoseconds(static_cast<double>(tick & timestamp_mask_) *
                                 timestamp_period_ns_);
      };
      interval_ = DeviceInterval{at(ticks[0]), at(ticks[1])};
    }
  }
  return true;
}

std::optional<DeviceInterval> Dispatcher::LastInterval() const {
  return in_flight_ ? std::nullopt : interval_;
}

bool Dispatcher::busy() const {
  // Any result but NOT_READY (done, or an error such as a lost device that
  // Wait reports) means nothing is running any more.
  return in_flight_ &&
         Vk().vkGetFenceStatus(device_, fence_.get()) == VK_NOT_READY;
}

Dispatcher::~Dispatcher() {
  if (in_flight_ && fence_) {
    // Errors (a lost device) cannot be reported here; destroy regardless.
    (void)Vk().vkWaitForFences(device_, 1, fence_.address(), VK_TRUE,
                               std::numeric_limits<uint64_t>::max());
  }
}

}  // namespace ringfuzz::vk

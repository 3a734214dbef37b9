#include "runtime/compute_pipeline.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/progress_notice.h"
#include "runtime/status_macros.h"
#include "runtime/vk_check.h"
#include "runtime/vk_functions.h"

namespace ringfuzz::vk {
namespace {

absl::Status CheckInterface(const Device& device,
                            absl::Span<const uint32_t> spirv,
                            uint32_t storage_buffer_count,
                            uint32_t push_constant_bytes) {
  if (spirv.empty()) {
    return absl::InvalidArgumentError(
        "Empty SPIR-V module; compile the shader first "
        "(CompileComputeShader).");
  }
  const VkPhysicalDeviceLimits& limits = device.limits();
  if (push_constant_bytes % 4 != 0 ||
      push_constant_bytes > limits.maxPushConstantsSize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Push constants of ", push_constant_bytes,
        " bytes: the size must be "
        "a multiple of 4 and at most ",
        limits.maxPushConstantsSize, " on ", device.info().name,
        ". Pad or shrink the push-constant struct; move bulk data into a "
        "storage buffer."));
  }
  if (storage_buffer_count > limits.maxPerStageDescriptorStorageBuffers) {
    return absl::InvalidArgumentError(
        absl::StrCat(storage_buffer_count, " storage buffers requested but ",
                     device.info().name, " allows ",
                     limits.maxPerStageDescriptorStorageBuffers,
                     " per shader stage. Merge buffers."));
  }
  return absl::OkStatus();
}

// The file name of the module's OpSource debug instruction, or "".
std::string SourceFileName(absl::Span<const uint32_t> spirv) {
  constexpr uint32_t kOpString = 7;
  constexpr uint32_t kOpSource = 3;
  constexpr size_t kHeaderWords = 5;
  std::string file;  // the last OpString seen with the wanted id
  uint32_t file_id = 0;
  for (size_t pos = kHeaderWords; pos < spirv.size();) {
    const uint32_t count = spirv[pos] >> 16;
    const uint32_t op = spirv[pos] & 0xFFFF;
    if (count == 0 || pos + count > spirv.size()) break;
    if (op == kOpSource && count >= 4) {
      file_id = spirv[pos + 3];
      break;
    }
    pos += count;
  }
  if (file_id == 0) return "";
  for (size_t pos = kHeaderWords; pos < spirv.size();) {
    const uint32_t count = spirv[pos] >> 16;
    if (count == 0 || pos + count > spirv.size()) break;
    if ((spirv[pos] & 0xFFFF) == kOpString && count >= 3 &&
        spirv[pos + 1] == file_id) {
      for (size_t w = pos + 2; w < pos + count; ++w) {
        for (int b = 0; b < 4; ++b) {
          const char c = static_cast<char>((spirv[w] >> (8 * b)) & 0xFF);
          if (c == '\0') return file;
          file.push_back(c);
        }
      }
      return file;
    }
    pos += count;
  }
  return "";
}

}  // namespace

absl::StatusOr<ComputePipeline> ComputePipeline::Create(
    const Device& device, absl::Span<const uint32_t> spirv,
    uint32_t storage_buffer_count, uint32_t push_constant_bytes,
    const PipelineNotice& notice) {
  RINGFUZZ_RETURN_IF_ERROR(
      CheckInterface(device, spirv, storage_buffer_count, push_constant_bytes));
  ComputePipeline pipeline;
  pipeline.device_ = device.handle();
  pipeline.storage_buffer_count_ = storage_buffer_count;
  pipeline.push_constant_bytes_ = push_constant_bytes;

  std::vector<VkDescriptorSetLayoutBinding> bindings(storage_buffer_count);
  for (uint32_t i = 0; i < storage_buffer_count; ++i) {
    bindings[i].binding = i;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{};
  set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  set_info.bindingCount = storage_buffer_count;
  set_info.pBindings = bindings.data();
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkCreateDescriptorSetLayout(
      pipeline.device_, &set_info, nullptr, &pipeline.set_layout_));

  VkPushConstantRange range{};
  range.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  range.offset = 0;
  range.size = push_constant_bytes;
  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &pipeline.set_layout_;
  layout_info.pushConstantRangeCount = push_constant_bytes > 0 ? 1 : 0;
  layout_info.pPushConstantRanges = &range;
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkCreatePipelineLayout(
      pipeline.device_, &layout_info, nullptr, &pipeline.layout_));

  VkShaderModuleCreateInfo module_info{};
  module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  module_info.codeSize = spirv.size() * sizeof(uint32_t);
  module_info.pCode = spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkCreateShaderModule(
      pipeline.device_, &module_info, nullptr, &module));

  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.layout = pipeline.layout_;
  VkResult result;
  {
    std::optional<ProgressNotice> watch;
    if (notice.watch) {
      ProgressNoticeOptions options;
      options.interval = notice.interval;
      options.bound = notice.bound;
      options.bound_advice =
          "the driver is still compiling the shader (a huge function or a "
          "long unrolled loop?); exiting";
      std::string name = notice.label;
      if (name.empty()) name = SourceFileName(spirv);
      watch.emplace(name.empty()
                        ? std::string("building the compute pipeline")
                        : absl::StrCat("building the pipeline for ", name),
                    std::move(options));
    }
    result = Vk().vkCreateComputePipelines(pipeline.device_, VK_NULL_HANDLE, 1,
                                           &info, nullptr, &pipeline.pipeline_);
  }
  // The pipeline keeps what it needs; the module is no longer used.
  Vk().vkDestroyShaderModule(pipeline.device_, module, nullptr);
  RINGFUZZ_RETURN_IF_ERROR(
      VkResultToStatus(result, "vkCreateComputePipelines"));
  return pipeline;
}

ComputePipeline::ComputePipeline(ComputePipeline&& other) noexcept
    : device_(std::exchange(other.device_, VK_NULL_HANDLE)),
      set_layout_(std::exchange(other.set_layout_, VK_NULL_HANDLE)),
      layout_(std::exchange(other.layout_, VK_NULL_HANDLE)),
      pipeline_(std::exchange(other.pipeline_, VK_NULL_HANDLE)),
      storage_buffer_count_(other.storage_buffer_count_),
      push_constant_bytes_(other.push_constant_bytes_) {}

ComputePipeline& ComputePipeline::operator=(ComputePipeline&& other) noexcept {
  if (this != &other) {
    Destroy();
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    set_layout_ = std::exchange(other.set_layout_, VK_NULL_HANDLE);
    layout_ = std::exchange(other.layout_, VK_NULL_HANDLE);
    pipeline_ = std::exchange(other.pipeline_, VK_NULL_HANDLE);
    storage_buffer_count_ = other.storage_buffer_count_;
    push_constant_bytes_ = other.push_constant_bytes_;
  }
  return *this;
}

ComputePipeline::~ComputePipeline() { Destroy(); }

void ComputePipeline::Destroy() {
  if (pipeline_ != VK_NULL_HANDLE) {
    Vk().vkDestroyPipeline(device_, pipeline_, nullptr);
  }
  if (layout_ != VK_NULL_HANDLE) {
    Vk().vkDestroyPipelineLayout(device_, layout_, nullptr);
  }
  if (set_layout_ != VK_NULL_HANDLE) {
    Vk().vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
  }
  pipeline_ = VK_NULL_HANDLE;
  layout_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
}

}  // namespace ringfuzz::vk

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
  const VkDevice handle = device.handle();
  ComputePipeline pipeline;
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
      handle, &set_info, nullptr, pipeline.set_layout_.Receive(handle)));

  VkPushConstantRange range{};
  range.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  range.offset = 0;
  range.size = push_constant_bytes;
  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = pipeline.set_layout_.address();
  layout_info.pushConstantRangeCount = push_constant_bytes > 0 ? 1 : 0;
  layout_info.pPushConstantRanges = &range;
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkCreatePipelineLayout(
      handle, &layout_info, nullptr, pipeline.layout_.Receive(handle)));

  VkShaderModuleCreateInfo module_info{};
  module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  module_info.codeSize = spirv.size() * sizeof(uint32_t);
  module_info.pCode = spirv.data();
  OwnedShaderModule module;
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkCreateShaderModule(
      handle, &module_info, nullptr, module.Receive(handle)));

  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module.get();
  info.stage.pName = "main";
  info.layout = pipeline.layout_.get();
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
    result =
        Vk().vkCreateComputePipelines(handle, VK_NULL_HANDLE, 1, &info, nullptr,
                                      pipeline.pipeline_.Receive(handle));
  }
  // The pipeline keeps what it needs; the module is no longer used.
  module.reset();
  RINGFUZZ_RETURN_IF_ERROR(
      VkResultToStatus(result, "vkCreateComputePipelines"));
  return pipeline;
}

}  // namespace ringfuzz::vk

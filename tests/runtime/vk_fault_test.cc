// Faults injected through the runtime's Vulkan function table
// (runtime/vk_functions.h) on the real device: each failed call comes back
// as a status that names the call, its result and what to do, and whatever
// the failing function had made is destroyed again (VulkanTest's validation
// layer reports an object left behind when the device is destroyed).
#include <cstdint>
#include <string>

#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/buffer.h"
#include "runtime/compute_pipeline.h"
#include "runtime/dispatcher.h"
#include "runtime/vk_functions.h"
#include "tests/runtime/vulkan_test_fixture.h"

namespace ringfuzz::vk {
namespace {

using ::testing::HasSubstr;
using VkFaultTest = VulkanTest;

const char kWrite[] = R"(#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Data { uint data[]; };
void main() { data[0] = 7u; }
)";

VkResult OutOfDeviceMemory(VkDevice, const VkMemoryAllocateInfo*,
                           const VkAllocationCallbacks*, VkDeviceMemory*) {
  return VK_ERROR_OUT_OF_DEVICE_MEMORY;
}

VkResult MapFails(VkDevice, VkDeviceMemory, VkDeviceSize, VkDeviceSize,
                  VkMemoryMapFlags, void**) {
  return VK_ERROR_MEMORY_MAP_FAILED;
}

VkResult PipelineOutOfHostMemory(VkDevice, VkPipelineCache, uint32_t,
                                 const VkComputePipelineCreateInfo*,
                                 const VkAllocationCallbacks*, VkPipeline*) {
  return VK_ERROR_OUT_OF_HOST_MEMORY;
}

VkResult SubmitLosesTheDevice(VkQueue, uint32_t, const VkSubmitInfo*, VkFence) {
  return VK_ERROR_DEVICE_LOST;
}

TEST_F(VkFaultTest, OutOfDeviceMemorySaysWhatToShrink) {
  ScopedVkFunctions faults;
  faults.table().vkAllocateMemory = OutOfDeviceMemory;
  absl::StatusOr<Buffer> buffer = Buffer::Create(device(), 4096);
  ASSERT_FALSE(buffer.ok());
  EXPECT_EQ(buffer.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(buffer.status().message(),
              HasSubstr("vkAllocateMemory failed: "
                        "VK_ERROR_OUT_OF_DEVICE_MEMORY"));
  EXPECT_THAT(buffer.status().message(), HasSubstr("lower -max_len"));
}

TEST_F(VkFaultTest, AFailedMappingFreesTheBufferAndItsMemory) {
  ScopedVkFunctions faults;
  faults.table().vkMapMemory = MapFails;
  absl::StatusOr<Buffer> buffer = Buffer::Create(device(), 4096);
  ASSERT_FALSE(buffer.ok());
  EXPECT_THAT(buffer.status().message(),
              HasSubstr("vkMapMemory failed: VK_ERROR_MEMORY_MAP_FAILED"));
}

TEST_F(VkFaultTest, AFailedPipelineBuildFreesItsLayouts) {
  const std::vector<uint32_t> spirv = CompileOrDie(kWrite);
  ScopedVkFunctions faults;
  faults.table().vkCreateComputePipelines = PipelineOutOfHostMemory;
  absl::StatusOr<ComputePipeline> pipeline =
      ComputePipeline::Create(device(), spirv, 1, 0);
  ASSERT_FALSE(pipeline.ok());
  EXPECT_EQ(pipeline.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(pipeline.status().message(),
              HasSubstr("vkCreateComputePipelines failed: "
                        "VK_ERROR_OUT_OF_HOST_MEMORY"));
}

TEST_F(VkFaultTest, ALostDeviceAtSubmitIsUnavailableAndNothingIsInFlight) {
  absl::StatusOr<ComputePipeline> pipeline =
      ComputePipeline::Create(device(), CompileOrDie(kWrite), 1, 0);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status();
  absl::StatusOr<Dispatcher> dispatcher =
      Dispatcher::Create(device(), *pipeline);
  ASSERT_TRUE(dispatcher.ok()) << dispatcher.status();
  absl::StatusOr<Buffer> data = Buffer::Create(device(), 4096);
  ASSERT_TRUE(data.ok()) << data.status();
  const Buffer* bindings[] = {&*data};
  ASSERT_TRUE(dispatcher->BindBuffers(bindings).ok());
  {
    ScopedVkFunctions faults;
    faults.table().vkQueueSubmit = SubmitLosesTheDevice;
    absl::Status submitted = dispatcher->Submit({}, 1);
    EXPECT_EQ(submitted.code(), absl::StatusCode::kUnavailable) << submitted;
    EXPECT_THAT(submitted.message(),
                HasSubstr("vkQueueSubmit failed: VK_ERROR_DEVICE_LOST"));
    EXPECT_THAT(submitted.message(), HasSubstr("resumed from its corpus"));
    EXPECT_FALSE(dispatcher->busy());
  }
  // The table is the loader's again: the same dispatcher runs.
  ASSERT_TRUE(dispatcher->Submit({}, 1).ok());
  absl::StatusOr<bool> done = dispatcher->Wait(absl::Seconds(60));
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_TRUE(*done);
  EXPECT_EQ(data->words()[0], 7u);
}

TEST(VkFunctionsTest, TheScopeRestoresTheLoadersFunctions) {
  EXPECT_EQ(Vk().vkQueueSubmit, &::vkQueueSubmit);
  {
    ScopedVkFunctions faults;
    faults.table().vkQueueSubmit = SubmitLosesTheDevice;
    EXPECT_EQ(Vk().vkQueueSubmit, &SubmitLosesTheDevice);
    EXPECT_EQ(faults.original().vkQueueSubmit, &::vkQueueSubmit);
  }
  EXPECT_EQ(Vk().vkQueueSubmit, &::vkQueueSubmit);
}

}  // namespace
}  // namespace ringfuzz::vk

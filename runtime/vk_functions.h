// The Vulkan entry points that the runtime calls, as one table (as Amber's
// delegate does), so that tests can make any call fail on demand against a
// real device: every call of runtime/ goes through Vk().
//
// The table starts as the loader's exported functions. A test replaces
// entries through a ScopedVkFunctions, which restores the table when it ends;
// replacements must not outlive it. The table is process-wide and not
// synchronised: replace entries only while no other thread makes Vulkan
// calls (before creating the objects under test, or between their calls).
#ifndef RINGFUZZ_RUNTIME_VK_FUNCTIONS_H_
#define RINGFUZZ_RUNTIME_VK_FUNCTIONS_H_

#include <vulkan/vulkan.h>

namespace ringfuzz::vk {

// Every Vulkan function the runtime calls, X(name) each.
#define RINGFUZZ_VK_FUNCTIONS(X)              \
  X(vkAllocateCommandBuffers)                 \
  X(vkAllocateDescriptorSets)                 \
  X(vkAllocateMemory)                         \
  X(vkBeginCommandBuffer)                     \
  X(vkBindBufferMemory)                       \
  X(vkCmdBindDescriptorSets)                  \
  X(vkCmdBindPipeline)                        \
  X(vkCmdCopyBuffer)                          \
  X(vkCmdDispatch)                            \
  X(vkCmdPipelineBarrier)                     \
  X(vkCmdPushConstants)                       \
  X(vkCmdResetQueryPool)                      \
  X(vkCmdUpdateBuffer)                        \
  X(vkCmdWriteTimestamp)                      \
  X(vkCreateBuffer)                           \
  X(vkCreateCommandPool)                      \
  X(vkCreateComputePipelines)                 \
  X(vkCreateDescriptorPool)                   \
  X(vkCreateDescriptorSetLayout)              \
  X(vkCreateDevice)                           \
  X(vkCreateFence)                            \
  X(vkCreateInstance)                         \
  X(vkCreatePipelineLayout)                   \
  X(vkCreateQueryPool)                        \
  X(vkCreateShaderModule)                     \
  X(vkDestroyBuffer)                          \
  X(vkDestroyCommandPool)                     \
  X(vkDestroyDescriptorPool)                  \
  X(vkDestroyDescriptorSetLayout)             \
  X(vkDestroyDevice)                          \
  X(vkDestroyFence)                           \
  X(vkDestroyInstance)                        \
  X(vkDestroyPipeline)                        \
  X(vkDestroyPipelineLayout)                  \
  X(vkDestroyQueryPool)                       \
  X(vkDestroyShaderModule)                    \
  X(vkDeviceWaitIdle)                         \
  X(vkEndCommandBuffer)                       \
  X(vkEnumerateDeviceExtensionProperties)     \
  X(vkEnumerateInstanceLayerProperties)       \
  X(vkEnumerateInstanceVersion)               \
  X(vkEnumeratePhysicalDevices)               \
  X(vkFreeMemory)                             \
  X(vkGetBufferMemoryRequirements)            \
  X(vkGetDeviceQueue)                         \
  X(vkGetFenceStatus)                         \
  X(vkGetInstanceProcAddr)                    \
  X(vkGetPhysicalDeviceFeatures2)             \
  X(vkGetPhysicalDeviceMemoryProperties)      \
  X(vkGetPhysicalDeviceProperties)            \
  X(vkGetPhysicalDeviceProperties2)           \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkGetQueryPoolResults)                    \
  X(vkMapMemory)                              \
  X(vkQueueSubmit)                            \
  X(vkResetCommandBuffer)                     \
  X(vkResetFences)                            \
  X(vkUnmapMemory)                            \
  X(vkUpdateDescriptorSets)                   \
  X(vkWaitForFences)

struct VkFunctions {
#define RINGFUZZ_VK_MEMBER(name) PFN_##name name = ::name;
  RINGFUZZ_VK_FUNCTIONS(RINGFUZZ_VK_MEMBER)
#undef RINGFUZZ_VK_MEMBER
};

// The table in use.
const VkFunctions& Vk();

// Replaces entries of the table for its lifetime (tests). Not nestable with
// another live ScopedVkFunctions.
class ScopedVkFunctions {
 public:
  ScopedVkFunctions();
  ~ScopedVkFunctions();
  ScopedVkFunctions(const ScopedVkFunctions&) = delete;
  ScopedVkFunctions& operator=(const ScopedVkFunctions&) = delete;

  // The live table, to replace entries in.
  VkFunctions& table();
  // The entries as they were before this override, to call through.
  const VkFunctions& original() const { return saved_; }

 private:
  VkFunctions saved_;
};

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_VK_FUNCTIONS_H_

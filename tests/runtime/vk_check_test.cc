#include "runtime/vk_check.h"

#include <string>

#include "gtest/gtest.h"

namespace ringfuzz::vk {
namespace {

VkResult vkFakeCall(int /*unused*/, VkResult result) { return result; }

absl::Status CallThroughMacro(VkResult result) {
  RINGFUZZ_VK_RETURN_IF_ERROR(vkFakeCall(1, result));
  return absl::OkStatus();
}

TEST(VkCheckTest, SuccessIsOk) {
  EXPECT_TRUE(VkResultToStatus(VK_SUCCESS, "vkQueueSubmit").ok());
  EXPECT_TRUE(CallThroughMacro(VK_SUCCESS).ok());
}

TEST(VkCheckTest, DeviceLostSaysCampaignCanResume) {
  const absl::Status status =
      VkResultToStatus(VK_ERROR_DEVICE_LOST, "vkQueueSubmit");
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  const std::string message(status.message());
  EXPECT_EQ(message.rfind("vkQueueSubmit failed: VK_ERROR_DEVICE_LOST", 0), 0u)
      << message;
  EXPECT_NE(message.find("lost"), std::string::npos) << message;
  EXPECT_NE(message.find("resumed from its corpus"), std::string::npos)
      << message;
}

TEST(VkCheckTest, OutOfMemorySaysHowToShrink) {
  for (VkResult result :
       {VK_ERROR_OUT_OF_DEVICE_MEMORY, VK_ERROR_OUT_OF_HOST_MEMORY}) {
    const absl::Status status = VkResultToStatus(result, "vkAllocateMemory");
    EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
    EXPECT_NE(status.message().find("-max_len"), std::string::npos) << status;
    EXPECT_NE(status.message().find("ring size"), std::string::npos) << status;
  }
}

TEST(VkCheckTest, MacroNamesTheCallWithoutArguments) {
  const absl::Status status = CallThroughMacro(VK_ERROR_INITIALIZATION_FAILED);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message().rfind(
                "vkFakeCall failed: VK_ERROR_INITIALIZATION_FAILED", 0),
            0u)
      << status;
}

TEST(VkCheckTest, UnknownResultIsNamedByNumber) {
  EXPECT_EQ(ResultName(static_cast<VkResult>(-424242)), "VkResult(-424242)");
  EXPECT_EQ(ResultName(VK_TIMEOUT), "VK_TIMEOUT");
}

}  // namespace
}  // namespace ringfuzz::vk

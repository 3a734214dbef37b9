#include "runtime/buffer.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "tests/runtime/vulkan_test_fixture.h"

namespace ringfuzz::vk {
namespace {

using BufferTest = VulkanTest;

TEST_F(BufferTest, ZeroFilledAndReadWriteThroughMapping) {
  constexpr VkDeviceSize kBytes = 1 << 20;
  absl::StatusOr<Buffer> buffer = Buffer::Create(device(), kBytes);
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  EXPECT_EQ(buffer->size(), kBytes);
  EXPECT_EQ(buffer->bytes().size(), kBytes);
  for (uint8_t byte : buffer->bytes()) ASSERT_EQ(byte, 0);

  uint32_t* words = buffer->words();
  for (uint32_t i = 0; i < kBytes / 4; ++i) words[i] = i * 2654435761u;
  for (uint32_t i = 0; i < kBytes / 4; ++i) {
    ASSERT_EQ(buffer->words()[i], i * 2654435761u) << i;
  }
  EXPECT_EQ(buffer->data()[0], 0);
  EXPECT_EQ(buffer->data()[4], static_cast<uint8_t>(2654435761u));
}

TEST_F(BufferTest, PrefersDeviceLocalHostVisibleMemory) {
  // True on lavapipe (its only memory type) and on GPUs with resizable BAR.
  if (!device().info().has_device_local_host_visible) GTEST_SKIP();
  absl::StatusOr<Buffer> buffer = Buffer::Create(device(), 64 << 20);
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  EXPECT_TRUE(buffer->device_local());
  std::printf("64 MiB buffer in memory type %u\n", buffer->memory_type());
}

TEST_F(BufferTest, MoveKeepsTheMapping) {
  absl::StatusOr<Buffer> buffer = Buffer::Create(device(), 4096);
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  buffer->words()[3] = 99;
  uint8_t* mapped = buffer->data();
  Buffer moved = *std::move(buffer);
  EXPECT_EQ(moved.data(), mapped);
  EXPECT_EQ(moved.words()[3], 99u);
  Buffer assigned = std::move(moved);
  EXPECT_EQ(assigned.data(), mapped);
  EXPECT_EQ(assigned.size(), 4096u);
}

TEST_F(BufferTest, TooLargeNamesTheLimitAndHowToShrink) {
  const uint64_t limit = device().info().max_storage_buffer_range;
  absl::StatusOr<Buffer> buffer = Buffer::Create(device(), limit + 1);
  ASSERT_FALSE(buffer.ok());
  EXPECT_EQ(buffer.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string message(buffer.status().message());
  EXPECT_NE(message.find("maxStorageBufferRange"), std::string::npos)
      << message;
  EXPECT_NE(message.find(std::to_string(limit)), std::string::npos) << message;
  EXPECT_NE(message.find("-max_len"), std::string::npos) << message;
}

TEST_F(BufferTest, ZeroBytesIsAnError) {
  absl::StatusOr<Buffer> buffer = Buffer::Create(device(), 0);
  ASSERT_FALSE(buffer.ok());
  EXPECT_EQ(buffer.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ringfuzz::vk

#include "runtime/memory_type.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz::vk {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr VkMemoryPropertyFlags kLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
constexpr VkMemoryPropertyFlags kVisible =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
constexpr VkMemoryPropertyFlags kCached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;

VkPhysicalDeviceMemoryProperties Table(
    const std::vector<VkMemoryPropertyFlags>& types) {
  VkPhysicalDeviceMemoryProperties memory{};
  memory.memoryTypeCount = static_cast<uint32_t>(types.size());
  for (size_t i = 0; i < types.size(); ++i) {
    memory.memoryTypes[i].propertyFlags = types[i];
  }
  return memory;
}

// The H200's table: type 4 is device-local and host-visible (resizable BAR),
// types 2/3 are system memory.
VkPhysicalDeviceMemoryProperties H200() {
  return Table({0, kLocal, kVisible, kVisible | kCached, kLocal | kVisible});
}

// Buffers the host reads every round go to cached system memory first
// (the H200's type 3), then uncached system memory, device memory last.
TEST(MemoryTypeTest, HostPlacementPrefersCachedSystemMemory) {
  EXPECT_THAT(HostVisibleMemoryTypes(H200(), ~0u, Placement::kHost),
              ElementsAre(3, 2, 4));
  EXPECT_THAT(HostVisibleMemoryTypes(H200(), 0b10100, Placement::kHost),
              ElementsAre(2, 4));
  VkPhysicalDeviceMemoryProperties lavapipe =
      Table({kLocal | kVisible | kCached});
  EXPECT_THAT(HostVisibleMemoryTypes(lavapipe, 1, Placement::kHost),
              ElementsAre(0));
}

TEST(MemoryTypeTest, DeviceLocalHostVisibleComesFirst) {
  EXPECT_THAT(HostVisibleMemoryTypes(H200(), ~0u), ElementsAre(4, 2, 3));
  EXPECT_TRUE(IsDeviceLocal(H200(), 4));
  EXPECT_FALSE(IsDeviceLocal(H200(), 2));
}

TEST(MemoryTypeTest, RespectsAllowedTypeBits) {
  EXPECT_THAT(HostVisibleMemoryTypes(H200(), 0b01100), ElementsAre(2, 3));
  EXPECT_THAT(HostVisibleMemoryTypes(H200(), 0b00011), IsEmpty());
}

TEST(MemoryTypeTest, LavapipeSingleType) {
  const VkPhysicalDeviceMemoryProperties lavapipe =
      Table({kLocal | kVisible | kCached});
  EXPECT_THAT(HostVisibleMemoryTypes(lavapipe, 1), ElementsAre(0));
}

TEST(MemoryTypeTest, NonCoherentMemoryIsNeverOffered) {
  const VkPhysicalDeviceMemoryProperties table =
      Table({kLocal, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | kCached});
  EXPECT_THAT(HostVisibleMemoryTypes(table, ~0u), IsEmpty());
}

}  // namespace
}  // namespace ringfuzz::vk

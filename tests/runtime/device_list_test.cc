#include "runtime/device_list.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz::vk {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

PhysicalDeviceInfo Device(uint32_t index, std::string name, bool cpu) {
  PhysicalDeviceInfo info;
  info.index = index;
  info.name = std::move(name);
  info.is_cpu = cpu;
  info.is_lavapipe = cpu;
  info.is_discrete = !cpu;
  info.subgroup_size = cpu ? 8 : 32;
  info.api_version = (1u << 22) | (3u << 12);
  return info;
}

// A host with two H200s, and lavapipe installed besides.
std::vector<PhysicalDeviceInfo> TwoGpusAndLavapipe() {
  return {Device(0, "NVIDIA H200", false), Device(1, "llvmpipe", true),
          Device(2, "NVIDIA H200", false)};
}

TEST(DeviceListTest, AllIsEveryGpuInOrder) {
  EXPECT_THAT(ResolveDeviceList(TwoGpusAndLavapipe(), "all").value(),
              ElementsAre(0u, 2u));
  EXPECT_THAT(ResolveDeviceList(TwoGpusAndLavapipe(), " ALL ").value(),
              ElementsAre(0u, 2u));
}

TEST(DeviceListTest, AllWithoutAGpuIsTheCpuDeviceAlone) {
  std::vector<PhysicalDeviceInfo> cpu_only = {Device(0, "llvmpipe", true)};
  EXPECT_THAT(ResolveDeviceList(cpu_only, "all").value(), ElementsAre(0u));
}

TEST(DeviceListTest, ListItemsAreDeviceSpecsAndMayRepeat) {
  EXPECT_THAT(ResolveDeviceList(TwoGpusAndLavapipe(), "2,0").value(),
              ElementsAre(2u, 0u));
  EXPECT_THAT(ResolveDeviceList(TwoGpusAndLavapipe(), "cpu, cpu").value(),
              ElementsAre(1u, 1u));
  EXPECT_THAT(ResolveDeviceList(TwoGpusAndLavapipe(), "gpu,h200,1").value(),
              ElementsAre(0u, 0u, 1u));
  EXPECT_THAT(ResolveDeviceList(TwoGpusAndLavapipe(), "0").value(),
              ElementsAre(0u));
}

TEST(DeviceListTest, MissingIndexNamesTheItemAndListsTheDevices) {
  absl::StatusOr<std::vector<uint32_t>> list =
      ResolveDeviceList(TwoGpusAndLavapipe(), "0,3");
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(list.status().message(), HasSubstr("-devices=0,3: item '3'"));
  EXPECT_THAT(list.status().message(), HasSubstr("0: NVIDIA H200"));
  EXPECT_THAT(list.status().message(), HasSubstr("1: llvmpipe"));
  EXPECT_THAT(list.status().message(), HasSubstr("2: NVIDIA H200"));
}

TEST(DeviceListTest, MalformedListsAreErrorsThatSayHowToWriteThem) {
  for (const char* spec : {"", " ", "0,,1", "0,", ",0", "all,0", "0,all"}) {
    absl::StatusOr<std::vector<uint32_t>> list =
        ResolveDeviceList(TwoGpusAndLavapipe(), spec);
    ASSERT_FALSE(list.ok()) << spec;
    EXPECT_EQ(list.status().code(), absl::StatusCode::kInvalidArgument) << spec;
    EXPECT_THAT(list.status().message(), HasSubstr("-devices=")) << spec;
  }
}

TEST(DeviceListTest, NoDevicesSaysWhatToInstall) {
  absl::StatusOr<std::vector<uint32_t>> list = ResolveDeviceList({}, "all");
  ASSERT_FALSE(list.ok());
  EXPECT_THAT(list.status().message(), HasSubstr("mesa-vulkan-drivers"));
}

}  // namespace
}  // namespace ringfuzz::vk

// Reading -target files: BuildMegakernelFromFile reads with a size cap, so a
// device, a directory or a huge file is a clear error before any compile.
// No Vulkan device is needed: every case fails before glslang runs.
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/gpu/gpu_megakernel.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;

std::string TestDir() {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) /
      (std::string("megakernel_file_") +
       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(MegakernelFileTest, TargetLargerThanTheCapIsAnError) {
  const std::string path = TestDir() + "/huge.fz";
  std::ofstream(path).close();
  std::filesystem::resize_file(path, (uint64_t{4} << 20) + 1);  // sparse
  absl::StatusOr<Megakernel> kernel =
      BuildMegakernelFromFile(path, MegakernelOptions{});
  ASSERT_FALSE(kernel.ok());
  EXPECT_THAT(
      kernel.status().message(),
      HasSubstr("target source '" + path + "' is larger than 4194304 bytes; "));
  EXPECT_THAT(kernel.status().message(), HasSubstr("-target"));
}

TEST(MegakernelFileTest, EndlessDeviceIsAnError) {
  for (const char* device : {"/dev/zero", "/dev/urandom"}) {
    absl::StatusOr<Megakernel> kernel =
        BuildMegakernelFromFile(device, MegakernelOptions{});
    ASSERT_FALSE(kernel.ok()) << device;
    EXPECT_THAT(kernel.status().message(),
                HasSubstr("is larger than 4194304 bytes"))
        << device;
  }
}

TEST(MegakernelFileTest, DirectoryIsAnError) {
  const std::string dir = TestDir();
  absl::StatusOr<Megakernel> kernel =
      BuildMegakernelFromFile(dir, MegakernelOptions{});
  ASSERT_FALSE(kernel.ok());
  EXPECT_THAT(kernel.status().message(), HasSubstr(dir));
  EXPECT_THAT(kernel.status().message(), HasSubstr("directory"));
  EXPECT_THAT(kernel.status().message(), HasSubstr("-target"));
}

TEST(MegakernelFileTest, MissingFileNamesTheFlag) {
  const std::string path = TestDir() + "/missing.fz";
  absl::StatusOr<Megakernel> kernel =
      BuildMegakernelFromFile(path, MegakernelOptions{});
  ASSERT_FALSE(kernel.ok());
  EXPECT_TRUE(absl::IsNotFound(kernel.status())) << kernel.status();
  EXPECT_THAT(kernel.status().message(), HasSubstr(path));
  EXPECT_THAT(kernel.status().message(), HasSubstr("-target"));
}

}  // namespace
}  // namespace ringfuzz

#include "corpus/file_read.h"

#include <cerrno>
#include <cstring>
#include <string>

#include "corpus/atomic_file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;

constexpr FileCap kCap{4, "test file", "make it shorter"};

TEST(FileReadTest, ReadsAFileOfExactlyTheCap) {
  TempDir dir;
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("f"), Bytes{1, 2, 3, 4}).ok());
  absl::StatusOr<Bytes> data = ReadFileAtMost(dir.Sub("f"), kCap);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(*data, (Bytes{1, 2, 3, 4}));
}

TEST(FileReadTest, OneByteOverTheCapIsAnErrorNamingKindPathCapAndFix) {
  TempDir dir;
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("f"), Bytes(5, 'x')).ok());
  absl::StatusOr<Bytes> data = ReadFileAtMost(dir.Sub("f"), kCap);
  ASSERT_FALSE(data.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(data.status())) << data.status();
  EXPECT_EQ(data.status().message(), "test file '" + dir.Sub("f") +
                                         "' is larger than 4 bytes; make it "
                                         "shorter");
}

// Devices have no size: they are read up to the cap plus one byte.
TEST(FileReadTest, EndlessDevicesStopAtTheCap) {
  for (const char* device : {"/dev/zero", "/dev/urandom"}) {
    absl::StatusOr<Bytes> data = ReadFileAtMost(device, kCap);
    ASSERT_FALSE(data.ok()) << device;
    EXPECT_THAT(data.status().message(), HasSubstr("is larger than 4 bytes"));
  }
  absl::StatusOr<Bytes> empty = ReadFileAtMost("/dev/null", kCap);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(empty->empty());
}

TEST(FileReadTest, DirectoryAndMissingFileGiveTheReasonOnce) {
  TempDir dir;
  absl::StatusOr<Bytes> directory = ReadFileAtMost(dir.path(), kCap);
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(
      directory.status().message(),
      "cannot read test file '" + dir.path() + "': " + std::strerror(EISDIR));
  absl::StatusOr<Bytes> missing = ReadFileAtMost(dir.Sub("missing"), kCap);
  EXPECT_TRUE(absl::IsNotFound(missing.status())) << missing.status();
  EXPECT_EQ(missing.status().message(), "cannot read test file '" +
                                            dir.Sub("missing") +
                                            "': " + std::strerror(ENOENT));
}

TEST(FileReadTest, ReadFilePrefixReadsAtMostTheLimitOfADevice) {
  absl::StatusOr<Bytes> data = ReadFilePrefix("/dev/zero", 10);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(*data, Bytes(10, 0));
}

}  // namespace
}  // namespace ringfuzz

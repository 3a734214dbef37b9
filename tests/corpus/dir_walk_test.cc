#include "corpus/dir_walk.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;

// The system's reason is in the error once (absl::ErrnoToStatus appends it
// to a message that already holds it).
TEST(DirWalkTest, MissingRootNamesItWithTheReasonOnce) {
  TempDir dir;
  const std::string root = dir.Sub("missing");
  absl::StatusOr<DirWalk> walk = WalkCorpusDir(root);
  ASSERT_FALSE(walk.ok());
  EXPECT_TRUE(absl::IsNotFound(walk.status())) << walk.status();
  EXPECT_EQ(walk.status().message(), "cannot list corpus directory '" + root +
                                         "': " + std::strerror(ENOENT));
}

TEST(DirWalkTest, RootThatIsAFileCannotBeListed) {
  TempDir dir;
  const std::string file = dir.Sub("file");
  std::FILE* f = std::fopen(file.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  absl::StatusOr<DirWalk> walk = WalkCorpusDir(file);
  ASSERT_FALSE(walk.ok());
  EXPECT_THAT(walk.status().message(), HasSubstr(file));
  const absl::string_view message = walk.status().message();
  const std::string reason = std::strerror(ENOTDIR);
  EXPECT_EQ(message.find(reason), message.rfind(reason)) << message;
}

}  // namespace
}  // namespace ringfuzz

#include "corpus/work_dir.h"

#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

constexpr char kSha1[] = "da39a3ee5e6b4b0d3255bfef95601890afd80709";

TEST(WorkDirTest, JoinPathUsesExactlyOneSlash) {
  EXPECT_EQ(JoinPath("a", "b"), "a/b");
  EXPECT_EQ(JoinPath("a/", "b"), "a/b");
  EXPECT_EQ(JoinPath("", "b"), "b");
  EXPECT_EQ(JoinPath("/", "b"), "/b");
}

TEST(WorkDirTest, CorpusFilesAreNamedBySha1) {
  WorkDir dir("corpus/out", "", "");
  EXPECT_TRUE(dir.has_corpus_dir());
  EXPECT_EQ(dir.CorpusFilePath(kSha1), std::string("corpus/out/") + kSha1);
  EXPECT_FALSE(WorkDir("", "", "").has_corpus_dir());
}

TEST(WorkDirTest, ArtifactsUseThePrefixVerbatim) {
  EXPECT_EQ(WorkDir("", "", "").ArtifactPath(kArtifactCrash, kSha1),
            std::string("crash-") + kSha1);
  EXPECT_EQ(WorkDir("", "out/", "").ArtifactPath(kArtifactTimeout, kSha1),
            std::string("out/timeout-") + kSha1);
  EXPECT_EQ(WorkDir("", "out/run1-", "").ArtifactPath(kArtifactOom, kSha1),
            std::string("out/run1-oom-") + kSha1);
}

TEST(WorkDirTest, ExactArtifactPathOverridesThePrefix) {
  WorkDir dir("c", "out/", "/tmp/the-crash");
  EXPECT_EQ(dir.ArtifactPath(kArtifactLeak, kSha1), "/tmp/the-crash");
  EXPECT_EQ(dir.artifact_prefix(), "out/");
}

}  // namespace
}  // namespace ringfuzz

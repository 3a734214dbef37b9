#include "corpus/corpus_dir.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "corpus/atomic_file.h"
#include "corpus/dir_walk.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }

void Write(const std::string& path, const std::string& text) {
  ASSERT_TRUE(WriteFileAtomically(path, B(text)).ok()) << path;
}

std::vector<std::string> Paths(const std::vector<CorpusFile>& files) {
  std::vector<std::string> paths;
  for (const CorpusFile& f : files) paths.push_back(f.path);
  return paths;
}

TEST(CorpusDirTest, LoadsRegularFilesInDirectoryThenNameOrder) {
  TempDir root;
  std::string a = root.Sub("a"), b = root.Sub("b");
  ASSERT_EQ(mkdir(a.c_str(), 0755), 0);
  ASSERT_EQ(mkdir(b.c_str(), 0755), 0);
  Write(a + "/z", "zz");
  Write(a + "/m", "");  // empty inputs are inputs
  Write(a + "/.hidden", "no");
  ASSERT_EQ(mkdir((a + "/.git").c_str(), 0755), 0);
  Write(a + "/.git/hidden", "no");
  Write(b + "/c", "c");

  CorpusLoadReport report;
  std::vector<std::string> dirs = {a, b};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(Paths(*files), ElementsAre(a + "/m", a + "/z", b + "/c"));
  EXPECT_EQ((*files)[0].data, B(""));
  EXPECT_EQ((*files)[1].data, B("zz"));
  EXPECT_EQ((*files)[2].dir_index, 1u);
  EXPECT_THAT(report.files_per_dir, ElementsAre(2u, 1u));
  EXPECT_FALSE(report.created_first_dir);
  EXPECT_EQ(report.truncated, 0u);
  EXPECT_THAT(report.warnings, IsEmpty());
}

// libFuzzer reads a corpus directory recursively; so does ringfuzz, depth
// first, each directory's entries in name order.
TEST(CorpusDirTest, RecursesIntoSubdirectoriesInNameOrder) {
  TempDir root;
  Write(root.Sub("a"), "a");
  ASSERT_EQ(mkdir(root.Sub("b").c_str(), 0755), 0);
  Write(root.Sub("b/x"), "bx");
  ASSERT_EQ(mkdir(root.Sub("b/y").c_str(), 0755), 0);
  Write(root.Sub("b/y/deep"), "deep");
  Write(root.Sub("c"), "c");
  CorpusLoadReport report;
  std::vector<std::string> dirs = {root.path()};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(Paths(*files), ElementsAre(root.Sub("a"), root.Sub("b/x"),
                                         root.Sub("b/y/deep"), root.Sub("c")));
  EXPECT_THAT(report.files_per_dir, ElementsAre(4u));
  EXPECT_THAT(report.warnings, IsEmpty());
  EXPECT_EQ(LargestInputSize(dirs), 4u);  // b/y/deep
}

TEST(CorpusDirTest, SymlinkCycleIsLoadedOnceWithAWarningNamingIt) {
  TempDir root;
  ASSERT_EQ(mkdir(root.Sub("sub").c_str(), 0755), 0);
  Write(root.Sub("sub/input"), "i");
  ASSERT_EQ(symlink(root.path().c_str(), root.Sub("sub/up").c_str()), 0);
  CorpusLoadReport report;
  std::vector<std::string> dirs = {root.path()};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(Paths(*files), ElementsAre(root.Sub("sub/input")));
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_THAT(report.warnings[0], HasSubstr(root.Sub("sub/up")));
  EXPECT_THAT(report.warnings[0], HasSubstr("symlink cycle"));
  EXPECT_EQ(LargestInputSize(dirs), 1u);  // and the size walk ends too
}

TEST(CorpusDirTest, DirectoriesTooDeepAreSkippedWithAWarning) {
  TempDir root;
  std::string dir = root.path();
  for (int depth = 1; depth <= kMaxCorpusDirDepth + 1; ++depth) {
    dir += "/d";
    ASSERT_EQ(mkdir(dir.c_str(), 0755), 0);
    Write(dir + "/f", std::string(static_cast<size_t>(depth), 'x'));
  }
  CorpusLoadReport report;
  std::vector<std::string> dirs = {root.path()};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_EQ(files->size(), static_cast<size_t>(kMaxCorpusDirDepth));
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_THAT(report.warnings[0], HasSubstr("directory levels"));
}

// Corrupt or unreadable seeds never stop loading: each is a warning that
// names it, and the readable seeds are loaded.
TEST(CorpusDirTest, FifoIsSkippedWithAWarningNamingIt) {
  TempDir root;
  Write(root.Sub("good"), "g");
  ASSERT_EQ(mkfifo(root.Sub("pipe").c_str(), 0644), 0);
  CorpusLoadReport report;
  std::vector<std::string> dirs = {root.path()};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(Paths(*files), ElementsAre(root.Sub("good")));
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_THAT(report.warnings[0], HasSubstr(root.Sub("pipe")));
  EXPECT_THAT(report.warnings[0], HasSubstr("FIFO"));
}

TEST(CorpusDirTest, TruncatesToMaxLenAndCounts) {
  TempDir root;
  Write(root.Sub("long"), "0123456789");
  Write(root.Sub("short"), "01");
  CorpusLoadReport report;
  std::vector<std::string> dirs = {root.path()};
  auto files = LoadCorpusDirs(dirs, 4, &report);
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ((*files)[0].data, B("0123"));
  EXPECT_EQ((*files)[1].data, B("01"));
  EXPECT_EQ(report.truncated, 1u);
}

TEST(CorpusDirTest, CreatesMissingFirstDirectory) {
  TempDir root;
  std::string out = root.Sub("new/corpus");
  CorpusLoadReport report;
  std::vector<std::string> dirs = {out};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(*files, IsEmpty());
  EXPECT_TRUE(report.created_first_dir);
  struct stat st;
  ASSERT_EQ(stat(out.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
}

TEST(CorpusDirTest, MissingLaterDirectoryIsAnErrorNamingIt) {
  TempDir root;
  std::string missing = root.Sub("missing");
  CorpusLoadReport report;
  std::vector<std::string> dirs = {root.path(), missing};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  EXPECT_TRUE(absl::IsNotFound(files.status())) << files.status();
  EXPECT_THAT(files.status().message(), HasSubstr(missing));
  EXPECT_THAT(files.status().message(), HasSubstr("create it"));
}

TEST(CorpusDirTest, FileInsteadOfDirectoryIsAnError) {
  TempDir root;
  Write(root.Sub("file"), "x");
  CorpusLoadReport report;
  std::vector<std::string> dirs = {root.Sub("file")};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  EXPECT_FALSE(files.ok());
  EXPECT_THAT(files.status().message(), HasSubstr("is not a directory"));
}

// Counts the occurrences of `needle` in `text`.
size_t Count(absl::string_view text, absl::string_view needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != absl::string_view::npos;
       pos = text.find(needle, pos + needle.size())) {
    ++n;
  }
  return n;
}

TEST(CorpusDirTest, FirstDirectoryThatCannotBeCreatedGivesTheReasonOnce) {
  TempDir root;
  // stat() says ENOENT through the dangling link, and mkdir() of the path
  // below it fails with ENOENT too.
  ASSERT_EQ(symlink(root.Sub("nowhere").c_str(), root.Sub("link").c_str()), 0);
  const std::string out = root.Sub("link/corpus");
  CorpusLoadReport report;
  std::vector<std::string> dirs = {out};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  EXPECT_TRUE(absl::IsNotFound(files.status())) << files.status();
  EXPECT_THAT(files.status().message(), HasSubstr(out));
  EXPECT_EQ(Count(files.status().message(), std::strerror(ENOENT)), 1u)
      << files.status();
}

TEST(CorpusDirTest, DirectoryThatCannotBeAccessedGivesTheReasonOnce) {
  TempDir root;
  Write(root.Sub("file"), "x");
  const std::string below_file = root.Sub("file/corpus");
  CorpusLoadReport report;
  std::vector<std::string> dirs = {below_file};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  EXPECT_TRUE(absl::IsFailedPrecondition(files.status())) << files.status();
  EXPECT_THAT(files.status().message(), HasSubstr(below_file));
  EXPECT_EQ(Count(files.status().message(), std::strerror(ENOTDIR)), 1u)
      << files.status();
}

TEST(CorpusDirTest, UnreadableEntriesAreWarningsNotErrors) {
  TempDir root;
  Write(root.Sub("good"), "g");
  ASSERT_EQ(symlink(root.Sub("nowhere").c_str(), root.Sub("dangling").c_str()),
            0);
  ASSERT_EQ(symlink(root.Sub("loop").c_str(), root.Sub("loop").c_str()), 0);
  ASSERT_EQ(symlink(root.Sub("good").c_str(), root.Sub("link").c_str()), 0);
  CorpusLoadReport report;
  std::vector<std::string> dirs = {root.path()};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(Paths(*files), ElementsAre(root.Sub("good"), root.Sub("link")));
  ASSERT_EQ(report.warnings.size(), 2u);
  EXPECT_THAT(report.warnings[0], HasSubstr(root.Sub("dangling")));
  EXPECT_THAT(report.warnings[1], HasSubstr(root.Sub("loop")));
}

TEST(CorpusDirTest, PermissionDeniedFileIsAWarning) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads files regardless of mode";
  TempDir root;
  Write(root.Sub("secret"), "s");
  ASSERT_EQ(chmod(root.Sub("secret").c_str(), 0), 0);
  CorpusLoadReport report;
  std::vector<std::string> dirs = {root.path()};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  ASSERT_TRUE(files.ok());
  EXPECT_THAT(*files, IsEmpty());
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_THAT(report.warnings[0], HasSubstr("secret"));
}

}  // namespace
}  // namespace ringfuzz

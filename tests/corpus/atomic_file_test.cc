#include "corpus/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }

TEST(TempDirectoryTest, IsTmpdirWhenSetAndNotEmptyElseTmp) {
  const char* saved = getenv("TMPDIR");
  const std::string before = saved != nullptr ? saved : "";
  ASSERT_EQ(setenv("TMPDIR", "/var/tmp/ringfuzz-test", 1), 0);
  EXPECT_EQ(TempDirectory(), "/var/tmp/ringfuzz-test");
  ASSERT_EQ(setenv("TMPDIR", "", 1), 0);
  EXPECT_EQ(TempDirectory(), "/tmp");
  ASSERT_EQ(unsetenv("TMPDIR"), 0);
  EXPECT_EQ(TempDirectory(), "/tmp");
  if (saved != nullptr) setenv("TMPDIR", before.c_str(), 1);
}

TEST(AtomicFileTest, WritesAndReadsBack) {
  TempDir dir;
  std::string path = dir.Sub("unit");
  ASSERT_TRUE(WriteFileAtomically(path, B("hello")).ok());
  absl::StatusOr<Bytes> data = ReadFile(path);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(*data, B("hello"));
  EXPECT_THAT(ListDir(dir.path()), ElementsAre("unit"));  // no temporaries
}

TEST(AtomicFileTest, ReplacesExistingFileAndWritesEmptyFiles) {
  TempDir dir;
  std::string path = dir.Sub("unit");
  ASSERT_TRUE(WriteFileAtomically(path, B("a longer first version")).ok());
  ASSERT_TRUE(WriteFileAtomically(path, B("v2")).ok());
  EXPECT_EQ(*ReadFile(path), B("v2"));
  ASSERT_TRUE(WriteFileAtomically(path, {}).ok());
  EXPECT_TRUE(ReadFile(path)->empty());
  EXPECT_THAT(ListDir(dir.path()), ElementsAre("unit"));
}

TEST(AtomicFileTest, MissingDirectoryNamesPathAndFix) {
  TempDir dir;
  std::string path = dir.Sub("no/such/dir/crash-1");
  absl::Status status = WriteFileAtomically(path, B("x"));
  EXPECT_TRUE(absl::IsNotFound(status)) << status;
  EXPECT_THAT(status.message(), HasSubstr(path));
  EXPECT_THAT(status.message(), HasSubstr("No such file or directory"));
  EXPECT_THAT(status.message(), HasSubstr("choose another directory"));
}

TEST(AtomicFileTest, ParentIsAFile) {
  TempDir dir;
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("file"), B("x")).ok());
  absl::Status status = WriteFileAtomically(dir.Sub("file/unit"), B("y"));
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("not a directory"));
  EXPECT_THAT(ListDir(dir.path()), ElementsAre("file"));
}

TEST(AtomicFileTest, DirectoryInTheWayLeavesNoTemporary) {
  TempDir dir;
  ASSERT_EQ(mkdir(dir.Sub("unit").c_str(), 0755), 0);
  absl::Status status = WriteFileAtomically(dir.Sub("unit"), B("y"));
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("rename"));
  EXPECT_THAT(ListDir(dir.path()), ElementsAre("unit"));
}

// A write that fails half way (here: the file size limit, which behaves like
// a full disk for this process) must leave the old file untouched and no
// temporary behind.
TEST(AtomicFileTest, FailedWriteKeepsOldContentAndRemovesTemporary) {
  TempDir dir;
  std::string path = dir.Sub("unit");
  ASSERT_TRUE(WriteFileAtomically(path, B("old")).ok());

  struct rlimit saved;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
  struct sigaction ignore = {}, saved_action;
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(sigaction(SIGXFSZ, &ignore, &saved_action), 0);
  struct rlimit small = saved;
  small.rlim_cur = 16;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  absl::Status status = WriteFileAtomically(path, Bytes(4096, 'x'));
  setrlimit(RLIMIT_FSIZE, &saved);
  sigaction(SIGXFSZ, &saved_action, nullptr);

  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr(path));
  EXPECT_THAT(status.message(), HasSubstr("ulimit -f"));
  EXPECT_EQ(*ReadFile(path), B("old"));
  EXPECT_THAT(ListDir(dir.path()), ElementsAre("unit"));
}

TEST(AtomicFileTest, ReadOnlyDirectoryIsPermissionDenied) {
  if (geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
  TempDir dir;
  std::string ro = dir.Sub("ro");
  ASSERT_EQ(mkdir(ro.c_str(), 0555), 0);
  absl::Status status = WriteFileAtomically(ro + "/unit", B("x"));
  EXPECT_TRUE(absl::IsPermissionDenied(status)) << status;
  EXPECT_THAT(status.message(), HasSubstr("choose another directory"));
  chmod(ro.c_str(), 0755);
}

TEST(AtomicFileTest, ReadErrorsNameThePath) {
  TempDir dir;
  absl::StatusOr<Bytes> missing = ReadFile(dir.Sub("missing"));
  EXPECT_TRUE(absl::IsNotFound(missing.status()));
  EXPECT_THAT(missing.status().message(), HasSubstr(dir.Sub("missing")));
  absl::StatusOr<Bytes> directory = ReadFile(dir.path());
  EXPECT_FALSE(directory.ok());
  EXPECT_THAT(directory.status().message(), HasSubstr("Is a directory"));
}

// Returns how often `needle` occurs in `text`.
size_t Count(absl::string_view text, absl::string_view needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != absl::string_view::npos;
       at = text.find(needle, at + needle.size())) {
    ++n;
  }
  return n;
}

// The system's reason is part of the error text once, not appended again.
TEST(AtomicFileTest, ErrnoTextAppearsOnceInErrors) {
  TempDir dir;
  const std::string reason = std::strerror(ENOENT);
  absl::StatusOr<Bytes> missing = ReadFile(dir.Sub("missing"));
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(absl::IsNotFound(missing.status())) << missing.status();
  EXPECT_EQ(Count(missing.status().message(), reason), 1u) << missing.status();
  absl::Status write = WriteFileAtomically(dir.Sub("no/dir/x"), B("x"));
  EXPECT_TRUE(absl::IsNotFound(write)) << write;
  EXPECT_EQ(Count(write.message(), reason), 1u) << write;
}

// ReadFile serves corpus inputs and artifacts: a file beyond its cap (256
// MiB) is an error that says so, not an allocation of the whole file.
TEST(AtomicFileTest, ReadFileRefusesAFileLargerThanItsCap) {
  TempDir dir;
  const std::string path = dir.Sub("huge");
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, (off_t{256} << 20) + 1), 0);  // sparse
  close(fd);
  absl::StatusOr<Bytes> data = ReadFile(path);
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(data.status().message(),
              HasSubstr("'" + path + "' is larger than 268435456 bytes; "));
}

// Corpus loading tells a killed writer's complete temporary from a partial
// one by the destination (a SHA-1) in the temporary's name.
TEST(AtomicFileTest, TemporaryNamesCarryWriterAndDestination) {
  std::string temp = TemporaryPathFor("dir/0123abc");
  ASSERT_EQ(temp.rfind("dir/.tmp.", 0), 0u) << temp;
  std::optional<TemporaryName> parsed = ParseTemporaryName(temp.substr(4));
  ASSERT_TRUE(parsed.has_value()) << temp;
  EXPECT_EQ(parsed->writer, getpid());
  EXPECT_EQ(parsed->destination, "0123abc");
  EXPECT_NE(TemporaryPathFor("dir/0123abc"), temp);  // unique per call

  std::string long_name(kMaxTempDestinationChars + 1, 'n');
  parsed = ParseTemporaryName(TemporaryPathFor(long_name));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->destination, "");

  parsed = ParseTemporaryName(".tmp.123.4");  // the older form
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->writer, 123);
  EXPECT_EQ(parsed->destination, "");
  parsed = ParseTemporaryName(".tmp.123.4.epoch-000001.ring");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->destination, "epoch-000001.ring");
  EXPECT_FALSE(ParseTemporaryName("0123abc").has_value());
  EXPECT_FALSE(ParseTemporaryName(".tmp.x.4").has_value());
  EXPECT_FALSE(ParseTemporaryName(".tmp.123").has_value());
}

TEST(AtomicFileTest, ReadFilePrefixReadsAtMostTheLimit) {
  TempDir dir;
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("unit"), B("0123456789")).ok());
  EXPECT_EQ(*ReadFilePrefix(dir.Sub("unit"), 4), B("0123"));
  EXPECT_EQ(*ReadFilePrefix(dir.Sub("unit"), 100), B("0123456789"));
}

}  // namespace
}  // namespace ringfuzz

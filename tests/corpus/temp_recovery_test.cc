// Temporaries that killed writers leave in a corpus directory: complete ones
// become corpus inputs when the directory is loaded, partial ones go, and
// those of live writers are never touched.
#include "corpus/temp_recovery.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "corpus/atomic_file.h"
#include "corpus/corpus_dir.h"
#include "corpus/sha1.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using ::testing::UnorderedElementsAre;

Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }

std::string BaseName(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

// Runs a child process that starts WriteFileAtomically's write of `data` to
// `dir`/`name` (a temporary named as the writer names it), writes the first
// `written` bytes and is killed with SIGKILL before it renames. Returns the
// temporary's path; the child is reaped, so its pid is free.
std::string KillWriterMidWay(const TempDir& dir, const std::string& name,
                             const Bytes& data, size_t written) {
  pid_t child = fork();
  if (child == 0) {
    FILE* f = fopen(TemporaryPathFor(dir.Sub(name)).c_str(), "wb");
    if (f == nullptr) _exit(2);
    fwrite(data.data(), 1, written, f);
    fclose(f);
    kill(getpid(), SIGKILL);
    _exit(3);
  }
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  for (const std::string& entry : ListDir(dir.path())) {
    std::optional<TemporaryName> parsed = ParseTemporaryName(entry);
    if (parsed.has_value() && parsed->writer == child) return dir.Sub(entry);
  }
  ADD_FAILURE() << "the killed writer left no temporary for " << name;
  return "";
}

// A pid that no process has: a child that already exited and was reaped.
pid_t DeadPid() {
  pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  return child;
}

TEST(TempRecoveryTest, CompleteTemporaryOfAKilledWriterBecomesACorpusInput) {
  TempDir dir;
  const Bytes input = B("a find that was on its way to disk");
  const std::string sha1 = Sha1Hex(input);
  std::string temp = KillWriterMidWay(dir, sha1, input, input.size());
  ASSERT_THAT(ListDir(dir.path()), ElementsAre(BaseName(temp)));

  CorpusLoadReport report;
  std::vector<std::string> dirs = {dir.path()};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(ListDir(dir.path()), ElementsAre(sha1));
  ASSERT_THAT(*files, SizeIs(1));
  EXPECT_EQ((*files)[0].data, input);
  ASSERT_THAT(report.notes, SizeIs(1));
  EXPECT_THAT(report.notes[0], HasSubstr("recovered 1 input"));
  EXPECT_THAT(report.notes[0], HasSubstr(dir.path()));
  EXPECT_THAT(report.warnings, IsEmpty());
}

TEST(TempRecoveryTest, PartialTemporaryOfAKilledWriterIsRemoved) {
  TempDir dir;
  const Bytes input = B("only half of this reached the disk");
  std::string temp =
      KillWriterMidWay(dir, Sha1Hex(input), input, input.size() / 2);
  ASSERT_THAT(ListDir(dir.path()), ElementsAre(BaseName(temp)));

  CorpusLoadReport report;
  std::vector<std::string> dirs = {dir.path()};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(*files, IsEmpty());
  EXPECT_THAT(ListDir(dir.path()), IsEmpty());
  ASSERT_THAT(report.notes, SizeIs(1));
  EXPECT_THAT(report.notes[0], HasSubstr("removed 1 incomplete"));
}

TEST(TempRecoveryTest, TemporaryWithoutAChecksumIsRemoved) {
  TempDir dir;
  const pid_t dead = DeadPid();
  const std::string legacy = dir.Sub(".tmp." + std::to_string(dead) + ".7");
  const std::string dump =
      dir.Sub(".tmp." + std::to_string(dead) + ".8.epoch-000001.ring");
  ASSERT_TRUE(WriteFileAtomically(legacy, B("old form")).ok());
  ASSERT_TRUE(WriteFileAtomically(dump, B("not an input")).ok());

  TempRecovery recovery;
  RecoverTemporaries(dir.path(), recovery);
  EXPECT_EQ(recovery.recovered, 0u);
  EXPECT_EQ(recovery.removed, 2u);
  EXPECT_THAT(recovery.dirs, ElementsAre(dir.path()));
  EXPECT_THAT(ListDir(dir.path()), IsEmpty());
}

TEST(TempRecoveryTest, TemporariesOfLiveWritersAreLeftAlone) {
  TempDir dir;
  const Bytes input = B("still being written");
  // This process is alive, and so is a child that waits to be killed.
  const std::string own = TemporaryPathFor(dir.Sub(Sha1Hex(input)));
  ASSERT_TRUE(WriteFileAtomically(own, input).ok());
  pid_t child = fork();
  if (child == 0) {
    pause();
    _exit(0);
  }
  const std::string other =
      dir.Sub(".tmp." + std::to_string(child) + ".0." + Sha1Hex(input));
  ASSERT_TRUE(WriteFileAtomically(other, B("still")).ok());

  CorpusLoadReport report;
  std::vector<std::string> dirs = {dir.path()};
  auto files = LoadCorpusDirs(dirs, 0, &report);
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(*files, IsEmpty());
  EXPECT_THAT(ListDir(dir.path()),
              UnorderedElementsAre(BaseName(other), BaseName(own)));
  EXPECT_THAT(report.notes, IsEmpty());
}

TEST(TempRecoveryTest, DescribesNothingWhenNothingWasDone) {
  EXPECT_EQ(DescribeTempRecovery(TempRecovery()), "");
}

}  // namespace
}  // namespace ringfuzz

#include "corpus/corpus_reload.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "corpus/atomic_file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

void Put(const TempDir& dir, const std::string& name) {
  ASSERT_TRUE(WriteFileAtomically(dir.Sub(name), Bytes{'x'}).ok());
}

// Sets the directory's modification time `seconds_ago` into the past, as
// if the last change were that old.
void AgeDirectory(const TempDir& dir, int seconds_ago) {
  struct timespec times[2];
  clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= seconds_ago;
  times[1] = times[0];
  ASSERT_EQ(utimensat(AT_FDCWD, dir.path().c_str(), times, 0), 0);
}

TEST(CorpusReloaderTest, ReturnsEachNewFileOnceInNameOrder) {
  TempDir dir;
  Put(dir, "b");
  Put(dir, "a");
  CorpusReloader reloader(dir.path(), absl::Seconds(1));
  EXPECT_THAT(reloader.Poll(absl::ZeroDuration()), ElementsAre("a", "b"));
  Put(dir, "c");
  EXPECT_THAT(reloader.Poll(absl::Seconds(1)), ElementsAre("c"));
  EXPECT_THAT(reloader.Poll(absl::Seconds(2)), IsEmpty());
}

TEST(CorpusReloaderTest, PollsAtMostOncePerInterval) {
  TempDir dir;
  CorpusReloader reloader(dir.path(), absl::Seconds(5));
  EXPECT_THAT(reloader.Poll(absl::Seconds(100)), IsEmpty());
  Put(dir, "a");
  EXPECT_THAT(reloader.Poll(absl::Seconds(104)), IsEmpty());  // not due
  EXPECT_THAT(reloader.Poll(absl::Seconds(105)), ElementsAre("a"));
}

TEST(CorpusReloaderTest, KnownTemporaryHiddenArtifactAndDirectoryNamesSkipped) {
  TempDir dir;
  Put(dir, "known");
  Put(dir, ".tmp.123.0.abc");
  Put(dir, ".hidden");
  Put(dir, "crash-0123");
  Put(dir, "timeout-0123");
  Put(dir, "minimized-from-0123");
  ASSERT_EQ(mkdir(dir.Sub("subdir").c_str(), 0755), 0);
  Put(dir, "input");
  CorpusReloader reloader(dir.path(), absl::ZeroDuration());
  reloader.MarkKnown("known");
  EXPECT_THAT(reloader.Poll(absl::ZeroDuration()), ElementsAre("input"));
}

TEST(CorpusReloaderTest, ForgottenNamesComeBack) {
  TempDir dir;
  Put(dir, "a");
  CorpusReloader reloader(dir.path(), absl::ZeroDuration());
  EXPECT_THAT(reloader.Poll(absl::ZeroDuration()), ElementsAre("a"));
  reloader.Forget("a");
  AgeDirectory(dir, 0);  // the same time: listed again within the slack
  EXPECT_THAT(reloader.Poll(absl::Seconds(1)), ElementsAre("a"));
}

TEST(CorpusReloaderTest, UnchangedOldDirectoryIsNotListedAgain) {
  TempDir dir;
  Put(dir, "a");
  AgeDirectory(dir, 60);
  CorpusReloader reloader(dir.path(), absl::ZeroDuration());
  EXPECT_THAT(reloader.Poll(absl::ZeroDuration()), ElementsAre("a"));
  EXPECT_EQ(reloader.listings(), 1u);
  EXPECT_THAT(reloader.Poll(absl::Seconds(1)), IsEmpty());
  EXPECT_EQ(reloader.listings(), 1u);  // the time said nothing changed
  Put(dir, "b");                       // changes the time
  EXPECT_THAT(reloader.Poll(absl::Seconds(2)), ElementsAre("b"));
  EXPECT_EQ(reloader.listings(), 2u);
}

TEST(CorpusReloaderTest, RecentlyChangedDirectoryIsListedEvenIfTheTimeIsSame) {
  // A file renamed in within the file system's time granularity of the
  // last listing leaves the directory's time as it was: a directory changed
  // less than kMtimeSlack before the last listing is listed again.
  TempDir dir;
  CorpusReloader reloader(dir.path(), absl::ZeroDuration());
  struct stat before;
  ASSERT_EQ(stat(dir.path().c_str(), &before), 0);
  EXPECT_THAT(reloader.Poll(absl::ZeroDuration()), IsEmpty());
  Put(dir, "a");
  struct timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(utimensat(AT_FDCWD, dir.path().c_str(), times, 0), 0);
  EXPECT_THAT(reloader.Poll(absl::Seconds(1)), ElementsAre("a"));
  EXPECT_EQ(reloader.listings(), 2u);
}

TEST(CorpusReloaderTest, MissingDirectoryYieldsNothing) {
  TempDir dir;
  CorpusReloader reloader(dir.Sub("gone"), absl::ZeroDuration());
  EXPECT_THAT(reloader.Poll(absl::ZeroDuration()), IsEmpty());
  EXPECT_EQ(reloader.listings(), 0u);
}

TEST(CorpusReloaderTest, ArtifactNames) {
  EXPECT_TRUE(IsArtifactName("crash-da39a3ee"));
  EXPECT_TRUE(IsArtifactName("oom-1"));
  EXPECT_TRUE(IsArtifactName("leak-1"));
  EXPECT_TRUE(IsArtifactName("slow-unit-1"));
  EXPECT_FALSE(IsArtifactName("da39a3ee5e6b4b0d3255bfef95601890afd80709"));
  EXPECT_FALSE(IsArtifactName("crashed"));
}

}  // namespace
}  // namespace ringfuzz

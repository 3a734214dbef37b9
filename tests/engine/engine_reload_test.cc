// The engine's -reload (files other processes put into the corpus
// directory join the corpus), against the fake executor.
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "corpus/atomic_file.h"
#include "corpus/sha1.h"
#include "fuzz/engine/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"
#include "tests/engine/engine_run.h"
#include "tests/engine/fake_clock.h"
#include "tests/engine/fake_executor.h"

namespace ringfuzz {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }

// A magic too long for the fake's mutators to reach in these runs: what
// matches more than a few of its bytes came from the directory.
constexpr char kMagic[] = "RINGFUZZ-RELOAD-MAGIC";

Config ReloadConfig() {
  Config config;
  config.seed = 1;
  config.batch_slots = 8;
  config.slot_execs = 64;
  config.runs = 40000;
  config.reload = 1;
  config.print_final_stats = true;
  config.artifact_prefix = ::testing::TempDir();
  return config;
}

// Runs the engine on `dir` with a clock that moves 10 ms per reading, so
// that a -reload poll falls due every few batches.
EngineRun RunOn(const Config& config, FakeExecutor& executor,
                const std::string& dir) {
  FakeClock clock(absl::Milliseconds(10));
  return RunEngineOn(config, executor, {dir}, clock);
}

TEST(EngineReloadTest, OtherProcessesFilesWithNewCoverageJoinTheCorpus) {
  TempDir dir;
  const Bytes deep = B("RINGFUZZ-RELO");  // 13 bytes of the magic
  FakeExecutorOptions options;
  options.magic = kMagic;
  int batches = 0;
  options.before_batch = [&] {
    if (++batches != 3) return;
    // Another worker's find (any name), an artifact and a temporary.
    ASSERT_TRUE(WriteFileAtomically(dir.Sub("from-worker-1"), deep).ok());
    ASSERT_TRUE(WriteFileAtomically(dir.Sub("crash-1234"), B(kMagic)).ok());
    ASSERT_TRUE(WriteFileAtomically(dir.Sub(".tmp.1.2.x"), B("RINGF")).ok());
  };
  FakeExecutor executor(options);
  const EngineRun run = RunOn(ReloadConfig(), executor, dir.path());
  EXPECT_EQ(run.code, 0) << run.log;
  EXPECT_THAT(run.corpus, Contains(deep));
  EXPECT_THAT(run.log, HasSubstr("\tRELOAD cov: "));
  EXPECT_THAT(run.log, HasSubstr("stat::reloaded_units:           1\n"));
  // Not written again under its SHA-1: the file is there already.
  EXPECT_FALSE(std::filesystem::exists(dir.Sub(Sha1Hex(deep))));
  // The artifact never ran (it holds the whole magic: a bug).
  EXPECT_THAT(run.log, Not(HasSubstr("deadly signal")));
  EXPECT_EQ(run.executions, 40000u);
}

TEST(EngineReloadTest, OwnFilesAndFilesWithoutNewCoverageStayOut) {
  TempDir dir;
  FakeExecutorOptions options;
  options.magic = kMagic;
  int batches = 0;
  options.before_batch = [&] {
    if (++batches != 3) return;
    ASSERT_TRUE(WriteFileAtomically(dir.Sub("dull"), B("zzzz")).ok());
  };
  FakeExecutor executor(options);
  const EngineRun run = RunOn(ReloadConfig(), executor, dir.path());
  EXPECT_EQ(run.code, 0) << run.log;
  EXPECT_THAT(run.log, Not(HasSubstr("RELOAD")));
  EXPECT_THAT(run.log, Not(HasSubstr("stat::reloaded_units")));
  // "zzzz" ran once from the directory; the engine's own files never did.
  size_t zzzz = 0;
  for (const Bytes& input : executor.executed_unmutated()) {
    zzzz += input == B("zzzz");
  }
  EXPECT_EQ(zzzz, 1u);
  EXPECT_EQ(executor.executed_unmutated().size(), 2u);  // "\n" and "zzzz"
}

TEST(EngineReloadTest, ReloadZeroNeverLooks) {
  TempDir dir;
  FakeExecutorOptions options;
  options.magic = kMagic;
  int batches = 0;
  options.before_batch = [&] {
    if (++batches != 3) return;
    ASSERT_TRUE(WriteFileAtomically(dir.Sub("x"), B("RINGFUZZ-RELO")).ok());
  };
  FakeExecutor executor(options);
  Config config = ReloadConfig();
  config.reload = 0;
  const EngineRun run = RunOn(config, executor, dir.path());
  EXPECT_EQ(run.code, 0) << run.log;
  EXPECT_EQ(executor.executed_unmutated().size(), 1u);  // "\n" only
  EXPECT_THAT(run.log, Not(HasSubstr("RELOAD")));
}

TEST(EngineReloadTest, RunsStaysExactWithFilesArrivingThroughout) {
  TempDir dir;
  FakeExecutorOptions options;
  options.magic = kMagic;
  int batches = 0;
  options.before_batch = [&] {
    ++batches;
    for (int i = 0; i < 20; ++i) {
      const std::string name =
          "f" + std::to_string(batches) + "-" + std::to_string(i);
      ASSERT_TRUE(WriteFileAtomically(dir.Sub(name), B(name)).ok());
    }
  };
  FakeExecutor executor(options);
  Config config = ReloadConfig();
  config.runs = 5000;
  const EngineRun run = RunOn(config, executor, dir.path());
  EXPECT_EQ(run.code, 0) << run.log;
  EXPECT_EQ(run.executions, 5000u);
  EXPECT_GT(executor.executed_unmutated().size(), 20u);  // reloads ran
}

TEST(EngineReloadTest, ReloadedFileThatTriggersTheBugIsReported) {
  TempDir dir;
  FakeExecutorOptions options;
  options.magic = kMagic;
  int batches = 0;
  options.before_batch = [&] {
    if (++batches != 3) return;
    ASSERT_TRUE(WriteFileAtomically(dir.Sub("bad"), B(kMagic)).ok());
  };
  FakeExecutor executor(options);
  const EngineRun run = RunOn(ReloadConfig(), executor, dir.path());
  EXPECT_EQ(run.code, 77) << run.log;
  EXPECT_THAT(run.log, HasSubstr(dir.Sub("bad") + " (from -reload)"));
  EXPECT_THAT(run.log, HasSubstr("deadly signal"));
}

}  // namespace
}  // namespace ringfuzz

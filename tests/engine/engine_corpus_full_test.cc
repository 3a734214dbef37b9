// An executor that cannot take another corpus input (the GPU executor at
// -gpu_memory_mb, or at the device's limits) ends the run with an error,
// and nothing found is lost: what was found after it is saved in the corpus
// directory, not fuzzed.
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

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

using ::testing::HasSubstr;
using ::testing::Not;

Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }

size_t FilesIn(const std::string& dir) {
  size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    n += entry.is_regular_file();
  }
  return n;
}

TEST(EngineCorpusFullTest, CorpusTheExecutorCannotGrowLosesNothing) {
  // The executor takes 3 inputs; everything found after that is saved in
  // the corpus directory though not fuzzed, and the run ends with an
  // error that says so.
  TempDir dir;
  FakeExecutorOptions options;
  options.magic = "RINGFUZZ-CORPUS-FULL";
  options.corpus_limit = 3;
  FakeExecutor executor(options);
  Config config;
  config.seed = 1;
  config.batch_slots = 8;
  config.slot_execs = 64;
  config.runs = 40000;
  config.reload = 0;
  config.artifact_prefix = ::testing::TempDir();
  FakeClock clock;
  const EngineRun run = RunEngineOn(config, executor, {dir.path()}, clock);
  const int code = run.code;
  const std::string& log = run.log;
  const std::vector<Bytes>& corpus = run.corpus;
  EXPECT_EQ(code, 1) << log;
  EXPECT_THAT(log, HasSubstr("ERROR: the executor could not take a new "
                             "corpus input: the corpus buffer is full"));
  EXPECT_THAT(log, HasSubstr("were not fuzzed"));
  EXPECT_EQ(corpus.size(), 3u);
  // Every corpus entry and every later find is a file.
  EXPECT_GT(FilesIn(dir.path()), 3u) << log;
  for (const Bytes& input : corpus) {
    if (input == B("\n")) continue;  // the in-memory start input
    EXPECT_TRUE(std::filesystem::exists(dir.Sub(Sha1Hex(input))));
  }
  EXPECT_THAT(log, Not(HasSubstr("DONE")));
}

}  // namespace
}  // namespace ringfuzz

#include "fuzz/cli.h"

#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "corpus/atomic_file.h"
#include "fuzz/engine/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"
#include "tests/engine/fake_executor.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Records the Config the factory saw and hands out a FakeExecutor.
struct RecordingFactory {
  Config seen;
  bool called = false;
  uint32_t set_batch_slots = 0;

  ExecutorFactory Get() {
    return [this](Config& config) -> absl::StatusOr<std::unique_ptr<Executor>> {
      called = true;
      if (config.batch_slots == 0) config.batch_slots = set_batch_slots;
      seen = config;
      FakeExecutorOptions options;
      options.max_len = static_cast<size_t>(config.max_len);
      return std::unique_ptr<Executor>(new FakeExecutor(options));
    };
  }
};

int RunCli(std::vector<std::string> args, RecordingFactory& factory,
           std::string* log) {
  std::ostringstream out;
  int code = RunCommandLine(args, factory.Get(), out);
  *log = out.str();
  return code;
}

TEST(CliTest, HelpPrintsUsageAndSucceeds) {
  RecordingFactory factory;
  std::string log;
  EXPECT_EQ(RunCli({"-help=1"}, factory, &log), 0);
  EXPECT_THAT(log, StartsWith("Usage:\n"));
  EXPECT_FALSE(factory.called);
}

TEST(CliTest, CommandLineErrorsExitWithOne) {
  RecordingFactory factory;
  std::string log;
  EXPECT_EQ(RunCli({"-target=t", "-runs=abc"}, factory, &log), 1);
  EXPECT_EQ(log,
            "ERROR: bad value 'abc' for -runs: expected an integer in [-1, "
            "9223372036854775807]; fix: pass such a value, e.g. the default "
            "-runs=-1\n");
  EXPECT_EQ(RunCli({"-runs=1"}, factory, &log), 1);
  EXPECT_THAT(log, StartsWith("ERROR: -target=FILE is required"));
  EXPECT_FALSE(factory.called);
}

// As libFuzzer: what is not understood is reported first, and the run goes
// on (ClusterFuzzLite turns an exit 1 at start into a false crash).
TEST(CliTest, UnknownAndIgnoredFlagsWarnAndTheRunGoesOn) {
  RecordingFactory factory;
  std::string log;
  EXPECT_EQ(RunCli({"-target=t", "-runz=1", "-rss_limit_mb=2560", "-runs=10",
                    "-seed=3", "--", "-len_control=0"},
                   factory, &log),
            0);
  EXPECT_TRUE(factory.called);
  EXPECT_EQ(factory.seen.runs, 10);
  EXPECT_THAT(log,
              StartsWith("WARNING: unrecognized flag '-runz=1'; use -help=1 "
                         "to list all flags (did you mean -runs?)\n"
                         "WARNING: ringfuzz ignores -rss_limit_mb: the target "
                         "runs on the device and allocates no host memory\n"
                         "INFO: ringfuzz ignores flags that start with '--'\n"
                         "WARNING: ringfuzz ignores -len_control: "));
  EXPECT_THAT(log, HasSubstr("Done 10 runs"));
}

TEST(CliTest, SeveralTargetsGoToTheWorkersRunnerOrTheLastOneWins) {
  RecordingFactory factory;
  std::vector<std::string> seen_targets;
  const MultiDeviceRunner run_multi =
      [&seen_targets](absl::Span<const std::string>,
                      const ParsedCommandLine& parsed, std::ostream&) {
        seen_targets = parsed.targets;
        return 9;
      };
  std::ostringstream out;
  EXPECT_EQ(
      RunCommandLine({"-target=a.fz", "-target=b.fz", "-runs=0", "da", "db"},
                     factory.Get(), out, run_multi),
      9);
  EXPECT_THAT(seen_targets, ::testing::ElementsAre("a.fz", "b.fz"));
  EXPECT_FALSE(factory.called);
  // One target is fuzzed in this process even where workers could start.
  EXPECT_EQ(RunCommandLine({"-target=a.fz", "-runs=0"}, factory.Get(), out,
                           run_multi),
            0);
  EXPECT_EQ(factory.seen.target, "a.fz");
  // A program without the runner (a <name>_fuzzer, whose own -target comes
  // first) takes the last -target, as libFuzzer takes a flag's last value.
  std::string log;
  EXPECT_EQ(
      RunCli({"-target=own.fz", "-target=b.fz", "-runs=0"}, factory, &log), 0)
      << log;
  EXPECT_EQ(factory.seen.target, "b.fz");
}

TEST(CliTest, ExecutorCreationFailureIsReported) {
  std::ostringstream out;
  ExecutorFactory broken =
      [](Config&) -> absl::StatusOr<std::unique_ptr<Executor>> {
    return absl::NotFoundError("no Vulkan device; install a driver");
  };
  std::vector<std::string> args = {"-target=t"};
  EXPECT_EQ(RunCommandLine(args, broken, out), 1);
  EXPECT_THAT(out.str(),
              HasSubstr("ERROR: no Vulkan device; install a driver\n"));
}

TEST(CliTest, AutomaticMaxLen) {
  EXPECT_EQ(AutomaticMaxLen(0), 64u);
  EXPECT_EQ(AutomaticMaxLen(64), 64u);
  EXPECT_EQ(AutomaticMaxLen(65), 68u);
  EXPECT_EQ(AutomaticMaxLen(1000), 1000u);
  EXPECT_EQ(AutomaticMaxLen(1001), 1004u);
}

// A huge seed must not ask the executor for inputs no device can hold (nor
// wrap in its 32-bit length): the automatic length stops at -max_len's limit.
TEST(CliTest, AutomaticMaxLenStopsAtTheFlagsLimit) {
  EXPECT_EQ(AutomaticMaxLen(kMaxLenLimit), static_cast<size_t>(kMaxLenLimit));
  EXPECT_EQ(AutomaticMaxLen(kMaxLenLimit + 1),
            static_cast<size_t>(kMaxLenLimit));
  EXPECT_EQ(AutomaticMaxLen(uint64_t{100} << 20),
            static_cast<size_t>(kMaxLenLimit));
  EXPECT_EQ(AutomaticMaxLen(uint64_t{1} << 32),
            static_cast<size_t>(kMaxLenLimit));
}

TEST(CliTest, MaxLenFollowsTheLargestSeedAndFactoryFillsBatchShape) {
  TempDir dir;
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("a"), Bytes(10, 'a')).ok());
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("b"), Bytes(129, 'b')).ok());
  RecordingFactory factory;
  factory.set_batch_slots = 5;
  std::string log;
  EXPECT_EQ(
      RunCli({"-target=t", "-runs=100", "-seed=3", dir.path()}, factory, &log),
      0);
  EXPECT_EQ(factory.seen.max_len, 132);
  EXPECT_EQ(factory.seen.batch_slots, 5);
  EXPECT_EQ(factory.seen.target, "t");
  EXPECT_THAT(log, StartsWith("INFO: -max_len is not provided; libFuzzer "
                              "will not generate inputs larger than 132 "
                              "bytes\n"
                              "INFO: Seed: 3\n"));
  EXPECT_THAT(log, HasSubstr("Done 100 runs"));

  EXPECT_EQ(RunCli({"-target=t", "-runs=10", "-max_len=16", dir.path()},
                   factory, &log),
            0);
  EXPECT_EQ(factory.seen.max_len, 16);
  EXPECT_THAT(log, HasSubstr("INFO: 1 inputs were longer than 16 bytes"));
}

// The CLI over the engine and a fake executor (no device): a campaign that
// meets the fake's bug writes one crash artifact and exits -error_exitcode.
TEST(CliTest, CampaignOnAFakeExecutorWritesTheArtifactAndExitsErrorExitcode) {
  TempDir dir;
  RecordingFactory factory;
  std::string log;
  EXPECT_EQ(
      RunCli({"-target=t", "-seed=9", "-runs=3000000",
              "-artifact_prefix=" + dir.path() + "/", "-error_exitcode=9"},
             factory, &log),
      9);
  ASSERT_EQ(ListDir(dir.path()).size(), 1u);
  EXPECT_THAT(ListDir(dir.path())[0], StartsWith("crash-"));
  EXPECT_EQ(factory.seen.batch_slots, 0);  // the engine's default applies
}

}  // namespace
}  // namespace ringfuzz

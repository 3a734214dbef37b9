// The multi-device campaign's parent (fuzz/workers/multi_device.h) with fake
// devices and a fake worker program (data/fake_worker.sh), so that its
// process handling is tested without a GPU: exit codes, the bug report
// and its artifact, signals, failures, the split of -runs.
#include "fuzz/workers/multi_device.h"

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "fuzz/engine/flag_parser.h"
#include "fuzz/engine/interrupt.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"

#ifndef RINGFUZZ_FAKE_WORKER
#error "the build defines RINGFUZZ_FAKE_WORKER (tests/engine/CMakeLists.txt)"
#endif

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

vk::PhysicalDeviceInfo FakeGpu(uint32_t index) {
  vk::PhysicalDeviceInfo info;
  info.index = index;
  info.name = "Fake GPU " + std::to_string(index);
  info.is_discrete = true;
  info.subgroup_size = 32;
  return info;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

struct Campaign {
  int code = -1;
  std::string log;
  std::vector<std::vector<std::string>> in_process;  // run_in_process calls
};

class MultiDeviceTest : public ::testing::Test {
 protected:
  void TearDown() override {
    unsetenv("FAKE_WORKER_MODE");
    unsetenv("FAKE_WORKER_SYNC");
    ResetInterrupt();
  }

  Campaign Run(const std::string& mode, std::vector<std::string> args,
               uint32_t gpus = 2) {
    setenv("FAKE_WORKER_MODE", mode.c_str(), 1);
    setenv("FAKE_WORKER_SYNC", dir_.path().c_str(), 1);
    MultiDeviceOptions options;
    options.program = RINGFUZZ_FAKE_WORKER;
    options.log_dir = dir_.path();
    options.status_interval = absl::Milliseconds(200);
    options.list_devices = [this, gpus] {
      std::vector<vk::PhysicalDeviceInfo> devices = devices_;
      for (uint32_t i = 0; devices_.empty() && i < gpus; ++i) {
        devices.push_back(FakeGpu(i));
      }
      return absl::StatusOr<std::vector<vk::PhysicalDeviceInfo>>(devices);
    };
    Campaign campaign;
    options.run_in_process = [&campaign](const std::vector<std::string>& a) {
      campaign.in_process.push_back(a);
      return 0;
    };
    absl::StatusOr<ParsedCommandLine> parsed = ParseCommandLine(args);
    EXPECT_TRUE(parsed.ok()) << parsed.status();
    std::ostringstream out;
    campaign.code = RunMultiDevice(args, *parsed, options, out);
    campaign.log = out.str();
    return campaign;
  }

  std::string WorkerLog(int i) {
    return ReadAll(dir_.Sub("fuzz-" + std::to_string(i) + ".log"));
  }

  TempDir dir_;
  // The host's devices where set; else `gpus` fake GPUs.
  std::vector<vk::PhysicalDeviceInfo> devices_;
};

TEST_F(MultiDeviceTest, WorkersSplitRunsAndTheCampaignSumsTheirStats) {
  const Campaign c =
      Run("done", {"-devices=all", "-target=t.fz", "-seed=40", "-runs=101",
                   "-print_final_stats=1", dir_.Sub("corpus")});
  EXPECT_EQ(c.code, 0) << c.log;
  EXPECT_THAT(WorkerLog(0), HasSubstr("ARGS: -device=0 -seed=40 -runs=51 "
                                      "-print_final_stats=1 -target=t.fz " +
                                      dir_.Sub("corpus") + "\n"));
  EXPECT_THAT(WorkerLog(1), HasSubstr("ARGS: -device=1 -seed=41 -runs=50 "));
  EXPECT_THAT(c.log, HasSubstr("stat::number_of_executed_units: 101\n"));
  EXPECT_THAT(c.log, HasSubstr("stat::new_units_added:          3\n"));
  EXPECT_THAT(c.log, HasSubstr("stat::peak_rss_mb:              6\n"));
  EXPECT_THAT(c.log, HasSubstr("stat::reloaded_units:           4\n"));
  EXPECT_THAT(c.log, HasSubstr("stat::workers:                  2\n"));
  EXPECT_TRUE(std::filesystem::is_directory(dir_.Sub("corpus")));
  EXPECT_TRUE(c.in_process.empty());
}

TEST_F(MultiDeviceTest, ABugStopsTheOthersAndIsReportedOnceWithItsArtifact) {
  const std::string exact = dir_.Sub("the-crash");
  const Campaign c =
      Run("bug_on_1", {"-devices=0,1", "-target=t.fz",
                       "-exact_artifact_path=" + exact, dir_.Sub("corpus")});
  EXPECT_EQ(c.code, 77) << c.log;
  EXPECT_EQ(Count(c.log, "ERROR: libFuzzer: deadly signal"), 1u) << c.log;
  // The worker's own copy is now the path given.
  EXPECT_THAT(c.log, HasSubstr("Test unit written to " + exact + "\n"));
  EXPECT_EQ(ReadAll(exact), "BUG");
  EXPECT_FALSE(std::filesystem::exists(exact + ".1"));
  // The other worker was stopped as an interrupt stops ringfuzz.
  EXPECT_THAT(WorkerLog(0), HasSubstr("libFuzzer: run interrupted"));
  EXPECT_THAT(c.log, HasSubstr("worker 1 found a bug (exit 77)"));
}

TEST_F(MultiDeviceTest, BugsOthersFoundWhileStoppingAreNamedNotReported) {
  const std::string exact = dir_.Sub("the-crash");
  const Campaign c =
      Run("bug_both", {"-devices=0,1", "-target=t.fz",
                       "-exact_artifact_path=" + exact, dir_.Sub("corpus")});
  EXPECT_EQ(c.code, 77) << c.log;
  EXPECT_EQ(Count(c.log, "ERROR: libFuzzer: deadly signal"), 1u) << c.log;
  EXPECT_EQ(Count(c.log, "Test unit written to"), 1u) << c.log;
  EXPECT_THAT(c.log, HasSubstr("worker 1 reported the bug"));
  EXPECT_THAT(c.log, HasSubstr("INFO: worker 0 also found a bug before it "
                               "stopped; artifact crash-of-0"));
}

TEST_F(MultiDeviceTest, InterruptIsPassedOnOnceAndEndsWithExit72) {
  std::thread interrupter([] {
    absl::SleepFor(absl::Milliseconds(500));
    RequestInterrupt(SIGINT);
  });
  const Campaign c =
      Run("wait", {"-devices=all", "-target=t.fz", dir_.Sub("corpus")});
  interrupter.join();
  EXPECT_EQ(c.code, 72) << c.log;
  EXPECT_THAT(c.log, HasSubstr("passing SIGINT on to the workers"));
  EXPECT_THAT(c.log, HasSubstr("libFuzzer: run interrupted; exiting"));
  EXPECT_THAT(WorkerLog(0), HasSubstr("run interrupted"));
  EXPECT_THAT(WorkerLog(1), HasSubstr("run interrupted"));
}

TEST_F(MultiDeviceTest, AFailingWorkerStopsTheCampaignWithItsError) {
  const Campaign c =
      Run("fail_on_1", {"-devices=all", "-target=t.fz", dir_.Sub("corpus")});
  EXPECT_EQ(c.code, 1) << c.log;
  EXPECT_THAT(c.log, HasSubstr("ERROR: worker 1 on device 1 failed with exit "
                               "1: something broke"));
  EXPECT_THAT(c.log, HasSubstr(dir_.Sub("fuzz-1.log")));
}

TEST_F(MultiDeviceTest, StatusLinesSumTheWorkers) {
  std::thread interrupter([] {
    absl::SleepFor(absl::Milliseconds(800));
    RequestInterrupt(SIGTERM);
  });
  const Campaign c =
      Run("wait", {"-devices=all", "-target=t.fz", dir_.Sub("corpus")});
  interrupter.join();
  EXPECT_THAT(c.log, HasSubstr("INFO: workers 2/2 running: #4 runs, cov: 3 "
                               "ft: 4 (best worker), 0 corpus files"));
}

TEST_F(MultiDeviceTest, ADeviceThatDoesNotExistListsTheDevices) {
  const Campaign c =
      Run("done", {"-devices=0,5", "-target=t.fz", dir_.Sub("corpus")});
  EXPECT_EQ(c.code, 1);
  EXPECT_THAT(c.log, HasSubstr("ERROR: -devices=0,5: item '5' names no "
                               "device"));
  EXPECT_THAT(c.log, HasSubstr("0: Fake GPU 0"));
  EXPECT_THAT(c.log, HasSubstr("1: Fake GPU 1"));
  EXPECT_FALSE(std::filesystem::exists(dir_.Sub("fuzz-0.log")));
}

TEST_F(MultiDeviceTest, OneDeviceFuzzesInThisProcess) {
  const Campaign c =
      Run("done", {"-devices=all", "-target=t.fz", dir_.Sub("corpus")},
          /*gpus=*/1);
  EXPECT_EQ(c.code, 0);
  EXPECT_THAT(c.in_process, ElementsAre(ElementsAre("-device=0", "-target=t.fz",
                                                    dir_.Sub("corpus"))));
  EXPECT_FALSE(std::filesystem::exists(dir_.Sub("fuzz-0.log")));
}

TEST_F(MultiDeviceTest, CommandLinesItCannotRunAreErrors) {
  EXPECT_THAT(Run("done", {"-devices=all", "-target=t.fz"}).log,
              HasSubstr("ERROR: -devices needs a corpus directory"));
  EXPECT_THAT(
      Run("done", {"-devices=all", "-device=0", "-target=t.fz", "d"}).log,
      HasSubstr("pass either -device"));
  EXPECT_THAT(
      Run("done", {"-devices=all", "-merge=1", "-target=t.fz", "a", "b"}).log,
      HasSubstr("run -merge"));
}

TEST_F(MultiDeviceTest, EachTargetFuzzesIntoItsOwnDirectoryOnTheDevice) {
  const Campaign c =
      Run("done", {"-target=a.fz", "-target=sub/b.fz", "-device=1", "-seed=40",
                   "-runs=7", "-print_final_stats=1", "-artifact_prefix=out/",
                   dir_.Sub("ca"), dir_.Sub("cb")});
  EXPECT_EQ(c.code, 0) << c.log;
  EXPECT_THAT(WorkerLog(0), HasSubstr("ARGS: -device=1 -seed=40 -runs=7 "
                                      "-print_final_stats=1 -target=a.fz "
                                      "-artifact_prefix=out/a- " +
                                      dir_.Sub("ca") + "\n"));
  EXPECT_THAT(WorkerLog(1), HasSubstr("ARGS: -device=1 -seed=41 -runs=7 "
                                      "-print_final_stats=1 -target=sub/b.fz "
                                      "-artifact_prefix=out/b- " +
                                      dir_.Sub("cb") + "\n"));
  EXPECT_FALSE(std::filesystem::exists(dir_.Sub("fuzz-2.log")));
  // -runs bounds each target.
  EXPECT_THAT(c.log, HasSubstr("stat::number_of_executed_units: 14\n"));
  EXPECT_THAT(c.log, HasSubstr("worker 1 (b, device 1) exited 0"));
  EXPECT_TRUE(std::filesystem::is_directory(dir_.Sub("ca")));
  EXPECT_TRUE(std::filesystem::is_directory(dir_.Sub("cb")));
  EXPECT_TRUE(c.in_process.empty());
}

TEST_F(MultiDeviceTest, SeveralTargetsRunOnTheDeviceOneCampaignWouldOpen) {
  // Without -device, as a campaign in one process: the first discrete GPU,
  // not the first GPU listed.
  vk::PhysicalDeviceInfo lavapipe = FakeGpu(0);
  lavapipe.is_cpu = true;
  lavapipe.is_discrete = false;
  vk::PhysicalDeviceInfo integrated = FakeGpu(1);
  integrated.is_discrete = false;
  devices_ = {lavapipe, integrated, FakeGpu(2)};
  const Campaign c = Run("done", {"-target=a.fz", "-target=b.fz", "-seed=1",
                                  dir_.Sub("ca"), dir_.Sub("cb")});
  EXPECT_EQ(c.code, 0) << c.log;
  EXPECT_THAT(WorkerLog(0), HasSubstr("ARGS: -device=2 -seed=1 "));
  EXPECT_THAT(WorkerLog(1), HasSubstr("ARGS: -device=2 -seed=2 "));
  EXPECT_THAT(Run("done", {"-target=a.fz", "-target=b.fz", "-device=9",
                           dir_.Sub("ca"), dir_.Sub("cb")})
                  .log,
              HasSubstr("Fake GPU 2"));
}

TEST_F(MultiDeviceTest, SeveralTargetsOnSeveralDevicesGetAWorkerEach) {
  const Campaign c =
      Run("done", {"-target=a.fz", "-target=b.fz", "-devices=all", "-seed=1",
                   dir_.Sub("ca"), dir_.Sub("cb")});
  EXPECT_EQ(c.code, 0) << c.log;
  EXPECT_THAT(WorkerLog(1), HasSubstr("ARGS: -device=1 -seed=2 "
                                      "-print_final_stats=1 -target=a.fz "));
  EXPECT_THAT(WorkerLog(2), HasSubstr("ARGS: -device=0 -seed=3 "
                                      "-print_final_stats=1 -target=b.fz "));
  EXPECT_THAT(WorkerLog(3), HasSubstr("-target=b.fz -artifact_prefix=b- " +
                                      dir_.Sub("cb") + "\n"));
}

TEST_F(MultiDeviceTest, StatusLinesAreOnePerTarget) {
  std::thread interrupter([] {
    absl::SleepFor(absl::Milliseconds(800));
    RequestInterrupt(SIGTERM);
  });
  const Campaign c = Run(
      "wait", {"-target=a.fz", "-target=b.fz", dir_.Sub("ca"), dir_.Sub("cb")});
  interrupter.join();
  EXPECT_EQ(c.code, 72) << c.log;
  EXPECT_THAT(c.log, HasSubstr("INFO: tenant a: workers 1/1 running: #2 "
                               "runs, cov: 3 ft: 4 (best worker), 0 corpus "
                               "files"));
  EXPECT_THAT(c.log, HasSubstr("INFO: tenant b: workers 1/1 running: #2 "));
  EXPECT_THAT(c.log, HasSubstr("INFO: tenant b's corpus: 0 files in " +
                               dir_.Sub("cb")));
}

TEST_F(MultiDeviceTest, SeveralTargetsNeedADirectoryEachAndACampaign) {
  EXPECT_THAT(Run("done", {"-target=a.fz", "-target=b.fz", dir_.Sub("ca")}).log,
              HasSubstr("ERROR: 2 targets need 2 corpus directories"));
  EXPECT_THAT(Run("done", {"-target=a.fz", "-target=b.fz", "-merge=1",
                           dir_.Sub("ca"), dir_.Sub("cb")})
                  .log,
              HasSubstr("several -target flags run a fuzzing campaign"));
  EXPECT_FALSE(std::filesystem::exists(dir_.Sub("fuzz-0.log")));
}

TEST_F(MultiDeviceTest, WorkersSharingTheCpuDeviceShareItsCores) {
  vk::PhysicalDeviceInfo lavapipe = FakeGpu(0);
  lavapipe.is_cpu = true;
  lavapipe.is_discrete = false;
  setenv("FAKE_WORKER_MODE", "done", 1);
  unsetenv("LP_NUM_THREADS");
  MultiDeviceOptions options;
  options.program = RINGFUZZ_FAKE_WORKER;
  options.log_dir = dir_.path();
  options.list_devices = [lavapipe] {
    return absl::StatusOr<std::vector<vk::PhysicalDeviceInfo>>(
        std::vector<vk::PhysicalDeviceInfo>{lavapipe});
  };
  options.run_in_process = [](const std::vector<std::string>&) { return 0; };
  const std::vector<std::string> args = {"-devices=cpu,cpu", "-target=t.fz",
                                         dir_.Sub("corpus")};
  absl::StatusOr<ParsedCommandLine> parsed = ParseCommandLine(args);
  ASSERT_TRUE(parsed.ok());
  std::ostringstream out;
  EXPECT_EQ(RunMultiDevice(args, *parsed, options, out), 0) << out.str();
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::string threads =
      "LP_NUM_THREADS=" + std::to_string(std::max(1u, cores / 2));
  EXPECT_THAT(WorkerLog(0), HasSubstr(threads));
  EXPECT_THAT(WorkerLog(1), HasSubstr(threads));
}

}  // namespace
}  // namespace ringfuzz

#include "fuzz/engine/subprocess.h"

#include <string>

#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;

TEST(RunProcessTest, CapturesStdoutAndStderrAndTheExitCode) {
  absl::StatusOr<ProcessResult> run =
      RunProcess({"/bin/sh", "-c", "echo out; echo err >&2; exit 5"});
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->exit_code, 5);
  EXPECT_FALSE(run->timed_out);
  EXPECT_THAT(run->output, HasSubstr("out\n"));
  EXPECT_THAT(run->output, HasSubstr("err\n"));
}

TEST(RunProcessTest, SetsTheEnvironmentOnTopOfTheParents) {
  ProcessOptions options;
  options.env = {{"RINGFUZZ_SUBPROCESS_TEST", "seen"}};
  absl::StatusOr<ProcessResult> run = RunProcess(
      {"/bin/sh", "-c", "echo \"[$RINGFUZZ_SUBPROCESS_TEST]\""}, options);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(run->output, HasSubstr("[seen]"));
}

TEST(RunProcessTest, KillsAProgramThatRunsPastTheDeadline) {
  ProcessOptions options;
  options.timeout = absl::Milliseconds(200);
  absl::StatusOr<ProcessResult> run =
      RunProcess({"/bin/sh", "-c", "exec sleep 30"}, options);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_TRUE(run->timed_out);
  EXPECT_EQ(run->exit_code, 128 + 9);  // SIGKILL, as a shell reports it
}

TEST(RunProcessTest, AProgramThatCannotStartIsAnErrorNamingIt) {
  absl::StatusOr<ProcessResult> run =
      RunProcess({"/nonexistent/ringfuzz-no-such-program"});
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(run.status().message(),
              HasSubstr("/nonexistent/ringfuzz-no-such-program"));
}

}  // namespace
}  // namespace ringfuzz

#include "fuzz/engine/child_process.h"

#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Not;

std::vector<std::string> Strings(char* const* array) {
  std::vector<std::string> out;
  for (; *array != nullptr; ++array) out.emplace_back(*array);
  return out;
}

// Runs `sh -c script` through the command's arrays and returns its waitpid
// status: the shell is the independent judge of what the child saw.
int RunShell(const ChildCommand& command) {
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, "/bin/sh", nullptr, nullptr, command.argv(),
                        command.envp()),
            0);
  int status = 0;
  EXPECT_EQ(waitpid(pid, &status, 0), pid);
  return status;
}

TEST(ChildCommandTest, ArgvIsTheArgumentsInOrderNullTerminated) {
  const ChildCommand command({"prog", "-runs=1", ""}, {});
  EXPECT_THAT(Strings(command.argv()), ElementsAre("prog", "-runs=1", ""));
}

TEST(ChildCommandTest, EnvironmentIsTheParentsWithOverridesReplacingNames) {
  ASSERT_EQ(setenv("RINGFUZZ_CHILD_TEST_A", "parent", 1), 0);
  ASSERT_EQ(setenv("RINGFUZZ_CHILD_TEST_AB", "kept", 1), 0);
  const ChildCommand command({"prog"}, {{"RINGFUZZ_CHILD_TEST_A", "child"},
                                        {"RINGFUZZ_CHILD_TEST_NEW", "x=y"}});
  const std::vector<std::string> env = Strings(command.envp());
  EXPECT_THAT(env, Contains("RINGFUZZ_CHILD_TEST_A=child"));
  EXPECT_THAT(env, Not(Contains("RINGFUZZ_CHILD_TEST_A=parent")));
  // A longer name that starts with an overridden one is not replaced.
  EXPECT_THAT(env, Contains("RINGFUZZ_CHILD_TEST_AB=kept"));
  EXPECT_THAT(env, Contains("RINGFUZZ_CHILD_TEST_NEW=x=y"));
  EXPECT_THAT(env, Contains(std::string("PATH=") + getenv("PATH")));
  unsetenv("RINGFUZZ_CHILD_TEST_A");
  unsetenv("RINGFUZZ_CHILD_TEST_AB");
}

TEST(ChildCommandTest, ChildSeesTheArgumentsAndEnvironment) {
  const ChildCommand command(
      {"/bin/sh", "-c", "test \"$RINGFUZZ_CHILD_TEST_V\" = \"$0\" && exit 7",
       "value"},
      {{"RINGFUZZ_CHILD_TEST_V", "value"}});
  EXPECT_EQ(ExitCodeOf(RunShell(command)), 7);
}

TEST(ExitCodeOfTest, MatchesWhatAShellReports) {
  // The shell's own $? of the same child is the reference.
  const ChildCommand exits({"/bin/sh", "-c", "exit 3"}, {});
  EXPECT_EQ(ExitCodeOf(RunShell(exits)), 3);
  const ChildCommand killed({"/bin/sh", "-c", "kill -KILL $$"}, {});
  const ChildCommand shell_view(
      {"/bin/sh", "-c", "sh -c 'kill -KILL $$'; exit $?"}, {});
  EXPECT_EQ(ExitCodeOf(RunShell(killed)), ExitCodeOf(RunShell(shell_view)));
  EXPECT_EQ(ExitCodeOf(RunShell(killed)), 128 + SIGKILL);
}

}  // namespace
}  // namespace ringfuzz

#include "fuzz/engine/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "fuzz/engine/child_process.h"

namespace ringfuzz {
namespace {

constexpr size_t kMaxOutput = size_t{1} << 20;

}  // namespace

absl::StatusOr<ProcessResult> RunProcess(const std::vector<std::string>& argv,
                                         const ProcessOptions& options) {
  if (argv.empty()) return absl::InvalidArgumentError("no program to run");
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    return absl::InternalError(
        absl::StrCat("cannot create a pipe: ", strerror(errno)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                   O_RDONLY, 0);
  const ChildCommand command(argv, options.env);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr,
                                   command.argv(), command.envp());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    return absl::FailedPreconditionError(
        absl::StrCat("cannot run '", argv[0], "': ", strerror(spawned),
                     "; check that it exists and is executable"));
  }
  ProcessResult result;
  const absl::Time deadline = absl::Now() + options.timeout;
  char buffer[65536];
  while (true) {
    const absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) {
      kill(pid, SIGKILL);
      result.timed_out = true;
      break;
    }
    pollfd fd = {pipe_fds[0], POLLIN, 0};
    const int ready = poll(&fd, 1,
                           static_cast<int>(std::min<int64_t>(
                               absl::ToInt64Milliseconds(left) + 1, 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = read(pipe_fds[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // every writer closed its end
    const size_t room = kMaxOutput - std::min(kMaxOutput, result.output.size());
    result.output.append(buffer, std::min(room, static_cast<size_t>(n)));
  }
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = ExitCodeOf(status);
  return result;
}

}  // namespace ringfuzz

#include "fuzz/workers/worker_process.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "fuzz/engine/child_process.h"

namespace ringfuzz {
namespace {

// Writes `text` to `fd` with no allocation (the child after fork).
void WriteRaw(int fd, const char* text) {
  size_t left = strlen(text);
  while (left > 0) {
    const ssize_t n = write(fd, text, left);
    if (n <= 0) return;
    text += n;
    left -= static_cast<size_t>(n);
  }
}

}  // namespace

absl::StatusOr<WorkerProcess> WorkerProcess::Start(
    const std::string& program, const std::vector<std::string>& args,
    const std::string& log_path,
    const std::vector<std::pair<std::string, std::string>>& env) {
  const int log =
      open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) {
    const int err = errno;
    return absl::PermissionDeniedError(absl::StrCat(
        "cannot create the worker log ", log_path, ": ", strerror(err),
        "; run the campaign from a directory it may write (the logs go to "
        "the current directory, as libFuzzer's -jobs)"));
  }
  // Everything the child needs is built before fork: after it, only
  // async-signal-safe calls.
  std::vector<std::string> argv = {program};
  argv.insert(argv.end(), args.begin(), args.end());
  const ChildCommand command(std::move(argv), env);
  const std::string failed = absl::StrCat("ERROR: cannot run ", program, ": ");
  const pid_t parent = getpid();

  const pid_t pid = fork();
  if (pid < 0) {
    const int err = errno;
    close(log);
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot start a worker (fork: ", strerror(err),
                     "); free some memory or processes and rerun"));
  }
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(1);  // the campaign already died
    const int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, STDIN_FILENO);
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    // The campaign may have started with the signals ignored (`cmd &`);
    // the worker installs its own handlers anyway.
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    execve(command.argv()[0], command.argv(), command.envp());
    const int err = errno;
    WriteRaw(STDERR_FILENO, failed.c_str());
    WriteRaw(STDERR_FILENO, strerror(err));
    WriteRaw(STDERR_FILENO, "\n");
    _exit(127);
  }
  close(log);
  // Also from this side: a signal sent before the child's own setpgid ran
  // must not find it in the campaign's group.
  setpgid(pid, pid);
  WorkerProcess worker;
  worker.pid_ = pid;
  worker.log_path_ = log_path;
  return worker;
}

WorkerProcess::WorkerProcess(WorkerProcess&& other) noexcept
    : pid_(other.pid_),
      exit_code_(other.exit_code_),
      log_path_(std::move(other.log_path_)) {
  other.pid_ = -1;
}

WorkerProcess& WorkerProcess::operator=(WorkerProcess&& other) noexcept {
  if (this != &other) {
    KillAndReap();
    pid_ = other.pid_;
    exit_code_ = other.exit_code_;
    log_path_ = std::move(other.log_path_);
    other.pid_ = -1;
  }
  return *this;
}

WorkerProcess::~WorkerProcess() { KillAndReap(); }

void WorkerProcess::KillAndReap() {
  if (!running()) return;
  kill(pid_, SIGKILL);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  exit_code_ = ExitCodeOf(status);
}

void WorkerProcess::Signal(int signal_number) {
  if (running()) kill(pid_, signal_number);
}

std::optional<int> WorkerProcess::Poll() {
  if (!running()) return exit_code_;
  int status = 0;
  const pid_t done = waitpid(pid_, &status, WNOHANG);
  if (done == pid_) exit_code_ = ExitCodeOf(status);
  return exit_code_;
}

}  // namespace ringfuzz

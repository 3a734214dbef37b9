#include "fuzz/workers/worker_process.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

extern char** environ;

namespace ringfuzz {
namespace {

int ExitCodeOf(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

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

std::string SelfExecutable() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0) return "";
  return std::string(path, static_cast<size_t>(n));
}

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
  std::vector<std::string> argv_text = {program};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  argv.reserve(argv_text.size() + 1);
  for (std::string& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_text;
  for (char** e = environ; *e != nullptr; ++e) {
    bool replaced = false;
    for (const auto& [name, value] : env) {
      replaced |= strncmp(*e, name.c_str(), name.size()) == 0 &&
                  (*e)[name.size()] == '=';
    }
    if (!replaced) env_text.push_back(*e);
  }
  for (const auto& [name, value] : env) {
    env_text.push_back(absl::StrCat(name, "=", value));
  }
  std::vector<char*> envp;
  envp.reserve(env_text.size() + 1);
  for (std::string& entry : env_text) envp.push_back(entry.data());
  envp.push_back(nullptr);
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
    execve(argv[0], argv.data(), envp.data());
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

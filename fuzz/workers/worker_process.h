// A worker process of a multi-device campaign (fuzz/workers/multi_device.h): a
// child that runs a program with its output in a log file, and that cannot
// outlive the campaign.
#ifndef RINGFUZZ_FUZZ_WORKERS_WORKER_PROCESS_H_
#define RINGFUZZ_FUZZ_WORKERS_WORKER_PROCESS_H_

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace ringfuzz {

class WorkerProcess {
 public:
  // Starts `program` (a path) with `args` (without the program name) and
  // `env` added to this process's environment. Its stdout and stderr go to
  // `log_path` (created or truncated), its stdin is /dev/null. The child
  // runs in a process group of its own, so a terminal's Ctrl-C reaches the
  // campaign alone, which passes it on once (a second one would make the
  // worker exit at once); and it gets SIGTERM when the thread that started
  // it dies (PR_SET_PDEATHSIG), so no worker outlives a killed campaign.
  // Errors: the log cannot be created (the message names it and says how
  // to fix it), or fork fails. A program that cannot be executed exits 127
  // with the reason in its log.
  static absl::StatusOr<WorkerProcess> Start(
      const std::string& program, const std::vector<std::string>& args,
      const std::string& log_path,
      const std::vector<std::pair<std::string, std::string>>& env = {});

  WorkerProcess(WorkerProcess&& other) noexcept;
  WorkerProcess& operator=(WorkerProcess&& other) noexcept;
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;
  // A worker still running is killed (SIGKILL) and reaped: a campaign
  // that ends on an error leaves no process behind.
  ~WorkerProcess();

  pid_t pid() const { return pid_; }
  bool running() const { return pid_ > 0 && !exit_code_.has_value(); }
  // Sends `signal_number` to the worker while it runs.
  void Signal(int signal_number);
  // Reaps the worker if it ended: its exit code (128 + the signal number
  // for one killed by a signal, as a shell reports it), else nullopt. Never
  // blocks.
  std::optional<int> Poll();
  std::optional<int> exit_code() const { return exit_code_; }
  const std::string& log_path() const { return log_path_; }

 private:
  WorkerProcess() = default;
  void KillAndReap();

  pid_t pid_ = -1;
  std::optional<int> exit_code_;
  std::string log_path_;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_WORKERS_WORKER_PROCESS_H_

// What starting and reaping a child process needs on both of ringfuzz's
// paths to one (the triage's helper programs, fuzz/engine/subprocess.h; the
// -devices workers, fuzz/workers/worker_process.h): the argument and
// environment arrays, the exit code as a shell reports it, and the running
// program's own path (-devices workers and a fuzzer's .twin beside it).
#ifndef RINGFUZZ_FUZZ_ENGINE_CHILD_PROCESS_H_
#define RINGFUZZ_FUZZ_ENGINE_CHILD_PROCESS_H_

#include <string>
#include <utility>
#include <vector>

namespace ringfuzz {

// The null-terminated argv and envp arrays of one exec (execve,
// posix_spawn), built before fork so that the child allocates nothing.
// The environment is the parent's with `env` set on top (an entry of the
// same name is replaced). Move-only: the arrays point into the strings it
// owns, which a move keeps in place.
class ChildCommand {
 public:
  ChildCommand(std::vector<std::string> argv,
               const std::vector<std::pair<std::string, std::string>>& env);
  ChildCommand(ChildCommand&&) noexcept = default;
  ChildCommand& operator=(ChildCommand&&) noexcept = default;

  char* const* argv() const { return argv_.data(); }
  char* const* envp() const { return envp_.data(); }

 private:
  std::vector<std::string> argv_text_;
  std::vector<std::string> env_text_;
  std::vector<char*> argv_;
  std::vector<char*> envp_;
};

// Returns the path of the running program (/proc/self/exe), for starting
// this very binary again or finding files beside it; "" where it cannot be
// read.
std::string SelfExecutable();

// A waitpid status as a shell reports it: the exit status, 128 + the signal
// number for a killed process, 1 for anything else.
int ExitCodeOf(int wait_status);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_CHILD_PROCESS_H_

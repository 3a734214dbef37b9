// Running a helper program (the libFuzzer twin, its build script) and
// capturing what it prints, with a deadline.
#ifndef RINGFUZZ_FUZZ_ENGINE_SUBPROCESS_H_
#define RINGFUZZ_FUZZ_ENGINE_SUBPROCESS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace ringfuzz {

struct ProcessResult {
  // The exit status, or 128 + the signal number for a killed process (as a
  // shell reports it).
  int exit_code = 0;
  bool timed_out = false;  // killed (SIGKILL) at the deadline
  std::string output;      // stdout and stderr interleaved, at most 1 MiB
};

struct ProcessOptions {
  absl::Duration timeout = absl::Seconds(60);
  // Set in the child's environment, on top of the parent's.
  std::vector<std::pair<std::string, std::string>> env;
};

// Runs argv[0] (searched in PATH when it has no '/') with `argv`, waits for
// it to exit or for the timeout, and returns what it printed. An error only
// when it cannot be started (it names the program and the reason).
absl::StatusOr<ProcessResult> RunProcess(const std::vector<std::string>& argv,
                                         const ProcessOptions& options = {});

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_SUBPROCESS_H_

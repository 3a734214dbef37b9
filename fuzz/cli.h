// The whole ringfuzz command line behind one call, so that a main() only
// has to say how to create its executor:
//
//   int main(int argc, char** argv) {
//     std::vector<std::string> args(argv + 1, argv + argc);
//     return ringfuzz::RunCommandLine(args, MakeGpuExecutor, std::cerr);
//   }
#ifndef RINGFUZZ_FUZZ_CLI_H_
#define RINGFUZZ_FUZZ_CLI_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "fuzz/engine/config.h"
#include "fuzz/engine/executor.h"
#include "fuzz/engine/flag_parser.h"

namespace ringfuzz {

// Creates the executor for `config`. It may fill in the settings the user
// left automatic (0) that depend on the device it opened: batch_slots and
// slot_execs. config.max_len is already final (never 0) when it is called:
// the executor must run inputs of that many bytes.
using ExecutorFactory =
    std::function<absl::StatusOr<std::unique_ptr<Executor>>(Config& config)>;

// Runs a campaign over several devices or several targets (-devices, -target
// given more than once; fuzz/workers/multi_device.h): gets the whole command
// line and its parse; returns the exit code.
using MultiDeviceRunner =
    std::function<int(absl::Span<const std::string> args,
                      const ParsedCommandLine& parsed, std::ostream& out)>;

// Writes executor.Lines() to `path` as "<file>:<line> <0|1>" lines.
absl::Status WriteCoverageReport(const Executor& executor,
                                 const std::string& path);

// -auto_max_len grows the length limit only while one execution's loop
// budget (Executor::loop_steps) covers this many passes over an input.
inline constexpr uint64_t kLoopPassesPerInput = 8;

// Returns the automatic -max_len for inputs of at most `largest_input`
// bytes: max(64, largest_input rounded up to a multiple of 4), at most
// kMaxLenLimit (longer seeds are truncated, as with an explicit -max_len).
size_t AutomaticMaxLen(uint64_t largest_input);

// Parses `args` (without the program name), prints the parser's warnings
// (ignored and unknown flags) first, handles -help, resolves
// -max_len=0 from the positional inputs (the largest file given or inside
// the given directories), creates the executor and runs the Engine. Returns
// the process exit code: the Engine's (with -minimize_crash,
// -cleanse_crash, -merge or -set_cover_merge: the corpus tool's instead,
// fuzz/corpus_tools/crash_minimize.h, fuzz/corpus_tools/crash_cleanse.h,
// fuzz/corpus_tools/merge.h), 0 after -help, kErrorExit (1) for a bad command
// line or an executor that cannot be created (printed as "ERROR: ..." to
// `out`). With -devices or several -target flags the whole run is
// `run_multi`'s (where there is none, the program cannot start workers:
// -devices is an error and the last -target is the target).
int RunCommandLine(absl::Span<const std::string> args,
                   const ExecutorFactory& make_executor, std::ostream& out,
                   const MultiDeviceRunner& run_multi = nullptr);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_CLI_H_

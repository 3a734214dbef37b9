// ringfuzz: a GPU-resident fuzzer with a libFuzzer-compatible command line.
//
//   ringfuzz -target=FILE [flags] [CORPUS_DIR ... | FILE ...]
//   ringfuzz -devices=all|LIST -target=FILE [flags] CORPUS_DIR ...
//   ringfuzz -target=A.fz -target=B.fz [flags] CORPUS_A CORPUS_B
//   ringfuzz telemetry decode -control=FILE -ring=FILE [...]
//   ringfuzz triage -target=FILE [flags] DIR_OR_FILE...
//   ringfuzz ci -target=FILE -out=DIR [-corpus=DIR] [-known_crashes=DIR]
//
// `ringfuzz -help=1` lists the flags; docs/cli.md describes the commands.
#include <iostream>
#include <string>
#include <vector>

#include "fuzz/cli.h"
#include "fuzz/engine/heap_tuning.h"
#include "fuzz/triage/ci_command.h"
#include "fuzz/triage/triage_command.h"
#include "fuzz/workers/multi_device.h"
#include "telemetry/decode_command.h"
#include "tools/gpu_executor_factory.h"

int main(int argc, char** argv) {
  ringfuzz::KeepFreedMemoryForReuse();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() >= 2 && args[0] == "telemetry" && args[1] == "decode") {
    return ringfuzz::telemetry::RunTelemetryDecode(
        absl::MakeConstSpan(args).subspan(2), std::cout, std::cerr);
  }
  const ringfuzz::ExecutorFactory make_executor = [](ringfuzz::Config& config) {
    return ringfuzz::MakeGpuExecutor(config, std::cerr);
  };
  if (!args.empty() && args[0] == "triage") {
    return ringfuzz::RunTriageCommand(absl::MakeConstSpan(args).subspan(1),
                                      make_executor, std::cout, std::cerr);
  }
  if (!args.empty() && args[0] == "ci") {
    return ringfuzz::RunCiCommand(absl::MakeConstSpan(args).subspan(1),
                                  make_executor, std::cout, std::cerr);
  }
  // -devices: this program is the campaign's parent and, started again by
  // it, each of its workers.
  const ringfuzz::MultiDeviceRunner run_multi =
      [&make_executor](absl::Span<const std::string> all,
                       const ringfuzz::ParsedCommandLine& parsed,
                       std::ostream& out) {
        ringfuzz::MultiDeviceOptions options;
        options.run_in_process = [&](const std::vector<std::string>& one) {
          return ringfuzz::RunCommandLine(one, make_executor, out);
        };
        return ringfuzz::RunMultiDevice(all, parsed, options, out);
      };
  return ringfuzz::RunCommandLine(args, make_executor, std::cerr, run_multi);
}

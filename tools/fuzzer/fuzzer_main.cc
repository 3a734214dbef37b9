// The main() of a <name>_fuzzer binary (fuzzer.cmake): ringfuzz with one
// target built in, run like any libFuzzer binary by fuzzing
// infrastructure:
//
//   ./tlv_fuzzer -runs=100 corpus/     # fuzz
//   ./tlv_fuzzer crash-<sha1>          # replay (exit -error_exitcode)
//
// The target's source is embedded (embedded_target.h), so the binary can be
// copied to a bot: when the source file it was built from is gone, the
// embedded copy is written to a temporary directory and used instead. A
// NAME_fuzzer.twin beside the binary (the target's libFuzzer twin) is passed
// as -twin: a timeout then means -timeout seconds (docs/cli.md).
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "corpus/atomic_file.h"
#include "fuzz/cli.h"
#include "fuzz/engine/child_process.h"
#include "fuzz/engine/engine.h"
#include "fuzz/engine/heap_tuning.h"
#include "tools/fuzzer/embedded_target.h"
#include "tools/gpu_executor_factory.h"

// ClusterFuzz and ClusterFuzzLite recognise a fuzz target by this string in
// its binary (and by the _fuzzer name suffix).
extern "C" const char kRingfuzzLibFuzzerMarker[];
extern "C" [[gnu::used]] const char kRingfuzzLibFuzzerMarker[] =
    "LLVMFuzzerTestOneInput";

namespace {

// The target file to pass as -target: the original path when it still
// holds the embedded source, else a fresh copy of the source in $TMPDIR.
// Empty when no copy can be written (the error is printed).
std::string TargetFile() {
  const ringfuzz::EmbeddedTarget& target = ringfuzz::GetEmbeddedTarget();
  {
    std::ifstream in(target.path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    if (in.good() || in.eof()) {
      if (text == target.source) return target.path;
    }
  }
  std::string dir = ringfuzz::TempDirectory() + "/ringfuzz-XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) {
    std::cerr << "ERROR: cannot create a directory like " << dir
              << " for the embedded target: set TMPDIR to a writable "
                 "directory\n";
    return "";
  }
  std::string path = dir + "/" + target.name + ".fz";
  std::ofstream out(path, std::ios::binary);
  out << target.source;
  out.close();
  if (!out) {
    std::cerr << "ERROR: cannot write the embedded target to " << path
              << ": set TMPDIR to a writable directory\n";
    return "";
  }
  return path;
}

// The twin built beside this binary (fuzzer.cmake: NAME_fuzzer.twin), ""
// if there is none.
std::string SiblingTwin() {
  const std::string self = ringfuzz::SelfExecutable();
  if (self.empty()) return "";
  std::string twin = self + ".twin";
  return access(twin.c_str(), X_OK) == 0 ? twin : "";
}

}  // namespace

int main(int argc, char** argv) {
  ringfuzz::KeepFreedMemoryForReuse();
  const std::string target = TargetFile();
  if (target.empty()) return ringfuzz::kErrorExit;
  // -target and -twin first: the same flags on the command line come later
  // and win (-twin= turns the twin off).
  std::vector<std::string> args = {"-target=" + target};
  if (const std::string twin = SiblingTwin(); !twin.empty()) {
    args.push_back("-twin=" + twin);
  }
  args.insert(args.end(), argv + 1, argv + argc);
  return ringfuzz::RunCommandLine(
      args,
      [](ringfuzz::Config& config) {
        return ringfuzz::MakeGpuExecutor(config, std::cerr);
      },
      std::cerr);
}

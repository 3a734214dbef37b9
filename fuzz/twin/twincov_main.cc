// The coverage flavour of a target's C++ twin (twincov_<name>): a plain
// main() that runs every input file named on the command line (a directory
// stands for the files in it, sorted) through fz_target, for source line
// coverage with clang's -fprofile-instr-generate -fcoverage-mapping.
//
// Unlike the libFuzzer twin it never aborts: a bug report is printed (the
// first per execution, same line format as the twin) and the execution goes
// on, with fz_byte returning 0 past the end of the input, as an execution on
// the GPU does. So every input contributes its whole path to the profile,
// and the profile is written at exit (abort() would lose it).
//
// Loops have the twin's default loop budget (kDefaultLoopBudget): a timeout
// is reported and ends every loop of its execution, as on the GPU.
//
// Exit status: 0 if no input reported a bug, 1 if at least one did, 2 if an
// input could not be read.
#define RF_TWIN_RUNTIME  // this file's loops are not the target's
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include "fuzz/twin/twin_report.h"
#include "shaders/ringfuzz.h"

namespace {

// The execution in progress (single-threaded driver).
const std::vector<uint8_t>* current_input = nullptr;
bool reported = false;  // the first report of an execution wins

uint32_t CurrentLen() {
  return static_cast<uint32_t>(
      std::min<size_t>(current_input->size(), UINT32_MAX));
}

// Appends the inputs `arg` names: itself, or the regular files of a directory.
bool CollectInputs(const std::string& arg, std::vector<std::string>& paths) {
  std::error_code ec;
  if (std::filesystem::is_directory(arg, ec)) {
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(arg, ec)) {
      if (entry.is_regular_file()) found.push_back(entry.path().string());
    }
    if (ec) return false;
    std::sort(found.begin(), found.end());
    paths.insert(paths.end(), found.begin(), found.end());
    return true;
  }
  paths.push_back(arg);
  return true;
}

bool ReadFile(const std::string& path, std::vector<uint8_t>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in),
             std::istreambuf_iterator<char>());
  return !in.bad();
}

}  // namespace

__thread uint32_t rf_twin_loop_left = 0;

bool rf_twin_loop_exhausted(void) {
  if (!reported) {
    ringfuzz::twin::ReportTimeout(ringfuzz::twin::kDefaultLoopBudget);
  }
  reported = true;
  return false;  // rf_twin_loop_left stays 0: every loop ends
}

uint fz_byte(uint i) {
  const uint32_t len = CurrentLen();
  if (i >= len) {
    if (!reported) ringfuzz::twin::ReportOverread(i, len);
    reported = true;
    return 0;
  }
  return (*current_input)[i];
}

void fz_crash(uint code) {
  if (!reported) ringfuzz::twin::ReportCrash(code);
  reported = true;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr,
            "usage: %s INPUT_FILE_OR_DIR...\n"
            "Runs every input through the target once (for coverage); set "
            "LLVM_PROFILE_FILE to choose where the .profraw goes.\n",
            argv[0]);
    return 2;
  }
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    if (!CollectInputs(argv[i], paths)) {
      fprintf(
          stderr,
          "cannot list directory %s: check that it exists and is readable\n",
          argv[i]);
      return 2;
    }
  }
  bool any_bug = false;
  std::vector<uint8_t> input;
  for (const std::string& path : paths) {
    if (!ReadFile(path, input)) {
      fprintf(stderr,
              "cannot read input %s: check that it exists and is readable\n",
              path.c_str());
      return 2;
    }
    current_input = &input;
    reported = false;
    rf_twin_loop_left = ringfuzz::twin::kDefaultLoopBudget;
    fz_target(CurrentLen());
    current_input = nullptr;
    fprintf(stderr, "%s: %s\n", reported ? "BUG" : "ok", path.c_str());
    any_bug = any_bug || reported;
  }
  return any_bug ? 1 : 0;
}

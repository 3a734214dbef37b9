#include "tests/triage/clusterfuzz_patterns.h"

#include <regex>
#include <sstream>

namespace ringfuzz::testing {
namespace {

const std::regex& DeadlySignal() {
  static const std::regex re(R"(.*ERROR:\s*libFuzzer:\s*deadly signal.*)");
  return re;
}
const std::regex& LibFuzzerTimeout() {
  static const std::regex re(R"(.*ERROR:\s*libFuzzer:\s*timeout.*)");
  return re;
}
const std::regex& UbsanRuntimeError() {
  static const std::regex re(R"((.*): runtime error: (.*))");
  return re;
}
const std::regex& UbsanIndexOutOfBounds() {
  static const std::regex re(R"(.*out of bounds for type.*)");
  return re;
}
// A sanitizer frame: "#N ADDR in FUNC[ FILE:LINE[:COL]]" or, without a
// function, "#N ADDR (MODULE+OFFSET)".
const std::regex& Frame() {
  static const std::regex re(
      R"(\s*#(\d+)\s+([xX0-9a-fA-F]+)\s+(in\s*(.*)|\((.*)\).*))");
  return re;
}

// The entries of STACK_FRAME_IGNORE_REGEXES that the frames of a twin's
// crash meet, matched from the start of the frame's text (the function and
// what follows it, so that "^abort$" ignores only a bare "abort").
const std::regex& IgnoredFrame() {
  static const std::regex re(
      R"(((abort|exit|pthread_kill|raise|tgkill)$|)"
      R"(__sanitizer::|__sanitizer_|__asan::|__asan_|__ubsan::|__ubsan_|)"
      R"(__interceptor_|__libc_|__pthread_kill|_start|fuzzer::|main|)"
      R"(LLVMFuzzerTestOneInput).*)");
  return re;
}

// STACK_FRAME_IGNORE_REGEXES_IF_SYMBOLIZED: ClusterFuzz keeps the crash
// state of the symbolized log, where libc's frames are ignored.
const std::regex& IgnoredModule() {
  static const std::regex re(
      R"(.*libc\.so.*|.*libc\+\+\.so.*|.*libc-.*\.so.*)");
  return re;
}

// LLVMFuzzerTestOneInput with a source file: named by the file instead.
const std::regex& TestOneInputWithFile() {
  static const std::regex re(R"(LLVMFuzzerTestOneInput (\S+?):\d+.*)");
  return re;
}

int Rank(const std::string& type) { return type == "Timeout" ? 1 : 0; }

void SetType(Triage& t, const std::string& type) {
  if (Rank(type) >= Rank(t.crash_type)) t.crash_type = type;
}

// The state entry of a frame's text after "in ": the function name, up to
// '(' or a space.
std::string FrameFunction(const std::string& text) {
  return text.substr(0, text.find_first_of("( "));
}

}  // namespace

Triage ClassifyLikeClusterFuzz(const std::string& log,
                               const std::string& fuzz_target) {
  Triage t;
  std::istringstream lines(log);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (line.find("SUMMARY:") != std::string::npos) continue;
    if (std::regex_match(line, m, UbsanRuntimeError()) &&
        t.crash_type.empty()) {
      const std::string reason = m[2];
      t.crash_type = std::regex_match(reason, UbsanIndexOutOfBounds())
                         ? "Index-out-of-bounds"
                         : "UNKNOWN";
      t.state.clear();
    }
    if (std::regex_match(line, LibFuzzerTimeout())) {
      SetType(t, "Timeout");
      t.state.clear();
    }
    if (std::regex_match(line, DeadlySignal())) {
      SetType(t, "Fatal-signal");
      t.state.clear();
    }
    if (std::regex_match(line, m, Frame())) {
      std::string text = m[4].matched ? m[4].str() : m[5].str();
      std::smatch file;
      if (!m[4].matched) {
        if (std::regex_match(text, IgnoredModule())) continue;
      } else if (std::regex_match(text, file, TestOneInputWithFile())) {
        const std::string path = file[1];
        text = path.substr(path.rfind('/') + 1);
      } else if (text.size() < 3 || std::regex_match(text, IgnoredFrame())) {
        continue;
      }
      if (t.state.size() < 3) t.state.push_back(FrameFunction(text));
    }
  }
  if (!t.crash_type.empty() && t.state.empty()) {
    t.state = {fuzz_target.empty() ? "NULL" : fuzz_target};
  }
  if (!fuzz_target.empty() && t.crash_type == "Timeout") {
    t.state = {fuzz_target};
  }
  t.security = t.crash_type == "Index-out-of-bounds";
  return t;
}

bool IsCrashLikeClusterFuzz(int exit_code, const Triage& triage) {
  return exit_code != 0 && !triage.state.empty();
}

MergeStats ParseMergeStatsLikeClusterFuzz(const std::string& log) {
  // re.match anchors at the start of the line; the ".*" ends it.
  static const std::regex re(
      R"(MERGE-OUTER:\s+\d+\s+new files with\s+(\d+)\s+new features added;)"
      R"(\s+(\d+)\s+new coverage edges.*)");
  MergeStats stats;
  std::istringstream lines(log);
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (!std::regex_search(line, m, re,
                           std::regex_constants::match_continuous)) {
      continue;
    }
    // The last match wins (ClusterFuzz reads the log backwards).
    stats.matched = true;
    stats.feature_coverage = std::stoull(m[1].str());
    stats.edge_coverage = std::stoull(m[2].str());
  }
  return stats;
}

}  // namespace ringfuzz::testing

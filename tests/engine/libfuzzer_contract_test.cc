// ringfuzz against libFuzzer's command-line contract, as fuzzing
// infrastructure relies on it: every flag libFuzzer accepts is accepted
// (none exits 1), and the start-up lines match the patterns ClusterFuzz and
// OSS-Fuzz read. The flags and patterns below are restated from upstream
// (file and commit named at each); nothing is shared with the code under
// test, so a change on either side shows here.
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "corpus/atomic_file.h"
#include "fuzz/cli.h"
#include "fuzz/engine/flag_parser.h"
#include "fuzz/engine/info_lines.h"
#include "fuzz/engine/status_line.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"
#include "tests/engine/fake_executor.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::StartsWith;

// Every flag of llvm-project compiler-rt/lib/fuzzer/FuzzerFlags.def at
// commit 0ffea756ec5b2102889481edd3938d60c834d815 (FUZZER_FLAG_INT,
// _UNSIGNED, _STRING and FUZZER_DEPRECATED_FLAG), in its order.
const char* const kUpstreamFlags[] = {"verbosity",
                                      "seed",
                                      "runs",
                                      "max_len",
                                      "len_control",
                                      "seed_inputs",
                                      "keep_seed",
                                      "cross_over",
                                      "cross_over_uniform_dist",
                                      "mutate_depth",
                                      "reduce_depth",
                                      "shuffle",
                                      "prefer_small",
                                      "timeout",
                                      "error_exitcode",
                                      "timeout_exitcode",
                                      "max_total_time",
                                      "exit_on_time",
                                      "help",
                                      "fork",
                                      "fork_corpus_groups",
                                      "ignore_timeouts",
                                      "ignore_ooms",
                                      "ignore_crashes",
                                      "merge",
                                      "set_cover_merge",
                                      "stop_file",
                                      "merge_inner",
                                      "merge_control_file",
                                      "minimize_crash",
                                      "cleanse_crash",
                                      "minimize_crash_internal_step",
                                      "features_dir",
                                      "mutation_graph_file",
                                      "use_counters",
                                      "use_memmem",
                                      "use_value_profile",
                                      "use_cmp",
                                      "shrink",
                                      "reduce_inputs",
                                      "jobs",
                                      "workers",
                                      "reload",
                                      "report_slow_units",
                                      "only_ascii",
                                      "dict",
                                      "artifact_prefix",
                                      "exact_artifact_path",
                                      "print_pcs",
                                      "print_funcs",
                                      "print_final_stats",
                                      "print_corpus_stats",
                                      "print_coverage",
                                      "print_full_coverage",
                                      "dump_coverage",
                                      "handle_segv",
                                      "handle_bus",
                                      "handle_abrt",
                                      "handle_ill",
                                      "handle_fpe",
                                      "handle_int",
                                      "handle_term",
                                      "handle_trap",
                                      "handle_xfsz",
                                      "handle_usr1",
                                      "handle_usr2",
                                      "handle_winexcept",
                                      "close_fd_mask",
                                      "detect_leaks",
                                      "purge_allocator_interval",
                                      "trace_malloc",
                                      "rss_limit_mb",
                                      "malloc_limit_mb",
                                      "exit_on_src_pos",
                                      "exit_on_item",
                                      "ignore_remaining_args",
                                      "focus_function",
                                      "entropic",
                                      "entropic_feature_frequency_threshold",
                                      "entropic_number_of_rarest_features",
                                      "entropic_scale_per_exec_time",
                                      "analyze_dict",
                                      "use_clang_coverage",
                                      "data_flow_trace",
                                      "collect_data_flow",
                                      "create_missing_dirs"};

// Those of them that ringfuzz implements (docs/cli.md, "libFuzzer's
// flags"); the rest must be accepted and ignored with a warning.
const char* const kImplemented[] = {"verbosity",
                                    "seed",
                                    "runs",
                                    "max_len",
                                    "timeout",
                                    "error_exitcode",
                                    "timeout_exitcode",
                                    "max_total_time",
                                    "help",
                                    "use_value_profile",
                                    "reduce_inputs",
                                    "dict",
                                    "artifact_prefix",
                                    "exact_artifact_path",
                                    "print_final_stats",
                                    "ignore_remaining_args",
                                    "merge",
                                    "reload",
                                    "set_cover_merge",
                                    "merge_control_file",
                                    "minimize_crash",
                                    "cleanse_crash"};

bool IsImplemented(const std::string& name) {
  for (const char* implemented : kImplemented) {
    if (name == implemented) return true;
  }
  return false;
}

TEST(LibFuzzerContractTest, EveryUpstreamFlagIsImplementedOrIgnoredWithReason) {
  EXPECT_EQ(std::size(kUpstreamFlags), 86u);
  for (const std::string name : kUpstreamFlags) {
    auto parsed = ParseCommandLine({absl::StrCat("-", name, "=1")});
    ASSERT_TRUE(parsed.ok()) << name << ": " << parsed.status();
    if (IsImplemented(name)) {
      EXPECT_THAT(parsed->warnings, IsEmpty()) << name;
    } else {
      EXPECT_THAT(parsed->warnings,
                  ElementsAre(StartsWith(
                      absl::StrCat("WARNING: ringfuzz ignores -", name, ": "))))
          << name;
      // The reason is part of the line, not an empty tail.
      ASSERT_EQ(parsed->warnings.size(), 1u);
      EXPECT_GT(
          parsed->warnings[0].size(),
          absl::StrCat("WARNING: ringfuzz ignores -", name, ": ").size() + 10)
          << name;
    }
  }
}

ExecutorFactory FakeFactory() {
  return [](Config& config) -> absl::StatusOr<std::unique_ptr<Executor>> {
    FakeExecutorOptions options;
    options.max_len = static_cast<size_t>(config.max_len);
    return std::unique_ptr<Executor>(new FakeExecutor(options));
  };
}

// A whole run with each flag, as a bot passes it: none may exit 1. The
// crash tools need a crash file (libFuzzer too exits 1 without one); they
// are tested in corpus_tools_test.cc.
TEST(LibFuzzerContractTest, NoUpstreamFlagMakesARunExitOne) {
  TempDir dir;
  ASSERT_TRUE(
      WriteFileAtomically(dir.Sub("d.dict"), Bytes{'"', 'A', '"', '\n'}).ok());
  for (const std::string name : kUpstreamFlags) {
    if (name == "minimize_crash" || name == "cleanse_crash") continue;
    const std::string value = name == "dict" ? dir.Sub("d.dict") : "1";
    std::vector<std::string> args = {"-target=t", "-runs=20", "-seed=1",
                                     absl::StrCat("-", name, "=", value)};
    std::ostringstream out;
    const int code = RunCommandLine(args, FakeFactory(), out);
    EXPECT_EQ(code, 0) << name << "\n" << out.str();
  }
}

// OSS-Fuzz's run_fuzzer and bad-build check append arguments; libFuzzer
// ignores "--" (and anything starting with it) and parses the rest.
TEST(LibFuzzerContractTest, DoubleDashAndWhatFollowsAreHandledAsLibFuzzer) {
  std::vector<std::string> args = {
      "-target=t",          "-seed=1337",  "-runs=4",           "--",
      "-rss_limit_mb=2560", "-timeout=25", "--some_engine_flag"};
  std::ostringstream out;
  EXPECT_EQ(RunCommandLine(args, FakeFactory(), out), 0) << out.str();
  EXPECT_THAT(out.str(), testing::HasSubstr("Done 4 runs"));
  EXPECT_THAT(out.str(), StartsWith("INFO: ringfuzz ignores flags that start "
                                    "with '--'\nWARNING: ringfuzz ignores "
                                    "-rss_limit_mb: "));
}

// Python's re.match anchors at the start of the line only: std::regex_search
// with a leading "^" behaves the same.
bool PythonMatch(const std::string& pattern, const std::string& line,
                 std::smatch* match = nullptr) {
  std::smatch unused;
  return std::regex_search(line, match != nullptr ? *match : unused,
                           std::regex("^(?:" + pattern + ")"));
}

// google/clusterfuzz src/clusterfuzz/_internal/bot/fuzzers/libFuzzer/
// stats.py at commit 392bd61e7366621d2bd5f34d19b3b5647465f0c3,
// LIBFUZZER_LOG_MAX_LEN_REGEX (group 1: the max_len it records).
const char kClusterFuzzMaxLen[] =
    R"(.*-max_len is not provided; libFuzzer will not generate inputs larger)"
    R"( than (\d+) bytes.*)";
// Same file, LIBFUZZER_MODULES_LOADED_REGEX (group 2: edges_total; a match
// also clears startup_crash_count).
const char kClusterFuzzModules[] =
    R"(^INFO:\s+Loaded\s+\d+\s+(modules|PC tables)\s+\((\d+)\s+.*\).*)";
// Same file, LIBFUZZER_LOG_DICTIONARY_REGEX (a match sets dict_used).
const char kClusterFuzzDictionary[] = R"(Dictionary: \d+ entries)";
// Same file, LIBFUZZER_LOG_END_REGEX.
const char kClusterFuzzEnd[] = R"(Done\s+\d+\s+runs.*)";
// google/oss-fuzz infra/base-images/base-runner/bad_build_check at commit
// fbdbb8ca19e4e580397f18d1f6dd03b36b9c734f, the edge count it reads with
// grep -Po; its "\K" (keep what follows) is written as group 2 here.
const char kOssFuzzEdges[] =
    R"(INFO: Loaded [[:digit:]]+ module.*\(.*(counters|guards)\):[[:space:]]+)"
    R"(([[:digit:]]+))";

TEST(LibFuzzerContractTest, MaxLenLineMatchesClusterFuzz) {
  std::smatch match;
  const std::string line = MaxLenLine(4096);
  ASSERT_TRUE(PythonMatch(kClusterFuzzMaxLen, line, &match)) << line;
  EXPECT_EQ(match[1].str(), "4096");
}

TEST(LibFuzzerContractTest, LoadedModulesLineMatchesClusterFuzzAndOssFuzz) {
  const std::string line = LoadedModulesLine(1234);
  std::smatch match;
  ASSERT_TRUE(PythonMatch(kClusterFuzzModules, line, &match)) << line;
  EXPECT_EQ(match[1].str(), "modules");
  EXPECT_EQ(match[2].str(), "1234");
  ASSERT_TRUE(std::regex_search(line, match, std::regex(kOssFuzzEdges)))
      << line;
  EXPECT_EQ(match[2].str(), "1234");
  EXPECT_EQ(line,
            "INFO: Loaded 1 modules   (1234 inline 8-bit counters): 1234 "
            "[0x0, 0x4d2), ");
}

TEST(LibFuzzerContractTest, OnlyTheDictFileLineMatchesDictionaryUsed) {
  EXPECT_TRUE(PythonMatch(kClusterFuzzDictionary, DictionaryLine(3)));
  EXPECT_FALSE(PythonMatch(kClusterFuzzDictionary, AutomaticDictionaryLine(3)));
  EXPECT_FALSE(std::regex_search(AutomaticDictionaryLine(3),
                                 std::regex(kClusterFuzzDictionary)));
}

TEST(LibFuzzerContractTest, DoneLineMatchesClusterFuzzAndOssFuzz) {
  const std::string line = FormatDoneLine(4, 0);
  EXPECT_TRUE(PythonMatch(kClusterFuzzEnd, line)) << line;
  // bad_build_check's check_startup_crash greps "Done 4 runs" after -runs=4.
  EXPECT_THAT(line, StartsWith("Done 4 runs"));
}

}  // namespace
}  // namespace ringfuzz

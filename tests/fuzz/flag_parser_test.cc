#include "fuzz/flag_parser.h"

#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

absl::StatusOr<ParsedCommandLine> Parse(std::vector<std::string> args) {
  return ParseCommandLine(args);
}

std::string Error(std::vector<std::string> args) {
  auto parsed = Parse(std::move(args));
  EXPECT_FALSE(parsed.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(parsed.status()));
  return std::string(parsed.status().message());
}

TEST(FlagParserTest, DefaultsComeFromTheTable) {
  auto parsed = Parse({});
  ASSERT_TRUE(parsed.ok());
  const Config& c = parsed->config;
  EXPECT_EQ(c.runs, -1);
  EXPECT_EQ(c.max_len, 0);
  EXPECT_EQ(c.error_exitcode, 77);
  EXPECT_EQ(c.timeout_exitcode, 70);
  EXPECT_EQ(c.verbosity, 1);
  EXPECT_EQ(c.seed, 0u);
  EXPECT_FALSE(c.print_final_stats);
  EXPECT_EQ(c.target, "");
  EXPECT_TRUE(parsed->positional.empty());
}

TEST(FlagParserTest, ParsesFlagsAndPositionalsInOrder) {
  auto parsed = Parse({"-runs=100", "corpus", "-target=t.fz", "seeds",
                       "-seed=18446744073709551615", "-print_final_stats=1",
                       "-dict=a=b.dict", "-artifact_prefix=", "-runs=5", "-"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const Config& c = parsed->config;
  EXPECT_EQ(c.runs, 5);  // the last one wins
  EXPECT_EQ(c.target, "t.fz");
  EXPECT_EQ(c.seed, 18446744073709551615u);
  EXPECT_TRUE(c.print_final_stats);
  EXPECT_EQ(c.dict, "a=b.dict");  // split at the first '='
  EXPECT_EQ(c.artifact_prefix, "");
  EXPECT_THAT(parsed->positional, ElementsAre("corpus", "seeds", "-"));
}

TEST(FlagParserTest, BareBoolFlagMeansOne) {
  auto parsed = Parse({"-help"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->config.help);
  EXPECT_EQ(Error({"-runs"}),
            "flag -runs needs a value: write -runs=<an integer in "
            "[-1, 9223372036854775807]>");
}

TEST(FlagParserTest, DoubleDashIsAnErrorWithTheFix) {
  EXPECT_EQ(Error({"--runs=5"}),
            "'--runs=5': flags take one dash, as in libFuzzer: write "
            "-runs=<value>");
  EXPECT_THAT(Error({"--help"}), HasSubstr("write -help=<value>"));
}

TEST(FlagParserTest, UnknownFlagSuggestsTheClosestName) {
  EXPECT_EQ(Error({"-max_lne=4"}),
            "unknown flag -max_lne; run 'ringfuzz -help=1' for the list "
            "(did you mean -max_len?)");
  EXPECT_EQ(Error({"-rusn=4"}),
            "unknown flag -rusn; run 'ringfuzz -help=1' for the list "
            "(did you mean -runs?)");
  EXPECT_EQ(Error({"-completely_unrelated=1"}),
            "unknown flag -completely_unrelated; run 'ringfuzz -help=1' for "
            "the list");
}

TEST(FlagParserTest, BadValuesNameTheFlagTheRangeAndTheFix) {
  EXPECT_EQ(Error({"-runs=abc"}),
            "bad value 'abc' for -runs: expected an integer in "
            "[-1, 9223372036854775807]; fix: pass such a value, e.g. the "
            "default -runs=-1");
  EXPECT_EQ(Error({"-max_len=-4"}),
            "bad value '-4' for -max_len: expected an integer in "
            "[0, 131072]; fix: pass such a value, e.g. the default "
            "-max_len=0");
  EXPECT_EQ(Error({"-error_exitcode=300"}),
            "bad value '300' for -error_exitcode: expected an integer in "
            "[0, 255]; fix: pass such a value, e.g. the default "
            "-error_exitcode=77");
  EXPECT_EQ(Error({"-seed=-1"}),
            "bad value '-1' for -seed: expected an integer in "
            "[0, 18446744073709551615]; fix: pass such a value, e.g. the "
            "default -seed=0");
  EXPECT_EQ(Error({"-print_final_stats=yes"}),
            "bad value 'yes' for -print_final_stats: expected 0 or 1; fix: "
            "pass such a value, e.g. the default -print_final_stats=0");
  EXPECT_THAT(Error({"-runs="}),
              HasSubstr("bad value '' for -runs: expected an integer in "
                        "[-1, 9223372036854775807]"));
  EXPECT_THAT(Error({"-runs=99999999999999999999"}),
              HasSubstr("bad value '99999999999999999999' for -runs: "
                        "expected an integer in [-1, 9223372036854775807]"));
  EXPECT_THAT(Error({"-seed=18446744073709551616"}),
              HasSubstr("expected an integer in [0, 18446744073709551615]"));
}

// -max_len is held in 32 bits on the GPU path: values that do not fit (or
// that no device can hold) must be refused, never wrapped to a small length.
TEST(FlagParserTest, MaxLenBeyondTheGpuPathIsRefusedNotWrapped) {
  for (const char* value :
       {"4294967296", "4294967295", "4000000000", "131073", "1048576"}) {
    const std::string error = Error({std::string("-max_len=") + value});
    EXPECT_THAT(error, HasSubstr(std::string("bad value '") + value +
                                 "' for -max_len"));
    EXPECT_THAT(error, HasSubstr("[0, 131072]"));
    EXPECT_THAT(error, HasSubstr("fix:"));
  }
  auto parsed = Parse({"-max_len=131072"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->config.max_len, kMaxLenLimit);
}

// -timeout is multiplied into a loop budget: a value whose product does not
// fit must be refused (libFuzzer's -timeout is an int).
TEST(FlagParserTest, TimeoutIsBoundedByLibFuzzersInt) {
  EXPECT_THAT(Error({"-timeout=9223372036854775807"}),
              HasSubstr("for -timeout: expected an integer in "
                        "[0, 2147483647]"));
  EXPECT_THAT(Error({"-timeout=2147483648"}), HasSubstr("[0, 2147483647]"));
  auto parsed = Parse({"-timeout=2147483647"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->config.timeout, 2147483647);
}

TEST(FlagParserTest, HelpListsEveryFlagWithItsDefault) {
  std::string help = FlagHelp();
  EXPECT_THAT(help, HasSubstr("Usage:"));
  EXPECT_THAT(help, HasSubstr(" -runs                -1      Number of "));
  EXPECT_THAT(help, HasSubstr(" -error_exitcode      77 "));
  EXPECT_THAT(help, HasSubstr(" -help                0 "));
  EXPECT_THAT(help, HasSubstr(" -target              \"\" "));
  for (const char* name : {"target",
                           "max_len",
                           "max_total_time",
                           "seed",
                           "dict",
                           "artifact_prefix",
                           "exact_artifact_path",
                           "print_final_stats",
                           "timeout_exitcode",
                           "timeout",
                           "device",
                           "jobs",
                           "workers",
                           "verbosity",
                           "report_interval",
                           "validation",
                           "telemetry_out",
                           "dump_buffers",
                           "close_fd_mask",
                           "batch_slots",
                           "slot_execs"}) {
    EXPECT_THAT(help, HasSubstr(std::string(" -") + name + " ")) << name;
  }
  for (absl::string_view line : absl::StrSplit(help, '\n')) {
    EXPECT_LE(line.size(), 80u) << line;
  }
}

TEST(FlagParserTest, EditDistance) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("runs", "runs"), 0u);
  EXPECT_EQ(EditDistance("runs", "rusn"), 2u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
}

}  // namespace
}  // namespace ringfuzz

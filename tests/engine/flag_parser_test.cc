#include "fuzz/engine/flag_parser.h"

#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

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

TEST(FlagParserTest, EveryTargetIsKeptInOrderAndTheLastIsTheConfigs) {
  auto parsed = Parse({"-target=a.fz", "dir_a", "-target=b/b.fz", "dir_b",
                       "-ignore_remaining_args=1", "-target=c.fz"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_THAT(parsed->targets, ElementsAre("a.fz", "b/b.fz"));
  EXPECT_EQ(parsed->config.target, "b/b.fz");
  EXPECT_THAT(parsed->positional, ElementsAre("dir_a", "dir_b"));
  EXPECT_THAT(Parse({"-runs=1"})->targets, IsEmpty());
}

TEST(FlagParserTest, BareBoolFlagMeansOne) {
  auto parsed = Parse({"-help"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->config.help);
  EXPECT_THAT(parsed->warnings, IsEmpty());
}

// libFuzzer does not know "-runs" without "=": it warns and goes on.
TEST(FlagParserTest, BareValueFlagIsIgnoredWithAWarning) {
  auto parsed = Parse({"-runs", "-runs=3"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->config.runs, 3);
  EXPECT_THAT(parsed->warnings,
              ElementsAre("WARNING: flag -runs needs a value (write "
                          "-runs=<an integer in [-1, 9223372036854775807]>); "
                          "ignored"));
}

TEST(FlagParserTest, DoubleDashArgumentsAreIgnoredAndTheRestParsed) {
  auto parsed = Parse(
      {"--runs=5", "--", "-runs=7", "corpus", "--help", "--not_a_flag=1"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->config.runs, 7);
  EXPECT_FALSE(parsed->config.help);
  EXPECT_THAT(parsed->positional, ElementsAre("corpus"));
  EXPECT_THAT(parsed->warnings,
              ElementsAre("INFO: ringfuzz ignores flags that start with '--'",
                          "WARNING: did you mean '-runs=5' (single dash)?",
                          "WARNING: did you mean '-help' (single dash)?"));
}

TEST(FlagParserTest, UnknownFlagWarnsAndSuggestsTheClosestName) {
  auto parsed = Parse({"-max_lne=4", "-rusn=4", "-completely_unrelated=1",
                       "-rss_limt_mb=1", "corpus"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->config.max_len, 0);
  EXPECT_THAT(parsed->positional, ElementsAre("corpus"));
  EXPECT_THAT(
      parsed->warnings,
      ElementsAre("WARNING: unrecognized flag '-max_lne=4'; use -help=1 to "
                  "list all flags (did you mean -max_len?)",
                  "WARNING: unrecognized flag '-rusn=4'; use -help=1 to list "
                  "all flags (did you mean -runs?)",
                  "WARNING: unrecognized flag '-completely_unrelated=1'; use "
                  "-help=1 to list all flags",
                  "WARNING: unrecognized flag '-rss_limt_mb=1'; use -help=1 "
                  "to list all flags (did you mean -rss_limit_mb?)"));
}

TEST(FlagParserTest, IgnoredLibFuzzerFlagsWarnOnceWithTheReason) {
  auto parsed = Parse({"-rss_limit_mb=2560", "-len_control=0",
                       "-rss_limit_mb=notanumber", "-runs=2"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->config.runs, 2);
  EXPECT_THAT(parsed->warnings,
              ElementsAre("WARNING: ringfuzz ignores -rss_limit_mb: the "
                          "target runs on the device and allocates no host "
                          "memory",
                          "WARNING: ringfuzz ignores -len_control: mutants "
                          "may reach -max_len at once; without -max_len, "
                          "ringfuzz raises the limit itself when coverage "
                          "stalls (-auto_max_len)"));
}

TEST(FlagParserTest, IgnoreRemainingArgsDropsEverythingAfterIt) {
  auto parsed = Parse({"-runs=2", "corpus", "-ignore_remaining_args=1",
                       "-runs=9", "other", "-bogus"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->config.runs, 2);
  EXPECT_THAT(parsed->positional, ElementsAre("corpus"));
  EXPECT_THAT(parsed->warnings, IsEmpty());
  auto off = Parse({"-ignore_remaining_args=0", "-runs=9", "other"});
  ASSERT_TRUE(off.ok());
  EXPECT_EQ(off->config.runs, 9);
  EXPECT_THAT(off->positional, ElementsAre("other"));
}

TEST(FlagParserTest, BadValuesNameTheFlagTheRangeAndTheFix) {
  EXPECT_EQ(Error({"-runs=abc"}),
            "bad value 'abc' for -runs: expected an integer in "
            "[-1, 9223372036854775807]; fix: pass such a value, e.g. the "
            "default -runs=-1");
  EXPECT_EQ(Error({"-batch_slots=-4"}),
            "bad value '-4' for -batch_slots: expected an integer in "
            "[0, 1048576]; fix: pass such a value, e.g. the default "
            "-batch_slots=0");
  EXPECT_EQ(Error({"-timeout_exitcode=-1"}),
            "bad value '-1' for -timeout_exitcode: expected an integer in "
            "[0, 255]; fix: pass such a value, e.g. the default "
            "-timeout_exitcode=70");
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

// -max_len is held in 32 bits on the GPU path: libFuzzer takes any int, so
// a longer one is clamped to the largest the GPU path holds (with a
// warning), never wrapped to a small length.
TEST(FlagParserTest, MaxLenBeyondTheGpuPathIsClampedNotWrapped) {
  for (const char* value :
       {"4294967296", "4294967295", "4000000000", "131073", "1048576"}) {
    auto parsed = Parse({std::string("-max_len=") + value});
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(parsed->config.max_len, kMaxLenLimit);
    EXPECT_THAT(parsed->warnings,
                ElementsAre(std::string("WARNING: -max_len=") + value +
                            " is outside ringfuzz's range [0, 131072]; "
                            "using 131072"));
  }
  auto parsed = Parse({"-max_len=131072"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->config.max_len, kMaxLenLimit);
  EXPECT_THAT(parsed->warnings, IsEmpty());
  // Numbers that do not fit in 64 bits are not numbers ringfuzz can clamp.
  EXPECT_THAT(Error({"-max_len=99999999999999999999"}),
              HasSubstr("bad value '99999999999999999999' for -max_len"));
}

// libFuzzer's bool-like flags are ints: any integer, nonzero is true.
TEST(FlagParserTest, LibFuzzerValuesOutsideTheRangeAreClamped) {
  auto parsed = Parse({"-runs=-5", "-max_total_time=-1", "-verbosity=9",
                       "-print_final_stats=2", "-use_value_profile=-1"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->config.runs, -1);
  EXPECT_EQ(parsed->config.max_total_time, 0);
  EXPECT_EQ(parsed->config.verbosity, 3);
  EXPECT_TRUE(parsed->config.print_final_stats);
  EXPECT_TRUE(parsed->config.use_value_profile);
  EXPECT_EQ(parsed->warnings.size(), 3u);
}

// -timeout is multiplied into a loop budget: a value whose product does not
// fit is clamped to libFuzzer's int.
TEST(FlagParserTest, TimeoutIsBoundedByLibFuzzersInt) {
  for (const char* value : {"9223372036854775807", "2147483648"}) {
    auto parsed = Parse({std::string("-timeout=") + value});
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(parsed->config.timeout, 2147483647);
    EXPECT_THAT(parsed->warnings,
                ElementsAre(HasSubstr("range [0, 2147483647]; using "
                                      "2147483647")));
  }
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
                           "ignore_remaining_args",
                           "verbosity",
                           "report_interval",
                           "validation",
                           "telemetry_out",
                           "dump_buffers",
                           "report",
                           "batch_slots",
                           "slot_execs"}) {
    EXPECT_THAT(help, HasSubstr(std::string(" -") + name + " ")) << name;
  }
  EXPECT_THAT(help, HasSubstr("libFuzzer's other flags are accepted and "
                              "ignored"));
  EXPECT_THAT(help, HasSubstr("-rss_limit_mb"));
  EXPECT_THAT(help, HasSubstr("-close_fd_mask"));
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

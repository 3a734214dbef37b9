#include "fuzz/report/report_writer.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fuzz/engine/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"
#include "tests/engine/fake_clock.h"
#include "tests/engine/fake_executor.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

size_t LineCount(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

CampaignReport Header() {
  CampaignReport header;
  header.target = "t.fz";
  header.device = "fake";
  return header;
}

TEST(ReportWriterTest, WritesBothFilesIntoANewDirectoryWithoutLeftovers) {
  TempDir tmp;
  const std::string dir = tmp.Sub("report");
  std::ostringstream log;
  ReportWriter writer(dir, Header(), log);
  for (int i = 0; i < 5; ++i) {
    writer.Sample(absl::Seconds(i), {uint64_t(100 * i), 3, 4, 1});
  }
  writer.Write(absl::Seconds(5), {{"flip_bit", 10, 1}}, true, "exit 0");
  EXPECT_EQ(log.str(), "");
  const std::string csv = Slurp(dir + "/plot_data.csv");
  EXPECT_EQ(LineCount(csv), 6u);
  // exec/s is that of each interval: 100 executions a second.
  EXPECT_THAT(csv, HasSubstr(",400,100,3,4,1,0\n"));
  const std::string html = Slurp(dir + "/index.html");
  EXPECT_THAT(html, HasSubstr("finished, exit 0"));
  EXPECT_THAT(html, HasSubstr("<code>flip_bit</code>"));
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename();
    EXPECT_TRUE(name == "index.html" || name == "plot_data.csv") << name;
  }
}

TEST(ReportWriterTest, RewritesOnlyEveryFewSeconds) {
  TempDir tmp;
  std::ostringstream log;
  ReportWriter writer(tmp.Sub("r"), Header(), log);
  EXPECT_TRUE(writer.SampleDue(absl::ZeroDuration()));
  writer.Sample(absl::ZeroDuration(), {1, 1, 1, 1});
  EXPECT_FALSE(writer.SampleDue(absl::Milliseconds(999)));
  EXPECT_TRUE(writer.SampleDue(absl::Seconds(1)));
  writer.MaybeWrite(absl::ZeroDuration(), {});
  const std::string path = tmp.Sub("r/plot_data.csv");
  EXPECT_EQ(LineCount(Slurp(path)), 2u);
  writer.Sample(absl::Seconds(1), {2, 1, 1, 1});
  writer.MaybeWrite(absl::Seconds(1), {});
  EXPECT_EQ(LineCount(Slurp(path)), 2u);  // not due yet
  writer.MaybeWrite(kReportWriteInterval, {});
  EXPECT_EQ(LineCount(Slurp(path)), 3u);
}

TEST(ReportWriterTest, AnUnwritableDirectoryWarnsOnceNamingIt) {
  TempDir tmp;
  const std::string file = tmp.Sub("file");
  std::ofstream(file) << "x";
  std::ostringstream log;
  ReportWriter writer(file + "/report", Header(), log);
  for (int i = 0; i < 3; ++i) {
    writer.Sample(absl::Seconds(i), {1, 1, 1, 1});
    writer.Write(absl::Seconds(i), {});
  }
  EXPECT_EQ(Count(log.str(), "WARNING: "), 1u) << log.str();
  EXPECT_THAT(log.str(), HasSubstr("-report=" + file + "/report"));
  EXPECT_THAT(log.str(), HasSubstr("fuzzing goes on"));
}

TEST(ReportWriterTest, CountsBugsPerSignature) {
  TempDir tmp;
  std::ostringstream log;
  ReportWriter writer(tmp.Sub("r"), Header(), log);
  Find crash;
  crash.kind = Find::Kind::kCrash;
  crash.code = 7;
  crash.function = "parse";
  crash.file = "t.fz";
  crash.line = 42;
  Find other = crash;
  other.code = 8;
  writer.RecordBug(crash, "crash-a", absl::Seconds(3));
  writer.RecordBug(crash, "", absl::Seconds(4));
  writer.RecordBug(other, "crash-b", absl::Seconds(5));
  writer.Sample(absl::Seconds(6), {1, 1, 1, 1});
  writer.Write(absl::Seconds(6), {});
  const CampaignReport& report = writer.report();
  ASSERT_EQ(report.bugs.size(), 2u);
  EXPECT_EQ(report.bugs[0].kind, "fz_crash(code=7)");
  EXPECT_EQ(report.bugs[0].location, "parse t.fz:42");
  EXPECT_EQ(report.bugs[0].count, 2u);
  EXPECT_EQ(report.bugs[0].first_seen_elapsed_s, 3);
  EXPECT_EQ(report.bugs[0].artifacts, std::vector<std::string>{"crash-a"});
  EXPECT_EQ(report.bugs[1].count, 1u);
  EXPECT_EQ(report.samples.back().bugs, 2u);
}

Config EngineConfig(const std::string& report) {
  Config config;
  config.seed = 1;
  config.batch_slots = 16;
  config.slot_execs = 64;
  config.runs = 2000000;
  config.target = "t<1>.fz";
  config.report = report;
  return config;
}

TEST(ReportWriterTest, EngineWritesTheFinalReportOfACampaign) {
  TempDir tmp;
  Config config = EngineConfig(tmp.Sub("report"));
  config.artifact_prefix = tmp.path() + "/";
  FakeExecutorOptions options;
  options.name_mutators = true;
  FakeExecutor executor(options);
  FakeClock clock(absl::Milliseconds(50));  // every reading moves on
  std::ostringstream out;
  Engine engine(config, executor, out, clock);
  ASSERT_EQ(engine.Run({}), 77);
  EXPECT_THAT(out.str(), Not(HasSubstr("-report")));
  const std::string html = Slurp(tmp.Sub("report/index.html"));
  EXPECT_THAT(html, HasSubstr("t&lt;1&gt;.fz"));
  EXPECT_THAT(html, HasSubstr("-report=" + tmp.Sub("report")));
  EXPECT_THAT(html, HasSubstr("finished, exit 77 (bug found)"));
  EXPECT_THAT(html, HasSubstr("fz_crash(code=7)"));
  EXPECT_THAT(html, HasSubstr(tmp.path() + "/crash-"));
  EXPECT_THAT(html, HasSubstr("<code>random_byte</code>"));
  const std::string csv = Slurp(tmp.Sub("report/plot_data.csv"));
  EXPECT_GE(LineCount(csv), 3u);  // header, INITED, the end
  EXPECT_THAT(csv.substr(csv.rfind('\n', csv.size() - 2)),
              testing::EndsWith(",1\n"));  // one bug at the end
}

TEST(ReportWriterTest, EngineGoesOnWhenTheReportCannotBeWritten) {
  TempDir tmp;
  const std::string file = tmp.Sub("file");
  std::ofstream(file) << "x";
  Config config = EngineConfig(file + "/report");
  config.runs = 20000;
  FakeExecutorOptions options;
  options.magic = "\xff\xfe\xfd\xfc";  // no bug within the runs
  FakeExecutor executor(options);
  FakeClock clock(absl::Milliseconds(50));
  std::ostringstream out;
  Engine engine(config, executor, out, clock);
  EXPECT_EQ(engine.Run({}), 0);
  EXPECT_EQ(engine.total_executions(), 20000u);
  EXPECT_EQ(Count(out.str(), "WARNING: -report="), 1u) << out.str();
}

}  // namespace
}  // namespace ringfuzz

#include "fuzz/report/html_report.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "fuzz/report/svg_chart.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kHostile[] = "<script>alert(1)</script>&\"'><img src=x>";

CampaignReport HostileReport() {
  CampaignReport r;
  r.target = std::string("t/") + kHostile + ".fz";
  r.device = kHostile;
  r.flags = {"-runs=10", std::string("-dict=") + kHostile};
  r.corpus_dirs = {kHostile};
  r.started_unix = 1714557600;
  r.updated_unix = 1714557660;
  for (int i = 0; i < 30; ++i) {
    PlotSample s;
    s.unix_time = r.started_unix + i;
    s.elapsed_s = i * 2.0;
    s.execs = 1000 * i;
    s.exec_per_sec = 500;
    s.cov = 10 + i;
    s.ft = 20 + 2 * i;
    s.corpus_size = 1 + i / 3;
    r.samples.push_back(s);
  }
  r.mutators = {{"flip_bit", 1000, 3}, {std::string("x") + kHostile, 0, 0}};
  BugBucket bug;
  bug.kind = "fz_crash(code=7)";
  bug.location = std::string("parse ") + kHostile + ":42";
  bug.count = 3;
  bug.first_seen_unix = 1714557630;
  bug.first_seen_elapsed_s = 30;
  bug.artifacts = {std::string("out/crash-") + kHostile};
  BugBucket timeout;
  timeout.kind = "timeout";
  timeout.count = 1;
  r.bugs = {bug, timeout};
  r.plot_data_file = "plot_data.csv";
  return r;
}

// Checks that the tags of `html` nest (void elements and self-closed SVG
// elements aside) with a tokenizer of its own; returns the first problem,
// "" when they do.
std::string CheckNesting(const std::string& html) {
  static const std::set<std::string> kVoid = {"meta", "br",    "img",
                                              "link", "input", "hr"};
  std::regex tag("<(/?)([a-zA-Z][a-zA-Z0-9]*)([^<>]*)>");
  std::vector<std::string> open;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), tag);
       it != std::sregex_iterator(); ++it) {
    std::string name = (*it)[2];
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    const std::string attrs = (*it)[3];
    if ((*it)[1].length() == 0) {
      if (kVoid.count(name) || (!attrs.empty() && attrs.back() == '/')) {
        continue;
      }
      open.push_back(name);
    } else {
      if (open.empty() || open.back() != name) {
        return "</" + name + "> closes " +
               (open.empty() ? "nothing" : open.back());
      }
      open.pop_back();
    }
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

TEST(HtmlReportTest, EscapesEveryStringFromOutside) {
  const std::string html = RenderHtmlReport(HostileReport());
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("<img")));
  EXPECT_THAT(html, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;&amp;"
                              "&quot;&#39;&gt;&lt;img src=x&gt;"));
  EXPECT_EQ(CheckNesting(html), "");
}

TEST(HtmlReportTest, IsSelfContained) {
  const std::string html = RenderHtmlReport(HostileReport());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr(" src=\"")));
  EXPECT_THAT(html, Not(HasSubstr("@import")));
  EXPECT_THAT(html, Not(HasSubstr("url(")));
  // The only URL is the SVG namespace, which is never fetched.
  std::string rest = html;
  for (const std::string ns : {"http://www.w3.org/2000/svg"}) {
    for (size_t at; (at = rest.find(ns)) != std::string::npos;) {
      rest.erase(at, ns.size());
    }
  }
  EXPECT_THAT(rest, Not(HasSubstr("://")));
}

TEST(HtmlReportTest, HasTheChartsTablesAndHeader) {
  const CampaignReport report = HostileReport();
  const std::string html = RenderHtmlReport(report);
  EXPECT_EQ(Count(html, "<svg class=\"chart\""), 4u);
  EXPECT_EQ(Count(html, "<polyline class=\"series\""), 4u);
  for (const char* id : {"<header id=\"campaign\">", "<section id=\"summary\">",
                         "<section id=\"charts\">", "<table id=\"mutators\">",
                         "<table id=\"bugs\">"}) {
    EXPECT_THAT(html, HasSubstr(id));
  }
  const size_t bugs = html.find("<table id=\"bugs\">");
  const std::string bug_table =
      html.substr(bugs, html.find("</table>", bugs) - bugs);
  EXPECT_EQ(Count(bug_table, "<tr>"), 1 + report.bugs.size());
  EXPECT_THAT(bug_table, HasSubstr("fz_crash(code=7)"));
  EXPECT_THAT(bug_table, HasSubstr(">3<"));
  EXPECT_THAT(bug_table, HasSubstr("2024-05-01 10:00:30 UTC (after 30s)"));
  const size_t mutators = html.find("<table id=\"mutators\">");
  EXPECT_EQ(
      Count(html.substr(mutators, html.find("</table>", mutators) - mutators),
            "<tr>"),
      1 + report.mutators.size());
  EXPECT_THAT(html, HasSubstr("3000.0"));  // flip_bit's finds per 1M execs
  EXPECT_THAT(html, HasSubstr("<a href=\"plot_data.csv\">"));
}

TEST(HtmlReportTest, RunningPageReloadsItselfAndFinishedPageSaysHowItEnded) {
  CampaignReport report = HostileReport();
  EXPECT_THAT(RenderHtmlReport(report),
              HasSubstr("<meta http-equiv=\"refresh\" content=\"5\">"));
  report.finished = true;
  report.outcome = "exit 77 (bug found)";
  const std::string html = RenderHtmlReport(report);
  EXPECT_THAT(html, Not(HasSubstr("http-equiv")));
  EXPECT_THAT(html, HasSubstr("finished, exit 77 (bug found)"));
}

TEST(HtmlReportTest, EmptyCampaignStillRenders) {
  CampaignReport report;
  report.target = "t.fz";
  const std::string html = RenderHtmlReport(report);
  EXPECT_EQ(CheckNesting(html), "");
  EXPECT_EQ(Count(html, "no samples yet"), 4u);
  EXPECT_THAT(html, HasSubstr("does not count executions per mutator"));
  EXPECT_THAT(html, HasSubstr("No bug found."));
}

TEST(SvgChartTest, PointsStayInsideTheChart) {
  LineChart chart;
  chart.title = "t";
  chart.color = "#000";
  chart.points = {{0, 0}, {10, 7}, {20, 1234}, {30, 999}};
  const std::string svg = RenderLineChart(chart);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, std::regex("points=\"([^\"]*)\"")));
  std::string points = m[1];
  std::regex pair("([0-9.]+),([0-9.]+)");
  int n = 0;
  for (auto it = std::sregex_iterator(points.begin(), points.end(), pair);
       it != std::sregex_iterator(); ++it, ++n) {
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
    EXPECT_GE(x, 0);
    EXPECT_LE(x, chart.width);
    EXPECT_GE(y, 0);
    EXPECT_LE(y, chart.height);
  }
  EXPECT_EQ(n, 4);
  EXPECT_THAT(svg, HasSubstr(">2k<"));  // the y axis tops at a round 2000
}

TEST(SvgChartTest, CompactLabels) {
  EXPECT_EQ(CompactNumber(0), "0");
  EXPECT_EQ(CompactNumber(950), "950");
  EXPECT_EQ(CompactNumber(1500), "1.5k");
  EXPECT_EQ(CompactNumber(12000000), "12M");
  EXPECT_EQ(CompactDuration(45), "45s");
  EXPECT_EQ(CompactDuration(150), "2.5m");
  EXPECT_EQ(CompactDuration(4320), "72m");
  EXPECT_EQ(CompactDuration(9000), "2.5h");
}

}  // namespace
}  // namespace ringfuzz

#include "fuzz/report/html_report.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "fuzz/report/html_escape.h"
#include "fuzz/report/svg_chart.h"

namespace ringfuzz {
namespace {

constexpr char kStyle[] = R"css(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
  margin:0;background:#f6f8fa;color:#1f2328}
header{background:#24292f;color:#fff;padding:16px 24px}
header h1{margin:0 0 6px;font-size:22px}
header dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;
  margin:0;font-size:13px}
header dt{color:#afb8c1}header dd{margin:0;font-family:monospace;
  word-break:break-all}
main{padding:16px 24px}
h2{font-size:17px;margin:20px 0 8px}
#summary{display:flex;flex-wrap:wrap;gap:10px}
.stat{background:#fff;border:1px solid #d0d7de;border-radius:6px;
  padding:8px 14px;min-width:110px}
.stat b{display:block;font-size:20px}.stat span{color:#57606a;font-size:12px}
#charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));
  gap:12px}
svg.chart text{font-size:11px;fill:#57606a}
svg.chart text.title{font-size:14px;fill:#1f2328;font-weight:600}
svg.chart text.ylabel{text-anchor:end}svg.chart text.xlabel{text-anchor:middle}
svg.chart text.empty{text-anchor:middle;font-size:13px}
table{border-collapse:collapse;background:#fff;font-size:13px}
th,td{border:1px solid #d0d7de;padding:4px 10px;text-align:left}
th{background:#eaeef2}td.num{text-align:right;font-variant-numeric:tabular-nums}
.bar{background:#2da44e;height:10px;display:inline-block}
.none{color:#57606a}.running{color:#bf8700}.finished{color:#2da44e}
code{font-family:monospace}
)css";

// The page's four charts: what each plots and its colour.
struct ChartSpec {
  const char* title;
  const char* color;
  uint64_t PlotSample::*field;
};
constexpr ChartSpec kCharts[] = {
    {"Coverage: cov (blocks)", "#0969da", &PlotSample::cov},
    {"Coverage: ft (features)", "#8250df", &PlotSample::ft},
    {"Corpus size (entries)", "#1a7f37", &PlotSample::corpus_size},
    {"Executions per second", "#cf222e", &PlotSample::exec_per_sec},
};

void AppendHeader(const CampaignReport& r, std::string& html) {
  absl::StrAppend(&html, "<header id=\"campaign\">\n<h1>ringfuzz campaign: ",
                  HtmlEscape(r.target), "</h1>\n<dl>\n");
  const auto row = [&](absl::string_view name, const std::string& value) {
    absl::StrAppend(&html, "<dt>", name, "</dt><dd>", HtmlEscape(value),
                    "</dd>\n");
  };
  row("target", r.target);
  row("device", r.device.empty() ? "unknown" : r.device);
  row("flags", absl::StrJoin(r.flags, " "));
  row("corpus", r.corpus_dirs.empty() ? "(in memory)"
                                      : absl::StrJoin(r.corpus_dirs, " "));
  row("started", FormatUtc(r.started_unix));
  row("updated", FormatUtc(r.updated_unix));
  absl::StrAppend(&html, "<dt>status</dt><dd class=\"",
                  r.finished ? "finished" : "running", "\">",
                  r.finished ? HtmlEscape(absl::StrCat("finished, ", r.outcome))
                             : "running (this page reloads itself)",
                  "</dd>\n</dl>\n</header>\n");
}

void AppendSummary(const CampaignReport& r, std::string& html) {
  const PlotSample last = r.samples.empty() ? PlotSample() : r.samples.back();
  const double secs = last.elapsed_s;
  const uint64_t average =
      secs >= 1 ? static_cast<uint64_t>(last.execs / secs) : 0;
  html += "<section id=\"summary\">\n";
  const auto stat = [&](const std::string& value, absl::string_view name) {
    absl::StrAppend(&html, "<div class=\"stat\"><b>", HtmlEscape(value),
                    "</b><span>", name, "</span></div>\n");
  };
  stat(CompactDuration(secs), "elapsed");
  stat(absl::StrCat(last.execs), "executions");
  stat(absl::StrCat(average), "exec/s (average)");
  stat(absl::StrCat(last.cov), "cov");
  stat(absl::StrCat(last.ft), "ft");
  stat(absl::StrCat(last.corpus_size), "corpus entries");
  stat(absl::StrCat(r.bugs.size()), "distinct bugs");
  html += "</section>\n";
}

void AppendCharts(const CampaignReport& r, std::string& html) {
  html += "<h2>Progress</h2>\n<section id=\"charts\">\n";
  for (const ChartSpec& spec : kCharts) {
    LineChart chart;
    chart.title = spec.title;
    chart.color = spec.color;
    for (const PlotSample& s : r.samples) {
      chart.points.emplace_back(s.elapsed_s,
                                static_cast<double>(s.*spec.field));
    }
    html += RenderLineChart(chart);
  }
  html += "</section>\n";
  if (!r.plot_data_file.empty()) {
    absl::StrAppend(&html, "<p>Samples as CSV: <a href=\"",
                    HtmlEscape(r.plot_data_file), "\">",
                    HtmlEscape(r.plot_data_file), "</a></p>\n");
  }
}

void AppendMutators(const CampaignReport& r, std::string& html) {
  html += "<h2>Mutators</h2>\n";
  if (r.mutators.empty()) {
    html +=
        "<p class=\"none\">The executor does not count executions per "
        "mutator.</p>\n";
    return;
  }
  uint64_t most = 1;
  for (const MutatorStat& m : r.mutators) most = std::max(most, m.executions);
  html +=
      "<table id=\"mutators\">\n<thead><tr><th>mutator</th><th>executions"
      "</th><th></th><th>finds</th><th>finds per million executions</th>"
      "</tr></thead>\n<tbody>\n";
  for (const MutatorStat& m : r.mutators) {
    const double share = static_cast<double>(m.executions) / most;
    absl::StrAppendFormat(
        &html,
        "<tr><td><code>%s</code></td><td class=\"num\">%u</td><td><span "
        "class=\"bar\" style=\"width:%dpx\"></span></td><td class=\"num\">%u"
        "</td><td class=\"num\">%s</td></tr>\n",
        HtmlEscape(m.name), m.executions, static_cast<int>(share * 160),
        m.finds,
        m.executions > 0
            ? absl::StrFormat("%.1f", 1e6 * static_cast<double>(m.finds) /
                                          static_cast<double>(m.executions))
            : "-");
  }
  html += "</tbody>\n</table>\n";
}

void AppendBugs(const CampaignReport& r, std::string& html) {
  html += "<h2>Bugs</h2>\n";
  if (r.bugs.empty()) html += "<p class=\"none\">No bug found.</p>\n";
  html +=
      "<table id=\"bugs\">\n<thead><tr><th>kind</th><th>location</th>"
      "<th>count</th><th>first seen</th><th>artifacts</th></tr></thead>\n"
      "<tbody>\n";
  for (const BugBucket& b : r.bugs) {
    std::string artifacts;
    for (const std::string& a : b.artifacts) {
      absl::StrAppend(&artifacts, artifacts.empty() ? "" : "<br>", "<code>",
                      HtmlEscape(a), "</code>");
    }
    if (b.more_artifacts > 0) {
      absl::StrAppend(&artifacts, "<br>and ", b.more_artifacts, " more");
    }
    if (artifacts.empty()) artifacts = "<span class=\"none\">none</span>";
    absl::StrAppend(
        &html, "<tr><td><code>", HtmlEscape(b.kind), "</code></td><td><code>",
        HtmlEscape(b.location.empty() ? "unknown" : b.location),
        "</code></td><td class=\"num\">", b.count, "</td><td>",
        HtmlEscape(absl::StrCat(FormatUtc(b.first_seen_unix), " (after ",
                                CompactDuration(b.first_seen_elapsed_s), ")")),
        "</td><td>", artifacts, "</td></tr>\n");
  }
  html += "</tbody>\n</table>\n";
}

}  // namespace

std::string FormatUtc(int64_t unix_time) {
  return absl::FormatTime("%Y-%m-%d %H:%M:%S UTC",
                          absl::FromUnixSeconds(unix_time),
                          absl::UTCTimeZone());
}

std::string RenderHtmlReport(const CampaignReport& report) {
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
      "charset=\"utf-8\">\n";
  if (!report.finished) {
    absl::StrAppend(&html, "<meta http-equiv=\"refresh\" content=\"",
                    kReloadSeconds, "\">\n");
  }
  absl::StrAppend(&html, "<title>ringfuzz: ", HtmlEscape(report.target),
                  "</title>\n<style>", kStyle, "</style>\n</head>\n<body>\n");
  AppendHeader(report, html);
  html += "<main>\n";
  AppendSummary(report, html);
  AppendCharts(report, html);
  AppendMutators(report, html);
  AppendBugs(report, html);
  html += "</main>\n</body>\n</html>\n";
  return html;
}

}  // namespace ringfuzz

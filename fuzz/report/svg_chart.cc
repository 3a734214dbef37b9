#include "fuzz/report/svg_chart.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/report/html_escape.h"

namespace ringfuzz {
namespace {

constexpr int kLeft = 56, kRight = 16, kTop = 30, kBottom = 34;
constexpr int kTicks = 4;

// The smallest 1, 2, 2.5 or 5 times a power of ten that is >= `value`
// (value > 0): the top of an axis.
double NiceCeiling(double value) {
  const double power = std::pow(10.0, std::floor(std::log10(value)));
  for (double step : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

// At most 3 significant digits, no exponent, no trailing zeros.
std::string TrimmedDecimal(double value) {
  if (std::fabs(value) >= 100) return absl::StrFormat("%.0f", value);
  return absl::StrFormat("%.3g", value);
}

}  // namespace

std::string CompactNumber(double value) {
  static constexpr const char* kSuffixes[] = {"", "k", "M", "G", "T"};
  size_t unit = 0;
  while (std::fabs(value) >= 1000 && unit + 1 < std::size(kSuffixes)) {
    value /= 1000;
    ++unit;
  }
  return absl::StrCat(TrimmedDecimal(value), kSuffixes[unit]);
}

std::string CompactDuration(double seconds) {
  if (seconds < 120) return absl::StrCat(TrimmedDecimal(seconds), "s");
  if (seconds < 7200) return absl::StrCat(TrimmedDecimal(seconds / 60), "m");
  return absl::StrCat(TrimmedDecimal(seconds / 3600), "h");
}

std::string RenderLineChart(const LineChart& chart) {
  const int w = chart.width, h = chart.height;
  const double plot_w = w - kLeft - kRight, plot_h = h - kTop - kBottom;
  std::string svg = absl::StrFormat(
      "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
      "aria-label=\"%s\">\n",
      w, h, w, h, HtmlEscape(chart.title));
  absl::StrAppendFormat(&svg,
                        "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
                        "fill=\"#ffffff\" stroke=\"#d0d7de\"/>\n",
                        w, h);
  absl::StrAppendFormat(&svg,
                        "<text x=\"%d\" y=\"19\" class=\"title\">%s</text>\n",
                        kLeft, HtmlEscape(chart.title));
  double max_x = 0, max_y = 0;
  for (const auto& [x, y] : chart.points) {
    max_x = std::max(max_x, x);
    max_y = std::max(max_y, y);
  }
  const double top = max_y > 0 ? NiceCeiling(max_y) : 1;
  const double right = max_x > 0 ? max_x : 1;
  const auto px = [&](double x) { return kLeft + x / right * plot_w; };
  const auto py = [&](double y) { return kTop + plot_h - y / top * plot_h; };
  for (int i = 0; i <= kTicks; ++i) {
    const double y = top * i / kTicks;
    absl::StrAppendFormat(
        &svg,
        "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
        "stroke=\"%s\"/>\n<text x=\"%d\" y=\"%.1f\" class=\"ylabel\">%s"
        "</text>\n",
        kLeft, py(y), kLeft + plot_w, py(y), i == 0 ? "#57606a" : "#eaeef2",
        kLeft - 6, py(y) + 4, CompactNumber(y));
    const double x = right * i / kTicks;
    absl::StrAppendFormat(&svg,
                          "<text x=\"%.1f\" y=\"%d\" class=\"xlabel\">%s"
                          "</text>\n",
                          px(x), h - kBottom + 16, CompactDuration(x));
  }
  absl::StrAppendFormat(&svg,
                        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.1f\" "
                        "stroke=\"#57606a\"/>\n",
                        kLeft, kTop, kLeft, kTop + plot_h);
  if (chart.points.empty()) {
    absl::StrAppendFormat(
        &svg,
        "<text x=\"%.1f\" y=\"%.1f\" class=\"empty\">no samples yet"
        "</text>\n",
        kLeft + plot_w / 2, kTop + plot_h / 2);
  } else if (chart.points.size() == 1) {
    absl::StrAppendFormat(
        &svg,
        "<circle class=\"series\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
        "fill=\"%s\"/>\n",
        px(chart.points[0].first), py(chart.points[0].second),
        HtmlEscape(chart.color));
  } else {
    absl::StrAppendFormat(&svg,
                          "<polyline class=\"series\" fill=\"none\" "
                          "stroke=\"%s\" stroke-width=\"2\" points=\"",
                          HtmlEscape(chart.color));
    for (const auto& [x, y] : chart.points) {
      absl::StrAppendFormat(&svg, "%.1f,%.1f ", px(x), py(y));
    }
    svg += "\"/>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace ringfuzz

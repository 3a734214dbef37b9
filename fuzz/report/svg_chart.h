// Line charts as inline SVG, for the -report page: no script, no external
// resource, so the page shows the same in any browser and offline.
#ifndef RINGFUZZ_FUZZ_REPORT_SVG_CHART_H_
#define RINGFUZZ_FUZZ_REPORT_SVG_CHART_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ringfuzz {

struct LineChart {
  std::string title;  // plain text (escaped when rendered)
  std::string color;  // a CSS colour of the line, e.g. "#1f77b4"
  // (x, y) with x the elapsed seconds, ascending; y >= 0.
  std::vector<std::pair<double, double>> points;
  int width = 560;
  int height = 240;
};

// Returns one <svg> element: the title, a y axis from 0 to a round value
// above the largest y with gridlines and labels (1.5k, 2M), an x axis of
// elapsed time (s, m or h), and the points joined by a <polyline> (one
// point: a <circle>; none: the text "no samples yet"). Its class is
// "chart"; the polyline's is "series".
std::string RenderLineChart(const LineChart& chart);

// Returns `value` the way the chart's labels print it: up to 3 significant
// digits with k, M, G or T for thousands and above ("950", "1.5k", "12M").
std::string CompactNumber(double value);

// Returns `seconds` as the x axis prints it: "45s", "2.5m", "1.2h".
std::string CompactDuration(double seconds);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_REPORT_SVG_CHART_H_

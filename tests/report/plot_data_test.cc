#include "fuzz/report/plot_data.h"

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

PlotSample MakeSample(uint64_t i) {
  PlotSample s;
  s.unix_time = 1714557600 + static_cast<int64_t>(i);
  s.elapsed_s = 0.25 + static_cast<double>(i);
  s.execs = 1000 * i + 1;
  s.exec_per_sec = 999 + i;
  s.cov = 10 + i / 3;
  s.ft = 20 + i / 2;
  s.corpus_size = 1 + i / 5;
  s.bugs = i / 7;
  return s;
}

// Parses plot_data.csv without the writer's code: the header names, then
// one vector of fields per row.
std::vector<std::vector<std::string>> ParseCsv(const std::string& text,
                                               std::string* header) {
  std::istringstream in(text);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  bool first = true;
  while (std::getline(in, line)) {
    if (first) {
      *header = line;
      first = false;
      continue;
    }
    std::vector<std::string> fields;
    std::istringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) fields.push_back(cell);
    rows.push_back(fields);
  }
  return rows;
}

TEST(PlotDataTest, CsvParsesBackToTheSamples) {
  std::vector<PlotSample> samples;
  for (uint64_t i = 0; i < 50; ++i) samples.push_back(MakeSample(i));
  samples[3].execs = 18446744073709551615u;  // uint64 max survives
  const std::string csv = FormatPlotData(samples);
  ASSERT_EQ(csv.back(), '\n');
  std::string header;
  const auto rows = ParseCsv(csv, &header);
  EXPECT_EQ(header,
            "unix_time,elapsed_s,execs,execs_per_sec,cov,ft,corpus_size,bugs");
  ASSERT_EQ(rows.size(), samples.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 8u) << i;
    const PlotSample& s = samples[i];
    EXPECT_EQ(std::strtoll(rows[i][0].c_str(), nullptr, 10), s.unix_time);
    EXPECT_DOUBLE_EQ(std::strtod(rows[i][1].c_str(), nullptr), s.elapsed_s);
    EXPECT_EQ(std::strtoull(rows[i][2].c_str(), nullptr, 10), s.execs);
    EXPECT_EQ(std::strtoull(rows[i][3].c_str(), nullptr, 10), s.exec_per_sec);
    EXPECT_EQ(std::strtoull(rows[i][4].c_str(), nullptr, 10), s.cov);
    EXPECT_EQ(std::strtoull(rows[i][5].c_str(), nullptr, 10), s.ft);
    EXPECT_EQ(std::strtoull(rows[i][6].c_str(), nullptr, 10), s.corpus_size);
    EXPECT_EQ(std::strtoull(rows[i][7].c_str(), nullptr, 10), s.bugs);
  }
}

TEST(PlotDataTest, EmptySeriesIsTheHeaderAlone) {
  EXPECT_EQ(FormatPlotData({}), std::string(kPlotDataHeader) + "\n");
  EXPECT_TRUE(PlotSeries().Points().empty());
}

TEST(PlotDataTest, KeepsEverySampleBelowTheBound) {
  PlotSeries series(100);
  for (uint64_t i = 0; i < 100; ++i) series.Add(MakeSample(i));
  const std::vector<PlotSample> points = series.Points();
  ASSERT_EQ(points.size(), 100u);
  for (uint64_t i = 0; i < 100; ++i) EXPECT_EQ(points[i], MakeSample(i));
  EXPECT_EQ(series.stride(), 1u);
}

TEST(PlotDataTest, DownsamplesEvenlyAndKeepsTheFirstAndTheLatest) {
  for (uint64_t total : {101u, 257u, 1000u, 12345u}) {
    PlotSeries series(100);
    for (uint64_t i = 0; i < total; ++i) series.Add(MakeSample(i));
    const std::vector<PlotSample> points = series.Points();
    EXPECT_LE(points.size(), 101u) << total;
    EXPECT_GE(points.size(), 50u) << total;
    EXPECT_EQ(points.front(), MakeSample(0)) << total;
    EXPECT_EQ(points.back(), MakeSample(total - 1)) << total;
    EXPECT_EQ(series.added(), total);
    // All but the latest are evenly spaced by the stride.
    for (size_t i = 1; i + 1 < points.size(); ++i) {
      EXPECT_EQ(points[i].execs - points[i - 1].execs, 1000 * series.stride())
          << total << " at " << i;
    }
  }
}

}  // namespace
}  // namespace ringfuzz

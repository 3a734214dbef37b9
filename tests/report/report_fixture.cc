// Writes a -report directory from a made-up campaign, for the checks that
// read it with independent parsers (report_check.py): 3000 samples (more
// than a series keeps, so it is downsampled), two mutators, two bug
// buckets, and strings that would break the page if they were not escaped.
//
//   report_fixture DIR
#include <iostream>

#include "fuzz/report/report_writer.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: report_fixture DIR\n";
    return 2;
  }
  const std::string hostile = "<script>alert(1)</script>&\"'</td>";
  ringfuzz::CampaignReport header;
  header.target = "targets/" + hostile + ".fz";
  header.device = "device " + hostile;
  header.flags = {"-runs=3000", "-dict=" + hostile};
  header.corpus_dirs = {"corpus/" + hostile};
  header.started_unix = 1714557600;
  ringfuzz::ReportWriter writer(argv[1], header, std::cerr);
  ringfuzz::Find crash;
  crash.kind = ringfuzz::Find::Kind::kCrash;
  crash.code = 7;
  crash.function = "parse" + hostile;
  crash.file = "t.fz";
  crash.line = 42;
  ringfuzz::Find timeout;
  timeout.kind = ringfuzz::Find::Kind::kTimeout;
  for (uint64_t i = 0; i < 3000; ++i) {
    if (i == 1000)
      writer.RecordBug(crash, "out/crash-" + hostile, absl::Seconds(i));
    if (i == 1001) writer.RecordBug(crash, "", absl::Seconds(i));
    if (i == 2000) writer.RecordBug(timeout, "out/timeout-1", absl::Seconds(i));
    // Sample i: i seconds in, 1000 executions a second.
    writer.Sample(absl::Seconds(i),
                  {1000 * i, 10 + i / 100, 20 + i / 50, 1 + i / 300});
  }
  writer.Write(absl::Seconds(3000),
               {{"flip_bit", 2000000, 12}, {"mut" + hostile, 1000000, 3}},
               /*finished=*/true, "exit 77 (bug found)");
  return 0;
}

// clusterfuzz_classify FUZZ_TARGET EXIT_CODE < LOG
// clusterfuzz_classify --merge_stats < LOG
// Prints how ClusterFuzz reads LOG (clusterfuzz_patterns.h), one field a
// line, for scripts that check real runs of ringfuzz and of the twins:
//   type=<crash type>
//   state=<state entries joined by '|'>
//   security=<0|1>
//   crash=<0|1>
// or, with --merge_stats, what it records from a -merge=1 log:
//   merge_line=<0|1>
//   feature_coverage=<N>
//   edge_coverage=<N>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>

#include "tests/triage/clusterfuzz_patterns.h"

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--merge_stats") {
    const std::string log((std::istreambuf_iterator<char>(std::cin)),
                          std::istreambuf_iterator<char>());
    const ringfuzz::testing::MergeStats stats =
        ringfuzz::testing::ParseMergeStatsLikeClusterFuzz(log);
    std::printf("merge_line=%d\nfeature_coverage=%llu\nedge_coverage=%llu\n",
                stats.matched ? 1 : 0,
                static_cast<unsigned long long>(stats.feature_coverage),
                static_cast<unsigned long long>(stats.edge_coverage));
    return 0;
  }
  if (argc != 3) {
    std::fprintf(stderr,
                 "usage: %s FUZZ_TARGET EXIT_CODE < LOG\n       %s "
                 "--merge_stats < LOG\n",
                 argv[0], argv[0]);
    return 2;
  }
  const std::string log((std::istreambuf_iterator<char>(std::cin)),
                        std::istreambuf_iterator<char>());
  const ringfuzz::testing::Triage t =
      ringfuzz::testing::ClassifyLikeClusterFuzz(log, argv[1]);
  std::string state;
  for (const std::string& entry : t.state) {
    state += (state.empty() ? "" : "|") + entry;
  }
  std::printf(
      "type=%s\nstate=%s\nsecurity=%d\ncrash=%d\n", t.crash_type.c_str(),
      state.c_str(), t.security ? 1 : 0,
      ringfuzz::testing::IsCrashLikeClusterFuzz(std::atoi(argv[2]), t) ? 1 : 0);
  return 0;
}

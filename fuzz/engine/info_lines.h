// The start-up lines that fuzzing infrastructure reads from a libFuzzer
// engine's log, in libFuzzer's exact wording (compiler-rt/lib/fuzzer), so
// that ClusterFuzz's log parser (bot/fuzzers/libFuzzer/stats.py) and
// OSS-Fuzz's bad-build check (infra/base-images/base-runner/bad_build_check)
// read ringfuzz's log as they read libFuzzer's. Each returns the line
// without its newline. tests/engine/libfuzzer_contract_test.cc holds the
// upstream patterns they must match.
#ifndef RINGFUZZ_FUZZ_ENGINE_INFO_LINES_H_
#define RINGFUZZ_FUZZ_ENGINE_INFO_LINES_H_

#include <cstdint>
#include <string>

namespace ringfuzz {

// Printed when -max_len was not given: the automatic length `max_len`.
// ClusterFuzz records it as the run's max_len. The word "libFuzzer" is
// part of what the parser matches.
std::string MaxLenLine(uint64_t max_len);

// The instrumentation summary: the target is one module of `sites`
// coverage sites, as libFuzzer's one module of `sites` inline 8-bit
// counters. ClusterFuzz reads `sites` as edges_total (and the line as "the
// target started"); OSS-Fuzz's bad-build check as the number of edges. The
// bracketed range is the sites' offsets in the site map, [0x0, 0x<sites>):
// the map lives on the device and has no host address.
std::string LoadedModulesLine(uint64_t sites);

// Printed only for a -dict file with `entries` > 0 entries, as libFuzzer
// does; ClusterFuzz reads it as "a dictionary was used". The automatic
// dictionary has its own line (AutomaticDictionaryLine), which this pattern
// does not match.
std::string DictionaryLine(uint64_t entries);

// ringfuzz's own line for the tokens taken from the target's comparisons
// and constants (`added` of them not already in the -dict file).
std::string AutomaticDictionaryLine(uint64_t added);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_INFO_LINES_H_

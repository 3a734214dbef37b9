// What `ringfuzz ci` (ci_command.h) found, as its SARIF (sarif.h) and JUnit
// (junit.h) reports present it.
#ifndef RINGFUZZ_FUZZ_TRIAGE_CI_RESULT_H_
#define RINGFUZZ_FUZZ_TRIAGE_CI_RESULT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/triage/triage.h"
#include "fuzz/triage/triage_signature.h"

namespace ringfuzz {

// The steps of a CI run, in order.
enum class CiPhase { kKnownCrashes, kCorpus, kFuzzing };

// "known crashes", "corpus replay", "fuzzing".
absl::string_view CiPhaseName(CiPhase phase);

// One bucket of bugs that reproduced in a phase.
struct CiBug {
  CiPhase phase = CiPhase::kFuzzing;
  TriageSignature signature;
  std::string reproducer;  // the bucket's smallest input
  uint64_t size = 0;       // its size in bytes
  size_t count = 0;        // artifacts in the bucket
  // True iff no known crash has the same signature: a new bug, which fails
  // the run. Known crashes themselves are never new.
  bool is_new = false;
  CpuReplay cpu;
};

struct CiPhaseResult {
  CiPhase phase = CiPhase::kFuzzing;
  bool ran = false;           // false: skipped (fail fast, or nothing to do)
  std::string note;           // why it was skipped, or what it did
  size_t inputs = 0;          // inputs replayed (artifacts triaged)
  size_t not_reproduced = 0;  // of them, inputs that found no bug
  double seconds = 0;
};

struct CiResult {
  std::string target;                 // the -target path
  std::vector<CiPhaseResult> phases;  // CiPhase order
  std::vector<CiBug> bugs;            // phase order, then bucket order
  // The number of new bugs (CiBug::is_new).
  size_t NewBugs() const;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_TRIAGE_CI_RESULT_H_

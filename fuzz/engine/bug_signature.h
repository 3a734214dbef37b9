// What makes two crashes "the same bug" for the corpus tools that shrink a
// crashing input (-minimize_crash, -cleanse_crash): a candidate counts only
// if it reproduces the signature of the original, as libFuzzer's minimizer
// compares the DEDUP_TOKENs of two runs.
#ifndef RINGFUZZ_FUZZ_ENGINE_BUG_SIGNATURE_H_
#define RINGFUZZ_FUZZ_ENGINE_BUG_SIGNATURE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "fuzz/engine/executor.h"

namespace ringfuzz {

// The kind of the bug and where the target reported it (function, file,
// line), plus the fz_crash code for crashes: the code names the bug the
// target asserts. The index of an overread or an out-of-bounds access, the
// input's length and a timeout's loop steps are not part of it: they
// follow the input, and shrinking the input changes them.
struct BugSignature {
  Find::Kind kind = Find::Kind::kCrash;
  uint32_t code = 0;  // kCrash only; 0 otherwise
  std::string function;
  std::string file;
  uint32_t line = 0;

  friend bool operator==(const BugSignature& a, const BugSignature& b) {
    return a.kind == b.kind && a.code == b.code && a.function == b.function &&
           a.file == b.file && a.line == b.line;
  }
  friend bool operator!=(const BugSignature& a, const BugSignature& b) {
    return !(a == b);
  }
};

// The signature of `find`, which must be a bug (IsBug).
BugSignature SignatureOf(const Find& find);

// e.g. "fz_crash(code=7) in parse_header shaders/targets/tlv.fz:42"; the
// location is left out where the executor does not know it.
std::string DescribeSignature(const BugSignature& signature);

// Runs each of `inputs` once (Executor::ExecuteEach) and returns, per
// input, the signature of the first bug it hit, nullopt where it hit none.
// `executions` (may be null) is increased by the executions counted.
absl::StatusOr<std::vector<std::optional<BugSignature>>> ReproduceEach(
    Executor& executor, absl::Span<const Bytes> inputs,
    uint64_t* executions = nullptr);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_BUG_SIGNATURE_H_

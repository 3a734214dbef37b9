// The bugs a campaign found, grouped the way triage groups them: one bucket
// per BugSignature (kind, fz_crash code, function, file, line), with how
// often it was hit, when first, and the artifacts saved for it.
#ifndef RINGFUZZ_FUZZ_REPORT_BUG_BUCKETS_H_
#define RINGFUZZ_FUZZ_REPORT_BUG_BUCKETS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/engine/bug_signature.h"

namespace ringfuzz {

struct BugBucket {
  BugSignature signature;
  std::string kind;      // BugCategory, e.g. "fz_crash(code=7)"
  std::string location;  // "function file:line", "" when unknown
  uint64_t count = 0;    // bug reports of this signature the engine handled
  int64_t first_seen_unix = 0;
  double first_seen_elapsed_s = 0;
  // Artifact paths written for it, in the order written; at most
  // kMaxArtifactsPerBucket (further ones are counted, not listed).
  std::vector<std::string> artifacts;
  uint64_t more_artifacts = 0;
};

inline constexpr size_t kMaxArtifactsPerBucket = 8;

class BugBuckets {
 public:
  // Counts one report of `find` (a bug: IsBug) at the given times;
  // `artifact` is the file it was saved to ("" when none was written).
  void Record(const Find& find, const std::string& artifact, int64_t unix_time,
              double elapsed_s);

  // In the order first seen.
  const std::vector<BugBucket>& buckets() const { return buckets_; }

 private:
  std::vector<BugBucket> buckets_;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_REPORT_BUG_BUCKETS_H_

#include "fuzz/report/bug_buckets.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "fuzz/engine/bug_report.h"

namespace ringfuzz {

void BugBuckets::Record(const Find& find, const std::string& artifact,
                        int64_t unix_time, double elapsed_s) {
  const BugSignature signature = SignatureOf(find);
  auto it = std::find_if(
      buckets_.begin(), buckets_.end(),
      [&](const BugBucket& b) { return b.signature == signature; });
  if (it == buckets_.end()) {
    BugBucket bucket;
    bucket.signature = signature;
    bucket.kind = BugCategory(find);
    if (!signature.file.empty()) {
      bucket.location = absl::StrCat(
          signature.function.empty() ? "" : signature.function + " ",
          signature.file, ":", signature.line);
    }
    bucket.first_seen_unix = unix_time;
    bucket.first_seen_elapsed_s = elapsed_s;
    buckets_.push_back(std::move(bucket));
    it = buckets_.end() - 1;
  }
  ++it->count;
  if (artifact.empty()) return;
  if (it->artifacts.size() < kMaxArtifactsPerBucket) {
    it->artifacts.push_back(artifact);
  } else {
    ++it->more_artifacts;
  }
}

}  // namespace ringfuzz

// How long a find waits before the search acts on it: the engine's
// feedback-latency statistic (stat::feedback_latency_*).
#ifndef RINGFUZZ_FUZZ_FEEDBACK_LATENCY_H_
#define RINGFUZZ_FUZZ_FEEDBACK_LATENCY_H_

#include <cstddef>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "absl/types/span.h"

namespace ringfuzz {

// Feedback latency: for each corpus entry found while fuzzing, the time
// from the start of the batch whose execution found it to the end of the
// first later batch that ran work items of it. It is an upper bound on
// "find -> first executed mutant": the find may have come late in its batch
// and the mutant early in its own, and times are taken around
// Executor::RunBatch, so host work between the batches is included.
class FeedbackLatency {
 public:
  // Corpus entry `index` was found by the batch that started at
  // `batch_start`. An entry found twice keeps its first time.
  void Found(size_t index, absl::Duration batch_start);
  // One sample: corpus entry `index` waited `latency`.
  struct Sample {
    size_t index = 0;
    absl::Duration latency;
  };
  // A batch that ran work of `parents` (corpus indices, repeats allowed)
  // ended at `batch_end`: each of them still pending becomes a sample.
  // Returns the samples it took, in the order of `parents`.
  std::vector<Sample> BatchRan(absl::Span<const size_t> parents,
                               absl::Duration batch_end);

  size_t samples() const { return samples_.size(); }
  // Entries found whose mutants have not run yet.
  size_t pending() const { return pending_.size(); }
  // The nearest-rank q-quantile of the samples (q in (0, 1]): the smallest
  // sample with at least q of all samples <= it; zero without samples.
  absl::Duration Quantile(double q) const;

 private:
  absl::flat_hash_map<size_t, absl::Duration> pending_;  // index -> start
  std::vector<absl::Duration> samples_;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_FEEDBACK_LATENCY_H_

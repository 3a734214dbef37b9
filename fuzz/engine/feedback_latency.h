// How long a find waits before the search acts on it: the engine's
// feedback-latency statistic (stat::feedback_latency_*).
#ifndef RINGFUZZ_FUZZ_ENGINE_FEEDBACK_LATENCY_H_
#define RINGFUZZ_FUZZ_ENGINE_FEEDBACK_LATENCY_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "absl/types/span.h"

namespace ringfuzz {

// Feedback latency: for each corpus entry found while fuzzing, the time from
// the find to the first execution of its mutants. One timeline per run,
// fed through one of two pairs of calls:
//  * rounds (Found, BatchRan): from the start of the batch whose execution
//    found the entry to the end of the first later batch that ran work
//    items of it. An upper bound: the find may have come late in its batch
//    and the mutant early in its own.
//  * the device clock (FoundAtTick, RanAtTick): ticks of a clock that the
//    executions read themselves, from the end of the finding execution to
//    the start of the entry's first work item: the latency itself. Ticks
//    are turned into time with the latest set_tick_ns (a clock's rate is
//    measured as the run goes, and every sample is scaled alike).
class FeedbackLatency {
 public:
  struct Sample {
    size_t index = 0;
    absl::Duration latency;
  };

  // Corpus entry `index` was found by the batch that started at
  // `batch_start`. An entry found twice keeps its first time.
  void Found(size_t index, absl::Duration batch_start);
  // A batch that ran work of `parents` (corpus indices, repeats allowed)
  // ended at `batch_end`: each of them still pending becomes a sample.
  // Returns the samples it took, in the order of `parents`.
  std::vector<Sample> BatchRan(absl::Span<const size_t> parents,
                               absl::Duration batch_end);

  // Corpus entry `index` was found by an execution that ended at device
  // clock tick `tick`. An entry found twice keeps its first tick.
  void FoundAtTick(size_t index, uint64_t tick);
  // The first work item of `index` that ran started at tick `tick`: a
  // sample if `index` was pending (a tick before its find counts as 0).
  std::optional<Sample> RanAtTick(size_t index, uint64_t tick);
  // Forgets the pending entries: their finds' times are on a clock that no
  // longer runs (a lost device's), so they give no sample.
  void DropPending() { pending_.clear(); }
  // Nanoseconds per device clock tick (> 0); 1 until set.
  void set_tick_ns(double tick_ns) { tick_ns_ = tick_ns; }

  size_t samples() const { return samples_.size(); }
  // Entries found whose mutants have not run yet.
  size_t pending() const { return pending_.size(); }
  // The nearest-rank q-quantile of the samples (q in (0, 1]): the smallest
  // sample with at least q of all samples <= it; zero without samples.
  absl::Duration Quantile(double q) const;

 private:
  absl::Duration ToDuration(uint64_t units) const;

  // Times and samples in units of the run's timeline: nanoseconds (rounds)
  // or ticks (device clock).
  absl::flat_hash_map<size_t, uint64_t> pending_;  // index -> start
  std::vector<uint64_t> samples_;
  bool ticks_ = false;  // the device clock feeds it
  double tick_ns_ = 1;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_FEEDBACK_LATENCY_H_

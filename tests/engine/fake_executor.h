// A deterministic CPU executor for engine tests (Centipede-style: features
// derived from the input bytes).
//
// Target model: the input "matches k" if its first k bytes equal the first
// k bytes of a hidden magic string. Features: one per distinct k seen, plus
// one per distinct length bucket min(len, 8); "cov:" counts the distinct k.
// An input that contains the whole magic as a prefix is the bug (kind and
// code configurable). RunBatch mutates with a tiny byte mutator (set /
// insert / erase a byte, dictionary tokens for RF_OP_DICT, a crossover for
// RF_OP_SPLICE), seeded from the batch seed, so runs are reproducible.
#ifndef RINGFUZZ_TESTS_ENGINE_FAKE_EXECUTOR_H_
#define RINGFUZZ_TESTS_ENGINE_FAKE_EXECUTOR_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "fuzz/engine/executor.h"

namespace ringfuzz {

struct FakeExecutorOptions {
  std::string magic = "FUZ!";
  Find::Kind bug = Find::Kind::kCrash;
  uint32_t crash_code = 7;
  // The bug's execution records its features first, as a GPU execution
  // that the loop budget cuts keeps the coverage it reached.
  bool bug_covers = false;
  size_t max_len = 64;
  // A bounded executor: runs at most this many mutants per work item.
  uint32_t max_execs_per_item = std::numeric_limits<uint32_t>::max();
  // A fast device: each mutant run counts as up to this many of the work
  // item's executions (the last one as what is left of its count), as if
  // the look-alikes a GPU runs beside it had run too.
  uint32_t execs_per_mutant = 1;
  // false: an uninstrumented target that never reports new coverage.
  bool coverage = true;
  // Every work item on a non-empty parent also reports, as the GPU
  // executor's reducing slots do, a reduction of it (Find::
  // reduces_parent): the parent without its last byte.
  bool reduce = false;
  // If set, RunBatch fails with this message.
  std::optional<std::string> batch_error;
  // Called at the start of every RunBatch (tests use it to change the disk
  // under the engine's feet).
  std::function<void()> before_batch;
  // Like the GPU executor: RunBatch's finds name their mutators
  // (Find::mutations: RF_MUT_CHANGE_BYTE, _INSERT, _ERASE, _SPLICE, _DICT)
  // and its results count executions per last mutator.
  bool name_mutators = false;
  // Overlapped batches (Executor::overlap): SubmitBatch queues, and
  // CollectBatch runs the oldest queued batch as RunBatch would.
  uint32_t overlap = 1;
  // Like the GPU executor's overlapped signature rounds: batches report
  // bugs but not new inputs (their new coverage goes unreported), and
  // OldestBatchAddsNoInputs() says so.
  bool bugs_only = false;
  // Every batch's BatchResult::device_time is device_time plus
  // device_time_per_exec per execution (both zero: none).
  absl::Duration device_time;
  absl::Duration device_time_per_exec;
  // The RunBatch calls (1-based, counted per executor) that fail as a lost
  // device does (Unavailable).
  std::set<int> lose_device_at;
  // Returned by AutoDictionary(), as a target's comparison constants.
  std::vector<Bytes> auto_dictionary;
  // AddInput takes at most this many inputs; past it, it fails as a GPU
  // executor whose memory bound is reached does (ResourceExhausted).
  size_t corpus_limit = std::numeric_limits<size_t>::max();
  // Held for the executor's lifetime: a test keeps a weak_ptr to see when
  // the executor (and every copy of it) is gone.
  std::shared_ptr<const void> lifetime;
};

class FakeExecutor final : public Executor {
 public:
  explicit FakeExecutor(FakeExecutorOptions options = {});

  absl::StatusOr<uint32_t> AddInput(ByteSpan input) override;
  absl::Status SetDictionary(const std::vector<Bytes>& tokens) override;
  absl::StatusOr<BatchResult> RunBatch(absl::Span<const WorkItem> work,
                                       uint64_t seed) override;
  absl::StatusOr<BatchResult> Execute(ByteSpan input) override;
  CoverageSummary Coverage() const override;
  // Feature ids: k for a matched prefix of k bytes, 1000 + min(len, 8) for
  // the length bucket; block ids: the k.
  absl::StatusOr<CoverageIds> CoverageIdsSoFar() const override;
  absl::Status ResetCoverage() override;
  size_t max_len() const override { return options_.max_len; }
  std::vector<Bytes> AutoDictionary() const override {
    return options_.auto_dictionary;
  }
  uint32_t overlap() const override { return options_.overlap; }
  absl::Status SubmitBatch(absl::Span<const WorkItem> work,
                           uint64_t seed) override;
  absl::StatusOr<BatchResult> CollectBatch() override;
  bool OldestBatchAddsNoInputs() const override {
    return options_.bugs_only && !submitted_.empty();
  }
  // Records the call: the batches in flight, and whether the last one
  // submitted holds HIGH items (new entries' first mutants).
  void CutEarlierRounds() override;
  // Records the call (the corpus size then); true the first time.
  bool StartRepeatTrials() override {
    repeat_starts_.push_back(inputs_.size());
    return repeat_starts_.size() == 1;
  }

  // What the engine did to this executor.
  const std::vector<Bytes>& inputs() const { return inputs_; }
  const std::vector<Bytes>& dictionary() const { return dictionary_; }
  const std::vector<std::vector<WorkItem>>& batches() const { return batches_; }
  const std::vector<Bytes>& executed_unmutated() const { return executed_; }
  uint64_t executions() const { return executions_; }
  // Overlapped batches: the most in flight at once, and per submitted
  // batch the number of corpus inputs when it was submitted.
  size_t most_in_flight() const { return most_in_flight_; }
  const std::vector<size_t>& inputs_at_submit() const {
    return inputs_at_submit_;
  }
  // Per submitted batch, the batches in flight when it was submitted.
  const std::vector<size_t>& in_flight_at_submit() const {
    return in_flight_at_submit_;
  }
  // Per submitted batch, the batches collected before it was submitted.
  const std::vector<size_t>& collected_at_submit() const {
    return collected_at_submit_;
  }
  // Per CutEarlierRounds call: the batches in flight then, and whether the
  // last one submitted held a HIGH item.
  struct Cut {
    size_t in_flight = 0;
    bool last_has_high = false;
  };
  const std::vector<Cut>& cuts() const { return cuts_; }
  // Per StartRepeatTrials call, the corpus inputs the executor held.
  const std::vector<size_t>& repeat_starts() const { return repeat_starts_; }

 private:
  // Runs `input`; returns the Find it produces, if any.
  std::optional<Find> RunOne(const Bytes& input, uint32_t parent,
                             uint32_t opcode);
  // Appends the ids of the mutations it applies to `mutations`.
  Bytes Mutate(const WorkItem& item, std::mt19937_64& rng,
               std::vector<uint32_t>& mutations) const;

  FakeExecutorOptions options_;
  std::vector<Bytes> inputs_;
  std::vector<Bytes> dictionary_;
  std::vector<std::vector<WorkItem>> batches_;
  std::vector<Bytes> executed_;
  std::deque<std::pair<std::vector<WorkItem>, uint64_t>> submitted_;
  size_t most_in_flight_ = 0;
  std::vector<size_t> inputs_at_submit_;
  std::vector<size_t> in_flight_at_submit_;
  std::vector<size_t> collected_at_submit_;
  std::vector<Cut> cuts_;
  std::vector<size_t> repeat_starts_;
  size_t collected_ = 0;
  int batches_run_ = 0;
  absl::flat_hash_set<uint64_t> features_;
  absl::flat_hash_set<size_t> prefixes_;
  uint64_t executions_ = 0;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_TESTS_ENGINE_FAKE_EXECUTOR_H_

// An executor with simulated megakernel wire buffers, for steering tests.
//
// It runs work with an inner FakeExecutor (tests/engine/fake_executor.h: the
// "magic prefix" target) and keeps a control buffer and a ring of its own,
// written as the GPU executor and the megakernel write them: each batch is
// published as ring slots (with the priority partition words), every slot
// is claimed (tenant and priority fairness counters +1) and completed (DONE,
// RF_ARG_EXECS, dispatch counters, DONE_COUNT) unless the script gives it
// another fate. The DispatchObserver is called as GpuExecutor calls it: start,
// polls, epoch end (one epoch per batch). A hanging slot stays CLAIMED and
// the executor polls until the observer stops the dispatch (SHUTDOWN), or
// gives up after kMaxPolls and fails the batch.
#ifndef RINGFUZZ_TESTS_STEER_SCRIPTED_EXECUTOR_H_
#define RINGFUZZ_TESTS_STEER_SCRIPTED_EXECUTOR_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "fuzz/engine/executor.h"
#include "fuzz/steer/steerable.h"
#include "fuzz/steer/steering_wire.h"
#include "tests/engine/fake_clock.h"
#include "tests/engine/fake_executor.h"

namespace ringfuzz {

// What the simulated device does with a slot.
enum class SlotFate {
  kRun,         // claimed, all mutants run, DONE
  kUnfinished,  // claimed, half the mutants run, DONE (EXECS < COUNT)
  kUnclaimed,   // never claimed: stays PUBLISHED
  kHang,        // claimed and never completed: stays CLAIMED
};

struct ScriptedExecutorOptions {
  FakeExecutorOptions fake;
  // The fate of slot `slot` of batch `batch` (0-based); null: all kRun.
  std::function<SlotFate(int batch, uint32_t slot, const WorkItem& item)> fate;
  // Launch limits to report (nullopt: a fixed geometry, like FakeExecutor).
  std::optional<LaunchLimits> limits;
  // After a stop, the hanging dispatch never ends: RunBatch fails with
  // Unavailable, as GpuExecutor on a hung device.
  bool hang_forever = false;
  // false: a replayed hanging slot runs normally (the hang does not come
  // back, e.g. it was a slow moment of the device).
  bool replay_reproduces_hang = true;
  // Advanced by one step before every poll (may be null).
  FakeClock* clock = nullptr;
  absl::Duration poll_step = absl::Seconds(1);
};

class ScriptedExecutor final : public Executor, public Steerable {
 public:
  static constexpr int kMaxPolls = 100;

  explicit ScriptedExecutor(ScriptedExecutorOptions options);

  absl::StatusOr<uint32_t> AddInput(ByteSpan input) override {
    return inner_.AddInput(input);
  }
  absl::Status SetDictionary(const std::vector<Bytes>& tokens) override {
    return inner_.SetDictionary(tokens);
  }
  absl::StatusOr<BatchResult> RunBatch(absl::Span<const WorkItem> work,
                                       uint64_t seed) override;
  absl::StatusOr<BatchResult> Execute(ByteSpan input) override {
    return inner_.Execute(input);
  }
  CoverageSummary Coverage() const override { return inner_.Coverage(); }
  size_t max_len() const override { return inner_.max_len(); }

  Steerable* steerable() override { return this; }
  void SetDispatchObserver(DispatchObserver* observer) override {
    observer_ = observer;
  }
  std::optional<LaunchLimits> launch_limits() const override;
  absl::Status SetWorkerGroups(uint32_t groups) override;
  absl::Status SetTenantWords(const TenantWords& words) override;
  // A replayed slot whose fate was kHang yields a timeout Find of its
  // parent's input (the input the hang isolates); others run normally.
  absl::StatusOr<BatchResult> ReplaySlot(const SuspectSlot& slot) override;

  // What happened, for assertions.
  const std::vector<std::vector<WorkItem>>& batches() const { return batches_; }
  // Control words RF_CTRL_PRIORITY_PARTITIONS.. at each batch.
  const std::vector<std::vector<uint32_t>>& partitions() const {
    return partitions_;
  }
  const std::vector<TenantWords>& tenant_words() const { return tenant_words_; }
  const std::vector<uint32_t>& worker_groups_set() const { return groups_set_; }
  const std::vector<SuspectSlot>& replayed() const { return replayed_; }
  // Ring bytes of each batch as published (before the device ran).
  const std::vector<Bytes>& published_rings() const { return published_; }
  int shutdowns() const { return shutdowns_; }
  int polls() const { return polls_; }
  const std::vector<Bytes>& inputs() const { return inner_.inputs(); }
  // Corpus inputs there were when each batch started.
  const std::vector<size_t>& inputs_at_batch() const {
    return inputs_at_batch_;
  }
  uint32_t control_word(uint32_t w) const { return control_[w]; }

 private:
  WireView View(uint32_t slots) const;
  uint32_t* Slot(uint32_t s) { return ring_.data() + s * RF_SLOT_WORDS; }

  ScriptedExecutorOptions options_;
  FakeExecutor inner_;
  DispatchObserver* observer_ = nullptr;
  std::vector<uint32_t> control_;
  std::vector<uint32_t> ring_;
  uint32_t groups_ = 0;
  int batch_index_ = 0;
  std::vector<std::vector<WorkItem>> batches_;
  std::vector<size_t> inputs_at_batch_;
  std::vector<std::vector<uint32_t>> partitions_;
  std::vector<TenantWords> tenant_words_;
  std::vector<uint32_t> groups_set_;
  std::vector<SuspectSlot> replayed_;
  std::vector<Bytes> published_;
  std::vector<std::vector<SlotFate>> fates_;
  int shutdowns_ = 0;
  int polls_ = 0;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_TESTS_STEER_SCRIPTED_EXECUTOR_H_

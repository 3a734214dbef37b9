// The batch-level executor interface between the fuzzing engine and whatever
// runs the target: the GPU megakernel (fuzz/gpu/gpu_executor.h) or a fake in
// tests.
//
// The engine owns the corpus and scheduling; the executor owns a mirror of the
// corpus (by index), runs mutants of corpus entries, and reports what it found.
#ifndef RINGFUZZ_FUZZ_ENGINE_EXECUTOR_H_
#define RINGFUZZ_FUZZ_ENGINE_EXECUTOR_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"

namespace ringfuzz {

class Steerable;  // fuzz/steer/steerable.h

using ByteSpan = absl::Span<const uint8_t>;
using Bytes = std::vector<uint8_t>;

// One unit of scheduled work: `count` mutants of corpus entry `parent`, made
// by work kind `opcode` (RF_OP_* in shaders/ringfuzz_wire.h). Becomes one
// ring slot.
struct WorkItem {
  uint32_t opcode = 0;
  uint32_t parent = 0;   // corpus index
  uint32_t partner = 0;  // corpus index of the splice partner (RF_OP_SPLICE)
  uint32_t count = 0;    // executions requested
  uint32_t stack = 1;    // max stacked mutations per mutant
  uint32_t ticket = 0;   // parent batch (ticketed window)
  uint32_t window_class = 0;  // RF_CLASS_*
  uint32_t tenant = 0;
  uint32_t priority = 2;  // RF_PRIORITY_NORMAL
};

// Something an execution produced that the host must keep.
struct Find {
  enum class Kind { kNewCoverage, kCrash, kOverread, kTimeout, kOutOfBounds };
  Kind kind = Kind::kNewCoverage;
  Bytes data;             // the input that was executed
  uint32_t parent = 0;    // corpus index it was mutated from
  uint32_t slot = 0;      // ring slot that ran it (0 when not from a ring)
  uint32_t opcode = 0;    // work kind that produced it
  uint32_t code = 0;      // fz_crash code; overread, out-of-bounds: index
  uint32_t aux = 0;       // overread: input length; out-of-bounds: array
                          // length; timeout: loop steps; a signature
                          // candidate (GPU executor): its seen-table bit + 1
  uint32_t new_bits = 0;  // coverage bits this execution set first
  // The mutators (RF_MUT_* in shaders/ringfuzz_mutators.h) that made `data`
  // from the parent, in application order; empty when the executor does
  // not say (then `opcode` names the mutation) or nothing was mutated.
  std::vector<uint32_t> mutations;
  // Made on the host from the parent (a length, text, varint or repetition
  // trial: `mutations` names it), not by a mutant of a ring slot.
  bool host_trial = false;
  // A reduction of the parent (kind kNewCoverage, new_bits 0): `data` ran
  // the parent's path, as far as the executor tells paths apart, with
  // fewer bytes. The engine may put it in the parent's place (libFuzzer's
  // -reduce_inputs).
  bool reduces_parent = false;
  // The device clock when the execution ended, in the ticks of
  // BatchResult::clock_tick_ns; 0 where the executor has no such clock.
  uint64_t device_clock = 0;
  // The device clock when the first mutant of `data` started, where the
  // executor ran mutants of it before reporting it (0: none ran yet).
  uint64_t first_mutant_clock = 0;
  // Where a bug was reported in the target source ("" / 0 when unknown).
  std::string function;
  std::string file;
  uint32_t line = 0;
};

// Returns true iff `kind` is a bug report (anything but new coverage).
inline bool IsBug(Find::Kind kind) { return kind != Find::Kind::kNewCoverage; }

// What mutating one parent cost, as measured by the executor: `steps` target
// loop iterations over `executions` executions of its mutants.
struct ParentCost {
  uint32_t parent = 0;  // corpus index (as in WorkItem::parent)
  uint64_t executions = 0;
  uint64_t steps = 0;
  // The device clock when the work item's first mutant started (see
  // Find::device_clock); 0 where unknown.
  uint64_t first_clock = 0;
  // Executions its parent's mutant loop budget cut (GpuExecutor's
  // MutantBudget); 0 where none did or the executor cuts none.
  uint64_t cuts = 0;
};

// What one batch did.
struct BatchResult {
  uint64_t executions = 0;     // counted by the executor, never assumed
  std::vector<Find> finds;     // in discovery order
  uint64_t dropped_finds = 0;  // finds lost to a full queue (re-found later)
  // `executions` per mutator, indexed by RF_MUT_* id (shaders/
  // ringfuzz_mutators.h): each execution of a mutant counts for the last
  // mutation applied to it (unmutated inputs count for none). Empty for
  // executors that do not count them.
  std::vector<uint64_t> mutator_executions;
  // One entry per work item that ran, for executors that measure cost
  // (empty otherwise).
  std::vector<ParentCost> costs;
  // Wall time the device spent on this batch's dispatches, from submission
  // to completion, for executors that run on a device (zero otherwise):
  // the rest of the batch's wall time is host work.
  absl::Duration device_time;
  // When the batch's first dispatch began and its last one ended, on the
  // device's clock (comparable only with other batches' device times of
  // the same executor); unset where the executor has no device clock.
  std::optional<absl::Duration> device_start;
  std::optional<absl::Duration> device_end;
  // Nanoseconds per tick of the device clock of Find::device_clock and
  // ParentCost::first_clock, as measured so far (refined from batch to
  // batch); zero where those clocks are not set or not yet measured.
  double clock_tick_ns = 0;
  // Host time the executor spent on this batch once its device work had
  // ended (reading its finds, deriving what it learned); zero for
  // executors that do not measure it.
  absl::Duration readout_time;
  // Times the executor waited for every batch in flight to end outside
  // their collection (to replace a buffer they read, or to run inputs
  // alone) since the last batch it returned, and the host time that took:
  // while it lasts, the device idles. Zero for executors that never do.
  uint32_t quiesces = 0;
  absl::Duration quiesce_time;
  // The batch ran on a slower build than the one the executor fuzzes with
  // (its work cut to match: a signature executor's flight that carried the
  // precise build's service runs), so its time per execution says nothing
  // about the fuzzing pace: round sizers skip it.
  bool off_pace = false;
  // Work of the batch that never ran because it was cut short for urgent
  // work (CutEarlierRounds, or the executor's own cut on a find; 0: it ran
  // whole).
  uint64_t cut_executions = 0;
};

// Coverage observed so far by this executor (monotone).
struct CoverageSummary {
  uint64_t blocks = 0;    // "cov:" distinct instrumented blocks reached
  uint64_t features = 0;  // "ft:" distinct features (edges, ...)
};

// The coverage an executor's maps hold: the ids of the features ("ft:")
// and of the blocks ("cov:") that some execution reached, each ascending.
// Ids are stable for one target and one set of flags, across processes, so
// they can be written down (a merge control file) and compared later.
struct CoverageIds {
  std::vector<uint32_t> features;
  std::vector<uint32_t> blocks;
};

// One source line of the target that has instrumentation, and whether any
// execution so far reached it.
struct LineCoverage {
  std::string file;
  uint32_t line = 0;
  bool covered = false;
};

class Executor {
 public:
  virtual ~Executor() = default;

  // Appends `input` to the executor's corpus mirror; returns its index, which
  // equals the number of inputs added before it.
  virtual absl::StatusOr<uint32_t> AddInput(ByteSpan input) = 0;

  // Replaces the mutation dictionary.
  virtual absl::Status SetDictionary(const std::vector<Bytes>& tokens) = 0;

  // Runs every item of `work` (each up to its count; a bounded executor may
  // run fewer and says so in `executions`). `seed` makes the batch
  // reproducible for a deterministic executor.
  virtual absl::StatusOr<BatchResult> RunBatch(absl::Span<const WorkItem> work,
                                               uint64_t seed) = 0;
  // Overlapped batches: how many may be submitted and not yet collected
  // (1: batches do not overlap; then SubmitBatch and CollectBatch are
  // unused and RunBatch runs each).
  virtual uint32_t overlap() const { return 1; }
  // Queues a batch behind those in flight and returns once it is queued
  // (at most overlap() uncollected). The corpus indices of `work` must
  // exist; inputs added later are not in this batch's view.
  virtual absl::Status SubmitBatch(absl::Span<const WorkItem> work,
                                   uint64_t seed) {
    return absl::UnimplementedError("this executor does not overlap batches");
  }
  // The result of the oldest batch submitted and not yet collected, as
  // RunBatch would return it; FailedPrecondition when there is none.
  virtual absl::StatusOr<BatchResult> CollectBatch() {
    return absl::FailedPreconditionError("no batch was submitted");
  }
  // Whether collecting the oldest batch in flight cannot add inputs to the
  // corpus (its finds can only be bugs): an overlapped round whose
  // candidates a later round judges. The engine then plans the next batch
  // before collecting it, and submits it right after.
  virtual bool OldestBatchAddsNoInputs() const { return false; }
  // The batches submitted before the last one end early where the executor
  // can (what they ran counts; the rest of their work does not run): the
  // last one holds more urgent work, such as new entries' first mutants.
  virtual void CutEarlierRounds() {}
  // Tries each corpus input repeated (fuzz/gpu/repeat_trials.h) in the
  // coming batches, and every later input once it joins, if the executor
  // has repetition trials and they are not on yet. Returns true iff it
  // turned them on.
  virtual bool StartRepeatTrials() { return false; }
  // `check` (may be empty): polled while a batch runs, every few tens of
  // milliseconds at most; once it returns true the batch ends early (its
  // result counts what ran) and so do the batches in flight, so that a
  // time budget or an interrupt ends a run within a round's time.
  // By value: an executor that polls it keeps it.
  // NOLINTNEXTLINE(performance-unnecessary-value-param)
  virtual void SetStopCheck(std::function<bool()> check) {}

  // Executes `input` once, unmutated. The result holds one execution and, if
  // it found a bug or new coverage, the corresponding Find.
  virtual absl::StatusOr<BatchResult> Execute(ByteSpan input) = 0;

  // Executes each of `inputs` once, unmutated, as Execute does, perhaps
  // several in one dispatch. Every bug is reported (also one that an
  // earlier input of the call or of the run already hit), with
  // Find::parent = the input's index in `inputs`; new coverage may be
  // reported or not (which input of a dispatch sets a bit first is not
  // defined). For the corpus tools, which test many candidates at once.
  virtual absl::StatusOr<BatchResult> ExecuteEach(
      absl::Span<const Bytes> inputs);

  virtual CoverageSummary Coverage() const = 0;

  // The ids behind Coverage(), read after the executions so far; the ids
  // an Execute added are the difference of two readings. Unimplemented by
  // executors that cannot name their features.
  virtual absl::StatusOr<CoverageIds> CoverageIdsSoFar() const {
    return absl::UnimplementedError("this executor cannot name its features");
  }
  // Forgets all coverage (the maps behind Coverage() and
  // CoverageIdsSoFar()), so that the next Execute reports every feature it
  // reaches: per-input feature sets. Bugs, the corpus mirror and the
  // dictionary are kept.
  virtual absl::Status ResetCoverage() {
    return absl::UnimplementedError("this executor cannot reset coverage");
  }

  // Largest input the executor can run, in bytes.
  virtual size_t max_len() const = 0;

  // Loop iterations one execution may run before it counts as a timeout;
  // 0 when the executor sets no such bound.
  virtual uint64_t loop_steps() const { return 0; }

  // One line naming the device it runs on (for reports), e.g. "llvmpipe
  // (LLVM 15.0.6, 256 bits) [cpu, lavapipe]"; "" when it has none.
  virtual std::string DeviceDescription() const { return ""; }
  // Counters of the executor's own for the final stats (-print_final_stats:
  // "stat::<name>: <value>"), names in snake_case; none by default.
  virtual std::vector<std::pair<std::string, uint64_t>> ExecutorStats() const {
    return {};
  }

  // Tokens the target itself suggests (e.g. the constants it compares
  // with), to be merged into the mutation dictionary.
  virtual std::vector<Bytes> AutoDictionary() const { return {}; }

  // Tokens learned while fuzzing (e.g. operands of comparisons that
  // failed), printed at the end as libFuzzer's "Recommended dictionary".
  virtual std::vector<Bytes> RecommendedDictionary() const { return {}; }

  // True iff the executor implements RF_OP_CMP (input-to-state) work.
  virtual bool compare_feedback() const { return false; }

  // Source lines of the target that carry instrumentation, sorted by file
  // and line, with whether they were reached. Unimplemented by executors
  // that have no source mapping.
  virtual absl::StatusOr<std::vector<LineCoverage>> Lines() const {
    return absl::UnimplementedError("this executor has no line coverage");
  }

  // The executor's steering side (telemetry views, launch geometry,
  // tenants, slot replay: fuzz/steer/steerable.h), or null for an executor
  // without wire buffers. Owned by the executor.
  virtual Steerable* steerable() { return nullptr; }
};

inline absl::StatusOr<BatchResult> Executor::ExecuteEach(
    absl::Span<const Bytes> inputs) {
  BatchResult all;
  for (size_t i = 0; i < inputs.size(); ++i) {
    absl::StatusOr<BatchResult> one = Execute(inputs[i]);
    if (!one.ok()) return one.status();
    all.executions += one->executions;
    for (Find& find : one->finds) {
      find.parent = static_cast<uint32_t>(i);
      all.finds.push_back(std::move(find));
    }
  }
  return all;
}

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_EXECUTOR_H_

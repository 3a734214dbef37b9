// The GPU executor: runs the fuzzing megakernel through Vulkan (a real GPU,
// or lavapipe on the CPU) behind the batch-level Executor interface.
//
// Each RunBatch publishes the work items as ring slots (wire protocol,
// shaders/ringfuzz_wire.h), launches bounded dispatches until every slot is
// drained, and turns the find queue into Finds. Execution counts come from
// the GPU (RF_RES_EXECS), never from what was requested.
#ifndef RINGFUZZ_FUZZ_GPU_GPU_EXECUTOR_H_
#define RINGFUZZ_FUZZ_GPU_GPU_EXECUTOR_H_

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "fuzz/engine/executor.h"
#include "fuzz/gpu/clock_warmer.h"
#include "fuzz/gpu/colorization.h"
#include "fuzz/gpu/device_clock_fit.h"
#include "fuzz/gpu/gpu_build_notice.h"
#include "fuzz/gpu/gpu_megakernel.h"
#include "fuzz/gpu/gpu_memory.h"
#include "fuzz/gpu/input_to_state.h"
#include "fuzz/gpu/length_to_state.h"
#include "fuzz/gpu/mutant_budget.h"
#include "fuzz/gpu/trial_queue.h"
#include "fuzz/steer/steerable.h"
#include "runtime/buffer.h"
#include "runtime/compute_pipeline.h"
#include "runtime/device.h"
#include "runtime/dispatcher.h"
#include "runtime/instance.h"

namespace ringfuzz {

// The flat engine's coherence groups by default (GpuExecutorOptions::
// coherent_lanes): 4, lavapipe's 4 SIMD lanes at the width ringfuzz sets
// (ConfigureLavapipeEnvironment). On an H100, groups of 32 (a warp) ran
// the raw megakernel 1.03-1.10x faster than 4 on each bundled target's
// campaign corpus but campaigns only 0.99-1.05x, and took more executions
// to solve 9 of 16 hard puzzles (docs/perf.md, "Coherence groups of 32
// lanes"), so GPUs keep 4 too.
inline constexpr uint32_t kDefaultCoherentLanes = 4;

struct GpuExecutorOptions {
  std::string target_path;  // the target file (dialect source)
  // Where the megakernel builds' SPIR-V is cached between runs
  // (fuzz/gpu/spirv_cache.h; the ringfuzz command passes
  // DefaultSpirvCacheDirectory()); "" compiles every time.
  std::string spirv_cache_dir;
  std::string device;       // "", "cpu", "gpu", index or name substring
  bool validation = false;  // Vulkan validation layer
  uint32_t max_len = 64;    // bytes
  uint32_t exec_steps = 0;  // loop iterations per execution; 0 = device default
  // The user's per-execution loop budget (-loop_budget/-timeout), capped at
  // the device's ceiling (its default); ignored when exec_steps is set.
  uint32_t loop_budget = 0;
  uint32_t ring_slots = 0;  // 0 = device default
  bool coverage = true;     // see MegakernelOptions::coverage
  bool compares = true;     // see MegakernelOptions::compares
  bool bounds = true;       // see MegakernelOptions::bounds
  bool conditions = true;   // see MegakernelOptions::conditions
  // Compare-distance features (-use_value_profile), in both coverage builds
  // alike; see MegakernelOptions::value_profile.
  bool value_profile = false;
  // Colorization (-colorize, fuzz/gpu/colorization.h): each corpus input's
  // compare log is run beside colored copies of the input (up to 15, for
  // inputs of at most kMaxColorLength bytes), which confirm the places its
  // comparisons read and rule out input-to-state matches by chance; and,
  // in a later pass, run again beside its probe copies (up to
  // kLinearProbeBytes, fuzz/gpu/linear_to_state.h), whose logs give the
  // linear-to-state trials.
  bool colorize = true;
  bool keep_going = false;  // faults do not stop a batch (-keep_going)
  // Signature builds cut a mutant that runs far more loop iterations than
  // its parent's mutants do (MutantBudget): one slow mutant holds every
  // lane of its subgroup. Off: every mutant has the whole exec_steps.
  bool cut_slow_mutants = true;
  // How coverage is gathered during fuzzing batches (Execute and candidate
  // evaluation always use the precise build).
  enum class CoverageMode { kAuto, kPrecise, kSignature };
  // kAuto: signature. On the H200 the bundled targets' signature
  // campaigns ran 8-19x the precise build's rate at equal coverage
  // (docs/perf.md), and on lavapipe the precise build cannot keep up.
  // kPrecise is for measuring and for devices where the two builds do not
  // fit.
  CoverageMode coverage_mode = CoverageMode::kAuto;
  // Which GPU mutation engine the fuzzing build runs (see
  // MegakernelOptions::flat_mutation). kAuto: flat wherever it applies
  // (max_len <= kFlatMutationMaxLen, 256), branching otherwise. Flat was faster
  // on both kinds of device measured (docs/perf.md): on lavapipe, whose
  // SIMD back end runs every branch, and on the H200.
  enum class MutationEngine { kAuto, kBranching, kFlat };
  MutationEngine mutation_engine = MutationEngine::kAuto;
  // Coherence groups of the flat engine (MegakernelOptions::coherent_lanes:
  // 1, 2, 4, 8, 16 or 32 lanes that take each havoc step at the same
  // position).
  uint32_t coherent_lanes = kDefaultCoherentLanes;
  // On CPU devices in signature mode, HAVOC, TRIM and REPLAY slots run on a
  // third build without the DICT, SPLICE and CMP code
  // (MegakernelOptions::havoc_only), the other kinds on the full signature
  // build. lavapipe runs every branch of a SIMD vector, so in one build
  // every mutant pays for the code of all work kinds: the havoc-only build
  // ran 1.17x the full one over a bytecode_vm corpus (docs/perf.md). It
  // costs one more pipeline compile at start-up (cached by Mesa on disk).
  bool havoc_build = true;
  // Whether the precise build (which judges the signature build's
  // candidates, logs compares and replays) defers its coverage
  // (MegakernelOptions::deferred_coverage): the same coverage bits, set in
  // registers as the target runs and marked at the end of each execution,
  // instead of a memory access per block visit, which lavapipe pays as a
  // scalarised loop in every block whether a lane takes it or not
  // (docs/perf.md). A target whose static edges are not all known
  // (fuzz/gpu/gpu_static_edges.h) keeps the immediate build.
  // kAuto: on CPU devices only.
  enum class DeferredCoverage { kAuto, kOn, kOff };
  DeferredCoverage deferred_coverage = DeferredCoverage::kAuto;
  // lavapipe's SIMD width in bits (its LP_NATIVE_VECTOR_WIDTH: 4 lanes at
  // 128, 8 at 256), set for the process before lavapipe first starts unless
  // the environment already names one; 0 leaves lavapipe's choice (the
  // widest the CPU has, up to 256). See fuzz/gpu/lavapipe_env.h, which also
  // gives each width its own shader cache. A loop runs as long as the
  // longest of its lanes, so an interpreter's divergent lanes cost less at
  // 4, straight-line work less at 8. 0 because 8 lanes ran every bundled
  // target faster on an AVX2 processor without AVX-512, 10 s campaigns
  // side by side (docs/perf.md, 2026-12-02): bytecode_vm 1.13x, lz_block
  // 1.13x, magic_checksum 1.17-1.22x, tlv 1.36-1.74x.
  uint32_t lavapipe_simd_bits = 0;
  // Where the buffers that the host reads every round live: the ring, the
  // find queue and the compare logs (the maps, the corpus and the patches
  // stay in device memory). kAuto: host (cached system memory) on GPUs,
  // where the host would read device memory uncached across PCIe, word by
  // word; lavapipe has one kind of memory.
  enum class RingMemory { kAuto, kHost, kDevice };
  RingMemory ring_memory = RingMemory::kAuto;
  // Finds one round can queue; 0 = the device's default (4,096 on CPU
  // devices, 16,384 on GPUs). A find that does not fit is not lost: its
  // coverage stays new and a later execution reaching it is queued.
  uint32_t find_capacity = 0;
  // The patch buffer's first index entries and data words (it doubles
  // from there as inputs are logged).
  uint64_t patch_inputs = kInitialPatchInputs;
  uint64_t patch_words = kInitialPatchWords;
  // Overlapped rounds (SubmitBatch): a second ring and find queue, so that
  // the next round is published and queued while the last one runs, and
  // the device never waits for the host between rounds. kAuto: on for GPUs
  // (with a signature build, its candidates are judged by the precise build
  // in a later, shorter flight); off on CPU devices, whose dispatches share
  // the host's cores (on lavapipe, tlv ran a quarter of its rate
  // overlapped).
  enum class Overlap { kAuto, kOn, kOff };
  Overlap overlap = Overlap::kAuto;
  // Rounds cut short for urgent work (RF_CTRL_CUT_EPOCH): they claim no
  // more slots, run the slots they claimed to the end, and drop the rest.
  // A round of the signature build cuts itself when it finds new (counter,
  // hit-count class) pairs, so that its candidates are judged and their
  // mutants run sooner; with overlap, a round queued with urgent work
  // (judgements of candidates with new coverage, compare logs of new
  // inputs, or new entries' first mutants: CutEarlierRounds) cuts the
  // rounds queued before it, so it starts once their claimed slots end.
  // Time decides where a round is cut, so a reproducible run turns it off.
  // Off here, so that a batch runs all of its work; the ringfuzz command
  // turns it on (-cut_rounds).
  bool cut_rounds = false;
  // Repetition trials (fuzz/gpu/repeat_trials.h): each input is also tried
  // followed by whole copies of itself, after its compare log. Off here;
  // the ringfuzz command turns it on for the executors it builds after a
  // stall (-repeat_trials).
  bool repeat_trials = false;
  // Input reduction (RF_PUSH_REDUCE, signature builds): one HAVOC slot in
  // RF_REDUCE_SLOT_SHARE runs its parent unmutated as each lane's first
  // mutant, and queues the shortest later mutant with the parent's
  // execution signature and fewer bytes (Find::reduces_parent). Off here;
  // the ringfuzz command turns it on (-reduce_inputs).
  bool reduce_inputs = false;
  // At most this many repetition trials (two per input at most) over the
  // executor's life, for the first inputs it logs: a stall's executor logs
  // the whole corpus at once, and at -max_len=4096 the default cap's trials
  // hold at most 32 MiB.
  uint64_t repeat_trial_cap = 8192;
  // Clock warm-up (fuzz/gpu/clock_warmer.h): while a build still runs
  // `warm_clock_delay` after device creation, every core of the device is
  // kept busy until the first round, so that the clock governor has not
  // lowered the clock by then. kAuto: on for GPUs, off for CPU devices
  // (lavapipe), whose cores the host needs for the build.
  enum class WarmClock { kAuto, kOn, kOff };
  WarmClock warm_clock = WarmClock::kAuto;
  absl::Duration warm_clock_delay = kClockWarmerDelay;
  absl::Duration dispatch_timeout = absl::Seconds(60);
  // Building the target's pipelines (the megakernels, their Vulkan
  // pipelines, and a first empty dispatch of each, where lavapipe compiles)
  // prints a progress line every 10 s and, past this (zero: no bound), an
  // ERROR line, then ends the process with status 1: a driver compile
  // cannot be cancelled (fuzz/gpu/gpu_build_notice.h, -compile_timeout).
  absl::Duration compile_timeout = kDefaultCompileTimeout;
  // Telemetry and steering: how long a dispatch the host stopped (SHUTDOWN)
  // may take to end before the device counts as hung.
  absl::Duration shutdown_grace = absl::Seconds(10);
  // Most bytes the executor's buffers may hold at once (-gpu_memory_mb;
  // 0 = no bound but the device's). Create fails when its fixed buffers
  // exceed it; AddInput fails with ResourceExhausted when the corpus buffer
  // cannot grow within it (nor within maxStorageBufferRange); past it, new
  // inputs get no input-to-state patches instead of a larger patch buffer
  // (their CMP mutants run as havoc), with one warning.
  uint64_t memory_bound = 0;
  // Receives a line ("INFO: GPU memory: ...", a WARNING) whenever a buffer
  // grows or stops growing; the start's line is MemoryLine(). Null: none.
  std::function<void(const std::string& line)> memory_log;
};

// How much work one batch should hold to keep this device busy.
struct BatchShape {
  uint32_t slots = 0;           // work items per batch
  uint32_t execs_per_slot = 0;  // mutants per work item
};

class GpuExecutor final : public Executor, public Steerable {
 public:
  static absl::StatusOr<std::unique_ptr<GpuExecutor>> Create(
      const GpuExecutorOptions& options);
  ~GpuExecutor() override;
  GpuExecutor(const GpuExecutor&) = delete;
  GpuExecutor& operator=(const GpuExecutor&) = delete;

  absl::StatusOr<uint32_t> AddInput(ByteSpan input) override;
  absl::Status SetDictionary(const std::vector<Bytes>& tokens) override;
  absl::StatusOr<BatchResult> RunBatch(absl::Span<const WorkItem> work,
                                       uint64_t seed) override;
  absl::StatusOr<BatchResult> Execute(ByteSpan input) override;
  // The corpus tools' calls (fuzz/gpu/gpu_executor_features.cc): ExecuteEach
  // runs the inputs as Execute's calibration runs do, a workgroup's worth
  // per dispatch slot; the ids are edge-map bits and site indices.
  absl::StatusOr<BatchResult> ExecuteEach(
      absl::Span<const Bytes> inputs) override;
  absl::StatusOr<CoverageIds> CoverageIdsSoFar() const override;
  absl::Status ResetCoverage() override;
  CoverageSummary Coverage() const override;
  // Counts the bits of an edge map (RF_EDGE_MAP_WORDS) and a site map
  // (RF_SITE_MAP_WORDS).
  static CoverageSummary CountCoverage(const uint32_t* edge_map,
                                       const uint32_t* site_map);
  size_t max_len() const override { return len_limit_; }
  uint64_t loop_steps() const override { return exec_steps_; }
  absl::StatusOr<std::vector<LineCoverage>> Lines() const override;
  std::vector<Bytes> AutoDictionary() const override;
  std::vector<Bytes> RecommendedDictionary() const override;
  bool compare_feedback() const override { return true; }
  // Overlapped rounds (GpuExecutorOptions::overlap): up to two batches in
  // flight. With a signature build, flights run it, except a flight with
  // service runs (compare logs, length trials, the signature candidates of
  // earlier flights to judge), which runs the precise build with its work
  // cut (PreciseFlightShare) and is BatchResult::off_pace. A batch that
  // cannot overlap (more items than ring slots) waits for those in
  // flight and runs as RunBatch does. Every other method waits for the
  // batches in flight first where it needs the device (their results wait
  // for CollectBatch).
  uint32_t overlap() const override { return overlap_ ? 2u : 1u; }
  absl::Status SubmitBatch(absl::Span<const WorkItem> work,
                           uint64_t seed) override;
  absl::StatusOr<BatchResult> CollectBatch() override;
  // True when the next CollectBatch reads a flight of the signature build:
  // its candidates wait for a later precise flight, so it adds no inputs.
  bool OldestBatchAddsNoInputs() const override;
  // GpuExecutorOptions::cut_rounds: the flights queued before the last one
  // submitted claim no more slots, unless one of them carries service runs
  // (whose results the executor needs whole). No-op without overlap.
  void CutEarlierRounds() override;
  // Turns GpuExecutorOptions::repeat_trials on: the inputs logged so far
  // get their repetition trials (within repeat_trial_cap) in the next
  // batches, the later ones after their compare logs.
  bool StartRepeatTrials() override;
  void SetStopCheck(std::function<bool()> check) override {
    stop_check_ = std::move(check);
  }

  BatchShape PreferredBatch() const;
  // The device memory the buffers hold now, by role (fuzz/gpu/gpu_memory.h),
  // and its one-line summary ("GPU memory: ..."; the caller adds "INFO: ").
  GpuMemory Memory() const;
  std::string MemoryLine() const;
  // How long the clock warmer kept the device busy during Create (zero if
  // it did not run; GpuExecutorOptions::warm_clock).
  absl::Duration clock_warm_time() const { return clock_warm_time_; }
  // Whether new inputs get no more input-to-state patches: the patch
  // buffer could not grow (GpuExecutorOptions::memory_bound).
  bool patches_capped() const { return patches_capped_; }
  // One line naming the device, e.g. "llvmpipe (...) [cpu, lavapipe, ...]".
  std::string DeviceDescription() const override;
  const vk::PhysicalDeviceInfo& device_info() const { return device_.info(); }
  // The precise build (Execute, candidate evaluation, and fuzzing batches
  // unless signature mode is on).
  const Megakernel& kernel() const { return precise_->kernel; }
  bool signature_mode() const { return fast_ != nullptr; }
  // Whether HAVOC, TRIM and REPLAY slots run on a havoc-only build
  // (GpuExecutorOptions::havoc_build).
  bool havoc_build() const { return havoc_ != nullptr; }
  // Whether the precise build defers its coverage
  // (GpuExecutorOptions::deferred_coverage), and why it does not on a CPU
  // device ("" if it does, or if it was not asked to).
  bool deferred_coverage() const { return kernel().deferred_coverage; }
  const std::string& deferred_coverage_refusal() const {
    return deferred_refusal_;
  }
  // Whether the ring lives in device memory (GpuExecutorOptions::
  // ring_memory).
  bool ring_in_device_memory() const { return ring_.device_local(); }
  // Whether fuzzing batches run the flat mutation engine.
  bool flat_mutation() const {
    return (fast_ != nullptr ? fast_ : precise_)->kernel.flat_mutation;
  }
  // Candidates re-run with precise coverage so far (signature mode).
  uint64_t candidates_evaluated() const { return candidates_evaluated_; }
  // Candidates that were new combinations of known hit-count classes and
  // found the backlog of such candidates full (overlapped signature
  // flights): never re-run.
  uint64_t candidates_dropped() const { return pending_trials_.dropped(); }
  // Dropped candidates whose signatures were un-marked so far
  // (AppendSeenClears).
  uint64_t candidates_unmarked() const { return candidates_unmarked_; }
  // Seen-table bits of dropped candidates that the next flights un-mark.
  const std::vector<uint32_t>& unmarks_waiting() const { return unseen_again_; }
  // Signature mode: signature_candidates_judged, _dropped and _unmarked.
  std::vector<std::pair<std::string, uint64_t>> ExecutorStats() const override;
  // A flight whose only service runs would be signature candidates that
  // recombine known hit-count classes (no compare log or length trial due,
  // no candidate with a new class) leaves them waiting until this many
  // flights were planned without service runs since the last flight with
  // them. A precise flight costs about the latency of one precise execution
  // of the slowest input it judges, however few it judges (bytecode_vm on
  // an H200: 3 ms, as long as a signature flight), and such candidates
  // rarely hold new coverage: judging them every third flight instead of
  // every other one ran 1.4x (bytecode_vm) and 1.15x (tlv) the executions
  // with the same coverage and feedback latency (docs/perf.md).
  static constexpr uint32_t kCombinationWaitFlights = 2;
  // Inputs whose probe pass one flight (PlanServiceRuns), or one RunBatch
  // that logged no new input, carries: a pass is kLinearProbeBytes + 1
  // logged runs an input, which lengthen the flight (and every find's
  // wait) by as much.
  static constexpr uint32_t kProbedInputsPerFlight = 1;
  // Flights without service runs after which a probe pass gets a (precise)
  // flight of its own (PlanServiceRuns), which carries up to
  // kProbedInputsPerOwnFlight inputs: no find waits on it. Such flights
  // run at the precise build's rate. At 256 flights and one input a pass,
  // an H100 solved lf_only_some_bytes in a median of 4.99 s (its inputs
  // waited in line), at 32 in 1.00 s. Campaigns without probe passes ran
  // 3-5% more executions (lz_block, tlv; bytecode_vm's seeds spread
  // +/-10%, more than that) on an H100 (docs/perf.md).
  static constexpr uint32_t kProbeIdleFlights = 32;
  static constexpr uint32_t kProbedInputsPerOwnFlight = 8;
  // Length trials and signature candidates waiting for a precise flight
  // (overlapped signature flights), and how many of them are urgent: length
  // trials and candidates with new hit-count classes (TrialQueue).
  size_t trials_waiting() const { return pending_trials_.size(); }
  size_t urgent_trials_waiting() const { return pending_trials_.urgent(); }
  // Input-to-state patches of corpus input `index` (derived from its own
  // compare log; fuzz/gpu/input_to_state.h). Empty until the input was logged:
  // RunBatch logs every input added before it, first thing.
  std::vector<InputPatch> InputToStatePatches(uint32_t index) const;
  // Corpus inputs whose comparisons were logged so far.
  uint32_t logged_inputs() const { return logged_inputs_; }
  // Corpus inputs whose probe pass ran (or that need none).
  uint32_t probed_inputs() const { return probed_inputs_; }
  // Probe passes planned so far (an input's pass is planned once), and
  // inputs that went without one because their colored copies showed no
  // byte a probe could tell about (LinearProbeWanted).
  uint64_t probe_passes() const { return probe_passes_; }
  uint64_t probes_skipped() const { return probes_skipped_; }
  // Mutants cut by their parent's loop budget (cut_slow_mutants), and the
  // budget `parent`'s next mutants get (0: the whole exec_steps).
  uint64_t mutant_cuts() const { return mutant_budget_.cuts(); }
  uint32_t mutant_budget(uint32_t parent) const {
    return mutant_budget_.For(parent);
  }
  // Linear-to-state trials derived from probe passes so far.
  uint64_t linear_trials() const { return linear_trials_; }
  uint32_t exec_steps() const { return exec_steps_; }
  // Validation-layer messages so far (0 unless validation is on).
  uint64_t validation_messages() const;
  std::string last_validation_message() const;
  // The raw wire buffers, for telemetry. Valid until the next call.
  absl::Span<const uint8_t> control_bytes() const { return control_.bytes(); }
  absl::Span<const uint8_t> ring_bytes() const;
  // Site map bits: which instrumented blocks have been reached.
  std::vector<bool> CoveredSites() const;

  // --- Steerable (fuzz/steer/steerable.h). Fuzzing rounds of
  // RunBatch are observed (not Execute and candidate evaluation); the ring
  // view of a round holds its published slots. A stopped dispatch that does
  // not end within shutdown_grace makes RunBatch fail with Unavailable and
  // the executor unusable: its Vulkan objects are then leaked on
  // destruction, since a device that runs forever cannot be waited for. ---
  Steerable* steerable() override { return this; }
  void SetDispatchObserver(DispatchObserver* observer) override {
    observer_ = observer;
  }
  std::optional<LaunchLimits> launch_limits() const override;
  absl::Status SetWorkerGroups(uint32_t groups) override;
  absl::Status SetTenantWords(const TenantWords& words) override;
  // Cancels the slots a stopped batch left published, publishes `slot` at
  // its index and runs it with the dispatch seed it ran with, one
  // workgroup, and min(exec_steps, device default) loop steps per execution.
  absl::StatusOr<BatchResult> ReplaySlot(const SuspectSlot& slot) override;
  bool hung() const { return hung_; }
  // Whether the device was lost (Vulkan said so, or a test injected it).
  bool lost() const { return lost_; }

 private:
  // A compiled megakernel build and its launcher (bound to the shared
  // buffers); with overlapped rounds the precise build has a second one,
  // bound to the second ring and find queue (parity 1).
  struct Program {
    Megakernel kernel;
    vk::ComputePipeline pipeline;
    std::unique_ptr<vk::Dispatcher> dispatcher;
    std::unique_ptr<vk::Dispatcher> second;
  };
  // A round submitted by SubmitBatch and not yet finished.
  struct Flight {
    uint32_t parity = 0;  // which ring and find queue
    uint32_t slot_count = 0;
    uint32_t push_seed = 0;
    bool stopped = false;  // the host stopped it (SHUTDOWN) before it began
    // Its RF_CTRL_PRIORITY_PARTITIONS words.
    std::array<uint32_t, RF_CTRL_PRIORITY_PARTITION_COUNT> partitions = {};
    bool service = false;  // its first slots are service_'s
    // The build it runs: the signature build, or the precise one for a
    // flight with service runs (and every flight without a signature build).
    Program* program = nullptr;
    uint32_t epoch = 0;  // its RF_CTRL_EPOCH
    bool cut = false;    // CutEarlierRounds cut it short
  };
  // Overlapped rounds: compare logs of new corpus inputs and length trials
  // ride in a flight, in its first slots (critical priority), instead of
  // stopping the pipeline to run alone. One such flight at a time: they
  // share the compare-log entries and the scratch corpus entries.
  // Most ring slots a flight's service runs take from its work.
  static constexpr uint32_t kServiceSlots = 4;
  // Signature flights (PreciseFlightShare). A precise flight holds the
  // judgement of the candidates of the flight two before it (and their
  // first mutants, AddSpeculativeRuns): the candidates found while it runs
  // wait for its end, so it is kept short. Assumed slowdown: the bundled
  // targets' campaigns on an H200 ran the precise build 8-19x slower
  // (docs/perf.md).
  static constexpr double kPreciseFlightDivisor = 4;
  static constexpr double kAssumedPreciseSlowdown = 8;
  static constexpr double kMaxPreciseShare = 256;
  static constexpr uint32_t kPendingCombinationFlights = 4;
  // Most seen-table words a flight's submission rewrites to un-mark the
  // signatures of dropped candidates (AppendSeenClears); the rest wait for
  // the next flight.
  static constexpr size_t kMaxSeenClearWords = 256;
  // Weight of the newest flight in the paces per execution.
  static constexpr double kPaceWeight = 0.25;
  // The copies logged beside corpus inputs [first, first + n): colored
  // copies (fuzz/gpu/colorization.h) beside their first log, probe copies
  // (fuzz/gpu/linear_to_state.h) in a probe pass. Copy j is scratch entry
  // j, logs into compare-log entry n + j, and was made from input first +
  // input[j]; a probe moved byte range[j].begin (a range of one byte), a
  // colored copy colored range[j].
  struct ColorCopies {
    std::vector<uint32_t> input;
    std::vector<ByteRange> range;
    std::vector<Bytes> data;
    uint32_t size() const { return static_cast<uint32_t>(data.size()); }
  };
  // Runs of inputs [first, first + n) (corpus-buffer indices), unmutated;
  // compare logs (RF_OP_CMPLOG) into entries log_base .. log_base + n - 1.
  struct InputRange {
    uint32_t first = 0;
    uint32_t n = 0;
    uint32_t log_base = 0;
  };
  struct ServiceRuns {
    uint32_t slots = 0;        // ring slots [0, slots) of the flight
    uint32_t log_first = 0;    // corpus inputs [log_first, +log_count) logged
    uint32_t log_count = 0;    // (compare-log entries 0 .. log_count-1)
    ColorCopies copies;        // scratch entries 0 .. copies.size() - 1
    bool probe_pass = false;   // the logs are a probe pass's (PlanProbeCopies)
    std::vector<Find> trials;  // length trials, scratch entries after them
    // Trials [0, urgent) are urgent ones (TrialQueue).
    uint32_t urgent = 0;
    // Ring slots [slots, slots + speculative) run mutants of trials 0 ..
    // speculative - 1 (SubmitBatch), one slot each.
    uint32_t speculative = 0;
  };
  // A trial whose mutants a precise flight runs: its corpus parent and the
  // mutations that made it from that parent.
  struct Speculated {
    uint32_t parent = 0;
    std::vector<uint32_t> mutations;
  };

  GpuExecutor(vk::Instance instance, vk::Device device, vk::Buffer control,
              vk::Buffer ring, vk::Buffer finds, vk::Buffer dict,
              vk::Buffer cmplog, const GpuExecutorOptions& options);

  // Most mutations stacked on one mutant (WorkItem::stack is clamped to it).
  static constexpr uint32_t kMaxStack = 8;
  // Input-to-state patches kept per corpus input (fuzz/gpu/input_to_state.h):
  // a CMP mutant draws one of them uniformly.
  static constexpr size_t kMaxPatchesPerInput = 128;
  // Inputs longer than this get no colored copies: a copy's ranges are
  // then long, and rarely keep the path.
  static constexpr size_t kMaxColorLength = 4096;
  // The seed of a slot or dispatch from the batch's seed (a 64-bit mix).
  static uint32_t Mix(uint64_t x);
  absl::Status AddProgram(Megakernel kernel, std::unique_ptr<Program>& slot,
                          bool second = false);
  // Runs one empty dispatch (no slots) of every program and waits for it:
  // lavapipe compiles a pipeline's code at its first dispatch, which this
  // brings into the watched build (GpuExecutorOptions::compile_timeout).
  absl::Status WarmUp();
  // The ring, find queue and launcher of `parity` (0: the ones every
  // synchronous dispatch uses).
  vk::Buffer& RingOf(uint32_t parity) { return parity == 0 ? ring_ : *ring2_; }
  const vk::Buffer& RingOf(uint32_t parity) const {
    return parity == 0 ? ring_ : *ring2_;
  }
  vk::Buffer& FindsOf(uint32_t parity) {
    return parity == 0 ? finds_ : *finds2_;
  }
  static vk::Dispatcher& DispatcherOf(Program& program, uint32_t parity) {
    return parity == 0 ? *program.dispatcher : *program.second;
  }
  // Marks the executor hung (a dispatch did not end in time) and returns
  // the error that says so.
  absl::Status Hung();
  // Returns `status`, after marking the device lost when it says the device
  // was lost (Unavailable: VK_ERROR_DEVICE_LOST, runtime/vk_check.h).
  absl::Status NoteLoss(absl::Status status);
  // FailedPrecondition once hung: nothing may run, and no buffer a running
  // dispatch uses may be freed or replaced.
  absl::Status CheckUsable() const;
  // Overlapped rounds: waits for the oldest flight and appends its result
  // to finished_; Quiesce does so for every flight.
  void FinishOldest();
  absl::Status Quiesce();
  // Waits for `flight` (the oldest) and reads its result; `unfinished`:
  // slots of it are still published (lanes ran out of loop budget).
  absl::StatusOr<BatchResult> FlightResult(const Flight& flight,
                                           bool& unfinished);
  // The build that runs fuzzing slots of work kind `opcode`.
  Program& ProgramFor(uint32_t opcode);
  absl::Status BindAll();
  // Corpus buffer layout: the index of corpus_capacity_ + scratch_entries_
  // entries, scratch_entries_ * max_words words of scratch inputs (Execute
  // and candidates), the corpus data, then max_words words of padding.
  uint64_t IndexWords() const;
  uint64_t ScratchOffset(uint32_t i) const;
  uint64_t DataStart() const;
  absl::Status RebuildCorpus(uint32_t capacity, uint64_t data_words);
  // OK iff a buffer of `new_bytes` may be made for `what` (a growing
  // buffer, whose `old_bytes` stay held until the new one is filled):
  // within maxStorageBufferRange and, with both held, within the memory
  // bound. Else ResourceExhausted naming the sizes and `fix`.
  absl::Status CheckGrowth(const std::string& what, uint64_t old_bytes,
                           uint64_t new_bytes, const std::string& fix) const;
  // Sends "INFO: GPU memory: ... after <event>" to the memory log.
  void LogMemory(const std::string& event) const;
  // After the patch buffer could not grow (`why`): inputs from `first` on
  // keep no patches (their CMP mutants run as havoc) and none get any from
  // now on; warns once.
  void CapPatches(uint32_t first, const absl::Status& why);
  void WriteCorpusEntry(uint32_t index, uint64_t offset_words, ByteSpan input);
  // Writes slot `s` for `item`, status EMPTY: invisible to the GPU until
  // MarkPublished.
  void PublishSlot(uint32_t s, const WorkItem& item, uint32_t seed,
                   uint32_t parity = 0);
  // Sets slots [0, count) to PUBLISHED. Called after all their other words
  // are written: a slot is visible to the GPU only once fully written.
  void MarkPublished(uint32_t count, uint32_t parity = 0);
  // The push constants of a fuzzing dispatch over slots [0, slot_count).
  MegakernelPush MakePush(uint32_t slot_count, uint32_t seed) const;
  // Runs published slots [0, slot_count) of ring `parity` on `program` to
  // completion; appends executions and finds to `result`, candidates to
  // `candidates`. Needs no flight in the air.
  absl::Status Drain(Program& program, uint32_t slot_count, uint64_t seed,
                     BatchResult& result, std::vector<Find>& candidates,
                     uint32_t parity = 0);
  // Turns the find queue of `parity` into finds, reading its counts from
  // `counters` (control-buffer layout up to RF_RES_EDGE_MAP: the live
  // control words, or a flight's snapshot).
  // An entry the protocol does not define (an unknown kind) is an error.
  absl::Status CollectFinds(const uint32_t* counters, uint32_t parity,
                            BatchResult& result, std::vector<Find>& candidates);
  // Adds the per-mutator execution counters (RF_RES_MUTATOR_USE_WORDS
  // words at `uses`) to `result.mutator_executions`.
  void CollectMutatorUses(const uint32_t* uses, BatchResult& result);
  // Appends the cost of each of the first `slot_count` slots of ring
  // `parity` that completed (DONE or FAULT) with executions, and mutated a
  // corpus input (not a compare log or calibration), to `result.costs`,
  // with the tick of its first claim; anchors the device clock's rate to
  // the batch's start (result.clock_tick_ns).
  void CollectCosts(uint32_t slot_count, BatchResult& result,
                    uint32_t parity = 0);
  // Feeds a finished batch's costs to the mutant loop budgets, once per
  // batch (RunBatch, CollectBatch).
  void ObserveCosts(const BatchResult& result);
  // Slots of the first `slot_count` of ring `parity` still PUBLISHED or
  // REQUEUE, and the executions they still had to run (one pass).
  struct PendingWork {
    uint32_t slots = 0;       // PUBLISHED or REQUEUE
    uint64_t executions = 0;  // theirs not run
    // Of DONE slots that stopped short of their count (a cut, a stop): the
    // executions they did not run.
    uint64_t stopped_short = 0;
  };
  PendingWork Pending(uint32_t slot_count, uint32_t parity) const;
  // Adds the last dispatch of `dispatcher` to `result`'s device interval.
  static void AddInterval(const vk::Dispatcher& dispatcher,
                          BatchResult& result);
  // Adds `from`'s device interval, if it has one, to `to`'s.
  static void AddInterval(const BatchResult& from, BatchResult& to);
  // Publishes runs of the `n` inputs first .. first+n-1 (corpus-buffer
  // indices), unmutated, as slots of work kind `opcode` (RF_OP_CALIBRATE or
  // RF_OP_CMPLOG: compare-log entries 0 .. n-1), one per workgroup's worth;
  // returns the number of slots.
  absl::StatusOr<uint32_t> PublishInputRuns(uint32_t opcode, uint32_t first,
                                            uint32_t n);
  // The same for several ranges, each with its own compare-log entries.
  absl::StatusOr<uint32_t> PublishInputRuns(
      uint32_t opcode, absl::Span<const InputRange> ranges);
  // The work items that run the inputs of `range` unmutated, `per_slot` to
  // a slot, at critical priority (RF_OP_CMPLOG: item k's inputs log into
  // entries range.log_base + k * per_slot ..).
  static std::vector<WorkItem> InputRuns(uint32_t opcode, InputRange range,
                                         uint32_t per_slot);
  // How many of the corpus inputs from `first` on (at most `most`) are
  // logged next, with their colored copies (none when colorization is
  // off): the inputs and their copies take at most `log_room` compare-log
  // entries and the copies at most `scratch_room` scratch entries. Fills
  // `copies` and writes them to their scratch entries.
  uint32_t PlanColorCopies(uint32_t first, uint32_t most, uint32_t log_room,
                           uint32_t scratch_room, ColorCopies& copies);
  // The probe pass next (fuzz/gpu/linear_to_state.h): the newest logged
  // input without its pass, and the ones without it just before it (at
  // most `most` in all), are logged again beside their probe copies,
  // within `log_room` compare-log entries and `scratch_room` scratch
  // entries. Sets `first` (the oldest of them), fills `copies` and writes
  // them to their scratch entries; returns how many (0: none waits).
  // Newest first: a find's pass comes before those of the inputs it grew
  // from, so a chain of finds (a record's checksum, then its type) is
  // followed as fast as it goes. Marks probed the newer inputs passed over
  // that have no probes. Probes come after the inputs' own logs and never
  // in their dispatch: they feed trials only, and the candidates and first
  // mutants of a burst of new inputs must not wait for them.
  uint32_t PlanProbeCopies(uint32_t most, uint32_t log_room,
                           uint32_t scratch_room, ColorCopies& copies,
                           uint32_t& first);
  // Returns inputs [first, first + n), planned by PlanProbeCopies but not
  // logged (their flight stopped early), to those that wait for a pass.
  void PutBackProbes(uint32_t first, uint32_t n);
  // The finds of compare-log runs (`from`) that `copies` gives: a colored
  // copy's fault or new coverage, as found by input first + input[j]'s
  // compare-log run (its other finds are corpus inputs again).
  void KeepCopyFinds(std::vector<Find>& from, uint32_t first,
                     const ColorCopies& copies, std::vector<Find>& to) const;
  // Runs every corpus input added since the last call once more on the
  // precise build with its comparisons logged (RF_OP_CMPLOG), and stores
  // the input-to-state patches derived from each input's own log in the
  // patch buffer; then runs each input resized to the lengths its log
  // suggests (fuzz/gpu/length_to_state.h): appends them to `trials`, as CMP
  // mutants of that input, for the caller to Calibrate (with the batch's
  // other candidates, in one dispatch).
  // The colored copies' finds (KeepCopyFinds) go to `result`, the
  // dispatches' device interval to `span`.
  absl::Status LogNewInputs(std::vector<Find>& trials, BatchResult& result,
                            BatchResult& span);
  // One dispatch of the precise build that logs corpus inputs [first,
  // first + n) into compare-log entries 0 .. n-1 and `copies` (written to
  // their scratch entries) after them; the copies' finds (KeepCopyFinds)
  // go to `result`, the dispatch's device interval to `span`.
  absl::Status LogWithCopies(uint32_t first, uint32_t n,
                             const ColorCopies& copies, BatchResult& result,
                             BatchResult& span);
  // Derives the patches and length trials of corpus inputs [first, first +
  // n) from compare-log entries 0 .. n-1 and their colored copies' entries
  // after them (appending to patch_index_, patch_data_ and `trials`); the
  // patch buffer is not touched.
  void DeriveFromLogs(uint32_t first, uint32_t n, const ColorCopies& copies,
                      std::vector<Find>& trials);
  // Compare-log entry `e`: fills `records` with the comparisons stored and
  // returns those made (ReadCompareLog).
  uint32_t ReadLogEntry(uint32_t e, std::vector<CompareRecord>& records) const;
  // Appends the linear-to-state trials of corpus inputs [first, first + n)
  // to `trials`, from a probe pass: their logs in compare-log entries
  // 0 .. n-1, their probe copies' (`copies`) after them.
  void DeriveLinearFromLogs(uint32_t first, uint32_t n,
                            const ColorCopies& copies,
                            std::vector<Find>& trials);
  // Appends corpus input `index`'s repetition trials (DeriveRepeats at
  // len_limit_) to `trials`, while repeat_trials_made_ is under the cap.
  void AddRepeatTrials(uint32_t index, std::vector<Find>& trials);
  // Makes the patch buffer hold `inputs` index entries and `data_words`
  // words of patches, replacing it (after Quiesce) when it does not.
  absl::Status ReservePatches(uint32_t inputs, uint64_t data_words);
  // Overlapped rounds: plans service_ for a flight with `room` free slots
  // and returns its work items (empty when none is due or one is in the
  // air; combinations alone are due only every kCombinationWaitFlights + 1
  // flights); writes the trials' scratch entries.
  absl::StatusOr<std::vector<WorkItem>> PlanServiceRuns(uint32_t room);
  // Reads what service_ ran in the flight of `parity` that just ended into
  // `result` (its finds, less its executions) and the patch buffer.
  absl::Status FinishServiceRuns(uint32_t parity, BatchResult& result);
  // Whether `find` came from a service run of a flight (a compare log, or a
  // length trial on a scratch entry) rather than from its work.
  bool IsServiceFind(const Find& find) const;
  // Signature flights: by how much a precise flight divides its work
  // items' mutants: kPreciseFlightDivisor times the precise build's
  // slowdown per execution against the signature build (measured,
  // kAssumedPreciseSlowdown until both builds ran), so that it takes about
  // 1/kPreciseFlightDivisor of a signature flight's time.
  double PreciseFlightShare() const;
  // Puts, after the `service_slots` service runs of `items`, one slot of
  // mutants for each of the first service_.trials, in place of as many of
  // the work's least urgent items (at most half of them; spread over its
  // LOW items where there are enough): a trial that the flight
  // confirms as a new input then has its first mutants run in the same
  // flight, not two flights later. Fills service_.speculative and
  // speculated_; returns the slots put in.
  uint32_t AddSpeculativeRuns(std::vector<WorkItem>& items,
                              uint32_t service_slots);
  // A find of a speculative run's mutant names the trial's corpus parent,
  // and the trial's mutations before its own; other finds stay as they are.
  void NameSpeculativeParent(Find& find) const;
  // The device clock of ring `parity`'s slot `s`'s first claim (0 when it
  // has not run).
  uint64_t FirstClaimClock(uint32_t parity, uint32_t s,
                           const BatchResult& result);
  // The raw device clock that ring `parity`'s slot `s` stored at its first
  // claim (0 before).
  uint64_t RawClaimClock(uint32_t parity, uint32_t s) const;
  // Notes a collected flight's device time per execution of its work.
  void NotePace(const Program& program, const BatchResult& result);
  // Keeps a signature flight's candidates for the precise build to judge
  // in a later flight's service runs.
  void QueueCandidates(std::vector<Find>& candidates);
  // Adds to `commands` the writes that un-mark the seen-table bits of
  // dropped candidates (unseen_again_), at most kMaxSeenClearWords words:
  // each word as the host reads it now, less those bits. A bit that a
  // running flight sets in such a word after the read is cleared too; its
  // signature is then merely a candidate once more.
  void AppendSeenClears(vk::DispatchCommands& commands);
  // Copies the host's patch lists (patch_index_, patch_data_) to the patch
  // buffer, making it larger when they do not fit.
  absl::Status UploadPatches(uint32_t first_input);
  // Runs `inputs` (at most scratch_entries_) once each with precise
  // coverage; appends their finds to `result` (executions not counted).
  absl::Status Calibrate(const std::vector<Find>& inputs, BatchResult& result);
  // Binds the executor's buffers to `program`'s dispatchers.
  absl::Status BindProgram(Program& program);
  // Telemetry and steering: waits for the dispatch of `program` like
  // Wait(dispatch_timeout_), polling the observer (if this round is
  // observed) every poll_interval(); stops the dispatch when it asks to.
  // Waits on `dispatcher`, polling the observer (when steered) and the stop
  // check; a stop (observer or check) sets SHUTDOWN and ends the dispatch,
  // and with overlapped rounds also the flights queued behind (they then
  // claim nothing).
  absl::StatusOr<bool> WaitForDispatch(vk::Dispatcher& dispatcher,
                                       uint32_t slot_count, uint32_t push_seed,
                                       uint32_t parity = 0);
  // `control`: the control words to show (null: the live ones).
  WireView Wire(uint32_t slot_count, uint32_t push_seed, uint32_t parity = 0,
                const uint32_t* control = nullptr) const;
  // Tells the observer that a round ended (see DispatchObserver); `cut`:
  // it was cut short (RF_CTRL_CUT_EPOCH), so its pending slots will not
  // run.
  void NotifyEpochEnd(uint32_t slot_count, uint32_t push_seed,
                      uint32_t parity = 0, const uint32_t* control = nullptr,
                      bool cut = false);

  vk::Instance instance_;
  vk::Device device_;
  // Runs only during Create; ~GpuExecutor stops it before anything else.
  std::unique_ptr<DelayedClockWarmer> clock_warmer_;
  absl::Duration clock_warm_time_ = absl::ZeroDuration();
  vk::Buffer control_;
  vk::Buffer ring_;
  vk::Buffer finds_;
  vk::Buffer dict_;
  vk::Buffer cmplog_;  // log_capacity_ compare-log entries
  // Overlapped rounds (null without): the second ring and find queue, and
  // per parity a snapshot of the control words a round leaves
  // (kSnapshotWords each, fuzz/gpu/gpu_memory.h), copied on the device right
  // after the round, before the next one resets them. The host reads them from
  // its own memory: on a discrete GPU reading the control buffer's maps word by
  // word over PCIe took 1.8 ms a round.
  std::unique_ptr<vk::Buffer> ring2_;
  std::unique_ptr<vk::Buffer> finds2_;
  std::unique_ptr<vk::Buffer> snapshots_;
  // DeriveFromLogs gives each host thread at least this many inputs.
  static constexpr size_t kInputsPerDeriveTask = 4;
  bool overlap_ = false;
  std::deque<Flight> flights_;
  // Quiesces that waited for flights, and their host time, since the last
  // batch CollectBatch returned (BatchResult::quiesces).
  uint32_t quiesces_ = 0;
  absl::Duration quiesce_time_;
  std::deque<absl::StatusOr<BatchResult>> finished_;
  ServiceRuns service_;
  bool service_in_flight_ = false;
  // Length trials and signature candidates not yet in a flight: at most
  // kPendingCombinationFlights flights' worth of candidates that only
  // recombine known hit-count classes wait (set up in Create).
  TrialQueue pending_trials_{0};
  // Loop budgets of the signature build's mutants, per parent; observed
  // from the costs of each batch once (ObserveCosts).
  MutantBudget mutant_budget_{0, 0};
  // Seen-table bits (RF_RES_SEEN) of candidates dropped from
  // pending_trials_: the next flights un-mark them (AppendSeenClears), so
  // that a later execution with such a signature is a candidate again, as
  // one that found the find queue full is (the device un-marks those).
  std::vector<uint32_t> unseen_again_;
  uint64_t candidates_unmarked_ = 0;
  // Flights planned without service runs since the last one with them
  // (kCombinationWaitFlights; flights planned while service runs were in
  // the air do not count).
  uint32_t flights_without_service_ = 0;
  // The trials whose mutants the precise flight in the air runs (cleared
  // when it has finished: corpus indices past the scratch entries' may be
  // real inputs once the corpus buffer grows): trial i is scratch corpus
  // entry speculated_first_ + i.
  std::vector<Speculated> speculated_;
  uint32_t speculated_first_ = 0;
  // Device time per execution of the work of the flights that ran each
  // build (an average weighting recent flights most; 0 until measured),
  // for PreciseFlightShare.
  double precise_ns_per_exec_ = 0;
  double fast_ns_per_exec_ = 0;
  uint32_t next_parity_ = 0;
  uint32_t control_epoch_ = 0;       // RF_CTRL_EPOCH of the last flight
  bool cut_rounds_ = false;          // GpuExecutorOptions::cut_rounds
  bool repeat_trials_ = false;       // GpuExecutorOptions::repeat_trials
  uint64_t repeat_trial_cap_ = 0;    // GpuExecutorOptions::repeat_trial_cap
  uint64_t repeat_trials_made_ = 0;  // of at most repeat_trial_cap_
  // Drain's dispatches are fuzzing rounds that cut themselves on an urgent
  // find (RF_PUSH_CUT_ON_FIND).
  bool cut_on_find_ = false;
  std::unique_ptr<vk::Buffer> corpus_;   // replaced when it grows
  std::unique_ptr<vk::Buffer> patches_;  // replaced when it grows
  std::unique_ptr<Program> precise_;
  std::unique_ptr<Program> fast_;  // signature build; null in precise mode
  // Havoc-only signature build (GpuExecutorOptions::havoc_build); null when
  // there is none.
  std::unique_ptr<Program> havoc_;
  std::string deferred_refusal_;  // see deferred_coverage_refusal

  std::vector<Bytes> inputs_;       // host mirror of the corpus buffer
  uint32_t corpus_capacity_ = 0;    // index entries for corpus inputs
  uint64_t corpus_data_words_ = 0;  // data region size
  uint64_t corpus_cursor_ = 0;      // next free data word
  uint32_t scratch_entries_ = 0;
  // Input-to-state: inputs [0, logged_inputs_) have their patches; host
  // copy of the patch buffer: per input (offset into patch_data_, count),
  // and the patches (RF_PATCH_WORDS each). The buffer's index has room for
  // patch_index_capacity_ inputs, its data for patch_data_capacity_ words.
  uint32_t log_capacity_ = 0;
  bool colorize_ = true;
  uint32_t logged_inputs_ = 0;
  // Logged inputs that had their probe pass (or need none). Passes go
  // newest input first (PlanProbeCopies).
  uint32_t probed_inputs_ = 0;
  // Logged inputs [0, probe_queued_) have been queued; of them, those that
  // wait for a pass not yet planned, ascending (PlanProbeCopies takes
  // from the back: one step per input, however many are probed). An input
  // leaves the stack when its pass is planned and comes back only if that
  // pass was not logged (PutBackProbes), so no pass is planned twice.
  std::vector<uint32_t> probe_waiting_;
  uint32_t probe_queued_ = 0;
  // Per logged input: whether its probe pass is wanted (LinearProbeWanted);
  // inputs past its end are.
  std::vector<bool> probe_wanted_;
  uint64_t probe_passes_ = 0;    // see probe_passes()
  uint64_t probes_skipped_ = 0;  // see probes_skipped()
  uint64_t linear_trials_ = 0;   // see linear_trials()
  std::vector<uint32_t> patch_index_;
  std::vector<uint32_t> patch_data_;
  uint32_t patch_index_capacity_ = 0;
  uint64_t patch_data_capacity_ = 0;
  bool patches_capped_ = false;  // see patches_capped()
  uint64_t memory_bound_ = 0;    // GpuExecutorOptions::memory_bound
  std::function<void(const std::string&)> memory_log_;
  uint64_t candidates_evaluated_ = 0;
  uint32_t dict_count_ = 0;
  uint32_t ring_slots_ = 0;
  // The device clock's rate (CollectCosts anchors it once per batch).
  DeviceClockFit clock_fit_;
  uint32_t find_capacity_ = 0;
  uint64_t patch_start_inputs_ = 1, patch_start_words_ = 1;  // see options
  uint32_t step_budget_ = 0;
  uint32_t exec_steps_ = 0;
  uint32_t groups_ = 0;
  uint32_t epoch_ = 0;
  bool lost_ = false;       // the device is lost
  uint32_t max_len_ = 0;    // of the build: a whole number of words
  uint32_t len_limit_ = 0;  // what inputs may hold (GpuExecutorOptions)
  uint32_t push_flags_ = 0;
  mutable CoverageSummary coverage_;                       // Coverage() cache
  mutable std::vector<uint8_t> control_copy_, ring_copy_;  // for Wire()
  mutable bool coverage_stale_ = true;
  absl::Duration dispatch_timeout_;
  // Wall time from submission to completion of every dispatch so far.
  absl::Duration device_time_;
  // Telemetry and steering.
  DispatchObserver* observer_ = nullptr;
  DispatchObserver* steered_ = nullptr;  // observer_ during fuzzing rounds
  bool host_stopped_ = false;            // the observer stopped the last batch
  bool hung_ = false;                    // a stopped dispatch never ended
  std::optional<uint32_t> replay_push_seed_;  // set while replaying a slot
  uint32_t replay_exec_steps_ = 0;
  absl::Duration shutdown_grace_;
  std::function<bool()> stop_check_;  // see Executor::SetStopCheck
  // Whether the dispatch waited for is a fuzzing round that the stop check
  // may end (never calibration or compare logging: their inputs are finds).
  bool stoppable_ = false;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_GPU_EXECUTOR_H_

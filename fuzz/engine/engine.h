// The fuzzing engine: libFuzzer's driver and loop, batch-shaped.
//
// The engine owns the corpus, the scheduling and everything written to disk
// or to the log; the Executor only runs work. Behaviour follows libFuzzer
// so that its users, scripts and log parsers feel at home:
//
//  * Positional arguments that are all regular files: each is run
//    max(1, -runs) times, unmutated ("Running: F" / "Executed F in N ms").
//    No artifacts are written (the input already is a file).
//  * Otherwise they are corpus directories (none: the corpus lives in
//    memory). The first is the output corpus (created if missing); new
//    inputs are saved there as <sha1>. Seeds run once each, smallest first;
//    seeds that add coverage form the initial corpus. With no seed files a
//    single "\n" runs (libFuzzer's choice: a one-byte valid ASCII input that
//    mutators can grow and change). If nothing added coverage, "\n" joins
//    the in-memory corpus anyway so that fuzzing can start.
//  * Then batches from the Scheduler run until -runs executions (exact,
//    counting the seeds; seeds always run even if there are more of them),
//    -max_total_time, or the first bug. Executions are counted by the
//    executor, never assumed; NEW lines show the count after the batch.
//  * pulse lines when the execution count passes a power of two (and at
//    least 2 s have passed, as libFuzzer), and every -report_interval s.
//  * Fresh entries first: an entry found by a batch gets HIGH-priority
//    items in the next one (Scheduler, BatchPlan::fresh).
//  * Rounds sized by time (Config::adaptive_rounds): the mutants per slot
//    follow the measured exec/s so that a batch takes about -round_ms
//    (RoundSizer), at most the configured shape.
//  * Feedback latency and device busy share are measured (FeedbackLatency)
//    and printed with -print_final_stats=1 and in the Done area, as are
//    executions and new inputs per mutator (fuzz/engine/mutators.h) when the
//    executor counts them. NEW lines and bug reports name the mutators
//    that made the input ("MS: 2 ChangeBit-EraseBytes-"), or its work kind
//    when the executor does not say.
//  * -reload=S (libFuzzer's, default 1): every S seconds between batches,
//    the files that other processes put into the first corpus directory
//    (CorpusReloader) run once each, as seeds do; those that add coverage
//    join the corpus without being written again, and a "#N RELOAD" line
//    follows. The workers of a multi-device campaign
//    (fuzz/workers/multi_device.h) share their finds this way. Their executions
//    count towards -runs, which stays exact: files that do not fit what is left
//    wait.
//  * An executor that cannot take another corpus input for lack of memory
//    (ResourceExhausted: -gpu_memory_mb, the device's limits) ends the
//    run with exit 1 once the batches in flight are back; what they and
//    the failing batch found is saved into the corpus directory, though
//    not fuzzed, so nothing found is lost.
//  * -report=DIR: a campaign's report (fuzz/report/report_writer.h),
//    sampled about once a second from the fuzzing loop, rewritten every few
//    seconds and once when the run ends, however it ends. Running files
//    writes none.
//  * Fuzzing is steered by the executor's ring telemetry
//  (fuzz/steer/steering.h):
//    batch geometry, tenant shares, aged parents, -telemetry_out and
//    -dump_buffers. When a dispatch stalls, its claimed slots are replayed
//    one by one; the input that hangs is reported as a timeout
//    (timeout-<sha1>). A device that hangs for good ends the run with an
//    error; every input found before is already saved in the corpus
//    directory.
//
// Exit codes: 0 when done; -error_exitcode for crashes and overreads,
// -timeout_exitcode for timeouts; 1 for usage, I/O and executor errors,
// which are printed as "ERROR: ..." with what to do about them.
#ifndef RINGFUZZ_FUZZ_ENGINE_ENGINE_H_
#define RINGFUZZ_FUZZ_ENGINE_ENGINE_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "corpus/async_writer.h"
#include "corpus/corpus.h"
#include "corpus/corpus_reload.h"
#include "corpus/work_dir.h"
#include "fuzz/engine/clock.h"
#include "fuzz/engine/config.h"
#include "fuzz/engine/executor.h"
#include "fuzz/engine/feedback_latency.h"
#include "fuzz/engine/round_sizer.h"
#include "fuzz/engine/scheduler.h"
#include "fuzz/engine/status_line.h"
#include "fuzz/engine/timeout_judge.h"
#include "fuzz/report/report_writer.h"
#include "fuzz/steer/steering.h"

namespace ringfuzz {

// Batch shape used when -batch_slots / -slot_execs are 0 and the executor
// factory did not choose one for its device.
inline constexpr uint32_t kDefaultBatchSlots = 256;
inline constexpr uint32_t kDefaultSlotExecs = 1024;

// Target wall time of one batch when rounds are sized by time
// (Config::adaptive_rounds) and -round_ms is 0; the executor factory picks
// one for its device. The trade: a shorter round lets the search react to
// a find sooner (its mutants run in the next round), a longer one spends
// less of the device's time on the fixed cost of a round (launch, ring
// publication, find readback, host scheduling) and on the round's tail
// (its slowest workgroup). On the H200 (docs/perf.md) 10 ms rounds kept
// the device 87% busy and ran 0.62-0.76x the exec/s of 0.3-2.5 s rounds,
// 30 ms rounds 94% and 0.71-0.90x, with the same bugs found in 0.4 s;
// lavapipe's fixed cost (thread wake-ups, a workgroup's set-up per slot,
// host-side ring work on the same cores) is tens of milliseconds, so its
// rounds are longer. kCpuRoundTime is also the engine's default when no
// factory chose.
inline constexpr absl::Duration kGpuRoundTime = absl::Milliseconds(30);
// Rounds that overlap (Executor::overlap() > 1) hide the host's work behind
// the next round, so they can be short: a find's mutants run two rounds
// later.
inline constexpr absl::Duration kOverlappedRoundTime = absl::Milliseconds(3);
inline constexpr absl::Duration kCpuRoundTime = absl::Milliseconds(40);
// Rounds paced to the precise flights (Config::paced_rounds). A signature
// executor's precise flights (BatchResult::off_pace) last about the latency
// of one precise execution of the slowest input they judge, however little
// they run: bytecode_vm's 3.1-3.3 ms on an H100, as long as a 3 ms
// signature round, so they took half the device's time. While they last
// long, signature rounds aim at kRoundsPerPreciseFlight times their
// (smoothed) length, within [the target, kMaxPacedRound times the target]:
// on an H100 6 ms rounds against 3 ms ran bytecode_vm 1.17x faster with a
// feedback latency p99 of 8.0/7.9 ms against 11.7/12.8 ms, while
// magic_checksum, whose precise flights are short, lost 7-18% at 6 ms
// (docs/perf.md), so targets with short precise flights keep the target.
inline constexpr double kRoundsPerPreciseFlight = 2;
inline constexpr double kMaxPacedRound = 2;
// The weight of the newest precise flight in the smoothed length.
inline constexpr double kPreciseFlightWeight = 0.25;
// An overlapped round that gives new entries their first mutants is not
// queued behind when rounds take more than this many times their target
// (rounds held above the target by their floor, or by a GPU still raising
// its clocks): its finds' mutants then run in the very next round, after
// the host's turnaround, instead of waiting for a whole queued round (see
// Engine::HoldBehind). On the H200 1 gave a lower p99 latency than 2 in 6
// of 8 campaigns at the same exec/s (docs/perf.md).
inline constexpr double kHoldRoundFactor = 1;

// The exit code of usage, I/O and executor errors (libFuzzer's).
inline constexpr int kErrorExit = 1;

class Engine {
 public:
  // `config`, `executor`, `out` and `clock` must outlive the engine. `out`
  // receives the whole log (libFuzzer writes it to stderr).
  // `steering` sets the stall detection's timing (its paths come from
  // config.telemetry_out and config.dump_buffers).
  Engine(const Config& config, Executor& executor, std::ostream& out,
         Clock& clock = RealClock(), SteeringOptions steering = {});
  // The same, with the engine owning `executor`: when it is replaced (a
  // lost device, the value-profile switch) it is destroyed, so its device
  // memory is freed instead of held until the campaign ends.
  Engine(const Config& config, std::unique_ptr<Executor> executor,
         std::ostream& out, Clock& clock = RealClock(),
         SteeringOptions steering = {});
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Runs once (see the file comment) and returns the process exit code.
  int Run(const std::vector<std::string>& positional);

  // Makes a new executor like the one given to the constructor; with it the
  // engine survives a lost device (RecoverDevice). Call before Run.
  using ExecutorFactory =
      std::function<absl::StatusOr<std::unique_ptr<Executor>>()>;
  void SetExecutorFactory(ExecutorFactory factory) {
    remake_ = std::move(factory);
  }
  // Makes the executor again with value profile on (-auto_value_profile):
  // once the fuzzing loop has run config.auto_value_profile seconds (or
  // config.quiet_execs executions and at least kMinQuietTime) without a
  // new corpus input, the engine lets the batches in flight end,
  // replaces its executor with one from this factory (the corpus and the
  // dictionary given to it, each input run once, as after a lost device)
  // and goes on; a device lost later is remade by this factory too. Where
  // the factory fails, the campaign goes on with the executor it has (a
  // warning says why). Unset (or auto_value_profile 0), the executor
  // stays. Call before Run.
  void SetValueProfileFactory(ExecutorFactory factory) {
    value_profile_remake_ = std::move(factory);
  }
  // Whether the engine turned value profile on (SetValueProfileFactory).
  bool value_profile_switched() const { return value_profile_switched_; }
  // Makes the executor again for inputs of up to `max_len` bytes, with
  // value profile on iff `value_profile`.
  using LengthFactory = std::function<absl::StatusOr<std::unique_ptr<Executor>>(
      size_t max_len, bool value_profile)>;
  // Longer inputs when coverage stalls (-auto_max_len): `max_len` is the
  // length limit in use. Once the fuzzing loop has gone the quiet time
  // (config.auto_value_profile seconds, or kDefaultQuietSeconds where that
  // is 0; or config.quiet_execs executions and at least kMinQuietTime)
  // without a new corpus input, and value profile is on or will not
  // be turned on, the engine lets the batches in flight end and replaces
  // its executor with one from `factory` for kMaxLenGrowth times the
  // length, at most `cap` (as for value profile: the corpus and the
  // dictionary given to it), and goes on; after each growth the quiet time
  // starts again. A device lost later is remade at the grown length. Where
  // the factory fails, the length stays and is not raised again. Call
  // before Run.
  void SetLengthFactory(LengthFactory factory, size_t max_len, size_t cap) {
    length_remake_ = std::move(factory);
    max_len_ = max_len;
    max_len_cap_ = cap;
  }
  static constexpr int kDefaultQuietSeconds = 10;
  // The least quiet time that config.quiet_execs executions make a stall:
  // a fast device runs them within moments, and a new executor's build
  // should pay off.
  static constexpr absl::Duration kMinQuietTime = absl::Seconds(1);
  static constexpr size_t kMaxLenGrowth = 4;
  // The quiet time after which -repeat_trials=1 starts the repetition
  // trials: they cost a few executions per input, so they come long before
  // a new executor would. Started at 1 s, header_records on lavapipe took
  // a median of 2.76 s over 6 seeds; at 0.5 s, 1.96 s (docs/perf.md);
  // earlier, the longer inputs they add to the corpus slow the search of
  // record_checksum.
  static constexpr absl::Duration kRepeatQuietTime = absl::Milliseconds(500);
  // Or as many executions without a new input, where they come sooner: a
  // GPU runs them in 50-100 ms, lavapipe in half a minute. A search that
  // has run 2^28 mutants of its corpus without a find is as stalled as
  // one that went 0.5 s, whatever the device.
  static constexpr uint64_t kRepeatQuietExecs = uint64_t{1} << 28;
  // How often waiting reductions join the corpus (OfferReduction): after
  // kReductionInterval, or kReductionExecs executions where they come
  // sooner (a GPU's 50-100 ms), so a chain of reductions takes a GPU as
  // many executions as it takes lavapipe, not as much wall time.
  static constexpr absl::Duration kReductionInterval = absl::Milliseconds(500);
  static constexpr uint64_t kReductionExecs = uint64_t{1} << 28;
  // The input length limit in use: the constructor's config.max_len, or
  // what SetLengthFactory grew it to.
  size_t max_len() const {
    return max_len_ != 0 ? max_len_ : static_cast<size_t>(config_.max_len);
  }
  // Judges the inputs that exhaust the loop budget (timeout_judge.h): only
  // those it confirms are reported as timeouts. Call before Run.
  void SetTimeoutJudge(std::unique_ptr<TimeoutJudge> judge) {
    timeout_gate_ = TimeoutGate(std::move(judge));
  }
  // Losses of the device in a row (no batch completing between them) that
  // the engine recovers from; the next one ends the run.
  static constexpr int kMaxDeviceLosses = 3;
  // The executor in use: the constructor's, or the one made after a lost
  // device.
  Executor& executor() { return *executor_; }

  // Inspection after Run, for tests and tools.
  const Corpus& corpus() const { return corpus_; }
  uint64_t total_executions() const { return total_execs_; }
  uint64_t seed() const { return seed_; }
  // By the device clock where the executor has one, else by rounds.
  const FeedbackLatency& feedback_latency() const {
    return latency_clock_ == LatencyClock::kDeviceTicks ? tick_latency_
                                                        : round_latency_;
  }
  // Time the device was busy so far: the dispatch time the executor
  // reports (BatchResult::device_time), or, for an executor that reports
  // none, the time inside Executor::RunBatch.
  absl::Duration device_busy() const {
    return dispatch_ > absl::ZeroDuration() ? dispatch_ : busy_;
  }
  // Wall time of the fuzzing loop (so far, while it runs; zero before).
  absl::Duration LoopTime();

 private:
  int RunFiles(const std::vector<std::string>& files);
  int Fuzz(const std::vector<std::string>& dirs);
  // Each returns an exit code iff the run must end now.
  std::optional<int> LoadDictionary();
  std::optional<int> LoadSeeds(const std::vector<std::string>& dirs,
                               std::vector<Bytes>& seeds);
  std::optional<int> RunSeeds(const std::vector<Bytes>& seeds);
  std::optional<int> FuzzLoop(Scheduler& scheduler);
  // -auto_value_profile and -auto_max_len (SetValueProfileFactory,
  // SetLengthFactory): marks a new executor due once the loop went the
  // quiet time without a new corpus input (and without a new executor),
  // and makes it when no batch is in flight (while it is due, FuzzLoop
  // plans no new ones): value profile first, then longer inputs. Returns an
  // exit code iff the run must end (the new executor could not take the
  // corpus back).
  std::optional<int> MaybeRemakeOnStall(std::deque<Batch>& flights);
  // -repeat_trials=1: once the loop has gone kRepeatQuietTime (or
  // kRepeatQuietExecs executions) without a new corpus input, the executor
  // tries each corpus input repeated (Executor::StartRepeatTrials), once a
  // campaign (and again on an executor made later). Never under -reproducible
  // (a switch by time).
  void MaybeStartRepeatTrials();
  // The quiet time, in seconds: config.auto_value_profile, or
  // kDefaultQuietSeconds where that is 0.
  int QuietSeconds() const;
  // How long the search has gone without progress (a new corpus input, or
  // a new executor taking over), on the clock and in executions, counted
  // from the latest of those and the loop's start. Call once the loop runs.
  struct Quiet {
    absl::Duration time;
    uint64_t execs = 0;
  };
  Quiet QuietSoFar() const;
  std::optional<int> TurnOnValueProfile(std::deque<Batch>& flights);
  std::optional<int> GrowMaxLen(std::deque<Batch>& flights);
  // Replaces the executor with one from `factory`; `failure` starts the
  // error when the factory fails.
  std::optional<int> ReplaceExecutor(const ExecutorFactory& factory,
                                     std::deque<Batch>& flights,
                                     absl::string_view failure);
  // Makes `fresh` the executor (latencies still pending are dropped: they
  // were timed on the old one's clocks; an owned old one is destroyed) and
  // gives it the dictionary and the corpus (in order, each input run once),
  // restarts the steering if it ran, and submits `flights` again on an
  // overlapping executor.
  std::optional<int> InstallExecutor(std::unique_ptr<Executor> fresh,
                                     std::deque<Batch>& flights);
  // -reload: runs the files other processes added to the corpus directory
  // since the last poll (if one is due), adds those with new coverage to
  // the corpus and prints a RELOAD line. `flights`: the batches in the air
  // (a lost device resubmits them); `in_flight_requested`: their
  // executions, which -runs counts as spent. Returns an exit code iff the
  // run must end (a file triggers a bug, the device is gone).
  std::optional<int> Reload(std::deque<Batch>& flights,
                            uint64_t in_flight_requested);
  // True iff `find` is a loop-budget timeout that the timeout judge ran
  // within -timeout: not a bug, dropped. `fuzzing`: judging's share of the
  // run is limited (timeout_judge.h); replaying files it is not.
  bool ClearedTimeout(const Find& find, bool fuzzing);
  // Keeps a new input that the corpus cannot take (corpus_full_): saved
  // into the corpus directory (or where SaveUnsaved puts it), not fuzzed.
  void KeepUnfuzzed(const Bytes& data);
  // A batch failed with `lost`: when it is a lost device (Unavailable) and
  // the engine can make executors, recreates the executor and the steering,
  // gives it the dictionary and the corpus (each input run once, so the
  // coverage maps start where they were) and resubmits `flights` (the
  // lost batches, oldest first). Returns an exit code iff the run must end:
  // another error, no factory, or more than kMaxDeviceLosses losses in a
  // row.
  std::optional<int> RecoverDevice(const absl::Status& lost,
                                   std::deque<Batch>& flights);
  // Replays the suspect slots of a stalled batch one by one; returns an
  // exit code iff the run must end (a replay found the hang, or failed).
  std::optional<int> RecoverStall(Steering& steering);
  // Adds the new inputs of `result` to the corpus (their NEW lines and
  // files wait for FlushNewUnits) and reports its bugs.
  std::optional<int> HandleFinds(const BatchResult& result);
  // Queues the new inputs HandleFinds added since the last call for the
  // corpus directory (writer_) and prints the NEW lines of those written
  // since: an input is on disk before it is reported. `wait`: first waits
  // until every queued input is written, so all of them are reported.
  void FlushNewUnits(bool wait = true);
  // Finds that reduce their parent (Find::reduces_parent, -reduce_inputs)
  // wait, the shortest per parent, and are put in at most every
  // kReductionInterval or kReductionExecs executions, whichever comes first
  // (every batch with -reproducible): each new input
  // costs the executor a compare log that cuts the rounds queued before
  // it, which a reduction, unlike a find, does not need at once.
  void OfferReduction(const Find& find, std::optional<size_t> parent);
  absl::Status ApplyReductions();
  // A reduction shorter than its parent, which is still active, joins the
  // corpus in the parent's place (with the parent's new_bits and lineage)
  // and the parent is retired. A reduction is no progress: the quiet times
  // go on, and it gets no fresh items.
  absl::Status Reduce(const Find& find, size_t parent);
  // Prints the NEW lines of `written` (oldest first), saving each input
  // that the corpus directory did not take elsewhere first.
  void ReportWrittenUnits(const std::vector<AsyncWriter::Written>& written);

  // Adds `data` to the corpus and the executor's mirror; returns the corpus
  // index, or nullopt if it was already there. `parent`: the corpus index
  // it was mutated from, if known. `progress`: it restarts the quiet times
  // (-auto_value_profile, -auto_max_len).
  absl::StatusOr<std::optional<size_t>> AddToCorpus(
      const Bytes& data, uint32_t new_bits,
      std::optional<size_t> parent = std::nullopt, bool progress = true);
  // The next batch's budget: `configured`, shaped by the steering and by
  // the round sizer, with the -runs left.
  // `in_flight_requested`: executions requested by batches in flight.
  absl::StatusOr<BatchBudget> NextBudget(const BatchBudget& configured,
                                         Steering& steering,
                                         uint64_t in_flight_requested);
  // Whether -runs (counting `in_flight_requested` as run) or
  // -max_total_time is used up: no more batches are submitted.
  bool BudgetSpent(uint64_t in_flight_requested);
  // Fails the run on a batch the executor could not run.
  int FailBatch(const absl::Status& status);
  // Makes the steering for executor_ (seed_entries_ seed entries) and
  // gives the executor the stop check.
  absl::Status StartSteering();
  // Runs `batch` on the executor, timed: batch_start_, last_batch_time_
  // and busy_.
  absl::StatusOr<BatchResult> RunTimedBatch(const Batch& batch);
  // Plans the next batch: its budget (NextBudget), the steering's
  // (steering_) plan and the scheduler's draw, with the fresh entries
  // waiting (fresh_); `first`: no batch is in flight. Counts its time as
  // planning (host_.plan).
  absl::StatusOr<Batch> PlanBatch(const BatchBudget& configured,
                                  Scheduler& scheduler, bool first,
                                  uint64_t in_flight_requested);
  // Submits the last of `flights` (overlapped batches). On failure it is
  // taken out (and out of `in_flight_requested`) and the device recovered
  // (RecoverDevice, which sets recovered_); returns an exit code iff the
  // run must end.
  std::optional<int> SubmitLast(std::deque<Batch>& flights,
                                uint64_t& in_flight_requested);
  // Collects the oldest overlapped batch (Executor::CollectBatch), timed
  // as RunTimedBatch: a batch's host time runs from the later of the last
  // collection and this call.
  absl::StatusOr<BatchResult> CollectTimedBatch();
  // Whether no round is queued behind `flights` now: the last one gives
  // new entries (or, the campaign's first round, the seeds) their first
  // mutants and rounds are long (kHoldRoundFactor), so the next round
  // waits for its finds. The device idles for the host's turnaround
  // (about 2 ms on the H200) once per such round; the finds' feedback
  // latency no longer includes a whole queued round.
  bool HoldBehind(const std::deque<Batch>& flights) const;
  // Sets round_start_ and round_end_ for `result`.
  void SetRoundTimes(const BatchResult& result);
  // A round's target time: -round_ms, else kCpuRoundTime.
  absl::Duration RoundTarget() const;
  // The target the rounds are sized for now: the sizer's (RoundTarget,
  // paced to the precise flights), else RoundTarget().
  absl::Duration SizedTarget() const;
  // Paces the rounds to an off-pace batch that took `device_time` on the
  // device (Config::paced_rounds, kRoundsPerPreciseFlight).
  void PaceToOffPaceBatch(absl::Duration device_time);
  // The round sizer for batches of at most `ceiling` mutants per slot, iff
  // rounds are sized by time (Config::adaptive_rounds); `overlapped`: the
  // executor overlaps rounds (their floor is
  // RoundSizer::kOverlappedMinRoundPerFixed times the fixed part).
  std::optional<RoundSizer> MakeRoundSizer(uint32_t ceiling,
                                           bool overlapped) const;
  // Closes the feedback latency of the fresh entries `batch` ran (per the
  // executor's costs when it reports them, else every item if it ran any).
  void RecordLatency(const Batch& batch, const BatchResult& result,
                     absl::Duration batch_end);
  // -verbosity=2: one line per latency sample.
  void PrintLatencySamples(absl::Span<const FeedbackLatency::Sample> samples);
  // Keeps `entry`, which the corpus directory did not take (`written`
  // says why), in the fallback directory or, failing that, in the log.
  void SaveUnsaved(const CorpusEntry& entry, const absl::Status& written);
  void AttributeExecutions(const std::vector<WorkItem>& work,
                           uint64_t requested, uint64_t executed);
  // Appends the find line of a bug found while fuzzing to -telemetry_out.
  void LogFind(const Find& find, const std::string& base_sha1);
  // Prints where a bug found while fuzzing came from: the round's epoch,
  // the ring slot, the work kind by name, the parent (executor index and
  // sha1 `base_sha1`) and the mutation sequence, as its find line in
  // -telemetry_out records them.
  void PrintProvenance(const Find& find, const std::string& base_sha1);
  int ReportBugAndExit(const Find& find, std::vector<uint32_t> opcodes,
                       const std::string& base_sha1, bool save_artifact);
  // Prints the executor's recommended dictionary as libFuzzer does.
  void PrintRecommendedDictionary();
  // -keep_going: reports `find` unless the same bug was reported before.
  void ReportBugAndContinue(const Find& find, const std::string& base_sha1);
  int Fail(const absl::Status& status);
  // Whether the run must stop: an interrupt (SIGINT, SIGTERM) or
  // -max_total_time spent.
  bool StopRequested();
  // After an interrupt: libFuzzer's line, the final stats, and
  // -interrupted_exitcode.
  int ExitInterrupted();
  // How many new inputs the corpus directory did not take, and where they
  // are (nothing when all were saved).
  void PrintUnsavedSummary();

  // -report: makes report_ (iff asked for) for a campaign on `dirs`.
  void StartReport(const std::vector<std::string>& dirs);
  // Adds a report sample if one is due (`force`: in any case) and rewrites
  // the report if that is due.
  void SampleReport(bool force = false);
  // Counts a bug report in the -report page; `artifact`: the file written,
  // "" for none.
  void RecordBugInReport(const Find& find, const std::string& artifact);
  // Takes the last sample and writes the final report of a run that ends
  // with exit code `code`.
  void FinishReport(int code);

  uint64_t ElapsedSeconds();
  // The counters a status line prints besides its rate and memory.
  struct StatusAt {
    uint64_t runs = 0;
    CoverageSummary coverage;
    size_t corpus_units = 0;
    uint64_t corpus_bytes = 0;
    size_t max_input_size = 0;  // the corpus's longest input (NEW's L: _/N)
  };
  StatusAt CurrentStatus();
  // Prints a status line with the counters `at`, or the current ones.
  void PrintStatus(StatusEvent event, const std::string& suffix = "",
                   const StatusAt* at = nullptr);
  void MaybePulse(uint64_t executions_before);
  void PrintFinalStats();
  FinalStats CollectFinalStats();
  // Executions and finds per mutator (empty when the executor counts
  // none).
  std::vector<MutatorStat> MutatorStats() const;
  // Adds `result`'s per-mutator executions to mutator_executions_.
  void CountMutatorExecutions(const BatchResult& result);
  // Credits a new corpus input to the mutators that made it.
  void CreditMutators(absl::Span<const uint32_t> mutations);
  // The Done area's lines about latency, device share and round size.
  void PrintFeedbackSummary();
  bool Verbose(int level) const { return config_.verbosity >= level; }

  const Config& config_;
  Executor* executor_;
  // The executor in use where the engine owns it (given to the
  // constructor, or made after a lost device or for value profile).
  std::unique_ptr<Executor> owned_executor_;
  ExecutorFactory remake_;
  ExecutorFactory value_profile_remake_;
  LengthFactory length_remake_;
  size_t max_len_ = 0;      // 0: config_.max_len
  size_t max_len_cap_ = 0;  // SetLengthFactory's cap
  bool remake_due_ = false;
  bool value_profile_tried_ = false;     // the switch was attempted
  bool value_profile_switched_ = false;  // and its executor runs
  bool repeat_started_ = false;          // MaybeStartRepeatTrials
  // When the last executor made on a stall took over (the clock's time).
  absl::Duration last_remake_;
  // When the last input joined the corpus (the clock's time).
  absl::Duration last_new_input_;
  // total_execs_ at the latest of the loop's start, the last new input and
  // the last remake: executions since are quiet ones (-quiet_execs).
  uint64_t execs_at_progress_ = 0;
  // How the quiet time that made the next executor due was reached ("for
  // 10 s", "in N executions (...)"), for its INFO line.
  std::string quiet_reason_;
  int device_losses_ = 0;                 // in a row
  bool recovered_ = false;                // the executor was just replaced
  std::vector<Bytes> dictionary_;         // as given to the executor
  std::unique_ptr<Steering> steering_;    // while fuzzing
  std::unique_ptr<ReportWriter> report_;  // -report, while fuzzing
  size_t seed_entries_ = 0;
  BatchBudget configured_;
  std::ostream& out_;
  Clock& clock_;
  SteeringOptions steering_options_;
  absl::Duration start_;
  absl::Duration last_status_;
  uint64_t seed_;
  WorkDir work_dir_;
  Corpus corpus_;
  bool have_dictionary_ = false;
  size_t input_limit_ = 0;  // bytes of an input, from LoadSeeds
  // -reload: watches the first corpus directory (null without one, or with
  // -reload=0); the inputs it brought in so far.
  std::unique_ptr<CorpusReloader> reloader_;
  uint64_t reloaded_units_ = 0;
  // Why the executor took no more corpus inputs (ResourceExhausted), once
  // it refused one: no batch is planned after it, and finds are kept by
  // KeepUnfuzzed. OK while the corpus can grow.
  absl::Status corpus_full_;
  absl::flat_hash_set<std::string> unfuzzed_;  // sha1s KeepUnfuzzed saved
  uint64_t total_execs_ = 0;
  uint64_t new_units_ = 0;
  // Per mutator id (RF_MUT_*): executions the executor counted (empty when
  // it counts none), and new corpus inputs whose mutations include it.
  std::vector<uint64_t> mutator_executions_;
  std::vector<uint64_t> mutator_finds_;
  // -keep_going: distinct bugs reported so far, as (kind, code), and the
  // exit code of the first.
  std::set<std::pair<int, uint32_t>> reported_bugs_;
  int bug_exit_code_ = 0;
  uint64_t dropped_finds_ = 0;
  TimeoutGate timeout_gate_;  // clears timeouts that are not (-twin)
  std::map<size_t, Find> pending_reductions_;  // by parent's corpus index
  absl::Duration last_reductions_;             // when they were last put in
  uint64_t execs_at_reductions_ = 0;           // total_execs_ then
  uint64_t unsaved_units_ = 0;   // new inputs the corpus dir did not take
  uint64_t fallback_units_ = 0;  // of them, saved to fallback_dir_
  std::string fallback_dir_;     // set at the first failure
  // Entries found and not yet given their fresh items (BatchPlan::fresh),
  // oldest first.
  std::vector<size_t> fresh_;
  // Inputs added to the corpus and not yet saved and printed.
  struct NewUnit {
    size_t index = 0;
    uint32_t opcode = 0;
    std::vector<uint32_t> mutations;
    // The counters once its batch's finds were handled (executions,
    // coverage, corpus), which its NEW line prints, so that the line does
    // not depend on when its file was written; and whether it is that
    // batch's last new input. A batch's NEW
    // lines are printed once all its inputs are written, so that no line
    // claims coverage whose inputs are not on disk yet (the maps hold a
    // whole batch's finds, and later batches' too, before the writer is
    // done with them).
    std::optional<StatusAt> at;  // none: the counters when printed
    bool closes_batch = false;
    // A reduction (libFuzzer's REDUCE line) that took its parent's place.
    // The parent's file stays in the corpus directory: the signature build
    // tells paths apart by block hit counts, so the parent may hold a
    // feature (an edge) that the reduction lacks, and a restart or a merge
    // must still see it.
    bool reduction = false;
  };
  // Rounds cut short for urgent work, and the executions they did not run
  // (BatchResult::cut_executions).
  uint64_t rounds_cut_ = 0;
  uint64_t cut_executions_ = 0;
  std::vector<NewUnit> new_units_waiting_;
  // Written units whose batch still has units being written, oldest first.
  std::vector<NewUnit> units_written_;
  // Prints the NEW line of `unit`.
  void PrintNewUnit(const NewUnit& unit);
  // Inputs queued on writer_ and not yet reported, oldest first, by the tag
  // they were queued with (tags count up; units_queued_ is the next).
  std::deque<std::pair<uint64_t, NewUnit>> units_writing_;
  uint64_t units_queued_ = 0;
  // Writes the corpus directory's new files off the fuzzing loop's thread;
  // made with the first input to write.
  std::unique_ptr<AsyncWriter> writer_;
  // Feedback latency by the device clock (when the executor has one) and,
  // always, by rounds (its upper bound; see FeedbackLatency).
  FeedbackLatency tick_latency_;
  FeedbackLatency round_latency_;
  // The fuzzing loop's host time since the last batch it collected, by
  // step (-verbosity=2 batch lines).
  struct HostTimes {
    absl::Duration plan, submit, flush, collect, finds;
  };
  HostTimes host_;
  absl::Duration batch_start_;     // of the batch whose finds are handled
  absl::Duration last_collected_;  // when the last overlapped batch came back
  // Feedback latency is measured on one clock for a whole run: the ticks
  // that executions read (Find::device_clock, ParentCost::first_clock) where
  // the executor has them, else by rounds on the device's timestamps
  // (BatchResult::device_start/end), else by rounds on the host's clock.
  // round_start_ / round_end_: the batch whose finds are handled, on the
  // timestamps or the host's clock.
  enum class LatencyClock { kHost, kDevice, kDeviceTicks };
  std::optional<LatencyClock> latency_clock_;
  absl::Duration round_start_, round_end_;
  // The device clock's reading at the first batch (-verbosity=2 lines).
  std::optional<absl::Duration> first_device_start_;
  std::optional<absl::Duration> loop_start_, loop_end_;
  absl::Duration busy_;      // inside Executor::RunBatch
  absl::Duration dispatch_;  // BatchResult::device_time, summed
  uint64_t rounds_ = 0;      // batches run
  std::optional<RoundSizer> sizer_;
  // Smoothed device time of the off-pace batches (Config::paced_rounds).
  absl::Duration off_pace_time_;
  uint32_t last_execs_per_slot_ = 0;  // of the last batch
  uint32_t last_slots_ = 0;           // of the last batch
  absl::Duration last_batch_time_;    // of the last batch
  absl::Duration last_device_time_;   // BatchResult::device_time, the same
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_ENGINE_H_

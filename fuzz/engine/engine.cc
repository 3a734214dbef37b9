#include "fuzz/engine/engine.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <deque>
#include <memory>
#include <string>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "corpus/atomic_file.h"
#include "corpus/corpus_dir.h"
#include "corpus/dictionary.h"
#include "corpus/file_read.h"
#include "corpus/sha1.h"
#include "fuzz/engine/bug_report.h"
#include "fuzz/engine/flag_parser.h"
#include "fuzz/engine/info_lines.h"
#include "fuzz/engine/interrupt.h"
#include "fuzz/engine/mutators.h"
#include "fuzz/engine/scheduler.h"
#include "fuzz/engine/work_kind.h"
#include "fuzz/steer/steerable.h"

namespace ringfuzz {
namespace {

// Batches in a row without a single execution before the engine gives up
// instead of spinning forever.
constexpr int kMaxIdleBatches = 3;

uint64_t DeriveSeed(uint64_t configured) {
  if (configured != 0) return configured;
  return static_cast<uint64_t>(
             std::chrono::system_clock::now().time_since_epoch().count()) +
         static_cast<uint64_t>(getpid());
}

bool AllRegularFiles(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  }
  return !paths.empty();
}

// Returns the largest power of two <= x (x > 0).
uint64_t FloorPowerOfTwo(uint64_t x) {
  return uint64_t{1} << (63 - __builtin_clzll(x));
}

}  // namespace

Engine::Engine(const Config& config, Executor& executor, std::ostream& out,
               Clock& clock, SteeringOptions steering)
    : config_(config),
      executor_(&executor),
      out_(out),
      clock_(clock),
      steering_options_(std::move(steering)),
      seed_(DeriveSeed(config.seed)),
      work_dir_("", config.artifact_prefix, config.exact_artifact_path) {}

Engine::Engine(const Config& config, std::unique_ptr<Executor> executor,
               std::ostream& out, Clock& clock, SteeringOptions steering)
    : Engine(config, *executor, out, clock, std::move(steering)) {
  owned_executor_ = std::move(executor);
}

int Engine::Run(const std::vector<std::string>& positional) {
  start_ = last_status_ = clock_.Now();
  out_ << "INFO: Seed: " << seed_ << "\n";
  if (AllRegularFiles(positional)) return RunFiles(positional);
  StartReport(positional);
  const int code = Fuzz(positional);
  FinishReport(code);
  return code;
}

int Engine::RunFiles(const std::vector<std::string>& files) {
  const int64_t times = std::max<int64_t>(1, config_.runs);
  size_t limit = executor_->max_len();
  if (config_.max_len > 0) {
    limit = std::min<size_t>(limit, static_cast<size_t>(config_.max_len));
  }
  out_ << "ringfuzz: Running " << files.size() << " inputs " << times
       << " time(s) each.\n";
  for (const std::string& file : files) {
    if (Interrupted()) return ExitInterrupted();
    out_ << "Running: " << file << "\n";
    // At most one byte more than runs: a huge file costs no memory.
    absl::StatusOr<Bytes> data = ReadFilePrefix(file, limit + 1);
    if (!data.ok()) return Fail(data.status());
    if (data->size() > limit) {
      out_ << "INFO: " << file << " is longer than " << limit
           << " bytes; running its first " << limit
           << " (the -max_len / executor limit)\n";
      data->resize(limit);
    }
    absl::Duration begin = clock_.Now();
    for (int64_t i = 0; i < times; ++i) {
      absl::StatusOr<BatchResult> result = executor_->Execute(*data);
      if (!result.ok()) return Fail(result.status());
      total_execs_ += result->executions;
      for (const Find& find : result->finds) {
        if (ClearedTimeout(find, /*fuzzing=*/false)) continue;
        if (IsBug(find.kind)) {
          return ReportBugAndExit(find, {}, "", /*save_artifact=*/false);
        }
      }
    }
    out_ << "Executed " << file << " in "
         << absl::ToInt64Milliseconds(clock_.Now() - begin) << " ms\n";
  }
  out_ << "***\n"
          "*** NOTE: fuzzing was not performed, you have only\n"
          "***       executed the target code on a fixed set of inputs.\n"
          "***\n";
  PrintFinalStats();
  return 0;
}

int Engine::Fuzz(const std::vector<std::string>& dirs) {
  if (auto code = LoadDictionary()) return *code;
  std::vector<Bytes> seeds;
  if (auto code = LoadSeeds(dirs, seeds)) return *code;
  if (auto code = RunSeeds(seeds)) return *code;
  PrintStatus(StatusEvent::kInited);
  SampleReport(/*force=*/true);

  if (config_.round_ms > 0 && !config_.adaptive_rounds &&
      config_.slot_execs > 0 && Verbose(1)) {
    out_ << "INFO: -round_ms is ignored: -slot_execs=" << config_.slot_execs
         << " fixes the mutants per slot\n";
  }
  Scheduler scheduler(seed_, have_dictionary_, executor_->compare_feedback(),
                      config_.slowest_first);
  seed_entries_ = corpus_.size();
  if (absl::Status s = StartSteering(); !s.ok()) return Fail(s);
  std::optional<int> code = FuzzLoop(scheduler);
  executor_->SetStopCheck(nullptr);
  steering_.reset();
  FlushNewUnits();
  loop_end_ = clock_.Now();
  if (code) return *code;
  if (!corpus_full_.ok()) {
    return Fail(absl::Status(
        corpus_full_.code(),
        absl::StrCat(
            corpus_full_.message(),
            unfuzzed_.empty()
                ? ""
                : absl::StrCat(
                      "; the ", unfuzzed_.size(),
                      " new inputs found after it are "
                      "saved",
                      work_dir_.has_corpus_dir()
                          ? absl::StrCat(" in ", work_dir_.corpus_dir())
                          : "",
                      " but were not fuzzed"))));
  }
  if (Interrupted()) return ExitInterrupted();

  PrintStatus(StatusEvent::kDone);
  PrintUnsavedSummary();
  if (const std::string line = timeout_gate_.SummaryLine(); !line.empty()) {
    out_ << line << "\n";
  }
  if (dropped_finds_ > 0 && Verbose(1)) {
    out_ << "INFO: " << dropped_finds_ << " finds did not fit the executor's "
         << "find queue; their coverage was left new, so inputs that reach "
            "it are found again\n";
  }
  if (Verbose(1)) {
    out_ << FormatDoneLine(total_execs_, ElapsedSeconds()) << "\n";
    PrintFeedbackSummary();
  }
  PrintRecommendedDictionary();
  if (!reported_bugs_.empty()) {
    out_ << "INFO: -keep_going: " << reported_bugs_.size()
         << " distinct bug(s) found\n";
  }
  PrintFinalStats();
  return bug_exit_code_;
}

std::optional<int> Engine::LoadDictionary() {
  std::vector<Bytes> tokens;
  if (!config_.dict.empty()) {
    absl::StatusOr<std::vector<Bytes>> loaded =
        LoadDictionaryFile(config_.dict);
    if (!loaded.ok()) {
      return Fail(absl::InvalidArgumentError(
          absl::StrCat("cannot use -dict: ", loaded.status().message())));
    }
    tokens = *std::move(loaded);
  }
  const size_t from_file = tokens.size();
  for (Bytes& token : executor_->AutoDictionary()) {
    if (std::find(tokens.begin(), tokens.end(), token) == tokens.end()) {
      tokens.push_back(std::move(token));
    }
  }
  if (tokens.empty()) return std::nullopt;
  dictionary_ = tokens;
  if (absl::Status s = executor_->SetDictionary(tokens); !s.ok()) {
    return Fail(s);
  }
  have_dictionary_ = true;
  if (Verbose(1)) {
    // libFuzzer's line counts the -dict file only: parsers read it as "a
    // dictionary was given".
    if (from_file > 0) out_ << DictionaryLine(from_file) << "\n";
    if (tokens.size() != from_file) {
      out_ << AutomaticDictionaryLine(tokens.size() - from_file) << "\n";
    }
  }
  return std::nullopt;
}

std::optional<int> Engine::LoadSeeds(const std::vector<std::string>& dirs,
                                     std::vector<Bytes>& seeds) {
  size_t limit = executor_->max_len();
  if (limit == 0) {
    return Fail(absl::FailedPreconditionError(
        "the executor cannot run inputs of any length (max_len 0)"));
  }
  if (config_.max_len > 0) {
    if (static_cast<uint64_t>(config_.max_len) > limit) {
      out_ << "WARNING: -max_len=" << config_.max_len
           << " is more than the executor can run; using " << limit << "\n";
    }
    limit = std::min<size_t>(limit, static_cast<size_t>(config_.max_len));
  }
  input_limit_ = limit;
  if (!dirs.empty()) {
    work_dir_ =
        WorkDir(dirs[0], config_.artifact_prefix, config_.exact_artifact_path);
  }
  CorpusLoadReport report;
  absl::StatusOr<std::vector<CorpusFile>> files =
      LoadCorpusDirs(dirs, limit, &report);
  if (!files.ok()) return Fail(files.status());
  if (!dirs.empty() && config_.reload > 0) {
    reloader_ = std::make_unique<CorpusReloader>(dirs[0],
                                                 absl::Seconds(config_.reload));
    // What is there now ran as a seed; only files added later are reloaded.
    const std::string top = JoinPath(dirs[0], "");
    for (const CorpusFile& file : *files) {
      if (file.dir_index != 0 || file.path.size() <= top.size() ||
          file.path.compare(0, top.size(), top) != 0) {
        continue;
      }
      std::string name = file.path.substr(top.size());
      if (name.find('/') == std::string::npos) {
        reloader_->MarkKnown(std::move(name));
      }
    }
  }
  if (report.created_first_dir) {
    out_ << "INFO: created corpus directory " << dirs[0] << "\n";
  }
  for (const std::string& warning : report.warnings) {
    out_ << "WARNING: " << warning << "\n";
  }
  for (const std::string& note : report.notes) {
    out_ << "INFO: " << note << "\n";
  }
  for (size_t d = 0; d < dirs.size(); ++d) {
    out_ << "INFO: Loaded " << report.files_per_dir[d] << " files from "
         << dirs[d] << "\n";
  }
  if (report.truncated > 0) {
    out_ << "INFO: " << report.truncated << " inputs were longer than " << limit
         << " bytes (-max_len / executor limit) and were truncated\n";
  }
  // Smallest first, as libFuzzer: small seeds claim coverage before big ones
  // that cover the same code, which keeps the corpus small.
  std::stable_sort(files->begin(), files->end(),
                   [](const CorpusFile& a, const CorpusFile& b) {
                     return a.data.size() < b.data.size();
                   });
  absl::flat_hash_set<std::string> seen;
  for (CorpusFile& file : *files) {
    if (seen.insert(Sha1Hex(file.data)).second) {
      seeds.push_back(std::move(file.data));
    }
  }
  return std::nullopt;
}

std::optional<int> Engine::RunSeeds(const std::vector<Bytes>& seeds) {
  std::vector<Bytes> inputs = seeds;
  if (inputs.empty()) {
    if (Verbose(1)) {
      out_ << "INFO: A corpus is not provided, starting from an empty "
              "corpus\n";
    }
    inputs.push_back(Bytes{'\n'});
  }
  for (const Bytes& input : inputs) {
    absl::StatusOr<BatchResult> result = executor_->Execute(input);
    while (!result.ok() &&
           result.status().code() == absl::StatusCode::kUnavailable &&
           remake_) {
      std::deque<Batch> none;
      if (auto code = RecoverDevice(result.status(), none)) return code;
      result = executor_->Execute(input);
    }
    if (!result.ok()) return Fail(result.status());
    device_losses_ = 0;
    total_execs_ += result->executions;
    std::optional<uint32_t> new_bits;
    for (const Find& find : result->finds) {
      if (ClearedTimeout(find, /*fuzzing=*/true)) continue;
      if (IsBug(find.kind)) {
        return ReportBugAndExit(find, {}, "", /*save_artifact=*/true);
      }
      new_bits = std::max(new_bits.value_or(0), find.new_bits);
    }
    if (new_bits) {
      auto added = AddToCorpus(input, *new_bits);
      if (!added.ok()) return Fail(added.status());
    }
  }
  if (corpus_.empty()) {
    out_ << "WARNING: no interesting inputs were found so far. Is the target "
            "instrumented for coverage?\n"
            "This may also happen if the target rejected all inputs we tried "
            "so far\n";
    auto added = AddToCorpus(Bytes{'\n'}, 0);
    if (!added.ok()) return Fail(added.status());
  }
  return std::nullopt;
}

Engine::Quiet Engine::QuietSoFar() const {
  return {
      clock_.Now() - std::max({last_new_input_, *loop_start_, last_remake_}),
      total_execs_ - execs_at_progress_};
}

std::optional<int> Engine::MaybeRemakeOnStall(std::deque<Batch>& flights) {
  const bool value_profile_next = value_profile_remake_ &&
                                  !value_profile_tried_ &&
                                  config_.auto_value_profile > 0;
  const bool longer_next = length_remake_ && max_len() < max_len_cap_;
  if ((!value_profile_next && !longer_next) || !loop_start_) {
    return std::nullopt;
  }
  if (!remake_due_) {
    const absl::Duration now = clock_.Now();
    const auto [quiet, quiet_execs] = QuietSoFar();
    const absl::Duration wait = absl::Seconds(QuietSeconds());
    const bool by_time = quiet >= wait;
    const bool by_execs =
        config_.quiet_execs > 0 && quiet >= kMinQuietTime &&
        quiet_execs >= static_cast<uint64_t>(config_.quiet_execs);
    if (!by_time && !by_execs) return std::nullopt;
    // A new executor costs its build and pays off over time: none when
    // less than the quiet time is left of -max_total_time.
    if (config_.max_total_time > 0 &&
        now - start_ + std::min(quiet, wait) >
            absl::Seconds(config_.max_total_time)) {
      return std::nullopt;
    }
    remake_due_ = true;
    quiet_reason_ = by_time ? absl::StrCat("for ", QuietSeconds(), " s")
                            : absl::StrCat("in ", quiet_execs, " executions (",
                                           absl::FormatDuration(absl::Trunc(
                                               quiet, absl::Milliseconds(100))),
                                           ", -quiet_execs)");
  }
  if (!flights.empty()) return std::nullopt;  // they end first
  remake_due_ = false;
  std::optional<int> code =
      value_profile_next ? TurnOnValueProfile(flights) : GrowMaxLen(flights);
  // The quiet time starts again once the new executor runs.
  last_remake_ = clock_.Now();
  execs_at_progress_ = total_execs_;
  return code;
}

void Engine::MaybeStartRepeatTrials() {
  if (repeat_started_ || config_.repeat_trials != kRepeatTrialsAfterStall ||
      config_.reproducible || !loop_start_) {
    return;
  }
  const auto [quiet, quiet_execs] = QuietSoFar();
  if (quiet < kRepeatQuietTime && quiet_execs < kRepeatQuietExecs) return;
  repeat_started_ = true;
  if (executor_->StartRepeatTrials()) {
    out_ << "INFO: no new input "
         << (quiet >= kRepeatQuietTime
                 ? absl::StrCat("for ", absl::ToDoubleSeconds(kRepeatQuietTime),
                                " s")
                 : absl::StrCat("in ", quiet_execs, " executions"))
         << ": trying each of the corpus's " << corpus_.size()
         << " inputs followed by copies of itself (-repeat_trials=0 keeps "
            "them off)"
         << std::endl;
  }
}

int Engine::QuietSeconds() const {
  return config_.auto_value_profile > 0 ? config_.auto_value_profile
                                        : kDefaultQuietSeconds;
}

std::optional<int> Engine::TurnOnValueProfile(std::deque<Batch>& flights) {
  value_profile_tried_ = true;
  out_ << "INFO: no new input " << quiet_reason_
       << ": turning value profile on (-use_value_profile=1): building "
          "the executor again and running the corpus of "
       << corpus_.size() << " inputs on it (-auto_value_profile=0 keeps it "
       << "off)" << std::endl;
  absl::StatusOr<std::unique_ptr<Executor>> fresh = value_profile_remake_();
  if (!fresh.ok()) {
    // The campaign is worth more than the switch: it goes on as it was.
    out_ << "WARNING: could not turn value profile on ("
         << fresh.status().message()
         << "); fuzzing on without it (-use_value_profile=1 from the start "
            "shows the error at once)"
         << std::endl;
    return std::nullopt;
  }
  // A device lost from now on comes back with value profile on.
  remake_ = value_profile_remake_;
  value_profile_switched_ = true;
  if (auto code = InstallExecutor(*std::move(fresh), flights)) return code;
  recovered_ = false;  // nothing was in flight: nothing to plan again
  return std::nullopt;
}

std::optional<int> Engine::GrowMaxLen(std::deque<Batch>& flights) {
  const size_t from = max_len();
  const size_t to = std::min(max_len_cap_, from * kMaxLenGrowth);
  const bool value_profile =
      value_profile_switched_ || config_.use_value_profile;
  out_ << "INFO: no new input " << quiet_reason_ << ": raising -max_len from "
       << from << " to " << to
       << " bytes: building the executor again and running the corpus of "
       << corpus_.size() << " inputs on it (-auto_max_len=0 keeps " << from
       << "; -max_len=N fixes the length)" << std::endl;
  absl::StatusOr<std::unique_ptr<Executor>> fresh =
      length_remake_(to, value_profile);
  if (!fresh.ok()) {
    out_ << "WARNING: could not raise -max_len to " << to << " ("
         << fresh.status().message() << "); fuzzing on at " << from
         << std::endl;
    max_len_cap_ = from;  // not again
    return std::nullopt;
  }
  max_len_ = to;
  input_limit_ = std::min(to, (*fresh)->max_len());
  // A device lost from now on comes back at this length.
  remake_ = [factory = length_remake_, to, value_profile] {
    return factory(to, value_profile);
  };
  if (auto code = InstallExecutor(*std::move(fresh), flights)) return code;
  recovered_ = false;  // nothing was in flight: nothing to plan again
  return std::nullopt;
}

std::optional<int> Engine::FuzzLoop(Scheduler& scheduler) {
  BatchBudget configured;
  configured.slots = config_.batch_slots > 0
                         ? static_cast<uint32_t>(config_.batch_slots)
                         : kDefaultBatchSlots;
  configured.execs_per_slot = config_.slot_execs > 0
                                  ? static_cast<uint32_t>(config_.slot_execs)
                                  : kDefaultSlotExecs;
  steering_->Configure(configured);
  configured_ = configured;
  // Batches in flight (submitted, not yet collected), oldest first. With
  // an executor that overlaps batches, the next one is planned and queued
  // before the last one's results are read, so the device never waits for
  // the host; finds of batch N then steer batch N+2.
  const size_t depth = std::max<uint32_t>(executor_->overlap(), 1);
  sizer_ = MakeRoundSizer(configured.execs_per_slot, depth > 1);
  loop_start_ = clock_.Now();
  execs_at_progress_ = total_execs_;
  std::deque<Batch> flights;
  uint64_t in_flight_requested = 0;
  int idle_batches = 0;
  while (true) {
    if (auto code = Reload(flights, in_flight_requested)) return code;
    MaybeStartRepeatTrials();
    if (auto code = MaybeRemakeOnStall(flights)) return code;
    while (flights.size() < depth && !HoldBehind(flights) && !remake_due_ &&
           !BudgetSpent(in_flight_requested)) {
      absl::StatusOr<Batch> batch = PlanBatch(
          configured, scheduler, flights.empty(), in_flight_requested);
      if (!batch.ok()) return Fail(batch.status());
      in_flight_requested += batch->requested;
      flights.push_back(*std::move(batch));
      if (depth > 1) {
        if (auto code = SubmitLast(flights, in_flight_requested)) return code;
        if (recovered_) break;
      }
    }
    if (recovered_) {  // a new executor and steering: plan again
      recovered_ = false;
      continue;
    }
    // With the pipeline full, the next round is planned before the oldest
    // is collected when collecting it cannot add to the corpus (a
    // signature round, Executor::OldestBatchAddsNoInputs), and queued as
    // soon as the collect has read it out: the host's planning then hides
    // behind the device's round, not behind the (shorter) one queued
    // after it.
    std::optional<Batch> early;
    if (depth > 1 && flights.size() == depth && !HoldBehind(flights) &&
        executor_->OldestBatchAddsNoInputs() && !remake_due_ &&
        !BudgetSpent(in_flight_requested)) {
      absl::StatusOr<Batch> batch =
          PlanBatch(configured, scheduler, false, in_flight_requested);
      if (!batch.ok()) return Fail(batch.status());
      early = *std::move(batch);
    }
    // New inputs reach the disk (and the log) once the round that holds
    // their mutants is queued, written on the writer's thread: writing
    // them costs the device nothing, even when a round finds tens.
    const absl::Duration flush_start = clock_.Now();
    FlushNewUnits(/*wait=*/false);
    host_.flush += clock_.Now() - flush_start;
    if (flights.empty()) return std::nullopt;
    const Batch batch = std::move(flights.front());
    flights.pop_front();
    in_flight_requested -= batch.requested;
    const absl::Duration collect_start = clock_.Now();
    absl::StatusOr<BatchResult> result =
        depth > 1 ? CollectTimedBatch() : RunTimedBatch(batch);
    const absl::Duration collected = clock_.Now();
    host_.collect += collected - collect_start;
    if (!result.ok()) {
      // The lost batch runs again, first, on the recreated device. The
      // early one is dropped (the lost batches fill the pipeline again):
      // its fresh entries get their first mutants at normal priority.
      in_flight_requested += batch.requested;
      flights.push_front(batch);
      if (auto code = RecoverDevice(result.status(), flights)) return code;
      continue;
    }
    if (early) {
      in_flight_requested += early->requested;
      flights.push_back(*std::move(early));
      // A lost device is recovered here (recovered_, a new steering); the
      // batch collected is still handled below.
      if (auto code = SubmitLast(flights, in_flight_requested)) return code;
      recovered_ = false;
    }
    // The steering is replaced with the executor when the device is lost
    // (here or at a submit above).
    Steering& steering = *steering_;
    device_losses_ = 0;
    if (result->executions > batch.requested) {
      return Fail(absl::InternalError(absl::StrCat(
          "the executor reported ", result->executions,
          " executions for a batch of ", batch.requested,
          "; an executor must count what it ran and never run more than "
          "requested (this is a bug in the executor)")));
    }
    // A stalled batch's time is the stall's, not the device's speed (nor
    // is an off-pace batch's, BatchResult::off_pace). An
    // overlapped batch's host time is hidden behind the next one: its
    // round lasts its device time.
    if (sizer_ && !steering.stalled() && !result->off_pace) {
      sizer_->Observe(result->executions,
                      depth > 1 && result->device_time > absl::ZeroDuration()
                          ? result->device_time
                          : last_batch_time_);
    }
    if (result->off_pace) PaceToOffPaceBatch(result->device_time);
    SetRoundTimes(*result);
    last_device_time_ = result->device_time;
    if (result->cut_executions > 0) {
      ++rounds_cut_;
      cut_executions_ += result->cut_executions;
    }
    const uint64_t before = total_execs_;
    total_execs_ += result->executions;
    CountMutatorExecutions(*result);
    AttributeExecutions(batch.work, batch.requested, result->executions);
    for (const ParentCost& cost : result->costs) {
      if (std::optional<size_t> index =
              corpus_.FindByExecutorIndex(cost.parent)) {
        corpus_.RecordCost(*index, cost.executions, cost.steps);
      }
    }
    dropped_finds_ += result->dropped_finds;
    RecordLatency(batch, *result, round_end_);
    if (auto code = HandleFinds(*result)) return code;
    host_.finds += clock_.Now() - collected;
    const uint64_t replayed_from = total_execs_;
    if (steering.stalled()) {
      if (auto code = RecoverStall(steering)) return code;
    }
    if (Verbose(2)) {
      out_ << "INFO: batch of " << batch.work.size()
           << " slots: " << result->executions << "/" << batch.requested
           << " executions, " << result->finds.size() << " finds, "
           << result->dropped_finds << " dropped, "
           << absl::FormatDuration(last_batch_time_);
      if (result->device_start && result->device_end) {
        if (!first_device_start_) first_device_start_ = *result->device_start;
        out_ << "; on the device "
             << absl::FormatDuration(
                    absl::Trunc(*result->device_start - *first_device_start_,
                                absl::Microseconds(1)))
             << " + "
             << absl::FormatDuration(
                    absl::Trunc(*result->device_end - *result->device_start,
                                absl::Microseconds(1)));
      }
      // Where the host's time went since the last batch line: planning
      // and queueing batches, reporting new inputs, waiting for and
      // reading this batch, adding its finds to the corpus.
      auto us = [](absl::Duration d) {
        return absl::FormatDuration(absl::Trunc(d, absl::Microseconds(1)));
      };
      out_ << "; host: plan " << us(host_.plan) << ", submit "
           << us(host_.submit) << ", report " << us(host_.flush) << ", collect "
           << us(host_.collect) << " (read out " << us(result->readout_time)
           << "), finds " << us(host_.finds);
      if (result->quiesces > 0) {
        out_ << "; rounds in flight waited for " << result->quiesces
             << " time(s), " << us(result->quiesce_time);
      }
      out_ << "\n";
    }
    host_ = HostTimes();
    const bool progressed =
        result->executions > 0 || total_execs_ > replayed_from;
    idle_batches = progressed ? 0 : idle_batches + 1;
    if (idle_batches >= kMaxIdleBatches) {
      return Fail(absl::InternalError(absl::StrCat(
          "the executor ran no executions in ", kMaxIdleBatches,
          " batches in a row and cannot make progress; see its messages "
          "above (rerun with -verbosity=2 for batch details)")));
    }
    MaybePulse(before);
    SampleReport();
  }
}

std::optional<int> Engine::RecoverDevice(const absl::Status& lost,
                                         std::deque<Batch>& flights) {
  if (!remake_ || lost.code() != absl::StatusCode::kUnavailable) {
    return FailBatch(lost);
  }
  if (++device_losses_ > kMaxDeviceLosses) {
    return Fail(absl::UnavailableError(absl::StrCat(
        "the device was lost ", device_losses_,
        " times in a row (last: ", lost.message(),
        "); giving up. Check the device (nvidia-smi, dmesg) "
        "and rerun",
        work_dir_.has_corpus_dir()
            ? absl::StrCat(": every input found so far is saved in ",
                           work_dir_.corpus_dir())
            : "")));
  }
  out_ << "WARNING: the device was lost (" << lost.message()
       << "); recreating it (" << device_losses_ << " of at most "
       << kMaxDeviceLosses << " losses in a row), restoring the corpus's "
       << "coverage and running the " << flights.size()
       << " lost round(s) again\n";
  return ReplaceExecutor(remake_, flights,
                         "could not recreate the device after it was lost: ");
}

std::optional<int> Engine::ReplaceExecutor(const ExecutorFactory& factory,
                                           std::deque<Batch>& flights,
                                           absl::string_view failure) {
  absl::StatusOr<std::unique_ptr<Executor>> fresh = factory();
  if (!fresh.ok()) {
    return Fail(absl::Status(fresh.status().code(),
                             absl::StrCat(failure, fresh.status().message())));
  }
  return InstallExecutor(*std::move(fresh), flights);
}

std::optional<int> Engine::InstallExecutor(std::unique_ptr<Executor> fresh,
                                           std::deque<Batch>& flights) {
  // Entries whose first mutants were still to run were timed on the old
  // executor's clocks; the new one's do not continue them.
  tick_latency_.DropPending();
  round_latency_.DropPending();
  // The steering watches the old executor: it goes first (and comes back
  // below iff it ran: while fuzzing).
  const bool steered = steering_ != nullptr;
  steering_.reset();
  owned_executor_ = std::move(fresh);
  executor_ = owned_executor_.get();
  if (!dictionary_.empty()) {
    if (absl::Status s = executor_->SetDictionary(dictionary_); !s.ok()) {
      return Fail(s);
    }
  }
  // The corpus again, in its order (so its executor indices hold), each
  // input run once: the new device's maps start from the same coverage.
  for (size_t i = 0; i < corpus_.size(); ++i) {
    const CorpusEntry& entry = corpus_.entry(i);
    absl::StatusOr<uint32_t> index = executor_->AddInput(entry.data);
    if (!index.ok() || *index != entry.executor_index) {
      return Fail(absl::InternalError(
          "the recreated executor did not take the corpus back in order"));
    }
    absl::StatusOr<BatchResult> ran = executor_->Execute(entry.data);
    if (!ran.ok()) return RecoverDevice(ran.status(), flights);
  }
  // Repetition trials once started stay on (a stall's factory may have
  // turned them on already).
  if (repeat_started_) executor_->StartRepeatTrials();
  recovered_ = true;
  if (!steered) return std::nullopt;
  if (absl::Status s = StartSteering(); !s.ok()) return Fail(s);
  steering_->Configure(configured_);
  if (executor_->overlap() > 1) {
    for (const Batch& batch : flights) {
      if (absl::Status s = executor_->SubmitBatch(batch.work, batch.seed);
          !s.ok()) {
        return RecoverDevice(s, flights);
      }
    }
  }
  return std::nullopt;
}

absl::Status Engine::StartSteering() {
  SteeringOptions steering_options = steering_options_;
  steering_options.telemetry_out = config_.telemetry_out;
  steering_options.dump_buffers = config_.dump_buffers;
  absl::StatusOr<std::unique_ptr<Steering>> steering =
      Steering::Create(steering_options, *executor_, clock_, out_);
  if (!steering.ok()) return steering.status();
  (*steering)->SetSeedEntries(seed_entries_);
  steering_ = *std::move(steering);
  executor_->SetStopCheck([this] { return StopRequested(); });
  return absl::OkStatus();
}

bool Engine::BudgetSpent(uint64_t in_flight_requested) {
  if (!corpus_full_.ok()) return true;  // the batches in flight finish
  if (config_.runs >= 0 && total_execs_ + in_flight_requested >=
                               static_cast<uint64_t>(config_.runs)) {
    return true;
  }
  return StopRequested();
}

bool Engine::StopRequested() {
  if (Interrupted()) return true;
  return config_.max_total_time > 0 &&
         clock_.Now() - start_ >= absl::Seconds(config_.max_total_time);
}

int Engine::ExitInterrupted() {
  out_ << "==" << getpid() << "== libFuzzer: run interrupted; exiting\n";
  PrintUnsavedSummary();
  PrintFinalStats();
  return static_cast<int>(config_.interrupted_exitcode);
}

int Engine::FailBatch(const absl::Status& status) {
  std::string stall = steering_ != nullptr ? steering_->DescribeStall() : "";
  return Fail(absl::Status(
      status.code(),
      absl::StrCat("the executor failed to run a batch: ", status.message(),
                   stall.empty() ? "" : " (it was stopped because ", stall,
                   stall.empty() ? "" : ")",
                   work_dir_.has_corpus_dir()
                       ? absl::StrCat("; every input found so far is "
                                      "saved in ",
                                      work_dir_.corpus_dir())
                       : "")));
}

bool Engine::HoldBehind(const std::deque<Batch>& flights) const {
  if (flights.empty() || !flights.back().first_mutants) return false;
  // The first round's length is unknown: it is held (its finds, the
  // start-up burst, are the campaign's most).
  if (rounds_ == 0) return true;
  return last_device_time_ > kHoldRoundFactor * SizedTarget();
}

void Engine::SetRoundTimes(const BatchResult& result) {
  const bool device = result.device_start && result.device_end;
  if (!latency_clock_) {
    const bool ticks = absl::c_any_of(
        result.costs, [](const ParentCost& c) { return c.first_clock != 0; });
    latency_clock_ = ticks    ? LatencyClock::kDeviceTicks
                     : device ? LatencyClock::kDevice
                              : LatencyClock::kHost;
  }
  if (*latency_clock_ != LatencyClock::kHost && device) {
    round_start_ = *result.device_start;
    round_end_ = *result.device_end;
  } else {
    // An executor without a device clock: the host's view of the batch.
    round_start_ = batch_start_;
    round_end_ = batch_start_ + last_batch_time_;
  }
}

absl::StatusOr<BatchBudget> Engine::NextBudget(const BatchBudget& configured,
                                               Steering& steering,
                                               uint64_t in_flight_requested) {
  // The steering sets the geometry (slots, its own mutants per slot,
  // workgroups); rounds sized by time only ever lower the mutants per slot
  // below the steering's. (The slots stay: on the H200, bytecode_vm's
  // floor-bound rounds with 43% of the slots took 70% of the time, and the
  // campaign ran 0.71x the executions per second with no shorter feedback
  // latency; docs/perf.md.)
  BatchBudget budget = configured;
  if (absl::Status s = steering.ShapeBudget(budget); !s.ok()) return s;
  if (sizer_ && !fresh_.empty()) {
    // Except for a burst of finds (a campaign's first rounds): the batch
    // grows, up to the ring, until its fresh share (Scheduler::kFreshShare)
    // gives every new entry an item. Without it, a CPU device's 64-slot
    // batches left entries of a burst of 34 two batches behind (feedback
    // latency 77 ms instead of 50).
    if (std::optional<LaunchLimits> limits = LaunchLimitsOf(*executor_)) {
      const uint64_t wanted = uint64_t{fresh_.size()} * Scheduler::kFreshShare;
      budget.slots =
          std::max(budget.slots, static_cast<uint32_t>(std::min<uint64_t>(
                                     wanted, limits->ring_slots)));
    }
  }
  if (sizer_) {
    // A batch that gives new entries their first mutants ends their
    // feedback latency: it is kept short.
    budget.execs_per_slot =
        std::min(budget.execs_per_slot,
                 sizer_->ExecsPerSlot(budget.slots, !fresh_.empty()));
  }
  if (config_.runs >= 0) {
    budget.remaining_runs = config_.runs - total_execs_ - in_flight_requested;
  }
  last_execs_per_slot_ = budget.execs_per_slot;
  last_slots_ = budget.slots;
  return budget;
}

absl::StatusOr<BatchResult> Engine::RunTimedBatch(const Batch& batch) {
  batch_start_ = clock_.Now();
  absl::StatusOr<BatchResult> result =
      executor_->RunBatch(batch.work, batch.seed);
  last_batch_time_ = clock_.Now() - batch_start_;
  busy_ += last_batch_time_;
  if (result.ok()) dispatch_ += result->device_time;
  ++rounds_;
  return result;
}

absl::StatusOr<Batch> Engine::PlanBatch(const BatchBudget& configured,
                                        Scheduler& scheduler, bool first,
                                        uint64_t in_flight_requested) {
  const absl::Duration plan_start = clock_.Now();
  Steering& steering = *steering_;
  absl::StatusOr<BatchBudget> budget =
      NextBudget(configured, steering, in_flight_requested);
  if (!budget.ok()) return budget.status();
  BatchPlan plan = steering.PlanBatch(corpus_, budget->slots);
  const bool first_mutants = !fresh_.empty() || (rounds_ == 0 && first);
  plan.fresh = std::move(fresh_);
  Batch batch = scheduler.NextBatch(corpus_, *budget, total_execs_, plan);
  batch.first_mutants = first_mutants;
  fresh_ = std::move(batch.fresh_waiting);
  if (absl::Status s = steering.BeforeBatch(); !s.ok()) return s;
  host_.plan += clock_.Now() - plan_start;
  return batch;
}

std::optional<int> Engine::SubmitLast(std::deque<Batch>& flights,
                                      uint64_t& in_flight_requested) {
  const absl::Duration submit_start = clock_.Now();
  absl::Status s =
      executor_->SubmitBatch(flights.back().work, flights.back().seed);
  host_.submit += clock_.Now() - submit_start;
  if (s.ok()) {
    // New entries' first mutants need not wait for the rest of the rounds
    // queued before theirs.
    if (flights.back().first_mutants) executor_->CutEarlierRounds();
    return std::nullopt;
  }
  in_flight_requested -= flights.back().requested;  // lost with the device
  flights.pop_back();
  return RecoverDevice(s, flights);
}

absl::StatusOr<BatchResult> Engine::CollectTimedBatch() {
  const absl::Duration waited = clock_.Now();
  absl::StatusOr<BatchResult> result = executor_->CollectBatch();
  const absl::Duration now = clock_.Now();
  // The batch ran from when the last one was collected (or this one was
  // waited for, whichever is later) to now, as the host saw it.
  batch_start_ = std::max(waited, last_collected_);
  last_batch_time_ = now - batch_start_;
  last_collected_ = now;
  busy_ += last_batch_time_;
  if (result.ok()) dispatch_ += result->device_time;
  ++rounds_;
  return result;
}

absl::Duration Engine::RoundTarget() const {
  return config_.round_ms > 0 ? absl::Milliseconds(config_.round_ms)
                              : kCpuRoundTime;
}

absl::Duration Engine::SizedTarget() const {
  return sizer_ ? sizer_->target() : RoundTarget();
}

void Engine::PaceToOffPaceBatch(absl::Duration device_time) {
  if (!sizer_ || !config_.paced_rounds || device_time <= absl::ZeroDuration()) {
    return;
  }
  off_pace_time_ = off_pace_time_ <= absl::ZeroDuration()
                       ? device_time
                       : kPreciseFlightWeight * device_time +
                             (1 - kPreciseFlightWeight) * off_pace_time_;
  const absl::Duration base = RoundTarget();
  sizer_->SetTarget(std::clamp(kRoundsPerPreciseFlight * off_pace_time_, base,
                               kMaxPacedRound * base));
}

std::optional<RoundSizer> Engine::MakeRoundSizer(uint32_t ceiling,
                                                 bool overlapped) const {
  if (!config_.adaptive_rounds) return std::nullopt;
  // On a device whose workgroup's lanes all run mutants of one slot, fewer
  // mutants than lanes would leave lanes idle.
  uint32_t floor = 1;
  if (std::optional<LaunchLimits> limits = LaunchLimitsOf(*executor_)) {
    floor = std::max<uint32_t>(limits->workgroup_size_x, 1);
  }
  return RoundSizer(RoundTarget(), floor, ceiling,
                    overlapped ? RoundSizer::kOverlappedMinRoundPerFixed
                               : RoundSizer::kMinRoundPerFixed);
}

void Engine::RecordLatency(const Batch& batch, const BatchResult& result,
                           absl::Duration batch_end) {
  if (result.clock_tick_ns > 0) tick_latency_.set_tick_ns(result.clock_tick_ns);
  if (result.executions == 0) return;
  if (tick_latency_.pending() > 0) {
    // Each parent's earliest work item of the batch.
    absl::flat_hash_map<size_t, uint64_t> first;
    for (const ParentCost& cost : result.costs) {
      if (cost.executions == 0 || cost.first_clock == 0) continue;
      std::optional<size_t> index = corpus_.FindByExecutorIndex(cost.parent);
      if (!index) continue;
      auto [it, added] = first.emplace(*index, cost.first_clock);
      if (!added) it->second = std::min(it->second, cost.first_clock);
    }
    std::vector<FeedbackLatency::Sample> samples;
    for (const auto& [index, tick] : first) {
      if (auto sample = tick_latency_.RanAtTick(index, tick)) {
        samples.push_back(*sample);
      }
    }
    PrintLatencySamples(samples);
  }
  if (round_latency_.pending() == 0) return;
  std::vector<size_t> ran;
  auto add = [&](uint32_t executor_index) {
    if (std::optional<size_t> index =
            corpus_.FindByExecutorIndex(executor_index)) {
      ran.push_back(*index);
    }
  };
  if (!result.costs.empty()) {
    for (const ParentCost& cost : result.costs) {
      if (cost.executions > 0) add(cost.parent);
    }
  } else {
    for (const WorkItem& item : batch.work) add(item.parent);
  }
  std::vector<FeedbackLatency::Sample> bounds =
      round_latency_.BatchRan(ran, batch_end);
  if (latency_clock_ != LatencyClock::kDeviceTicks) PrintLatencySamples(bounds);
}

void Engine::PrintLatencySamples(
    absl::Span<const FeedbackLatency::Sample> samples) {
  if (!Verbose(2)) return;
  for (const FeedbackLatency::Sample& sample : samples) {
    out_ << "INFO: feedback latency of corpus entry " << sample.index << ": "
         << absl::FormatDuration(
                absl::Trunc(sample.latency, absl::Microseconds(10)))
         << "\n";
  }
}

std::optional<int> Engine::RecoverStall(Steering& steering) {
  out_ << "INFO: " << steering.DescribeStall()
       << "; the dispatch was stopped. Replaying the claimed slots one by "
          "one to find the input that hangs\n";
  std::vector<SuspectSlot> suspects = steering.TakeSuspects();
  bool hang_found = false;
  for (const SuspectSlot& suspect : suspects) {
    // Suspects come from the steering's view of the executor's wire
    // buffers, so the executor has a steering side.
    Steerable* wire = executor_->steerable();
    absl::StatusOr<BatchResult> replay =
        wire != nullptr ? wire->ReplaySlot(suspect)
                        : absl::UnimplementedError(
                              "this executor cannot replay ring slots");
    if (!replay.ok()) {
      return Fail(absl::Status(
          replay.status().code(),
          absl::StrCat(
              "replaying ring slot ", suspect.index,
              " of a stalled dispatch failed: ", replay.status().message())));
    }
    total_execs_ += replay->executions;
    CountMutatorExecutions(*replay);
    dropped_finds_ += replay->dropped_finds;
    for (const Find& find : replay->finds) {
      hang_found |= find.kind == Find::Kind::kTimeout &&
                    !ClearedTimeout(find, /*fuzzing=*/true);
    }
    if (auto code = HandleFinds(*replay)) return code;
  }
  if (hang_found) return std::nullopt;  // reported (-keep_going)
  out_ << "INFO: none of the " << suspects.size()
       << " claimed slot(s) hung when replayed alone with the loop budget; "
          "fuzzing continues\n";
  return std::nullopt;
}

std::optional<int> Engine::HandleFinds(const BatchResult& result) {
  const size_t units_before = new_units_waiting_.size();
  const auto close_batch = [&] {
    if (new_units_waiting_.size() == units_before) return;
    const StatusAt at = CurrentStatus();
    for (size_t i = units_before; i < new_units_waiting_.size(); ++i) {
      new_units_waiting_[i].at = at;
    }
    new_units_waiting_.back().closes_batch = true;
  };
  for (const Find& find : result.finds) {
    if (ClearedTimeout(find, /*fuzzing=*/true)) continue;
    std::optional<size_t> parent = corpus_.FindByExecutorIndex(find.parent);
    if (IsBug(find.kind) && config_.keep_going) {
      ReportBugAndContinue(find, parent ? corpus_.entry(*parent).sha1 : "");
      continue;
    }
    if (IsBug(find.kind)) {
      close_batch();
      FlushNewUnits();
      LogFind(find, parent ? corpus_.entry(*parent).sha1 : "");
      return ReportBugAndExit(find, {find.opcode},
                              parent ? corpus_.entry(*parent).sha1 : "",
                              /*save_artifact=*/true);
    }
    if (find.reduces_parent) {
      OfferReduction(find, parent);
      continue;
    }
    if (!corpus_full_.ok()) {
      KeepUnfuzzed(find.data);
      continue;
    }
    auto added = AddToCorpus(find.data, find.new_bits, parent);
    if (!added.ok() &&
        added.status().code() == absl::StatusCode::kResourceExhausted) {
      corpus_full_ = added.status();
      KeepUnfuzzed(find.data);
      continue;
    }
    if (!added.ok()) return Fail(added.status());
    if (!added->has_value()) continue;  // found twice in one batch
    ++new_units_;
    CreditMutators(find.mutations);
    if (parent) corpus_.RecordFind(*parent, find.new_bits);
    fresh_.push_back(**added);
    if (latency_clock_ == LatencyClock::kDeviceTicks &&
        find.device_clock != 0) {
      tick_latency_.FoundAtTick(**added, find.device_clock);
      // The executor may have run its first mutants already.
      if (find.first_mutant_clock != 0) {
        if (auto sample =
                tick_latency_.RanAtTick(**added, find.first_mutant_clock)) {
          PrintLatencySamples({*sample});
        }
      }
    }
    round_latency_.Found(**added, round_start_);
    new_units_waiting_.push_back(
        {**added, find.opcode, find.mutations, std::nullopt, false});
  }
  if (absl::Status s = ApplyReductions(); !s.ok()) return Fail(s);
  close_batch();
  return std::nullopt;
}

void Engine::OfferReduction(const Find& find, std::optional<size_t> parent) {
  if (!parent || corpus_.entry(*parent).retired) return;
  auto [it, fresh] = pending_reductions_.try_emplace(*parent, find);
  if (!fresh && find.data.size() < it->second.data.size()) it->second = find;
}

absl::Status Engine::ApplyReductions() {
  if (pending_reductions_.empty()) return absl::OkStatus();
  const absl::Duration now = clock_.Now();
  if (!config_.reproducible && now - last_reductions_ < kReductionInterval &&
      total_execs_ - execs_at_reductions_ < kReductionExecs) {
    return absl::OkStatus();
  }
  last_reductions_ = now;
  execs_at_reductions_ = total_execs_;
  std::map<size_t, Find> pending = std::move(pending_reductions_);
  pending_reductions_.clear();
  for (const auto& [parent, find] : pending) {
    if (absl::Status s = Reduce(find, parent); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status Engine::Reduce(const Find& find, size_t parent) {
  if (!corpus_full_.ok()) return absl::OkStatus();
  const CorpusEntry& old = corpus_.entry(parent);
  if (old.retired || find.data.size() >= old.data.size()) {
    return absl::OkStatus();  // replaced already, by one as short or shorter
  }
  const uint32_t new_bits = old.new_bits;
  const std::optional<size_t> lineage = old.parent;
  auto added = AddToCorpus(find.data, new_bits, lineage, /*progress=*/false);
  if (!added.ok() &&
      added.status().code() == absl::StatusCode::kResourceExhausted) {
    corpus_full_ = added.status();
    return absl::OkStatus();  // the parent stays: nothing is lost
  }
  if (!added.ok()) return added.status();
  if (!added->has_value()) return absl::OkStatus();  // a known input
  corpus_.Retire(parent);
  NewUnit unit;
  unit.index = **added;
  unit.opcode = find.opcode;
  unit.mutations = find.mutations;
  unit.reduction = true;
  new_units_waiting_.push_back(std::move(unit));
  return absl::OkStatus();
}

std::optional<int> Engine::Reload(std::deque<Batch>& flights,
                                  uint64_t in_flight_requested) {
  if (reloader_ == nullptr || !corpus_full_.ok() || StopRequested()) {
    return std::nullopt;
  }
  const std::vector<std::string> names = reloader_->Poll(clock_.Now());
  uint64_t ran = 0, added = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    if (corpus_.FindBySha1(names[i])) continue;  // this process wrote it
    const bool runs_spent =
        config_.runs >= 0 && total_execs_ + in_flight_requested >=
                                 static_cast<uint64_t>(config_.runs);
    if (runs_spent || StopRequested()) {
      // The rest waits: -runs stays exact (and a later run of this
      // directory loads them anyway).
      for (size_t j = i; j < names.size(); ++j) reloader_->Forget(names[j]);
      break;
    }
    const std::string path = JoinPath(reloader_->dir(), names[i]);
    // A file removed or unreadable meanwhile is its writer's business.
    absl::StatusOr<Bytes> data = ReadFilePrefix(path, input_limit_ + 1);
    if (!data.ok()) continue;
    if (data->size() > input_limit_) data->resize(input_limit_);
    if (corpus_.FindBySha1(Sha1Hex(*data))) continue;
    absl::StatusOr<BatchResult> result = executor_->Execute(*data);
    if (!result.ok()) {
      for (size_t j = i; j < names.size(); ++j) reloader_->Forget(names[j]);
      if (auto code = RecoverDevice(result.status(), flights)) return code;
      break;
    }
    ++ran;
    total_execs_ += result->executions;
    std::optional<uint32_t> new_bits;
    for (const Find& find : result->finds) {
      if (ClearedTimeout(find, /*fuzzing=*/true)) continue;
      if (IsBug(find.kind)) {
        FlushNewUnits();
        out_ << "INFO: " << path << " (from -reload) triggers a bug:\n";
        return ReportBugAndExit(find, {}, "", /*save_artifact=*/true);
      }
      new_bits = std::max(new_bits.value_or(0), find.new_bits);
    }
    if (!new_bits) continue;
    auto entry = AddToCorpus(*data, *new_bits);
    if (!entry.ok() &&
        entry.status().code() == absl::StatusCode::kResourceExhausted) {
      corpus_full_ = entry.status();  // the file is on disk already
      break;
    }
    if (!entry.ok()) return Fail(entry.status());
    if (!entry->has_value()) continue;
    fresh_.push_back(**entry);
    ++added;
    if (Verbose(2)) {
      out_ << "Reloaded " << data->size() << " bytes from " << path << "\n";
    }
  }
  reloaded_units_ += added;
  if (Verbose(2) && ran > 0) {
    out_ << "INFO: -reload: ran " << ran << " new files of " << reloader_->dir()
         << ", " << added << " added to the corpus\n";
  }
  if (added > 0) PrintStatus(StatusEvent::kReload);
  return std::nullopt;
}

void Engine::KeepUnfuzzed(const Bytes& data) {
  std::string sha1 = Sha1Hex(data);
  if (corpus_.FindBySha1(sha1) || !unfuzzed_.insert(sha1).second) return;
  if (!work_dir_.has_corpus_dir()) return;  // an in-memory corpus
  const absl::Status written =
      WriteFileAtomically(work_dir_.CorpusFilePath(sha1), data);
  if (written.ok()) return;
  CorpusEntry entry;
  entry.data = data;
  entry.sha1 = std::move(sha1);
  SaveUnsaved(entry, written);
}

void Engine::FlushNewUnits(bool wait) {
  for (NewUnit& unit : new_units_waiting_) {
    if (!work_dir_.has_corpus_dir()) {
      PrintNewUnit(unit);
      continue;
    }
    if (!writer_) writer_ = std::make_unique<AsyncWriter>();
    const CorpusEntry& entry = corpus_.entry(unit.index);
    writer_->Write(work_dir_.CorpusFilePath(entry.sha1), entry.data,
                   units_queued_);
    units_writing_.emplace_back(units_queued_++, std::move(unit));
  }
  new_units_waiting_.clear();
  if (writer_) {
    ReportWrittenUnits(wait ? writer_->Finish() : writer_->TakeWritten());
  }
  if (wait) {
    // Everything is written: units of a batch that never closed (the run
    // failed while handling it) are printed too.
    for (const NewUnit& done : units_written_) PrintNewUnit(done);
    units_written_.clear();
  }
}

void Engine::ReportWrittenUnits(
    const std::vector<AsyncWriter::Written>& written) {
  for (const AsyncWriter::Written& file : written) {
    // The writer finishes files in the order they were queued, so `file`
    // is the oldest unit; found by its tag all the same.
    auto it = std::find_if(
        units_writing_.begin(), units_writing_.end(),
        [&](const auto& queued) { return queued.first == file.tag; });
    if (it == units_writing_.end()) continue;  // not queued by this engine
    const NewUnit unit = std::move(it->second);
    units_writing_.erase(it);
    const CorpusEntry& entry = corpus_.entry(unit.index);
    if (file.status.ok()) {
      if (Verbose(2)) {
        out_ << "Written " << entry.data.size() << " bytes to " << file.path
             << "\n";
      }
    } else {
      SaveUnsaved(entry, file.status);
    }
    units_written_.push_back(unit);
    if (!unit.closes_batch) continue;
    for (const NewUnit& done : units_written_) PrintNewUnit(done);
    units_written_.clear();
  }
}

void Engine::PrintNewUnit(const NewUnit& unit) {
  const CorpusEntry& entry = corpus_.entry(unit.index);
  PrintStatus(unit.reduction ? StatusEvent::kReduce : StatusEvent::kNew,
              FormatNewUnitSuffix(
                  entry.data.size(),
                  unit.at ? unit.at->max_input_size : corpus_.max_input_size(),
                  {unit.opcode}, unit.mutations),
              unit.at ? &*unit.at : nullptr);
}

absl::StatusOr<std::optional<size_t>> Engine::AddToCorpus(
    const Bytes& data, uint32_t new_bits, std::optional<size_t> parent,
    bool progress) {
  std::string sha1 = Sha1Hex(data);
  if (corpus_.FindBySha1(sha1)) return std::optional<size_t>();
  absl::StatusOr<uint32_t> index = executor_->AddInput(data);
  if (!index.ok()) {
    return absl::Status(index.status().code(),
                        absl::StrCat("the executor could not take a new "
                                     "corpus input: ",
                                     index.status().message()));
  }
  CorpusEntry entry;
  entry.data = data;
  entry.sha1 = std::move(sha1);
  entry.executor_index = *index;
  entry.new_bits = new_bits;
  entry.added_at_exec = total_execs_;
  entry.parent = parent;
  std::optional<size_t> added = corpus_.Add(std::move(entry));
  if (!added) {
    return absl::InternalError(
        absl::StrCat("the executor returned corpus index ", *index,
                     " twice (this is a bug in the executor)"));
  }
  if (progress && (value_profile_remake_ || length_remake_)) {
    last_new_input_ = clock_.Now();
    execs_at_progress_ = total_execs_;
  }
  return added;
}

void Engine::SaveUnsaved(const CorpusEntry& entry,
                         const absl::Status& written) {
  ++unsaved_units_;
  if (fallback_dir_.empty()) {
    fallback_dir_ =
        absl::StrCat(TempDirectory(), "/ringfuzz-unsaved-", getpid());
    out_ << "WARNING: a new input could not be saved to the corpus "
            "directory: "
         << written.message() << "\nWARNING: inputs the corpus directory "
         << "does not take are saved to " << fallback_dir_
         << " instead (or, failing that, printed as UNSAVED-INPUT lines): "
            "copy them into "
         << work_dir_.corpus_dir() << " once it can be written\n";
  }
  absl::Status fallback =
      mkdir(fallback_dir_.c_str(), 0755) == 0 || errno == EEXIST
          ? WriteFileAtomically(absl::StrCat(fallback_dir_, "/", entry.sha1),
                                entry.data)
          : absl::UnavailableError("cannot create it");
  if (fallback.ok()) {
    ++fallback_units_;
    return;
  }
  // Nowhere to write: the input goes into the log, which is all that is
  // left to keep it.
  out_ << "UNSAVED-INPUT " << entry.sha1 << " ";
  for (uint8_t byte : entry.data) out_ << absl::StrFormat("%02x", byte);
  out_ << "\n";
}

void Engine::PrintUnsavedSummary() {
  if (unsaved_units_ == 0) return;
  out_ << "WARNING: " << unsaved_units_ << " new inputs could not be saved to "
       << work_dir_.corpus_dir() << ": " << fallback_units_ << " were saved to "
       << fallback_dir_ << ", " << unsaved_units_ - fallback_units_
       << " printed as UNSAVED-INPUT lines (hex)\n";
}

void Engine::AttributeExecutions(const std::vector<WorkItem>& work,
                                 uint64_t requested, uint64_t executed) {
  if (requested == 0) return;
  for (const WorkItem& item : work) {
    std::optional<size_t> index = corpus_.FindByExecutorIndex(item.parent);
    if (!index) continue;
    unsigned __int128 share = item.count;
    share = share * executed / requested;
    corpus_.RecordExecutions(*index, static_cast<uint64_t>(share));
  }
}

void Engine::PrintRecommendedDictionary() {
  const std::vector<Bytes> tokens = executor_->RecommendedDictionary();
  if (tokens.empty() || !Verbose(1)) return;
  // libFuzzer's block: each line is a valid -dict entry.
  out_ << "###### Recommended dictionary. ######\n";
  for (const Bytes& token : tokens) {
    out_ << "\"";
    for (uint8_t byte : token) {
      if (byte >= 0x20 && byte < 0x7F && byte != '"' && byte != '\\') {
        out_ << static_cast<char>(byte);
      } else {
        out_ << absl::StrFormat("\\x%02X", byte);
      }
    }
    out_ << "\" # Uses: 0\n";
  }
  out_ << "###### End of recommended dictionary. ######\n";
}

bool Engine::ClearedTimeout(const Find& find, bool fuzzing) {
  if (find.kind != Find::Kind::kTimeout || !timeout_gate_.active()) {
    return false;
  }
  return timeout_gate_.Clears(
      find.data, fuzzing ? clock_.Now() - start_ : absl::InfiniteDuration(),
      out_);
}

void Engine::ReportBugAndContinue(const Find& find,
                                  const std::string& base_sha1) {
  if (!reported_bugs_.insert({static_cast<int>(find.kind), find.code}).second) {
    RecordBugInReport(find, "");  // reported before: counted, not saved
    return;
  }
  LogFind(find, base_sha1);
  BugReportRequest request;
  request.find = &find;
  request.pid = getpid();
  request.opcodes = {find.opcode};
  request.mutations = find.mutations;
  request.base_sha1 = base_sha1;
  request.save_artifact = true;
  const BugReportResult reported = ReportBug(request, work_dir_, out_);
  PrintProvenance(find, base_sha1);
  RecordBugInReport(find, reported.artifact);
  if (bug_exit_code_ == 0) {
    bug_exit_code_ = static_cast<int>(find.kind == Find::Kind::kTimeout
                                          ? config_.timeout_exitcode
                                          : config_.error_exitcode);
  }
}

void Engine::LogFind(const Find& find, const std::string& base_sha1) {
  if (steering_ == nullptr) return;
  FindLineFields fields;
  fields.slot = find.slot;
  fields.parent = find.parent;
  fields.base_unit = base_sha1;
  fields.mutations = MutationSequence({find.opcode}, find.mutations);
  fields.bug = BugCategory(find);
  fields.sha1 = Sha1Hex(find.data);
  fields.artifact =
      work_dir_.ArtifactPath(ArtifactKind(find.kind), fields.sha1);
  fields.time = static_cast<uint64_t>(absl::ToUnixSeconds(absl::Now()));
  steering_->LogFind(std::move(fields));
}

void Engine::PrintProvenance(const Find& find, const std::string& base_sha1) {
  if (steering_ == nullptr) return;
  out_ << "INFO: found in epoch " << steering_->last_epoch() << ", ring slot "
       << find.slot << ", by a "
       << (find.host_trial ? "trial the host made from"
                           : WorkKindName(find.opcode) + " mutant of")
       << " corpus entry " << (base_sha1.empty() ? "(unknown)" : base_sha1)
       << " (executor index " << find.parent << "), "
       << MutationSequence({find.opcode}, find.mutations) << "\n";
}

int Engine::ReportBugAndExit(const Find& find, std::vector<uint32_t> opcodes,
                             const std::string& base_sha1, bool save_artifact) {
  const bool fuzzing = !opcodes.empty();
  BugReportRequest request;
  request.find = &find;
  request.pid = getpid();
  request.opcodes = std::move(opcodes);
  if (!request.opcodes.empty()) request.mutations = find.mutations;
  request.base_sha1 = base_sha1;
  request.save_artifact = save_artifact;
  // Prints the input if not saved.
  const BugReportResult reported = ReportBug(request, work_dir_, out_);
  if (fuzzing) PrintProvenance(find, base_sha1);
  RecordBugInReport(find, reported.artifact);
  PrintUnsavedSummary();
  PrintFinalStats();
  return static_cast<int>(find.kind == Find::Kind::kTimeout
                              ? config_.timeout_exitcode
                              : config_.error_exitcode);
}

int Engine::Fail(const absl::Status& status) {
  // What was found is on disk (and reported) before the run ends.
  if (!new_units_waiting_.empty() || writer_) FlushNewUnits();
  out_ << "ERROR: " << status.message() << "\n";
  return kErrorExit;
}

uint64_t Engine::ElapsedSeconds() {
  return static_cast<uint64_t>(absl::ToInt64Seconds(clock_.Now() - start_));
}

Engine::StatusAt Engine::CurrentStatus() {
  StatusAt at;
  at.runs = total_execs_;
  at.coverage = executor_->Coverage();
  at.corpus_units = corpus_.active_size();
  at.corpus_bytes = corpus_.total_bytes();
  at.max_input_size = corpus_.max_input_size();
  return at;
}

void Engine::PrintStatus(StatusEvent event, const std::string& suffix,
                         const StatusAt* at) {
  if (!Verbose(1)) return;
  absl::Duration now = clock_.Now();
  const StatusAt status = at != nullptr ? *at : CurrentStatus();
  StatusCounters counters;
  counters.runs = status.runs;
  counters.cov = status.coverage.blocks;
  counters.ft = status.coverage.features;
  counters.corpus_units = status.corpus_units;
  counters.corpus_bytes = status.corpus_bytes;
  counters.exec_per_sec = ExecPerSec(
      total_execs_, static_cast<uint64_t>(absl::ToInt64Seconds(now - start_)));
  counters.rss_mb = PeakRssMb();
  out_ << FormatStatusLine(event, counters) << suffix << "\n";
  last_status_ = now;
}

void Engine::MaybePulse(uint64_t executions_before) {
  if (total_execs_ == 0) return;
  absl::Duration now = clock_.Now();
  bool passed_power_of_two = FloorPowerOfTwo(total_execs_) > executions_before;
  bool started_up = now - start_ >= absl::Seconds(2);
  bool interval_over =
      config_.report_interval > 0 &&
      now - last_status_ >= absl::Seconds(config_.report_interval);
  if ((passed_power_of_two && started_up) || interval_over) {
    PrintStatus(StatusEvent::kPulse);
  }
}

absl::Duration Engine::LoopTime() {
  if (!loop_start_) return absl::ZeroDuration();
  return loop_end_.value_or(clock_.Now()) - *loop_start_;
}

FinalStats Engine::CollectFinalStats() {
  FinalStats stats;
  stats.runs = total_execs_;
  stats.exec_per_sec = ExecPerSec(total_execs_, ElapsedSeconds());
  stats.new_units = new_units_;
  stats.peak_rss_mb = PeakRssMb();
  const FeedbackLatency& latency = feedback_latency();
  stats.latency_entries = latency.samples();
  stats.latency_p50_ms = CeilMilliseconds(latency.Quantile(0.5));
  stats.latency_p99_ms = CeilMilliseconds(latency.Quantile(0.99));
  stats.device_busy_percent = BusyPercent(device_busy(), LoopTime());
  stats.mutators = MutatorStats();
  stats.reloaded_units = reloaded_units_;
  stats.executor = executor_->ExecutorStats();
  return stats;
}

std::vector<MutatorStat> Engine::MutatorStats() const {
  std::vector<MutatorStat> stats;
  if (mutator_executions_.empty()) return stats;
  auto at = [](const std::vector<uint64_t>& v, uint32_t id) {
    return id < v.size() ? v[id] : 0;
  };
  for (const MutatorInfo& m : Mutators()) {
    stats.push_back({std::string(m.name), at(mutator_executions_, m.id),
                     at(mutator_finds_, m.id)});
  }
  return stats;
}

void Engine::StartReport(const std::vector<std::string>& dirs) {
  if (config_.report.empty()) return;
  CampaignReport header;
  header.target = config_.target;
  header.device = executor_->DeviceDescription();
  header.flags = NonDefaultFlags(config_);
  header.corpus_dirs = dirs;
  header.started_unix = absl::ToUnixSeconds(absl::Now());
  report_ =
      std::make_unique<ReportWriter>(config_.report, std::move(header), out_);
}

void Engine::SampleReport(bool force) {
  if (report_ == nullptr) return;
  const absl::Duration elapsed = clock_.Now() - start_;
  if (!force && !report_->SampleDue(elapsed)) return;
  const CoverageSummary coverage = executor_->Coverage();
  report_->Sample(elapsed, {total_execs_, coverage.blocks, coverage.features,
                            corpus_.size()});
  report_->MaybeWrite(elapsed, MutatorStats());
}

void Engine::RecordBugInReport(const Find& find, const std::string& artifact) {
  if (report_ == nullptr) return;
  report_->RecordBug(find, artifact, clock_.Now() - start_);
}

void Engine::FinishReport(int code) {
  if (report_ == nullptr) return;
  const absl::Duration elapsed = clock_.Now() - start_;
  const CoverageSummary coverage = executor_->Coverage();
  report_->Sample(elapsed, {total_execs_, coverage.blocks, coverage.features,
                            corpus_.size()});
  std::string outcome = absl::StrCat("exit ", code);
  if (code == 0) {
    absl::StrAppend(&outcome, " (done)");
  } else if (code == kErrorExit) {
    absl::StrAppend(&outcome, " (error: see the log)");
  } else if (code == config_.interrupted_exitcode) {
    absl::StrAppend(&outcome, " (interrupted)");
  } else if (code == config_.error_exitcode ||
             code == config_.timeout_exitcode) {
    absl::StrAppend(&outcome, " (bug found)");
  }
  report_->Write(elapsed, MutatorStats(), /*finished=*/true, outcome);
  report_.reset();
}

void Engine::CountMutatorExecutions(const BatchResult& result) {
  if (result.mutator_executions.empty()) return;
  mutator_executions_.resize(
      std::max(mutator_executions_.size(), result.mutator_executions.size()));
  for (size_t id = 0; id < result.mutator_executions.size(); ++id) {
    mutator_executions_[id] += result.mutator_executions[id];
  }
}

void Engine::CreditMutators(absl::Span<const uint32_t> mutations) {
  // Every mutator of the new input's sequence gets the find, once per
  // occurrence, as libFuzzer credits each mutation of a successful
  // sequence (its mutation usefulness): the last one alone would miss the
  // mutations that set it up.
  for (uint32_t id : mutations) {
    if (id >= mutator_finds_.size()) mutator_finds_.resize(id + 1);
    ++mutator_finds_[id];
  }
}

void Engine::PrintFinalStats() {
  if (!config_.print_final_stats) return;
  out_ << FormatFinalStats(CollectFinalStats());
}

void Engine::PrintFeedbackSummary() {
  const FeedbackLatency& latency = feedback_latency();
  const bool ticks = latency_clock_ == LatencyClock::kDeviceTicks;
  out_ << FormatFeedbackLine(latency.samples(), latency.Quantile(0.5),
                             latency.Quantile(0.99),
                             BusyPercent(device_busy(), LoopTime()), ticks)
       << "\n";
  if (ticks && round_latency_.samples() > 0) {
    // The rounds' bound beside it, from the same finds.
    out_ << absl::StrFormat(
        "INFO: by rounds (an upper bound) the same latency is p50 %.1f ms, "
        "p99 %.1f ms over %d new entries\n",
        absl::ToDoubleMilliseconds(round_latency_.Quantile(0.5)),
        absl::ToDoubleMilliseconds(round_latency_.Quantile(0.99)),
        round_latency_.samples());
  }
  if (rounds_ > 0 && executor_->overlap() > 1) {
    // The host's work on a round ran while the next one ran on the device.
    out_ << "INFO: " << rounds_ << " overlapped rounds of "
         << absl::FormatDuration(
                absl::Trunc(dispatch_ / rounds_, absl::Microseconds(10)))
         << " on the device on average\n";
  } else if (rounds_ > 0) {
    const absl::Duration mean = busy_ / rounds_;
    const absl::Duration device = dispatch_ / rounds_;
    out_ << "INFO: " << rounds_ << " rounds of "
         << absl::FormatDuration(absl::Trunc(mean, absl::Microseconds(10)))
         << " on average";
    if (dispatch_ > absl::ZeroDuration()) {
      out_ << ": "
           << absl::FormatDuration(absl::Trunc(device, absl::Microseconds(10)))
           << " on the device, "
           << absl::FormatDuration(
                  absl::Trunc(mean - device, absl::Microseconds(10)))
           << " host work inside the executor";
    }
    out_ << "\n";
  }
  if (rounds_cut_ > 0) {
    out_ << "INFO: " << rounds_cut_
         << " rounds cut short for urgent work (-cut_rounds): "
         << cut_executions_ << " executions not run\n";
  }
  if (sizer_) {
    out_ << "INFO: rounds sized for "
         << absl::FormatDuration(
                absl::Trunc(sizer_->target(), absl::Microseconds(10)))
         << (sizer_->target() != RoundTarget() ? " (paced to precise flights)"
                                               : " (-round_ms)")
         << ": the last batch ran " << absl::FormatDuration(last_batch_time_)
         << " with " << last_slots_ << " slots of " << last_execs_per_slot_
         << " mutants (" << sizer_->floor() << ".." << sizer_->ceiling()
         << "); fixed cost of a round about "
         << absl::FormatDuration(
                absl::Trunc(sizer_->fixed_cost(), absl::Microseconds(10)))
         << "\n";
  }
}

}  // namespace ringfuzz

// Overlapped rounds of the GPU executor (SubmitBatch / CollectBatch).
//
// Two rounds may be in the air: one running, one queued behind it on the
// same queue. Each has its own ring and find queue (parity 0 and 1). The
// control words a round reads and leaves are shared, so its submission
// sets them on the device (vkCmdUpdateBuffer before the dispatch: claim
// cursor, counters, epoch, priority partitions) and saves them there
// (vkCmdCopyBuffer after it, into the parity's snapshot): the host never
// writes a word a queued or running round uses, and reads a round's
// results from its snapshot after its fence, whatever the next round has
// done to the live words since. The coverage maps stay shared: a round
// sees every bit the rounds before it set.
//
// A round is published and queued while the one before it runs, so the
// device goes from one round to the next without waiting for the host;
// the host reads a round's finds while the next one runs, and the round
// it plans then holds their mutants.

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fuzz/gpu/gpu_executor.h"
#include "fuzz/gpu/ring_slots.h"
#include "fuzz/gpu/seen_clears.h"
#include "fuzz/gpu/speculative_slots.h"
#include "fuzz/steer/steering_wire.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

absl::Status GpuExecutor::SubmitBatch(absl::Span<const WorkItem> work,
                                      uint64_t seed) {
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  if (!overlap_ || work.empty() || work.size() > ring_slots_) {
    // RunBatch waits for the flights first: results stay in order.
    finished_.push_back(RunBatch(work, seed));
    return absl::OkStatus();
  }
  for (const WorkItem& item : work) {
    if (item.parent >= inputs_.size() ||
        (item.opcode == RF_OP_SPLICE && item.partner >= inputs_.size())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "work item names corpus entry ", std::max(item.parent, item.partner),
          " but the executor holds ", inputs_.size()));
    }
  }
  if (flights_.size() >= 2) FinishOldest();
  // Inputs added since the last flight get their compare logs (and later
  // their length trials) in this flight's first slots, unless a flight
  // with such runs is still in the air. Until an input's log has come
  // back, its CMP items run as HAVOC: it has no patches yet.
  // A full ring gives up its last work items for them (a batch may run
  // less than asked, and says so in its executions).
  // With a signature build, a flight with service runs runs the precise
  // build, whose work is slow anyway: the service runs (signature
  // candidates among them) may take up to half of it.
  const uint32_t room =
      std::max<uint32_t>({ring_slots_ - static_cast<uint32_t>(work.size()),
                          std::min<uint32_t>(ring_slots_ - 1, kServiceSlots),
                          fast_ != nullptr ? ring_slots_ / 2 : 0u});
  absl::StatusOr<std::vector<WorkItem>> service = PlanServiceRuns(room);
  if (!service.ok()) return service.status();
  std::vector<WorkItem> items = *std::move(service);
  const uint32_t service_slots = static_cast<uint32_t>(items.size());
  // A flight runs the signature build unless it carries service runs,
  // which need the precise build's coverage and compare logs.
  Program& program =
      fast_ != nullptr && service_slots == 0 ? *fast_ : *precise_;
  items.insert(items.end(), work.begin(),
               work.begin() +
                   std::min<size_t>(work.size(), ring_slots_ - service_slots));
  // A precise flight of a signature executor runs a share of its work.
  const bool precise_flight = fast_ != nullptr && &program == precise_.get();
  const double share = precise_flight ? PreciseFlightShare() : 1.0;
  for (size_t i = service_slots; i < items.size(); ++i) {
    if (items[i].opcode == RF_OP_CMP && items[i].parent >= logged_inputs_) {
      items[i].opcode = RF_OP_HAVOC;
    }
    items[i].count = std::max<uint32_t>(
        1, static_cast<uint32_t>(std::ceil(items[i].count / share)));
  }
  const uint32_t lead =
      service_slots +
      (precise_flight ? AddSpeculativeRuns(items, service_slots) : 0);
  const uint32_t parity = next_parity_;
  const uint32_t count = static_cast<uint32_t>(items.size());
  if (absl::Status s = PrepareToPublish(RingOf(parity).words(), count);
      !s.ok()) {
    return s;
  }
  for (uint32_t s = 0; s < count; ++s) {
    // The work's slots keep the seeds they have without service slots.
    PublishSlot(s, items[s],
                Mix(s < service_slots ? seed + s
                    : s < lead        ? ~seed + s
                                      : seed + (s - lead)),
                parity);
  }
  MarkPublished(count, parity);

  const uint32_t* ctrl = control_.words();
  control_epoch_ =
      (flights_.empty() ? ctrl[RF_CTRL_EPOCH] : control_epoch_) + 1;
  vk::DispatchCommands commands;
  std::vector<uint32_t> head = {control_epoch_};
  const auto partitions = PriorityPartitions(items);
  head.insert(head.end(), partitions.begin(), partitions.end());
  commands.before.push_back({&control_, RF_CTRL_EPOCH, std::move(head)});
  // EXECS, CLAIM_CURSOR, FIND_COUNT, FIND_DROPPED, FAULTS, STOP.
  commands.before.push_back(
      {&control_, RF_RES_EXECS,
       std::vector<uint32_t>(RF_RES_STOP - RF_RES_EXECS + 1, 0u)});
  commands.before.push_back(
      {&control_, RF_RES_MUTATOR_USES,
       std::vector<uint32_t>(RF_RES_MUTATOR_USE_WORDS, 0u)});
  AppendSeenClears(commands);
  const uint64_t snapshot = uint64_t{parity} * kSnapshotWords;
  commands.after.push_back(
      {&control_, 0, snapshots_.get(), snapshot, RF_RES_EDGE_MAP});
  commands.after.push_back({&control_, RF_RES_MUTATOR_USES, snapshots_.get(),
                            snapshot + RF_RES_EDGE_MAP,
                            RF_RES_MUTATOR_USE_WORDS});
  static_assert(RF_RES_SITE_MAP == RF_RES_EDGE_MAP + RF_EDGE_MAP_WORDS,
                "the snapshot copies both maps in one piece");
  commands.after.push_back({&control_, RF_RES_EDGE_MAP, snapshots_.get(),
                            snapshot + kSnapshotMaps,
                            RF_EDGE_MAP_WORDS + RF_SITE_MAP_WORDS});

  MegakernelPush push = MakePush(
      count, Mix(seed * 0x9E3779B97F4A7C15ull + (uint64_t{++epoch_} << 32)));
  // A flight with service runs is not cut: the executor needs their results
  // whole.
  if (cut_rounds_ && service_slots == 0) push.flags |= RF_PUSH_CUT_ON_FIND;
  absl::Status submitted =
      DispatcherOf(program, parity)
          .Submit(absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(&push),
                                      sizeof(push)),
                  std::min(count, groups_), commands);
  if (!submitted.ok()) return NoteLoss(submitted);
  flights_.push_back({parity, count, push.seed, false, partitions,
                      service_slots != 0, &program, control_epoch_});
  service_in_flight_ = service_in_flight_ || service_slots != 0;
  next_parity_ ^= 1;
  // Judgements of candidates with new coverage and compare logs of new
  // inputs come before the rest of the rounds queued before this one.
  if (service_slots != 0 && (service_.urgent != 0 || service_.log_count != 0)) {
    CutEarlierRounds();
  }
  return absl::OkStatus();
}

void GpuExecutor::CutEarlierRounds() {
  if (!cut_rounds_ || flights_.size() < 2) return;
  const auto earlier = flights_.end() - 1;
  if (std::any_of(flights_.begin(), earlier,
                  [](const Flight& f) { return f.service; })) {
    return;
  }
  // Flights run in the order of their epochs, so the words a flight reads
  // are its own: the cut reaches only the flights before the last.
  control_.words()[RF_CTRL_CUT_EPOCH] = std::prev(earlier)->epoch;
  for (auto f = flights_.begin(); f != earlier; ++f) f->cut = true;
}

absl::StatusOr<BatchResult> GpuExecutor::CollectBatch() {
  if (finished_.empty()) {
    if (flights_.empty()) {
      return absl::FailedPreconditionError(
          "CollectBatch without a batch in flight; SubmitBatch first");
    }
    FinishOldest();
  }
  absl::StatusOr<BatchResult> result = std::move(finished_.front());
  finished_.pop_front();
  if (result.ok()) {
    ObserveCosts(*result);
    result->quiesces = std::exchange(quiesces_, 0);
    result->quiesce_time = std::exchange(quiesce_time_, absl::ZeroDuration());
  }
  return result;
}

bool GpuExecutor::OldestBatchAddsNoInputs() const {
  // (A flight with service runs runs the precise build.)
  return finished_.empty() && !flights_.empty() && fast_ != nullptr &&
         flights_.front().program == fast_.get();
}

absl::Status GpuExecutor::Quiesce() {
  if (flights_.empty()) return CheckUsable();
  const absl::Time start = absl::Now();
  ++quiesces_;
  while (!flights_.empty()) {
    if (absl::Status s = CheckUsable(); !s.ok()) return s;
    FinishOldest();
  }
  quiesce_time_ += absl::Now() - start;
  return CheckUsable();
}

void GpuExecutor::FinishOldest() {
  const Flight flight = flights_.front();
  flights_.pop_front();
  bool unfinished = false;
  absl::StatusOr<BatchResult> result = FlightResult(flight, unfinished);
  if (!result.ok() || !unfinished) {
    // Its speculative runs' scratch entries mean nothing to later flights.
    if (flight.service) speculated_.clear();
    finished_.push_back(std::move(result));
    return;
  }
  // Slots left published (lanes out of loop budget) run to the end on
  // their own, once the flights queued behind have ended; their results
  // keep their place behind this one.
  std::deque<absl::StatusOr<BatchResult>> later;
  while (!flights_.empty()) {
    const Flight next = flights_.front();
    flights_.pop_front();
    bool ignored = false;
    later.push_back(FlightResult(next, ignored));
  }
  BatchResult rest;
  std::vector<Find> candidates;
  // The drain reads the live control words: this flight's partitions, not
  // the last flight's.
  std::copy(flight.partitions.begin(), flight.partitions.end(),
            control_.words() + RF_CTRL_PRIORITY_PARTITIONS);
  steered_ = observer_;
  stoppable_ = true;
  absl::Status drained =
      Drain(*flight.program, flight.slot_count, flight.push_seed, rest,
            candidates, flight.parity);
  stoppable_ = false;
  steered_ = nullptr;
  if (drained.ok()) {
    QueueCandidates(candidates);
    result->executions += rest.executions;
    for (Find& find : rest.finds) result->finds.push_back(std::move(find));
    result->dropped_finds += rest.dropped_finds;
    for (size_t id = 0; id < rest.mutator_executions.size(); ++id) {
      result->mutator_executions[id] += rest.mutator_executions[id];
    }
    result->costs.clear();
    CollectCosts(flight.slot_count, *result, flight.parity);
    if (rest.device_end) result->device_end = rest.device_end;
    result->device_time += rest.device_time;
    // The service runs have ended now (or were stopped): their finds and
    // executions are both dispatches'.
    absl::Status served = flight.service
                              ? FinishServiceRuns(flight.parity, *result)
                              : absl::OkStatus();
    if (served.ok()) {
      finished_.push_back(std::move(result));
    } else {
      finished_.push_back(served);
    }
  } else {
    finished_.push_back(drained);
  }
  if (flight.service) speculated_.clear();
  for (auto& r : later) finished_.push_back(std::move(r));
}

absl::StatusOr<BatchResult> GpuExecutor::FlightResult(const Flight& flight,
                                                      bool& unfinished) {
  vk::Dispatcher& dispatcher = DispatcherOf(*flight.program, flight.parity);
  BatchResult result;
  host_stopped_ = flight.stopped;
  steered_ = flight.stopped ? nullptr : observer_;
  if (steered_ != nullptr) {
    // The rounds before this one have ended: the live control words are
    // this round's, or still the last one's if it has not begun.
    steered_->OnDispatchStart(
        Wire(flight.slot_count, flight.push_seed, flight.parity));
  }
  const absl::Time waited = absl::Now();
  stoppable_ = !flight.stopped;
  absl::StatusOr<bool> finished = WaitForDispatch(
      dispatcher, flight.slot_count, flight.push_seed, flight.parity);
  stoppable_ = false;
  if (!finished.ok() || !*finished) {
    steered_ = nullptr;
    if (!finished.ok()) return NoteLoss(finished.status());
    return Hung();
  }
  const absl::Time readout_start = absl::Now();
  AddInterval(dispatcher, result);
  result.device_time = result.device_end && result.device_start
                           ? *result.device_end - *result.device_start
                           : absl::Now() - waited;
  device_time_ += result.device_time;
  const uint32_t* snapshot =
      snapshots_->words() + uint64_t{flight.parity} * kSnapshotWords;
  result.executions = snapshot[RF_RES_EXECS];
  CollectMutatorUses(snapshot + RF_RES_EDGE_MAP, result);
  std::vector<Find> candidates;  // the signature build's
  if (absl::Status s =
          CollectFinds(snapshot, flight.parity, result, candidates);
      !s.ok()) {
    steered_ = nullptr;
    return s;
  }
  QueueCandidates(candidates);
  // The maps as this round left them: every round before it had ended,
  // and coverage only grows, so they are the coverage so far (the round
  // queued behind may have added bits: they are counted after it).
  coverage_ = CountCoverage(snapshot + kSnapshotMaps,
                            snapshot + kSnapshotMaps + RF_EDGE_MAP_WORDS);
  coverage_stale_ = false;
  // Cut by CutEarlierRounds or by itself (RF_PUSH_CUT_ON_FIND).
  const bool cut = flight.cut || snapshot[RF_CTRL_CUT_EPOCH] >= flight.epoch;
  NotifyEpochEnd(flight.slot_count, flight.push_seed, flight.parity, snapshot,
                 cut);
  steered_ = nullptr;
  CollectCosts(flight.slot_count, result, flight.parity);
  const PendingWork pending = Pending(flight.slot_count, flight.parity);
  // A cut flight's unclaimed slots are dropped (PrepareToPublish empties
  // them before the ring is published again); its claimed ones stopped.
  if (cut) result.cut_executions = pending.executions + pending.stopped_short;
  unfinished = !host_stopped_ && !cut && snapshot[RF_RES_STOP] == 0 &&
               pending.slots != 0;
  // An unfinished flight's service runs go on in FinishOldest's drain, and
  // are finished there: finishing them here would count the drain's runs
  // of them as the work's executions, and run them twice.
  if (flight.service && !unfinished) {
    if (absl::Status s = FinishServiceRuns(flight.parity, result); !s.ok()) {
      return s;
    }
  }
  if (!unfinished) NotePace(*flight.program, result);
  result.off_pace = fast_ != nullptr && flight.program == precise_.get();
  result.readout_time = absl::Now() - readout_start;
  return result;
}

absl::StatusOr<std::vector<WorkItem>> GpuExecutor::PlanServiceRuns(
    uint32_t room) {
  std::vector<WorkItem> items;
  if (service_in_flight_ || room == 0) return items;
  const uint32_t per_slot = precise_->kernel.local_size;
  service_ = ServiceRuns();
  auto add_runs = [&](uint32_t opcode, InputRange range) {
    for (const WorkItem& item : InputRuns(opcode, range, per_slot)) {
      items.push_back(item);
    }
  };
  if (logged_inputs_ < inputs_.size()) {
    // The inputs and their colored copies in at most `room` slots (two
    // ranges: one slot more than their entries fill, at most).
    const bool copies = colorize_ && room >= 2;
    const uint32_t n = PlanColorCopies(
        logged_inputs_,
        static_cast<uint32_t>(std::min<uint64_t>(
            inputs_.size() - logged_inputs_, uint64_t{room} * per_slot)),
        static_cast<uint32_t>(std::min<uint64_t>(
            log_capacity_, uint64_t{copies ? room - 1 : room} * per_slot)),
        copies ? scratch_entries_ : 0, service_.copies);
    // Room for their patches now: replacing the buffer later would need
    // the flights to end.
    const auto reserve = [&] {
      return ReservePatches(
          static_cast<uint32_t>(inputs_.size()),
          patch_data_.size() +
              (patches_capped_
                   ? 0
                   : uint64_t{n} * kMaxPatchesPerInput * RF_PATCH_WORDS));
    };
    absl::Status reserved = reserve();
    if (reserved.code() == absl::StatusCode::kResourceExhausted) {
      // No room for their patches: from now on inputs go without.
      CapPatches(static_cast<uint32_t>(patch_index_.size() / 2), reserved);
      reserved = reserve();
    }
    if (!reserved.ok()) return reserved;
    service_.log_first = logged_inputs_;
    service_.log_count = n;
    add_runs(RF_OP_CMPLOG, {logged_inputs_, n, 0});
    add_runs(RF_OP_CMPLOG, {corpus_capacity_, service_.copies.size(), n});
  } else if (probed_inputs_ < logged_inputs_) {
    // A probe pass (kProbedInputsPerFlight inputs) rides on a flight that
    // runs the precise build anyway for combinations that are due, in the
    // room its trials leave, but never beside urgent trials (new entries
    // wait on those); or it has a flight of its own (of up to
    // kProbedInputsPerOwnFlight inputs) after kProbeIdleFlights flights
    // without service runs. Probes beside the
    // inputs' logs and urgent trials made bytecode_vm's feedback latency
    // p99 on an H100 26-31 ms, against 7-13 ms before (docs/perf.md).
    const bool own_flight = flights_without_service_ >= kProbeIdleFlights;
    const bool precise_anyway =
        (pending_trials_.urgent() == 0 && pending_trials_.size() != 0 &&
         flights_without_service_ >= kCombinationWaitFlights) ||
        own_flight;
    const uint64_t waiting = pending_trials_.size();
    const uint64_t trial_slots = (waiting + per_slot - 1) / per_slot;
    if (precise_anyway && room >= 2 + trial_slots) {
      const uint64_t runs = uint64_t{room - 1 - trial_slots} * per_slot;
      uint32_t first = 0;
      const uint32_t n = PlanProbeCopies(
          own_flight ? kProbedInputsPerOwnFlight : kProbedInputsPerFlight,
          static_cast<uint32_t>(std::min<uint64_t>(log_capacity_, runs)),
          static_cast<uint32_t>(scratch_entries_ -
                                std::min<uint64_t>(waiting, scratch_entries_)),
          service_.copies, first);
      if (n != 0) {
        service_.probe_pass = true;
        service_.log_first = first;
        service_.log_count = n;
        add_runs(RF_OP_CMPLOG, {first, n, 0});
        add_runs(RF_OP_CMPLOG, {corpus_capacity_, service_.copies.size(), n});
      }
    }
  }
  const uint32_t left = room - static_cast<uint32_t>(items.size());
  // Trials take the scratch entries after the colored copies.
  const uint32_t base = service_.copies.size();
  // Length trials and candidates with new hit-count classes first, then
  // new combinations of known ones (TrialQueue).
  const uint64_t room_for =
      std::min<uint64_t>(base < scratch_entries_ ? scratch_entries_ - base : 0,
                         uint64_t{left} * per_slot);
  // Only combinations waiting: they wait for kCombinationWaitFlights.
  const bool combinations_wait =
      items.empty() && pending_trials_.urgent() == 0 &&
      flights_without_service_ < kCombinationWaitFlights;
  if (room_for > 0 && pending_trials_.size() != 0 && !combinations_wait) {
    size_t urgent = 0;
    service_.trials = pending_trials_.Take(room_for, urgent);
    service_.urgent = static_cast<uint32_t>(urgent);
    const uint32_t n = static_cast<uint32_t>(service_.trials.size());
    for (uint32_t i = 0; i < n; ++i) {
      WriteCorpusEntry(corpus_capacity_ + base + i, ScratchOffset(base + i),
                       service_.trials[i].data);
    }
    add_runs(RF_OP_CALIBRATE, {corpus_capacity_ + base, n, 0});
  }
  service_.slots = static_cast<uint32_t>(items.size());
  flights_without_service_ = items.empty() ? flights_without_service_ + 1 : 0;
  return items;
}

absl::Status GpuExecutor::FinishServiceRuns(uint32_t parity,
                                            BatchResult& result) {
  service_in_flight_ = false;
  ServiceRuns service = std::move(service_);
  service_ = ServiceRuns();
  const uint32_t* ring = RingOf(parity).words();
  uint64_t executions = 0;
  bool logged = true, tried = true;
  for (uint32_t s = 0; s < service.slots; ++s) {
    const uint32_t* slot = ring + uint64_t{s} * RF_SLOT_WORDS;
    const uint32_t* args = slot + RF_SLOT_ARG0;
    executions += args[RF_ARG_EXECS];
    // A run that faulted (a length trial that crashed) has run.
    const bool done = (slot[RF_SLOT_STATUS] == RF_STATUS_DONE ||
                       slot[RF_SLOT_STATUS] == RF_STATUS_FAULT) &&
                      args[RF_ARG_EXECS] == args[RF_ARG_COUNT];
    if (!done && slot[RF_SLOT_OPCODE] == RF_OP_CMPLOG) logged = false;
    if (!done && slot[RF_SLOT_OPCODE] == RF_OP_CALIBRATE) tried = false;
  }
  // Service runs are not the batch's executions (as LogNewInputs' and
  // Calibrate's are not).
  result.executions -= std::min<uint64_t>(executions, result.executions);
  std::vector<Find> finds, log_finds;
  for (Find& find : result.finds) {
    if (!IsServiceFind(find)) {
      NameSpeculativeParent(find);
      finds.push_back(std::move(find));
      continue;
    }
    if (find.opcode == RF_OP_CMPLOG) {
      log_finds.push_back(std::move(find));
      continue;
    }
    // A length trial's find is the trial's input, made from its parent.
    const uint32_t i = find.parent - corpus_capacity_ - service.copies.size();
    if (i >= service.trials.size()) continue;
    find.parent = service.trials[i].parent;
    find.opcode = service.trials[i].opcode;
    find.mutations = service.trials[i].mutations;
    find.host_trial = service.trials[i].host_trial;
    // A signature candidate was found when its mutant first ran.
    if (service.trials[i].device_clock != 0) {
      find.device_clock = service.trials[i].device_clock;
    }
    if (i < service.speculative) {
      find.first_mutant_clock =
          FirstClaimClock(parity, service.slots + i, result);
    }
    finds.push_back(std::move(find));
  }
  KeepCopyFinds(log_finds, service.log_first, service.copies, finds);
  result.finds = std::move(finds);
  candidates_evaluated_ += service.trials.size();
  // A flight stopped early leaves runs undone: they go into a later one.
  if (!tried)
    pending_trials_.PutBack(std::move(service.trials), service.urgent);
  if (service.probe_pass) {
    if (!logged) {
      PutBackProbes(service.log_first, service.log_count);
    } else {
      probed_inputs_ += service.log_count;
      std::vector<Find> trials;
      DeriveLinearFromLogs(service.log_first, service.log_count, service.copies,
                           trials);
      for (Find& trial : trials) pending_trials_.AddTrial(std::move(trial));
    }
    return absl::OkStatus();
  }
  if (service.log_count == 0 || !logged ||
      service.log_first != logged_inputs_) {
    return absl::OkStatus();
  }
  std::vector<Find> trials;
  DeriveFromLogs(service.log_first, service.log_count, service.copies, trials);
  for (Find& trial : trials) pending_trials_.AddTrial(std::move(trial));
  if (absl::Status s = UploadPatches(service.log_first); !s.ok()) return s;
  logged_inputs_ = service.log_first + service.log_count;
  return absl::OkStatus();
}

uint32_t GpuExecutor::AddSpeculativeRuns(std::vector<WorkItem>& items,
                                         uint32_t service_slots) {
  service_.speculative = 0;
  speculated_.clear();
  // Up to half of the work's slots, each run keeping the count of the item
  // it replaces: the flight lasts as long as it would without them.
  const std::vector<uint32_t> replaced = SpeculativeSlots(
      items, service_slots, static_cast<uint32_t>(service_.trials.size()));
  const auto n = static_cast<uint32_t>(replaced.size());
  if (n == 0) return 0;
  speculated_first_ = corpus_capacity_ + service_.copies.size();
  std::vector<WorkItem> runs(n);
  for (uint32_t i = 0; i < n; ++i) {
    const WorkItem& item = items[replaced[i]];
    runs[i].opcode = RF_OP_HAVOC;
    runs[i].parent = runs[i].partner = speculated_first_ + i;
    runs[i].count = item.count;
    runs[i].stack = item.stack;
    runs[i].priority = RF_PRIORITY_HIGH;
    const Find& trial = service_.trials[i];
    speculated_.push_back({trial.parent, trial.mutations});
  }
  // Removes the replaced items (ascending, distinct) in one pass.
  uint32_t kept = replaced.front();
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t end =
        i + 1 < n ? replaced[i + 1] : static_cast<uint32_t>(items.size());
    for (uint32_t k = replaced[i] + 1; k < end; ++k) items[kept++] = items[k];
  }
  items.resize(kept);
  items.insert(items.begin() + service_slots, runs.begin(), runs.end());
  service_.speculative = n;
  return n;
}

void GpuExecutor::NameSpeculativeParent(Find& find) const {
  if (find.parent < speculated_first_ ||
      find.parent - speculated_first_ >= speculated_.size() ||
      IsServiceFind(find)) {
    return;
  }
  const Speculated& trial = speculated_[find.parent - speculated_first_];
  find.parent = trial.parent;
  find.mutations.insert(find.mutations.begin(), trial.mutations.begin(),
                        trial.mutations.end());
}

uint64_t GpuExecutor::FirstClaimClock(uint32_t parity, uint32_t s,
                                      const BatchResult& result) {
  const uint32_t* slot = RingOf(parity).words() + uint64_t{s} * RF_SLOT_WORDS;
  const uint64_t raw = RawClaimClock(parity, s);
  if (raw == 0 || slot[RF_SLOT_ARG0 + RF_ARG_EXECS] == 0) return 0;
  return clock_fit_.Extend(raw,
                           result.device_start.value_or(absl::ZeroDuration()));
}

double GpuExecutor::PreciseFlightShare() const {
  const double slowdown = precise_ns_per_exec_ > 0 && fast_ns_per_exec_ > 0
                              ? precise_ns_per_exec_ / fast_ns_per_exec_
                              : kAssumedPreciseSlowdown;
  return std::clamp(slowdown, 1.0, kMaxPreciseShare) * kPreciseFlightDivisor;
}

void GpuExecutor::NotePace(const Program& program, const BatchResult& result) {
  if (fast_ == nullptr || result.executions == 0 ||
      result.device_time <= absl::ZeroDuration()) {
    return;
  }
  // Service runs count in a precise flight's time but not in its
  // executions: its pace is, if anything, slower than the build's, and
  // its flights shorter.
  const double ns = absl::ToDoubleNanoseconds(result.device_time) /
                    static_cast<double>(result.executions);
  double& pace =
      &program == precise_.get() ? precise_ns_per_exec_ : fast_ns_per_exec_;
  pace = pace <= 0 ? ns : kPaceWeight * ns + (1 - kPaceWeight) * pace;
}

void GpuExecutor::QueueCandidates(std::vector<Find>& candidates) {
  for (Find& candidate : candidates) {
    const uint32_t seen = candidate.aux;  // the seen-table bit + 1
    if (!pending_trials_.AddCandidate(std::move(candidate)) && seen != 0 &&
        seen <= RF_SEEN_BITS) {
      unseen_again_.push_back(seen - 1);
    }
  }
  candidates.clear();
}

void GpuExecutor::AppendSeenClears(vk::DispatchCommands& commands) {
  if (unseen_again_.empty()) return;
  const size_t waiting = unseen_again_.size();
  const std::vector<SeenWordWrite> writes = TakeSeenClears(
      unseen_again_,
      absl::MakeConstSpan(control_.words() + RF_RES_SEEN, RF_SEEN_WORDS),
      kMaxSeenClearWords);
  for (const SeenWordWrite& w : writes) {
    commands.before.push_back({&control_, RF_RES_SEEN + w.word, {w.value}});
  }
  candidates_unmarked_ += waiting - unseen_again_.size();
}

std::vector<std::pair<std::string, uint64_t>> GpuExecutor::ExecutorStats()
    const {
  std::vector<std::pair<std::string, uint64_t>> stats;
  if (fast_ != nullptr) {
    stats = {{"signature_candidates_judged", candidates_evaluated_},
             {"signature_candidates_dropped", candidates_dropped()},
             {"signature_candidates_unmarked", candidates_unmarked_},
             {"mutants_cut", mutant_budget_.cuts()}};
  }
  stats.emplace_back("linear_probe_passes", probe_passes_);
  stats.emplace_back("linear_probes_skipped", probes_skipped_);
  stats.emplace_back("linear_trials", linear_trials_);
  return stats;
}

bool GpuExecutor::IsServiceFind(const Find& find) const {
  return find.opcode == RF_OP_CMPLOG ||
         (find.opcode == RF_OP_CALIBRATE && find.parent >= corpus_capacity_);
}

}  // namespace ringfuzz

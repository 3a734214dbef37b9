// The steering: the host reads the megakernel's ring telemetry every epoch
// (after each dispatch round) and while a dispatch runs, and uses it to
// steer the campaign:
//
//  * stall recovery (StallWatch): a dispatch that drains no slot for the
//    stall interval while work is queued is stopped (the executor sets the
//    SHUTDOWN control word); its CLAIMED slots become suspects that the
//    engine replays one by one (Steerable::ReplaySlot) to isolate the input
//    that hangs, which is then reported as a timeout;
//  * launch geometry (LaunchSteering): the launch policy's recommendation
//    sets the next batch's slots, mutants per slot and workgroups per
//    dispatch;
//  * priority aging (PriorityAging): parents whose work was left unfinished
//    come first, at RF_PRIORITY_HIGH, in the next batch;
//  * tenant fairness (TenantBalancer): seed entries and entries found in
//    this run share the device's claims equally;
//  * -telemetry_out and -dump_buffers (telemetry_log.h).
//
// The engine owns one Steering per fuzzing loop. It registers itself as the
// DispatchObserver of the executor's steering side (Executor::steerable(),
// fuzz/steer/steerable.h) for its lifetime. With an executor that has none
// nothing is observed, and batches are left to energy alone.
#ifndef RINGFUZZ_FUZZ_STEER_STEERING_H_
#define RINGFUZZ_FUZZ_STEER_STEERING_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "corpus/corpus.h"
#include "fuzz/engine/clock.h"
#include "fuzz/engine/executor.h"
#include "fuzz/engine/find_line.h"
#include "fuzz/engine/scheduler.h"
#include "fuzz/steer/steerable.h"
#include "fuzz/steer/steering_launch.h"
#include "fuzz/steer/steering_priority.h"
#include "fuzz/steer/steering_stall.h"
#include "fuzz/steer/steering_tenants.h"
#include "fuzz/steer/steering_wire.h"
#include "fuzz/steer/telemetry_log.h"
#include "telemetry/ring_telemetry.h"
#include "telemetry/telemetry_decode_scratch.h"

namespace ringfuzz {

struct SteeringOptions {
  // How often a running dispatch is polled.
  absl::Duration poll_interval = absl::Milliseconds(20);
  // How long no slot may drain, with work queued, before a dispatch counts
  // as stalled.
  absl::Duration stall_interval = absl::Seconds(10);
  std::string telemetry_out;  // -telemetry_out; "" = none
  std::string dump_buffers;   // -dump_buffers; "" = none
};

class Steering final : public DispatchObserver {
 public:
  // Opens the -telemetry_out file and the -dump_buffers directory (errors
  // say which flag and how to fix it) and starts observing `executor`.
  // `executor`, `clock` and `log` must outlive the Steering; `log` receives
  // warnings (each kind once).
  static absl::StatusOr<std::unique_ptr<Steering>> Create(
      const SteeringOptions& options, Executor& executor, Clock& clock,
      std::ostream& log);
  ~Steering() override;
  Steering(const Steering&) = delete;
  Steering& operator=(const Steering&) = delete;

  // --- The engine's calls, in this order per batch. ---

  // The first `count` corpus entries are the run's starting entries (tenant
  // kSeedTenant); later ones were found (kFoundTenant).
  void SetSeedEntries(size_t count) { seed_entries_ = count; }
  // The batch shape the flags asked for; the launch steering starts there.
  void Configure(const BatchBudget& budget);
  // Sets the next batch's slots and mutants per slot (launch steering) and
  // the executor's workgroups per dispatch.
  absl::Status ShapeBudget(BatchBudget& budget);
  // The scheduler's plan for a batch of `slots` items: entry tenants,
  // tenant quotas (once fairness counters were observed), aged parents.
  BatchPlan PlanBatch(const Corpus& corpus, uint32_t slots);
  // Writes the tenant masks and quotas of the plan into the control buffer.
  absl::Status BeforeBatch();
  // True iff the last batch was stopped as stalled; then TakeSuspects()
  // gives the slots to replay (and forgets the stall).
  bool stalled() const { return stall_.stalled(); }
  std::vector<SuspectSlot> TakeSuspects();
  // One line about the stall for the log ("" when none).
  std::string DescribeStall() const;

  // --- DispatchObserver. ---
  absl::Duration poll_interval() const override {
    return options_.poll_interval;
  }
  void OnDispatchStart(const WireView& wire) override;
  bool OnPoll(const WireView& wire) override;
  void OnEpochEnd(const WireView& wire, bool last) override;

  // Inspection, for tests and logs.
  const std::optional<LaunchSteering>& launch() const { return launch_; }
  const PriorityAging& aging() const { return aging_; }
  const TenantBalancer& tenants() const { return tenants_; }
  const std::vector<uint32_t>& tenant_quotas() const { return quotas_; }
  uint64_t epochs() const { return epochs_; }
  // The EPOCH word of the last round observed (0 before the first): the
  // round whose finds are being handled.
  uint64_t last_epoch() const {
    return previous_.has_value() ? previous_->control.epoch : 0;
  }
  // Appends the find line of a bug (fuzz/engine/find_line.h) to the
  // -telemetry_out file, if there is one, with the epoch of the last round
  // observed; nothing otherwise. A failed write is a warning, as for epoch
  // lines.
  void LogFind(FindLineFields fields);

 private:
  Steering(const SteeringOptions& options, Executor& executor, Clock& clock,
           std::ostream& log);
  void Export(const WireView& wire, const telemetry::RingTelemetry& now,
              const SteeringState& state,
              const std::optional<telemetry::MegakernelLaunchRequest>& launch);
  void WarnOnce(bool& warned, const absl::Status& status,
                absl::string_view consequence);

  SteeringOptions options_;
  Steerable* wire_;  // the executor's steering side; null: none
  Clock& clock_;
  std::ostream& log_;
  std::unique_ptr<TelemetryLog> telemetry_log_;
  std::optional<BufferDump> dump_;
  bool telemetry_failed_ = false;
  bool dump_failed_ = false;
  bool launch_failed_ = false;

  std::optional<LaunchLimits> limits_;
  std::optional<LaunchSteering> launch_;
  StallWatch stall_;
  PriorityAging aging_;
  TenantBalancer tenants_;

  size_t seed_entries_ = 0;
  bool observed_fairness_ = false;  // a steered dispatch ended
  bool age_priority_work_ = false;  // the last batch's recommendation
  std::vector<uint32_t> quotas_;    // items per tenant of the batch
  TenantWords tenant_words_;
  size_t promoted_ = 0;  // aged parents in the batch
  telemetry::ControlSnapshot dispatch_start_;
  std::optional<telemetry::RingTelemetry> previous_;  // last epoch's
  // Decode buffers reused from epoch to epoch (a ring of thousands of
  // slots is decoded at every dispatch's start and end): `decoded_` holds
  // an epoch's telemetry until it becomes previous_, `started_` the ring
  // at a dispatch's start.
  telemetry::RingTelemetry decoded_, started_;
  telemetry::TelemetryDecodeScratch scratch_, start_scratch_;
  uint64_t epochs_ = 0;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_STEER_STEERING_H_

#include "fuzz/steer/steering.h"

#include <algorithm>
#include <array>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

// The fuzzing work kinds: their slots form the ticketed windows.
constexpr std::array<uint32_t, RF_OP_LAST_WORK - RF_OP_FIRST_WORK + 1>
WorkOpcodes() {
  std::array<uint32_t, RF_OP_LAST_WORK - RF_OP_FIRST_WORK + 1> opcodes{};
  for (uint32_t op = RF_OP_FIRST_WORK; op <= RF_OP_LAST_WORK; ++op) {
    opcodes[op - RF_OP_FIRST_WORK] = op;
  }
  return opcodes;
}
constexpr auto kWorkOpcodes = WorkOpcodes();

}  // namespace

absl::StatusOr<std::unique_ptr<Steering>> Steering::Create(
    const SteeringOptions& options, Executor& executor, Clock& clock,
    std::ostream& log) {
  std::unique_ptr<Steering> steering(
      new Steering(options, executor, clock, log));
  if (!options.telemetry_out.empty()) {
    absl::StatusOr<std::unique_ptr<TelemetryLog>> opened =
        TelemetryLog::Open(options.telemetry_out);
    if (!opened.ok()) return opened.status();
    steering->telemetry_log_ = *std::move(opened);
  }
  if (!options.dump_buffers.empty()) {
    absl::StatusOr<BufferDump> dump = BufferDump::Create(options.dump_buffers);
    if (!dump.ok()) return dump.status();
    steering->dump_ = *std::move(dump);
  }
  if (steering->wire_ != nullptr) {
    steering->wire_->SetDispatchObserver(steering.get());
  }
  return steering;
}

Steering::Steering(const SteeringOptions& options, Executor& executor,
                   Clock& clock, std::ostream& log)
    : options_(options),
      wire_(executor.steerable()),
      clock_(clock),
      log_(log),
      limits_(LaunchLimitsOf(executor)),
      stall_(options.stall_interval) {}

Steering::~Steering() {
  if (wire_ != nullptr) wire_->SetDispatchObserver(nullptr);
}

void Steering::Configure(const BatchBudget& budget) {
  if (!limits_.has_value()) return;
  BatchGeometry configured;
  configured.slots = budget.slots;
  configured.execs_per_slot = budget.execs_per_slot;
  configured.worker_groups = limits_->worker_groups;
  launch_.emplace(*limits_, configured);
}

absl::Status Steering::ShapeBudget(BatchBudget& budget) {
  if (!launch_.has_value()) return absl::OkStatus();
  const BatchGeometry& geometry = launch_->geometry();
  budget.slots = geometry.slots;
  budget.execs_per_slot = geometry.execs_per_slot;
  if (geometry.worker_groups != limits_->worker_groups) {
    // limits_ came from wire_, so wire_ is set.
    if (absl::Status s = wire_->SetWorkerGroups(geometry.worker_groups);
        !s.ok()) {
      return s;
    }
    limits_->worker_groups = geometry.worker_groups;
  }
  return absl::OkStatus();
}

BatchPlan Steering::PlanBatch(const Corpus& corpus, uint32_t slots) {
  BatchPlan plan;
  std::vector<size_t> entries(kTenantCount, 0);
  plan.entry_tenant.resize(corpus.size());
  for (size_t i = 0; i < corpus.size(); ++i) {
    plan.entry_tenant[i] = TenantBalancer::TenantOf(i, seed_entries_);
    ++entries[plan.entry_tenant[i]];
  }
  const size_t most = std::max<size_t>(slots / 2, 1);
  for (uint32_t parent : aging_.Promote(age_priority_work_, most)) {
    if (std::optional<size_t> index = corpus.FindByExecutorIndex(parent)) {
      plan.promoted.push_back(*index);
    }
  }
  promoted_ = std::min(plan.promoted.size(), most);
  quotas_.clear();
  if (observed_fairness_) {
    quotas_ = tenants_.Quotas(slots, entries);
    plan.tenant_items = quotas_;
  }
  tenant_words_ = TenantBalancer::Words(quotas_, entries);
  return plan;
}

absl::Status Steering::BeforeBatch() {
  // An executor without a control buffer has no tenants to pause.
  if (wire_ == nullptr) return absl::OkStatus();
  return wire_->SetTenantWords(tenant_words_);
}

std::vector<SuspectSlot> Steering::TakeSuspects() {
  std::vector<SuspectSlot> suspects = stall_.suspects();
  stall_.Clear();
  return suspects;
}

std::string Steering::DescribeStall() const {
  if (!stall_.stalled()) return "";
  return absl::StrCat("the megakernel drained no slot for ",
                      absl::FormatDuration(stall_.stalled_for()), " with ",
                      stall_.queue_depth(), " slots queued and ",
                      stall_.suspects().size(), " claimed");
}

void Steering::OnDispatchStart(const WireView& wire) {
  telemetry::RingTelemetry::DecodeWithWindowOpcodesInto(
      wire.control, wire.ring, {}, started_, start_scratch_);
  dispatch_start_ = started_.control;
  stall_.Start(wire, clock_.Now());
}

bool Steering::OnPoll(const WireView& wire) {
  return stall_.Poll(wire, clock_.Now());
}

void Steering::OnEpochEnd(const WireView& wire, bool last) {
  ++epochs_;
  telemetry::RingTelemetry::DecodeWithWindowOpcodesInto(
      wire.control, wire.ring, kWorkOpcodes, decoded_, scratch_);
  const telemetry::RingTelemetry& now = decoded_;
  tenants_.ObserveDispatch(dispatch_start_, now.control);
  dispatch_start_ = now.control;
  observed_fairness_ = true;
  std::optional<telemetry::MegakernelLaunchRequest> request;
  if (launch_.has_value()) {
    request = LaunchRequest(launch_->geometry(), *limits_, aging_.accounting());
  }
  if (last) {
    aging_.ObserveRing(wire.ring);
    const telemetry::PriorityRequeueAccounting& acc = aging_.accounting();
    age_priority_work_ =
        acc.requeue_count > 0 ||
        acc.max_priority_age >= telemetry::kPriorityAgeThreshold;
    if (launch_.has_value()) {
      request = LaunchRequest(launch_->geometry(), *limits_, acc);
      absl::StatusOr<telemetry::MegakernelLaunchRecommendation> planned =
          launch_->Plan(now, acc);
      if (planned.ok()) {
        age_priority_work_ = planned->age_priority_work;
      } else {
        WarnOnce(launch_failed_, planned.status(),
                 "the launch geometry stays as it is");
      }
    }
  }
  SteeringState state;
  state.last = last;
  if (launch_.has_value()) state.geometry = launch_->geometry();
  state.tenant_quotas = quotas_;
  state.promoted = promoted_;
  state.waiting = aging_.waiting().size();
  state.stalled = stall_.stalled();
  state.suspects = stall_.suspects().size();
  Export(wire, now, state, request);
  if (last) aging_.DrainIfRecommended();
  // The epoch's telemetry becomes the previous one; the buffers of the one
  // before are decoded into next time.
  if (!previous_.has_value()) previous_.emplace();
  std::swap(*previous_, decoded_);
}

void Steering::Export(
    const WireView& wire, const telemetry::RingTelemetry& now,
    const SteeringState& state,
    const std::optional<telemetry::MegakernelLaunchRequest>& launch) {
  if (telemetry_log_ != nullptr && !telemetry_failed_) {
    EpochRecord record;
    record.now = &now;
    record.previous = previous_.has_value() ? &*previous_ : nullptr;
    record.launch = launch;
    record.accounting = &aging_.accounting();
    record.steering = state;
    if (absl::Status s = telemetry_log_->Append(EpochLine(record)); !s.ok()) {
      WarnOnce(telemetry_failed_, s, "no further telemetry lines are written");
    }
  }
  if (dump_.has_value() && !dump_failed_) {
    if (absl::Status s = dump_->Write(now.control.epoch, wire); !s.ok()) {
      WarnOnce(dump_failed_, s, "no further buffers are dumped");
    }
  }
}

void Steering::LogFind(FindLineFields fields) {
  if (telemetry_log_ == nullptr || telemetry_failed_) return;
  fields.epoch = last_epoch();
  if (absl::Status s = telemetry_log_->Append(FindLine(fields)); !s.ok()) {
    WarnOnce(telemetry_failed_, s, "no further telemetry lines are written");
  }
}

void Steering::WarnOnce(bool& warned, const absl::Status& status,
                        absl::string_view consequence) {
  if (warned) return;
  warned = true;
  log_ << "WARNING: " << status.message() << "; " << consequence << "\n";
}

}  // namespace ringfuzz

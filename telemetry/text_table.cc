#include "telemetry/text_table.h"

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "telemetry/sketch_report.h"

namespace ringfuzz::telemetry {
namespace {

std::string Entries(const std::vector<SketchEntry>& entries) {
  if (entries.empty()) return "-";
  return absl::StrJoin(entries, " ",
                       [](std::string* out, const SketchEntry& e) {
                         absl::StrAppend(out, e.key, ":", e.estimate);
                       });
}

const char* YesNo(bool value) { return value ? "yes" : "no"; }

void AppendControl(const ControlSnapshot& control, std::string& out) {
  absl::StrAppendFormat(&out, "control    shutdown=%s done_count=%u epoch=%u\n",
                        YesNo(control.shutdown), control.done_count,
                        control.epoch);
  absl::StrAppend(&out, "metrics    ", control.metrics.empty() ? "-" : "",
                  absl::StrJoin(control.metrics, " ",
                                [](std::string* s, const DispatchMetric& m) {
                                  absl::StrAppend(s, m.opcode, ":", m.count);
                                }),
                  "\n");
  absl::StrAppend(&out, "fairness   tenants=[",
                  absl::StrJoin(control.tenant_fairness, " "), "] priorities=[",
                  absl::StrJoin(control.priority_fairness, " "), "]\n");
}

void AppendCounters(const RingTelemetry& telemetry, std::string& out) {
  const RingOccupancy& o = telemetry.occupancy;
  absl::StrAppendFormat(
      &out,
      "occupancy  empty=%u published=%u claimed=%u done=%u wait_io=%u "
      "yield=%u requeue=%u fault=%u unknown=%u total=%u queue_depth=%u\n",
      o.empty, o.published, o.claimed, o.done, o.wait_io, o.yield, o.requeue,
      o.fault, o.unknown, o.total_slots(), o.queue_depth());
  const MegakernelRuntimeCounters c = telemetry.RuntimeCounters();
  absl::StrAppendFormat(
      &out,
      "runtime    gpu_idle_ppm=%u frontier_density_bps=%u "
      "occupancy_proxy_bps=%u drained_slots=%u unreclaimed_done_slots=%u "
      "tenant_fairness_total=%u tenant_fairness_skew=%u "
      "priority_fairness_total=%u\n",
      c.gpu_idle_ppm, c.frontier_density_bps, c.occupancy_proxy_bps,
      c.drained_slots, c.unreclaimed_done_slots, c.tenant_fairness_total,
      c.tenant_fairness_skew, c.priority_fairness_total);
  const PriorityRequeueAccounting p = telemetry.PriorityAccounting();
  absl::StrAppendFormat(
      &out,
      "priority   requeue_count=%u aged_promotions=%u max_priority_age=%u "
      "drain=%s\n",
      p.requeue_count, p.aged_promotions, p.max_priority_age,
      PriorityDrainReasonName(p.DrainRecommendation().reason));
}

void AppendSlots(const std::vector<RingSlotSnapshot>& slots,
                 uint32_t empty_slots, std::string& out) {
  absl::StrAppendFormat(&out, "slots      %u shown, %u empty not shown\n",
                        slots.size() - empty_slots, empty_slots);
  if (slots.size() == empty_slots) return;
  absl::StrAppendFormat(&out, "%10s  %-14s %10s %10s %10s %10s %10s\n", "slot",
                        "status", "tenant", "opcode", "arg0", "arg1", "arg2");
  for (const RingSlotSnapshot& slot : slots) {
    if (slot.status.kind() == SlotStatusKind::kEmpty) continue;
    absl::StrAppendFormat(&out, "%10u  %-14s %10u %10u %10u %10u %10u\n",
                          slot.slot, slot.status.ToString(), slot.tenant,
                          slot.opcode, slot.args[0], slot.args[1],
                          slot.args[2]);
  }
}

void AppendWindows(const RingTelemetry& telemetry, std::string& out) {
  absl::StrAppendFormat(&out, "windows    %u, %u active\n",
                        telemetry.windows.size(),
                        telemetry.ActiveWindowsRange().size());
  if (telemetry.windows.empty()) return;
  absl::StrAppend(&out,
                  "    ticket     opcode     tenant  required lookahead "
                  "published claimed  done wait_io yield requeue fault "
                  "active\n");
  for (const WindowTelemetry& w : telemetry.windows) {
    absl::StrAppendFormat(
        &out, "%10u %10u %10u %9u %9u %9u %7u %5u %7u %5u %7u %5u %6s\n",
        w.ticket, w.opcode, w.tenant, w.required_slots, w.lookahead_slots,
        w.published, w.claimed, w.done, w.wait_io, w.yield, w.requeue, w.fault,
        YesNo(w.IsActive()));
  }
}

void AppendOptional(const RingTelemetry& telemetry,
                    const ExportOptions& options, std::string& out) {
  if (options.previous != nullptr) {
    absl::StatusOr<MegakernelWatchdogSnapshot> h =
        telemetry.HealthSince(*options.previous);
    if (h.ok()) {
      absl::StrAppendFormat(
          &out,
          "health     done_delta=%u queue_depth=%u fault_slots=%u "
          "requeue_slots=%u gpu_idle_ppm=%u suspected_stall=%s\n",
          h->done_delta, h->queue_depth, h->fault_slots, h->requeue_slots,
          h->gpu_idle_ppm, YesNo(h->suspected_stall));
    } else {
      absl::StrAppend(&out, "health     ", h.status().message(), "\n");
    }
  }
  if (options.sketch_depth != 0 || options.sketch_width != 0) {
    absl::StatusOr<SketchTelemetry> sketch =
        telemetry.Sketch(options.sketch_depth, options.sketch_width);
    if (!sketch.ok()) {
      absl::StrAppend(&out, "sketch     ", sketch.status().message(), "\n");
    } else {
      const SketchReport r =
          ReportSketch(*sketch, telemetry, options.sketch_top);
      absl::StrAppendFormat(&out,
                            "sketch     %ux%u total_slots=%u active_slots=%u\n",
                            r.depth, r.width, r.total_slots, r.active_slots);
      absl::StrAppend(&out, "  ring_opcode       ", Entries(r.ring_opcode),
                      "\n", "  active_opcode     ", Entries(r.active_opcode),
                      "\n", "  tenant            ", Entries(r.tenant), "\n",
                      "  status            ", Entries(r.status), "\n",
                      "  dispatch_metrics  ", Entries(r.dispatch_metrics),
                      "\n");
    }
  }
  if (options.launch.has_value()) {
    absl::StatusOr<MegakernelLaunchRecommendation> l =
        telemetry.RecommendLaunch(*options.launch);
    if (l.ok()) {
      absl::StrAppendFormat(
          &out,
          "launch     mode=%s topology=%s pressure=%s worker_groups=%u "
          "workgroup_size_x=%u slot_count=%u hit_capacity=%u "
          "peak_bytes=%u age_priority_work=%s\n",
          ExecutionModeName(l->execution_mode),
          DispatchTopologyName(l->topology), QueuePressureName(l->pressure),
          l->worker_groups, l->geometry.workgroup_size_x,
          l->geometry.slot_count, l->hit_capacity,
          l->estimated_peak_device_bytes, YesNo(l->age_priority_work));
    } else {
      absl::StrAppend(&out, "launch     ", l.status().message(), "\n");
    }
  }
}

}  // namespace

std::string ToTable(const RingTelemetry& telemetry,
                    const ExportOptions& options) {
  std::string out;
  AppendControl(telemetry.control, out);
  AppendCounters(telemetry, out);
  AppendOptional(telemetry, options, out);
  AppendSlots(telemetry.slots, telemetry.occupancy.empty, out);
  AppendWindows(telemetry, out);
  return out;
}

}  // namespace ringfuzz::telemetry

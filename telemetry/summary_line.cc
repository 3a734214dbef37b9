#include "telemetry/summary_line.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "telemetry/sketch_report.h"

namespace ringfuzz::telemetry {
namespace {

std::string Entries(const std::vector<SketchEntry>& entries) {
  if (entries.empty()) return "-";
  return absl::StrJoin(entries, ",",
                       [](std::string* out, const SketchEntry& e) {
                         absl::StrAppend(out, e.key, ":", e.estimate);
                       });
}

std::string ErrorToken(absl::string_view key, const absl::Status& status) {
  return absl::StrCat(" ", key,
                      "=error:", absl::StatusCodeToString(status.code()));
}

}  // namespace

std::string SummaryLine(const RingTelemetry& telemetry,
                        const SummaryOptions& options) {
  const MegakernelRuntimeCounters counters = telemetry.RuntimeCounters();
  std::string line = absl::StrFormat(
      "epoch=%u done=%u slots=%u queue=%u idle_ppm=%u density_bps=%u "
      "occupancy_bps=%u requeue=%u fault=%u tenant_skew=%u",
      telemetry.control.epoch, telemetry.control.done_count,
      counters.total_slots, counters.queue_depth, counters.gpu_idle_ppm,
      counters.frontier_density_bps, counters.occupancy_proxy_bps,
      counters.requeue_slots, counters.fault_slots,
      counters.tenant_fairness_skew);
  if (options.previous != nullptr) {
    absl::StatusOr<MegakernelWatchdogSnapshot> health =
        telemetry.HealthSince(*options.previous);
    if (health.ok()) {
      absl::StrAppendFormat(&line, " done_delta=%u stall=%d",
                            health->done_delta,
                            static_cast<int>(health->suspected_stall));
    } else {
      line += " health=new_epoch";
    }
  }
  if (options.launch.has_value()) {
    absl::StatusOr<MegakernelLaunchRecommendation> launch =
        telemetry.RecommendLaunch(*options.launch);
    if (launch.ok()) {
      absl::StrAppendFormat(
          &line,
          " launch=%s topology=%s pressure=%s groups=%u wg=%u slots=%u "
          "hits=%u peak_bytes=%u age_priority=%d",
          ExecutionModeName(launch->execution_mode),
          DispatchTopologyName(launch->topology),
          QueuePressureName(launch->pressure), launch->worker_groups,
          launch->geometry.workgroup_size_x, launch->geometry.slot_count,
          launch->hit_capacity, launch->estimated_peak_device_bytes,
          static_cast<int>(launch->age_priority_work));
    } else {
      line += ErrorToken("launch", launch.status());
    }
  }
  if (options.sketch_top > 0) {
    absl::StatusOr<SketchTelemetry> sketch =
        telemetry.Sketch(options.sketch_depth, options.sketch_width);
    if (sketch.ok()) {
      const SketchReport report =
          ReportSketch(*sketch, telemetry, options.sketch_top);
      absl::StrAppend(&line, " top_opcodes=", Entries(report.ring_opcode),
                      " top_tenants=", Entries(report.tenant));
    } else {
      line += ErrorToken("sketch", sketch.status());
    }
  }
  return line;
}

}  // namespace ringfuzz::telemetry

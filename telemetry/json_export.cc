#include "telemetry/json_export.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "telemetry/json_parts.h"
#include "telemetry/json_writer.h"
#include "telemetry/sketch_report.h"

namespace ringfuzz::telemetry {

void WriteError(JsonWriter& json, const absl::Status& status) {
  json.BeginObject().Field("error", status.ToString()).EndObject();
}

void WriteRuntimeCounters(JsonWriter& json,
                          const MegakernelRuntimeCounters& counters) {
  json.BeginObject()
      .Field("total_slots", counters.total_slots)
      .Field("queue_depth", counters.queue_depth)
      .Field("gpu_idle_slots", counters.gpu_idle_slots)
      .Field("gpu_idle_ppm", counters.gpu_idle_ppm)
      .Field("frontier_density_bps", counters.frontier_density_bps)
      .Field("occupancy_proxy_bps", counters.occupancy_proxy_bps)
      .Field("drained_slots", counters.drained_slots)
      .Field("unreclaimed_done_slots", counters.unreclaimed_done_slots)
      .Field("tenant_fairness_total", counters.tenant_fairness_total)
      .Field("tenant_fairness_skew", counters.tenant_fairness_skew)
      .Field("priority_fairness_total", counters.priority_fairness_total)
      .Field("requeue_slots", counters.requeue_slots)
      .Field("fault_slots", counters.fault_slots)
      .EndObject();
}

void WritePriorityAccounting(JsonWriter& json,
                             const PriorityRequeueAccounting& accounting) {
  const PriorityDrainRecommendation drain = accounting.DrainRecommendation();
  json.BeginObject()
      .Field("requeue_count", accounting.requeue_count)
      .Field("aged_promotions", accounting.aged_promotions)
      .Field("max_priority_age", accounting.max_priority_age)
      .Key("drain")
      .BeginObject()
      .Field("should_drain", drain.should_drain)
      .Field("reason", PriorityDrainReasonName(drain.reason))
      .EndObject()
      .EndObject();
}

void WriteHealth(JsonWriter& json,
                 const absl::StatusOr<MegakernelWatchdogSnapshot>& health) {
  if (!health.ok()) return WriteError(json, health.status());
  json.BeginObject()
      .Field("done_delta", health->done_delta)
      .Field("queue_depth", health->queue_depth)
      .Field("fault_slots", health->fault_slots)
      .Field("requeue_slots", health->requeue_slots)
      .Field("gpu_idle_ppm", health->gpu_idle_ppm)
      .Field("suspected_stall", health->suspected_stall)
      .EndObject();
}

void WriteEntries(JsonWriter& json, const char* key,
                  const std::vector<SketchEntry>& entries) {
  json.Key(key).BeginArray();
  for (const SketchEntry& entry : entries) {
    json.BeginArray().Uint(entry.key).Uint(entry.estimate).EndArray();
  }
  json.EndArray();
}

namespace {

void WriteControl(JsonWriter& json, const ControlSnapshot& control) {
  json.BeginObject()
      .Field("shutdown", control.shutdown)
      .Field("done_count", control.done_count)
      .Field("epoch", control.epoch)
      .Key("metrics")
      .BeginArray();
  for (const DispatchMetric& metric : control.metrics) {
    json.BeginArray().Uint(metric.opcode).Uint(metric.count).EndArray();
  }
  json.EndArray().Key("tenant_fairness").BeginArray();
  for (uint32_t count : control.tenant_fairness) json.Uint(count);
  json.EndArray().Key("priority_fairness").BeginArray();
  for (uint32_t count : control.priority_fairness) json.Uint(count);
  json.EndArray().EndObject();
}

void WriteOccupancy(JsonWriter& json, const RingOccupancy& occupancy) {
  json.BeginObject()
      .Field("empty", occupancy.empty)
      .Field("published", occupancy.published)
      .Field("claimed", occupancy.claimed)
      .Field("done", occupancy.done)
      .Field("wait_io", occupancy.wait_io)
      .Field("yield", occupancy.yield)
      .Field("requeue", occupancy.requeue)
      .Field("fault", occupancy.fault)
      .Field("unknown", occupancy.unknown)
      .Field("total_slots", occupancy.total_slots())
      .Field("queue_depth", occupancy.queue_depth())
      .EndObject();
}

void WriteSlots(JsonWriter& json, const std::vector<RingSlotSnapshot>& slots) {
  json.BeginArray();
  for (const RingSlotSnapshot& slot : slots) {
    json.BeginObject()
        .Field("slot", slot.slot)
        .Field("status", slot.status.ToString())
        .Field("tenant", slot.tenant)
        .Field("opcode", slot.opcode)
        .Key("args")
        .BeginArray();
    for (uint32_t arg : slot.args) json.Uint(arg);
    json.EndArray().EndObject();
  }
  json.EndArray();
}

void WriteWindows(JsonWriter& json,
                  const std::vector<WindowTelemetry>& windows) {
  json.BeginArray();
  for (const WindowTelemetry& window : windows) {
    json.BeginObject()
        .Field("ticket", window.ticket)
        .Field("tenant", window.tenant)
        .Field("opcode", window.opcode)
        .Field("required_slots", window.required_slots)
        .Field("lookahead_slots", window.lookahead_slots)
        .Field("published", window.published)
        .Field("claimed", window.claimed)
        .Field("done", window.done)
        .Field("wait_io", window.wait_io)
        .Field("yield", window.yield)
        .Field("requeue", window.requeue)
        .Field("fault", window.fault)
        .Field("active", window.IsActive())
        .EndObject();
  }
  json.EndArray();
}

void WriteSketch(JsonWriter& json, const RingTelemetry& telemetry,
                 const JsonOptions& options) {
  absl::StatusOr<SketchTelemetry> sketch =
      telemetry.Sketch(options.sketch_depth, options.sketch_width);
  if (!sketch.ok()) return WriteError(json, sketch.status());
  const SketchReport report =
      ReportSketch(*sketch, telemetry, options.sketch_top);
  json.BeginObject()
      .Field("depth", report.depth)
      .Field("width", report.width)
      .Field("total_slots", report.total_slots)
      .Field("active_slots", report.active_slots);
  WriteEntries(json, "ring_opcode", report.ring_opcode);
  WriteEntries(json, "active_opcode", report.active_opcode);
  WriteEntries(json, "tenant", report.tenant);
  WriteEntries(json, "status", report.status);
  WriteEntries(json, "dispatch_metrics", report.dispatch_metrics);
  json.EndObject();
}

void WriteLaunch(JsonWriter& json,
                 const absl::StatusOr<MegakernelLaunchRecommendation>& launch) {
  if (!launch.ok()) return WriteError(json, launch.status());
  const MegakernelLaunchGeometry& geometry = launch->geometry;
  json.BeginObject()
      .Key("geometry")
      .BeginObject()
      .Field("workgroup_size_x", geometry.workgroup_size_x)
      .Field("slot_count", geometry.slot_count)
      .Key("dispatch_grid")
      .BeginArray()
      .Uint(geometry.dispatch_grid[0])
      .Uint(geometry.dispatch_grid[1])
      .Uint(geometry.dispatch_grid[2])
      .EndArray()
      .EndObject()
      .Field("worker_groups", launch->worker_groups)
      .Field("hit_capacity", launch->hit_capacity)
      .Field("pressure", QueuePressureName(launch->pressure))
      .Field("execution_mode", ExecutionModeName(launch->execution_mode))
      .Field("topology", DispatchTopologyName(launch->topology))
      .Field("promote_hot_opcodes", launch->promote_hot_opcodes)
      .Field("promote_hot_windows", launch->promote_hot_windows)
      .Field("age_priority_work", launch->age_priority_work)
      .Field("estimated_peak_device_bytes", launch->estimated_peak_device_bytes)
      .Field("device_memory_budget_bytes", launch->device_memory_budget_bytes)
      .EndObject();
}

}  // namespace

std::string ToJson(const RingTelemetry& telemetry, const JsonOptions& options) {
  JsonWriter json;
  json.BeginObject().Key("control");
  WriteControl(json, telemetry.control);
  json.Key("occupancy");
  WriteOccupancy(json, telemetry.occupancy);
  json.Key("slots");
  WriteSlots(json, telemetry.slots);
  json.Key("windows");
  WriteWindows(json, telemetry.windows);
  json.Key("runtime_counters");
  WriteRuntimeCounters(json, telemetry.RuntimeCounters());
  json.Key("priority_accounting");
  WritePriorityAccounting(json, telemetry.PriorityAccounting());
  if (options.previous != nullptr) {
    json.Key("health");
    WriteHealth(json, telemetry.HealthSince(*options.previous));
  }
  if (options.sketch_depth != 0 || options.sketch_width != 0) {
    json.Key("sketch");
    WriteSketch(json, telemetry, options);
  }
  if (options.launch.has_value()) {
    json.Key("launch");
    WriteLaunch(json, telemetry.RecommendLaunch(*options.launch));
  }
  json.EndObject();
  return json.text();
}

}  // namespace ringfuzz::telemetry

// A snapshot as one JSON object, for tools and dashboards.
#ifndef RINGFUZZ_TELEMETRY_JSON_EXPORT_H_
#define RINGFUZZ_TELEMETRY_JSON_EXPORT_H_

#include <cstddef>
#include <optional>
#include <string>

#include "telemetry/launch_policy.h"
#include "telemetry/ring_telemetry.h"

namespace ringfuzz::telemetry {

// What to add to an export besides the snapshot itself (ToJson, ToTable).
struct ExportOptions {
  // Adds "health" (HealthSince(*previous)); not owned, may be null.
  const RingTelemetry* previous = nullptr;
  // Adds "sketch" (top entries) when either is non-zero; a zero dimension
  // then shows up as the sketch's error.
  size_t sketch_depth = 0;
  size_t sketch_width = 0;
  size_t sketch_top = 8;  // entries per sketch
  // Adds "launch" (RecommendLaunch(*launch)).
  std::optional<MegakernelLaunchRequest> launch;
};
using JsonOptions = ExportOptions;

// Compact JSON, keys in this order:
//   control {shutdown, done_count, epoch, metrics [[opcode,count],...],
//            tenant_fairness [32], priority_fairness [5]}
//   occupancy {empty, published, claimed, done, wait_io, yield, requeue,
//              fault, unknown, total_slots, queue_depth}
//   slots [{slot, status, tenant, opcode, args [arg0,arg1,arg2]}]
//     (status: lowercase name, or "unknown(N)")
//   windows [{ticket, tenant, opcode, required_slots, lookahead_slots,
//             published, claimed, done, wait_io, yield, requeue, fault,
//             active}]
//   runtime_counters {the MegakernelRuntimeCounters field names}
//   priority_accounting {requeue_count, aged_promotions, max_priority_age,
//                        drain {should_drain, reason}}
//   health {the MegakernelWatchdogSnapshot field names} or {error}
//   sketch {depth, width, total_slots, active_slots, ring_opcode,
//           active_opcode, tenant, status, dispatch_metrics: [[key,est],...]}
//     or {error}
//   launch {geometry {workgroup_size_x, slot_count, dispatch_grid},
//           worker_groups, hit_capacity, pressure, execution_mode, topology,
//           promote_hot_opcodes, promote_hot_windows, age_priority_work,
//           estimated_peak_device_bytes, device_memory_budget_bytes}
//     or {error}
// where health, sketch and launch appear only when asked for in `options`.
// An optional part that fails becomes {"error": message}: an export is
// still useful without it.
std::string ToJson(const RingTelemetry& telemetry,
                   const JsonOptions& options = {});

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_JSON_EXPORT_H_

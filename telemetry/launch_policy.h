// The launch policy: from queue shape, adapter limits and telemetry to the
// geometry and route of the next megakernel launch.
//
// The thresholds are the original runtime's (wire-protocol.md, "Launch
// recommendation"). For ringfuzz, kJit means the target is fused into the
// megakernel (the normal case) and kInterpreter a generic opcode dispatch;
// the geometry is what the host launches next.
#ifndef RINGFUZZ_TELEMETRY_LAUNCH_POLICY_H_
#define RINGFUZZ_TELEMETRY_LAUNCH_POLICY_H_

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace ringfuzz::telemetry {

// --- Constants of the original policy. ---
inline constexpr uint32_t kMinHitCapacity = 1024;
inline constexpr uint32_t kHitCapacityMultiplier = 2;
inline constexpr uint32_t kSaturatedWaves = 4;        // queue >= 4 x lanes
inline constexpr uint32_t kHotOpcodeThreshold = 8;    // hot opcodes to fuse
inline constexpr uint32_t kHotWindowThreshold = 4;    // hot windows to fuse
inline constexpr uint32_t kHotWindowSlots = 4;        // slots of a hot window
inline constexpr uint32_t kJitQueueThreshold = 4096;  // queue worth fusing
inline constexpr uint32_t kPriorityAgeThreshold = 32;
inline constexpr uint32_t kSparseFrontierBps = 500;   // at or below: sparse
inline constexpr uint32_t kDenseFrontierBps = 4000;   // at or above: dense
inline constexpr uint32_t kMemoryPressureBps = 8500;  // at or above: bounded
inline constexpr uint32_t kFusionEdgeThreshold = 65536;
inline constexpr uint64_t kScratchBytesPerHit = 16;
inline constexpr uint32_t kTopologyHysteresisBps = 250;
inline constexpr uint32_t kFullScaleBps = 10000;

// --- ringfuzz's geometry choices (the original left them to its planner). ---
// Workgroup width when the adapter allows it: a multiple of every subgroup
// size we run on (8 on lavapipe, 32 on NVIDIA), small enough that the
// per-lane private coverage state of a fused target stays in registers.
inline constexpr uint32_t kDefaultWorkgroupSizeX = 64;
// Cap on derived worker groups (requested_worker_groups == 0): 65536 lanes
// at the default width, beyond which a persistent kernel gains nothing but
// contention on the claim cursor.
inline constexpr uint32_t kMaxDerivedWorkerGroups = 1024;

enum class QueuePressure { kEmpty, kLight, kBalanced, kSaturated };
enum class ExecutionMode { kInterpreter, kJit };
enum class DispatchTopology {
  kEmpty,              // nothing queued
  kSparseFrontier,     // low frontier density: sparse expansion
  kHybridFrontier,     // in between
  kDenseFrontier,      // high density: dense block propagation
  kFusedDense,         // dense, large and hot: fused waves
  kMemoryConstrained,  // memory pressure: bounded occupancy first
};
// snake_case names ("balanced", "jit", "sparse_frontier", ...).
absl::string_view QueuePressureName(QueuePressure pressure);
absl::string_view ExecutionModeName(ExecutionMode mode);
absl::string_view DispatchTopologyName(DispatchTopology topology);

// Everything the policy looks at. Zero means "unknown, derive it" for
// requested_worker_groups, requested_hit_capacity, graph counts, density,
// pressure, and "unbounded" for the budget.
struct MegakernelLaunchRequest {
  uint32_t queue_len = 0;  // slots to run in the next launch
  uint32_t requested_worker_groups = 0;
  // Adapter limits (VkPhysicalDeviceLimits); all must be non-zero.
  uint32_t max_workgroup_size_x = 0;           // maxComputeWorkGroupSize[0]
  uint32_t max_workgroups_per_dimension = 0;   // maxComputeWorkGroupCount[0]
  uint32_t max_invocations_per_workgroup = 0;  // ...WorkGroupInvocations
  uint32_t requested_hit_capacity = 0;
  uint32_t expected_hits_per_item = 1;  // 0 counts as 1
  uint32_t hot_opcode_count = 0;
  uint32_t hot_window_count = 0;
  uint64_t requeue_count = 0;
  uint32_t max_priority_age = 0;
  uint32_t graph_node_count = 0;
  uint32_t graph_edge_count = 0;
  uint32_t frontier_density_bps = 0;
  uint32_t memory_pressure_bps = 0;
  uint64_t resident_device_bytes = 0;
  uint64_t device_memory_budget_bytes = 0;

  friend bool operator==(const MegakernelLaunchRequest& a,
                         const MegakernelLaunchRequest& b);
  friend bool operator!=(const MegakernelLaunchRequest& a,
                         const MegakernelLaunchRequest& b) {
    return !(a == b);
  }
};
std::ostream& operator<<(std::ostream& os,
                         const MegakernelLaunchRequest& request);

struct MegakernelLaunchGeometry {
  uint32_t workgroup_size_x = 0;
  uint32_t slot_count = 0;  // queue_len rounded up to whole workgroups
  std::array<uint32_t, 3> dispatch_grid{};  // {worker_groups, 1, 1}

  friend bool operator==(const MegakernelLaunchGeometry& a,
                         const MegakernelLaunchGeometry& b) {
    return a.workgroup_size_x == b.workgroup_size_x &&
           a.slot_count == b.slot_count && a.dispatch_grid == b.dispatch_grid;
  }
  friend bool operator!=(const MegakernelLaunchGeometry& a,
                         const MegakernelLaunchGeometry& b) {
    return !(a == b);
  }
};
std::ostream& operator<<(std::ostream& os,
                         const MegakernelLaunchGeometry& geometry);

struct MegakernelLaunchRecommendation {
  MegakernelLaunchGeometry geometry;
  uint32_t worker_groups = 0;
  uint32_t hit_capacity = 0;  // find/hit entries to allocate
  QueuePressure pressure = QueuePressure::kEmpty;
  ExecutionMode execution_mode = ExecutionMode::kInterpreter;
  DispatchTopology topology = DispatchTopology::kEmpty;
  bool promote_hot_opcodes = false;
  bool promote_hot_windows = false;
  bool age_priority_work = false;  // lift aged/requeued work when publishing
  uint64_t estimated_peak_device_bytes = 0;
  uint64_t device_memory_budget_bytes = 0;  // 0 = unbounded

  friend bool operator==(const MegakernelLaunchRecommendation& a,
                         const MegakernelLaunchRecommendation& b);
  friend bool operator!=(const MegakernelLaunchRecommendation& a,
                         const MegakernelLaunchRecommendation& b) {
    return !(a == b);
  }
};
std::ostream& operator<<(std::ostream& os,
                         const MegakernelLaunchRecommendation& recommendation);

// The recommendation for `request`, by these rules in order:
//  1. Adapter limits must be non-zero, else InvalidArgument.
//  2. Missing signals: density <- min(queue, nodes) * 1e4 / nodes (at least
//     1) when 0 and both are known; memory pressure <- resident * 1e4 /
//     budget (at most 1e4) when 0 and both are known.
//  3. Promotion: hot opcodes iff hot_opcode_count >= kHotOpcodeThreshold;
//     hot windows iff hot_window_count >= kHotWindowThreshold.
//  4. Topology, first that applies: queue 0 -> kEmpty; pressure >=
//     kMemoryPressureBps -> kMemoryConstrained; density <=
//     kSparseFrontierBps -> kSparseFrontier; density >= kDenseFrontierBps
//     with nodes > 0, edges >= kFusionEdgeThreshold and a promotion ->
//     kFusedDense; dense -> kDenseFrontier; else kHybridFrontier. With a
//     previous topology, a border crossing by less than
//     kTopologyHysteresisBps keeps the previous one (see .cc), so noisy
//     telemetry does not flip kernel variants every launch.
//  5. Geometry: workgroup width min(kDefaultWorkgroupSizeX, both adapter
//     width limits); worker groups as requested, or else enough for one lane
//     per queued slot up to kMaxDerivedWorkerGroups; halved (at least 1) under
//     kMemoryConstrained, so less per-lane scratch is live; at most the
//     adapter's groups per dimension. slot_count = queue_len (at least 1)
//     rounded up to the width; grid {worker_groups, 1, 1}. OutOfRange if the
//     slot count passes u32.
//  6. Pressure, lanes = worker_groups x width: queue 0 -> kEmpty; requeues or
//     queue >= kSaturatedWaves x lanes -> kSaturated; queue >= lanes ->
//     kBalanced; else kLight.
//  7. Hit capacity: requested, or max(kMinHitCapacity, queue x expected hits
//     x kHitCapacityMultiplier), the multiplier dropping to 1 under memory
//     pressure (from the original). OutOfRange if it passes u32.
//  8. Peak bytes = resident + hit capacity x kScratchBytesPerHit; above a
//     non-zero budget -> ResourceExhausted naming both numbers.
//  9. kJit iff queue >= kJitQueueThreshold or a promotion or kFusedDense:
//     a long queue or hot work amortizes compiling the fused kernel.
// 10. Age priority work iff requeues or max age >= kPriorityAgeThreshold.
absl::StatusOr<MegakernelLaunchRecommendation> RecommendLaunch(
    const MegakernelLaunchRequest& request,
    std::optional<DispatchTopology> previous_topology = std::nullopt);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_LAUNCH_POLICY_H_

#include "telemetry/launch_policy.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"

namespace ringfuzz::telemetry {
namespace {

constexpr uint64_t kU32Max = std::numeric_limits<uint32_t>::max();

absl::Status ValidateLimits(const MegakernelLaunchRequest& request) {
  const struct {
    const char* name;
    uint32_t value;
  } limits[] = {
      {"max_workgroup_size_x", request.max_workgroup_size_x},
      {"max_workgroups_per_dimension", request.max_workgroups_per_dimension},
      {"max_invocations_per_workgroup", request.max_invocations_per_workgroup},
  };
  for (const auto& limit : limits) {
    if (limit.value == 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "adapter limit %s is 0, so no workgroup could be launched. Fix: "
          "fill max_workgroup_size_x, max_workgroups_per_dimension and "
          "max_invocations_per_workgroup from VkPhysicalDeviceLimits "
          "(maxComputeWorkGroupSize[0], maxComputeWorkGroupCount[0], "
          "maxComputeWorkGroupInvocations).",
          limit.name));
    }
  }
  return absl::OkStatus();
}

MegakernelLaunchRequest InferMissingSignals(MegakernelLaunchRequest request) {
  if (request.frontier_density_bps == 0 && request.queue_len != 0 &&
      request.graph_node_count != 0) {
    const uint64_t active =
        std::min(request.queue_len, request.graph_node_count);
    request.frontier_density_bps = static_cast<uint32_t>(std::max<uint64_t>(
        1, active * kFullScaleBps / request.graph_node_count));
  }
  if (request.memory_pressure_bps == 0 &&
      request.device_memory_budget_bytes != 0 &&
      request.resident_device_bytes != 0) {
    const unsigned __int128 scaled =
        static_cast<unsigned __int128>(request.resident_device_bytes) *
        kFullScaleBps / request.device_memory_budget_bytes;
    request.memory_pressure_bps = static_cast<uint32_t>(
        std::min<unsigned __int128>(scaled, kFullScaleBps));
  }
  return request;
}

DispatchTopology RawTopology(const MegakernelLaunchRequest& request,
                             bool promoted) {
  if (request.queue_len == 0) return DispatchTopology::kEmpty;
  if (request.memory_pressure_bps >= kMemoryPressureBps) {
    return DispatchTopology::kMemoryConstrained;
  }
  if (request.frontier_density_bps <= kSparseFrontierBps) {
    return DispatchTopology::kSparseFrontier;
  }
  const bool dense = request.frontier_density_bps >= kDenseFrontierBps;
  if (dense && request.graph_node_count > 0 &&
      request.graph_edge_count >= kFusionEdgeThreshold && promoted) {
    return DispatchTopology::kFusedDense;
  }
  return dense ? DispatchTopology::kDenseFrontier
               : DispatchTopology::kHybridFrontier;
}

// Keeps `previous` when `raw` crossed a border by less than the hysteresis
// band: sparse stays sparse up to 500+250 bps, hybrid stays hybrid from
// 500-250 up to 4000+250, dense and fused dense stay down to 4000-250, and
// memory-constrained stays while pressure >= 8500-250. Empty and
// memory-constrained raw topologies always win: they are not noise.
DispatchTopology StabilizeTopology(DispatchTopology raw,
                                   const MegakernelLaunchRequest& request,
                                   std::optional<DispatchTopology> previous,
                                   bool promoted) {
  if (!previous.has_value() || raw == DispatchTopology::kEmpty ||
      raw == DispatchTopology::kMemoryConstrained) {
    return raw;
  }
  const uint32_t density = request.frontier_density_bps;
  const bool near_sparse_from_above =
      density >= kSparseFrontierBps - kTopologyHysteresisBps;
  const bool near_sparse_from_below =
      density <= kSparseFrontierBps + kTopologyHysteresisBps;
  const bool near_dense_from_above =
      density >= kDenseFrontierBps - kTopologyHysteresisBps;
  const bool near_dense_from_below =
      density <= kDenseFrontierBps + kTopologyHysteresisBps;
  switch (*previous) {
    case DispatchTopology::kMemoryConstrained:
      if (request.memory_pressure_bps >=
          kMemoryPressureBps - kTopologyHysteresisBps) {
        return DispatchTopology::kMemoryConstrained;
      }
      break;
    case DispatchTopology::kSparseFrontier:
      if (raw != DispatchTopology::kSparseFrontier && near_sparse_from_below) {
        return DispatchTopology::kSparseFrontier;
      }
      break;
    case DispatchTopology::kHybridFrontier:
      if (raw == DispatchTopology::kSparseFrontier && near_sparse_from_above) {
        return DispatchTopology::kHybridFrontier;
      }
      if ((raw == DispatchTopology::kDenseFrontier ||
           raw == DispatchTopology::kFusedDense) &&
          near_dense_from_below) {
        return DispatchTopology::kHybridFrontier;
      }
      break;
    case DispatchTopology::kDenseFrontier:
      if (raw == DispatchTopology::kHybridFrontier && near_dense_from_above) {
        return DispatchTopology::kDenseFrontier;
      }
      break;
    case DispatchTopology::kFusedDense:
      if (raw == DispatchTopology::kHybridFrontier && near_dense_from_above &&
          request.graph_edge_count >= kFusionEdgeThreshold && promoted) {
        return DispatchTopology::kFusedDense;
      }
      break;
    case DispatchTopology::kEmpty:
      break;
  }
  return raw;
}

struct Grid {
  MegakernelLaunchGeometry geometry;
  uint32_t worker_groups = 0;
};

absl::StatusOr<Grid> PlanGrid(const MegakernelLaunchRequest& request,
                              DispatchTopology topology) {
  const uint32_t width =
      std::min({kDefaultWorkgroupSizeX, request.max_workgroup_size_x,
                request.max_invocations_per_workgroup});
  const uint64_t slots_wanted = std::max<uint32_t>(request.queue_len, 1);
  const uint64_t groups_for_queue = (slots_wanted + width - 1) / width;
  const uint64_t slot_count = groups_for_queue * width;
  if (slot_count > kU32Max) {
    return absl::OutOfRangeError(absl::StrFormat(
        "queue_len %u rounded up to whole workgroups of %u is %u slots, more "
        "than the u32 ring protocol can index. Fix: launch at most %u slots "
        "at a time.",
        request.queue_len, width, slot_count, kU32Max / width * width));
  }
  uint64_t groups =
      request.requested_worker_groups != 0
          ? request.requested_worker_groups
          : std::min<uint64_t>(groups_for_queue, kMaxDerivedWorkerGroups);
  if (topology == DispatchTopology::kMemoryConstrained) groups /= 2;
  groups =
      std::clamp<uint64_t>(groups, 1, request.max_workgroups_per_dimension);
  Grid grid;
  grid.worker_groups = static_cast<uint32_t>(groups);
  grid.geometry.workgroup_size_x = width;
  grid.geometry.slot_count = static_cast<uint32_t>(slot_count);
  grid.geometry.dispatch_grid = {grid.worker_groups, 1, 1};
  return grid;
}

QueuePressure ClassifyPressure(const MegakernelLaunchRequest& request,
                               uint64_t lanes) {
  if (request.queue_len == 0) return QueuePressure::kEmpty;
  if (request.requeue_count > 0 ||
      request.queue_len >= kSaturatedWaves * lanes) {
    return QueuePressure::kSaturated;
  }
  return request.queue_len >= lanes ? QueuePressure::kBalanced
                                    : QueuePressure::kLight;
}

absl::StatusOr<uint32_t> HitCapacity(const MegakernelLaunchRequest& request) {
  if (request.requested_hit_capacity != 0) {
    return request.requested_hit_capacity;
  }
  const uint64_t multiplier = request.memory_pressure_bps >= kMemoryPressureBps
                                  ? 1
                                  : kHitCapacityMultiplier;
  const uint64_t hits = std::max<uint32_t>(request.expected_hits_per_item, 1);
  const uint64_t expected = request.queue_len * hits;  // u32 x u32 < 2^64
  if (expected > kU32Max / multiplier) {
    return absl::OutOfRangeError(absl::StrFormat(
        "derived hit capacity queue_len %u x expected_hits_per_item %u x %u "
        "does not fit u32. Fix: lower queue_len or expected_hits_per_item, "
        "or set requested_hit_capacity.",
        request.queue_len, hits, multiplier));
  }
  const uint64_t derived = expected * multiplier;
  return static_cast<uint32_t>(std::max<uint64_t>(derived, kMinHitCapacity));
}

}  // namespace

absl::string_view QueuePressureName(QueuePressure pressure) {
  switch (pressure) {
    case QueuePressure::kEmpty:
      return "empty";
    case QueuePressure::kLight:
      return "light";
    case QueuePressure::kBalanced:
      return "balanced";
    case QueuePressure::kSaturated:
      return "saturated";
  }
  return "?";
}

absl::string_view ExecutionModeName(ExecutionMode mode) {
  return mode == ExecutionMode::kJit ? "jit" : "interpreter";
}

absl::string_view DispatchTopologyName(DispatchTopology topology) {
  switch (topology) {
    case DispatchTopology::kEmpty:
      return "empty";
    case DispatchTopology::kSparseFrontier:
      return "sparse_frontier";
    case DispatchTopology::kHybridFrontier:
      return "hybrid_frontier";
    case DispatchTopology::kDenseFrontier:
      return "dense_frontier";
    case DispatchTopology::kFusedDense:
      return "fused_dense";
    case DispatchTopology::kMemoryConstrained:
      return "memory_constrained";
  }
  return "?";
}

absl::StatusOr<MegakernelLaunchRecommendation> RecommendLaunch(
    const MegakernelLaunchRequest& raw_request,
    std::optional<DispatchTopology> previous_topology) {
  if (absl::Status status = ValidateLimits(raw_request); !status.ok()) {
    return status;
  }
  const MegakernelLaunchRequest request = InferMissingSignals(raw_request);
  MegakernelLaunchRecommendation out;
  out.promote_hot_opcodes = request.hot_opcode_count >= kHotOpcodeThreshold;
  out.promote_hot_windows = request.hot_window_count >= kHotWindowThreshold;
  const bool promoted = out.promote_hot_opcodes || out.promote_hot_windows;
  out.topology = StabilizeTopology(RawTopology(request, promoted), request,
                                   previous_topology, promoted);

  absl::StatusOr<Grid> grid = PlanGrid(request, out.topology);
  if (!grid.ok()) return grid.status();
  out.geometry = grid->geometry;
  out.worker_groups = grid->worker_groups;
  out.pressure = ClassifyPressure(
      request, uint64_t{out.worker_groups} * out.geometry.workgroup_size_x);

  absl::StatusOr<uint32_t> hit_capacity = HitCapacity(request);
  if (!hit_capacity.ok()) return hit_capacity.status();
  out.hit_capacity = *hit_capacity;

  const uint64_t scratch_bytes =
      uint64_t{out.hit_capacity} * kScratchBytesPerHit;
  if (request.resident_device_bytes >
      std::numeric_limits<uint64_t>::max() - scratch_bytes) {
    return absl::OutOfRangeError(absl::StrFormat(
        "estimated peak device memory overflows u64 (resident %u + %u "
        "scratch bytes). Fix: pass resident_device_bytes in bytes, not a "
        "sentinel.",
        request.resident_device_bytes, scratch_bytes));
  }
  out.estimated_peak_device_bytes =
      request.resident_device_bytes + scratch_bytes;
  out.device_memory_budget_bytes = request.device_memory_budget_bytes;
  if (request.device_memory_budget_bytes != 0 &&
      out.estimated_peak_device_bytes > request.device_memory_budget_bytes) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "device out of memory: the launch needs an estimated %u bytes "
        "(resident %u + hit capacity %u x %u scratch bytes), over the device "
        "memory budget of %u bytes. Fix: lower queue_len, "
        "expected_hits_per_item or requested_hit_capacity, free resident "
        "buffers, or raise device_memory_budget_bytes.",
        out.estimated_peak_device_bytes, request.resident_device_bytes,
        out.hit_capacity, kScratchBytesPerHit,
        request.device_memory_budget_bytes));
  }

  out.execution_mode = request.queue_len >= kJitQueueThreshold || promoted ||
                               out.topology == DispatchTopology::kFusedDense
                           ? ExecutionMode::kJit
                           : ExecutionMode::kInterpreter;
  out.age_priority_work = request.requeue_count > 0 ||
                          request.max_priority_age >= kPriorityAgeThreshold;
  return out;
}

bool operator==(const MegakernelLaunchRequest& a,
                const MegakernelLaunchRequest& b) {
  return a.queue_len == b.queue_len &&
         a.requested_worker_groups == b.requested_worker_groups &&
         a.max_workgroup_size_x == b.max_workgroup_size_x &&
         a.max_workgroups_per_dimension == b.max_workgroups_per_dimension &&
         a.max_invocations_per_workgroup == b.max_invocations_per_workgroup &&
         a.requested_hit_capacity == b.requested_hit_capacity &&
         a.expected_hits_per_item == b.expected_hits_per_item &&
         a.hot_opcode_count == b.hot_opcode_count &&
         a.hot_window_count == b.hot_window_count &&
         a.requeue_count == b.requeue_count &&
         a.max_priority_age == b.max_priority_age &&
         a.graph_node_count == b.graph_node_count &&
         a.graph_edge_count == b.graph_edge_count &&
         a.frontier_density_bps == b.frontier_density_bps &&
         a.memory_pressure_bps == b.memory_pressure_bps &&
         a.resident_device_bytes == b.resident_device_bytes &&
         a.device_memory_budget_bytes == b.device_memory_budget_bytes;
}

bool operator==(const MegakernelLaunchRecommendation& a,
                const MegakernelLaunchRecommendation& b) {
  return a.geometry == b.geometry && a.worker_groups == b.worker_groups &&
         a.hit_capacity == b.hit_capacity && a.pressure == b.pressure &&
         a.execution_mode == b.execution_mode && a.topology == b.topology &&
         a.promote_hot_opcodes == b.promote_hot_opcodes &&
         a.promote_hot_windows == b.promote_hot_windows &&
         a.age_priority_work == b.age_priority_work &&
         a.estimated_peak_device_bytes == b.estimated_peak_device_bytes &&
         a.device_memory_budget_bytes == b.device_memory_budget_bytes;
}

std::ostream& operator<<(std::ostream& os,
                         const MegakernelLaunchRequest& request) {
  return os << "MegakernelLaunchRequest{queue_len=" << request.queue_len
            << ", requested_worker_groups=" << request.requested_worker_groups
            << ", max_workgroup_size_x=" << request.max_workgroup_size_x
            << ", max_workgroups_per_dimension="
            << request.max_workgroups_per_dimension
            << ", max_invocations_per_workgroup="
            << request.max_invocations_per_workgroup
            << ", requested_hit_capacity=" << request.requested_hit_capacity
            << ", expected_hits_per_item=" << request.expected_hits_per_item
            << ", hot_opcode_count=" << request.hot_opcode_count
            << ", hot_window_count=" << request.hot_window_count
            << ", requeue_count=" << request.requeue_count
            << ", max_priority_age=" << request.max_priority_age
            << ", graph_node_count=" << request.graph_node_count
            << ", graph_edge_count=" << request.graph_edge_count
            << ", frontier_density_bps=" << request.frontier_density_bps
            << ", memory_pressure_bps=" << request.memory_pressure_bps
            << ", resident_device_bytes=" << request.resident_device_bytes
            << ", device_memory_budget_bytes="
            << request.device_memory_budget_bytes << "}";
}

std::ostream& operator<<(std::ostream& os,
                         const MegakernelLaunchGeometry& geometry) {
  return os << "MegakernelLaunchGeometry{workgroup_size_x="
            << geometry.workgroup_size_x
            << ", slot_count=" << geometry.slot_count << ", dispatch_grid=["
            << geometry.dispatch_grid[0] << "," << geometry.dispatch_grid[1]
            << "," << geometry.dispatch_grid[2] << "]}";
}

std::ostream& operator<<(std::ostream& os,
                         const MegakernelLaunchRecommendation& recommendation) {
  return os << "MegakernelLaunchRecommendation{geometry="
            << recommendation.geometry
            << ", worker_groups=" << recommendation.worker_groups
            << ", hit_capacity=" << recommendation.hit_capacity
            << ", pressure=" << QueuePressureName(recommendation.pressure)
            << ", execution_mode="
            << ExecutionModeName(recommendation.execution_mode)
            << ", topology=" << DispatchTopologyName(recommendation.topology)
            << ", promote_hot_opcodes=" << recommendation.promote_hot_opcodes
            << ", promote_hot_windows=" << recommendation.promote_hot_windows
            << ", age_priority_work=" << recommendation.age_priority_work
            << ", estimated_peak_device_bytes="
            << recommendation.estimated_peak_device_bytes
            << ", device_memory_budget_bytes="
            << recommendation.device_memory_budget_bytes << "}";
}

}  // namespace ringfuzz::telemetry

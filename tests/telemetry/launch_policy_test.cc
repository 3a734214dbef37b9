// Every branch of the launch policy (wire-protocol.md, "Launch
// recommendation") and the telemetry pre-fill.
#include "telemetry/launch_policy.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/ring_telemetry.h"
#include "tests/telemetry/wire_builder.h"

namespace ringfuzz::telemetry {
namespace {

using ::ringfuzz::telemetry::testing::ControlBuilder;
using ::ringfuzz::telemetry::testing::RingBuilder;
using ::testing::HasSubstr;

// A queue on an adapter with roomy limits; density given so that topology
// is hybrid unless a test changes it.
MegakernelLaunchRequest Request(uint32_t queue_len) {
  MegakernelLaunchRequest request;
  request.queue_len = queue_len;
  request.max_workgroup_size_x = 1024;
  request.max_workgroups_per_dimension = 65535;
  request.max_invocations_per_workgroup = 1024;
  request.frontier_density_bps = 2000;
  return request;
}

MegakernelLaunchRecommendation Recommend(
    const MegakernelLaunchRequest& request,
    std::optional<DispatchTopology> previous = std::nullopt) {
  absl::StatusOr<MegakernelLaunchRecommendation> r =
      RecommendLaunch(request, previous);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : MegakernelLaunchRecommendation{};
}

TEST(LaunchPolicyTest, ZeroAdapterLimitsAreErrors) {
  for (int which = 0; which < 3; ++which) {
    MegakernelLaunchRequest request = Request(100);
    const char* name = nullptr;
    switch (which) {
      case 0:
        request.max_workgroup_size_x = 0;
        name = "max_workgroup_size_x";
        break;
      case 1:
        request.max_workgroups_per_dimension = 0;
        name = "max_workgroups_per_dimension";
        break;
      default:
        request.max_invocations_per_workgroup = 0;
        name = "max_invocations_per_workgroup";
    }
    absl::StatusOr<MegakernelLaunchRecommendation> r = RecommendLaunch(request);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(r.status().message(), HasSubstr(name));
    EXPECT_THAT(r.status().message(), HasSubstr("Fix:"));
  }
  EXPECT_FALSE(RecommendLaunch(MegakernelLaunchRequest{}).ok());
}

TEST(LaunchPolicyTest, EmptyQueue) {
  const MegakernelLaunchRecommendation r = Recommend(Request(0));
  EXPECT_EQ(r.topology, DispatchTopology::kEmpty);
  EXPECT_EQ(r.pressure, QueuePressure::kEmpty);
  EXPECT_EQ(r.execution_mode, ExecutionMode::kInterpreter);
  EXPECT_EQ(r.worker_groups, 1u);
  EXPECT_EQ(r.geometry.slot_count, kDefaultWorkgroupSizeX);  // at least 1 slot
  EXPECT_EQ(r.hit_capacity, kMinHitCapacity);
}

TEST(LaunchPolicyTest, TopologyByDensity) {
  const struct {
    uint32_t density;
    DispatchTopology topology;
  } cases[] = {
      {1, DispatchTopology::kSparseFrontier},
      {kSparseFrontierBps, DispatchTopology::kSparseFrontier},
      {kSparseFrontierBps + 1, DispatchTopology::kHybridFrontier},
      {kDenseFrontierBps - 1, DispatchTopology::kHybridFrontier},
      {kDenseFrontierBps, DispatchTopology::kDenseFrontier},
      {kFullScaleBps, DispatchTopology::kDenseFrontier},
  };
  for (const auto& c : cases) {
    MegakernelLaunchRequest request = Request(100);
    request.frontier_density_bps = c.density;
    EXPECT_EQ(Recommend(request).topology, c.topology) << c.density;
  }
}

TEST(LaunchPolicyTest, FusedDenseNeedsDensityGraphSizeAndAPromotion) {
  MegakernelLaunchRequest request = Request(100);
  request.frontier_density_bps = kDenseFrontierBps;
  request.graph_node_count = 1;
  request.graph_edge_count = kFusionEdgeThreshold;
  request.hot_opcode_count = kHotOpcodeThreshold;
  MegakernelLaunchRecommendation r = Recommend(request);
  EXPECT_EQ(r.topology, DispatchTopology::kFusedDense);
  EXPECT_EQ(r.execution_mode, ExecutionMode::kJit);
  EXPECT_TRUE(r.promote_hot_opcodes);

  MegakernelLaunchRequest windows = request;
  windows.hot_opcode_count = 0;
  windows.hot_window_count = kHotWindowThreshold;
  EXPECT_EQ(Recommend(windows).topology, DispatchTopology::kFusedDense);
  EXPECT_TRUE(Recommend(windows).promote_hot_windows);

  MegakernelLaunchRequest few_edges = request;
  few_edges.graph_edge_count = kFusionEdgeThreshold - 1;
  EXPECT_EQ(Recommend(few_edges).topology, DispatchTopology::kDenseFrontier);

  MegakernelLaunchRequest no_nodes = request;
  no_nodes.graph_node_count = 0;
  EXPECT_EQ(Recommend(no_nodes).topology, DispatchTopology::kDenseFrontier);

  MegakernelLaunchRequest cold = request;
  cold.hot_opcode_count = kHotOpcodeThreshold - 1;
  EXPECT_EQ(Recommend(cold).topology, DispatchTopology::kDenseFrontier);
  EXPECT_EQ(Recommend(cold).execution_mode, ExecutionMode::kInterpreter);

  MegakernelLaunchRequest sparse = request;
  sparse.frontier_density_bps = kDenseFrontierBps - 1;
  EXPECT_EQ(Recommend(sparse).topology, DispatchTopology::kHybridFrontier);
}

TEST(LaunchPolicyTest, MemoryPressureWinsOverDensityAndShedsWorkers) {
  MegakernelLaunchRequest request = Request(100);
  request.frontier_density_bps = kDenseFrontierBps;
  request.requested_worker_groups = 16;
  request.memory_pressure_bps = kMemoryPressureBps;
  MegakernelLaunchRecommendation r = Recommend(request);
  EXPECT_EQ(r.topology, DispatchTopology::kMemoryConstrained);
  EXPECT_EQ(r.worker_groups, 8u);
  EXPECT_EQ(r.geometry.dispatch_grid[0], 8u);

  request.memory_pressure_bps = kMemoryPressureBps - 1;
  EXPECT_EQ(Recommend(request).topology, DispatchTopology::kDenseFrontier);
  EXPECT_EQ(Recommend(request).worker_groups, 16u);

  request.requested_worker_groups = 1;
  request.memory_pressure_bps = kFullScaleBps;
  EXPECT_EQ(Recommend(request).worker_groups, 1u);  // never below 1
}

TEST(LaunchPolicyTest, MissingSignalsAreInferred) {
  MegakernelLaunchRequest request = Request(10);
  request.frontier_density_bps = 0;
  request.graph_node_count = 100000;  // 10 / 100000 = 1 bps after clamping
  EXPECT_EQ(Recommend(request).topology, DispatchTopology::kSparseFrontier);
  request.queue_len = 50;
  request.graph_node_count = 100;  // 5000 bps
  EXPECT_EQ(Recommend(request).topology, DispatchTopology::kDenseFrontier);

  MegakernelLaunchRequest memory = Request(10);
  memory.resident_device_bytes = 9'000'000'000;
  memory.device_memory_budget_bytes = 10'000'000'000;  // 9000 bps
  const MegakernelLaunchRecommendation r = Recommend(memory);
  EXPECT_EQ(r.topology, DispatchTopology::kMemoryConstrained);
  // Under memory pressure the hit multiplier drops to 1 (still >= minimum).
  EXPECT_EQ(r.hit_capacity, kMinHitCapacity);
}

TEST(LaunchPolicyTest, PressureByLanes) {
  // 2 groups of 64 lanes = 128 lanes.
  const struct {
    uint32_t queue;
    uint64_t requeues;
    QueuePressure pressure;
  } cases[] = {
      {0, 0, QueuePressure::kEmpty},       {0, 5, QueuePressure::kEmpty},
      {1, 0, QueuePressure::kLight},       {127, 0, QueuePressure::kLight},
      {128, 0, QueuePressure::kBalanced},  {511, 0, QueuePressure::kBalanced},
      {512, 0, QueuePressure::kSaturated}, {1, 1, QueuePressure::kSaturated},
  };
  for (const auto& c : cases) {
    MegakernelLaunchRequest request = Request(c.queue);
    request.requested_worker_groups = 2;
    request.requeue_count = c.requeues;
    const MegakernelLaunchRecommendation r = Recommend(request);
    EXPECT_EQ(r.pressure, c.pressure) << c.queue << "/" << c.requeues;
  }
}

TEST(LaunchPolicyTest, JitForLongQueuesOrHotWork) {
  EXPECT_EQ(Recommend(Request(kJitQueueThreshold - 1)).execution_mode,
            ExecutionMode::kInterpreter);
  EXPECT_EQ(Recommend(Request(kJitQueueThreshold)).execution_mode,
            ExecutionMode::kJit);
  MegakernelLaunchRequest opcodes = Request(10);
  opcodes.hot_opcode_count = kHotOpcodeThreshold - 1;
  EXPECT_EQ(Recommend(opcodes).execution_mode, ExecutionMode::kInterpreter);
  opcodes.hot_opcode_count = kHotOpcodeThreshold;
  EXPECT_EQ(Recommend(opcodes).execution_mode, ExecutionMode::kJit);
  MegakernelLaunchRequest windows = Request(10);
  windows.hot_window_count = kHotWindowThreshold - 1;
  EXPECT_EQ(Recommend(windows).execution_mode, ExecutionMode::kInterpreter);
  windows.hot_window_count = kHotWindowThreshold;
  EXPECT_EQ(Recommend(windows).execution_mode, ExecutionMode::kJit);
}

TEST(LaunchPolicyTest, HitCapacity) {
  EXPECT_EQ(Recommend(Request(100)).hit_capacity, kMinHitCapacity);
  MegakernelLaunchRequest request = Request(1000);
  request.expected_hits_per_item = 3;
  EXPECT_EQ(Recommend(request).hit_capacity, 6000u);
  request.expected_hits_per_item = 0;  // counts as 1
  EXPECT_EQ(Recommend(request).hit_capacity, 2000u);
  request.requested_hit_capacity = 77;
  EXPECT_EQ(Recommend(request).hit_capacity, 77u);

  MegakernelLaunchRequest pressured = Request(1000);
  pressured.expected_hits_per_item = 3;
  pressured.memory_pressure_bps = 9000;
  EXPECT_EQ(Recommend(pressured).hit_capacity, 3000u);

  MegakernelLaunchRequest huge = Request(1u << 31);
  huge.expected_hits_per_item = 2;
  absl::StatusOr<MegakernelLaunchRecommendation> r = RecommendLaunch(huge);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(r.status().message(), HasSubstr("requested_hit_capacity"));
}

TEST(LaunchPolicyTest, PeakBytesAndTheBudget) {
  MegakernelLaunchRequest request = Request(1000);  // 2000 hits
  request.resident_device_bytes = 1'000'000;
  EXPECT_EQ(Recommend(request).estimated_peak_device_bytes,
            1'000'000u + 2000u * kScratchBytesPerHit);
  EXPECT_EQ(Recommend(request).device_memory_budget_bytes, 0u);

  request.device_memory_budget_bytes = 1'032'000;  // exactly enough
  request.memory_pressure_bps = 1;                 // keep the multiplier at 2
  EXPECT_EQ(Recommend(request).device_memory_budget_bytes, 1'032'000u);

  request.device_memory_budget_bytes = 1'031'999;
  absl::StatusOr<MegakernelLaunchRecommendation> r = RecommendLaunch(request);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(r.status().message(), HasSubstr("device out of memory"));
  EXPECT_THAT(r.status().message(), HasSubstr("1032000 bytes"));
  EXPECT_THAT(r.status().message(), HasSubstr("budget of 1031999 bytes"));
  EXPECT_THAT(r.status().message(), HasSubstr("Fix:"));

  MegakernelLaunchRequest overflow = Request(10);
  overflow.resident_device_bytes = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(RecommendLaunch(overflow).status().code(),
            absl::StatusCode::kOutOfRange);
}

TEST(LaunchPolicyTest, Geometry) {
  MegakernelLaunchRecommendation r = Recommend(Request(1000));
  EXPECT_EQ(r.geometry.workgroup_size_x, kDefaultWorkgroupSizeX);
  EXPECT_EQ(r.worker_groups, 16u);  // ceil(1000 / 64)
  EXPECT_EQ(r.geometry.slot_count, 1024u);
  EXPECT_EQ(r.geometry.dispatch_grid, (std::array<uint32_t, 3>{16, 1, 1}));

  MegakernelLaunchRequest narrow = Request(100);
  narrow.max_workgroup_size_x = 32;
  EXPECT_EQ(Recommend(narrow).geometry.workgroup_size_x, 32u);
  EXPECT_EQ(Recommend(narrow).geometry.slot_count, 128u);
  narrow.max_invocations_per_workgroup = 24;
  EXPECT_EQ(Recommend(narrow).geometry.workgroup_size_x, 24u);
  EXPECT_EQ(Recommend(narrow).geometry.slot_count, 120u);

  EXPECT_EQ(Recommend(Request(10'000'000)).worker_groups,
            kMaxDerivedWorkerGroups);
  MegakernelLaunchRequest few_groups = Request(10'000);
  few_groups.max_workgroups_per_dimension = 10;
  EXPECT_EQ(Recommend(few_groups).worker_groups, 10u);
  few_groups.requested_worker_groups = 5;
  EXPECT_EQ(Recommend(few_groups).worker_groups, 5u);
  few_groups.requested_worker_groups = 500;
  EXPECT_EQ(Recommend(few_groups).worker_groups, 10u);

  MegakernelLaunchRequest too_long =
      Request(std::numeric_limits<uint32_t>::max());
  too_long.requested_hit_capacity = 1;
  absl::StatusOr<MegakernelLaunchRecommendation> overflow =
      RecommendLaunch(too_long);
  EXPECT_EQ(overflow.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(overflow.status().message(), HasSubstr("u32 ring protocol"));
}

TEST(LaunchPolicyTest, AgePriorityWork) {
  MegakernelLaunchRequest request = Request(10);
  EXPECT_FALSE(Recommend(request).age_priority_work);
  request.max_priority_age = kPriorityAgeThreshold - 1;
  EXPECT_FALSE(Recommend(request).age_priority_work);
  request.max_priority_age = kPriorityAgeThreshold;
  EXPECT_TRUE(Recommend(request).age_priority_work);
  request.max_priority_age = 0;
  request.requeue_count = 1;
  EXPECT_TRUE(Recommend(request).age_priority_work);
}

TEST(LaunchPolicyTest, HysteresisKeepsThePreviousTopologyNearABorder) {
  const struct {
    DispatchTopology previous;
    uint32_t density;
    uint32_t pressure;
    DispatchTopology expected;
  } cases[] = {
      // Sparse stays sparse up to 500 + 250.
      {DispatchTopology::kSparseFrontier, 750, 0,
       DispatchTopology::kSparseFrontier},
      {DispatchTopology::kSparseFrontier, 751, 0,
       DispatchTopology::kHybridFrontier},
      // Hybrid stays hybrid down to 500 - 250 and up to 4000 + 250.
      {DispatchTopology::kHybridFrontier, 250, 0,
       DispatchTopology::kHybridFrontier},
      {DispatchTopology::kHybridFrontier, 249, 0,
       DispatchTopology::kSparseFrontier},
      {DispatchTopology::kHybridFrontier, 4250, 0,
       DispatchTopology::kHybridFrontier},
      {DispatchTopology::kHybridFrontier, 4251, 0,
       DispatchTopology::kDenseFrontier},
      // Dense stays dense down to 4000 - 250.
      {DispatchTopology::kDenseFrontier, 3750, 0,
       DispatchTopology::kDenseFrontier},
      {DispatchTopology::kDenseFrontier, 3749, 0,
       DispatchTopology::kHybridFrontier},
      // Memory-constrained stays while pressure >= 8500 - 250.
      {DispatchTopology::kMemoryConstrained, 2000, 8250,
       DispatchTopology::kMemoryConstrained},
      {DispatchTopology::kMemoryConstrained, 2000, 8249,
       DispatchTopology::kHybridFrontier},
      // Far from a border the raw topology wins.
      {DispatchTopology::kSparseFrontier, 9000, 0,
       DispatchTopology::kDenseFrontier},
      {DispatchTopology::kEmpty, 2000, 0, DispatchTopology::kHybridFrontier},
  };
  for (const auto& c : cases) {
    MegakernelLaunchRequest request = Request(100);
    request.frontier_density_bps = c.density;
    request.memory_pressure_bps = c.pressure;
    EXPECT_EQ(Recommend(request, c.previous).topology, c.expected)
        << DispatchTopologyName(c.previous) << " at " << c.density << "/"
        << c.pressure;
  }
  // Empty queues and real memory pressure are never smoothed away.
  EXPECT_EQ(Recommend(Request(0), DispatchTopology::kDenseFrontier).topology,
            DispatchTopology::kEmpty);
  MegakernelLaunchRequest pressured = Request(100);
  pressured.memory_pressure_bps = kMemoryPressureBps;
  EXPECT_EQ(Recommend(pressured, DispatchTopology::kSparseFrontier).topology,
            DispatchTopology::kMemoryConstrained);
}

TEST(LaunchPolicyTest, FusedDenseHysteresisNeedsItsConditions) {
  MegakernelLaunchRequest request = Request(100);
  request.frontier_density_bps = 3800;  // raw: hybrid
  request.graph_node_count = 1;
  request.graph_edge_count = kFusionEdgeThreshold;
  request.hot_opcode_count = kHotOpcodeThreshold;
  EXPECT_EQ(Recommend(request, DispatchTopology::kFusedDense).topology,
            DispatchTopology::kFusedDense);
  request.hot_opcode_count = 0;
  EXPECT_EQ(Recommend(request, DispatchTopology::kFusedDense).topology,
            DispatchTopology::kHybridFrontier);
}

TEST(LaunchPolicyTest, NamesAndPrinting) {
  EXPECT_EQ(QueuePressureName(QueuePressure::kSaturated), "saturated");
  EXPECT_EQ(ExecutionModeName(ExecutionMode::kJit), "jit");
  EXPECT_EQ(DispatchTopologyName(DispatchTopology::kMemoryConstrained),
            "memory_constrained");
  std::ostringstream os;
  os << Recommend(Request(1000));
  EXPECT_THAT(os.str(), HasSubstr("topology=hybrid_frontier"));
  EXPECT_THAT(os.str(), HasSubstr("dispatch_grid=[16,1,1]"));
}

TEST(TelemetryLaunchTest, PrefillFromTheSnapshot) {
  ControlBuilder control;
  for (uint32_t op = 8; op < 11; ++op) control.Set(RF_CTRL_DISPATCH + op, op);
  RingBuilder ring;
  for (uint32_t i = 0; i < 4; ++i) {  // window (1, 8): 4 slots -> hot
    ring.Add({RF_STATUS_PUBLISHED, 8, 0, 1, i % 2});
  }
  for (uint32_t i = 0; i < 3; ++i) {  // window (2, 8): 3 slots -> not hot
    ring.Add({RF_STATUS_REQUEUE, 8, 0, 2, 0});
  }
  ring.Add({RF_STATUS_DONE, 8, 0, 3, 2});  // (3, 8): class 2 counts nowhere
  ring.AddStatus(RF_STATUS_EMPTY);
  ring.AddStatus(RF_STATUS_EMPTY);
  const std::vector<uint32_t> ops = {8};
  const RingTelemetry t = RingTelemetry::DecodeWithWindowOpcodes(
      control.bytes(), ring.bytes(), ops);

  MegakernelLaunchRequest request = Request(100);
  request.frontier_density_bps = 0;
  request.hot_opcode_count = 99;  // replaced by what the snapshot sees
  request.requeue_count = 5;
  const MegakernelLaunchRequest filled = t.PrefillLaunchRequest(request);
  EXPECT_EQ(filled.graph_node_count, 10u);
  EXPECT_EQ(filled.graph_edge_count, 7u);  // queue depth
  EXPECT_EQ(filled.frontier_density_bps, 7000u);
  EXPECT_EQ(filled.hot_opcode_count, 3u);
  EXPECT_EQ(filled.hot_window_count, 1u);
  EXPECT_EQ(filled.requeue_count, 8u);
  EXPECT_EQ(filled.queue_len, 100u);

  MegakernelLaunchRequest given = request;
  given.graph_node_count = 1;
  given.graph_edge_count = 2;
  given.frontier_density_bps = 3;
  const MegakernelLaunchRequest kept = t.PrefillLaunchRequest(given);
  EXPECT_EQ(kept.graph_node_count, 1u);
  EXPECT_EQ(kept.graph_edge_count, 2u);
  EXPECT_EQ(kept.frontier_density_bps, 3u);

  given.requeue_count = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(t.PrefillLaunchRequest(given).requeue_count,
            std::numeric_limits<uint64_t>::max());

  absl::StatusOr<MegakernelLaunchRecommendation> r = t.RecommendLaunch(request);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, *RecommendLaunch(filled));
  EXPECT_EQ(r->topology, DispatchTopology::kDenseFrontier);
  EXPECT_EQ(r->pressure, QueuePressure::kSaturated);  // requeues
  EXPECT_TRUE(r->age_priority_work);
}

TEST(TelemetryLaunchTest, ManyHotOpcodesPromoteToJit) {
  ControlBuilder control;
  for (uint32_t op = 8; op < 8 + kHotOpcodeThreshold; ++op) {
    control.Set(RF_CTRL_DISPATCH + op, 1);
  }
  RingBuilder ring;
  ring.AddStatus(RF_STATUS_PUBLISHED, 8);
  const RingTelemetry t = RingTelemetry::Decode(control.bytes(), ring.bytes());
  absl::StatusOr<MegakernelLaunchRecommendation> r =
      t.RecommendLaunch(Request(10));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->promote_hot_opcodes);
  EXPECT_EQ(r->execution_mode, ExecutionMode::kJit);
}

}  // namespace
}  // namespace ringfuzz::telemetry

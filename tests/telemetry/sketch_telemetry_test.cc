// RingTelemetry::Sketch: what the wire protocol says goes into each sketch.
#include "telemetry/sketch_telemetry.h"

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/ring_telemetry.h"
#include "telemetry/sketch_report.h"
#include "tests/telemetry/wire_builder.h"

namespace ringfuzz::telemetry {
namespace {

using ::ringfuzz::telemetry::testing::ControlBuilder;
using ::ringfuzz::telemetry::testing::RingBuilder;
using ::testing::ElementsAre;

RingTelemetry Sample() {
  ControlBuilder control;
  control.Set(RF_CTRL_DISPATCH + RF_OP_HAVOC, 40)
      .Set(RF_CTRL_DISPATCH + RF_OP_SPLICE, 7);
  RingBuilder ring;
  ring.Add({RF_STATUS_PUBLISHED, RF_OP_HAVOC, 1});
  ring.Add({RF_STATUS_CLAIMED, RF_OP_HAVOC, 1});
  ring.Add({RF_STATUS_DONE, RF_OP_HAVOC, 2});
  ring.Add({RF_STATUS_REQUEUE, RF_OP_SPLICE, 2});
  ring.Add({RF_STATUS_EMPTY, 0, 0});
  ring.Add({RF_STATUS_FAULT, RF_OP_CMP, 3});
  ring.Add({42, RF_OP_CMP, 3});
  return RingTelemetry::Decode(control.bytes(), ring.bytes());
}

TEST(SketchTelemetryTest, CountsWhatTheProtocolLists) {
  const RingTelemetry t = Sample();
  // Wide and deep enough that these few keys do not collide in every row.
  absl::StatusOr<SketchTelemetry> s = t.Sketch(4, 4096);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->total_slots, 7u);
  EXPECT_EQ(s->active_slots, 3u);  // published, claimed, requeue

  EXPECT_EQ(s->ring_opcode.Estimate(RF_OP_HAVOC), 3u);
  EXPECT_EQ(s->ring_opcode.Estimate(RF_OP_SPLICE), 1u);
  EXPECT_EQ(s->ring_opcode.Estimate(RF_OP_CMP), 2u);
  EXPECT_EQ(s->ring_opcode.Estimate(0), 1u);

  EXPECT_EQ(s->active_opcode.Estimate(RF_OP_HAVOC), 2u);
  EXPECT_EQ(s->active_opcode.Estimate(RF_OP_SPLICE), 1u);
  EXPECT_EQ(s->active_opcode.Estimate(RF_OP_CMP), 0u);

  EXPECT_EQ(s->tenant.Estimate(1), 2u);
  EXPECT_EQ(s->tenant.Estimate(2), 2u);
  EXPECT_EQ(s->tenant.Estimate(3), 2u);

  EXPECT_EQ(s->status.Estimate(RF_STATUS_DONE), 1u);
  EXPECT_EQ(s->status.Estimate(42), 1u);  // raw unknown status

  // Dispatch counters weighted by their count.
  EXPECT_EQ(s->dispatch_metrics.Estimate(RF_OP_HAVOC), 40u);
  EXPECT_EQ(s->dispatch_metrics.Estimate(RF_OP_SPLICE), 7u);
  EXPECT_EQ(s->dispatch_metrics.Estimate(RF_OP_CMP), 0u);
}

TEST(SketchTelemetryTest, CountersAreExactlyTheProtocolBuckets) {
  const RingTelemetry t = Sample();
  absl::StatusOr<SketchTelemetry> s = t.Sketch(2, 64);
  ASSERT_TRUE(s.ok());
  absl::StatusOr<CountMinSketch> expected = CountMinSketch::Create(2, 64);
  expected->Add(RF_OP_HAVOC, 40);
  expected->Add(RF_OP_SPLICE, 7);
  EXPECT_EQ(s->dispatch_metrics, *expected);
}

TEST(SketchTelemetryTest, DeterministicAndReusable) {
  const RingTelemetry t = Sample();
  absl::StatusOr<SketchTelemetry> first = t.Sketch(3, 128);
  absl::StatusOr<SketchTelemetry> second = t.Sketch(3, 128);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(*first, *second);

  SketchTelemetryScratch scratch;
  EXPECT_EQ(scratch.sketch(), nullptr);
  ASSERT_TRUE(t.SketchInto(3, 128, scratch).ok());
  ASSERT_NE(scratch.sketch(), nullptr);
  EXPECT_EQ(*scratch.sketch(), *first);
  const uint64_t* storage = scratch.sketch()->tenant.counters().data();
  // Same shape again: counters are zeroed in place, not reallocated.
  ASSERT_TRUE(t.SketchInto(3, 128, scratch).ok());
  EXPECT_EQ(scratch.sketch()->tenant.counters().data(), storage);
  EXPECT_EQ(*scratch.sketch(), *first);
  // A different snapshot into the same scratch gives that snapshot's sketch.
  ASSERT_TRUE(RingTelemetry{}.SketchInto(3, 128, scratch).ok());
  EXPECT_EQ(scratch.sketch()->total_slots, 0u);
  EXPECT_EQ(scratch.sketch()->ring_opcode.Estimate(RF_OP_HAVOC), 0u);
}

TEST(SketchTelemetryTest, ZeroDimensionIsAnErrorAndLeavesScratchAlone) {
  const RingTelemetry t = Sample();
  EXPECT_EQ(t.Sketch(0, 16).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(t.Sketch(16, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  SketchTelemetryScratch scratch;
  ASSERT_TRUE(t.SketchInto(2, 16, scratch).ok());
  const SketchTelemetry before = *scratch.sketch();
  EXPECT_EQ(t.SketchInto(2, 0, scratch).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_NE(scratch.sketch(), nullptr);
  EXPECT_EQ(*scratch.sketch(), before);
}

TEST(TopEstimatesTest, LargestFirstTiesByKeyDuplicatesOnce) {
  absl::StatusOr<CountMinSketch> sketch = CountMinSketch::Create(4, 4096);
  sketch->Add(10, 5);
  sketch->Add(11, 9);
  sketch->Add(12, 5);
  const std::vector<uint32_t> candidates = {12, 10, 11, 11, 99};
  EXPECT_THAT(
      TopEstimates(*sketch, candidates, 10),
      ElementsAre(SketchEntry{11, 9}, SketchEntry{10, 5}, SketchEntry{12, 5}));
  EXPECT_THAT(TopEstimates(*sketch, candidates, 1),
              ElementsAre(SketchEntry{11, 9}));
  EXPECT_TRUE(TopEstimates(*sketch, {}, 3).empty());
}

TEST(SketchReportTest, UsesTheSnapshotsValuesAsCandidates) {
  const RingTelemetry t = Sample();
  absl::StatusOr<SketchTelemetry> s = t.Sketch(4, 4096);
  ASSERT_TRUE(s.ok());
  const SketchReport report = ReportSketch(*s, t, 2);
  EXPECT_EQ(report.depth, 4u);
  EXPECT_EQ(report.width, 4096u);
  EXPECT_THAT(report.ring_opcode, ElementsAre(SketchEntry{RF_OP_HAVOC, 3},
                                              SketchEntry{RF_OP_CMP, 2}));
  EXPECT_THAT(
      report.dispatch_metrics,
      ElementsAre(SketchEntry{RF_OP_HAVOC, 40}, SketchEntry{RF_OP_SPLICE, 7}));
  EXPECT_THAT(report.active_opcode, ElementsAre(SketchEntry{RF_OP_HAVOC, 2},
                                                SketchEntry{RF_OP_SPLICE, 1}));
}

}  // namespace
}  // namespace ringfuzz::telemetry

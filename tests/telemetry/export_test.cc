// ToJson (golden), the JSON writer, the summary line (golden) and the table.
#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/json_export.h"
#include "telemetry/json_writer.h"
#include "telemetry/ring_telemetry.h"
#include "telemetry/summary_line.h"
#include "telemetry/text_table.h"
#include "tests/telemetry/wire_builder.h"

namespace ringfuzz::telemetry {
namespace {

using ::ringfuzz::telemetry::testing::ControlBuilder;
using ::ringfuzz::telemetry::testing::RingBuilder;
using ::testing::HasSubstr;
using ::testing::Not;

RingTelemetry Golden(uint32_t done_count) {
  ControlBuilder control;
  control.Set(RF_CTRL_DONE_COUNT, done_count)
      .Set(RF_CTRL_EPOCH, 3)
      .Set(RF_CTRL_DISPATCH + RF_OP_HAVOC, 5)
      .Set(RF_CTRL_DISPATCH + RF_OP_SPLICE, 2)
      .Set(RF_CTRL_TENANT_FAIRNESS + 0, 4)
      .Set(RF_CTRL_TENANT_FAIRNESS + 1, 2)
      .Set(RF_CTRL_PRIORITY_FAIRNESS + RF_PRIORITY_NORMAL, 6);
  RingBuilder ring;
  ring.Add({RF_STATUS_PUBLISHED, RF_OP_HAVOC, 1, 7, RF_CLASS_REQUIRED, 3});
  ring.Add({RF_STATUS_DONE, RF_OP_HAVOC, 1, 7, RF_CLASS_LOOKAHEAD, 3});
  ring.AddStatus(RF_STATUS_EMPTY);
  ring.Add({9, RF_OP_SPLICE, 0, 8, RF_CLASS_REQUIRED, 4});
  const std::vector<uint32_t> ops = {RF_OP_HAVOC};
  absl::StatusOr<RingTelemetry> t = RingTelemetry::TryDecodeWithWindowOpcodes(
      control.bytes(), ring.bytes(), ops);
  EXPECT_TRUE(t.ok()) << t.status();
  return *t;
}

TEST(JsonExportTest, GoldenSnapshot) {
  const RingTelemetry previous = Golden(10);
  const RingTelemetry now = Golden(12);
  JsonOptions options;
  options.previous = &previous;
  // Checked by hand against the snapshot above.
  const std::string expected =
      R"({"control":{"shutdown":false,"done_count":12,"epoch":3,)"
      R"("metrics":[[8,5],[9,2]],)"
      R"("tenant_fairness":[4,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,)"
      R"(0,0,0,0,0,0,0,0,0],"priority_fairness":[0,0,6,0,0]},)"
      R"("occupancy":{"empty":1,"published":1,"claimed":0,"done":1,)"
      R"("wait_io":0,"yield":0,"requeue":0,"fault":0,"unknown":1,)"
      R"("total_slots":4,"queue_depth":2},)"
      R"("slots":[)"
      R"({"slot":0,"status":"published","tenant":1,"opcode":8,"args":[7,0,3]},)"
      R"({"slot":1,"status":"done","tenant":1,"opcode":8,"args":[7,1,3]},)"
      R"({"slot":2,"status":"empty","tenant":0,"opcode":0,"args":[0,0,0]},)"
      R"j({"slot":3,"status":"unknown(9)","tenant":0,"opcode":9,)j"
      R"("args":[8,0,4]}],)"
      R"("windows":[{"ticket":7,"tenant":1,"opcode":8,"required_slots":1,)"
      R"("lookahead_slots":1,"published":1,"claimed":0,"done":1,"wait_io":0,)"
      R"("yield":0,"requeue":0,"fault":0,"active":true}],)"
      R"("runtime_counters":{"total_slots":4,"queue_depth":2,)"
      R"("gpu_idle_slots":1,"gpu_idle_ppm":250000,)"
      R"("frontier_density_bps":5000,"occupancy_proxy_bps":7500,)"
      R"("drained_slots":12,"unreclaimed_done_slots":1,)"
      R"("tenant_fairness_total":6,"tenant_fairness_skew":2,)"
      R"("priority_fairness_total":6,"requeue_slots":0,"fault_slots":0},)"
      R"("priority_accounting":{"requeue_count":0,"aged_promotions":0,)"
      R"("max_priority_age":0,)"
      R"("drain":{"should_drain":false,"reason":"none"}},)"
      R"("health":{"done_delta":2,"queue_depth":2,"fault_slots":0,)"
      R"("requeue_slots":0,"gpu_idle_ppm":250000,"suspected_stall":false}})";
  EXPECT_EQ(ToJson(now, options), expected);
  // Without a previous snapshot there is no health section.
  const std::string without = ToJson(now);
  EXPECT_EQ(without, expected.substr(0, expected.find(R"(,"health")")) + "}");
}

TEST(JsonExportTest, EmptySnapshot) {
  const std::string json = ToJson(RingTelemetry{});
  EXPECT_THAT(json, HasSubstr(R"("metrics":[],)"));
  EXPECT_THAT(json, HasSubstr(R"("slots":[],"windows":[],)"));
  EXPECT_THAT(json, HasSubstr(R"("gpu_idle_ppm":0,)"));
}

TEST(JsonExportTest, OptionalSectionsAndTheirErrors) {
  const RingTelemetry now = Golden(12);
  const RingTelemetry later_epoch = Golden(100);
  JsonOptions options;
  options.previous = &later_epoch;
  options.sketch_depth = 4;
  options.sketch_width = 4096;
  options.sketch_top = 2;
  MegakernelLaunchRequest launch;
  launch.queue_len = 100;
  launch.max_workgroup_size_x = 256;
  launch.max_workgroups_per_dimension = 65535;
  launch.max_invocations_per_workgroup = 256;
  options.launch = launch;
  const std::string json = ToJson(now, options);
  EXPECT_THAT(json, HasSubstr(R"("health":{"error":"FAILED_PRECONDITION: )"
                              R"(done_count went backwards from 100 to 12)"));
  EXPECT_THAT(json, HasSubstr(R"("sketch":{"depth":4,"width":4096,)"
                              R"("total_slots":4,"active_slots":1,)"
                              R"("ring_opcode":[[8,2],[0,1]],)"
                              R"("active_opcode":[[8,1]],)"
                              R"("tenant":[[0,2],[1,2]],)"
                              R"("status":[[0,1],[1,1]],)"
                              R"("dispatch_metrics":[[8,5],[9,2]]})"));
  EXPECT_THAT(json,
              HasSubstr(R"("launch":{"geometry":{"workgroup_size_x":64,)"
                        R"("slot_count":128,"dispatch_grid":[2,1,1]},)"
                        R"("worker_groups":2,"hit_capacity":1024,)"
                        R"("pressure":"light","execution_mode":"interpreter",)"
                        R"("topology":"dense_frontier",)"));
  options.sketch_width = 0;
  options.launch->max_workgroup_size_x = 0;
  const std::string errors = ToJson(now, options);
  EXPECT_THAT(errors, HasSubstr(R"("sketch":{"error":"INVALID_ARGUMENT: )"));
  EXPECT_THAT(errors, HasSubstr(R"("launch":{"error":"INVALID_ARGUMENT: )"
                                R"(adapter limit max_workgroup_size_x is 0)"));
}

TEST(JsonWriterTest, EscapesStringsAndPlacesCommas) {
  std::string out;
  AppendJsonString("a\"b\\c\nd\te\x01\x1f/\xc3\xa9", out);
  EXPECT_EQ(out, R"("a\"b\\c\nd\te\u0001\u001f/)"
                 "\xc3\xa9\"");
  JsonWriter json;
  json.BeginObject()
      .Field("k", "v")
      .Key("list")
      .BeginArray()
      .Uint(1)
      .BeginObject()
      .EndObject()
      .BeginArray()
      .EndArray()
      .Bool(true)
      .EndArray()
      .Field("n", uint64_t{18446744073709551615u})
      .EndObject();
  EXPECT_EQ(json.text(),
            R"({"k":"v","list":[1,{},[],true],"n":18446744073709551615})");
}

TEST(SummaryLineTest, Golden) {
  const RingTelemetry previous = Golden(10);
  const RingTelemetry now = Golden(12);
  SummaryOptions options;
  options.previous = &previous;
  MegakernelLaunchRequest launch;
  launch.queue_len = 5000;
  launch.max_workgroup_size_x = 256;
  launch.max_workgroups_per_dimension = 65535;
  launch.max_invocations_per_workgroup = 256;
  options.launch = launch;
  options.sketch_depth = 4;
  options.sketch_width = 4096;
  EXPECT_EQ(SummaryLine(now, options),
            "epoch=3 done=12 slots=4 queue=2 idle_ppm=250000 density_bps=5000 "
            "occupancy_bps=7500 requeue=0 fault=0 tenant_skew=2 "
            "done_delta=2 stall=0 "
            "launch=jit topology=dense_frontier pressure=light groups=79 "
            "wg=64 slots=5056 hits=10000 peak_bytes=160000 age_priority=0 "
            "top_opcodes=8:2,0:1,9:1 top_tenants=0:2,1:2");
}

TEST(SummaryLineTest, ErrorsAndDefaults) {
  const RingTelemetry now = Golden(12);
  const RingTelemetry later_epoch = Golden(100);
  SummaryOptions options;
  options.previous = &later_epoch;
  options.launch = MegakernelLaunchRequest{};  // zero adapter limits
  options.sketch_width = 0;
  EXPECT_EQ(SummaryLine(now, options),
            "epoch=3 done=12 slots=4 queue=2 idle_ppm=250000 density_bps=5000 "
            "occupancy_bps=7500 requeue=0 fault=0 tenant_skew=2 "
            "health=new_epoch launch=error:INVALID_ARGUMENT "
            "sketch=error:INVALID_ARGUMENT");
  SummaryOptions bare;
  bare.sketch_top = 0;
  EXPECT_EQ(SummaryLine(RingTelemetry{}, bare),
            "epoch=0 done=0 slots=0 queue=0 idle_ppm=0 density_bps=0 "
            "occupancy_bps=0 requeue=0 fault=0 tenant_skew=0");
  EXPECT_THAT(SummaryLine(RingTelemetry{}),
              HasSubstr("top_opcodes=- top_tenants=-"));
}

TEST(TextTableTest, ShowsSectionsAndNonEmptySlots) {
  const RingTelemetry previous = Golden(10);
  const RingTelemetry now = Golden(12);
  ExportOptions options;
  options.previous = &previous;
  options.sketch_depth = 2;
  options.sketch_width = 64;
  const std::string table = ToTable(now, options);
  EXPECT_THAT(table,
              HasSubstr("control    shutdown=no done_count=12 epoch=3\n"));
  EXPECT_THAT(table, HasSubstr("metrics    8:5 9:2\n"));
  EXPECT_THAT(table, HasSubstr("queue_depth=2\n"));
  EXPECT_THAT(table, HasSubstr("health     done_delta=2 "));
  EXPECT_THAT(table,
              HasSubstr("sketch     2x64 total_slots=4 active_slots=1\n"));
  EXPECT_THAT(table, HasSubstr("slots      3 shown, 1 empty not shown\n"));
  EXPECT_THAT(table, HasSubstr("unknown(9)"));
  EXPECT_THAT(table, HasSubstr("windows    1, 1 active\n"));
  EXPECT_THAT(table, Not(HasSubstr("2  empty")));  // no row for slot 2
  EXPECT_EQ(table.back(), '\n');
  EXPECT_THAT(ToTable(RingTelemetry{}), HasSubstr("metrics    -\n"));
}

}  // namespace
}  // namespace ringfuzz::telemetry

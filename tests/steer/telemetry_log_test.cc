#include "fuzz/steer/telemetry_log.h"

#include <signal.h>
#include <sys/resource.h>

#include <fstream>
#include <string>

#include "corpus/atomic_file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"
#include "tests/steer/wire_bytes.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(TelemetryLogTest, AppendsFlushedLines) {
  TempDir dir;
  absl::StatusOr<std::unique_ptr<TelemetryLog>> log =
      TelemetryLog::Open(dir.Sub("t.jsonl"));
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_TRUE((*log)->Append("{\"a\":1}").ok());
  EXPECT_EQ(ReadAll(dir.Sub("t.jsonl")), "{\"a\":1}\n");  // already flushed
  ASSERT_TRUE((*log)->Append("{\"a\":2}").ok());
  EXPECT_EQ(ReadAll(dir.Sub("t.jsonl")), "{\"a\":1}\n{\"a\":2}\n");
}

TEST(TelemetryLogTest, ErrorsNameThePathAndTheFix) {
  TempDir dir;
  absl::StatusOr<std::unique_ptr<TelemetryLog>> missing =
      TelemetryLog::Open(dir.Sub("no/such/t.jsonl"));
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(),
              HasSubstr("-telemetry_out=" + dir.Sub("no/such/t.jsonl") +
                        ": cannot create the file: No such file"));
  absl::StatusOr<std::unique_ptr<TelemetryLog>> full =
      TelemetryLog::Open("/dev/full");
  ASSERT_TRUE(full.ok());
  absl::Status written = (*full)->Append("x");
  EXPECT_EQ(written.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(written.message(),
              HasSubstr("-telemetry_out=/dev/full: cannot write: No space "
                        "left on device. Fix: free disk space"));
}

// A full disk mid-line (here: the file size limit, which fails a write half
// way as a full disk does) must not leave a truncated JSON line: the file
// keeps only whole lines, and the error names the file.
TEST(TelemetryLogTest, AFullDiskLeavesOnlyWholeLines) {
  TempDir dir;
  const std::string path = dir.Sub("t.jsonl");
  absl::StatusOr<std::unique_ptr<TelemetryLog>> log = TelemetryLog::Open(path);
  ASSERT_TRUE(log.ok()) << log.status();
  const std::string first =
      "{\"epoch\":1,\"pad\":\"" + std::string(40, 'a') + "\"}";
  const std::string second =
      "{\"epoch\":2,\"pad\":\"" + std::string(4000, 'b') + "\"}";
  ASSERT_TRUE((*log)->Append(first).ok());

  struct rlimit saved;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
  struct sigaction ignore = {}, saved_action;
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(sigaction(SIGXFSZ, &ignore, &saved_action), 0);
  struct rlimit small = saved;
  small.rlim_cur = first.size() + 1 + 100;  // room for a part of `second`
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  absl::Status written = (*log)->Append(second);
  setrlimit(RLIMIT_FSIZE, &saved);
  sigaction(SIGXFSZ, &saved_action, nullptr);

  EXPECT_FALSE(written.ok());
  EXPECT_THAT(written.message(), HasSubstr("-telemetry_out=" + path));
  EXPECT_EQ(ReadAll(path), first + "\n");
  // Once there is room again, lines go on where the last whole one ended.
  ASSERT_TRUE((*log)->Append("{\"epoch\":3}").ok());
  EXPECT_EQ(ReadAll(path), first + "\n{\"epoch\":3}\n");
}

TEST(BufferDumpTest, WritesControlAndRingOfAnEpoch) {
  TempDir dir;
  absl::StatusOr<BufferDump> dump = BufferDump::Create(dir.Sub("dump"));
  ASSERT_TRUE(dump.ok()) << dump.status();
  EXPECT_EQ(dump->Prefix(12), dir.Sub("dump/epoch-000012"));
  EXPECT_EQ(dump->Prefix(1234567), dir.Sub("dump/epoch-1234567"));
  WireBytes wire(2);
  wire.Slot(1, RF_STATUS_DONE, RF_OP_HAVOC, 3, 64, 64);
  ASSERT_TRUE(dump->Write(12, wire.View()).ok());
  EXPECT_THAT(
      ListDir(dir.Sub("dump")),
      testing::ElementsAre("epoch-000012.control", "epoch-000012.ring"));
  absl::StatusOr<Bytes> ring = ReadFile(dir.Sub("dump/epoch-000012.ring"));
  ASSERT_TRUE(ring.ok());
  const absl::Span<const uint8_t> expected = wire.View().ring;
  EXPECT_EQ(*ring, Bytes(expected.begin(), expected.end()));
  // An existing directory is fine; a file or a missing parent is not.
  EXPECT_TRUE(BufferDump::Create(dir.Sub("dump")).ok());
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("file"), Bytes{1}).ok());
  EXPECT_THAT(BufferDump::Create(dir.Sub("file")).status().message(),
              HasSubstr("is not a directory"));
  EXPECT_THAT(BufferDump::Create(dir.Sub("a/b")).status().message(),
              HasSubstr("-dump_buffers=" + dir.Sub("a/b") +
                        ": cannot create the directory"));
}

// -dump_buffers writes two files per epoch for as long as a campaign runs;
// it stops at a documented cap of epochs and of bytes, and says so.
TEST(BufferDumpTest, StopsAtTheEpochCapAndSaysSo) {
  TempDir dir;
  BufferDumpLimits limits;
  limits.max_epochs = 2;
  absl::StatusOr<BufferDump> dump = BufferDump::Create(dir.Sub("d"), limits);
  ASSERT_TRUE(dump.ok()) << dump.status();
  WireBytes wire(2);
  ASSERT_TRUE(dump->Write(1, wire.View()).ok());
  ASSERT_TRUE(dump->Write(2, wire.View()).ok());
  absl::Status third = dump->Write(3, wire.View());
  EXPECT_EQ(third.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(third.message(), HasSubstr("-dump_buffers=" + dir.Sub("d")));
  EXPECT_THAT(third.message(), HasSubstr("cap of 2 epochs"));
  EXPECT_EQ(ListDir(dir.Sub("d")).size(), 4u);
}

TEST(BufferDumpTest, StopsAtTheByteCapAndSaysSo) {
  TempDir dir;
  WireBytes wire(2);
  const uint64_t epoch_bytes =
      wire.View().control.size() + wire.View().ring.size();
  BufferDumpLimits limits;
  limits.max_bytes = epoch_bytes + epoch_bytes / 2;
  absl::StatusOr<BufferDump> dump = BufferDump::Create(dir.Sub("d"), limits);
  ASSERT_TRUE(dump.ok()) << dump.status();
  ASSERT_TRUE(dump->Write(1, wire.View()).ok());
  absl::Status second = dump->Write(2, wire.View());
  EXPECT_EQ(second.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(second.message(), HasSubstr("bytes"));
  EXPECT_EQ(ListDir(dir.Sub("d")).size(), 2u);  // no half-dumped epoch
}

TEST(BufferDumpTest, DefaultCapIsDocumented) {
  // docs/cli.md names these numbers; change both together.
  EXPECT_EQ(BufferDumpLimits().max_epochs, 1000u);
  EXPECT_EQ(BufferDumpLimits().max_bytes, uint64_t{1} << 30);
}

TEST(EpochLineTest, HasEveryPartInOrder) {
  WireBytes before(2), after(2);
  before.control[RF_CTRL_DONE_COUNT] = 3;
  after.control[RF_CTRL_DONE_COUNT] = 5;
  after.control[RF_CTRL_EPOCH] = 7;
  after.control[RF_CTRL_DISPATCH + RF_OP_HAVOC] = 2;
  after.Slot(0, RF_STATUS_DONE, RF_OP_HAVOC, 1, 64, 64);
  after.Slot(1, RF_STATUS_DONE, RF_OP_HAVOC, 2, 64, 64, 1);
  const telemetry::RingTelemetry previous = telemetry::RingTelemetry::Decode(
      before.View().control, before.View().ring);
  const telemetry::RingTelemetry now =
      telemetry::RingTelemetry::Decode(after.View().control, after.View().ring);
  telemetry::PriorityRequeueAccounting accounting;
  accounting.RecordRequeue(2);
  telemetry::MegakernelLaunchRequest request;
  request.queue_len = 2;
  request.max_workgroup_size_x = 1024;
  request.max_workgroups_per_dimension = 65535;
  request.max_invocations_per_workgroup = 1024;
  EpochRecord record;
  record.now = &now;
  record.previous = &previous;
  record.launch = request;
  record.accounting = &accounting;
  record.steering.last = true;
  record.steering.geometry = {2, 128, 64};
  record.steering.tenant_quotas = {1, 1};
  const std::string line = EpochLine(record);
  EXPECT_THAT(line, StartsWith("{\"epoch\":7,\"summary\":\"epoch=7 done=5 "
                               "slots=2 queue=0 "));
  EXPECT_THAT(line, HasSubstr(" done_delta=2 stall=0 launch="));
  EXPECT_THAT(line, HasSubstr(" top_opcodes=8:2 top_tenants="));
  EXPECT_THAT(line, HasSubstr("\",\"runtime_counters\":{\"total_slots\":2,"
                              "\"queue_depth\":0,"));
  EXPECT_THAT(line, HasSubstr("},\"health\":{\"done_delta\":2,"));
  EXPECT_THAT(line, HasSubstr("},\"priority_accounting\":{\"requeue_count\":1,"
                              "\"aged_promotions\":0,\"max_priority_age\":2,"
                              "\"drain\":{\"should_drain\":true,\"reason\":"
                              "\"pending_telemetry\"}}"));
  EXPECT_THAT(line, HasSubstr(",\"launch\":{\"worker_groups\":1,"
                              "\"workgroup_size_x\":64,\"slot_count\":64,"));
  EXPECT_THAT(line, HasSubstr(",\"sketch\":{\"ring_opcode\":[[8,2]],"
                              "\"tenant\":[["));
  EXPECT_THAT(line, HasSubstr("\"dispatch_metrics\":[[8,2]]}"));
  EXPECT_THAT(line, HasSubstr(",\"steering\":{\"last\":true,\"worker_groups\":"
                              "64,\"batch_slots\":2,\"slot_execs\":128,"
                              "\"tenant_quotas\":[1,1],\"promoted\":0,"
                              "\"waiting\":0,\"stalled\":false,\"suspects\":0}"
                              "}"));
  EXPECT_EQ(line.find('\n'), std::string::npos);
  // Without a previous snapshot, request or accounting those parts go.
  EpochRecord bare;
  bare.now = &now;
  const std::string short_line = EpochLine(bare);
  EXPECT_EQ(short_line.find("\"health\""), std::string::npos);
  EXPECT_EQ(short_line.find("\"launch\""), std::string::npos);
  EXPECT_EQ(short_line.find("\"priority_accounting\""), std::string::npos);
}

}  // namespace
}  // namespace ringfuzz

// The engine steered by ring telemetry, against a ScriptedExecutor whose
// simulated device misbehaves on cue: each test shows that the telemetry
// changes what the engine does next.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "corpus/atomic_file.h"
#include "corpus/sha1.h"
#include "fuzz/engine/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/decode_command.h"
#include "telemetry/ring_telemetry.h"
#include "tests/corpus/temp_dir.h"
#include "tests/engine/engine_run.h"
#include "tests/engine/fake_clock.h"
#include "tests/steer/scripted_executor.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Config TestConfig() {
  Config config;
  config.seed = 1;
  config.batch_slots = 8;
  config.slot_execs = 64;
  config.runs = 5000;
  config.verbosity = 0;
  return config;
}

// Polls at once and declares a stall at the first poll without progress.
SteeringOptions Eager() {
  SteeringOptions options;
  options.poll_interval = absl::ZeroDuration();
  options.stall_interval = absl::ZeroDuration();
  return options;
}

FakeExecutorOptions NeverCrashes() {
  FakeExecutorOptions fake;
  fake.magic = "0123456789abcdef";  // not found in these short runs
  return fake;
}

EngineRun RunSteered(const Config& config, ScriptedExecutor& executor,
                     const std::vector<std::string>& positional,
                     FakeClock& clock,
                     const SteeringOptions& steering = Eager()) {
  return RunEngineOn(config, executor, positional, clock, steering);
}

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// True iff `item` can be fresh-entry work of batch `b` (BatchPlan::fresh):
// HIGH, of an entry found by an earlier batch (by the last one, or before
// it when the fresh share of a batch was used up).
bool IsFreshWork(const ScriptedExecutor& executor, size_t b,
                 const WorkItem& item) {
  const std::vector<size_t>& inputs = executor.inputs_at_batch();
  return item.priority == RF_PRIORITY_HIGH && item.parent >= inputs[0] &&
         item.parent < inputs[b];
}

int Count(const std::vector<WorkItem>& work, uint32_t tenant) {
  int n = 0;
  for (const WorkItem& item : work) n += item.tenant == tenant;
  return n;
}

// --- Stall recovery. ---

TEST(EngineSteeringTest, StalledDispatchIsStoppedAndTheHangIsATimeout) {
  TempDir dir;
  FakeClock clock;
  ScriptedExecutorOptions options;
  options.fake = NeverCrashes();
  options.clock = &clock;
  options.fate = [](int batch, uint32_t slot, const WorkItem&) {
    return batch == 1 && slot == 3 ? SlotFate::kHang : SlotFate::kRun;
  };
  ScriptedExecutor executor(options);
  Config config = TestConfig();
  config.artifact_prefix = dir.path() + "/";
  EngineRun run = RunSteered(config, executor, {}, clock);

  EXPECT_EQ(run.code, config.timeout_exitcode) << run.log;
  EXPECT_EQ(executor.shutdowns(), 1);
  ASSERT_EQ(executor.batches().size(), 2u);  // the run ends with the report
  // Only the slot left CLAIMED is a suspect, replayed exactly as published
  // (device-written args cleared) with the seed of its dispatch.
  ASSERT_EQ(executor.replayed().size(), 1u);
  const SuspectSlot& suspect = executor.replayed()[0];
  EXPECT_EQ(suspect.index, 3u);
  EXPECT_EQ(suspect.push_seed, 1001u);
  const Bytes& ring = executor.published_rings()[1];
  for (uint32_t w = 1; w < RF_SLOT_ARG0 + RF_ARG_EXECS; ++w) {
    EXPECT_EQ(suspect.words[w], SlotWord(ring, 3, w)) << "word " << w;
  }
  const uint32_t parent = executor.batches()[1][3].parent;
  EXPECT_EQ(suspect.words[RF_SLOT_ARG0 + RF_ARG_PARENT], parent);
  const Bytes& hanging = executor.inputs()[parent];
  const std::string artifact = dir.Sub("timeout-" + Sha1Hex(hanging));
  absl::StatusOr<Bytes> written = ReadFile(artifact);
  ASSERT_TRUE(written.ok()) << written.status() << "\n" << run.log;
  EXPECT_EQ(*written, hanging);
  EXPECT_THAT(run.log, HasSubstr("INFO: the megakernel drained no slot for "));
  EXPECT_THAT(run.log, HasSubstr("Replaying the claimed slots one by one"));
  EXPECT_THAT(run.log, HasSubstr("SUMMARY: libFuzzer: timeout"));
}

TEST(EngineSteeringTest, StallThatDoesNotReproduceLetsFuzzingContinue) {
  FakeClock clock;
  ScriptedExecutorOptions options;
  options.fake = NeverCrashes();
  options.clock = &clock;
  options.replay_reproduces_hang = false;
  options.fate = [](int batch, uint32_t slot, const WorkItem&) {
    return batch == 1 && slot == 0 ? SlotFate::kHang : SlotFate::kRun;
  };
  ScriptedExecutor executor(options);
  EngineRun run = RunSteered(TestConfig(), executor, {}, clock);
  EXPECT_EQ(run.code, 0) << run.log;
  EXPECT_EQ(executor.shutdowns(), 1);
  EXPECT_EQ(executor.replayed().size(), 1u);
  EXPECT_GT(executor.batches().size(), 2u);  // fuzzing went on
  EXPECT_GE(run.executions, 5000u);
  EXPECT_THAT(run.log, HasSubstr("none of the 1 claimed slot(s) hung when "
                                 "replayed alone"));
}

// Without a stall interval's worth of no progress, nothing is stopped.
TEST(EngineSteeringTest, SlowProgressIsNotAStall) {
  FakeClock clock;
  ScriptedExecutorOptions options;
  options.fake = NeverCrashes();
  options.clock = &clock;
  options.poll_step = absl::Seconds(1);
  options.fate = [](int batch, uint32_t slot, const WorkItem&) {
    return batch == 1 && slot == 0 ? SlotFate::kHang : SlotFate::kRun;
  };
  ScriptedExecutor executor(options);
  SteeringOptions patient = Eager();
  patient.stall_interval = absl::Hours(1);  // longer than the script polls
  EngineRun run = RunSteered(TestConfig(), executor, {}, clock, patient);
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(executor.shutdowns(), 0);
  EXPECT_EQ(executor.polls(), ScriptedExecutor::kMaxPolls);
  EXPECT_THAT(run.log, HasSubstr("nobody stopped the dispatch"));
}

TEST(EngineSteeringTest, HungDeviceEndsTheRunClearlyWithTheCorpusOnDisk) {
  TempDir dir;
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("seed1"), Bytes{'a'}).ok());
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("seed2"), Bytes{'0', 'x'}).ok());
  FakeClock clock;
  ScriptedExecutorOptions options;
  options.fake = NeverCrashes();
  options.clock = &clock;
  options.hang_forever = true;
  options.fate = [](int batch, uint32_t slot, const WorkItem&) {
    return batch == 2 && slot == 1 ? SlotFate::kHang : SlotFate::kRun;
  };
  ScriptedExecutor executor(options);
  EngineRun run = RunSteered(TestConfig(), executor, {dir.path()}, clock);
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(executor.shutdowns(), 1);
  EXPECT_THAT(run.log,
              HasSubstr("ERROR: the executor failed to run a batch: the "
                        "device is hung"));
  EXPECT_THAT(run.log, HasSubstr("(it was stopped because the megakernel "
                                 "drained no slot for "));
  EXPECT_THAT(run.log,
              HasSubstr("every input found so far is saved in " + dir.path()));
  // Every corpus entry, seeds and finds of the first two batches, is on disk.
  EXPECT_GT(run.corpus.size(), 2u);
  EXPECT_EQ(ListDir(dir.path()).size(), run.corpus.size());
}

// --- Priority aging. ---

TEST(EngineSteeringTest, UnfinishedParentsComeFirstAtHighPriority) {
  TempDir dir;
  FakeClock clock;
  ScriptedExecutorOptions options;
  options.fake = NeverCrashes();
  options.fate = [](int batch, uint32_t slot, const WorkItem&) {
    return batch == 0 && slot == 2 ? SlotFate::kUnfinished : SlotFate::kRun;
  };
  ScriptedExecutor executor(options);
  Config config = TestConfig();
  config.telemetry_out = dir.Sub("telemetry.jsonl");
  EngineRun run = RunSteered(config, executor, {}, clock);
  ASSERT_EQ(run.code, 0) << run.log;
  ASSERT_GE(executor.batches().size(), 3u);
  for (const WorkItem& item : executor.batches()[0]) {
    EXPECT_NE(item.priority, RF_PRIORITY_HIGH);
  }
  const uint32_t parent = executor.batches()[0][2].parent;
  const std::vector<WorkItem>& next = executor.batches()[1];
  EXPECT_EQ(next[0].parent, parent);
  EXPECT_EQ(next[0].priority, RF_PRIORITY_HIGH);
  // After it, HIGH work is only the fresh entries' (found by batch 0).
  uint32_t high = 1;
  for (size_t i = 1; i < next.size(); ++i) {
    if (next[i].priority != RF_PRIORITY_HIGH) continue;
    EXPECT_TRUE(IsFreshWork(executor, 1, next[i])) << i;
    EXPECT_EQ(next[i - 1].priority, RF_PRIORITY_HIGH) << i;
    ++high;
  }
  // The partition words say where each priority starts.
  const std::vector<uint32_t>& words = executor.partitions()[1];
  EXPECT_EQ(words[RF_PRIORITY_CRITICAL], 0u);
  EXPECT_EQ(words[RF_PRIORITY_HIGH], 0u);
  EXPECT_EQ(words[RF_PRIORITY_NORMAL], high);
  EXPECT_EQ(words[RF_CTRL_PRIORITY_COUNT], next.size());
  // Its slot finished in batch 1: batch 2 has no aged work.
  for (const WorkItem& item : executor.batches()[2]) {
    if (item.priority == RF_PRIORITY_HIGH) {
      EXPECT_TRUE(IsFreshWork(executor, 2, item));
    }
  }
  std::vector<std::string> lines = ReadLines(config.telemetry_out);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_THAT(lines[0], HasSubstr("\"priority_accounting\":{\"requeue_count\""
                                  ":1,\"aged_promotions\":0"));
  EXPECT_THAT(lines[1], HasSubstr("\"priority_accounting\":{\"requeue_count\""
                                  ":0,\"aged_promotions\":1"));
}

TEST(EngineSteeringTest, FinishedWorkIsNotAged) {
  FakeClock clock;
  ScriptedExecutorOptions options;
  options.fake = NeverCrashes();
  ScriptedExecutor executor(options);
  EngineRun run = RunSteered(TestConfig(), executor, {}, clock);
  ASSERT_EQ(run.code, 0) << run.log;
  // The only HIGH work is the fresh entries' (none is aged).
  for (size_t b = 0; b < executor.batches().size(); ++b) {
    for (const WorkItem& item : executor.batches()[b]) {
      if (item.priority == RF_PRIORITY_HIGH) {
        EXPECT_TRUE(IsFreshWork(executor, b, item)) << b;
      }
    }
  }
}

// --- Tenant fairness. ---

TEST(EngineSteeringTest, TenantFairnessCountersRebalanceTheNextBatch) {
  TempDir dir;
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("seed"), Bytes{'0'}).ok());
  FakeClock clock;
  ScriptedExecutorOptions options;
  options.fake = NeverCrashes();
  // The device leaves the found entries' (tenant 1) slots of batch 3
  // unclaimed: tenant 1 falls behind in the fairness counters.
  options.fate = [](int batch, uint32_t, const WorkItem& item) {
    return batch == 3 && item.tenant == kFoundTenant ? SlotFate::kUnclaimed
                                                     : SlotFate::kRun;
  };
  ScriptedExecutor executor(options);
  Config config = TestConfig();
  config.batch_slots = 16;
  config.runs = 16 * 64 * 6;
  EngineRun run = RunSteered(config, executor, {dir.path()}, clock);
  ASSERT_EQ(run.code, 0) << run.log;
  ASSERT_GE(executor.batches().size(), 5u);
  ASSERT_EQ(executor.tenant_words().size(), executor.batches().size());
  // Batch 0 runs before any fairness counter was read: one draw for all.
  // Once found entries exist, both tenants get shares; the seeds' tenant is
  // never paused, the found one is while it has no entries.
  for (size_t b = 0; b < executor.batches().size(); ++b) {
    const TenantWords& words = executor.tenant_words()[b];
    EXPECT_EQ(words.masks[kSeedTenant], 1u);
    const int found = Count(executor.batches()[b], kFoundTenant);
    // (Batch 4 also holds the aged parents of batch 3's unclaimed slots.)
    if (b > 0 && b < 4 && words.masks[kFoundTenant] == 1) {
      EXPECT_EQ(words.quotas[kFoundTenant], static_cast<uint32_t>(found));
      EXPECT_EQ(words.quotas[kSeedTenant],
                executor.batches()[b].size() - found);
    }
  }
  ASSERT_EQ(executor.tenant_words()[3].masks[kFoundTenant], 1u)
      << "no entry was found in the first batches";
  const uint32_t before = executor.tenant_words()[3].quotas[kFoundTenant];
  const uint32_t after = executor.tenant_words()[4].quotas[kFoundTenant];
  EXPECT_GT(after, before);
  EXPECT_GT(after, 8u);  // more than an equal share of 16
  EXPECT_GT(Count(executor.batches()[4], kFoundTenant),
            Count(executor.batches()[3], kFoundTenant));
  // The device's counters (words 64..) are what the balancer read.
  EXPECT_GT(executor.control_word(RF_CTRL_TENANT_FAIRNESS + kSeedTenant),
            executor.control_word(RF_CTRL_TENANT_FAIRNESS + kFoundTenant));
}

// --- Launch geometry. ---

LaunchLimits Device(uint32_t ring_slots) {
  LaunchLimits limits;
  limits.workgroup_size_x = 64;
  limits.max_workgroup_size_x = 1024;
  limits.max_workgroups_per_dimension = 65535;
  limits.max_invocations_per_workgroup = 1024;
  limits.ring_slots = ring_slots;
  limits.worker_groups = 64;
  return limits;
}

TEST(EngineSteeringTest, LaunchRecommendationSetsTheNextGeometry) {
  FakeClock clock;
  ScriptedExecutorOptions options;
  options.fake = NeverCrashes();
  options.limits = Device(256);
  // 13 of the first 100 slots are left unfinished (more than 1/8).
  options.fate = [](int batch, uint32_t slot, const WorkItem&) {
    return batch == 0 && slot < 13 ? SlotFate::kUnfinished : SlotFate::kRun;
  };
  ScriptedExecutor executor(options);
  Config config = TestConfig();
  config.batch_slots = 100;
  config.slot_execs = 256;
  config.runs = 100 * 256 * 4;
  EngineRun run = RunSteered(config, executor, {}, clock);
  ASSERT_EQ(run.code, 0) << run.log;
  ASSERT_GE(executor.batches().size(), 3u);
  // Batch 0: the configured shape.
  EXPECT_EQ(executor.batches()[0].size(), 100u);
  EXPECT_EQ(executor.batches()[0][0].count, 256u);
  // The policy plans 100 queued slots as 128 (whole workgroups of 64) on 2
  // workgroups of 64 lanes: 128 ringfuzz workgroups, one per slot. Many
  // slots were left unfinished (requeues): saturated, so slots get half the
  // mutants.
  ASSERT_FALSE(executor.worker_groups_set().empty());
  EXPECT_EQ(executor.worker_groups_set()[0], 128u);
  EXPECT_EQ(executor.batches()[1].size(), 128u);
  for (const WorkItem& item : executor.batches()[1])
    EXPECT_EQ(item.count, 128u);
  // Nothing requeued in batch 1: back to the configured mutants per slot.
  EXPECT_EQ(executor.batches()[2].size(), 128u);
  EXPECT_EQ(executor.batches()[2][0].count, 256u);
}

TEST(EngineSteeringTest, MemoryPressureHalvesTheWorkgroups) {
  for (bool pressure : {false, true}) {
    FakeClock clock;
    ScriptedExecutorOptions options;
    options.fake = NeverCrashes();
    options.limits = Device(256);
    if (pressure) {  // 90% of the device memory is in use
      options.limits->resident_device_bytes = 9'000'000'000ull;
      options.limits->device_memory_budget_bytes = 10'000'000'000ull;
    }
    ScriptedExecutor executor(options);
    Config config = TestConfig();
    config.batch_slots = 256;
    config.slot_execs = 16;
    config.runs = 256 * 16 * 3;
    EngineRun run = RunSteered(config, executor, {}, clock);
    ASSERT_EQ(run.code, 0) << run.log;
    ASSERT_FALSE(executor.worker_groups_set().empty());
    EXPECT_EQ(executor.worker_groups_set()[0], pressure ? 128u : 256u);
  }
}

// --- -telemetry_out and -dump_buffers. ---

TEST(EngineSteeringTest, TelemetryOutHasOneJsonLinePerEpoch) {
  TempDir dir;
  FakeClock clock;
  ScriptedExecutorOptions options;
  options.fake = NeverCrashes();
  options.limits = Device(64);
  ScriptedExecutor executor(options);
  Config config = TestConfig();
  config.telemetry_out = dir.Sub("t.jsonl");
  EngineRun run = RunSteered(config, executor, {}, clock);
  ASSERT_EQ(run.code, 0) << run.log;
  std::vector<std::string> lines = ReadLines(config.telemetry_out);
  ASSERT_EQ(lines.size(), executor.batches().size());  // one epoch a batch
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    EXPECT_THAT(line,
                testing::StartsWith("{\"epoch\":" + std::to_string(i + 1) +
                                    ",\"summary\":\"epoch="));
    for (const char* key :
         {"\"runtime_counters\":{\"total_slots\":", "\"priority_accounting\":",
          "\"launch\":{\"worker_groups\":", "\"sketch\":{\"ring_opcode\":[[8,",
          "\"steering\":{\"last\":true,\"worker_groups\":", " launch=",
          " top_opcodes=8:"}) {
      EXPECT_THAT(line, HasSubstr(key)) << "line " << i;
    }
    EXPECT_EQ(line.back(), '}');
    if (i > 0) EXPECT_THAT(line, HasSubstr("\"health\":{\"done_delta\":"));
  }
}

TEST(EngineSteeringTest, TelemetryWriteErrorIsReportedOnceAndFuzzingGoesOn) {
  FakeClock clock;
  ScriptedExecutorOptions options;
  options.fake = NeverCrashes();
  ScriptedExecutor executor(options);
  Config config = TestConfig();
  config.telemetry_out = "/dev/full";
  EngineRun run = RunSteered(config, executor, {}, clock);
  EXPECT_EQ(run.code, 0) << run.log;
  EXPECT_GT(executor.batches().size(), 2u);
  const std::string warning =
      "WARNING: -telemetry_out=/dev/full: cannot write: No space left on "
      "device. Fix: free disk space or choose another file; no further "
      "telemetry lines are written\n";
  EXPECT_THAT(run.log, HasSubstr(warning));
  EXPECT_EQ(run.log.find("-telemetry_out"), run.log.rfind("-telemetry_out"));
}

TEST(EngineSteeringTest, UnusableTelemetryPathsFailBeforeFuzzing) {
  TempDir dir;
  FakeClock clock;
  ScriptedExecutorOptions options;
  options.fake = NeverCrashes();
  {
    ScriptedExecutor executor(options);
    Config config = TestConfig();
    config.telemetry_out = dir.Sub("missing/t.jsonl");
    EngineRun run = RunSteered(config, executor, {}, clock);
    EXPECT_EQ(run.code, 1);
    EXPECT_THAT(run.log, HasSubstr("ERROR: -telemetry_out=" +
                                   dir.Sub("missing/t.jsonl") +
                                   ": cannot create the file"));
    EXPECT_TRUE(executor.batches().empty());
  }
  {
    ScriptedExecutor executor(options);
    Config config = TestConfig();
    config.dump_buffers = dir.Sub("missing/dump");
    EngineRun run = RunSteered(config, executor, {}, clock);
    EXPECT_EQ(run.code, 1);
    EXPECT_THAT(run.log,
                HasSubstr("ERROR: -dump_buffers=" + dir.Sub("missing/dump") +
                          ": cannot create the directory"));
    EXPECT_TRUE(executor.batches().empty());
  }
}

TEST(EngineSteeringTest, DumpBuffersKeepsEveryEpochForTheDecoder) {
  TempDir dir;
  FakeClock clock;
  ScriptedExecutorOptions options;
  options.fake = NeverCrashes();
  ScriptedExecutor executor(options);
  Config config = TestConfig();
  config.dump_buffers = dir.Sub("dump");
  EngineRun run = RunSteered(config, executor, {}, clock);
  ASSERT_EQ(run.code, 0) << run.log;
  const size_t batches = executor.batches().size();
  std::vector<std::string> files = ListDir(config.dump_buffers);
  ASSERT_EQ(files.size(), 2 * batches);
  EXPECT_EQ(files[0], "epoch-000001.control");
  EXPECT_EQ(files[1], "epoch-000001.ring");
  // The first epoch's ring is the first batch, drained.
  absl::StatusOr<Bytes> control = ReadFile(dir.Sub("dump/" + files[0]));
  absl::StatusOr<Bytes> ring = ReadFile(dir.Sub("dump/" + files[1]));
  ASSERT_TRUE(control.ok() && ring.ok());
  absl::StatusOr<telemetry::RingTelemetry> decoded =
      telemetry::RingTelemetry::TryDecode(*control, *ring);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->slots.size(), executor.batches()[0].size());
  EXPECT_EQ(decoded->control.done_count, executor.batches()[0].size());
  EXPECT_EQ(decoded->occupancy.done, executor.batches()[0].size());
  // And the decode command reads the dump.
  std::ostringstream out, err;
  const std::vector<std::string> args = {
      "-control=" + dir.Sub("dump/" + files[0]),
      "-ring=" + dir.Sub("dump/" + files[1]), "-json"};
  EXPECT_EQ(telemetry::RunTelemetryDecode(args, out, err), 0) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("\"done_count\":8,\"epoch\":1,"
                                   "\"metrics\":[[8,"));
}

}  // namespace
}  // namespace ringfuzz

// The steering against the real megakernel on lavapipe, with tiny targets
// written by the tests.
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "corpus/atomic_file.h"
#include "fuzz/engine/engine.h"
#include "fuzz/gpu/gpu_executor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/ring_telemetry.h"
#include "tests/corpus/temp_dir.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;

// Runs mutants; crashes (code = the byte) when the first byte is odd.
constexpr char kOddCrashes[] = R"(#include "ringfuzz.h"
void fz_target(uint len) {
  if (len < 1u) return;
  uint b = fz_byte(0u);
  if ((b & 1u) == 1u) fz_crash(b);
}
)";

// Loops while the first byte is 'H' (72), with a long body so that a lane
// stuck in it (when loops have no budget) keeps its slot claimed long after
// the host's first poll.
constexpr char kHangsOnH[] = R"(#include "ringfuzz.h"
#define STEP x = x * 1664525u + 1013904223u + fz_byte(0u);
#define S8 STEP STEP STEP STEP STEP STEP STEP STEP
#define S64 S8 S8 S8 S8 S8 S8 S8 S8
void fz_target(uint len) {
  if (len < 1u) return;
  uint x = 0u;
  while (fz_byte(0u) == 72u && x != 1u) { S64 }
  if (x == 5u) fz_crash(2u);
}
)";

std::string WriteTarget(const TempDir& dir, const char* name,
                        const char* source) {
  const std::string path = dir.Sub(name);
  std::ofstream(path) << source;
  return path;
}

std::unique_ptr<GpuExecutor> MakeExecutor(GpuExecutorOptions options) {
  options.device = "cpu";
  absl::StatusOr<std::unique_ptr<GpuExecutor>> executor =
      GpuExecutor::Create(options);
  EXPECT_TRUE(executor.ok()) << executor.status();
  return executor.ok() ? *std::move(executor) : nullptr;
}

// Records what the executor shows its observer.
class Recorder final : public DispatchObserver {
 public:
  absl::Duration poll_interval() const override {
    return absl::Milliseconds(1);
  }
  void OnDispatchStart(const WireView& wire) override { ++starts; }
  bool OnPoll(const WireView& wire) override {
    ++polls;
    return false;
  }
  void OnEpochEnd(const WireView& wire, bool last) override {
    ++epochs;
    lasts += last;
    control.assign(wire.control.begin(), wire.control.end());
    ring.assign(wire.ring.begin(), wire.ring.end());
    push_seed = wire.push_seed;
  }
  WireView View() const { return {control, ring, push_seed}; }

  int starts = 0, polls = 0, epochs = 0, lasts = 0;
  Bytes control, ring;
  uint32_t push_seed = 0;
};

WorkItem Item(uint32_t priority, uint32_t tenant, uint32_t count = 64) {
  WorkItem item;
  item.opcode = RF_OP_HAVOC;
  item.parent = 0;
  item.count = count;
  item.stack = 2;
  item.priority = priority;
  item.tenant = tenant;
  return item;
}

uint32_t Word(const Bytes& bytes, uint32_t w) { return WireWord(bytes, w); }

TEST(GpuSteeringTest, RingCarriesPrioritiesTenantsAndPartitions) {
  TempDir dir;
  GpuExecutorOptions options;
  options.target_path = WriteTarget(dir, "odd.fz", kOddCrashes);
  options.keep_going = true;
  auto executor = MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Bytes{2}).ok());
  Recorder recorder;
  executor->SetDispatchObserver(&recorder);
  const std::vector<WorkItem> work = {
      Item(RF_PRIORITY_HIGH, 1), Item(RF_PRIORITY_NORMAL, 0),
      Item(RF_PRIORITY_NORMAL, 1), Item(RF_PRIORITY_LOW, 0)};
  absl::StatusOr<BatchResult> result = executor->RunBatch(work, 5);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->executions, 256u);
  EXPECT_GE(recorder.starts, 1);
  EXPECT_EQ(recorder.epochs, recorder.starts);
  EXPECT_EQ(recorder.lasts, 1);
  // The partition words: HIGH starts at 0, NORMAL at 1, LOW at 3; 4 in all.
  for (uint32_t p = 0; p < RF_CTRL_PRIORITY_PARTITION_COUNT; ++p) {
    const uint32_t expected[] = {0, 0, 1, 3, 4, 4};
    EXPECT_EQ(Word(recorder.control, RF_CTRL_PRIORITY_PARTITIONS + p),
              expected[p])
        << p;
  }
  absl::StatusOr<telemetry::RingTelemetry> last =
      telemetry::RingTelemetry::TryDecode(recorder.control, recorder.ring);
  ASSERT_TRUE(last.ok()) << last.status();
  ASSERT_EQ(last->slots.size(), 4u);
  EXPECT_EQ(last->occupancy.done + last->occupancy.fault, 4u);
  EXPECT_EQ(last->slots[0].tenant, 1u);
  // The device counted each claim by tenant and priority (Execute and
  // candidate evaluation claim too: CRITICAL, tenant 0).
  EXPECT_EQ(last->control.tenant_fairness[1], 2u);
  EXPECT_GE(last->control.tenant_fairness[0], 2u);
  EXPECT_EQ(last->control.priority_fairness[RF_PRIORITY_HIGH], 1u);
  EXPECT_EQ(last->control.priority_fairness[RF_PRIORITY_NORMAL], 2u);
  EXPECT_EQ(last->control.priority_fairness[RF_PRIORITY_LOW], 1u);
  executor->SetDispatchObserver(nullptr);
  EXPECT_EQ(executor->validation_messages(), 0u);
}

TEST(GpuSteeringTest, WorkerGroupsAndTenantMasksReachTheDevice) {
  TempDir dir;
  GpuExecutorOptions options;
  options.target_path = WriteTarget(dir, "odd.fz", kOddCrashes);
  options.keep_going = true;
  auto executor = MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Bytes{2}).ok());
  std::optional<LaunchLimits> limits = executor->launch_limits();
  ASSERT_TRUE(limits.has_value());
  EXPECT_EQ(limits->workgroup_size_x, 64u);
  EXPECT_GT(limits->ring_slots, 0u);
  EXPECT_GT(limits->resident_device_bytes, 0u);
  ASSERT_TRUE(executor->SetWorkerGroups(1).ok());
  EXPECT_EQ(executor->launch_limits()->worker_groups, 1u);
  EXPECT_EQ(executor->SetWorkerGroups(0).code(),
            absl::StatusCode::kInvalidArgument);
  // One workgroup still drains every slot.
  std::vector<WorkItem> work(6, Item(RF_PRIORITY_NORMAL, 0));
  absl::StatusOr<BatchResult> one = executor->RunBatch(work, 1);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(one->executions, 6u * 64);
  // A paused tenant's slot is never claimed.
  TenantWords words;
  words.masks.fill(1);
  words.masks[1] = 0;
  ASSERT_TRUE(executor->SetTenantWords(words).ok());
  const std::vector<WorkItem> mixed = {Item(RF_PRIORITY_NORMAL, 0),
                                       Item(RF_PRIORITY_NORMAL, 1)};
  absl::StatusOr<BatchResult> paused = executor->RunBatch(mixed, 2);
  ASSERT_FALSE(paused.ok());
  EXPECT_THAT(paused.status().message(), HasSubstr("tenants paused"));
  words.masks[1] = 1;
  ASSERT_TRUE(executor->SetTenantWords(words).ok());
  absl::StatusOr<BatchResult> resumed = executor->RunBatch(mixed, 3);
  ASSERT_TRUE(resumed.ok()) << resumed.status();
  EXPECT_EQ(resumed->executions, 128u);
}

// The crashes of the batch's mutants (not of the colored copies that the
// new input's compare-log run brings, fuzz/gpu/colorization.h).
std::set<Bytes> Crashes(const BatchResult& result) {
  std::set<Bytes> crashes;
  for (const Find& find : result.finds) {
    if (find.kind == Find::Kind::kCrash && find.opcode != RF_OP_CMPLOG) {
      crashes.insert(find.data);
    }
  }
  return crashes;
}

TEST(GpuSteeringTest, ReplayedSlotRunsTheSameMutants) {
  TempDir dir;
  GpuExecutorOptions options;
  options.target_path = WriteTarget(dir, "odd.fz", kOddCrashes);
  options.keep_going = true;  // every lane reports its first crash
  auto executor = MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Bytes{2, 0, 0, 0}).ok());
  Recorder recorder;
  executor->SetDispatchObserver(&recorder);
  absl::StatusOr<BatchResult> ran =
      executor->RunBatch({Item(RF_PRIORITY_NORMAL, 0, 64)}, 77);
  ASSERT_TRUE(ran.ok()) << ran.status();
  executor->SetDispatchObserver(nullptr);
  const std::set<Bytes> original = Crashes(*ran);
  ASSERT_FALSE(original.empty());
  const SuspectSlot suspect = SuspectFromWire(recorder.View(), 0);
  absl::StatusOr<BatchResult> replayed = executor->ReplaySlot(suspect);
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  // The batch queues each distinct fault once (the fault-seen table); the
  // replay reports every faulting mutant. The same mutants ran iff every
  // crash of the batch is among the replay's.
  const std::set<Bytes> again = Crashes(*replayed);
  for (const Bytes& crash : original) EXPECT_TRUE(again.count(crash));
  EXPECT_GE(again.size(), original.size());
  EXPECT_EQ(replayed->executions, 64u);
  SuspectSlot bad = suspect;
  bad.index = 1u << 30;
  EXPECT_EQ(executor->ReplaySlot(bad).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(executor->validation_messages(), 0u);
}

// A target that hangs (its loops given no budget: the test hook) stalls the
// megakernel; the engine stops the dispatch, replays the claimed slots with
// the loop budget and reports the input that hangs as timeout-<sha1>.
TEST(GpuSteeringTest, StalledMegakernelIsRecoveredAndTheHangIsReported) {
  TempDir dir;
  const std::string corpus = dir.Sub("corpus");
  ASSERT_EQ(mkdir(corpus.c_str(), 0755), 0);
  ASSERT_TRUE(WriteFileAtomically(corpus + "/seed", Bytes{'H'}).ok());
  GpuExecutorOptions options;
  options.target_path = WriteTarget(dir, "hang.fz", kHangsOnH);
  options.exec_steps = 1u << 30;  // no loop budget: a hang stays a hang
  options.shutdown_grace = absl::Minutes(5);  // lavapipe ends it anyway
  auto executor = MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  Config config;
  config.seed = 3;
  config.runs = 1000000;
  config.batch_slots = 2;
  config.slot_execs = 16;
  config.max_len = 8;
  config.artifact_prefix = dir.path() + "/";
  SteeringOptions steering;
  steering.poll_interval = absl::Milliseconds(1);
  steering.stall_interval = absl::ZeroDuration();
  std::ostringstream log;
  Engine engine(config, *executor, log, RealClock(), steering);
  const int code = engine.Run({corpus});
  EXPECT_EQ(code, config.timeout_exitcode) << log.str();
  EXPECT_THAT(log.str(), HasSubstr("INFO: the megakernel drained no slot"));
  EXPECT_THAT(log.str(), HasSubstr("SUMMARY: libFuzzer: timeout"));
  int artifacts = 0;
  for (const std::string& name : ListDir(dir.path())) {
    if (name.rfind("timeout-", 0) != 0) continue;
    ++artifacts;
    absl::StatusOr<Bytes> input = ReadFile(dir.Sub(name));
    ASSERT_TRUE(input.ok());
    ASSERT_FALSE(input->empty());
    EXPECT_EQ((*input)[0], 'H');  // the input that loops
  }
  EXPECT_EQ(artifacts, 1) << log.str();
  EXPECT_FALSE(executor->hung());
}

}  // namespace
}  // namespace ringfuzz

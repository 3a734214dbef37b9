// Colorization on lavapipe (GpuExecutorOptions::colorize): a new input's
// compare log runs beside colored copies of it, and its input-to-state
// patches then write where the target reads (checked against the targets'
// source: tests/gpu/data/colored_*.fz).
#include <algorithm>
#include <string>
#include <vector>

#include "fuzz/gpu/gpu_executor.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using gpu_test::Work;

std::unique_ptr<GpuExecutor> Make(const std::string& target, bool colorize,
                                  bool overlap = false) {
  GpuExecutorOptions options = gpu_test::CpuOptions(target);
  options.colorize = colorize;
  options.keep_going = true;
  if (overlap) {
    options.coverage_mode = GpuExecutorOptions::CoverageMode::kPrecise;
    options.overlap = GpuExecutorOptions::Overlap::kOn;
  }
  return gpu_test::MakeExecutor(options);
}

bool WritesOnly(const InputPatch& p, uint32_t begin, uint32_t end) {
  return p.position >= begin && p.position + p.width <= end;
}

// colored_field.fz reads bytes 6-7 only (and compares them with 0x0102).
// On 16 zero bytes the plain patches write 0x0102 at every position; the
// colored ones start at byte 6 and leave out every patch that writes only
// bytes before it or from byte 10 on (no comparison reads them).
TEST(ColorizationGpuTest, PatchesOfAZeroInputGoWhereTheFieldIsRead) {
  const Bytes zeros(16, 0);
  std::vector<InputPatch> plain, colored;
  for (bool colorize : {false, true}) {
    auto executor = Make("colored_field.fz", colorize);
    ASSERT_NE(executor, nullptr);
    ASSERT_TRUE(executor->AddInput(zeros).ok());
    absl::StatusOr<BatchResult> r =
        executor->RunBatch(Work(RF_OP_HAVOC, 1, 8), 1);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(executor->logged_inputs(), 1u);
    (colorize ? colored : plain) = executor->InputToStatePatches(0);
    EXPECT_EQ(executor->validation_messages(), 0u)
        << executor->last_validation_message();
  }
  auto far_from_field = [](const InputPatch& p) {
    return WritesOnly(p, 0, 6) || WritesOnly(p, 10, 16);
  };
  EXPECT_GT(std::count_if(plain.begin(), plain.end(), far_from_field), 10);
  ASSERT_FALSE(colored.empty());
  EXPECT_EQ(colored[0], (InputPatch{6, 2, 0x0102}));
  EXPECT_EQ(std::count_if(colored.begin(), colored.end(), far_from_field), 0);
}

// The same on overlapped rounds (the log and the copies ride in a
// flight's first slots), and CMP work on the patches finds the crash.
TEST(ColorizationGpuTest, OverlappedFlightsColorizeToo) {
  auto executor = Make("colored_field.fz", true, /*overlap=*/true);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Bytes(16, 0)).ok());
  ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 2, 8), 1).ok());
  absl::StatusOr<BatchResult> r = executor->CollectBatch();
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(executor->logged_inputs(), 1u);
  const std::vector<InputPatch> patches = executor->InputToStatePatches(0);
  ASSERT_FALSE(patches.empty());
  EXPECT_EQ(patches[0], (InputPatch{6, 2, 0x0102}));
  ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_CMP, 2, 64), 2).ok());
  absl::StatusOr<BatchResult> cmp = executor->CollectBatch();
  ASSERT_TRUE(cmp.ok()) << cmp.status();
  bool crashed = false;
  for (const Find& f : cmp->finds) crashed |= f.kind == Find::Kind::kCrash;
  EXPECT_TRUE(crashed);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// A colored copy that crashes is a bug found, not lost: reported as found
// by the input's compare-log run, with the copy's bytes; and the other
// inputs of the dispatch are still logged.
TEST(ColorizationGpuTest, ACrashingCopyIsReported) {
  for (bool overlap : {false, true}) {
    auto executor = Make("colored_crash.fz", true, overlap);
    ASSERT_NE(executor, nullptr);
    ASSERT_TRUE(executor->AddInput(Bytes(4, 0)).ok());
    ASSERT_TRUE(executor->AddInput(Bytes(5, 0)).ok());
    std::vector<Find> finds;
    if (overlap) {
      ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 1, 1), 1).ok());
      absl::StatusOr<BatchResult> r = executor->CollectBatch();
      ASSERT_TRUE(r.ok()) << r.status();
      finds = r->finds;
    } else {
      absl::StatusOr<BatchResult> r =
          executor->RunBatch(Work(RF_OP_HAVOC, 1, 1), 1);
      ASSERT_TRUE(r.ok()) << r.status();
      finds = r->finds;
    }
    EXPECT_EQ(executor->logged_inputs(), 2u) << overlap;
    bool reported = false;
    for (const Find& f : finds) {
      if (f.kind != Find::Kind::kCrash || f.opcode != RF_OP_CMPLOG) continue;
      reported = true;
      EXPECT_LE(f.parent, 1u);
      EXPECT_EQ(f.code, 3u);
      ASSERT_GE(f.data.size(), 4u);
      EXPECT_NE(f.data[3], 0u);  // a copy, byte 3 colored
    }
    EXPECT_TRUE(reported) << overlap;
    EXPECT_EQ(executor->validation_messages(), 0u)
        << executor->last_validation_message();
  }
}

}  // namespace
}  // namespace ringfuzz

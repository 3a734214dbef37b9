// A target may use every name the dialect does not reserve: one that names
// its globals after what the megakernel once called its buffers, push
// constants, shared variables and include guards builds and fuzzes on
// lavapipe like any other (tests/gpu/data/megakernel_names.fz).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/gpu/gpu_executor.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

std::unique_ptr<GpuExecutor> MakeExecutor(
    GpuExecutorOptions::CoverageMode mode) {
  GpuExecutorOptions options;
  options.target_path = std::string(RF_TEST_DATA) + "/megakernel_names.fz";
  options.device = "cpu";
  options.validation = true;
  options.coverage_mode = mode;
  absl::StatusOr<std::unique_ptr<GpuExecutor>> executor =
      GpuExecutor::Create(options);
  EXPECT_TRUE(executor.ok()) << executor.status();
  return executor.ok() ? *std::move(executor) : nullptr;
}

// Havoc on "FUZa" until the mutant "FUZ!" reports fz_crash(0x5A7E).
TEST(TargetNamesTest, TargetNamedLikeTheMegakernelsGlobalsFindsItsBug) {
  using Mode = GpuExecutorOptions::CoverageMode;
  for (Mode mode : {Mode::kPrecise, Mode::kSignature}) {
    auto executor = MakeExecutor(mode);
    ASSERT_NE(executor, nullptr);
    ASSERT_TRUE(executor->AddInput(Bytes{'F', 'U', 'Z', 'a'}).ok());
    std::vector<WorkItem> work(8);
    for (WorkItem& item : work) {
      item.opcode = RF_OP_HAVOC;
      item.count = 1000;
      item.stack = 2;
    }
    bool crashed = false;
    for (int batch = 0; batch < 50 && !crashed; ++batch) {
      absl::StatusOr<BatchResult> r = executor->RunBatch(work, batch);
      ASSERT_TRUE(r.ok()) << r.status();
      for (const Find& f : r->finds) {
        if (f.kind != Find::Kind::kCrash) continue;
        crashed = true;
        EXPECT_EQ(f.code, 0x5A7Eu);
        ASSERT_GE(f.data.size(), 4u);
        EXPECT_EQ(f.data[3], '!');
      }
    }
    EXPECT_TRUE(crashed) << "mode " << static_cast<int>(mode);
    EXPECT_EQ(executor->validation_messages(), 0u)
        << executor->last_validation_message();
  }
}

}  // namespace
}  // namespace ringfuzz

// Input reduction on the GPU (RF_PUSH_REDUCE, GpuExecutorOptions::
// reduce_inputs): reductions are checked against what the target reads
// (tests/gpu/data/magic.fz reads its first four bytes and no more), not
// against the executor's signatures.
#include <string>
#include <vector>

#include "fuzz/gpu/gpu_executor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using gpu_test::CpuOptions;
using gpu_test::MakeExecutor;
using gpu_test::Str;
using gpu_test::Work;

// "FUZx" and 28 bytes magic.fz never reads: every input that keeps "FUZ",
// a fourth byte other than '!' and at least 4 bytes runs its path.
const char kPadded[] = "FUZx............................";

struct Reductions {
  std::vector<Find> finds;  // Find::reduces_parent
  uint64_t executions = 0;
};

Reductions RunHavoc(bool reduce, uint32_t items, uint32_t count) {
  GpuExecutorOptions options = CpuOptions("magic.fz", 64);
  options.reduce_inputs = reduce;
  options.keep_going = true;
  auto executor = MakeExecutor(options);
  Reductions out;
  if (executor == nullptr) return out;
  EXPECT_TRUE(executor->AddInput(Str(kPadded)).ok());
  absl::StatusOr<BatchResult> r =
      executor->RunBatch(Work(RF_OP_HAVOC, items, count), 1);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return out;
  out.executions = r->executions;
  for (const Find& f : r->finds) {
    if (f.reduces_parent) out.finds.push_back(f);
  }
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
  return out;
}

// Havoc slots that reduce queue mutants that run the parent's path with
// fewer bytes; each is new-coverage kind with no new bits, of parent 0.
TEST(ReduceInputsTest, ReductionsRunTheParentsPathWithFewerBytes) {
  const Reductions r = RunHavoc(/*reduce=*/true, 64, 256);
  ASSERT_FALSE(r.finds.empty()) << "no reduction in 64 havoc slots";
  for (const Find& f : r.finds) {
    const std::string data(f.data.begin(), f.data.end());
    EXPECT_EQ(f.kind, Find::Kind::kNewCoverage);
    EXPECT_EQ(f.new_bits, 0u);
    EXPECT_EQ(f.parent, 0u);
    EXPECT_EQ(f.opcode, RF_OP_HAVOC);
    EXPECT_LT(data.size(), std::string(kPadded).size()) << data;
    ASSERT_GE(data.size(), 4u) << data;  // shorter runs another path
    EXPECT_EQ(data.substr(0, 3), "FUZ") << data;
    EXPECT_NE(data[3], '!') << data;
    EXPECT_FALSE(f.mutations.empty()) << data;  // a mutant, not the parent
  }
}

// The parent's run replaces a mutant: a slot still runs the executions it
// was asked for, no more.
TEST(ReduceInputsTest, ReducingSlotsRunTheExecutionsAsked) {
  EXPECT_EQ(RunHavoc(/*reduce=*/true, 64, 256).executions, 64u * 256u);
}

// Off (the executor's default), no find is a reduction.
TEST(ReduceInputsTest, NoReductionsWhenOff) {
  EXPECT_THAT(RunHavoc(/*reduce=*/false, 64, 256).finds, ::testing::IsEmpty());
}

}  // namespace
}  // namespace ringfuzz

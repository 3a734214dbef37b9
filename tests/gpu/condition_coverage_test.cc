// Coverage of conditions that the GPU evaluates without a branch (&&, ||,
// ?: on simple operands): each way such a condition goes is a site of its
// own, as each side of a CPU's branch is an edge.
#include <string>

#include "fuzz/gpu/gpu_executor.h"
#include "fuzz/gpu/gpu_megakernel.h"
#include "gtest/gtest.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using gpu_test::CpuOptions;
using gpu_test::MakeExecutor;
using gpu_test::Str;

// Whether executing `input` finds new coverage (or a bug).
bool IsNew(GpuExecutor& executor, const std::string& input) {
  absl::StatusOr<BatchResult> r = executor.Execute(Str(input));
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() && !r->finds.empty();
}

// branchless.fz has two `&&` and one `?:` without branches: three
// condition hooks, two sites each, on top of one site per block.
TEST(ConditionCoverageTest, EachBranchlessConditionGetsTwoSites) {
  MegakernelOptions options;
  options.conditions = false;
  absl::StatusOr<Megakernel> without =
      BuildMegakernelFromFile(gpu_test::Data("branchless.fz"), options);
  ASSERT_TRUE(without.ok()) << without.status();
  EXPECT_EQ(without->module.condition_hooks, 0u);
  options.conditions = true;
  absl::StatusOr<Megakernel> with =
      BuildMegakernelFromFile(gpu_test::Data("branchless.fz"), options);
  ASSERT_TRUE(with.ok()) << with.status();
  EXPECT_EQ(with->module.condition_hooks, 3u);
  EXPECT_EQ(with->module.sites.size(), without->module.sites.size() + 6);
  EXPECT_EQ(with->module.block_hooks, with->module.sites.size());
}

TEST(ConditionCoverageTest, EachWayABranchlessConditionGoesIsNewCoverage) {
  auto executor = MakeExecutor(CpuOptions("branchless.fz"));
  ASSERT_NE(executor, nullptr);
  EXPECT_TRUE(IsNew(*executor, std::string("\0\0\0", 3)));   // first input
  EXPECT_FALSE(IsNew(*executor, std::string("\1\0\0", 3)));  // same ways
  EXPECT_TRUE(IsNew(*executor, std::string("\7\0\0", 3)));   // a: b is read
  EXPECT_FALSE(IsNew(*executor, std::string("\7\1\0", 3)));
  EXPECT_TRUE(IsNew(*executor, std::string("\7\11\0", 3)));  // a && b
  EXPECT_TRUE(IsNew(*executor, std::string("\0\0\3", 3)));   // c >= 3
  absl::StatusOr<BatchResult> bug = executor->Execute(Str("\7\11\3"));
  ASSERT_TRUE(bug.ok()) << bug.status();
  ASSERT_EQ(bug->finds.size(), 1u);
  EXPECT_EQ(bug->finds[0].kind, Find::Kind::kCrash);
  EXPECT_EQ(bug->finds[0].code, 5u);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// Without the hooks the first operand of `a && b` coming true is invisible:
// the inputs above that were new are not.
TEST(ConditionCoverageTest, WithoutTheHooksOneSideOfAndIsInvisible) {
  GpuExecutorOptions options = CpuOptions("branchless.fz");
  options.conditions = false;
  auto executor = MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  EXPECT_TRUE(IsNew(*executor, std::string("\0\0\0", 3)));
  EXPECT_FALSE(IsNew(*executor, std::string("\7\0\0", 3)));
  EXPECT_FALSE(IsNew(*executor, std::string("\7\11\0", 3)));
  EXPECT_FALSE(IsNew(*executor, std::string("\0\0\3", 3)));
}

}  // namespace
}  // namespace ringfuzz

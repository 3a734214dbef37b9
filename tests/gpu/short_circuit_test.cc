// The second operands of short-circuit && and || that glslang branches
// around (fuzz/gpu/short_circuit.h): which blocks' branches get a condition
// hook, worked out by hand on small functions, and what the hook lets the
// GPU see.
#include "fuzz/gpu/short_circuit.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fuzz/gpu/gpu_executor.h"
#include "fuzz/gpu/gpu_megakernel.h"
#include "gtest/gtest.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using spirv::Inst;
using spirv::Make;
using Operands = std::map<uint32_t, std::vector<uint32_t>>;

constexpr uint32_t kBool = 2, kUint = 3, kTrue = 4;

Inst Label(uint32_t id) { return Make(spv::Op::OpLabel, {id}); }
Inst Branch(uint32_t to) { return Make(spv::Op::OpBranch, {to}); }
Inst BranchIf(uint32_t c, uint32_t t, uint32_t f) {
  return Make(spv::Op::OpBranchConditional, {c, t, f});
}
Inst Phi(uint32_t type, uint32_t id, std::vector<uint32_t> pairs) {
  std::vector<uint32_t> words = {type, id};
  words.insert(words.end(), pairs.begin(), pairs.end());
  return Make(spv::Op::OpPhi, words);
}

// `a || b` as glslang emits it (the disassembly of `n == 0u || fz_byte(3u)
// >= 4u`): 10 branches on !a to 11 (b) or to 12; 11 computes b (%21) and
// branches to 12, whose phi picks a (%20) from 10 or b from 11. Only 11's
// branch is hooked, on b.
TEST(ShortCircuitTest, OrHooksTheSecondOperandOnItsWayToTheJoin) {
  const std::vector<Inst> fn = {Label(10),
                                BranchIf(30, 11, 12),
                                Label(11),
                                Branch(12),
                                Label(12),
                                Phi(kBool, 22, {20, 10, 21, 11}),
                                BranchIf(22, 13, 14),
                                Label(13),
                                Make(spv::Op::OpReturn, {}),
                                Label(14),
                                Make(spv::Op::OpReturn, {})};
  EXPECT_EQ(ShortCircuitOperands(fn, kBool, {}), (Operands{{11, {21}}}));
}

// `a || b || c`: glslang nests them, ((a || b) || c): the first join (12)
// branches conditionally, so only b's block (11) and c's block (13) are
// hooked, each on its own operand.
TEST(ShortCircuitTest, ChainedOperandsEachGetTheirOwnHook) {
  const std::vector<Inst> fn = {Label(10),
                                BranchIf(30, 11, 12),
                                Label(11),
                                Branch(12),
                                Label(12),
                                Phi(kBool, 22, {20, 10, 21, 11}),
                                BranchIf(31, 13, 14),
                                Label(13),
                                Branch(14),
                                Label(14),
                                Phi(kBool, 24, {22, 12, 23, 13}),
                                Make(spv::Op::OpReturn, {})};
  EXPECT_EQ(ShortCircuitOperands(fn, kBool, {}),
            (Operands{{11, {21}}, {13, {23}}}));
}

// Left out: a constant operand, a phi of another type, and a loop's back
// edge (block 12 branches back to the header 11, which comes before it).
TEST(ShortCircuitTest, ConstantsOtherTypesAndBackEdgesAreLeftOut) {
  const std::vector<Inst> fn = {Label(10),
                                Branch(11),
                                Label(11),
                                Phi(kBool, 22, {kTrue, 10, 21, 12}),
                                Phi(kUint, 23, {40, 10, 41, 12}),
                                BranchIf(22, 12, 13),
                                Label(12),
                                Branch(11),
                                Label(13),
                                Phi(kBool, 24, {kTrue, 11}),
                                Make(spv::Op::OpReturn, {})};
  EXPECT_TRUE(ShortCircuitOperands(fn, kBool, {kTrue}).empty());
}

// The same operand joined twice from one block is hooked once.
TEST(ShortCircuitTest, AnOperandJoinedTwiceIsHookedOnce) {
  const std::vector<Inst> fn = {Label(10),
                                BranchIf(30, 11, 12),
                                Label(11),
                                Branch(12),
                                Label(12),
                                Phi(kBool, 22, {20, 10, 21, 11}),
                                Phi(kBool, 23, {20, 10, 21, 11}),
                                Make(spv::Op::OpReturn, {})};
  EXPECT_EQ(ShortCircuitOperands(fn, kBool, {}), (Operands{{11, {21}}}));
}

// Whether executing `input` finds new coverage (or a bug).
bool IsNew(GpuExecutor& executor, const std::string& input) {
  absl::StatusOr<BatchResult> r = executor.Execute(gpu_test::Str(input));
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() && !r->finds.empty();
}

// short_circuit.fz: `if (fz_byte(0u) == 0u || fz_byte(1u) >= 4u) return;`.
// Once "byte 0 is 0" and "byte 1 < 4" were seen, "byte 1 >= 4" is new only
// with the hook on the second operand.
TEST(ShortCircuitTest, TheSecondOperandComingTrueIsNewCoverage) {
  for (const bool conditions : {true, false}) {
    SCOPED_TRACE(conditions ? "with condition hooks" : "without");
    GpuExecutorOptions options = gpu_test::CpuOptions("short_circuit.fz");
    options.conditions = conditions;
    auto executor = gpu_test::MakeExecutor(options);
    ASSERT_NE(executor, nullptr);
    EXPECT_TRUE(IsNew(*executor, std::string("\0\0", 2)));  // byte 0 decides
    EXPECT_TRUE(IsNew(*executor, std::string("\1\0", 2)));  // byte 1 < 4
    EXPECT_EQ(IsNew(*executor, std::string("\1\7", 2)), conditions);
    EXPECT_FALSE(IsNew(*executor, std::string("\0\7", 2)));
    absl::StatusOr<BatchResult> bug = executor->Execute(gpu_test::Str("\1\3"));
    ASSERT_TRUE(bug.ok()) << bug.status();
    ASSERT_EQ(bug->finds.size(), 1u);
    EXPECT_EQ(bug->finds[0].kind, Find::Kind::kCrash);
    EXPECT_EQ(bug->finds[0].code, 6u);
    EXPECT_EQ(executor->validation_messages(), 0u)
        << executor->last_validation_message();
  }
}

// The megakernel of short_circuit.fz has one such hook: two sites more
// than without condition hooks (it has no branchless conditions).
TEST(ShortCircuitTest, TheTargetGetsOneHookOfTwoSites) {
  MegakernelOptions options;
  options.conditions = false;
  absl::StatusOr<Megakernel> without =
      BuildMegakernelFromFile(gpu_test::Data("short_circuit.fz"), options);
  ASSERT_TRUE(without.ok()) << without.status();
  options.conditions = true;
  absl::StatusOr<Megakernel> with =
      BuildMegakernelFromFile(gpu_test::Data("short_circuit.fz"), options);
  ASSERT_TRUE(with.ok()) << with.status();
  EXPECT_EQ(with->module.condition_hooks, 1u);
  EXPECT_EQ(with->module.sites.size(), without->module.sites.size() + 2);
}

}  // namespace
}  // namespace ringfuzz

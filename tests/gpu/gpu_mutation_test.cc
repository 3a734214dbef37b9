// The GPU mutation engines (flat and branching), each on lavapipe: every
// work kind must produce the inputs it promises, within max_len.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "fuzz/gpu_executor.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

using Engine = GpuExecutorOptions::MutationEngine;

std::string Data(const std::string& name) {
  return std::string(RF_TEST_DATA) + "/" + name;
}

Bytes Str(const std::string& s) { return Bytes(s.begin(), s.end()); }

std::string EngineName(const testing::TestParamInfo<Engine>& info) {
  return info.param == Engine::kFlat ? "Flat" : "Branching";
}

class GpuMutationTest : public testing::TestWithParam<Engine> {
 protected:
  std::unique_ptr<GpuExecutor> Make(const std::string& target,
                                    uint32_t max_len = 64,
                                    bool keep_going = false,
                                    uint32_t coherent_lanes = 4) {
    GpuExecutorOptions options;
    options.coherent_lanes = coherent_lanes;
    options.keep_going = keep_going;
    options.target_path = Data(target);
    options.device = "cpu";
    options.validation = true;
    options.max_len = max_len;
    options.mutation_engine = GetParam();
    absl::StatusOr<std::unique_ptr<GpuExecutor>> executor =
        GpuExecutor::Create(options);
    EXPECT_TRUE(executor.ok()) << executor.status();
    if (!executor.ok()) return nullptr;
    EXPECT_EQ((*executor)->flat_mutation(), GetParam() == Engine::kFlat);
    return *std::move(executor);
  }

  // Runs batches of `work` until a bug is found or `batches` ran; returns
  // the bug finds of the last batch run.
  static std::vector<Find> RunUntilBug(GpuExecutor& executor,
                                       const std::vector<WorkItem>& work,
                                       int batches,
                                       std::vector<Find>* all = nullptr) {
    for (int batch = 0; batch < batches; ++batch) {
      absl::StatusOr<BatchResult> r = executor.RunBatch(work, batch + 1);
      EXPECT_TRUE(r.ok()) << r.status();
      if (!r.ok()) return {};
      std::vector<Find> bugs;
      for (const Find& f : r->finds) {
        if (all != nullptr) all->push_back(f);
        if (IsBug(f.kind)) bugs.push_back(f);
      }
      if (!bugs.empty()) return bugs;
    }
    return {};
  }

  static std::vector<WorkItem> Work(uint32_t opcode, uint32_t stack,
                                    uint32_t count = 512,
                                    uint32_t partner = 0) {
    std::vector<WorkItem> work(8);
    for (WorkItem& item : work) {
      item.opcode = opcode;
      item.parent = 0;
      item.partner = partner;
      item.count = count;
      item.stack = stack;
    }
    return work;
  }
};

// A DICT mutant with no havoc step holds the whole token, inserted into or
// written over the parent, and nothing else changes.
TEST_P(GpuMutationTest, DictionaryTokenIsWrittenWhole) {
  auto executor = Make("needle.fz");
  ASSERT_NE(executor, nullptr);
  const Bytes parent = Str("AAAAAAAAAAAAAAAA");
  const Bytes token = Str("RINGFUZZ-TOK");
  ASSERT_TRUE(executor->AddInput(parent).ok());
  ASSERT_TRUE(executor->SetDictionary({Str("zz"), token}).ok());
  std::vector<Find> bugs =
      RunUntilBug(*executor, Work(RF_OP_DICT, /*stack=*/1), 20);
  ASSERT_FALSE(bugs.empty());
  const Find& bug = bugs[0];
  EXPECT_EQ(bug.code, 1u);
  const std::string data(bug.data.begin(), bug.data.end());
  ASSERT_TRUE(data.size() == 16 || data.size() == 28) << data;
  const size_t at = data.find("RINGFUZZ-TOK");
  ASSERT_NE(at, std::string::npos) << data;
  std::string rest = data;
  rest.erase(at, token.size());
  EXPECT_EQ(rest, std::string(data.size() - token.size(), 'A')) << data;
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// A batch that mixes work kinds runs every item, each kind on its build
// (lavapipe: HAVOC on the havoc-only build, DICT on the full one), and its
// DICT items still write their token.
TEST_P(GpuMutationTest, MixedBatchRunsEveryKindOnItsBuild) {
  auto executor = Make("needle.fz", 64, /*keep_going=*/true);
  ASSERT_NE(executor, nullptr);
  EXPECT_TRUE(executor->havoc_build());
  ASSERT_TRUE(executor->AddInput(Str("AAAAAAAAAAAAAAAA")).ok());
  ASSERT_TRUE(executor->SetDictionary({Str("RINGFUZZ-TOK")}).ok());
  std::vector<WorkItem> work;
  for (int i = 0; i < 8; ++i) {
    work.push_back(Work(RF_OP_HAVOC, /*stack=*/1, 256)[0]);
    work.push_back(Work(RF_OP_DICT, /*stack=*/1, 256)[0]);
  }
  bool token_found = false;
  for (uint64_t seed = 1; seed <= 20 && !token_found; ++seed) {
    absl::StatusOr<BatchResult> r = executor->RunBatch(work, seed);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->executions, 16u * 256u);
    for (const Find& f : r->finds) {
      if (f.kind != Find::Kind::kCrash || f.code != 1u) continue;
      EXPECT_EQ(f.opcode, RF_OP_DICT);
      token_found = true;
    }
  }
  EXPECT_TRUE(token_found);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// A SPLICE mutant with no havoc step is the parent with one run of the
// partner's bytes in it (overwriting a chunk, or replacing its suffix).
TEST_P(GpuMutationTest, SpliceTakesOneRunOfThePartner) {
  auto executor = Make("needle.fz");
  ASSERT_NE(executor, nullptr);
  const std::string partner = "xyzPQRSTUvw";
  ASSERT_TRUE(executor->AddInput(Str("AAAAAAAAAAAAAAAA")).ok());
  ASSERT_TRUE(executor->AddInput(Str(partner)).ok());
  std::vector<Find> bugs = RunUntilBug(
      *executor, Work(RF_OP_SPLICE, /*stack=*/1, 512, /*partner=*/1), 40);
  ASSERT_FALSE(bugs.empty());
  EXPECT_EQ(bugs[0].code, 2u);
  const std::string data(bugs[0].data.begin(), bugs[0].data.end());
  const size_t first = data.find_first_not_of('A');
  const size_t last = data.find_last_not_of('A');
  ASSERT_NE(first, std::string::npos) << data;
  const std::string run = data.substr(first, last - first + 1);
  EXPECT_NE(partner.find(run), std::string::npos) << data;
  EXPECT_NE(run.find("PQRSTU"), std::string::npos) << data;
}

// TRIM mutants only ever remove bytes: every one is a shorter subsequence
// of the parent (the target faults on anything else).
TEST_P(GpuMutationTest, TrimOnlyRemovesBytes) {
  auto executor = Make("subsequence.fz");
  ASSERT_NE(executor, nullptr);
  Bytes parent(16);
  for (uint8_t i = 0; i < 16; ++i) parent[i] = i;
  ASSERT_TRUE(executor->AddInput(parent).ok());
  std::vector<Find> all;
  std::vector<Find> bugs =
      RunUntilBug(*executor, Work(RF_OP_TRIM, /*stack=*/4), 10, &all);
  EXPECT_TRUE(bugs.empty()) << "a trimmed input the target rejects, "
                            << bugs[0].data.size() << " bytes";
  EXPECT_FALSE(all.empty());  // shorter inputs take new loop counts
  for (const Find& f : all) EXPECT_LT(f.data.size(), 16u);
}

// Mutations stack up to the slot's depth and no further: with stack 2, some
// TRIM mutant lost two erases' worth of bytes, none more.
TEST_P(GpuMutationTest, MutationsStackUpToTheSlotsDepth) {
  auto executor = Make("trim_depth.fz", 64, /*keep_going=*/true);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Bytes(16, 0x41)).ok());
  bool two_erases = false;
  for (int batch = 0; batch < 10 && !two_erases; ++batch) {
    absl::StatusOr<BatchResult> r =
        executor->RunBatch(Work(RF_OP_TRIM, /*stack=*/2), batch + 1);
    ASSERT_TRUE(r.ok()) << r.status();
    for (const Find& f : r->finds) {
      if (!IsBug(f.kind)) continue;
      EXPECT_EQ(f.code, 2u) << "a mutant of " << f.data.size() << " bytes";
      EXPECT_GE(f.data.size(), 8u);
      two_erases |= f.code == 2u;
    }
  }
  EXPECT_TRUE(two_erases) << "no mutant carried two erases";
}

// Block mutators move 1 to 4 bytes: TRIM mutants of a 16-byte parent lose
// each of those sizes, whether the lanes of a coherence group share the
// erase position (sizes spread over the group) or every lane draws alone.
// Coherence groups are the flat engine's; the branching engine runs once.
TEST_P(GpuMutationTest, ErasesTakeEveryBlockSize) {
  const std::vector<uint32_t> widths = GetParam() == Engine::kFlat
                                           ? std::vector<uint32_t>{4, 1}
                                           : std::vector<uint32_t>{4};
  for (uint32_t lanes : widths) {
    auto executor = Make("erase_size.fz", 64, /*keep_going=*/true, lanes);
    ASSERT_NE(executor, nullptr);
    ASSERT_TRUE(executor->AddInput(Bytes(16, 0x41)).ok());
    std::set<uint32_t> sizes;
    for (int batch = 0; batch < 10 && sizes.size() < 4; ++batch) {
      absl::StatusOr<BatchResult> r =
          executor->RunBatch(Work(RF_OP_TRIM, /*stack=*/1), batch + 1);
      ASSERT_TRUE(r.ok()) << r.status();
      for (const Find& f : r->finds) {
        if (!IsBug(f.kind)) continue;
        EXPECT_GE(f.code, 1u);
        EXPECT_LE(f.code, 4u) << "an erase of " << f.code << " bytes";
        sizes.insert(f.code);
      }
    }
    EXPECT_EQ(sizes, (std::set<uint32_t>{1, 2, 3, 4})) << lanes << " lanes";
  }
}

// No mutant of any work kind grows past max_len, however long the token,
// the partner or the stack.
TEST_P(GpuMutationTest, MutantsStayWithinMaxLen) {
  auto executor = Make("length_cap.fz", /*max_len=*/32);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Bytes(30, 0x90)).ok());
  ASSERT_TRUE(executor->AddInput(Bytes(32, 0x07)).ok());
  ASSERT_TRUE(
      executor
          ->SetDictionary({Bytes(20, 0xEE), Bytes(3, 0x11), Bytes(32, 0x22)})
          .ok());
  std::vector<WorkItem> work;
  for (uint32_t opcode : {RF_OP_HAVOC, RF_OP_DICT, RF_OP_SPLICE, RF_OP_CMP}) {
    std::vector<WorkItem> part = Work(opcode, /*stack=*/8, 512, /*partner=*/1);
    work.insert(work.end(), part.begin(), part.end());
  }
  std::vector<Find> all;
  std::vector<Find> bugs = RunUntilBug(*executor, work, 6, &all);
  EXPECT_TRUE(bugs.empty())
      << "a mutant of " << bugs[0].data.size() << " bytes";
  EXPECT_FALSE(all.empty());
  for (const Find& f : all) EXPECT_LE(f.data.size(), 32u);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// A CMP mutant writes the other operand of a comparison that its parent's
// own execution made where the first one's bytes are: a 32-bit magic falls
// in one step. (RunBatch logs the parent's comparisons first.)
TEST_P(GpuMutationTest, InputToStateSolvesAWordCompare) {
  auto executor = Make("word_magic.fz");
  ASSERT_NE(executor, nullptr);
  const Bytes parent = Str("ABCDEFGH");
  ASSERT_TRUE(executor->AddInput(parent).ok());
  std::vector<Find> bugs =
      RunUntilBug(*executor, Work(RF_OP_CMP, /*stack=*/1, 64), 10);
  ASSERT_FALSE(bugs.empty());
  EXPECT_EQ(bugs[0].code, 5u);
  ASSERT_GE(bugs[0].data.size(), 8u);
  EXPECT_EQ(Bytes(bugs[0].data.begin() + 4, bugs[0].data.begin() + 8),
            (Bytes{0x42, 0xEE, 0xFF, 0xC0}));
}

// The value that opens own_checksum.fz's gate is a hash of the input's own
// bytes 4..7. Two parents with different bodies: each parent's CMP mutants
// solve it with the hash of that parent's body, which only that parent's
// compare log holds (a log taken from the other input, or one table shared
// by all, writes the other hash, which does not open the gate).
TEST_P(GpuMutationTest, InputToStateUsesTheParentsOwnComparisons) {
  const Bytes a = Str("0000AAAA"), b = Str("0000BBBB");
  auto check = [](const Bytes& input) {  // the target's formula
    uint32_t body = 0;
    for (int k = 3; k >= 0; --k) body = body << 8 | input[4 + k];
    return (body * 0x9E3779B1u) ^ 0x5A5A5A5Au;
  };
  for (uint32_t parent : {1u, 0u}) {
    // A fresh executor each: a bug is reported once per run.
    auto executor = Make("own_checksum.fz");
    ASSERT_NE(executor, nullptr);
    ASSERT_TRUE(executor->AddInput(a).ok());
    ASSERT_TRUE(executor->AddInput(b).ok());
    const Bytes& input = parent == 0 ? a : b;
    std::vector<WorkItem> work = Work(RF_OP_CMP, /*stack=*/1, 64);
    for (WorkItem& item : work) item.parent = parent;
    std::vector<Find> bugs = RunUntilBug(*executor, work, 4);
    ASSERT_FALSE(bugs.empty()) << "parent " << parent;
    EXPECT_EQ(bugs[0].code, 9u);
    ASSERT_EQ(bugs[0].data.size(), 8u);
    EXPECT_EQ(Bytes(bugs[0].data.begin() + 4, bugs[0].data.end()),
              Bytes(input.begin() + 4, input.end()));
    uint32_t field = 0;
    for (int k = 3; k >= 0; --k) field = field << 8 | bugs[0].data[k];
    EXPECT_EQ(field, check(input));
    // The patch is in that parent's list, and not in the other's.
    const std::vector<InputPatch> own = executor->InputToStatePatches(parent);
    const std::vector<InputPatch> other =
        executor->InputToStatePatches(1 - parent);
    const InputPatch solving{0, 4, check(input)};
    EXPECT_NE(std::find(own.begin(), own.end(), solving), own.end());
    EXPECT_EQ(std::find(other.begin(), other.end(), solving), other.end());
    EXPECT_EQ(executor->logged_inputs(), 2u);
    EXPECT_EQ(executor->validation_messages(), 0u)
        << executor->last_validation_message();
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, GpuMutationTest,
                         testing::Values(Engine::kFlat, Engine::kBranching),
                         EngineName);

}  // namespace
}  // namespace ringfuzz

// The GPU executor's memory on lavapipe: its buffers are what
// fuzz/gpu/gpu_memory.h computes, -gpu_memory_mb (GpuExecutorOptions::
// memory_bound) stops the corpus from growing past it and the patch buffer
// from growing at all, and a corpus of a million small inputs fits.
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fuzz/gpu/gpu_executor.h"
#include "fuzz/gpu/gpu_memory.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using gpu_test::CpuOptions;
using gpu_test::MakeExecutor;
using ::testing::Contains;
using ::testing::HasSubstr;

// 4-byte inputs that differ in their first word (compare_pairs.fz derives
// its compares from it).
Bytes Word(uint32_t i) {
  return Bytes{static_cast<uint8_t>(i), static_cast<uint8_t>(i >> 8),
               static_cast<uint8_t>(i >> 16), static_cast<uint8_t>(i >> 24)};
}

GpuExecutorOptions Options(std::vector<std::string>* log = nullptr) {
  GpuExecutorOptions options = CpuOptions("compare_pairs.fz", 64);
  // AddInput of many inputs makes buffers, each checked by the layer; the
  // layer adds nothing here but time.
  options.validation = false;
  if (log != nullptr) {
    options.memory_log = [log](const std::string& line) {
      log->push_back(line);
    };
  }
  return options;
}

TEST(GpuMemoryGpuTest, BuffersAreWhatTheFormulasSay) {
  std::unique_ptr<GpuExecutor> executor = MakeExecutor(Options());
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->device_info().is_cpu);
  const GpuMemory m = executor->Memory();
  const GpuMemory fixed = FixedGpuMemory(/*cpu_device=*/true,
                                         /*overlap=*/false, /*max_len=*/64);
  EXPECT_EQ(m.rings, fixed.rings);
  EXPECT_EQ(m.finds, fixed.finds);
  EXPECT_EQ(m.maps, fixed.maps);
  EXPECT_EQ(m.compare_logs, fixed.compare_logs);
  EXPECT_EQ(m.corpus,
            CorpusBufferBytes(InitialCorpusLayout(kCpuFindCapacity, 16)));
  EXPECT_EQ(m.patches,
            PatchBufferBytes(kInitialPatchInputs, kInitialPatchWords));
  EXPECT_EQ(m.dictionary, DictionaryBytes(0));
  EXPECT_THAT(executor->MemoryLine(),
              HasSubstr(absl::StrCat("GPU memory: ", Mib(m.Total()))));
}

TEST(GpuMemoryGpuTest, CorpusGrowthIsLoggedAndFollowsTheFormula) {
  std::vector<std::string> log;
  std::unique_ptr<GpuExecutor> executor = MakeExecutor(Options(&log));
  ASSERT_NE(executor, nullptr);
  for (uint32_t i = 0; i < 1025; ++i) {
    ASSERT_TRUE(executor->AddInput(Word(i)).ok()) << i;
  }
  EXPECT_EQ(executor->Memory().corpus, CorpusBufferBytes(CorpusLayoutAfter(
                                           1025, 1, kCpuFindCapacity, 16)));
  ASSERT_EQ(log.size(), 1u);
  EXPECT_THAT(log[0], HasSubstr("INFO: GPU memory: "));
  EXPECT_THAT(log[0], HasSubstr("for 1025 inputs"));
  EXPECT_THAT(log[0], HasSubstr("after the corpus buffer grew"));
}

TEST(GpuMemoryGpuTest, CorpusThatWouldPassTheBoundIsRefusedAndNothingBreaks) {
  uint64_t start = 0;
  {
    std::unique_ptr<GpuExecutor> unbounded = MakeExecutor(Options());
    ASSERT_NE(unbounded, nullptr);
    start = unbounded->Memory().Total();
  }
  GpuExecutorOptions options = Options();
  options.memory_bound = start + 4096;  // no room for a second corpus buffer
  std::unique_ptr<GpuExecutor> executor = MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  for (uint32_t i = 0; i < 1024; ++i) {
    ASSERT_TRUE(executor->AddInput(Word(i)).ok()) << i;
  }
  absl::StatusOr<uint32_t> refused = executor->AddInput(Word(1024));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(refused.status().message(), HasSubstr("(-gpu_memory_mb)"));
  EXPECT_THAT(refused.status().message(),
              HasSubstr("Fix: raise -gpu_memory_mb"));
  EXPECT_EQ(executor->Memory().Total(), start);
  // The executor still runs, with the corpus it had.
  absl::StatusOr<BatchResult> ran = executor->Execute(Word(7));
  ASSERT_TRUE(ran.ok()) << ran.status();
  EXPECT_EQ(ran->executions, 1u);
  absl::StatusOr<uint32_t> again = executor->AddInput(Word(1025));
  EXPECT_FALSE(again.ok());
}

TEST(GpuMemoryGpuTest, BoundBelowTheStartIsAnErrorThatSaysWhatToDo) {
  GpuExecutorOptions options = Options();
  options.memory_bound = 1 << 20;
  absl::StatusOr<std::unique_ptr<GpuExecutor>> executor =
      GpuExecutor::Create(options);
  ASSERT_FALSE(executor.ok());
  EXPECT_EQ(executor.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(executor.status().message(),
              HasSubstr("more than the bound of 1.0 MiB (-gpu_memory_mb)"));
  EXPECT_THAT(executor.status().message(), HasSubstr("lower -max_len"));
}

// Runs one small batch, which logs the compares of every input added.
void RunOneBatch(GpuExecutor& executor) {
  WorkItem item;
  item.parent = 0;
  item.count = 64;
  item.opcode = RF_OP_HAVOC;
  absl::StatusOr<BatchResult> result = executor.RunBatch({item}, 1);
  ASSERT_TRUE(result.ok()) << result.status();
}

// A patch buffer that starts small (64 inputs, 1,024 words), so that one
// compare-log round outgrows it.
GpuExecutorOptions SmallPatchOptions(std::vector<std::string>* log = nullptr) {
  GpuExecutorOptions options = Options(log);
  options.patch_inputs = 64;
  options.patch_words = 1024;
  return options;
}

TEST(GpuMemoryGpuTest, PatchBufferThatCannotGrowLeavesNewInputsWithout) {
  constexpr uint32_t kInputs = 256;  // one compare-log round
  const GpuExecutorOptions small = SmallPatchOptions();
  uint64_t start = 0;
  {
    // Without a bound the patches of these inputs outgrow the first patch
    // buffer.
    std::unique_ptr<GpuExecutor> executor = MakeExecutor(small);
    ASSERT_NE(executor, nullptr);
    start = executor->Memory().Total();
    for (uint32_t i = 0; i < kInputs; ++i) {
      ASSERT_TRUE(executor->AddInput(Word(i * 0x01010101u + 5)).ok());
    }
    RunOneBatch(*executor);
    EXPECT_FALSE(executor->patches_capped());
    EXPECT_GT(executor->Memory().patches,
              PatchBufferBytes(small.patch_inputs, small.patch_words));
    size_t patches = 0;
    for (uint32_t i = 0; i < kInputs; ++i) {
      patches += executor->InputToStatePatches(i).size();
    }
    // More than the first patch buffer holds: it doubled (to 8 KiB of
    // patches) or more.
    EXPECT_GT(patches, small.patch_words / RF_PATCH_WORDS);
    EXPECT_FALSE(executor->InputToStatePatches(kInputs - 1).empty());
  }
  std::vector<std::string> log;
  GpuExecutorOptions options = SmallPatchOptions(&log);
  // Room for a patch buffer with the index of these inputs (6 KiB), not
  // for one with their patches too (10 KiB or more).
  options.memory_bound = start + 7 * 1024;
  std::unique_ptr<GpuExecutor> executor = MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  for (uint32_t i = 0; i < kInputs; ++i) {
    ASSERT_TRUE(executor->AddInput(Word(i * 0x01010101u + 5)).ok());
  }
  RunOneBatch(*executor);
  EXPECT_TRUE(executor->patches_capped());
  // The index grew for the inputs; the patches' part did not.
  EXPECT_EQ(executor->Memory().patches,
            PatchBufferBytes(kInputs, small.patch_words));
  EXPECT_TRUE(executor->InputToStatePatches(kInputs - 1).empty());
  EXPECT_THAT(log, Contains(HasSubstr("WARNING: new corpus inputs get no "
                                      "input-to-state patches")));
  RunOneBatch(*executor);  // and fuzzing goes on
}

TEST(GpuMemoryGpuTest, AMillionSmallInputsFit) {
  std::unique_ptr<GpuExecutor> executor = MakeExecutor(Options());
  ASSERT_NE(executor, nullptr);
  const auto begin = std::chrono::steady_clock::now();
  constexpr uint32_t kInputs = 1000000;
  for (uint32_t i = 0; i < kInputs; ++i) {
    Bytes input = Word(i);
    input.insert(input.end(), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    absl::StatusOr<uint32_t> index = executor->AddInput(input);
    ASSERT_TRUE(index.ok()) << i << ": " << index.status();
    ASSERT_EQ(*index, i);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();
  const GpuMemory m = executor->Memory();
  EXPECT_EQ(m.corpus, CorpusBufferBytes(
                          CorpusLayoutAfter(kInputs, 4, kCpuFindCapacity, 16)));
  EXPECT_LT(m.corpus, uint64_t{30} << 20);
  EXPECT_LT(m.Total(), uint64_t{32} << 20);
  absl::StatusOr<BatchResult> ran = executor->Execute(Word(3));
  ASSERT_TRUE(ran.ok()) << ran.status();
  std::cout << "1,000,000 inputs of 16 bytes added in " << seconds
            << " s: " << executor->MemoryLine() << "\n";
}

}  // namespace
}  // namespace ringfuzz

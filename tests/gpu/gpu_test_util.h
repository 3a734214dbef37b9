// Shared helpers of the GPU executor tests: test data paths and executors
// on lavapipe with the validation layer on.
#ifndef RINGFUZZ_TESTS_GPU_GPU_TEST_UTIL_H_
#define RINGFUZZ_TESTS_GPU_GPU_TEST_UTIL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/gpu/gpu_executor.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz::gpu_test {

// The path of test data file `name` (tests/gpu/data).
inline std::string Data(const std::string& name) {
  return std::string(RF_TEST_DATA) + "/" + name;
}

inline Bytes Str(const std::string& s) { return Bytes(s.begin(), s.end()); }

// Inputs as strings, for matchers that print them readably.
inline std::vector<std::string> Strs(const std::vector<Bytes>& inputs) {
  std::vector<std::string> out;
  out.reserve(inputs.size());
  for (const Bytes& b : inputs) out.emplace_back(b.begin(), b.end());
  return out;
}

// Options for target `target` (a test data file) on lavapipe, validated.
inline GpuExecutorOptions CpuOptions(const std::string& target,
                                     uint32_t max_len = 64) {
  GpuExecutorOptions options;
  options.target_path = Data(target);
  options.device = "cpu";
  options.validation = true;
  options.max_len = max_len;
  return options;
}

// The executor of `options`, or null (with a test failure) if it cannot be
// made.
inline std::unique_ptr<GpuExecutor> MakeExecutor(
    const GpuExecutorOptions& options) {
  absl::StatusOr<std::unique_ptr<GpuExecutor>> executor =
      GpuExecutor::Create(options);
  EXPECT_TRUE(executor.ok()) << executor.status();
  return executor.ok() ? *std::move(executor) : nullptr;
}

// `items` work items of kind `opcode` on corpus input 0, `count` mutants
// each.
inline std::vector<WorkItem> Work(uint32_t opcode, size_t items,
                                  uint32_t count) {
  std::vector<WorkItem> work(items);
  for (WorkItem& item : work) {
    item.opcode = opcode;
    item.parent = 0;
    item.count = count;
  }
  return work;
}

// One batch of 16 havoc mutants of `input` on `target` (a test data file),
// which crashes with `code` where a trial made on the host by `mutator`
// (RF_MUT_TEXT, RF_MUT_VARINT, ...) from the input's own compare log
// should: returns the crashing inputs, each checked to be such a trial of
// input 0 with that code.
inline std::vector<std::string> HostTrialCrashes(const std::string& target,
                                                 const std::string& input,
                                                 uint32_t code,
                                                 uint32_t mutator) {
  auto executor = MakeExecutor(CpuOptions(target, 64));
  if (executor == nullptr) return {"no executor"};
  EXPECT_TRUE(executor->AddInput(Str(input)).ok());
  absl::StatusOr<BatchResult> r =
      executor->RunBatch(Work(RF_OP_HAVOC, 1, 16), 1);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return {};
  std::vector<std::string> crashes;
  for (const Find& f : r->finds) {
    if (f.kind != Find::Kind::kCrash) continue;
    EXPECT_EQ(f.code, code);
    EXPECT_EQ(f.parent, 0u);
    EXPECT_EQ(f.mutations, std::vector<uint32_t>{mutator});
    crashes.emplace_back(f.data.begin(), f.data.end());
  }
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
  return crashes;
}

}  // namespace ringfuzz::gpu_test

#endif  // RINGFUZZ_TESTS_GPU_GPU_TEST_UTIL_H_

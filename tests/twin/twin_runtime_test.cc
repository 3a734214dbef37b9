// Tests of the libFuzzer side of the dialect (fuzz/twin/twin_runtime.cc)
// against a probe target (twin_probe_target.cc): its first input byte says
// what to do.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "gtest/gtest.h"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// What the probe target saw in its last execution.
extern uint32_t probe_seen_len;
extern uint32_t probe_seen_sum;

namespace {

int RunInput(const std::vector<uint8_t>& input) {
  return LLVMFuzzerTestOneInput(input.data(), input.size());
}

TEST(TwinRuntimeTest, ReadsEveryByteOfTheInput) {
  EXPECT_EQ(RunInput({'r', 1, 2, 3}), 0);
  EXPECT_EQ(probe_seen_len, 4u);
  EXPECT_EQ(probe_seen_sum, uint32_t{'r'} + 6);
}

TEST(TwinRuntimeTest, AcceptsInputsLongerThanTheGpuLimit) {
  std::vector<uint8_t> input(10000, 1);
  input[0] = 'r';
  EXPECT_EQ(RunInput(input), 0);
  EXPECT_EQ(probe_seen_len, 10000u);
  EXPECT_EQ(probe_seen_sum, uint32_t{'r'} + 9999);
}

TEST(TwinRuntimeTest, EmptyInputRunsTheTarget) {
  probe_seen_len = 99;
  EXPECT_EQ(LLVMFuzzerTestOneInput(nullptr, 0), 0);
  EXPECT_EQ(probe_seen_len, 0u);
}

// The detail line, then UBSan's bounds report on the input (the runtime is
// built with UBSan's bounds check, as in every twin_<name>), which ClusterFuzz
// reads as Index-out-of-bounds, as it reads ringfuzz's report.
TEST(TwinRuntimeDeathTest, OverreadStopsWithUbsanBoundsReport) {
  EXPECT_DEATH(RunInput({'o', 0, 0}),
               "^ringfuzz: input overread: fz_byte\\(3\\) with len 3\n"
               "[^\n]*twin_runtime.cc:[0-9]+:[0-9]+: runtime error: index 3 "
               "out of bounds for type [^\n]*\n");
}

TEST(TwinRuntimeDeathTest, CrashAbortsWithTheReportLine) {
  EXPECT_DEATH(RunInput({'c'}), "^ringfuzz: fz_crash\\(code=4660\\)\n");
}

TEST(TwinRuntimeDeathTest, FirstReportWins) {
  EXPECT_DEATH(RunInput({'b'}), "^ringfuzz: fz_crash\\(code=7\\)\n$");
}

// Turns on -ringfuzz_keep_going=1, runs an overread, two crashes and a clean
// input, and exits 0 iff the overread read 0 and nothing aborted.
void KeepGoingScenario() {
  char name[] = "twin";
  char flag[] = "-ringfuzz_keep_going=1";
  char* args[] = {name, flag, nullptr};
  int argc = 2;
  char** argv = args;
  LLVMFuzzerInitialize(&argc, &argv);
  RunInput({'o', 0, 0});
  const bool read_zero = probe_seen_sum == 1000;
  RunInput({'c'});
  RunInput({'b'});
  RunInput({'r', 5});
  exit(read_zero ? 0 : 3);
}

// -ringfuzz_keep_going=1: one report per process, overreads read 0, nothing
// aborts, and the count of executions with a bug is printed at exit.
TEST(TwinRuntimeDeathTest, KeepGoingReportsOnceAndCountsAtExit) {
  EXPECT_EXIT(KeepGoingScenario(), testing::ExitedWithCode(0),
              "^ringfuzz: input overread: fz_byte\\(3\\) with len 3\n"
              "INFO: ringfuzz: 3 executions reported a bug "
              "\\(-ringfuzz_keep_going=1\\)\n$");
}

// The twin keeps every loop: a loop that never ends runs out of the loop
// budget, as on the GPU (which reports "timeout after <budget + 1> loop
// steps"), instead of being deleted by the optimiser.
TEST(TwinRuntimeDeathTest, HangAbortsWithATimeoutReport) {
  EXPECT_DEATH(RunInput({'h', 2}),
               "^==[0-9]+== ERROR: libFuzzer: timeout after 65537 loop "
               "steps\n"
               "ringfuzz: timeout after 65537 loop steps\n$");
}

// Runs `inputs` under -ringfuzz_loop_budget=10 (and keep-going) and exits
// 0; the exit summary counts the executions that reported a bug.
void LoopBudgetScenario(const std::vector<std::vector<uint8_t>>& inputs) {
  char name[] = "twin";
  char keep[] = "-ringfuzz_keep_going=1";
  char budget[] = "-ringfuzz_loop_budget=10";
  char* args[] = {name, keep, budget, nullptr};
  int argc = 3;
  char** argv = args;
  LLVMFuzzerInitialize(&argc, &argv);
  for (const auto& input : inputs) RunInput(input);
  exit(0);
}

// The budget counts what the GPU's loop hook counts: every visit of a loop
// header, so a for or while loop of n iterations costs n + 1 (the last test
// of its condition), a do-while loop n.
TEST(TwinRuntimeDeathTest, LoopBudgetCountsLoopHeadersAsTheGpuDoes) {
  EXPECT_EXIT(LoopBudgetScenario({{'f', 9}, {'w', 9}, {'d', 10}}),
              testing::ExitedWithCode(0),
              "^INFO: ringfuzz: 0 executions reported a bug");
  EXPECT_EXIT(LoopBudgetScenario({{'f', 10}, {'w', 10}, {'d', 11}}),
              testing::ExitedWithCode(0),
              "^==[0-9]+== ERROR: libFuzzer: timeout after 11 loop steps\n"
              "ringfuzz: timeout after 11 loop steps\n"
              "INFO: ringfuzz: 3 executions reported a bug");
}

// With keep-going, a timeout ends every loop of its execution (as on the
// GPU), and the next execution has its whole budget again.
TEST(TwinRuntimeDeathTest, TimeoutEndsOnlyTheLoopsOfItsExecution) {
  EXPECT_EXIT(LoopBudgetScenario({{'h', 2}, {'f', 9}, {'w', 9}}),
              testing::ExitedWithCode(0),
              "^==[0-9]+== ERROR: libFuzzer: timeout after 11 loop steps\n"
              "ringfuzz: timeout after 11 loop steps\n"
              "INFO: ringfuzz: 1 executions reported a bug");
}

}  // namespace

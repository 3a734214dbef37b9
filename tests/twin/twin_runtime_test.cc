// Tests of the libFuzzer side of the dialect (fuzz/twin/twin_runtime.cc)
// against a probe target defined here: its first input byte says what to do.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "gtest/gtest.h"
#include "shaders/ringfuzz.h"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

// What the probe target saw in its last execution.
uint32_t seen_len = 0;
uint32_t seen_sum = 0;

}  // namespace

// Probe target. Input byte 0: 'r' read every byte; 'o' read byte len
// (overread); 'c' fz_crash(0x1234); 'b' fz_crash(7) then fz_crash(8).
void fz_target(uint len) {
  seen_len = len;
  seen_sum = 0;
  if (len == 0) return;
  switch (fz_byte(0)) {
    case 'r':
      for (uint i = 0; i < len; ++i) seen_sum += fz_byte(i);
      break;
    case 'o':
      seen_sum = fz_byte(len) + 1000;
      break;
    case 'c':
      fz_crash(0x1234);
      break;
    case 'b':
      fz_crash(7);
      fz_crash(8);
      break;
  }
}

namespace {

int RunInput(const std::vector<uint8_t>& input) {
  return LLVMFuzzerTestOneInput(input.data(), input.size());
}

TEST(TwinRuntimeTest, ReadsEveryByteOfTheInput) {
  EXPECT_EQ(RunInput({'r', 1, 2, 3}), 0);
  EXPECT_EQ(seen_len, 4u);
  EXPECT_EQ(seen_sum, uint32_t{'r'} + 6);
}

TEST(TwinRuntimeTest, AcceptsInputsLongerThanTheGpuLimit) {
  std::vector<uint8_t> input(10000, 1);
  input[0] = 'r';
  EXPECT_EQ(RunInput(input), 0);
  EXPECT_EQ(seen_len, 10000u);
  EXPECT_EQ(seen_sum, uint32_t{'r'} + 9999);
}

TEST(TwinRuntimeTest, EmptyInputRunsTheTarget) {
  seen_len = 99;
  EXPECT_EQ(LLVMFuzzerTestOneInput(nullptr, 0), 0);
  EXPECT_EQ(seen_len, 0u);
}

TEST(TwinRuntimeDeathTest, OverreadAbortsWithTheReportLine) {
  EXPECT_DEATH(RunInput({'o', 0, 0}),
               "^==[0-9]+==ERROR: ringfuzz: input overread: fz_byte\\(3\\) "
               "with len 3\n");
}

TEST(TwinRuntimeDeathTest, CrashAbortsWithTheReportLine) {
  EXPECT_DEATH(RunInput({'c'}),
               "^==[0-9]+==ERROR: ringfuzz: fz_crash\\(code=4660\\)\n");
}

TEST(TwinRuntimeDeathTest, FirstReportWins) {
  EXPECT_DEATH(RunInput({'b'}),
               "^==[0-9]+==ERROR: ringfuzz: fz_crash\\(code=7\\)\n$");
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
  const bool read_zero = seen_sum == 1000;
  RunInput({'c'});
  RunInput({'b'});
  RunInput({'r', 5});
  exit(read_zero ? 0 : 3);
}

// -ringfuzz_keep_going=1: one report per process, overreads read 0, nothing
// aborts, and the count of executions with a bug is printed at exit.
TEST(TwinRuntimeDeathTest, KeepGoingReportsOnceAndCountsAtExit) {
  EXPECT_EXIT(
      KeepGoingScenario(), testing::ExitedWithCode(0),
      "^==[0-9]+==ERROR: ringfuzz: input overread: fz_byte\\(3\\) with len 3\n"
      "INFO: ringfuzz: 3 executions reported a bug "
      "\\(-ringfuzz_keep_going=1\\)\n$");
}

}  // namespace

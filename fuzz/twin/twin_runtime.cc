// The C++ side of the target dialect for libFuzzer (shaders/ringfuzz.h):
// LLVMFuzzerTestOneInput runs fz_target on the input, fz_byte reads it, and
// every bug report stops the execution so that libFuzzer records a crash
// and saves the input: fz_crash traps and a timeout aborts (libFuzzer's
// "deadly signal"), an overread fails UBSan's bounds check on the input
// where UBSan is built in (RF_TWIN_UBSAN; "runtime error: index I out of
// bounds", as ringfuzz reports it) and traps otherwise. A trap in fz_crash
// or fz_byte itself keeps libc's abort frames off the stack, whose top is
// then the dialect function and its caller, as in ringfuzz's report. Linked
// into every twin_<name> executable; see docs/dialect.md.
//
// One option, for throughput measurements (tools/bench): with the argument
// -ringfuzz_keep_going=1 (put it after -ignore_remaining_args=1 to keep
// libFuzzer from warning about it) nothing aborts: a bug is reported once per
// process, overreads read 0 as on the GPU, and the run goes on; at exit the
// number of executions that reported a bug is printed.
//
// -ringfuzz_loop_budget=N sets the loop budget of one execution (default
// kDefaultLoopBudget, the GPU's): an execution whose loops take more steps
// is a timeout (shaders/ringfuzz.h), reported and aborted like a crash.
#define RF_TWIN_RUNTIME  // this file's loops are not the target's
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "fuzz/twin/twin_report.h"
#include "shaders/ringfuzz.h"

namespace {

// The input of the execution running on this thread. Set only by
// LLVMFuzzerTestOneInput; thread-local so that a multi-threaded driver
// (e.g. a unit test) cannot mix inputs.
thread_local const uint8_t* tls_data = nullptr;
thread_local uint32_t tls_len = 0;
thread_local bool tls_reported = false;  // this execution reported a bug

// -ringfuzz_keep_going=1: written once by LLVMFuzzerInitialize, before the
// first execution, then only read.
bool keep_going = false;
uint32_t loop_budget = ringfuzz::twin::kDefaultLoopBudget;
std::atomic<bool> printed_first_report{false};
std::atomic<uint64_t> executions_with_bugs{0};

constexpr char kKeepGoingFlag[] = "-ringfuzz_keep_going=1";
constexpr char kLoopBudgetFlag[] = "-ringfuzz_loop_budget=";

// Returns true iff the report of the current execution should be printed
// (always, unless keep-going already printed one in this process).
bool ShouldPrint() {
  if (!keep_going) return true;
  if (!tls_reported) {
    tls_reported = true;
    executions_with_bugs.fetch_add(1, std::memory_order_relaxed);
  }
  return !printed_first_report.exchange(true);
}

void PrintKeepGoingSummary() {
  fprintf(stderr, "INFO: ringfuzz: %llu executions reported a bug (%s)\n",
          static_cast<unsigned long long>(executions_with_bugs.load()),
          kKeepGoingFlag);
}

}  // namespace

__thread uint32_t rf_twin_loop_left = 0;

bool rf_twin_loop_exhausted(void) {
  if (ShouldPrint()) ringfuzz::twin::ReportTimeout(loop_budget);
  if (!keep_going) abort();
  return false;  // rf_twin_loop_left stays 0: every loop ends, as on the GPU
}

// An overread stops in fz_byte itself, so that the stack names fz_byte and
// its caller as ringfuzz's report does. With RF_TWIN_UBSAN the byte is read
// through the input typed as an array of `len` bytes, so that UBSan's bounds
// check (built not to recover) reports "index <i> out of bounds for type
// ... [len]" and halts before the read; a zero-length array is what that
// check needs, not a bug (no vla-bound). Without UBSan it traps.
__attribute__((no_sanitize("vla-bound"))) uint fz_byte(uint i) {
  if (i >= tls_len) {
    if (ShouldPrint()) ringfuzz::twin::ReportOverread(i, tls_len);
    if (keep_going) return 0;
#ifdef RF_TWIN_UBSAN
    typedef uint8_t Input[tls_len];
    volatile uint8_t unused = (*reinterpret_cast<const Input*>(tls_data))[i];
    (void)unused;
#endif
    __builtin_trap();
  }
  return tls_data[i];
}

void fz_crash(uint code) {
  if (ShouldPrint()) ringfuzz::twin::ReportCrash(code);
  if (!keep_going) __builtin_trap();
}

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  for (int i = 1; i < *argc; ++i) {
    const char* arg = (*argv)[i];
    if (strcmp(arg, kKeepGoingFlag) == 0) keep_going = true;
    if (strncmp(arg, kLoopBudgetFlag, strlen(kLoopBudgetFlag)) == 0) {
      char* end = nullptr;
      const char* value = arg + strlen(kLoopBudgetFlag);
      const unsigned long long budget = strtoull(value, &end, 10);
      if (end == value || *end != '\0' || budget == 0 || budget > UINT32_MAX) {
        fprintf(stderr,
                "ERROR: ringfuzz: %s: the loop budget must be a number from 1 "
                "to %u\n",
                arg, UINT32_MAX);
        exit(1);
      }
      loop_budget = static_cast<uint32_t>(budget);
    }
  }
  if (keep_going) atexit(PrintKeepGoingSummary);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The twin has no length limit (the GPU caps inputs at its max_len); only
  // the dialect's 32-bit `len` bounds what a target can address.
  const uint32_t len =
      size > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(size);
  tls_data = data;
  tls_len = len;
  tls_reported = false;
  rf_twin_loop_left = loop_budget;
  fz_target(len);
  tls_data = nullptr;
  tls_len = 0;
  return 0;
}

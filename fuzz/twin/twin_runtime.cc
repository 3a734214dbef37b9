// The C++ side of the target dialect for libFuzzer (shaders/ringfuzz.h):
// LLVMFuzzerTestOneInput runs fz_target on the input, fz_byte reads it, and
// every bug report aborts so that libFuzzer records a crash and saves the
// input. Linked into every twin_<name> executable; see docs/dialect.md.
//
// One option, for throughput measurements (tools/bench): with the argument
// -ringfuzz_keep_going=1 (put it after -ignore_remaining_args=1 to keep
// libFuzzer from warning about it) nothing aborts: a bug is reported once per
// process, overreads read 0 as on the GPU, and the run goes on; at exit the
// number of executions that reported a bug is printed.
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
std::atomic<bool> printed_first_report{false};
std::atomic<uint64_t> executions_with_bugs{0};

constexpr char kKeepGoingFlag[] = "-ringfuzz_keep_going=1";

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

uint fz_byte(uint i) {
  if (i >= tls_len) {
    if (ShouldPrint()) ringfuzz::twin::ReportOverread(i, tls_len);
    if (keep_going) return 0;
    abort();
  }
  return tls_data[i];
}

void fz_crash(uint code) {
  if (ShouldPrint()) ringfuzz::twin::ReportCrash(code);
  if (!keep_going) abort();
}

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  for (int i = 1; i < *argc; ++i) {
    if (strcmp((*argv)[i], kKeepGoingFlag) == 0) keep_going = true;
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
  fz_target(len);
  tls_data = nullptr;
  tls_len = 0;
  return 0;
}

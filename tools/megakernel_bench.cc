// Measures raw megakernel throughput: executions per second of one target's
// havoc batches on one device, with no host-side corpus work. Complements
// tools/bench (whole campaigns against libFuzzer).
//
//   megakernel_bench -target=FILE [-device=cpu|gpu|N] [-seconds=S]
//                    [-max_len=N] [-opcode=N] [-stack=N]
//                    [-coverage=0|1] [-compares=0|1] [-bounds=0|1]
//                    [-conditions=0|1]
//                    [-value_profile=0|1] [-mutation=auto|flat|branching]
//                    [-parent=FILE] [-keep_going=0|1] [-coherent_lanes=1|2|4]
//                    [-coverage_mode=auto|precise|signature] [-havoc_build=0|1]
//                    [-ring_memory=auto|host|device] [-slots=N] [-execs=N]
//                    [-calibrate=N] [-deferred=0|1]
//
// The four switches turn the instrumentation's hooks off one by one (loop
// budgets always stay), for measuring what each costs; -value_profile=1
// adds the compare-distance features (ringfuzz -use_value_profile=1);
// -mutation picks the GPU mutation engine; -parent is the input every
// mutant starts from (default 16 x 'A'); -keep_going=1 lets faults go on;
// -coherent_lanes, -coverage_mode and -havoc_build set the
// GpuExecutorOptions fields of those names (auto: the device's default), and
// -ring_memory its ring_memory; -slots and -execs replace the device's
// preferred batch shape (slots per batch, executions per slot), so small
// batches measure what a round costs beyond its executions (the mean batch
// time is printed). -deferred sets GpuExecutorOptions::deferred_coverage
// (the precise build's coverage on CPU devices). -calibrate=N measures how
// fast signature candidates are judged instead of fuzzing: calls of
// ExecuteEach (the calibration dispatch of the precise build) on N mutants
// of the parent (one or two bytes replaced).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "corpus/file_read.h"
#include "fuzz/gpu/gpu_executor.h"
#include "shaders/ringfuzz_wire.h"

namespace {

std::string Flag(int argc, char** argv, const std::string& name,
                 const std::string& fallback) {
  const std::string prefix = "-" + name + "=";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind(prefix, 0) == 0) return arg.substr(prefix.size());
  }
  return fallback;
}

// Sets `out` to the value that -name=... names among `choices` (the first
// one when the flag is absent). Returns false, after printing the choices,
// for any other value.
template <typename E>
bool Choose(int argc, char** argv, const std::string& name,
            std::initializer_list<std::pair<const char*, E>> choices, E& out) {
  const std::string value = Flag(argc, argv, name, choices.begin()->first);
  std::string names;
  for (const auto& [text, choice] : choices) {
    if (value == text) {
      out = choice;
      return true;
    }
    names += names.empty() ? text : std::string(", ") + text;
  }
  std::fprintf(stderr, "-%s must be one of %s, not '%s'\n", name.c_str(),
               names.c_str(), value.c_str());
  return false;
}

double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6 +
         usage.ru_stime.tv_sec + usage.ru_stime.tv_usec * 1e-6;
}

// -calibrate=N: ExecuteEach on n mutants of `parent`, for `seconds`.
int BenchCalibration(ringfuzz::GpuExecutor& executor,
                     const ringfuzz::Bytes& parent, uint32_t n,
                     double seconds) {
  std::printf("calibration on the precise build, coverage %s%s%s\n",
              executor.deferred_coverage() ? "deferred" : "immediate",
              executor.deferred_coverage_refusal().empty() ? "" : ": ",
              executor.deferred_coverage_refusal().c_str());
  std::mt19937 rng(1);
  std::vector<ringfuzz::Bytes> mutants(n, parent);
  for (ringfuzz::Bytes& mutant : mutants) {
    if (mutant.empty()) continue;
    for (int k = 0; k < 2; ++k) mutant[rng() % mutant.size()] = rng() & 0xFF;
  }
  using Clock = std::chrono::steady_clock;
  const double cpu_start = CpuSeconds();
  const auto start = Clock::now();
  uint64_t execs = 0, calls = 0;
  double elapsed = 0;
  while (elapsed < seconds) {
    absl::StatusOr<ringfuzz::BatchResult> r = executor.ExecuteEach(mutants);
    if (!r.ok()) {
      std::fprintf(stderr, "error: %s\n",
                   std::string(r.status().message()).c_str());
      return 1;
    }
    execs += r->executions;
    ++calls;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  const double cpu = CpuSeconds() - cpu_start;
  std::printf(
      "calibrations/s: %.0f  (%.3f ms per call of %u; loop cpu %.1fs)\n",
      execs / elapsed, 1e3 * elapsed / calls, n, cpu);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  ringfuzz::GpuExecutorOptions options;
  options.target_path = Flag(argc, argv, "target", "");
  options.device = Flag(argc, argv, "device", "");
  options.max_len = std::stoul(Flag(argc, argv, "max_len", "64"));
  options.coverage = Flag(argc, argv, "coverage", "1") != "0";
  options.compares = Flag(argc, argv, "compares", "1") != "0";
  options.bounds = Flag(argc, argv, "bounds", "1") != "0";
  options.conditions = Flag(argc, argv, "conditions", "1") != "0";
  // -keep_going=1: faults do not end a batch (as in campaigns with
  // -keep_going=1); without it a fault-prone parent measures batch ends.
  options.keep_going = Flag(argc, argv, "keep_going", "0") == "1";
  using Engine = ringfuzz::GpuExecutorOptions::MutationEngine;
  using Mode = ringfuzz::GpuExecutorOptions::CoverageMode;
  using RingMemory = ringfuzz::GpuExecutorOptions::RingMemory;
  if (!Choose(argc, argv, "mutation",
              {{"auto", Engine::kAuto},
               {"flat", Engine::kFlat},
               {"branching", Engine::kBranching}},
              options.mutation_engine) ||
      !Choose(argc, argv, "coverage_mode",
              {{"auto", Mode::kAuto},
               {"precise", Mode::kPrecise},
               {"signature", Mode::kSignature}},
              options.coverage_mode) ||
      !Choose(argc, argv, "ring_memory",
              {{"auto", RingMemory::kAuto},
               {"host", RingMemory::kHost},
               {"device", RingMemory::kDevice}},
              options.ring_memory)) {
    return 2;
  }
  options.value_profile = Flag(argc, argv, "value_profile", "0") == "1";
  options.havoc_build = Flag(argc, argv, "havoc_build", "1") != "0";
  options.deferred_coverage = Flag(argc, argv, "deferred", "1") != "0";
  options.coherent_lanes = std::stoul(Flag(
      argc, argv, "coherent_lanes", std::to_string(options.coherent_lanes)));
  const double seconds = std::stod(Flag(argc, argv, "seconds", "5"));
  if (options.target_path.empty()) {
    std::fprintf(stderr,
                 "usage: megakernel_bench -target=FILE [-device=...] "
                 "[-seconds=S] [-max_len=N]\n");
    return 2;
  }
  auto executor = ringfuzz::GpuExecutor::Create(options);
  if (!executor.ok()) {
    std::fprintf(stderr, "error: %s\n",
                 std::string(executor.status().message()).c_str());
    return 1;
  }
  std::printf("device: %s\n", (*executor)->DeviceDescription().c_str());
  // The parent of every mutant: -parent=FILE, else 16 x 'A' (which fails
  // the bundled targets' header checks early: a shallow path).
  ringfuzz::Bytes seed(16, 0x41);
  if (const std::string parent = Flag(argc, argv, "parent", "");
      !parent.empty()) {
    // The executor runs at most max_len bytes of it (AddInput truncates).
    absl::StatusOr<ringfuzz::Bytes> read =
        ringfuzz::ReadFilePrefix(parent, (*executor)->max_len());
    if (!read.ok()) {
      std::fprintf(stderr, "error: -parent: %s\n",
                   std::string(read.status().message()).c_str());
      return 2;
    }
    seed = *std::move(read);
  }
  if (!(*executor)->AddInput(seed).ok()) return 1;
  if (const uint32_t n = std::stoul(Flag(argc, argv, "calibrate", "0"));
      n > 0) {
    return BenchCalibration(**executor, seed, n, seconds);
  }
  ringfuzz::BatchShape shape = (*executor)->PreferredBatch();
  shape.slots =
      std::stoul(Flag(argc, argv, "slots", std::to_string(shape.slots)));
  shape.execs_per_slot = std::stoul(
      Flag(argc, argv, "execs", std::to_string(shape.execs_per_slot)));
  std::printf("batch: %u slots x %u executions; ring in %s memory\n",
              shape.slots, shape.execs_per_slot,
              (*executor)->ring_in_device_memory() ? "device" : "host");
  std::vector<ringfuzz::WorkItem> work(shape.slots);
  for (auto& item : work) {
    item.opcode = std::stoul(Flag(argc, argv, "opcode", "8"));
    item.count = shape.execs_per_slot;
    item.stack = std::stoul(Flag(argc, argv, "stack", "4"));
  }
  // Warm-up: lavapipe compiles the pipeline on first use; keep that out.
  if (auto warm = (*executor)->RunBatch(work, 1u << 30); !warm.ok()) {
    std::fprintf(stderr, "error: %s\n",
                 std::string(warm.status().message()).c_str());
    return 1;
  }
  auto cpu_seconds = [] {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6 +
           usage.ru_stime.tv_sec + usage.ru_stime.tv_usec * 1e-6;
  };
  const double cpu_start = cpu_seconds();
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  uint64_t execs = 0, finds = 0, batches = 0;
  double elapsed = 0;
  while (elapsed < seconds) {
    auto r = (*executor)->RunBatch(work, batches++);
    if (!r.ok()) {
      std::fprintf(stderr, "error: %s\n",
                   std::string(r.status().message()).c_str());
      return 1;
    }
    execs += r->executions;
    finds += r->finds.size();
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  const auto cov = (*executor)->Coverage();
  std::printf(
      "batches: %llu  execs: %llu  finds: %llu  cov: %llu  ft: %llu  "
      "candidates: %llu\n",
      (unsigned long long)batches, (unsigned long long)execs,
      (unsigned long long)finds, (unsigned long long)cov.blocks,
      (unsigned long long)cov.features,
      (unsigned long long)(*executor)->candidates_evaluated());
  // CPU time of the measured loop: on lavapipe the device is this process's
  // threads, so executions per CPU-second is robust to other load.
  const double cpu = cpu_seconds() - cpu_start;
  std::printf("exec/s: %.0f  (loop cpu %.1fs, execs per cpu-second %.0f)\n",
              execs / elapsed, cpu, execs / cpu);
  std::printf("batch time: %.3f ms mean\n", 1e3 * elapsed / batches);
  return 0;
}

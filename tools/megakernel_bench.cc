// Measures raw megakernel throughput: executions per second of one target's
// havoc batches on one device, with no host-side corpus work. Complements
// tools/bench (whole campaigns against libFuzzer).
//
//   megakernel_bench -target=FILE [-device=cpu|gpu|N] [-seconds=S]
//                    [-max_len=N] [-opcode=N] [-stack=N]
//                    [-coverage=0|1] [-compares=0|1] [-bounds=0|1]
//                    [-conditions=0|1]
//                    [-value_profile=0|1] [-mutation=auto|flat|branching]
//                    [-parent=FILE | -parents=DIR] [-keep_going=0|1]
//                    [-coherent_lanes=1|2|4|8|16|32]
//                    [-coverage_mode=auto|precise|signature] [-havoc_build=0|1]
//                    [-ring_memory=auto|host|device] [-slots=N] [-execs=N]
//                    [-calibrate=N] [-deferred=auto|on|off]
//
// The four switches turn the instrumentation's hooks off one by one (loop
// budgets always stay), for measuring what each costs; -value_profile=1
// adds the compare-distance features (ringfuzz -use_value_profile=1);
// -mutation picks the GPU mutation engine; -parent is the input every
// mutant starts from (default 16 x 'A'); -parents=DIR takes every input of a
// corpus directory instead (loaded as ringfuzz loads one, in its order), and
// slot i of every batch mutates input i mod N, so a campaign's final corpus
// measures the raw rate on the campaign's own parents, each weighted alike;
// -keep_going=1 lets faults go on;
// -coherent_lanes, -coverage_mode and -havoc_build set the
// GpuExecutorOptions fields of those names (auto: the device's default), and
// -ring_memory its ring_memory; -slots and -execs replace the device's
// preferred batch shape (slots per batch, executions per slot), so small
// batches measure what a round costs beyond its executions (the mean batch
// time is printed, and the dispatches' mean time from submission to
// completion, without the host's work between batches; where the queue has
// timestamps, also their span on the device's clock). -deferred sets
// GpuExecutorOptions::deferred_coverage (the precise build's coverage; auto:
// deferred on CPU devices). -calibrate=N measures how fast signature candidates
// are judged instead of fuzzing: calls of ExecuteEach (the calibration dispatch
// of the precise build) on N mutants of the parent (one or two bytes replaced).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <random>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/time/time.h"
#include "corpus/corpus_dir.h"
#include "corpus/file_read.h"
#include "fuzz/gpu/gpu_executor.h"
#include "shaders/ringfuzz_wire.h"

ABSL_FLAG(std::string, target, "", "the target file (.fz), required");
ABSL_FLAG(std::string, device, "", "the device (ringfuzz -device)");
ABSL_FLAG(double, seconds, 5, "how long to measure");
ABSL_FLAG(uint32_t, max_len, 64, "the executor's max_len");
ABSL_FLAG(uint32_t, opcode, 8, "the work items' opcode");
ABSL_FLAG(uint32_t, stack, 4, "mutations stacked per mutant");
ABSL_FLAG(bool, coverage, true, "the coverage hooks");
ABSL_FLAG(bool, compares, true, "the compare hooks");
ABSL_FLAG(bool, bounds, true, "the bounds hooks");
ABSL_FLAG(bool, conditions, true, "the condition hooks");
ABSL_FLAG(bool, value_profile, false, "compare-distance features");
ABSL_FLAG(std::string, mutation, "auto", "auto, flat or branching");
ABSL_FLAG(std::string, parent, "", "the parent input (16 x 'A' if empty)");
ABSL_FLAG(std::string, parents, "",
          "a corpus directory whose inputs are the parents, slot i taking "
          "input i mod N (instead of -parent)");
ABSL_FLAG(bool, keep_going, false, "faults do not end a batch");
ABSL_FLAG(uint32_t, coherent_lanes,
          ringfuzz::GpuExecutorOptions{}.coherent_lanes,
          "GpuExecutorOptions::coherent_lanes");
ABSL_FLAG(std::string, coverage_mode, "auto", "auto, precise or signature");
ABSL_FLAG(bool, havoc_build, true, "GpuExecutorOptions::havoc_build");
ABSL_FLAG(std::string, ring_memory, "auto", "auto, host or device");
ABSL_FLAG(int64_t, slots, -1, "slots per batch (-1: the device's choice)");
ABSL_FLAG(int64_t, execs, -1, "executions per slot (-1: the device's choice)");
ABSL_FLAG(uint32_t, calibrate, 0,
          "measure ExecuteEach on N mutants instead of fuzzing");
ABSL_FLAG(std::string, deferred, "auto",
          "GpuExecutorOptions::deferred_coverage: auto, on (1) or off (0)");

namespace {

// Sets `out` to the value that `value` names among `choices`. Returns false,
// after printing the choices, for any other value.
template <typename E>
bool Choose(const char* flag, const std::string& value,
            std::initializer_list<std::pair<const char*, E>> choices, E& out) {
  std::string names;
  for (const auto& [text, choice] : choices) {
    if (value == text) {
      out = choice;
      return true;
    }
    names += names.empty() ? text : std::string(", ") + text;
  }
  std::fprintf(stderr, "-%s must be one of %s, not '%s'\n", flag, names.c_str(),
               value.c_str());
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
  absl::SetProgramUsageMessage(
      "megakernel_bench -target=FILE [flags]: raw megakernel throughput "
      "(see the top of tools/megakernel_bench.cc)");
  if (absl::ParseCommandLine(argc, argv).size() != 1) {
    std::fprintf(stderr, "megakernel_bench takes no positional arguments\n");
    return 2;
  }
  ringfuzz::GpuExecutorOptions options;
  options.target_path = absl::GetFlag(FLAGS_target);
  options.device = absl::GetFlag(FLAGS_device);
  options.max_len = absl::GetFlag(FLAGS_max_len);
  options.coverage = absl::GetFlag(FLAGS_coverage);
  options.compares = absl::GetFlag(FLAGS_compares);
  options.bounds = absl::GetFlag(FLAGS_bounds);
  options.conditions = absl::GetFlag(FLAGS_conditions);
  // -keep_going=1: faults do not end a batch (as in campaigns with
  // -keep_going=1); without it a fault-prone parent measures batch ends.
  options.keep_going = absl::GetFlag(FLAGS_keep_going);
  using Engine = ringfuzz::GpuExecutorOptions::MutationEngine;
  using Mode = ringfuzz::GpuExecutorOptions::CoverageMode;
  using RingMemory = ringfuzz::GpuExecutorOptions::RingMemory;
  using Deferred = ringfuzz::GpuExecutorOptions::DeferredCoverage;
  if (!Choose("mutation", absl::GetFlag(FLAGS_mutation),
              {{"auto", Engine::kAuto},
               {"flat", Engine::kFlat},
               {"branching", Engine::kBranching}},
              options.mutation_engine) ||
      !Choose("coverage_mode", absl::GetFlag(FLAGS_coverage_mode),
              {{"auto", Mode::kAuto},
               {"precise", Mode::kPrecise},
               {"signature", Mode::kSignature}},
              options.coverage_mode) ||
      !Choose("ring_memory", absl::GetFlag(FLAGS_ring_memory),
              {{"auto", RingMemory::kAuto},
               {"host", RingMemory::kHost},
               {"device", RingMemory::kDevice}},
              options.ring_memory) ||
      !Choose("deferred", absl::GetFlag(FLAGS_deferred),
              {{"auto", Deferred::kAuto},
               {"on", Deferred::kOn},
               {"1", Deferred::kOn},
               {"off", Deferred::kOff},
               {"0", Deferred::kOff}},
              options.deferred_coverage)) {
    return 2;
  }
  options.value_profile = absl::GetFlag(FLAGS_value_profile);
  options.havoc_build = absl::GetFlag(FLAGS_havoc_build);
  options.coherent_lanes = absl::GetFlag(FLAGS_coherent_lanes);
  const double seconds = absl::GetFlag(FLAGS_seconds);
  if (options.target_path.empty()) {
    std::fprintf(stderr,
                 "usage: megakernel_bench -target=FILE [-device=...] "
                 "[-seconds=S] [-max_len=N]\n");
    return 2;
  }
  if (!absl::GetFlag(FLAGS_parent).empty() &&
      !absl::GetFlag(FLAGS_parents).empty()) {
    std::fprintf(stderr, "error: pass -parent or -parents, not both\n");
    return 2;
  }
  auto executor = ringfuzz::GpuExecutor::Create(options);
  if (!executor.ok()) {
    std::fprintf(stderr, "error: %s\n",
                 std::string(executor.status().message()).c_str());
    return 1;
  }
  std::printf("device: %s\n", (*executor)->DeviceDescription().c_str());
  // The parents: -parents=DIR, else -parent=FILE, else 16 x 'A' (which
  // fails the bundled targets' header checks early: a shallow path). The
  // executor runs at most max_len bytes of each (AddInput truncates).
  std::vector<ringfuzz::Bytes> parents;
  if (const std::string dir = absl::GetFlag(FLAGS_parents); !dir.empty()) {
    // LoadCorpusDirs would create a missing first directory (an output
    // corpus); a bench's parents must exist.
    if (std::error_code ec; !std::filesystem::is_directory(dir, ec)) {
      std::fprintf(stderr,
                   "error: -parents=%s is not a directory: pass a corpus "
                   "directory\n",
                   dir.c_str());
      return 2;
    }
    ringfuzz::CorpusLoadReport report;
    absl::StatusOr<std::vector<ringfuzz::CorpusFile>> files =
        ringfuzz::LoadCorpusDirs({dir}, (*executor)->max_len(), &report);
    if (!files.ok()) {
      std::fprintf(stderr, "error: -parents: %s\n",
                   std::string(files.status().message()).c_str());
      return 2;
    }
    for (const std::string& warning : report.warnings) {
      std::fprintf(stderr, "warning: -parents: %s\n", warning.c_str());
    }
    for (ringfuzz::CorpusFile& file : *files) {
      parents.push_back(std::move(file.data));
    }
    if (parents.empty()) {
      std::fprintf(stderr,
                   "error: -parents=%s holds no inputs: pass a corpus "
                   "directory with at least one file\n",
                   dir.c_str());
      return 2;
    }
    std::printf("parents: %zu inputs of %s\n", parents.size(), dir.c_str());
  } else if (const std::string parent = absl::GetFlag(FLAGS_parent);
             !parent.empty()) {
    absl::StatusOr<ringfuzz::Bytes> read =
        ringfuzz::ReadFilePrefix(parent, (*executor)->max_len());
    if (!read.ok()) {
      std::fprintf(stderr, "error: -parent: %s\n",
                   std::string(read.status().message()).c_str());
      return 2;
    }
    parents.push_back(*std::move(read));
  } else {
    parents.emplace_back(16, 0x41);
  }
  for (const ringfuzz::Bytes& parent : parents) {
    if (auto added = (*executor)->AddInput(parent); !added.ok()) {
      std::fprintf(stderr, "error: %s\n",
                   std::string(added.status().message()).c_str());
      return 1;
    }
  }
  const ringfuzz::Bytes& seed = parents.front();
  if (const uint32_t n = absl::GetFlag(FLAGS_calibrate); n > 0) {
    return BenchCalibration(**executor, seed, n, seconds);
  }
  ringfuzz::BatchShape shape = (*executor)->PreferredBatch();
  if (absl::GetFlag(FLAGS_slots) >= 0) {
    shape.slots = static_cast<uint32_t>(absl::GetFlag(FLAGS_slots));
  }
  if (absl::GetFlag(FLAGS_execs) >= 0) {
    shape.execs_per_slot = static_cast<uint32_t>(absl::GetFlag(FLAGS_execs));
  }
  std::printf("batch: %u slots x %u executions; ring in %s memory\n",
              shape.slots, shape.execs_per_slot,
              (*executor)->ring_in_device_memory() ? "device" : "host");
  std::vector<ringfuzz::WorkItem> work(shape.slots);
  for (size_t i = 0; i < work.size(); ++i) {
    ringfuzz::WorkItem& item = work[i];
    item.parent = static_cast<uint32_t>(i % parents.size());
    item.partner = static_cast<uint32_t>((i + 1) % parents.size());
    item.opcode = absl::GetFlag(FLAGS_opcode);
    item.count = shape.execs_per_slot;
    item.stack = absl::GetFlag(FLAGS_stack);
  }
  // Warm-up: lavapipe compiles the pipeline on first use; keep that out.
  if (auto warm = (*executor)->RunBatch(work, 1u << 30); !warm.ok()) {
    std::fprintf(stderr, "error: %s\n",
                 std::string(warm.status().message()).c_str());
    return 1;
  }
  const double cpu_start = CpuSeconds();
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  uint64_t execs = 0, finds = 0, batches = 0;
  double elapsed = 0;
  // BatchResult::device_time: submission to completion, host clock.
  absl::Duration dispatch_time;
  // The batches' device intervals (device clock), while every batch has one.
  absl::Duration device_span;
  bool spans = true;
  while (elapsed < seconds) {
    auto r = (*executor)->RunBatch(work, batches++);
    if (!r.ok()) {
      std::fprintf(stderr, "error: %s\n",
                   std::string(r.status().message()).c_str());
      return 1;
    }
    execs += r->executions;
    finds += r->finds.size();
    dispatch_time += r->device_time;
    if (r->device_start && r->device_end) {
      device_span += *r->device_end - *r->device_start;
    } else {
      spans = false;
    }
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  const auto cov = (*executor)->Coverage();
  std::printf(
      "batches: %llu  execs: %llu  finds: %llu  cov: %llu  ft: %llu  "
      "candidates: %llu (dropped %llu)\n",
      (unsigned long long)batches, (unsigned long long)execs,
      (unsigned long long)finds, (unsigned long long)cov.blocks,
      (unsigned long long)cov.features,
      (unsigned long long)(*executor)->candidates_evaluated(),
      (unsigned long long)(*executor)->candidates_dropped());
  // CPU time of the measured loop: on lavapipe the device is this process's
  // threads, so executions per CPU-second is robust to other load.
  const double cpu = CpuSeconds() - cpu_start;
  std::printf("exec/s: %.0f  (loop cpu %.1fs, execs per cpu-second %.0f)\n",
              execs / elapsed, cpu, execs / cpu);
  std::printf("batch time: %.3f ms mean\n", 1e3 * elapsed / batches);
  // What a batch costs without the host's work between batches: its
  // dispatches from submission to completion (host clock), and where the
  // queue has timestamps their span on the device's clock.
  if (dispatch_time > absl::ZeroDuration()) {
    const double dispatch_seconds = absl::ToDoubleSeconds(dispatch_time);
    std::printf(
        "dispatch time: %.3f ms mean per batch, submission to completion; "
        "exec per dispatch-second %.0f\n",
        1e3 * dispatch_seconds / batches, execs / dispatch_seconds);
  }
  if (spans && device_span > absl::ZeroDuration()) {
    const double span_seconds = absl::ToDoubleSeconds(device_span);
    std::printf(
        "device clock: %.3f ms mean per batch, first dispatch's start to last "
        "one's end; exec per device-second %.0f\n",
        1e3 * span_seconds / batches, execs / span_seconds);
  }
  return 0;
}

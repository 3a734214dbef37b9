#include "tools/gpu_executor_factory.h"

#include <algorithm>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "fuzz/engine/engine.h"
#include "fuzz/engine/info_lines.h"
#include "fuzz/gpu/gpu_executor.h"
#include "fuzz/gpu/spirv_cache.h"

namespace ringfuzz {
namespace {

// A -1/0/1 flag (automatic, off, on) as one of GpuExecutorOptions' enums
// with kAuto, kOff and kOn.
template <typename Choice>
Choice AutoOffOn(int64_t flag) {
  return flag < 0 ? Choice::kAuto : flag == 0 ? Choice::kOff : Choice::kOn;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Executor>> MakeGpuExecutor(Config& config,
                                                          std::ostream& log) {
  if (config.target.empty()) {
    return absl::InvalidArgumentError(
        "no target: pass -target=FILE (a target in the ringfuzz dialect, "
        "e.g. -target=shaders/targets/tlv.fz; see docs/dialect.md)");
  }
  GpuExecutorOptions options;
  options.target_path = config.target;
  options.spirv_cache_dir = DefaultSpirvCacheDirectory();
  options.device = config.device;
  options.validation = config.validation;
  options.compile_timeout = absl::Seconds(config.compile_timeout);
  options.keep_going = config.keep_going;
  options.value_profile = config.use_value_profile;
  options.colorize = config.colorize;
  options.cut_slow_mutants = config.cut_slow_mutants;
  const int64_t lanes = config.coherent_lanes;
  if ((lanes & (lanes - 1)) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("-coherent_lanes=", lanes,
                     " is not a power of two; pass 0 (automatic), 1, 2, 4, "
                     "8, 16 or 32"));
  }
  if (lanes != 0) options.coherent_lanes = static_cast<uint32_t>(lanes);
  options.overlap = AutoOffOn<GpuExecutorOptions::Overlap>(config.overlap);
  options.cut_rounds = config.cut_rounds && !config.reproducible;
  options.repeat_trials = config.repeat_trials == kRepeatTrialsOn;
  options.reduce_inputs = config.reduce_inputs;
  using CoverageMode = GpuExecutorOptions::CoverageMode;
  if (config.coverage_mode.empty()) {
    options.coverage_mode = CoverageMode::kAuto;
  } else if (config.coverage_mode == "precise") {
    options.coverage_mode = CoverageMode::kPrecise;
  } else if (config.coverage_mode == "signature") {
    options.coverage_mode = CoverageMode::kSignature;
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "-coverage_mode=", config.coverage_mode,
        " is not a coverage mode: pass precise, signature or nothing "
        "(automatic)"));
  }
  options.deferred_coverage =
      AutoOffOn<GpuExecutorOptions::DeferredCoverage>(config.deferred_coverage);
  options.warm_clock =
      AutoOffOn<GpuExecutorOptions::WarmClock>(config.warm_clock);
  // The flag parser bounds max_len by kMaxLenLimit; a Config built in code
  // that does not is refused rather than wrapped to a short length.
  if (config.max_len < 0 || config.max_len > kMaxLenLimit) {
    return absl::InvalidArgumentError(
        absl::StrCat("-max_len=", config.max_len, " is outside [0, ",
                     kMaxLenLimit, "]; fix: pass a length in that range"));
  }
  options.max_len = static_cast<uint32_t>(config.max_len);
  // -loop_budget, else -timeout seconds at 10^6 loop iterations per second,
  // saturated at UINT32_MAX (never multiplied past it); the executor caps it
  // at what the device can bound (0 = its default).
  constexpr int64_t kStepsPerSecond = 1000000;
  constexpr int64_t kMaxBudget = UINT32_MAX;
  int64_t budget = config.loop_budget;
  if (budget == 0) {
    budget = config.timeout > kMaxBudget / kStepsPerSecond
                 ? kMaxBudget
                 : config.timeout * kStepsPerSecond;
  }
  options.loop_budget =
      static_cast<uint32_t>(std::clamp<int64_t>(budget, 0, kMaxBudget));
  options.memory_bound = static_cast<uint64_t>(config.gpu_memory_mb) << 20;
  options.memory_log = [&log](const std::string& line) { log << line << "\n"; };
  if (config.reproducible) {
    // lavapipe runs workgroups on a pool of threads; one thread runs them in
    // order, so the first execution to reach new coverage is always the same.
    setenv("LP_NUM_THREADS", "1", 1);
  }
  absl::StatusOr<std::unique_ptr<GpuExecutor>> executor =
      GpuExecutor::Create(options);
  if (!executor.ok()) return executor.status();
  const GpuExecutor& gpu = **executor;
  log << "INFO: device: " << gpu.DeviceDescription() << "\n";
  log << "INFO: target " << config.target << ": "
      << gpu.kernel().module.sites.size() << " blocks, "
      << gpu.kernel().module.loops << " loops instrumented; max_len "
      << gpu.max_len() << ", " << gpu.exec_steps()
      << " loop steps per execution\n";
  if (gpu.deferred_coverage()) {
    log << "INFO: coverage of precise runs marked at the end of each "
           "execution ("
        << gpu.kernel().static_edges << " static edges)\n";
  } else if (!gpu.deferred_coverage_refusal().empty()) {
    log << "INFO: coverage of precise runs marked as it goes ("
        << gpu.deferred_coverage_refusal() << ")\n";
  }
  log << "INFO: coverage mode: "
      << (gpu.signature_mode()
              ? "signature (an unseen signature is re-run on the precise "
                "build)"
              : "precise")
      << (config.coverage_mode.empty() ? " (automatic)" : "") << "\n";
  log << LoadedModulesLine(gpu.kernel().module.sites.size()) << "\n";
  log << "INFO: " << gpu.MemoryLine() << "\n";
  if (gpu.clock_warm_time() > absl::ZeroDuration()) {
    log << "INFO: the device was kept busy for "
        << absl::ToInt64Milliseconds(gpu.clock_warm_time())
        << " ms while the target was built, to raise its clock (-warm_clock)\n";
  }
  const BatchShape shape = gpu.PreferredBatch();
  // Automatic -slot_execs: the engine sizes rounds by time, up to the
  // device's preferred shape (fuzz/engine/config.h); not when the run must be
  // reproducible, since time is not.
  config.adaptive_rounds = config.slot_execs == 0 && !config.reproducible;
  if (config.reproducible && !gpu.device_info().is_cpu) {
    log << "WARNING: -reproducible=1 on a GPU: rounds have a fixed size, but "
           "which of two mutants reaching the same new coverage in one round "
           "is kept depends on the GPU's scheduling, so runs may differ\n";
  }
  if (config.round_ms == 0) {
    config.paced_rounds = !gpu.device_info().is_cpu && gpu.overlap() > 1;
    config.round_ms =
        absl::ToInt64Milliseconds(gpu.device_info().is_cpu ? kCpuRoundTime
                                  : gpu.overlap() > 1 ? kOverlappedRoundTime
                                                      : kGpuRoundTime);
  }
  if (config.batch_slots == 0) config.batch_slots = shape.slots;
  if (config.slot_execs == 0) config.slot_execs = shape.execs_per_slot;
  return std::unique_ptr<Executor>(*std::move(executor));
}

}  // namespace ringfuzz

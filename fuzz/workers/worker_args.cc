#include "fuzz/workers/worker_args.h"

#include "absl/strings/str_cat.h"

namespace ringfuzz {
namespace {

// The flags WorkerArgs replaces by the worker's own values.
bool SetPerWorker(const std::string& name) {
  for (const char* flag :
       {"devices", "device", "seed", "runs", "exact_artifact_path",
        "telemetry_out", "dump_buffers", "report", "coverage_report",
        "print_final_stats"}) {
    if (name == flag) return true;
  }
  return false;
}

std::vector<std::string> Without(absl::Span<const std::string> args,
                                 bool (*drop)(const std::string& name)) {
  std::vector<std::string> kept;
  for (const std::string& arg : args) {
    if (!drop(FlagName(arg))) kept.push_back(arg);
  }
  return kept;
}

}  // namespace

std::string FlagName(const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-' || arg[1] == '-') return "";
  return arg.substr(1, arg.find('=') == std::string::npos ? std::string::npos
                                                          : arg.find('=') - 1);
}

std::string WorkerPath(const std::string& path, size_t worker) {
  return absl::StrCat(path, ".", worker);
}

std::vector<WorkerSpec> PlanWorkers(const Config& config,
                                    absl::Span<const uint32_t> devices,
                                    uint64_t seed) {
  std::vector<WorkerSpec> specs;
  const uint64_t n = devices.size();
  for (size_t i = 0; i < n; ++i) {
    WorkerSpec spec;
    spec.worker = i;
    spec.device_index = devices[i];
    spec.seed = seed + i;
    if (spec.seed == 0) spec.seed = 1;  // 0 asks the worker to derive one
    if (config.runs >= 0) {
      const uint64_t runs = static_cast<uint64_t>(config.runs);
      spec.runs = static_cast<int64_t>(runs / n + (i < runs % n ? 1 : 0));
    }
    auto own = [i](const std::string& path) {
      return path.empty() ? path : WorkerPath(path, i);
    };
    spec.exact_artifact_path = own(config.exact_artifact_path);
    spec.telemetry_out = own(config.telemetry_out);
    spec.dump_buffers = own(config.dump_buffers);
    spec.report = own(config.report);
    spec.coverage_report = own(config.coverage_report);
    specs.push_back(std::move(spec));
  }
  return specs;
}

std::vector<std::string> WorkerArgs(absl::Span<const std::string> args,
                                    const WorkerSpec& spec) {
  std::vector<std::string> out = {absl::StrCat("-device=", spec.device_index),
                                  absl::StrCat("-seed=", spec.seed)};
  if (spec.runs >= 0) out.push_back(absl::StrCat("-runs=", spec.runs));
  out.push_back("-print_final_stats=1");
  for (auto [flag, value] :
       {std::pair{"exact_artifact_path", &spec.exact_artifact_path},
        std::pair{"telemetry_out", &spec.telemetry_out},
        std::pair{"dump_buffers", &spec.dump_buffers},
        std::pair{"report", &spec.report},
        std::pair{"coverage_report", &spec.coverage_report}}) {
    if (!value->empty()) out.push_back(absl::StrCat("-", flag, "=", *value));
  }
  for (std::string& arg : Without(args, SetPerWorker)) {
    out.push_back(std::move(arg));
  }
  return out;
}

std::vector<std::string> SingleDeviceArgs(absl::Span<const std::string> args,
                                          uint32_t device_index) {
  std::vector<std::string> out = {absl::StrCat("-device=", device_index)};
  for (std::string& arg : Without(args, [](const std::string& name) {
         return name == "devices" || name == "device";
       })) {
    out.push_back(std::move(arg));
  }
  return out;
}

}  // namespace ringfuzz

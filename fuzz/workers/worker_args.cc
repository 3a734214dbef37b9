#include "fuzz/workers/worker_args.h"

#include <algorithm>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

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

// A tenant's worker also replaces these, and the positional arguments.
bool SetPerTenant(const std::string& name) {
  return SetPerWorker(name) || name == "target" || name == "artifact_prefix";
}

// A positional argument, as ParseCommandLine tells them from flags.
bool IsPositional(const std::string& arg) {
  return arg.size() < 2 || arg[0] != '-';
}

std::vector<std::string> Without(absl::Span<const std::string> args,
                                 bool (*drop)(const std::string& name),
                                 bool drop_positional = false) {
  std::vector<std::string> kept;
  for (const std::string& arg : args) {
    if (drop(FlagName(arg))) continue;
    if (drop_positional && IsPositional(arg)) continue;
    kept.push_back(arg);
  }
  return kept;
}

// "dir/a.fz" -> "a".
std::string TargetName(const std::string& target) {
  const size_t slash = target.rfind('/');
  std::string name =
      slash == std::string::npos ? target : target.substr(slash + 1);
  if (absl::EndsWith(name, ".fz")) name.resize(name.size() - 3);
  return name;
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

absl::StatusOr<std::vector<Tenant>> PlanTenants(
    const Config& config, absl::Span<const std::string> targets,
    absl::Span<const std::string> dirs) {
  if (dirs.size() != targets.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        targets.size(), " targets need ", targets.size(),
        " corpus directories, one each in the order of the -target flags "
        "(",
        dirs.size(), " given), e.g. ringfuzz -target=a.fz -target=b.fz ",
        "CORPUS_A CORPUS_B"));
  }
  std::vector<Tenant> tenants;
  std::set<std::string> names;
  for (size_t i = 0; i < targets.size(); ++i) {
    Tenant tenant;
    tenant.target = targets[i];
    tenant.corpus_dir = dirs[i];
    tenant.name = TargetName(targets[i]);
    tenant.artifact_prefix =
        absl::StrCat(config.artifact_prefix, tenant.name, "-");
    if (tenant.name.empty() || !names.insert(tenant.name).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the targets ", absl::StrJoin(targets, ", "),
          " do not all have their own file name, which names each one's "
          "artifacts and status lines; fuzz targets with one name in "
          "separate campaigns, or copy one under another name"));
    }
    tenants.push_back(std::move(tenant));
  }
  return tenants;
}

std::vector<WorkerSpec> PlanWorkers(const Config& config,
                                    absl::Span<const uint32_t> devices,
                                    uint64_t seed,
                                    absl::Span<const Tenant> tenants) {
  std::vector<WorkerSpec> specs;
  const uint64_t n = devices.size();
  const size_t tenant_count = std::max<size_t>(1, tenants.size());
  for (size_t i = 0; i < n * tenant_count; ++i) {
    const size_t d = i % n;  // the device entry, and the share of -runs
    WorkerSpec spec;
    spec.worker = i;
    spec.tenant = i / n;
    spec.device_index = devices[d];
    spec.seed = seed + i;
    if (spec.seed == 0) spec.seed = 1;  // 0 asks the worker to derive one
    if (config.runs >= 0) {
      const uint64_t runs = static_cast<uint64_t>(config.runs);
      spec.runs = static_cast<int64_t>(runs / n + (d < runs % n ? 1 : 0));
    }
    if (!tenants.empty()) {
      const Tenant& tenant = tenants[spec.tenant];
      spec.target = tenant.target;
      spec.corpus_dir = tenant.corpus_dir;
      spec.artifact_prefix = tenant.artifact_prefix;
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
  const bool tenant = !spec.target.empty();
  if (tenant) {
    out.push_back(absl::StrCat("-target=", spec.target));
    out.push_back(absl::StrCat("-artifact_prefix=", spec.artifact_prefix));
    out.push_back(spec.corpus_dir);
  }
  for (std::string& arg : tenant ? Without(args, SetPerTenant, true)
                                 : Without(args, SetPerWorker)) {
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

// The command lines of a multi-device campaign's workers (fuzz/
// multi_device.h): each worker is the campaign's own command with a few
// flags of its own. Pure functions of the command line, so they are tested
// without processes.
#ifndef RINGFUZZ_FUZZ_WORKERS_WORKER_ARGS_H_
#define RINGFUZZ_FUZZ_WORKERS_WORKER_ARGS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "fuzz/engine/config.h"

namespace ringfuzz {

// One target of a campaign of several (-target given more than once): the
// target, the corpus directory its workers save into and share, and the
// -artifact_prefix of its bugs.
struct Tenant {
  std::string target;
  std::string corpus_dir;
  std::string artifact_prefix;
  std::string name;  // the target's file name without ".fz"
};

// The tenants of a campaign with the -target values `targets` (two or more)
// and the corpus directories `dirs` (the positional arguments): tenant i
// fuzzes targets[i] into dirs[i], and its artifacts are named
// <-artifact_prefix><name>-crash-<sha1> (so one directory can hold every
// tenant's). InvalidArgument, with the fix, when the number of directories
// is not the number of targets or two targets have one file name.
absl::StatusOr<std::vector<Tenant>> PlanTenants(
    const Config& config, absl::Span<const std::string> targets,
    absl::Span<const std::string> dirs);

// What differs between a worker's command line and the campaign's.
struct WorkerSpec {
  size_t worker = 0;          // 0 .. workers - 1
  size_t tenant = 0;          // index into the campaign's tenants (0 if none)
  uint32_t device_index = 0;  // -device=N
  uint64_t seed = 0;          // -seed
  int64_t runs = -1;          // its share of -runs (-1 = unlimited)
  // The campaign's per-process output paths, each made the worker's own
  // with WorkerPath ("" where the campaign gives none): two processes
  // writing one file would clobber each other.
  std::string exact_artifact_path;
  std::string telemetry_out;
  std::string dump_buffers;
  std::string report;
  std::string coverage_report;
  // A tenant's worker: its target, its only corpus directory and its
  // -artifact_prefix, replacing the campaign's -target flags, positional
  // arguments and -artifact_prefix ("" = the campaign's, unchanged).
  std::string target;
  std::string corpus_dir;
  std::string artifact_prefix;
};

// Returns `path` with ".<worker>" appended: the worker's own copy of a
// per-process output file or directory.
std::string WorkerPath(const std::string& path, size_t worker);

// Returns the specs of one worker per entry of `devices` (device indices,
// ResolveDeviceList's) for the campaign `config`, and with `tenants`, one
// per entry of `devices` for each tenant (tenant t's on device entry d is
// worker t * devices.size() + d): worker i gets seed `seed` + i (never 0,
// which would mean "derive one"), an equal share of config.runs among its
// tenant's workers (the first config.runs % n get one more, so the shares
// add up to config.runs exactly for each tenant; -1 stays -1 for all), the
// per-process paths of `config` made its own, and its tenant's target,
// corpus directory and artifact prefix.
std::vector<WorkerSpec> PlanWorkers(const Config& config,
                                    absl::Span<const uint32_t> devices,
                                    uint64_t seed,
                                    absl::Span<const Tenant> tenants = {});

// Returns the worker's command line (without the program): `args`, the
// campaign's, without the flags that WorkerSpec sets (-devices, -device,
// -seed, -runs, -exact_artifact_path, -telemetry_out, -dump_buffers,
// -report, -coverage_report, -print_final_stats; for a tenant's worker also
// -target, -artifact_prefix and the positional arguments), preceded by the
// worker's values of them (-runs only where it has a share; a tenant's
// corpus directory last). Its own come first because
// -ignore_remaining_args ignores whatever follows it.
// -print_final_stats=1 is always set: the campaign reads the workers' totals
// from their stat:: lines.
std::vector<std::string> WorkerArgs(absl::Span<const std::string> args,
                                    const WorkerSpec& spec);

// Returns `args` without -devices and with -device=`device_index` first:
// the command line of a campaign run in this process on one device.
std::vector<std::string> SingleDeviceArgs(absl::Span<const std::string> args,
                                          uint32_t device_index);

// The flag name of a command-line argument ("runs" for "-runs=5" and
// "-runs"); "" for positional arguments and those starting with "--".
std::string FlagName(const std::string& arg);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_WORKERS_WORKER_ARGS_H_

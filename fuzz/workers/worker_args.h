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

#include "absl/types/span.h"
#include "fuzz/engine/config.h"

namespace ringfuzz {

// What differs between a worker's command line and the campaign's.
struct WorkerSpec {
  size_t worker = 0;          // 0 .. workers - 1
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
};

// Returns `path` with ".<worker>" appended: the worker's own copy of a
// per-process output file or directory.
std::string WorkerPath(const std::string& path, size_t worker);

// Returns the specs of one worker per entry of `devices` (device indices,
// ResolveDeviceList's) for the campaign `config`: worker i gets seed
// `seed` + i (never 0, which would mean "derive one"), an equal share of
// config.runs (the first config.runs % n get one more, so the shares add
// up to config.runs exactly; -1 stays -1 for all), and the per-process
// paths of `config` made its own.
std::vector<WorkerSpec> PlanWorkers(const Config& config,
                                    absl::Span<const uint32_t> devices,
                                    uint64_t seed);

// Returns the worker's command line (without the program): `args`, the
// campaign's, without the flags that WorkerSpec sets (-devices, -device,
// -seed, -runs, -exact_artifact_path, -telemetry_out, -dump_buffers,
// -report, -coverage_report, -print_final_stats), preceded by the
// worker's values of them (-runs only where it has a share). Its flags come
// first because -ignore_remaining_args ignores whatever follows it.
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

// One campaign over several devices (-devices=all|LIST) or several targets
// (-target=A -target=B ...): a parent process that starts one worker
// ringfuzz per device and target and supervises them.
//
// The workers are ordinary single-device campaigns (-device=N) on one
// corpus directory, the first of the command line, and they share their
// finds through it as libFuzzer's -jobs and AFL++'s sync directories do:
// each saves its new inputs there as <sha1> (so an input two workers find
// is one file) and runs what the others saved every -reload seconds,
// keeping what adds to its own coverage (fuzz/engine/engine.h). Processes
// rather than one process with a ring per device: each worker is the tested
// single-device engine unchanged, a device that hangs or is lost takes
// only its own worker down, and it runs the same on 2 GPUs or 8, or as two
// processes on one device (how it is tested on lavapipe).
//
// Several targets (-target given more than once, "tenants"): each target
// gets its own workers (one per device; without -devices, one on the
// device -device selects, as a campaign in one process would), its own corpus
// directory (the positional arguments, one per target in order) and its
// own artifacts (<-artifact_prefix><name>-crash-...). Workers of different
// targets share nothing but the devices. The device's time is shared the
// way the GPU driver shares it between processes (time slices) and, on
// lavapipe, the way the kernel shares the CPU (each worker gets its share
// of the cores), so a slow target cannot take a fast one's turn; each
// worker sizes its rounds by the time they take, so a shared device gives
// each tenant short rounds. Processes rather than tenants of one megakernel
// for the reasons above: every tenant is the tested single-target engine,
// and a target that hangs or fails takes only its own worker down.
//
// The parent:
//  * resolves the list (runtime/device_list.h; an entry that names no
//    device is an error listing the devices), and with one device fuzzes
//    in this process instead (no workers);
//  * gives worker i -device=<index>, -seed=<seed + i>, its share of -runs
//    (the shares add up to -runs, which so bounds the whole campaign),
//    its own copy of each per-process output (-exact_artifact_path,
//    -telemetry_out, -dump_buffers, -report, -coverage_report get ".<i>";
//    fuzz/workers/worker_args.h), and its log fuzz-<i>.log in the current
//    directory (libFuzzer's -jobs names); lavapipe workers that share the
//    CPU share its cores (LP_NUM_THREADS), unless the environment says;
//  * prints a status line every 10 s (the workers' runs and exec/s summed,
//    the best worker's cov and ft, the files in the corpus directory), one
//    per target when there are several;
//  * passes SIGINT/SIGTERM on to the workers once (they run in their own
//    process group, so a terminal's Ctrl-C reaches only the parent), waits
//    until each has saved what it found, and exits -interrupted_exitcode;
//    a second signal ends the parent at once, and its workers with it;
//  * when a worker reports a bug (exit -error_exitcode or
//    -timeout_exitcode; without -keep_going), stops the others, copies
//    that worker's bug report into its own log (once, whoever else found
//    the bug meanwhile) and exits with the worker's code; the artifact is
//    that worker's (with -exact_artifact_path, its copy is renamed to the
//    path given); a worker that fails (exit 1, a signal) stops the others
//    too and the parent exits 1, naming the worker, its error and its log;
//  * bounds the campaign by -max_total_time as the workers do (each counts
//    from its own start), and stops any worker still running
//    -compile_timeout + 60 s after that;
//  * with -print_final_stats=1 prints libFuzzer's stat:: lines for the
//    whole campaign (executions, exec/s and new units summed over the
//    workers), and stat::reloaded_units, the inputs workers took from
//    each other.
#ifndef RINGFUZZ_FUZZ_WORKERS_MULTI_DEVICE_H_
#define RINGFUZZ_FUZZ_WORKERS_MULTI_DEVICE_H_

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "fuzz/engine/config.h"
#include "fuzz/engine/flag_parser.h"
#include "runtime/device_info.h"

namespace ringfuzz {

struct MultiDeviceOptions {
  // Lists the host's devices; ListVulkanDevices when unset.
  std::function<absl::StatusOr<std::vector<vk::PhysicalDeviceInfo>>()>
      list_devices;
  // The program each worker runs; this one (SelfExecutable) when empty.
  std::string program;
  // Where fuzz-<i>.log go; "" = the current directory.
  std::string log_dir;
  // Runs a campaign in this process with the command line given (-devices
  // replaced by -device=N): used for a list of one device, and to run
  // input files. Required.
  std::function<int(const std::vector<std::string>& args)> run_in_process;
  absl::Duration status_interval = absl::Seconds(10);
  absl::Duration poll_interval = absl::Milliseconds(50);
  // How long workers may take to stop once asked before they are killed.
  absl::Duration stop_grace = absl::Minutes(5);
};

// The devices of this host, as Vulkan enumerates them.
absl::StatusOr<std::vector<vk::PhysicalDeviceInfo>> ListVulkanDevices();

// Runs the campaign that `args` (the whole command line, without the
// program name) asks for with -devices or several -target flags; `parsed`
// is its parse. Returns the process exit code (see the file comment);
// errors in the command line or the device list print "ERROR: ..." to `out`
// and return 1.
int RunMultiDevice(absl::Span<const std::string> args,
                   const ParsedCommandLine& parsed,
                   const MultiDeviceOptions& options, std::ostream& out);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_WORKERS_MULTI_DEVICE_H_

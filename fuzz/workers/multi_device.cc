#include "fuzz/workers/multi_device.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "corpus/corpus_dir.h"
#include "corpus/corpus_reload.h"
#include "corpus/work_dir.h"
#include "fuzz/engine/child_process.h"
#include "fuzz/engine/engine.h"
#include "fuzz/engine/interrupt.h"
#include "fuzz/workers/worker_args.h"
#include "fuzz/workers/worker_log.h"
#include "fuzz/workers/worker_process.h"
#include "runtime/device_info.h"
#include "runtime/device_list.h"
#include "runtime/instance.h"

namespace ringfuzz {
namespace {

// The most of a worker's log read back: its end, where the status, the
// bug report and the stats are.
constexpr size_t kStatusTail = size_t{64} << 10;
constexpr size_t kFinalTail = size_t{8} << 20;
// Beyond -max_total_time (and the build of the pipelines) a worker may run
// this long before the parent stops it.
constexpr absl::Duration kDeadlineSlack = absl::Seconds(60);

bool AllRegularFiles(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  }
  return !paths.empty();
}

// The last `limit` bytes of the file at `path` ("" if it cannot be read).
std::string ReadTail(const std::string& path, size_t limit) {
  std::string text;
  FILE* file = fopen(path.c_str(), "rb");
  if (file == nullptr) return text;
  if (fseek(file, 0, SEEK_END) == 0) {
    const long size = ftell(file);
    const long start =
        size > static_cast<long>(limit) ? size - static_cast<long>(limit) : 0;
    if (size > 0 && fseek(file, start, SEEK_SET) == 0) {
      text.resize(static_cast<size_t>(size - start));
      text.resize(fread(text.data(), 1, text.size(), file));
    }
  }
  fclose(file);
  return text;
}

// Corpus inputs directly in `dir`: what the workers share.
size_t CountCorpusFiles(const std::string& dir) {
  size_t n = 0;
  DIR* listing = opendir(dir.c_str());
  if (listing == nullptr) return 0;
  while (const struct dirent* entry = readdir(listing)) {
    const std::string name = entry->d_name;
    if (name.empty() || name[0] == '.' || IsArtifactName(name)) continue;
    n += entry->d_type == DT_REG || entry->d_type == DT_UNKNOWN;
  }
  closedir(listing);
  return n;
}

std::string Stat(const std::string& name, uint64_t value) {
  return absl::StrFormat("%-32s%d\n", absl::StrCat("stat::", name, ":"), value);
}

class Campaign {
 public:
  // `tenants`: the campaign's targets, each with the corpus directory its
  // workers share (WorkerSpec::tenant indexes it); a campaign of one target
  // has one tenant without a name, and its lines name none.
  Campaign(absl::Span<const std::string> args, const Config& config,
           std::vector<Tenant> tenants, const MultiDeviceOptions& options,
           std::ostream& out)
      : args_(args.begin(), args.end()),
        config_(config),
        tenants_(std::move(tenants)),
        options_(options),
        out_(out) {}

  // Starts a worker per spec; false (and the error printed) if one could
  // not be started (those already started are killed).
  bool Start(const std::vector<WorkerSpec>& specs,
             const std::vector<vk::PhysicalDeviceInfo>& devices);
  // Waits for every worker, passing signals on and stopping the others
  // when one reports a bug or fails.
  void Supervise();
  // Reports the outcome; returns the exit code.
  int Finish();

 private:
  struct Worker {
    WorkerSpec spec;
    std::string device;  // its description
    std::optional<WorkerProcess> process;
    bool exit_seen = false;
  };
  absl::Duration Now() const {
    return absl::FromChrono(
        std::chrono::steady_clock::now().time_since_epoch());
  }
  std::string LogPath(size_t i) const {
    return JoinPath(options_.log_dir, absl::StrCat("fuzz-", i, ".log"));
  }
  const Tenant& TenantOf(size_t i) const {
    return tenants_[workers_[i].spec.tenant];
  }
  // "worker 3", and for a named tenant's worker "worker 3 (name)".
  std::string Who(size_t i) const {
    const std::string& name = TenantOf(i).name;
    return name.empty() ? absl::StrCat("worker ", i)
                        : absl::StrCat("worker ", i, " (", name, ")");
  }
  bool IsBugCode(int code) const {
    return code != 0 &&
           (code == config_.error_exitcode || code == config_.timeout_exitcode);
  }
  // Asks every running worker to stop with `signal_number`.
  void StopAll(int signal_number);
  void OnExit(size_t i, int code);
  // One status line per tenant (its workers' runs and rates summed).
  void PrintStatus();
  // The environment of a worker on `device` (LP_NUM_THREADS for lavapipe
  // workers that share the CPU).
  std::vector<std::pair<std::string, std::string>> WorkerEnv(
      const vk::PhysicalDeviceInfo& device, size_t sharing) const;
  // Renames the bug worker's copy of -exact_artifact_path to the path
  // given, and says so in `report`.
  void ClaimExactArtifact(const WorkerLog& log, std::string& report);

  std::vector<std::string> args_;
  const Config& config_;
  std::vector<Tenant> tenants_;
  const MultiDeviceOptions& options_;
  std::ostream& out_;
  std::vector<Worker> workers_;
  absl::Duration started_;
  bool stopping_ = false;
  absl::Duration stop_sent_;
  bool killed_ = false;
  bool interrupted_ = false;
  std::optional<size_t> bug_worker_;     // the first to report a bug
  std::optional<size_t> failed_worker_;  // the first to fail
};

std::vector<std::pair<std::string, std::string>> Campaign::WorkerEnv(
    const vk::PhysicalDeviceInfo& device, size_t sharing) const {
  if (!device.is_cpu || sharing < 2 || getenv("LP_NUM_THREADS") != nullptr) {
    return {};
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return {
      {"LP_NUM_THREADS", absl::StrCat(std::max<size_t>(1, cores / sharing))}};
}

bool Campaign::Start(const std::vector<WorkerSpec>& specs,
                     const std::vector<vk::PhysicalDeviceInfo>& devices) {
  std::map<uint32_t, size_t> sharing;  // workers per device
  for (const WorkerSpec& spec : specs) ++sharing[spec.device_index];
  const std::string program =
      options_.program.empty() ? SelfExecutable() : options_.program;
  if (program.empty()) {
    out_ << "ERROR: cannot find this program's path (/proc/self/exe) to "
            "start the workers; run ringfuzz from a Linux /proc system\n";
    return false;
  }
  started_ = Now();
  for (const WorkerSpec& spec : specs) {
    const vk::PhysicalDeviceInfo* device = nullptr;
    for (const vk::PhysicalDeviceInfo& d : devices) {
      if (d.index == spec.device_index) device = &d;
    }
    Worker worker;
    worker.spec = spec;
    worker.device = device != nullptr ? vk::Describe(*device) : "";
    const std::vector<std::string> args = WorkerArgs(args_, spec);
    const std::vector<std::pair<std::string, std::string>> env =
        device != nullptr ? WorkerEnv(*device, sharing[spec.device_index])
                          : std::vector<std::pair<std::string, std::string>>{};
    absl::StatusOr<WorkerProcess> process =
        WorkerProcess::Start(program, args, LogPath(spec.worker), env);
    if (!process.ok()) {
      out_ << "ERROR: " << process.status().message() << "\n";
      workers_.clear();  // kills the workers already started
      return false;
    }
    if (config_.verbosity >= 1) {
      out_ << "INFO: worker " << spec.worker;
      if (!spec.target.empty()) out_ << " (target " << spec.target << ")";
      out_ << " on device " << spec.device_index << " (" << worker.device
           << "), seed " << spec.seed << ", pid " << process->pid() << ": ";
      for (const auto& [name, value] : env) out_ << name << "=" << value << " ";
      out_ << program << " " << absl::StrJoin(args, " ") << " > "
           << LogPath(spec.worker) << " 2>&1\n";
    }
    worker.process = *std::move(process);
    workers_.push_back(std::move(worker));
  }
  return true;
}

void Campaign::StopAll(int signal_number) {
  for (Worker& worker : workers_) worker.process->Signal(signal_number);
  if (!stopping_) stop_sent_ = Now();
  stopping_ = true;
}

void Campaign::OnExit(size_t i, int code) {
  Worker& worker = workers_[i];
  worker.exit_seen = true;
  if (IsBugCode(code)) {
    if (!bug_worker_) bug_worker_ = i;
    if (!config_.keep_going && !stopping_) {
      out_ << "INFO: " << Who(i) << " found a bug (exit " << code
           << "); stopping the other workers\n";
      StopAll(SIGTERM);
    }
    return;
  }
  const bool stopped = code == config_.interrupted_exitcode;
  if (code == 0 || (stopped && stopping_)) return;
  if (stopped) {
    // Someone signalled this worker alone: the others go on.
    out_ << "INFO: " << Who(i) << " was interrupted (exit " << code
         << "); the other workers go on\n";
    return;
  }
  if (!failed_worker_) failed_worker_ = i;
  if (!stopping_) {
    out_ << "INFO: " << Who(i) << " failed (exit " << code
         << "); stopping the other workers\n";
    StopAll(SIGTERM);
  }
}

void Campaign::Supervise() {
  const absl::Duration compile = config_.compile_timeout > 0
                                     ? absl::Seconds(config_.compile_timeout)
                                     : absl::Seconds(300);
  const std::optional<absl::Duration> deadline =
      config_.max_total_time > 0
          ? std::optional(started_ + absl::Seconds(config_.max_total_time) +
                          compile + kDeadlineSlack)
          : std::nullopt;
  absl::Duration last_status = Now();
  while (true) {
    bool running = false;
    for (size_t i = 0; i < workers_.size(); ++i) {
      std::optional<int> code = workers_[i].process->Poll();
      if (code && !workers_[i].exit_seen) OnExit(i, *code);
      running |= !code.has_value();
    }
    if (!running) return;
    const absl::Duration now = Now();
    if (Interrupted() && !interrupted_) {
      interrupted_ = true;
      out_ << "INFO: passing "
           << (InterruptSignal() == SIGINT ? "SIGINT" : "SIGTERM")
           << " on to the workers; waiting until each has saved what it "
              "found\n";
      StopAll(InterruptSignal());
    }
    if (deadline && now >= *deadline && !stopping_) {
      out_ << "WARNING: workers are still running "
           << absl::FormatDuration(now - started_)
           << " after the start, past -max_total_time="
           << config_.max_total_time
           << " and the pipelines' build; stopping them\n";
      StopAll(SIGTERM);
    }
    if (stopping_ && !killed_ && now - stop_sent_ >= options_.stop_grace) {
      out_ << "WARNING: workers did not stop within "
           << absl::FormatDuration(options_.stop_grace)
           << " of being asked; killing them (SIGKILL)\n";
      for (Worker& worker : workers_) worker.process->Signal(SIGKILL);
      killed_ = true;
    }
    if (now - last_status >= options_.status_interval) {
      PrintStatus();
      last_status = now;
    }
    absl::SleepFor(options_.poll_interval);
  }
}

void Campaign::PrintStatus() {
  if (config_.verbosity < 1) return;
  for (size_t t = 0; t < tenants_.size(); ++t) {
    uint64_t runs = 0, rate = 0, cov = 0, ft = 0;
    size_t running = 0, workers = 0;
    for (const Worker& worker : workers_) {
      if (worker.spec.tenant != t) continue;
      ++workers;
      running += worker.process->running();
      const WorkerLog log =
          ParseWorkerLog(ReadTail(worker.process->log_path(), kStatusTail));
      if (!log.status) continue;
      runs += log.status->runs;
      if (worker.process->running()) rate += log.status->exec_per_sec;
      cov = std::max(cov, log.status->cov);
      ft = std::max(ft, log.status->ft);
    }
    const Tenant& tenant = tenants_[t];
    out_ << "INFO: "
         << (tenant.name.empty() ? ""
                                 : absl::StrCat("tenant ", tenant.name, ": "))
         << "workers " << running << "/" << workers << " running: #" << runs
         << " runs, cov: " << cov << " ft: " << ft << " (best worker), "
         << CountCorpusFiles(tenant.corpus_dir)
         << " corpus files, exec/s: " << rate << " (all workers), "
         << absl::ToInt64Seconds(Now() - started_) << " s\n";
  }
}

void Campaign::ClaimExactArtifact(const WorkerLog& log, std::string& report) {
  if (config_.exact_artifact_path.empty() || log.artifact.empty()) return;
  if (rename(log.artifact.c_str(), config_.exact_artifact_path.c_str()) != 0) {
    return;  // the worker's path stays right
  }
  const std::string from = absl::StrCat("Test unit written to ", log.artifact);
  const size_t at = report.find(from);
  if (at != std::string::npos) {
    report.replace(
        at, from.size(),
        absl::StrCat("Test unit written to ", config_.exact_artifact_path));
  }
}

int Campaign::Finish() {
  std::vector<WorkerLog> logs;
  std::map<std::string, uint64_t> totals;
  uint64_t peak_rss = 0;
  for (size_t i = 0; i < workers_.size(); ++i) {
    const Worker& worker = workers_[i];
    logs.push_back(ParseWorkerLog(ReadTail(LogPath(i), kFinalTail)));
    const WorkerLog& log = logs.back();
    for (const char* stat : {"number_of_executed_units", "average_exec_per_sec",
                             "new_units_added", "reloaded_units"}) {
      auto it = log.stats.find(stat);
      if (it != log.stats.end()) totals[stat] += it->second;
    }
    if (auto it = log.stats.find("peak_rss_mb"); it != log.stats.end()) {
      peak_rss = std::max(peak_rss, it->second);
    }
    if (config_.verbosity >= 1) {
      auto stat = [&log](const char* name) {
        auto it = log.stats.find(name);
        return it == log.stats.end() ? uint64_t{0} : it->second;
      };
      out_ << "INFO: worker " << i << " (";
      if (!TenantOf(i).name.empty()) out_ << TenantOf(i).name << ", ";
      out_ << "device " << worker.spec.device_index << ") exited "
           << *worker.process->exit_code() << ": "
           << stat("number_of_executed_units") << " runs, "
           << stat("new_units_added") << " new inputs, "
           << stat("reloaded_units") << " taken from other workers; log "
           << LogPath(i) << "\n";
    }
  }
  int code = 0;
  if (bug_worker_) {
    const WorkerLog& log = logs[*bug_worker_];
    code = *workers_[*bug_worker_].process->exit_code();
    if (config_.keep_going) {
      for (size_t i = 0; i < workers_.size(); ++i) {
        for (const std::string& artifact : logs[i].artifacts) {
          out_ << "INFO: " << Who(i) << " reported a bug; artifact " << artifact
               << " (see " << LogPath(i) << ")\n";
        }
      }
    } else {
      std::string report = log.bug_report;
      ClaimExactArtifact(log, report);
      out_ << "INFO: " << Who(*bug_worker_) << " reported the bug ("
           << LogPath(*bug_worker_) << "):\n"
           << (report.empty() ? "(no report in its log)\n" : report);
      // Workers that found a bug of their own before they were stopped.
      for (size_t i = 0; i < workers_.size(); ++i) {
        if (i == *bug_worker_ || logs[i].artifact.empty()) continue;
        out_ << "INFO: " << Who(i) << " also found a bug before it "
             << "stopped; artifact " << logs[i].artifact << " (see "
             << LogPath(i) << ")\n";
      }
    }
  } else if (failed_worker_) {
    const size_t i = *failed_worker_;
    out_ << "ERROR: " << Who(i) << " on device "
         << workers_[i].spec.device_index << " failed with exit "
         << *workers_[i].process->exit_code() << ": "
         << (logs[i].error.empty() ? "see its log" : logs[i].error) << " ("
         << LogPath(i) << "); every input found so far is saved in "
         << (tenants_.size() == 1 ? tenants_[0].corpus_dir
                                  : "each tenant's corpus directory")
         << "\n";
    code = kErrorExit;
  } else if (interrupted_) {
    out_ << "==" << getpid() << "== libFuzzer: run interrupted; exiting\n";
    code = static_cast<int>(config_.interrupted_exitcode);
  }
  for (const Tenant& tenant : tenants_) {
    if (config_.verbosity < 1) break;
    out_ << "INFO: "
         << (tenant.name.empty()
                 ? "the campaign's corpus"
                 : absl::StrCat("tenant ", tenant.name, "'s corpus"))
         << ": " << CountCorpusFiles(tenant.corpus_dir) << " files in "
         << tenant.corpus_dir << "\n";
  }
  if (config_.print_final_stats) {
    out_ << Stat("number_of_executed_units", totals["number_of_executed_units"])
         << Stat("average_exec_per_sec", totals["average_exec_per_sec"])
         << Stat("new_units_added", totals["new_units_added"])
         << Stat("slowest_unit_time_sec", 0) << Stat("peak_rss_mb", peak_rss)
         << Stat("reloaded_units", totals["reloaded_units"])
         << Stat("workers", workers_.size());
  }
  return code;
}

}  // namespace

absl::StatusOr<std::vector<vk::PhysicalDeviceInfo>> ListVulkanDevices() {
  absl::StatusOr<vk::Instance> instance = vk::Instance::Create({});
  if (!instance.ok()) return instance.status();
  return instance->EnumerateDevices();
}

int RunMultiDevice(absl::Span<const std::string> args,
                   const ParsedCommandLine& parsed,
                   const MultiDeviceOptions& options, std::ostream& out) {
  const Config& config = parsed.config;
  const std::vector<std::string>& positional = parsed.positional;
  const bool several_targets = parsed.targets.size() > 1;
  auto error = [&out](absl::string_view message) {
    out << "ERROR: " << message << "\n";
    return kErrorExit;
  };
  if (!config.device.empty() && !config.devices.empty()) {
    return error(
        "pass either -device (one device) or -devices (several), not both");
  }
  if (config.merge || config.set_cover_merge || config.minimize_crash ||
      config.cleanse_crash) {
    return error(
        several_targets
            ? "several -target flags run a fuzzing campaign; run -merge, "
              "-set_cover_merge, -minimize_crash and -cleanse_crash with one "
              "-target"
            : "-devices runs a fuzzing campaign; run -merge, -set_cover_merge, "
              "-minimize_crash and -cleanse_crash on one device (-device=N)");
  }
  if (several_targets && AllRegularFiles(positional)) {
    return error(
        "several -target flags fuzz, each into its own corpus directory; run "
        "input files with one -target");
  }
  std::vector<Tenant> tenants;
  if (several_targets) {
    absl::StatusOr<std::vector<Tenant>> planned =
        PlanTenants(config, parsed.targets, positional);
    if (!planned.ok()) return error(planned.status().message());
    tenants = *std::move(planned);
  }
  absl::StatusOr<std::vector<vk::PhysicalDeviceInfo>> devices =
      options.list_devices ? options.list_devices() : ListVulkanDevices();
  if (!devices.ok()) return error(devices.status().message());
  // Without -devices (several targets on one device): the device that -device
  // selects, as a campaign in one process would (SelectDevice: "" is the
  // first discrete GPU, else another GPU, else lavapipe).
  absl::StatusOr<std::vector<uint32_t>> chosen;
  if (config.devices.empty()) {
    absl::StatusOr<uint32_t> one = vk::SelectDevice(*devices, config.device);
    if (!one.ok()) return error(one.status().message());
    chosen = std::vector<uint32_t>{*one};
  } else {
    chosen = vk::ResolveDeviceList(*devices, config.devices);
  }
  if (!chosen.ok()) return error(chosen.status().message());
  if (!several_targets) {
    if (AllRegularFiles(positional)) {
      out << "INFO: -devices=" << config.devices << ": running the inputs on "
          << "device " << chosen->front() << " only\n";
      return options.run_in_process(SingleDeviceArgs(args, chosen->front()));
    }
    if (chosen->size() == 1) {
      out << "INFO: -devices=" << config.devices << " names one device ("
          << chosen->front() << "); fuzzing in this process\n";
      return options.run_in_process(SingleDeviceArgs(args, chosen->front()));
    }
    if (positional.empty()) {
      return error(
          "-devices needs a corpus directory: its workers share their finds "
          "through the first one, e.g. ringfuzz -devices=all -target=T.fz "
          "CORPUS_DIR");
    }
  }
  if (!several_targets) {
    // One target: its workers share the first corpus directory.
    Tenant only;
    only.target = config.target;
    only.corpus_dir = positional.front();
    tenants.push_back(std::move(only));
  }
  for (const Tenant& tenant : tenants) {
    if (absl::Status s = MakeDirs(tenant.corpus_dir); !s.ok()) {
      return error(s.message());
    }
  }
  if (config.reload == 0 && chosen->size() > 1) {
    out << "WARNING: -reload=0: the workers will not take each other's "
           "inputs; each fuzzes with its own finds only\n";
  }
  const uint64_t seed =
      config.seed != 0
          ? config.seed
          : static_cast<uint64_t>(
                std::chrono::system_clock::now().time_since_epoch().count()) +
                static_cast<uint64_t>(getpid());
  out << "INFO: Seed: " << seed << "\n";
  if (several_targets) {
    out << "INFO: " << tenants.size() << " targets side by side on "
        << (chosen->size() == 1 ? "device " : "each of the devices ")
        << (config.devices.empty() ? absl::StrCat(chosen->front())
                                   : config.devices)
        << ", one worker each per device:";
    for (const Tenant& tenant : tenants) {
      out << " " << tenant.name << " -> " << tenant.corpus_dir;
    }
    out << "\n";
  } else {
    out << "INFO: -devices=" << config.devices << ": " << chosen->size()
        << " workers share the corpus " << positional[0]
        << " (-reload=" << config.reload << ")\n";
  }
  InstallInterruptHandlers(static_cast<int>(config.interrupted_exitcode));
  // A campaign of one target gives its workers the command line as it is.
  const std::vector<WorkerSpec> specs =
      several_targets ? PlanWorkers(config, *chosen, seed, tenants)
                      : PlanWorkers(config, *chosen, seed);
  Campaign campaign(args, config, std::move(tenants), options, out);
  if (!campaign.Start(specs, *devices)) {
    return kErrorExit;
  }
  campaign.Supervise();
  return campaign.Finish();
}

}  // namespace ringfuzz

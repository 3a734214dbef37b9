#include "fuzz/triage/triage_command.h"

#include <stdlib.h>

#include <filesystem>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "corpus/atomic_file.h"
#include "corpus/corpus_dir.h"
#include "fuzz/engine/engine.h"
#include "fuzz/engine/flag_parser.h"
#include "fuzz/triage/triage_report.h"
#include "fuzz/triage/twin_replay.h"

namespace ringfuzz {
namespace {

constexpr char kUsage[] =
    "usage: ringfuzz triage -target=FILE [-json=1] [-twin=PATH] "
    "[-cpu_replay=0] [-all_files=1] [fuzzing flags] DIR_OR_FILE...";

absl::StatusOr<bool> ParseBool(absl::string_view flag,
                               absl::string_view value) {
  if (value == "1" || value.empty()) return true;
  if (value == "0") return false;
  return absl::InvalidArgumentError(absl::StrCat(
      "bad value '", value, "' for -", flag, ": expected 0 or 1; fix: pass -",
      flag, "=1 or -", flag, "=0"));
}

// A temporary directory removed with everything in it when destroyed.
class TempDir {
 public:
  static absl::StatusOr<TempDir> Create() {
    std::string pattern = absl::StrCat(TempDirectory(), "/ringfuzz-XXXXXX");
    if (mkdtemp(pattern.data()) == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot create a temporary directory like ", pattern,
                       ": set TMPDIR to a writable directory"));
    }
    return TempDir(pattern);
  }
  TempDir(TempDir&& other) noexcept : path_(std::move(other.path_)) {
    other.path_.clear();
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  explicit TempDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// Replays each bucket's smallest input on the twin, or says why not.
void ReplayOnCpu(const TriageOptions& options, const Config& config,
                 TriageReport& report, std::ostream& log) {
  if (!options.cpu_replay) {
    report.cpu_note = "CPU replays skipped (-cpu_replay=0)";
    return;
  }
  std::optional<TempDir> dir;
  std::optional<TwinReplayer> twin;
  if (!options.twin.empty()) {
    twin.emplace(options.twin);
  } else {
    absl::StatusOr<TempDir> made = TempDir::Create();
    if (!made.ok()) {
      report.cpu_note =
          absl::StrCat("CPU replays skipped: ", made.status().message());
      return;
    }
    dir.emplace(*std::move(made));
    log << "INFO: building the libFuzzer twin of " << config.target << "\n";
    absl::StatusOr<TwinReplayer> built =
        TwinReplayer::Build(TwinScriptPath(), config.target, dir->path());
    if (!built.ok()) {
      report.cpu_note =
          absl::StrCat("CPU replays skipped: ", built.status().message());
      return;
    }
    twin.emplace(*std::move(built));
  }
  for (Bucket& bucket : report.buckets) {
    bucket.cpu = twin->Replay(report.artifacts[bucket.smallest].file.path,
                              bucket.signature);
  }
}

}  // namespace

absl::StatusOr<std::vector<std::string>> TakeTriageFlags(
    absl::Span<const std::string> args, TriageOptions& options) {
  std::vector<std::string> rest;
  for (const std::string& arg : args) {
    absl::string_view name = arg;
    if (!absl::ConsumePrefix(&name, "-") || absl::StartsWith(name, "-")) {
      rest.push_back(arg);
      continue;
    }
    const size_t eq = name.find('=');
    absl::string_view flag = name.substr(0, eq);
    absl::string_view value =
        eq == absl::string_view::npos ? "" : name.substr(eq + 1);
    bool* target = flag == "json"         ? &options.json
                   : flag == "cpu_replay" ? &options.cpu_replay
                   : flag == "all_files"  ? &options.all_files
                                          : nullptr;
    if (target != nullptr) {
      absl::StatusOr<bool> parsed = ParseBool(flag, value);
      if (!parsed.ok()) return parsed.status();
      *target = *parsed;
    } else if (flag == "twin") {
      if (value.empty()) {
        return absl::InvalidArgumentError(
            "-twin needs a path: pass -twin=PATH (a libFuzzer twin built "
            "with tools/ringfuzz-twin), or leave it out to build one");
      }
      options.twin = std::string(value);
    } else {
      rest.push_back(arg);
    }
  }
  return rest;
}

absl::StatusOr<TriageReport> TriagePaths(const TriageOptions& options,
                                         Config config,
                                         const ExecutorFactory& make_executor,
                                         std::ostream& log) {
  if (config.target.empty()) {
    return absl::InvalidArgumentError(
        "-target=FILE is required: the target source file the artifacts "
        "were found on");
  }
  if (options.paths.empty()) {
    return absl::InvalidArgumentError(
        "no artifacts: pass the directories or files to triage, e.g. "
        "'ringfuzz triage -target=t.fz artifacts/'");
  }
  absl::StatusOr<TriageInputs> inputs =
      CollectTriageInputs(options.paths, options.all_files);
  if (!inputs.ok()) return inputs.status();
  for (const std::string& warning : inputs->warnings) log << warning << "\n";
  absl::StatusOr<absl::flat_hash_map<std::string, FindLineFields>> finds =
      LoadFindLines(inputs->telemetry_logs);
  if (!finds.ok()) return finds.status();
  if (config.max_len == 0) {
    std::vector<std::string> paths;
    for (const ArtifactFile& file : inputs->artifacts) {
      paths.push_back(file.path);
    }
    config.max_len =
        static_cast<int64_t>(AutomaticMaxLen(LargestInputSize(paths)));
  }
  TriageReport report;
  if (!inputs->artifacts.empty()) {
    absl::StatusOr<std::unique_ptr<Executor>> executor = make_executor(config);
    if (!executor.ok()) return executor.status();
    log << "INFO: replaying " << inputs->artifacts.size() << " artifacts ("
        << inputs->telemetry_logs.size() << " telemetry logs, " << finds->size()
        << " find lines)\n";
    absl::StatusOr<std::vector<TriagedArtifact>> artifacts =
        ReplayArtifacts(**executor, inputs->artifacts, *finds);
    if (!artifacts.ok()) return artifacts.status();
    report.artifacts = *std::move(artifacts);
  }
  report.buckets = BucketArtifacts(report.artifacts);
  if (!report.buckets.empty()) ReplayOnCpu(options, config, report, log);
  return report;
}

int RunTriageCommand(absl::Span<const std::string> args,
                     const ExecutorFactory& make_executor, std::ostream& out,
                     std::ostream& log) {
  TriageOptions options;
  absl::StatusOr<std::vector<std::string>> rest =
      TakeTriageFlags(args, options);
  if (!rest.ok()) {
    log << "ERROR: " << rest.status().message() << "\n" << kUsage << "\n";
    return kErrorExit;
  }
  absl::StatusOr<ParsedCommandLine> parsed = ParseCommandLine(*rest);
  if (!parsed.ok()) {
    log << "ERROR: " << parsed.status().message() << "\n" << kUsage << "\n";
    return kErrorExit;
  }
  for (const std::string& warning : parsed->warnings) log << warning << "\n";
  if (parsed->config.help) {
    out << kUsage << "\n(docs/cli.md, 'ringfuzz triage')\n";
    return 0;
  }
  if (parsed->targets.size() > 1) {
    log << "ERROR: ringfuzz triage takes one -target: the artifacts of "
           "several targets are triaged one target at a time\n"
        << kUsage << "\n";
    return kErrorExit;
  }
  options.paths = parsed->positional;
  absl::StatusOr<TriageReport> report =
      TriagePaths(options, parsed->config, make_executor, log);
  if (!report.ok()) {
    log << "ERROR: " << report.status().message() << "\n" << kUsage << "\n";
    return kErrorExit;
  }
  out << (options.json ? TriageJson(*report) + "\n" : TriageTable(*report));
  return 0;
}

}  // namespace ringfuzz

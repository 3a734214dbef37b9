#include "fuzz/triage/ci_command.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "corpus/atomic_file.h"
#include "corpus/work_dir.h"
#include "fuzz/engine/engine.h"
#include "fuzz/engine/flag_parser.h"
#include "fuzz/triage/ci_result.h"
#include "fuzz/triage/junit.h"
#include "fuzz/triage/sarif.h"
#include "fuzz/triage/triage_command.h"

namespace ringfuzz {
namespace {

constexpr char kUsage[] =
    "usage: ringfuzz ci -target=FILE -out=DIR [-corpus=DIR] "
    "[-known_crashes=DIR] [-max_total_time=S] [-twin=PATH | -cpu_replay=0] "
    "[fuzzing flags]";

struct CiOptions {
  std::string out;
  std::string corpus;
  std::string known_crashes;
  TriageOptions triage;
};

// Takes -out, -corpus and -known_crashes out of `args`.
std::vector<std::string> TakeCiFlags(absl::Span<const std::string> args,
                                     CiOptions& options) {
  std::vector<std::string> rest;
  for (const std::string& arg : args) {
    absl::string_view value = arg;
    if (absl::ConsumePrefix(&value, "-out=")) {
      options.out = std::string(value);
    } else if (absl::ConsumePrefix(&value, "-corpus=")) {
      options.corpus = std::string(value);
    } else if (absl::ConsumePrefix(&value, "-known_crashes=")) {
      options.known_crashes = std::string(value);
    } else {
      rest.push_back(arg);
    }
  }
  return rest;
}

absl::Status MakeDir(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot create directory ", dir, ": ", error.message(),
                     "; pass an -out=DIR that can be written"));
  }
  return absl::OkStatus();
}

absl::Status WriteText(const std::string& path, const std::string& text) {
  return WriteFileAtomically(
      path,
      ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

// Triages `paths` (every file of the directories), fills `phase`, and
// appends a CiBug per reproducing bucket. `known`: the signatures known
// before; with `learn` each bucket's key joins them (known crashes).
absl::Status TriagePhase(const CiOptions& options, const Config& config,
                         const ExecutorFactory& make_executor,
                         std::vector<std::string> paths, bool all_files,
                         bool learn, absl::flat_hash_set<std::string>& known,
                         CiPhaseResult& phase, CiResult& result,
                         std::ostream& log) {
  const absl::Time start = absl::Now();
  TriageOptions triage = options.triage;
  triage.paths = std::move(paths);
  triage.all_files = all_files;
  absl::StatusOr<TriageReport> report =
      TriagePaths(triage, config, make_executor, log);
  if (!report.ok()) return report.status();
  phase.ran = true;
  phase.inputs = report->artifacts.size();
  for (const Bucket& bucket : report->buckets) {
    if (!bucket.reproduces()) {
      phase.not_reproduced = bucket.members.size();
      continue;
    }
    CiBug bug;
    bug.phase = phase.phase;
    bug.signature = *bucket.signature;
    bug.reproducer = report->artifacts[bucket.smallest].file.path;
    bug.size = report->artifacts[bucket.smallest].file.size;
    bug.count = bucket.members.size();
    bug.cpu = bucket.cpu;
    bug.is_new = !learn && !known.contains(bucket.Key());
    if (learn) known.insert(bucket.Key());
    result.bugs.push_back(std::move(bug));
  }
  phase.note = absl::StrCat(phase.inputs, " input(s) replayed, ",
                            phase.not_reproduced, " without a bug");
  phase.seconds = absl::ToDoubleSeconds(absl::Now() - start);
  return absl::OkStatus();
}

// Runs the fuzzing step through the ordinary command line.
CiPhaseResult Fuzz(const CiOptions& options, const Config& config,
                   absl::Span<const std::string> flags,
                   const ExecutorFactory& make_executor, std::ostream& log) {
  CiPhaseResult phase;
  phase.phase = CiPhase::kFuzzing;
  const absl::Time start = absl::Now();
  std::vector<std::string> args(flags.begin(), flags.end());
  if (config.max_total_time == 0 && config.runs < 0) {
    args.push_back(absl::StrCat("-max_total_time=", kDefaultCiSeconds));
  }
  args.push_back("-keep_going=1");
  args.push_back(absl::StrCat(
      "-artifact_prefix=", JoinPath(options.out, "artifacts"), "/"));
  args.push_back(absl::StrCat("-telemetry_out=",
                              JoinPath(options.out, "telemetry.jsonl")));
  args.push_back(JoinPath(options.out, "corpus"));
  if (!options.corpus.empty()) args.push_back(options.corpus);
  const int code = RunCommandLine(args, make_executor, log);
  phase.ran = true;
  phase.note = absl::StrCat("fuzzing exited ", code);
  phase.seconds = absl::ToDoubleSeconds(absl::Now() - start);
  return phase;
}

}  // namespace

absl::string_view CiPhaseName(CiPhase phase) {
  switch (phase) {
    case CiPhase::kKnownCrashes:
      return "known crashes";
    case CiPhase::kCorpus:
      return "corpus replay";
    case CiPhase::kFuzzing:
      return "fuzzing";
  }
  return "?";
}

size_t CiResult::NewBugs() const {
  size_t n = 0;
  for (const CiBug& bug : bugs) n += bug.is_new;
  return n;
}

int RunCiCommand(absl::Span<const std::string> args,
                 const ExecutorFactory& make_executor, std::ostream& out,
                 std::ostream& log) {
  auto fail = [&log](absl::string_view message) {
    log << "ERROR: " << message << "\n" << kUsage << "\n";
    return kErrorExit;
  };
  CiOptions options;
  std::vector<std::string> rest = TakeCiFlags(args, options);
  absl::StatusOr<std::vector<std::string>> flags =
      TakeTriageFlags(rest, options.triage);
  if (!flags.ok()) return fail(flags.status().message());
  absl::StatusOr<ParsedCommandLine> parsed = ParseCommandLine(*flags);
  if (!parsed.ok()) return fail(parsed.status().message());
  if (parsed->config.help) {
    out << kUsage << "\n(docs/cli.md, 'ringfuzz ci')\n";
    return 0;
  }
  const Config& config = parsed->config;
  if (config.target.empty()) return fail("-target=FILE is required");
  if (parsed->targets.size() > 1) {
    return fail(
        "ringfuzz ci takes one -target: run it once per target, each with "
        "its own -out (and -corpus, -known_crashes)");
  }
  if (options.out.empty()) {
    return fail(
        "-out=DIR is required: where the reports, the new corpus "
        "inputs and the artifacts go");
  }
  if (!parsed->positional.empty()) {
    return fail(absl::StrCat("unexpected argument '", parsed->positional[0],
                             "': pass the corpus as -corpus=DIR and known "
                             "crashes as -known_crashes=DIR"));
  }
  for (const std::string* dir : {&options.corpus, &options.known_crashes}) {
    if (!dir->empty() && !Exists(*dir)) {
      return fail(absl::StrCat("'", *dir,
                               "' does not exist: pass an "
                               "existing directory"));
    }
  }
  const std::string artifacts = JoinPath(options.out, "artifacts");
  for (const std::string& dir :
       {options.out, artifacts, JoinPath(options.out, "corpus")}) {
    if (absl::Status s = MakeDir(dir); !s.ok()) return fail(s.message());
  }

  CiResult result;
  result.target = config.target;
  absl::flat_hash_set<std::string> known;
  struct Step {
    CiPhase phase;
    std::string dir;
    bool learn;
  };
  for (const Step& step :
       {Step{CiPhase::kKnownCrashes, options.known_crashes, true},
        Step{CiPhase::kCorpus, options.corpus, false}}) {
    CiPhaseResult phase;
    phase.phase = step.phase;
    if (step.dir.empty()) {
      phase.note = "no directory given";
    } else if (absl::Status s =
                   TriagePhase(options, config, make_executor, {step.dir}, true,
                               step.learn, known, phase, result, log);
               !s.ok()) {
      return fail(s.message());
    }
    result.phases.push_back(phase);
  }
  if (result.NewBugs() > 0) {
    CiPhaseResult skipped;
    skipped.phase = CiPhase::kFuzzing;
    skipped.note = "skipped: the corpus replay found new bugs (fail fast)";
    result.phases.push_back(skipped);
  } else {
    CiPhaseResult phase = Fuzz(options, config, *flags, make_executor, log);
    std::vector<std::string> paths = {artifacts};
    const std::string telemetry = JoinPath(options.out, "telemetry.jsonl");
    if (Exists(telemetry)) paths.push_back(telemetry);
    const double fuzz_seconds = phase.seconds;
    if (absl::Status s = TriagePhase(options, config, make_executor, paths,
                                     false, false, known, phase, result, log);
        !s.ok()) {
      return fail(s.message());
    }
    phase.seconds += fuzz_seconds;
    result.phases.push_back(phase);
  }

  const absl::Status written =
      WriteText(JoinPath(options.out, kSarifFileName),
                SarifLog(result, std::filesystem::current_path().string()));
  if (!written.ok()) return fail(written.message());
  if (absl::Status s =
          WriteText(JoinPath(options.out, kJunitFileName), JunitXml(result));
      !s.ok()) {
    return fail(s.message());
  }
  for (const CiBug& bug : result.bugs) {
    out << (bug.is_new ? "NEW" : "known") << " [" << CiPhaseName(bug.phase)
        << "] " << bug.signature.Key() << ": " << bug.count
        << " artifact(s), smallest " << bug.reproducer << " (" << bug.size
        << " bytes)\n";
  }
  out << result.NewBugs()
      << " new bug(s); reports: " << JoinPath(options.out, kSarifFileName)
      << ", " << JoinPath(options.out, kJunitFileName) << "\n";
  return result.NewBugs() > 0 ? static_cast<int>(config.error_exitcode) : 0;
}

}  // namespace ringfuzz

#include "fuzz/corpus_tools/merge.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "corpus/atomic_file.h"
#include "corpus/corpus_dir.h"
#include "corpus/dir_walk.h"
#include "corpus/file_read.h"
#include "corpus/sha1.h"
#include "corpus/work_dir.h"
#include "fuzz/corpus_tools/merge_control.h"
#include "fuzz/engine/bug_report.h"
#include "fuzz/engine/interrupt.h"
#include "fuzz/engine/status_line.h"

namespace ringfuzz {
namespace {

// The exit code of errors (as kErrorExit in fuzz/engine/engine.h).
constexpr int kMergeError = 1;

// Largest control file read back: a million inputs of a thousand features.
constexpr FileCap kControlFileCap = {
    uint64_t{1} << 30, "merge control file",
    "pass -merge_control_file with a fresh path to start the merge afresh"};

struct SizedPath {
  std::string path;
  uint64_t size = 0;
};

// The files below `dir`, sorted by size, then path, as libFuzzer sorts a
// merge's inputs; the walk's warnings are printed.
absl::StatusOr<std::vector<SizedPath>> ListSorted(const std::string& dir,
                                                  std::ostream& out) {
  absl::StatusOr<DirWalk> walk = WalkCorpusDir(dir);
  if (!walk.ok()) {
    return absl::Status(
        walk.status().code(),
        absl::StrCat("-merge=1 cannot list '", dir,
                     "': ", walk.status().message(),
                     "; pass existing corpus directories: OUT_DIR IN_DIR..."));
  }
  for (const std::string& warning : walk->warnings) {
    out << "WARNING: " << warning << "\n";
  }
  std::vector<SizedPath> files;
  for (WalkedFile& file : walk->files) {
    files.push_back({std::move(file.path), file.size});
  }
  std::sort(files.begin(), files.end(),
            [](const SizedPath& a, const SizedPath& b) {
              return a.size != b.size ? a.size < b.size : a.path < b.path;
            });
  return files;
}

// Ids of `after` that `before` lacks (both ascending).
std::vector<uint32_t> Added(const std::vector<uint32_t>& after,
                            const std::vector<uint32_t>& before) {
  std::vector<uint32_t> added;
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                      std::back_inserter(added));
  return added;
}

class Merger {
 public:
  Merger(const Config& config, Executor& executor, std::ostream& out,
         std::unique_ptr<TimeoutJudge> judge)
      : config_(config),
        executor_(executor),
        out_(out),
        timeout_gate_(std::move(judge)) {}

  int Run(const std::vector<std::string>& dirs);

 private:
  // Decides from the control file what is left to run; writes a fresh
  // one when there is none (or a bad one). Returns an exit code iff the
  // merge must end now.
  std::optional<int> PrepareControlFile(
      const std::vector<SizedPath>& old_corpus,
      const std::vector<SizedPath>& new_corpus);
  // Runs the inputs the control file has not seen start, appending their
  // records. Returns an exit code iff the merge must end now.
  std::optional<int> RunInputs();
  // Reads the control file, decides and copies the new inputs.
  int CopyNewInputs(const std::string& out_dir);
  // Reads and parses the control file; an error is printed (an unreadable
  // file as "ERROR: ...", an unparsable one as libFuzzer's "MERGE: failed
  // to parse" line) and returned. `size_line`: first prints libFuzzer's
  // "MERGE-OUTER: the control file has N bytes".
  absl::StatusOr<MergeControl> ReadControl(bool size_line);
  int Fail(const absl::Status& status) {
    out_ << "ERROR: " << status.message() << "\n";
    return kMergeError;
  }
  size_t Limit() const {
    size_t limit = executor_.max_len();
    if (config_.max_len > 0) {
      limit = std::min<size_t>(limit, static_cast<size_t>(config_.max_len));
    }
    return limit;
  }

  const Config& config_;
  Executor& executor_;
  std::ostream& out_;
  TimeoutGate timeout_gate_;  // clears loop-budget timeouts (-twin)
  std::string control_path_;
  bool set_cover_ = false;
  std::vector<MergeInput> known_;  // from a completed control file
  bool completed_ = false;         // every input of the control file ran before
  absl::Time start_ = absl::Now();
  uint64_t executions_ = 0;
};

int Merger::Run(const std::vector<std::string>& dirs) {
  if (dirs.size() < 2) {
    out_ << "INFO: Merge requires two or more corpus dirs\n";
    return 0;
  }
  set_cover_ = config_.set_cover_merge;
  if (absl::Status made = MakeDirs(dirs[0]); !made.ok()) return Fail(made);
  absl::StatusOr<std::vector<SizedPath>> old_corpus = ListSorted(dirs[0], out_);
  if (!old_corpus.ok()) return Fail(old_corpus.status());
  std::vector<SizedPath> new_corpus;
  for (size_t d = 1; d < dirs.size(); ++d) {
    absl::StatusOr<std::vector<SizedPath>> files = ListSorted(dirs[d], out_);
    if (!files.ok()) return Fail(files.status());
    new_corpus.insert(new_corpus.end(), files->begin(), files->end());
  }
  // libFuzzer sorts the inputs of all IN_DIRs together.
  std::sort(new_corpus.begin(), new_corpus.end(),
            [](const SizedPath& a, const SizedPath& b) {
              return a.size != b.size ? a.size < b.size : a.path < b.path;
            });
  if (old_corpus->empty() && new_corpus.empty()) return 0;  // nothing to do

  const bool temporary = config_.merge_control_file.empty();
  if (temporary) {
    control_path_ =
        absl::StrCat(TempDirectory(), "/ringfuzz-merge-", getpid(), ".txt");
  } else {
    control_path_ = config_.merge_control_file;
  }
  if (auto code = PrepareControlFile(*old_corpus, new_corpus)) return *code;
  std::optional<int> code;
  if (!completed_) code = RunInputs();
  if (!code) code = CopyNewInputs(dirs[0]);
  if (temporary) std::remove(control_path_.c_str());
  return *code;
}

std::optional<int> Merger::PrepareControlFile(
    const std::vector<SizedPath>& old_corpus,
    const std::vector<SizedPath>& new_corpus) {
  bool resume = false;
  absl::StatusOr<Bytes> existing =
      ReadFileAtMost(control_path_, kControlFileCap);
  if (existing.ok() && !existing->empty()) {
    out_ << "MERGE-OUTER: non-empty control file provided: '" << control_path_
         << "'\n";
    absl::StatusOr<MergeControl> control = ParseMergeControl(absl::string_view(
        reinterpret_cast<const char*>(existing->data()), existing->size()));
    if (control.ok()) {
      out_ << "MERGE-OUTER: control file ok, " << control->inputs.size()
           << " files total, first not processed file "
           << control->first_not_processed << "\n";
      if (!control->last_failure.empty()) {
        out_ << "MERGE-OUTER: '" << control->last_failure
             << "' will be skipped as unlucky (merge has stumbled on it the "
                "last time)\n";
      }
      if (control->first_not_processed >= control->inputs.size()) {
        if (control->inputs.size() == old_corpus.size() + new_corpus.size()) {
          // Every input ran: the decision and the copies are made again
          // from the records (copies already there stay as they are).
          out_ << "MERGE-OUTER: nothing to do, merge has been completed "
                  "before\n";
          completed_ = true;
          return std::nullopt;
        }
        out_ << "MERGE-OUTER: starting merge from scratch, but reusing "
                "coverage information from the given control file\n";
        known_ = std::move(control->inputs);
      } else {
        resume = true;
      }
    } else {
      out_ << "MERGE-OUTER: bad control file, will overwrite it ("
           << control.status().message() << ")\n";
    }
  } else if (!existing.ok() &&
             existing.status().code() != absl::StatusCode::kNotFound) {
    return Fail(
        absl::Status(existing.status().code(),
                     absl::StrCat(existing.status().message(),
                                  "; fix its permissions or pass another "
                                  "-merge_control_file")));
  }
  if (resume) return std::nullopt;
  out_ << "MERGE-OUTER: " << old_corpus.size() + new_corpus.size() << " files, "
       << old_corpus.size() << " in the initial corpus, " << known_.size()
       << " processed earlier\n";
  std::set<std::string> skip;
  for (const MergeInput& input : known_) skip.insert(input.path);
  std::vector<std::string> paths;
  size_t first_corpus = 0;
  for (const SizedPath& file : old_corpus) {
    if (skip.count(file.path) == 0) paths.push_back(file.path);
  }
  first_corpus = paths.size();
  for (const SizedPath& file : new_corpus) {
    if (skip.count(file.path) == 0) paths.push_back(file.path);
  }
  const std::string head = MergeControlHead(paths, first_corpus);
  if (absl::Status written = WriteFileAtomically(
          control_path_,
          ByteSpan(reinterpret_cast<const uint8_t*>(head.data()), head.size()));
      !written.ok()) {
    return Fail(absl::Status(
        written.code(),
        absl::StrCat("MERGE-OUTER: failed to write to the control file: ",
                     written.message())));
  }
  return std::nullopt;
}

absl::StatusOr<MergeControl> Merger::ReadControl(bool size_line) {
  absl::StatusOr<Bytes> text = ReadFileAtMost(control_path_, kControlFileCap);
  if (!text.ok()) {
    Fail(text.status());
    return text.status();
  }
  if (size_line) {
    out_ << "MERGE-OUTER: the control file has " << text->size() << " bytes\n";
  }
  absl::StatusOr<MergeControl> control = ParseMergeControl(absl::string_view(
      reinterpret_cast<const char*>(text->data()), text->size()));
  if (!control.ok()) {
    out_ << "MERGE: failed to parse the control file (unexpected error): "
         << control.status().message() << "\n";
  }
  return control;
}

std::optional<int> Merger::RunInputs() {
  out_ << "MERGE-OUTER: attempt 1\n";
  out_ << "MERGE-INNER: using the control file '" << control_path_ << "'\n";
  absl::StatusOr<MergeControl> control = ReadControl(/*size_line=*/false);
  if (!control.ok()) return kMergeError;
  const size_t total = control->inputs.size();
  const size_t first = control->first_not_processed;
  if (!control->last_failure.empty()) {
    out_ << "MERGE-INNER: '" << control->last_failure
         << "' caused a failure at the previous merge step\n";
  }
  out_ << "MERGE-INNER: " << total << " total files; " << first
       << " processed earlier; will process " << total - first
       << " files now\n";
  std::ofstream records(control_path_, std::ios::out | std::ios::app);
  auto append = [&](const std::string& text) -> std::optional<int> {
    // Flushed per record: a merge killed at any point resumes from here.
    records << text;
    records.flush();
    if (records) return std::nullopt;
    return Fail(absl::UnavailableError(
        absl::StrCat("cannot append to the merge control file '", control_path_,
                     "' (is the disk full?); free space or pass another "
                     "-merge_control_file, then run the merge again")));
  };
  const size_t limit = Limit();
  absl::StatusOr<CoverageIds> seen = executor_.CoverageIdsSoFar();
  if (!seen.ok()) return Fail(seen.status());
  std::set<uint32_t> all_features(seen->features.begin(), seen->features.end());
  std::set<uint32_t> seen_blocks(seen->blocks.begin(), seen->blocks.end());
  for (size_t i = first; i < total; ++i) {
    if (Interrupted()) {
      out_ << "MERGE-OUTER: interrupted after " << i << " of " << total
           << " files";
      if (!config_.merge_control_file.empty()) {
        out_ << "; run the same command again to resume from " << control_path_;
      }
      out_ << "\n==" << getpid() << "== libFuzzer: run interrupted; exiting\n";
      return static_cast<int>(config_.interrupted_exitcode);
    }
    const std::string& path = control->inputs[i].path;
    absl::StatusOr<Bytes> data = ReadFilePrefix(path, limit);
    if (!data.ok()) {
      // Recorded as started and not finished, as an input that failed.
      out_ << "WARNING: " << data.status().message() << "; not merged\n";
      if (auto code = append(MergeStartedRecord(i, 0))) return code;
      continue;
    }
    if (auto code = append(MergeStartedRecord(i, data->size()))) return code;
    if (set_cover_) {
      if (absl::Status s = executor_.ResetCoverage(); !s.ok()) return Fail(s);
    }
    absl::StatusOr<BatchResult> result = executor_.Execute(*data);
    if (!result.ok()) return Fail(result.status());
    executions_ += result->executions;
    const Find* bug = nullptr;
    for (const Find& find : result->finds) {
      if (!IsBug(find.kind)) continue;
      if (find.kind == Find::Kind::kTimeout &&
          timeout_gate_.Clears(*data, absl::InfiniteDuration(), out_)) {
        continue;
      }
      bug = &find;
    }
    if (bug != nullptr) {
      out_ << "MERGE-INNER: '" << path << "' hit a bug (" << DescribeBug(*bug)
           << "); not merged\n";
      continue;
    }
    absl::StatusOr<CoverageIds> now = executor_.CoverageIdsSoFar();
    if (!now.ok()) return Fail(now.status());
    std::vector<uint32_t> features =
        set_cover_ ? now->features : Added(now->features, seen->features);
    std::vector<uint32_t> cov;
    for (uint32_t block : now->blocks) {
      if (seen_blocks.insert(block).second) cov.push_back(block);
    }
    all_features.insert(now->features.begin(), now->features.end());
    if (!set_cover_) seen = std::move(now);
    if (auto code = append(MergeFinishedRecords(i, features, cov))) {
      return code;
    }
  }
  StatusCounters counters;
  counters.runs = executions_;
  counters.cov = seen_blocks.size();
  counters.ft = all_features.size();
  counters.rss_mb = PeakRssMb();
  counters.exec_per_sec = ExecPerSec(
      executions_,
      static_cast<uint64_t>(absl::ToInt64Seconds(absl::Now() - start_)));
  out_ << FormatStatusLine(StatusEvent::kDone, counters) << "\n";
  if (const std::string line = timeout_gate_.SummaryLine(); !line.empty()) {
    out_ << line << "\n";
  }
  out_ << "MERGE-OUTER: successful in 1 attempt(s)\n";
  return std::nullopt;
}

int Merger::CopyNewInputs(const std::string& out_dir) {
  absl::StatusOr<MergeControl> control = ReadControl(/*size_line=*/true);
  if (!control.ok()) return kMergeError;
  size_t bytes = 0;
  for (const MergeInput& input : control->inputs) {
    bytes += sizeof(input) + input.features.size() * sizeof(uint32_t);
  }
  out_ << "MERGE-OUTER: consumed " << (bytes >> 20) << "MB (" << PeakRssMb()
       << "MB rss) to parse the control file\n";
  control->inputs.insert(control->inputs.end(), known_.begin(), known_.end());
  const MergePlan plan =
      set_cover_ ? PlanSetCoverMerge(*control) : PlanMerge(*control);
  const WorkDir work_dir(out_dir, "", "");
  const size_t limit = Limit();
  for (const std::string& path : plan.new_files) {
    absl::StatusOr<Bytes> data = ReadFilePrefix(path, limit);
    if (!data.ok()) {
      return Fail(absl::Status(
          data.status().code(),
          absl::StrCat(data.status().message(),
                       "; it changed since it ran: run the merge again")));
    }
    const std::string destination = work_dir.CorpusFilePath(Sha1Hex(*data));
    if (access(destination.c_str(), F_OK) == 0) continue;  // same content
    if (absl::Status s = WriteFileAtomically(destination, *data); !s.ok()) {
      return Fail(s);
    }
  }
  out_ << "MERGE-OUTER: " << plan.new_files.size() << " new files with "
       << plan.new_features.size() << " new features added; "
       << plan.new_cov.size() << " new coverage edges\n";
  return 0;
}

}  // namespace

int RunMerge(const Config& config, Executor& executor,
             const std::vector<std::string>& dirs, std::ostream& out,
             std::unique_ptr<TimeoutJudge> judge) {
  return Merger(config, executor, out, std::move(judge)).Run(dirs);
}

}  // namespace ringfuzz

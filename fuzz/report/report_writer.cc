#include "fuzz/report/report_writer.h"

#include <errno.h>
#include <sys/stat.h>

#include <cstring>

#include "absl/strings/str_cat.h"
#include "corpus/atomic_file.h"
#include "corpus/work_dir.h"

namespace ringfuzz {
namespace {

absl::Status WriteText(const std::string& path, const std::string& text) {
  return WriteFileAtomically(
      path,
      ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

int64_t UnixNow() { return absl::ToUnixSeconds(absl::Now()); }

}  // namespace

ReportWriter::ReportWriter(std::string dir, CampaignReport header,
                           std::ostream& log, size_t max_points)
    : dir_(std::move(dir)),
      report_(std::move(header)),
      log_(log),
      series_(max_points) {
  report_.plot_data_file = kPlotDataFile;
}

bool ReportWriter::SampleDue(absl::Duration elapsed) const {
  return !last_sample_ || elapsed - *last_sample_ >= kReportSampleInterval;
}

void ReportWriter::Sample(absl::Duration elapsed,
                          const ReportCounters& counters) {
  PlotSample sample;
  sample.unix_time = UnixNow();
  sample.elapsed_s = absl::ToDoubleSeconds(elapsed);
  sample.execs = counters.execs;
  sample.cov = counters.cov;
  sample.ft = counters.ft;
  sample.corpus_size = counters.corpus_size;
  sample.bugs = bugs_.buckets().size();
  const absl::Duration since = last_sample_ ? elapsed - *last_sample_ : elapsed;
  if (since > absl::ZeroDuration() && counters.execs >= last_execs_) {
    sample.exec_per_sec = static_cast<uint64_t>(
        static_cast<double>(counters.execs - last_execs_) /
        absl::ToDoubleSeconds(since));
  }
  last_sample_ = elapsed;
  last_execs_ = counters.execs;
  series_.Add(sample);
}

void ReportWriter::RecordBug(const Find& find, const std::string& artifact,
                             absl::Duration elapsed) {
  bugs_.Record(find, artifact, UnixNow(), absl::ToDoubleSeconds(elapsed));
}

void ReportWriter::MaybeWrite(absl::Duration elapsed,
                              const std::vector<MutatorStat>& mutators) {
  if (last_write_ && elapsed - *last_write_ < kReportWriteInterval) return;
  Write(elapsed, mutators);
}

void ReportWriter::Write(absl::Duration elapsed,
                         const std::vector<MutatorStat>& mutators,
                         bool finished, const std::string& outcome) {
  last_write_ = elapsed;
  report_.updated_unix = UnixNow();
  report_.finished = finished;
  report_.outcome = outcome;
  report_.samples = series_.Points();
  report_.mutators = mutators;
  report_.bugs = bugs_.buckets();
  absl::Status written = WriteFiles();
  if (written.ok() || warned_) return;
  warned_ = true;
  log_ << "WARNING: " << written.message()
       << "; fuzzing goes on without a report\n";
}

absl::Status ReportWriter::WriteFiles() {
  if (mkdir(dir_.c_str(), 0755) != 0 && errno != EEXIST) {
    return absl::UnavailableError(absl::StrCat(
        "-report=", dir_,
        ": cannot create the directory: ", std::strerror(errno),
        ". Fix: name a directory whose parent exists and is writable"));
  }
  struct stat st;
  if (stat(dir_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return absl::UnavailableError(
        absl::StrCat("-report=", dir_,
                     " is not a directory. Fix: name a directory (it is "
                     "created if missing)"));
  }
  // The CSV first: the page links to it.
  for (const auto& [name, text] :
       {std::pair<const char*, std::string>{kPlotDataFile,
                                            FormatPlotData(report_.samples)},
        {kReportPageFile, RenderHtmlReport(report_)}}) {
    if (absl::Status s = WriteText(JoinPath(dir_, name), text); !s.ok()) {
      return absl::Status(s.code(),
                          absl::StrCat("-report=", dir_, ": ", s.message()));
    }
  }
  return absl::OkStatus();
}

}  // namespace ringfuzz

#include "fuzz/steer/telemetry_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "corpus/atomic_file.h"
#include "corpus/work_dir.h"
#include "telemetry/json_parts.h"
#include "telemetry/json_writer.h"
#include "telemetry/sketch_report.h"
#include "telemetry/summary_line.h"

namespace ringfuzz {
namespace {

using telemetry::JsonWriter;

constexpr size_t kSketchDepth = 4;
constexpr size_t kSketchWidth = 256;
constexpr size_t kSketchTop = 3;

void WriteLaunch(
    JsonWriter& json,
    const absl::StatusOr<telemetry::MegakernelLaunchRecommendation>& r) {
  if (!r.ok()) return telemetry::WriteError(json, r.status());
  json.BeginObject()
      .Field("worker_groups", r->worker_groups)
      .Field("workgroup_size_x", r->geometry.workgroup_size_x)
      .Field("slot_count", r->geometry.slot_count)
      .Field("hit_capacity", r->hit_capacity)
      .Field("pressure", telemetry::QueuePressureName(r->pressure))
      .Field("execution_mode", telemetry::ExecutionModeName(r->execution_mode))
      .Field("topology", telemetry::DispatchTopologyName(r->topology))
      .Field("age_priority_work", r->age_priority_work)
      .EndObject();
}

void WriteSketch(JsonWriter& json, const telemetry::RingTelemetry& now) {
  absl::StatusOr<telemetry::SketchTelemetry> sketch =
      now.Sketch(kSketchDepth, kSketchWidth);
  if (!sketch.ok()) return telemetry::WriteError(json, sketch.status());
  const telemetry::SketchReport report =
      telemetry::ReportSketch(*sketch, now, kSketchTop);
  json.BeginObject();
  telemetry::WriteEntries(json, "ring_opcode", report.ring_opcode);
  telemetry::WriteEntries(json, "tenant", report.tenant);
  telemetry::WriteEntries(json, "status", report.status);
  telemetry::WriteEntries(json, "dispatch_metrics", report.dispatch_metrics);
  json.EndObject();
}

void WriteSteering(JsonWriter& json, const SteeringState& s) {
  json.BeginObject()
      .Field("last", s.last)
      .Field("worker_groups", s.geometry.worker_groups)
      .Field("batch_slots", s.geometry.slots)
      .Field("slot_execs", s.geometry.execs_per_slot)
      .Key("tenant_quotas")
      .BeginArray();
  for (uint32_t quota : s.tenant_quotas) json.Uint(quota);
  json.EndArray()
      .Field("promoted", uint64_t{s.promoted})
      .Field("waiting", uint64_t{s.waiting})
      .Field("stalled", s.stalled)
      .Field("suspects", uint64_t{s.suspects})
      .EndObject();
}

}  // namespace

absl::StatusOr<std::unique_ptr<TelemetryLog>> TelemetryLog::Open(
    const std::string& path) {
  const int fd =
      open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("-telemetry_out=", path,
                     ": cannot create the file: ", std::strerror(errno),
                     ". Fix: name a file in an existing, writable directory"));
  }
  return std::unique_ptr<TelemetryLog>(new TelemetryLog(path, fd));
}

TelemetryLog::~TelemetryLog() { close(fd_); }

absl::Status TelemetryLog::Append(absl::string_view line) {
  const std::string whole = absl::StrCat(line, "\n");
  size_t done = 0;
  int error = 0;
  while (done < whole.size()) {
    const ssize_t n = write(fd_, whole.data() + done, whole.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      error = n < 0 ? errno : EIO;
      break;
    }
  }
  if (error == 0) {
    end_ += static_cast<off_t>(done);
    return absl::OkStatus();
  }
  // Not a character of a cut line may stay. (Pipes and devices cannot be
  // cut back; /dev/full takes nothing anyway.)
  if (done > 0 &&
      (ftruncate(fd_, end_) != 0 || lseek(fd_, end_, SEEK_SET) != end_)) {
    return absl::DataLossError(absl::StrCat(
        "-telemetry_out=", path_, ": cannot write: ", std::strerror(error),
        "; its last line is cut short (cannot truncate it: ",
        std::strerror(errno),
        "). Fix: free disk space or choose another file"));
  }
  return absl::ResourceExhaustedError(absl::StrCat(
      "-telemetry_out=", path_, ": cannot write: ", std::strerror(error),
      ". Fix: free disk space or choose another file"));
}

absl::StatusOr<BufferDump> BufferDump::Create(const std::string& dir,
                                              BufferDumpLimits limits) {
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return absl::InvalidArgumentError(absl::StrCat(
        "-dump_buffers=", dir,
        ": cannot create the directory: ", std::strerror(errno),
        ". Fix: name a directory whose parent exists and is writable"));
  }
  struct stat st;
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "-dump_buffers=", dir,
        " is not a directory. Fix: name a directory (it is created if "
        "missing)"));
  }
  return BufferDump(dir, limits);
}

std::string BufferDump::Prefix(uint32_t epoch) const {
  return JoinPath(dir_, absl::StrFormat("epoch-%06u", epoch));
}

absl::Status BufferDump::Write(uint32_t epoch, const WireView& wire) {
  const uint64_t size = wire.control.size() + wire.ring.size();
  if (epochs_ >= limits_.max_epochs || bytes_ + size > limits_.max_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "-dump_buffers=", dir_, ": reached its cap of ", limits_.max_epochs,
        " epochs or ", limits_.max_bytes, " bytes (", epochs_, " epochs and ",
        bytes_, " bytes dumped)"));
  }
  const std::string prefix = Prefix(epoch);
  if (absl::Status s = WriteFileAtomically(prefix + ".control", wire.control);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = WriteFileAtomically(prefix + ".ring", wire.ring);
      !s.ok()) {
    return s;
  }
  ++epochs_;
  bytes_ += size;
  return absl::OkStatus();
}

std::string EpochLine(const EpochRecord& record) {
  const telemetry::RingTelemetry& now = *record.now;
  telemetry::SummaryOptions summary;
  summary.previous = record.previous;
  summary.launch = record.launch;
  JsonWriter json;
  json.BeginObject()
      .Field("epoch", now.control.epoch)
      .Field("summary", telemetry::SummaryLine(now, summary))
      .Key("runtime_counters");
  telemetry::WriteRuntimeCounters(json, now.RuntimeCounters());
  if (record.previous != nullptr) {
    json.Key("health");
    telemetry::WriteHealth(json, now.HealthSince(*record.previous));
  }
  if (record.accounting != nullptr) {
    json.Key("priority_accounting");
    telemetry::WritePriorityAccounting(json, *record.accounting);
  }
  if (record.launch.has_value()) {
    json.Key("launch");
    WriteLaunch(json, now.RecommendLaunch(*record.launch));
  }
  json.Key("sketch");
  WriteSketch(json, now);
  json.Key("steering");
  WriteSteering(json, record.steering);
  json.EndObject();
  return json.text();
}

}  // namespace ringfuzz

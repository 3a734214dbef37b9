// What the steering writes about each epoch (dispatch round):
//  * -telemetry_out=FILE: one JSON object per line and epoch (EpochLine),
//    appended and flushed as it happens, so a tail -f or a crashed run still
//    has every finished epoch;
//  * -dump_buffers=DIR: the raw control and ring bytes of each epoch as
//    DIR/epoch-NNNNNN.control and DIR/epoch-NNNNNN.ring (NNNNNN = the EPOCH
//    control word, six digits or more), each written atomically, for
//    `ringfuzz telemetry decode -control=... -ring=...`; at most
//    BufferDumpLimits (1000 epochs, 1 GiB) per run.
#ifndef RINGFUZZ_FUZZ_STEER_TELEMETRY_LOG_H_
#define RINGFUZZ_FUZZ_STEER_TELEMETRY_LOG_H_

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "fuzz/steer/steering_launch.h"
#include "fuzz/steer/steering_wire.h"
#include "telemetry/launch_policy.h"
#include "telemetry/priority_accounting.h"
#include "telemetry/ring_telemetry.h"

namespace ringfuzz {

// An append-only text file of whole lines: a reader (tail -f, a JSON-lines
// parser) never sees a part of a line, even after a full disk.
class TelemetryLog {
 public:
  // Creates or truncates `path`. The error names the path, the reason and
  // what to do.
  static absl::StatusOr<std::unique_ptr<TelemetryLog>> Open(
      const std::string& path);
  ~TelemetryLog();
  TelemetryLog(const TelemetryLog&) = delete;
  TelemetryLog& operator=(const TelemetryLog&) = delete;

  // Appends `line` and a newline with write(2) (nothing is buffered), or
  // nothing at all: a write that fails part way (ENOSPC, EFBIG, EIO) is cut
  // back to the end of the last whole line (DataLoss if even that fails, as
  // on a pipe). The error names the path, the
  // reason and the fix. Later appends may succeed again (space was freed).
  absl::Status Append(absl::string_view line);

  const std::string& path() const { return path_; }

 private:
  TelemetryLog(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}

  std::string path_;
  int fd_;
  off_t end_ = 0;  // end of the last whole line
};

// How much a BufferDump writes at most: a campaign runs tens of epochs a
// second, and nobody reads thousands of dumps. docs/cli.md names the
// defaults.
struct BufferDumpLimits {
  uint64_t max_epochs = 1000;
  uint64_t max_bytes = uint64_t{1} << 30;  // 1 GiB
};

// A directory that receives the wire buffers of epochs.
class BufferDump {
 public:
  // Uses `dir`, creating it (one level) if it does not exist.
  static absl::StatusOr<BufferDump> Create(const std::string& dir,
                                           BufferDumpLimits limits = {});

  // The file name prefix of epoch `epoch`: "<dir>/epoch-000012".
  std::string Prefix(uint32_t epoch) const;
  // Writes <Prefix>.control and <Prefix>.ring, each atomically. Once the
  // epoch would pass a limit, writes nothing and returns ResourceExhausted
  // saying which cap was reached (each later call returns it again).
  absl::Status Write(uint32_t epoch, const WireView& wire);

  const std::string& dir() const { return dir_; }

 private:
  BufferDump(std::string dir, BufferDumpLimits limits)
      : dir_(std::move(dir)), limits_(limits) {}
  std::string dir_;
  BufferDumpLimits limits_;
  uint64_t epochs_ = 0;  // dumped so far
  uint64_t bytes_ = 0;
};

// The steering's own state at an epoch, for the "steering" object.
struct SteeringState {
  bool last = false;                    // the last epoch of a ring load
  BatchGeometry geometry;               // the geometry the next batch will use
  std::vector<uint32_t> tenant_quotas;  // items per tenant of this batch
  size_t promoted = 0;                  // aged parents promoted into this batch
  size_t waiting = 0;                   // parents whose work is owed
  bool stalled = false;                 // the dispatch was stopped as stalled
  size_t suspects = 0;                  // slots CLAIMED when it was stopped
};

struct EpochRecord {
  const telemetry::RingTelemetry* now = nullptr;             // required
  const telemetry::RingTelemetry* previous = nullptr;        // adds health
  std::optional<telemetry::MegakernelLaunchRequest> launch;  // adds launch
  const telemetry::PriorityRequeueAccounting* accounting = nullptr;
  SteeringState steering;
};

// One compact JSON object (no newline) with, in this order:
//   epoch, summary (telemetry::SummaryLine with health, launch and the top
//   3 opcodes and tenants), runtime_counters {MegakernelRuntimeCounters
//   fields}, health {MegakernelWatchdogSnapshot fields} or {error} (only
//   with a previous snapshot), priority_accounting {requeue_count,
//   aged_promotions, max_priority_age, drain {should_drain, reason}},
//   launch {worker_groups, workgroup_size_x, slot_count, hit_capacity,
//   pressure, execution_mode, topology, age_priority_work} or {error} (only
//   with a request), sketch {ring_opcode, tenant, status, dispatch_metrics:
//   top 3 [[key, estimate], ...] each, of a 4 x 256 sketch}, steering
//   {last, worker_groups, batch_slots, slot_execs, tenant_quotas [...],
//   promoted, waiting, stalled, suspects}.
std::string EpochLine(const EpochRecord& record);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_STEER_TELEMETRY_LOG_H_

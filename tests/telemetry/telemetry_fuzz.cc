// libFuzzer harness for the telemetry module: every strict and lenient
// decode, the queries, sketches, counters, watchdog, launch policy and
// exporters, on arbitrary (and deliberately misaligned) buffers. Beyond
// "no crash, no sanitizer report" it checks the invariants that tie the
// entry points together, and aborts when one breaks.
//
// Input: a 48-byte header (shorter inputs are zero-padded), then the window
// opcodes, then the control buffer, then the ring:
//   [0]     flags: 1 pad control to the minimum size, 2 cut the ring to whole
//           slots, 4 shift buffers off 4-byte alignment
//   [1]     sketch depth % 8      [2] sketch width (0..255)
//   [3]     signed done_count change for the "previous" snapshot
//   [4]     window opcode count % 8
//   [5..6]  control length % 4096
//   [7]     hot/age bits of the launch request
//   [8..47] launch request words
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/json_export.h"
#include "telemetry/ring_telemetry.h"
#include "telemetry/summary_line.h"
#include "telemetry/text_table.h"
#include "telemetry/wire_decode.h"

namespace ringfuzz::telemetry {
namespace {

#define FUZZ_CHECK(cond)                                                    \
  do {                                                                      \
    if (!(cond)) {                                                          \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                   #cond);                                                  \
      std::abort();                                                         \
    }                                                                       \
  } while (0)

constexpr size_t kHeaderBytes = 48;

uint32_t HeaderWord(const uint8_t* header, size_t index) {
  return LoadWordLe(header + 8 + 4 * index);
}

MegakernelLaunchRequest LaunchRequest(const uint8_t* header) {
  MegakernelLaunchRequest r;
  r.queue_len = HeaderWord(header, 0);
  r.requested_worker_groups = HeaderWord(header, 1) % 100000;
  r.max_workgroup_size_x = HeaderWord(header, 2) % 2048;
  r.max_workgroups_per_dimension = HeaderWord(header, 3) % 100000;
  r.max_invocations_per_workgroup = HeaderWord(header, 4) % 2048;
  r.requested_hit_capacity =
      HeaderWord(header, 5) % 3 == 0 ? 0 : HeaderWord(header, 5);
  r.expected_hits_per_item = HeaderWord(header, 6) % 16;
  r.hot_opcode_count = header[7] & 0x0F;
  r.hot_window_count = header[7] >> 4;
  r.max_priority_age = HeaderWord(header, 7) % 64;
  r.graph_node_count =
      HeaderWord(header, 8) % 3 == 0 ? 0 : HeaderWord(header, 8);
  r.graph_edge_count =
      HeaderWord(header, 9) % 3 == 0 ? 0 : HeaderWord(header, 9) / 8;
  r.memory_pressure_bps = HeaderWord(header, 7) >> 18;  // 0..16383
  r.resident_device_bytes = uint64_t{HeaderWord(header, 1)} << (header[3] % 40);
  r.device_memory_budget_bytes = uint64_t{HeaderWord(header, 6)}
                                 << (header[2] % 40);
  return r;
}

void CheckSnapshot(const RingTelemetry& t) {
  FUZZ_CHECK(t.occupancy.total_slots() == t.slots.size());
  uint64_t window_slots = 0;
  for (size_t i = 0; i < t.windows.size(); ++i) {
    const WindowTelemetry& w = t.windows[i];
    window_slots += uint64_t{w.published} + w.claimed + w.done + w.wait_io +
                    w.yield + w.requeue + w.fault;
    if (i > 0) {
      const WindowTelemetry& p = t.windows[i - 1];
      FUZZ_CHECK(p.ticket < w.ticket ||
                 (p.ticket == w.ticket && p.opcode < w.opcode));
    }
  }
  FUZZ_CHECK(window_slots <= t.slots.size());
  for (size_t i = 0; i < t.slots.size(); ++i) FUZZ_CHECK(t.slots[i].slot == i);

  const MegakernelRuntimeCounters c = t.RuntimeCounters();
  FUZZ_CHECK(c.gpu_idle_ppm <= 1000000);
  FUZZ_CHECK(c.frontier_density_bps <= 10000);
  FUZZ_CHECK(c.occupancy_proxy_bps <= 10000);
  FUZZ_CHECK(c.queue_depth <= c.total_slots);
}

void CheckQueries(const RingTelemetry& t) {
  if (t.slots.empty()) return;
  const uint32_t opcode = t.slots.front().opcode;
  const std::vector<const RingSlotSnapshot*> active =
      t.ActiveSlotsForOpcode(opcode);
  FUZZ_CHECK(active.size() == t.ActiveSlotsForOpcodeRange(opcode).size());
  absl::StatusOr<std::vector<const RingSlotSnapshot*>> tried =
      t.TryActiveSlotsForOpcode(opcode);
  FUZZ_CHECK(tried.ok() && *tried == active);
  for (const RingSlotSnapshot* slot : active) {
    FUZZ_CHECK(slot->opcode == opcode && slot->status.IsActive());
  }
  std::vector<const WindowTelemetry*> windows;
  FUZZ_CHECK(t.TryActiveWindowsInto(windows).ok());
  FUZZ_CHECK(windows == t.ActiveWindows());
  FUZZ_CHECK(windows.size() == t.ActiveWindowsRange().size());
}

void CheckSketch(const RingTelemetry& t, size_t depth, size_t width) {
  absl::StatusOr<SketchTelemetry> sketch = t.Sketch(depth, width);
  FUZZ_CHECK(sketch.ok() == (depth != 0 && width != 0));
  if (!sketch.ok()) {
    FUZZ_CHECK(sketch.status().code() == absl::StatusCode::kInvalidArgument);
    return;
  }
  FUZZ_CHECK(sketch->total_slots == t.slots.size());
  uint64_t active = 0;
  for (const RingSlotSnapshot& slot : t.slots) active += slot.status.IsActive();
  FUZZ_CHECK(sketch->active_slots == active);
  for (const DispatchMetric& metric : t.control.metrics) {
    FUZZ_CHECK(sketch->dispatch_metrics.Estimate(metric.opcode) >=
               metric.count);
  }
  if (!t.slots.empty()) {
    const uint32_t opcode = t.slots.back().opcode;
    uint64_t count = 0;
    for (const RingSlotSnapshot& slot : t.slots) count += slot.opcode == opcode;
    FUZZ_CHECK(sketch->ring_opcode.Estimate(opcode) >= count);
  }
  SketchTelemetryScratch scratch;
  FUZZ_CHECK(t.SketchInto(depth, width, scratch).ok());
  FUZZ_CHECK(*scratch.sketch() == *sketch);
}

void RunOne(const uint8_t* data, size_t size) {
  uint8_t header[kHeaderBytes] = {};
  std::memcpy(header, data, size < kHeaderBytes ? size : kHeaderBytes);
  size_t pos = size < kHeaderBytes ? size : kHeaderBytes;

  std::vector<uint32_t> window_opcodes;
  for (size_t i = 0; i < header[4] % 8u && pos + 4 <= size; ++i, pos += 4) {
    // Small opcodes collide with the ring's more often.
    window_opcodes.push_back(LoadWordLe(data + pos) % 16);
  }
  const size_t control_len =
      std::min<size_t>((header[5] | header[6] << 8) % 4096, size - pos);
  std::vector<uint8_t> control(data + pos, data + pos + control_len);
  std::vector<uint8_t> ring(data + pos + control_len, data + size);
  if ((header[0] & 1) && control.size() < RF_CTRL_MIN_BYTES) {
    control.resize(RF_CTRL_MIN_BYTES, 0);
  }
  if (header[0] & 2) ring.resize(ring.size() / RF_SLOT_BYTES * RF_SLOT_BYTES);

  // One buffer holding both, shifted off alignment if asked.
  const size_t shift = (header[0] & 4) ? 1 + header[1] % 3 : 0;
  std::vector<uint8_t> storage(shift + control.size() + ring.size());
  if (!control.empty())
    std::memcpy(&storage[shift], control.data(), control.size());
  if (!ring.empty()) {
    std::memcpy(&storage[shift + control.size()], ring.data(), ring.size());
  }
  const absl::Span<const uint8_t> control_span(storage.data() + shift,
                                               control.size());
  const absl::Span<const uint8_t> ring_span(
      storage.data() + shift + control.size(), ring.size());

  const absl::Status valid = ValidateTelemetryBuffers(control_span, ring_span);
  absl::StatusOr<RingTelemetry> strict =
      RingTelemetry::TryDecodeWithWindowOpcodes(control_span, ring_span,
                                                window_opcodes);
  const RingTelemetry lenient = RingTelemetry::DecodeWithWindowOpcodes(
      control_span, ring_span, window_opcodes);
  FUZZ_CHECK(strict.status() == valid);
  FUZZ_CHECK(RingTelemetry::TryDecode(control_span, ring_span).status() ==
             valid);
  const RingTelemetry plain = RingTelemetry::Decode(control_span, ring_span);
  FUZZ_CHECK(plain.windows.empty());

  // Into forms over a used output and scratch.
  RingTelemetry into = lenient;
  TelemetryDecodeScratch scratch;
  scratch.SetWindowOpcodes({3, 9});
  const absl::Status into_status =
      RingTelemetry::TryDecodeWithWindowOpcodesInto(
          control_span, ring_span, window_opcodes, into, scratch);
  FUZZ_CHECK(into_status == valid);
  if (valid.ok()) {
    FUZZ_CHECK(lenient == *strict);
    FUZZ_CHECK(into == *strict);
  } else {
    FUZZ_CHECK(valid.code() == absl::StatusCode::kInvalidArgument);
    FUZZ_CHECK(lenient == RingTelemetry{});
    FUZZ_CHECK(plain == RingTelemetry{});
    FUZZ_CHECK(into == lenient);  // untouched
  }
  RingTelemetry lenient_into = plain;
  RingTelemetry::DecodeWithWindowOpcodesInto(
      control_span, ring_span, window_opcodes, lenient_into, scratch);
  FUZZ_CHECK(lenient_into == lenient);

  CheckSnapshot(lenient);
  CheckQueries(lenient);
  CheckSketch(lenient, header[1] % 8, header[2]);

  RingTelemetry previous = lenient;
  previous.control.done_count += static_cast<int8_t>(header[3]);
  absl::StatusOr<MegakernelWatchdogSnapshot> health =
      lenient.HealthSince(previous);
  FUZZ_CHECK(health.ok() ==
             (previous.control.done_count <= lenient.control.done_count));
  if (health.ok()) {
    FUZZ_CHECK(health->done_delta ==
               lenient.control.done_count - previous.control.done_count);
    FUZZ_CHECK(!health->suspected_stall || health->queue_depth > 0);
  }

  PriorityRequeueAccounting accounting = lenient.PriorityAccounting();
  accounting.RecordRequeue(header[3]);
  accounting.RecordAgedPromotion(header[7]);
  FUZZ_CHECK(accounting.DrainRecommendation().should_drain);

  const MegakernelLaunchRequest request = LaunchRequest(header);
  absl::StatusOr<MegakernelLaunchRecommendation> launch =
      lenient.RecommendLaunch(request);
  absl::StatusOr<MegakernelLaunchRecommendation> hysteresis =
      lenient.RecommendLaunch(request, DispatchTopology::kHybridFrontier);
  FUZZ_CHECK(launch.ok() == hysteresis.ok());
  if (launch.ok()) {
    FUZZ_CHECK(launch->worker_groups >= 1);
    FUZZ_CHECK(launch->geometry.workgroup_size_x >= 1);
    FUZZ_CHECK(launch->geometry.slot_count >= request.queue_len);
    FUZZ_CHECK(
        launch->geometry.slot_count % launch->geometry.workgroup_size_x == 0);
    FUZZ_CHECK(launch->hit_capacity >= 1);
  }

  ExportOptions options;
  options.previous = &previous;
  options.sketch_depth = header[1] % 8;
  options.sketch_width = header[2];
  options.launch = request;
  const std::string json = ToJson(lenient, options);
  FUZZ_CHECK(!json.empty() && json.front() == '{' && json.back() == '}');
  const std::string table = ToTable(lenient, options);
  FUZZ_CHECK(!table.empty() && table.back() == '\n');
  SummaryOptions summary;
  summary.previous = &previous;
  summary.launch = request;
  summary.sketch_depth = options.sketch_depth;
  summary.sketch_width = options.sketch_width;
  const std::string line = SummaryLine(lenient, summary);
  FUZZ_CHECK(line.find('\n') == std::string::npos);
}

}  // namespace
}  // namespace ringfuzz::telemetry

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ringfuzz::telemetry::RunOne(data, size);
  return 0;
}

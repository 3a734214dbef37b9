// libFuzzer harness of RingTelemetry (telemetry/ring_telemetry.h): every
// strict and lenient decode form with window opcodes, the queries, the
// sketches, the watchdog, the runtime counters, priority accounting and the
// launch policy, on arbitrary (and misaligned) buffers. Beyond "no crash, no
// sanitizer report" it checks the invariants that tie them together.
//
// Input (tests/hostfuzz/fuzz_input.h): Part() options, Part() control,
// Rest() ring. Options, read with Byte()/Word() (0 when missing):
//   flags (1: shift both buffers off 4-byte alignment), sketch depth % 8,
//   sketch width, signed done_count change for the "previous" snapshot,
//   window opcode count % 8, then that many opcode words (% 16), then the
//   launch request's words.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/ring_telemetry.h"
#include "telemetry/wire_decode.h"
#include "tests/hostfuzz/fuzz_input.h"

namespace ringfuzz::telemetry {
namespace {

MegakernelLaunchRequest LaunchRequest(hostfuzz::FuzzInput& in) {
  MegakernelLaunchRequest r;
  r.queue_len = in.Word() % (1u << 21);
  r.requested_worker_groups = in.Word() % 100000;
  r.max_workgroup_size_x = in.Word() % 2048;
  r.max_workgroups_per_dimension = in.Word() % 100000;
  r.max_invocations_per_workgroup = in.Word() % 2048;
  r.requested_hit_capacity = in.Word();
  r.expected_hits_per_item = in.Word() % 16;
  const uint8_t hot = in.Byte();
  r.hot_opcode_count = hot & 0x0F;
  r.hot_window_count = hot >> 4;
  r.max_priority_age = in.Word() % 64;
  r.graph_node_count = in.Word();
  r.graph_edge_count = in.Word();
  r.memory_pressure_bps = in.Word() % 16384;
  r.resident_device_bytes = uint64_t{in.Word()} << (in.Byte() % 40);
  r.device_memory_budget_bytes = uint64_t{in.Word()} << (in.Byte() % 40);
  return r;
}

void CheckSnapshot(const RingTelemetry& t) {
  HOSTFUZZ_CHECK(t.occupancy.total_slots() == t.slots.size());
  uint64_t window_slots = 0;
  for (size_t i = 0; i < t.windows.size(); ++i) {
    const WindowTelemetry& w = t.windows[i];
    window_slots += uint64_t{w.published} + w.claimed + w.done + w.wait_io +
                    w.yield + w.requeue + w.fault;
    if (i > 0) {
      const WindowTelemetry& p = t.windows[i - 1];
      HOSTFUZZ_CHECK(p.ticket < w.ticket ||
                     (p.ticket == w.ticket && p.opcode < w.opcode));
    }
  }
  HOSTFUZZ_CHECK(window_slots <= t.slots.size());
  for (size_t i = 0; i < t.slots.size(); ++i) {
    HOSTFUZZ_CHECK(t.slots[i].slot == i);
  }
  const MegakernelRuntimeCounters c = t.RuntimeCounters();
  HOSTFUZZ_CHECK(c.gpu_idle_ppm <= 1000000);
  HOSTFUZZ_CHECK(c.frontier_density_bps <= 10000);
  HOSTFUZZ_CHECK(c.occupancy_proxy_bps <= 10000);
  HOSTFUZZ_CHECK(c.queue_depth <= c.total_slots);
}

void CheckQueries(const RingTelemetry& t) {
  if (t.slots.empty()) return;
  const uint32_t opcode = t.slots.front().opcode;
  const std::vector<const RingSlotSnapshot*> active =
      t.ActiveSlotsForOpcode(opcode);
  HOSTFUZZ_CHECK(active.size() == t.ActiveSlotsForOpcodeRange(opcode).size());
  absl::StatusOr<std::vector<const RingSlotSnapshot*>> tried =
      t.TryActiveSlotsForOpcode(opcode);
  HOSTFUZZ_CHECK(tried.ok() && *tried == active);
  for (const RingSlotSnapshot* slot : active) {
    HOSTFUZZ_CHECK(slot->opcode == opcode && slot->status.IsActive());
  }
  std::vector<const WindowTelemetry*> windows;
  HOSTFUZZ_CHECK(t.TryActiveWindowsInto(windows).ok());
  HOSTFUZZ_CHECK(windows == t.ActiveWindows());
  HOSTFUZZ_CHECK(windows.size() == t.ActiveWindowsRange().size());
}

void CheckSketch(const RingTelemetry& t, size_t depth, size_t width) {
  absl::StatusOr<SketchTelemetry> sketch = t.Sketch(depth, width);
  HOSTFUZZ_CHECK(sketch.ok() == (depth != 0 && width != 0));
  if (!sketch.ok()) return;
  HOSTFUZZ_CHECK(sketch->total_slots == t.slots.size());
  for (const DispatchMetric& metric : t.control.metrics) {
    HOSTFUZZ_CHECK(sketch->dispatch_metrics.Estimate(metric.opcode) >=
                   metric.count);
  }
  SketchTelemetryScratch scratch;
  HOSTFUZZ_CHECK(t.SketchInto(depth, width, scratch).ok());
  HOSTFUZZ_CHECK(*scratch.sketch() == *sketch);
}

void RunOne(const uint8_t* data, size_t size) {
  hostfuzz::FuzzInput input(data, size);
  const std::vector<uint8_t> option_bytes = input.Part();
  const std::vector<uint8_t> control = input.Part();
  const std::vector<uint8_t> ring = input.Rest();
  hostfuzz::FuzzInput options(option_bytes.data(), option_bytes.size());
  const uint8_t flags = options.Byte();
  const size_t depth = options.Byte() % 8;
  const size_t width = options.Byte();
  const int8_t done_change = static_cast<int8_t>(options.Byte());
  std::vector<uint32_t> window_opcodes(options.Byte() % 8);
  for (uint32_t& opcode : window_opcodes) opcode = options.Word() % 16;

  // One exact-size buffer holding both, shifted off alignment if asked.
  const size_t shift = (flags & 1) ? 1 + width % 3 : 0;
  std::vector<uint8_t> storage(shift + control.size() + ring.size());
  std::copy(control.begin(), control.end(), storage.begin() + shift);
  std::copy(ring.begin(), ring.end(), storage.begin() + shift + control.size());
  const absl::Span<const uint8_t> c(storage.data() + shift, control.size());
  const absl::Span<const uint8_t> r(storage.data() + shift + control.size(),
                                    ring.size());

  const absl::Status valid = ValidateTelemetryBuffers(c, r);
  absl::StatusOr<RingTelemetry> strict =
      RingTelemetry::TryDecodeWithWindowOpcodes(c, r, window_opcodes);
  const RingTelemetry lenient =
      RingTelemetry::DecodeWithWindowOpcodes(c, r, window_opcodes);
  HOSTFUZZ_CHECK(strict.status() == valid);
  HOSTFUZZ_CHECK(RingTelemetry::TryDecode(c, r).status() == valid);
  const RingTelemetry plain = RingTelemetry::Decode(c, r);
  HOSTFUZZ_CHECK(plain.windows.empty());

  RingTelemetry into = lenient;
  TelemetryDecodeScratch scratch;
  scratch.SetWindowOpcodes({3, 9});
  HOSTFUZZ_CHECK(RingTelemetry::TryDecodeWithWindowOpcodesInto(
                     c, r, window_opcodes, into, scratch) == valid);
  if (valid.ok()) {
    HOSTFUZZ_CHECK(lenient == *strict);
    HOSTFUZZ_CHECK(into == *strict);
  } else {
    HOSTFUZZ_CHECK(lenient == RingTelemetry{});
    HOSTFUZZ_CHECK(plain == RingTelemetry{});
    HOSTFUZZ_CHECK(into == lenient);  // untouched
  }
  RingTelemetry lenient_into = plain;
  RingTelemetry::DecodeWithWindowOpcodesInto(c, r, window_opcodes, lenient_into,
                                             scratch);
  HOSTFUZZ_CHECK(lenient_into == lenient);

  CheckSnapshot(lenient);
  CheckQueries(lenient);
  CheckSketch(lenient, depth, width);

  RingTelemetry previous = lenient;
  previous.control.done_count += done_change;
  absl::StatusOr<MegakernelWatchdogSnapshot> health =
      lenient.HealthSince(previous);
  HOSTFUZZ_CHECK(health.ok() ==
                 (previous.control.done_count <= lenient.control.done_count));

  PriorityRequeueAccounting accounting = lenient.PriorityAccounting();
  accounting.RecordRequeue(flags);
  HOSTFUZZ_CHECK(accounting.DrainRecommendation().should_drain);

  const MegakernelLaunchRequest request = LaunchRequest(options);
  absl::StatusOr<MegakernelLaunchRecommendation> launch =
      lenient.RecommendLaunch(request);
  absl::StatusOr<MegakernelLaunchRecommendation> hysteresis =
      lenient.RecommendLaunch(request, DispatchTopology::kHybridFrontier);
  HOSTFUZZ_CHECK(launch.ok() == hysteresis.ok());
  if (launch.ok()) {
    HOSTFUZZ_CHECK(launch->worker_groups >= 1);
    HOSTFUZZ_CHECK(launch->geometry.workgroup_size_x >= 1);
    HOSTFUZZ_CHECK(launch->geometry.slot_count >= request.queue_len);
    HOSTFUZZ_CHECK(launch->hit_capacity >= 1);
  }
}

}  // namespace
}  // namespace ringfuzz::telemetry

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ringfuzz::telemetry::RunOne(data, size);
  return 0;
}

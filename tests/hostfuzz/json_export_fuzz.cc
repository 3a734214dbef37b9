// libFuzzer harness of the exporters (telemetry/json_export.h,
// text_table.h, summary_line.h) on leniently decoded buffers: the JSON is
// one well-formed object, the table ends in a newline, the summary is one
// line.
//
// Input (tests/hostfuzz/fuzz_input.h): Part() options, Part() control,
// Rest() ring. Options, read with Byte() (0 when missing): sketch depth % 8,
// sketch width, signed done_count change for the "previous" snapshot,
// 1 bit: add a launch request (queue length from the next byte).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "telemetry/json_export.h"
#include "telemetry/ring_telemetry.h"
#include "telemetry/summary_line.h"
#include "telemetry/text_table.h"
#include "tests/hostfuzz/fuzz_input.h"

namespace ringfuzz::telemetry {
namespace {

// Returns true iff `json` is one JSON object whose strings are closed and
// whose brackets balance; control characters occur only escaped.
HOSTFUZZ_NO_COVERAGE bool WellFormedObject(const std::string& json) {
  if (json.empty() || json.front() != '{' || json.back() != '}') return false;
  std::vector<char> open;
  bool in_string = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char ch = json[i];
    if (static_cast<unsigned char>(ch) < 0x20) return false;
    if (in_string) {
      if (ch == '\\') {
        ++i;
      } else if (ch == '"') {
        in_string = false;
      }
      continue;
    }
    if (ch == '"') {
      in_string = true;
    } else if (ch == '{' || ch == '[') {
      open.push_back(ch == '{' ? '}' : ']');
    } else if (ch == '}' || ch == ']') {
      if (open.empty() || open.back() != ch) return false;
      open.pop_back();
      if (open.empty() && i + 1 != json.size()) return false;
    }
  }
  return !in_string && open.empty();
}

void RunOne(const uint8_t* data, size_t size) {
  hostfuzz::FuzzInput input(data, size);
  const std::vector<uint8_t> option_bytes = input.Part();
  const std::vector<uint8_t> control = input.Part();
  const std::vector<uint8_t> ring = input.Rest();
  hostfuzz::FuzzInput options(option_bytes.data(), option_bytes.size());

  const RingTelemetry now =
      RingTelemetry::DecodeWithWindowOpcodes(control, ring, {8, 9, 10});
  RingTelemetry previous = now;
  ExportOptions json_options;
  json_options.sketch_depth = options.Byte() % 8;
  json_options.sketch_width = options.Byte();
  previous.control.done_count += static_cast<int8_t>(options.Byte());
  json_options.previous = &previous;
  if (options.Byte() & 1) {
    MegakernelLaunchRequest request;
    request.queue_len = options.Byte();
    json_options.launch = request;
  }
  const std::string json = ToJson(now, json_options);
  HOSTFUZZ_CHECK(WellFormedObject(json));
  const std::string table = ToTable(now, json_options);
  HOSTFUZZ_CHECK(!table.empty() && table.back() == '\n');

  SummaryOptions summary;
  summary.previous = &previous;
  summary.launch = json_options.launch;
  summary.sketch_depth = json_options.sketch_depth;
  summary.sketch_width = json_options.sketch_width;
  const std::string line = SummaryLine(now, summary);
  HOSTFUZZ_CHECK(!line.empty() && line.find('\n') == std::string::npos);
}

}  // namespace
}  // namespace ringfuzz::telemetry

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ringfuzz::telemetry::RunOne(data, size);
  return 0;
}

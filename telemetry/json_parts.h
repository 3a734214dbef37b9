// JSON writers for the parts of a telemetry export, shared by ToJson and by
// every other exporter (the campaign's per-epoch log) so that a field is
// named in one place. Each writes one JSON value at the writer's position.
#ifndef RINGFUZZ_TELEMETRY_JSON_PARTS_H_
#define RINGFUZZ_TELEMETRY_JSON_PARTS_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "telemetry/json_writer.h"
#include "telemetry/priority_accounting.h"
#include "telemetry/runtime_counters.h"
#include "telemetry/sketch_report.h"
#include "telemetry/watchdog.h"

namespace ringfuzz::telemetry {

// {"error": status}: an optional part that could not be computed.
void WriteError(JsonWriter& json, const absl::Status& status);

// {the MegakernelRuntimeCounters field names}
void WriteRuntimeCounters(JsonWriter& json,
                          const MegakernelRuntimeCounters& counters);

// {requeue_count, aged_promotions, max_priority_age,
//  drain {should_drain, reason}}
void WritePriorityAccounting(JsonWriter& json,
                             const PriorityRequeueAccounting& accounting);

// {the MegakernelWatchdogSnapshot field names}, or {error}.
void WriteHealth(JsonWriter& json,
                 const absl::StatusOr<MegakernelWatchdogSnapshot>& health);

// "key": [[key, estimate], ...]
void WriteEntries(JsonWriter& json, const char* key,
                  const std::vector<SketchEntry>& entries);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_JSON_PARTS_H_
